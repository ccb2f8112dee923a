"""The floor check the framework adapters share: which declared facts the history being
compacted holds at their floor, which of them a summary lost, and the retry that pins them.

A framework's compaction call writes a summary to replace part of its history. The adapter
grades that summary from its text (sim.grading.grade) against the facts the replaced messages
held at their floor; on a loss it asks again with the lost rules pinned (told to the framework's
summarizer as an instruction to keep them word for word), up to `max_retries` times, and if the
summary still loses a rule it keeps the uncompacted history and records the violation: loud,
attributed, and nothing silently gone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from sim.errors import RecallFloorViolation, UserError
from sim.grading.grade import grade_text
from sim.runtime.floor_gate import describe
from sim.tokens import Tokenizer, get_counter
from sim.types import Fact, FactGrade, Violation

log = logging.getLogger("sim.runtime.adapters")
OnViolation = Literal["keep", "raise"]


PIN_HEADING = "These rules still apply and must appear in the summary word for word:"
CARRIED_HEADING = "These rules still apply:"


def pin_instruction(facts: Sequence[Fact], heading: str = PIN_HEADING) -> str:
    """What a retry adds: the lost rules, one per line under `heading` (to the summarizer:
    keep them word for word; beside a compacted input: they still apply)."""
    rules = "".join(f"- {f.text.strip()}\n" for f in facts)
    return f"{heading}\n{rules}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One compaction through the check: the accepted summary (None: keep the history
    uncompacted), the facts pinned on retries and every violation seen."""

    level: str
    summary: str | None
    attempts: int
    pinned: tuple[str, ...]
    violations: tuple[Violation, ...]

    @property
    def kept_uncompacted(self) -> bool:
        return self.summary is None


class FloorCheck:
    """Declared facts, retries, and what to do when they run out ("keep": leave the history
    uncompacted and log; "raise": RecallFloorViolation)."""

    def __init__(
        self,
        facts: Iterable[Fact],
        *,
        max_retries: int = 2,
        on_violation: OnViolation = "keep",
        counter: Tokenizer | None = None,
    ) -> None:
        self.facts = tuple(facts)
        if not all(isinstance(f, Fact) for f in self.facts):
            raise UserError("facts must be Fact values (sim.declare_fact, sim.load_floor_registry)")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise UserError(f"max_retries={max_retries!r} must be an int >= 0")
        if on_violation not in ("keep", "raise"):
            raise UserError(f"on_violation={on_violation!r} must be 'keep' or 'raise'")
        self.max_retries = max_retries
        self.on_violation = on_violation
        self.counter = counter or get_counter()
        self.outcomes: list[Outcome] = []
        """Every compaction this check saw, in order (the runtime's audit trail)."""

    def guarded(self, before: str) -> tuple[Fact, ...]:
        grades = grade_text(before, self.facts, self.counter)
        return tuple(
            f for f, g in zip(self.facts, grades, strict=True) if f.floored and g.grade.at_floor
        )

    def lost(self, guarded: Sequence[Fact], after: str) -> tuple[FactGrade, ...]:
        return tuple(g for g in grade_text(after, guarded, self.counter) if not g.grade.at_floor)

    def run(
        self,
        level: str,
        before: str,
        produce: Callable[[tuple[Fact, ...]], str],
        kept: str = "",
    ) -> Outcome:
        """`produce(pins)` writes the summary of `before`, retried with the lost facts pinned;
        `kept` is what stays verbatim beside it (a fact it holds is not lost)."""
        guarded = self.guarded(before)
        pins: tuple[Fact, ...] = ()
        violations: list[Violation] = []
        for attempt in range(self.max_retries + 1):
            summary = produce(pins)
            done, pins = self._graded(
                level, guarded, summary + "\n" + kept, pins, attempt, violations
            )
            if done:
                return self._finish(level, summary, attempt, pins, violations, before)
        return self._finish(level, None, self.max_retries, pins, violations, before)

    async def arun(
        self,
        level: str,
        before: str,
        produce: Callable[[tuple[Fact, ...]], Awaitable[str]],
        kept: str = "",
    ) -> Outcome:
        """`run` for an async framework."""
        guarded = self.guarded(before)
        pins: tuple[Fact, ...] = ()
        violations: list[Violation] = []
        for attempt in range(self.max_retries + 1):
            summary = await produce(pins)
            done, pins = self._graded(
                level, guarded, summary + "\n" + kept, pins, attempt, violations
            )
            if done:
                return self._finish(level, summary, attempt, pins, violations, before)
        return self._finish(level, None, self.max_retries, pins, violations, before)

    def _graded(
        self,
        level: str,
        guarded: Sequence[Fact],
        summary: str,
        pins: tuple[Fact, ...],
        attempt: int,
        violations: list[Violation],
    ) -> tuple[bool, tuple[Fact, ...]]:
        lost = self.lost(guarded, summary)
        violations += [Violation(level, g.fact_id, describe(g), g.grade, attempt) for g in lost]
        ids = {g.fact_id for g in lost}
        return not lost, pins + tuple(f for f in guarded if f.fact_id in ids and f not in pins)

    def _finish(
        self,
        level: str,
        summary: str | None,
        attempts: int,
        pins: tuple[Fact, ...],
        violations: list[Violation],
        before: str,
    ) -> Outcome:
        lost_ids = (
            {v.fact_id for v in violations if v.attempt == attempts} if summary is None else set()
        )
        final = tuple(
            Violation(v.level, v.fact_id, v.reason, v.grade, v.attempt, v.fact_id not in lost_ids)
            for v in violations
        )
        outcome = Outcome(level, summary, attempts + 1, tuple(f.fact_id for f in pins), final)
        self.outcomes.append(outcome)
        if summary is not None:
            return outcome
        first = next(v for v in final if not v.recovered)
        log.warning(
            "%s: summary lost %s (%s) after %d attempts; kept the uncompacted history",
            level, first.fact_id, first.reason, attempts + 1,
        )  # fmt: skip
        if self.on_violation == "raise":
            raise RecallFloorViolation(
                level, first.fact_id, first.reason, final, text_before=before
            )
        return outcome
