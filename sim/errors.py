"""One exception tree, so callers can catch the harness's errors apart from bugs.

`UserError` subclasses are printed as one line by the CLI (exit code 2); everything else is a
defect and keeps its traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.types import Violation


class CompactionSimError(Exception):
    """Base of every error raised on purpose by compaction-sim."""


class UserError(CompactionSimError):
    """Bad input: a scenario, a flag, a file. The message names the file, field and value."""


class ScenarioError(UserError):
    """A scenario file failed validation."""


class RegistryError(UserError):
    """An unknown strategy or summarizer name; the message lists the valid ones."""


class CompactionFailure(CompactionSimError):
    """A compaction call that could not produce a valid level: always loud."""

    def __init__(self, level: str, reason: str) -> None:
        super().__init__(f"{level}: {reason}")
        self.level = level
        self.reason = reason


class BudgetInfeasible(CompactionFailure):
    """Pinned facts alone do not fit the budget; the call refuses rather than truncates."""


class RecallFloorViolation(CompactionFailure):
    """A level dropped or degraded a declared fact below its recall floor, and retries with
    the fact pinned did not recover it. Carries the level, the fact and why."""

    def __init__(
        self, level: str, fact_id: str, reason: str, violations: tuple[Violation, ...] = ()
    ) -> None:
        super().__init__(level, f"fact {fact_id!r}: {reason}")
        self.fact_id = fact_id
        self.violations = violations
