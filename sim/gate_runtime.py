"""The floor gate as a library: wrap a runtime's own summarizer so that no declared fact is
abstracted past actionability without a loud, attributable failure.

    gate = FloorGate(facts=registry.facts, max_retries=2, on_exhausted="raise")
    summary = gate.compact(level="L2", text=l1_text, budget_tokens=512, summarize=my_fn)
    context = summary.text

`summarize` is the runtime's callable, in one of two shapes:

- `fn(text, budget_tokens)`: it cannot be told what to keep, so on a retry the gate carries the
  violated facts itself, verbatim in a pin block at the top of the level's text, and asks `fn`
  for the rest with the budget left after the block (pins are charged to the budget).
- `fn(text, budget_tokens, pinned)` (a parameter named `pinned`, or `**kwargs`): on a retry it
  gets the full budget and the facts it must keep (`tuple[Fact, ...]`); its output, pins
  included, must fit the budget.

It returns the summary as `str`, as `(text, consumed_input_tokens)`, or as an object with
`.text` and `.consumed_input_tokens` (such as `sim.summarizers.SummaryResult`; an optional
`.cut = True` says the backend stopped at its output cap). When it reports what it consumed,
the count (in the gate's tokenizer) must equal the input's: anything else is a budget-open call
and raises `BudgetClosureViolation`. Output over budget is never truncated: the gate re-asks
with a tighter budget, then raises `CompactionFailure`.

After every call the gate grades each declared fact that was at its floor in the input, from
the text alone (sim.grade). Below-floor facts are pinned and the call retried (`max_retries`);
a summary that contradicts one of the gate's pins (the rule inverted beside it) counts as a
violation too. When retries run out, `on_exhausted="raise"` raises `RecallFloorViolation` (the
level, fact, grade and the texts before and after), and `"pin"` returns the summary with the
facts still lost inlined in the pin block (`GateResult.inlined`, `GateResult.exhausted`).

Importing this module loads no numpy, pandas, pydantic or matplotlib (benchmarks/import_time.py
measures it); the tokenizer loads on the first call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sim.errors import (
    BudgetClosureViolation,
    BudgetInfeasible,
    CompactionFailure,
    RecallFloorViolation,
    UserError,
)
from sim.grade import grade_text
from sim.tokens import Tokenizer, get_counter
from sim.types import Fact, FactGrade, Grade, Violation

Summarize = Callable[..., Any]
MAX_BUDGET_RETRIES = 2
"""Tighter re-asks after an over-budget output, before failing loudly (as in the harness)."""
CONTRADICTS_PIN = "polarity inverted beside its pin"


def describe(grade: FactGrade) -> str:
    """Why a grade is below the floor, in the words of the diagnosis table."""
    label = grade.grade.label
    if label == "degraded":
        return f"abstracted past actionability (missing {', '.join(grade.missing)})"
    if label == "inverted":
        return "polarity inverted"
    return "dropped"


def pin_block(facts: Sequence[Fact]) -> str:
    """The pinned facts as the level's first lines, verbatim and unlabelled."""
    return "".join(f.text.strip() + "\n" for f in facts)


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
    """A level that passed the gate: its text and both counters, with every retry accounted."""

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


@dataclass(frozen=True, slots=True)
class _Out:
    text: str  # the level's text: pin block + reply
    reply: str
    consumed: int | None
    calls: int
    budget_retries: int
    pin_tokens: int


def _accepts_pinned(fn: Summarize) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "pinned" or p.kind is p.VAR_KEYWORD for p in params)


def _reply(level: str, value: object) -> tuple[str, int | None, bool]:
    """(text, consumed or None, cut) from whichever shape the callable returned."""
    if isinstance(value, str):
        return value, None, False
    if isinstance(value, tuple) and len(value) == 2:
        text, consumed = value
    else:
        text = getattr(value, "text", None)
        consumed = getattr(value, "consumed_input_tokens", None)
    if isinstance(text, str) and isinstance(consumed, int) and not isinstance(consumed, bool):
        return text, consumed, bool(getattr(value, "cut", False))
    raise TypeError(
        f"{level}: summarize returned {type(value).__name__}; expected str, "
        "(text, consumed_input_tokens) or an object with .text and .consumed_input_tokens"
    )


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
        aware = _accepts_pinned(summarize)
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
            out = self._call(level, text, budget_tokens, summarize, aware, tuple(pins), inline)
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
            out = self._inline(level, text, budget_tokens, summarize, aware, pins, inlined, out)
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
        self, out: _Out, guarded: Sequence[Fact], inline: Sequence[Fact]
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
        aware: bool,
        pins: Sequence[Fact],
        inline: tuple[Fact, ...],
        last: _Out,
    ) -> _Out:
        """Retries are spent: carry the facts still lost in the pin block. The last reply is
        kept when it fits beside the block and does not contradict it; else one more call."""
        block = pin_block(inline)
        cost = self.counter.count(block)
        contradicts = any(
            g.grade is Grade.INVERTED for g in grade_text(last.reply, inline, self.counter)
        )
        if not contradicts and self.counter.count(block + last.reply) <= budget:
            return _Out(block + last.reply, last.reply, last.consumed, 0, 0, cost)
        asked = tuple(f for f in pins if f not in inline)  # the block already carries the rest
        return self._call(level, text, budget, fn, aware, asked, inline)

    def _call(
        self,
        level: str,
        text: str,
        budget: int,
        fn: Summarize,
        aware: bool,
        pins: tuple[Fact, ...],
        inline: Sequence[Fact],
    ) -> _Out:
        """One answer that fits: the pin block plus the callable's reply for the budget left.
        Over budget is re-asked tighter, never cut; pins that leave no room fail loudly."""
        block = pin_block(inline)
        cost = self.counter.count(block)
        room = budget - cost
        if room < 1:
            raise BudgetInfeasible(
                level, f"pinned facts need {cost} tokens of budget {budget}; refusing to truncate"
            )
        declared = self.counter.count(text)
        ask, retries = room, 0
        while True:
            value = fn(text, ask, pinned=pins) if aware else fn(text, ask)
            reply, consumed, cut = _reply(level, value)
            if consumed is not None and consumed != declared:
                raise BudgetClosureViolation(level, consumed, declared)
            out = self.counter.count(block + reply)
            if out <= budget and not cut:
                return _Out(block + reply, reply, consumed, retries + 1, retries, cost)
            if retries >= MAX_BUDGET_RETRIES:
                why = "cut at the backend's output cap" if cut else f"> budget {budget}"
                raise CompactionFailure(
                    level,
                    f"output {out} tokens ({why}) after {retries} tighter re-asks; "
                    "refusing to truncate",
                )
            retries += 1
            ask = max(1, int(ask * min(1.0, room / max(out - cost, 1)) * 0.9))


def _ids(items: Iterable[Fact | FactGrade]) -> tuple[str, ...]:
    return tuple(i.fact_id for i in items)


def _why(grade: FactGrade, inline: Sequence[Fact]) -> str:
    if grade.grade is Grade.INVERTED and any(f.fact_id == grade.fact_id for f in inline):
        return CONTRADICTS_PIN
    return describe(grade)
