"""floor_gated: budget-closed reading under any instruction, with the note's floor gate.

After every call it grades each declared fact that was at or above its floor in the input;
one that fell below is a violation of *this* level (locality of blame). The call is retried
with the violated facts pinned (pins are charged to the budget) up to `max_retries` times,
then the level fails loudly: `RecallFloorViolation`, or with `on_exhausted="flag"` the output
is kept and the facts are flagged degraded. Pins stay pinned at later levels (`sticky`), since
a fact that a level could not keep once will be at risk again at the next, tighter one.
"""

from __future__ import annotations

from typing import Literal

from sim.errors import RecallFloorViolation
from sim.runtime.floor_gate import describe  # one wording for the harness and the runtime gate
from sim.types import Fact, FactGrade, PieceResult, Violation
from strategies.base import CallContext, read_closed
from strategies.registry import strategy


class FloorGated:
    name: str
    args: dict[str, object]

    def __init__(
        self,
        instruction: str | None,
        max_retries: int,
        on_exhausted: Literal["raise", "flag"],
        sticky: bool,
    ) -> None:
        self.instruction = instruction
        self.max_retries = max_retries
        self.on_exhausted = on_exhausted
        self.sticky = sticky
        self._pinned: set[str] = set()

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        instruction = ctx.instruction(self.instruction, "continuity")
        guarded = [
            f
            for f, g in zip(ctx.registry, ctx.grade(text, ctx.registry), strict=True)
            if g.grade.at_floor
        ]
        pins: list[Fact] = [f for f in guarded if f.fact_id in self._pinned]
        violations: list[Violation] = []
        calls = budget_retries = floor_retries = 0
        lost: list[FactGrade] = []
        for attempt in range(self.max_retries + 1):
            read = read_closed(text, budget, ctx, instruction, tuple(pins))
            calls += read.calls
            budget_retries += read.budget_retries
            lost = [g for g in ctx.grade(read.text, guarded) if not g.grade.at_floor]
            violations += [
                Violation(ctx.level, g.fact_id, describe(g), g.grade, attempt) for g in lost
            ]
            if not lost or attempt == self.max_retries:
                break
            floor_retries += 1
            lost_ids = {g.fact_id for g in lost}
            pins += [f for f in guarded if f.fact_id in lost_ids and f not in pins]
        if self.sticky:
            self._pinned.update(f.fact_id for f in pins)
        still = {g.fact_id for g in lost}
        final = tuple(
            Violation(v.level, v.fact_id, v.reason, v.grade, v.attempt, v.fact_id not in still)
            for v in violations
        )
        if lost and self.on_exhausted == "raise":
            first = lost[0]
            raise RecallFloorViolation(ctx.level, first.fact_id, describe(first), final)
        return PieceResult(
            text=read.text,
            declared_input_tokens=ctx.counter.count(text),
            consumed_input_tokens=read.consumed,
            calls=calls,
            floor_retries=floor_retries,
            budget_retries=budget_retries,
            pin_tokens=sum(ctx.counter.count_line(f.text) for f in pins),
            violations=final,
            flagged=tuple(sorted(still)),
        )


@strategy("floor_gated")
def floor_gated(
    instruction: str | None = None,
    max_retries: int = 2,
    on_exhausted: Literal["raise", "flag"] = "raise",
    sticky: bool = True,
) -> FloorGated:
    """Full reader, any instruction (default: the level's, else re-ranking), floor gate on
    every declared fact after every call, pinned retries, then a loud failure."""
    if max_retries < 0:
        from sim.errors import UserError

        raise UserError(f"floor_gated: max_retries={max_retries} must be >= 0")
    if on_exhausted not in ("raise", "flag"):
        from sim.errors import UserError

        raise UserError(f"floor_gated: on_exhausted={on_exhausted!r} must be 'raise' or 'flag'")
    return FloorGated(instruction, max_retries, on_exhausted, sticky)
