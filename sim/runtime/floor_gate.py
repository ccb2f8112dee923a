"""The floor gate as a library: a runtime wraps its own summarizer so that no declared fact is
abstracted past actionability without a loud, attributable failure (docs/floor-gate.md).

    gate = FloorGate(facts=registry.facts, max_retries=2, on_exhausted="raise")   # or "pin"
    summary = gate.compact(level="L2", text=l1_text, budget_tokens=512, summarize=my_fn)

`summarize` is `fn(text, budget_tokens)`, which cannot be told what to keep (on a retry the gate
carries the lost facts itself, verbatim in a pin block at the top of the level, and gives `fn`
the budget left after it), or `fn(text, budget_tokens, pinned)`, which is given the facts to
keep and the full budget. It returns `str`, `(text, consumed_input_tokens)` or an object with
`.text` and `.consumed_input_tokens` (and optionally `.cut`). Reported consumption must equal
the input's tokens (else `BudgetClosureViolation`); output over budget is re-asked tighter,
never cut. Every declared fact at its floor in the input is graded from the output's text
(sim.grading.grade); a reply that inverts a pinned fact counts as lost. When retries run out,
"raise" raises `RecallFloorViolation` with the level, fact, grade and texts before and after; "pin"
inlines the facts still lost and reports it (`GateResult.inlined`, `.exhausted`).

This import path loads no numpy, pandas, pydantic or matplotlib (benchmarks/import_time.py);
the tokenizer loads on the first call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from sim.errors import RecallFloorViolation, UserError
from sim.grading.grade import grade_text
from sim.runtime.call import Answer, Summarize, accepts_pinned, call_fitting, pin_block
from sim.tokens import Tokenizer, get_counter
from sim.types import Fact, FactGrade, Grade, Violation

CONTRADICTS_PIN = "polarity inverted beside its pin"


def describe(grade: FactGrade) -> str:
    """Why a grade is below the floor, in the words of the diagnosis table."""
    label = grade.grade.label
    if label == "degraded":
        return f"abstracted past actionability (missing {', '.join(grade.missing)})"
    if label == "inverted":
        return "polarity inverted"
    return "dropped"


@dataclass(frozen=True, slots=True)
class Attempt:
    """One floor attempt: what the callable was asked for and what fell below the floor."""

    index: int
    budget_tokens: int
    pinned: tuple[str, ...]
    tokens_out: int
    lost: tuple[FactGrade, ...]


@dataclass(frozen=True, slots=True)
class GateResult:
    """A level that passed the gate: its text and both counters, with every retry accounted.

    `pinned`: facts pinned on retries; `inlined`: facts the text carries in the gate's pin block
    (`pin_tokens` of it); `exhausted`: retries ran out and on_exhausted="pin" inlined the rest;
    `unguarded`: facts already below their floor in the input (not this level's loss);
    `grades`: every declared fact graded on the returned text."""

    level: str
    text: str
    budget_tokens: int
    tokens_in: int
    tokens_out: int
    consumed_input_tokens: int | None
    calls: int
    floor_retries: int
    budget_retries: int
    pin_tokens: int
    pinned: tuple[str, ...]
    inlined: tuple[str, ...]
    exhausted: bool
    grades: tuple[FactGrade, ...]
    unguarded: tuple[str, ...]
    violations: tuple[Violation, ...]
    attempts: tuple[Attempt, ...]

    def __str__(self) -> str:
        return self.text

    @property
    def closure_verified(self) -> bool:
        """The callable reported its consumption (a mismatch would have raised); False means
        budget closure could not be checked for this level."""
        return self.consumed_input_tokens is not None


class FloorGate:
    """Enforces declared recall floors on a runtime's compaction calls; see the module doc."""

    def __init__(
        self,
        facts: Iterable[Fact],
        *,
        max_retries: int = 2,
        on_exhausted: Literal["raise", "pin"] = "raise",
        counter: Tokenizer | None = None,
    ) -> None:
        self.facts = tuple(facts)
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise UserError(f"FloorGate: max_retries={max_retries!r} must be an int >= 0")
        if on_exhausted not in ("raise", "pin"):
            raise UserError(f"FloorGate: on_exhausted={on_exhausted!r} must be 'raise' or 'pin'")
        seen: set[str] = set()
        for f in self.facts:
            if not isinstance(f, Fact):
                raise UserError(f"FloorGate: facts must be Fact values, got {f!r}")
            if f.fact_id in seen:
                raise UserError(f"FloorGate: fact id {f.fact_id!r} is declared twice")
            seen.add(f.fact_id)
        self.max_retries = max_retries
        self.on_exhausted = on_exhausted
        self._counter = counter

    @property
    def counter(self) -> Tokenizer:
        if self._counter is None:
            self._counter = get_counter()
        return self._counter

    def compact(
        self, *, level: str, text: str, budget_tokens: int, summarize: Summarize
    ) -> GateResult:
        if budget_tokens <= 0:
            raise UserError(f"{level}: budget_tokens={budget_tokens} must be > 0")
        aware = accepts_pinned(summarize)
        input_grades = grade_text(text, self.facts, self.counter)
        guarded = [
            f
            for f, g in zip(self.facts, input_grades, strict=True)
            if f.floored and g.grade.at_floor
        ]
        unguarded = tuple(f.fact_id for f in self.facts if f not in guarded)
        pins: list[Fact] = []
        attempts: list[Attempt] = []
        violations: list[Violation] = []
        calls = budget_retries = 0
        for index in range(self.max_retries + 1):
            inline = () if aware else tuple(pins)
            out = call_fitting(
                summarize,
                level=level,
                text=text,
                budget=budget_tokens,
                counter=self.counter,
                pins=tuple(pins),
                inline=inline,
            )
            calls, budget_retries = calls + out.calls, budget_retries + out.budget_retries
            lost = self._lost(out, guarded, inline)
            tokens_out = self.counter.count(out.text)
            asked = budget_tokens - out.pin_tokens
            attempts.append(Attempt(index, asked, _ids(pins), tokens_out, lost))
            violations += [
                Violation(level, g.fact_id, _why(g, inline), g.grade, index) for g in lost
            ]
            if not lost or index == self.max_retries:
                break
            pins += [f for f in guarded if f.fact_id in _ids(lost) and f not in pins]
        inlined: tuple[Fact, ...] = () if aware else tuple(pins)
        exhausted = bool(lost)
        if lost and self.on_exhausted == "pin":
            inlined = tuple(f for f in guarded if f in inlined or f.fact_id in _ids(lost))
            out = self._inline(level, text, budget_tokens, summarize, pins, inlined, out)
            calls += out.calls
            budget_retries += out.budget_retries
            lost = self._lost(out, guarded, inlined)
            n = len(attempts)
            violations += [Violation(level, g.fact_id, _why(g, inlined), g.grade, n) for g in lost]
        still = _ids(lost)
        final = tuple(
            Violation(v.level, v.fact_id, v.reason, v.grade, v.attempt, v.fact_id not in still)
            for v in violations
        )
        if lost:
            first = lost[0]
            fact = next(f for f in guarded if f.fact_id == first.fact_id)
            raise RecallFloorViolation(
                level,
                first.fact_id,
                _why(first, inlined),
                final,
                fact=fact,
                grade=first,
                text_before=text,
                text_after=out.text,
            )
        return GateResult(
            level=level,
            text=out.text,
            budget_tokens=budget_tokens,
            tokens_in=self.counter.count(text),
            tokens_out=self.counter.count(out.text),
            consumed_input_tokens=out.consumed,
            calls=calls,
            floor_retries=len(attempts) - 1,
            budget_retries=budget_retries,
            pin_tokens=out.pin_tokens,
            pinned=_ids(pins),
            inlined=_ids(inlined),
            exhausted=exhausted,
            grades=grade_text(out.text, self.facts, self.counter),
            unguarded=unguarded,
            violations=final,
            attempts=tuple(attempts),
        )

    def _lost(
        self, out: Answer, guarded: Sequence[Fact], inline: Sequence[Fact]
    ) -> tuple[FactGrade, ...]:
        """Guarded facts below the floor, and pinned facts the reply itself contradicts."""
        lost = [g for g in grade_text(out.text, guarded, self.counter) if not g.grade.at_floor]
        if inline:
            lost += [
                g for g in grade_text(out.reply, inline, self.counter) if g.grade is Grade.INVERTED
            ]
        return tuple(lost)

    def _inline(
        self,
        level: str,
        text: str,
        budget: int,
        fn: Summarize,
        pins: Sequence[Fact],
        inline: tuple[Fact, ...],
        last: Answer,
    ) -> Answer:
        """Retries are spent: carry the facts still lost in the pin block. The last reply is
        kept when it fits beside the block and does not contradict it; else one more call."""
        block = pin_block(inline)
        cost = self.counter.count(block)
        contradicts = any(
            g.grade is Grade.INVERTED for g in grade_text(last.reply, inline, self.counter)
        )
        if not contradicts and self.counter.count(block + last.reply) <= budget:
            return Answer(block + last.reply, last.reply, last.consumed, 0, 0, cost)
        asked = tuple(f for f in pins if f not in inline)  # the block already carries the rest
        return call_fitting(
            fn,
            level=level,
            text=text,
            budget=budget,
            counter=self.counter,
            pins=asked,
            inline=inline,
        )


def _ids(items: Iterable[Fact | FactGrade]) -> tuple[str, ...]:
    return tuple(i.fact_id for i in items)


def _why(grade: FactGrade, inline: Sequence[Fact]) -> str:
    if grade.grade is Grade.INVERTED and any(f.fact_id == grade.fact_id for f in inline):
        return CONTRADICTS_PIN
    return describe(grade)
