"""One exception tree, so callers can catch the harness's errors apart from bugs.

`UserError` subclasses are printed as one line by the CLI (exit code 2); everything else is a
defect and keeps its traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.types import Fact, FactGrade, Violation


class CompactionSimError(Exception):
    """Base of every error raised on purpose by compaction-sim."""


class UserError(CompactionSimError):
    """Bad input: a scenario, a flag, a file. The message names the file, field and value."""


class ScenarioError(UserError):
    """A scenario file failed validation."""


class RegistryError(UserError):
    """An unknown strategy or summarizer name; the message lists the valid ones."""


class RunStoreError(UserError):
    """A run directory that cannot be read or written as asked (sim.runs.results)."""


class ReportError(UserError):
    """Trial rows the report cannot read, or an output file it cannot write."""


class TransientError(CompactionSimError):
    """A summarizer call that failed in a way worth retrying (an overloaded server, a dropped
    connection); the harness retries it with capped exponential backoff and jitter."""


class CallTimeout(TransientError):
    """A summarizer call that gave no answer within its time limit."""


class SummarizerUnavailable(CompactionSimError):
    """A summarizer call that kept failing after every retry: the trial is recorded as an
    error with this reason and the run goes on."""


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
    the fact pinned did not recover it. Carries the level, the fact and why; the runtime gate
    (sim.runtime.floor_gate) also attaches the fact, its grade and the level's texts before and
    after, so the failure can be logged and diagnosed where it happened."""

    def __init__(
        self,
        level: str,
        fact_id: str,
        reason: str,
        violations: tuple[Violation, ...] = (),
        *,
        fact: Fact | None = None,
        grade: FactGrade | None = None,
        text_before: str = "",
        text_after: str = "",
    ) -> None:
        super().__init__(level, f"fact {fact_id!r}: {reason}")
        self.fact_id = fact_id
        self.violations = violations
        self.fact = fact
        self.grade = grade
        self.text_before = text_before
        self.text_after = text_after


class BudgetClosureViolation(CompactionFailure):
    """A call consumed less (or more) input than it was given: a budget-open read whose unread
    tail nobody would otherwise notice (the note's condition 1)."""

    def __init__(self, level: str, consumed: int, declared: int) -> None:
        super().__init__(
            level,
            f"budget-open call: consumed {consumed} of {declared} input tokens; "
            "the rest was never read",
        )
        self.consumed = consumed
        self.declared = declared


MAX_MESSAGE_CHARS = 400
"""An error or warning line is cut to this many characters: it names the file, the field and
the start of the value, and a 3,000-character value must not bury the rest of the output."""
_CONTROLS = {c: c.encode("unicode_escape").decode("ascii") for c in map(chr, range(32))}
_CONTROLS |= {chr(0x7F): "\\x7f", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_CONTROLS |= {chr(c): f"\\x{c:02x}" for c in range(0x80, 0xA0)}
_CONTROLS |= {chr(c): f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def one_line(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """`message` safe to print as one terminal line: control characters (a newline that would
    forge a second `compsim: error:` line, an escape sequence, a bidi override) and lone
    surrogates (an undecodable path) shown escaped, and the whole cut to `limit` characters."""
    out = []
    for c in message:
        if c in _CONTROLS:
            out.append(_CONTROLS[c])
        elif "\ud800" <= c <= "\udfff":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    text = "".join(out)
    if len(text) > limit:
        cut = len(text) - limit
        text = f"{text[:limit]}... [{cut} more characters]"
    return text
