"""budget_closed and re_ranking: both consume 100% of their input (map-reduce past the
summarizer's window) and guarantee the output fits by re-asking, never by cutting.
They differ only in the instruction: compression vs "summarize for task continuity"."""

from __future__ import annotations

from sim.types import PieceResult
from strategies.base import CallContext, read_closed
from strategies.registry import strategy


class BudgetClosed:
    name: str
    args: dict[str, object]

    def __init__(self, instruction: str) -> None:
        self.instruction = instruction

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        read = read_closed(text, budget, ctx, ctx.instruction(self.instruction, "compress"))
        return PieceResult(
            text=read.text,
            declared_input_tokens=ctx.counter.count(text),
            consumed_input_tokens=read.consumed,
            calls=read.calls,
            budget_retries=read.budget_retries,
        )


@strategy("budget_closed")
def budget_closed(instruction: str = "compress") -> BudgetClosed:
    """Full reader, compression instruction."""
    return BudgetClosed(instruction)


@strategy("re_ranking")
def re_ranking(instruction: str = "continuity") -> BudgetClosed:
    """Full reader, re-ranking instruction ("summarize for task continuity"), no floor gate."""
    return BudgetClosed(instruction)
