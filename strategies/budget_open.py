"""budget_open: reads only the prefix that fits its read window, so the tail is never read.

This is the note's dangerous case: at the call site it looks exactly like a budget-closed
call (the output fits), but `consumed_input_tokens < declared_input_tokens`.
"""

from __future__ import annotations

from sim.summarizers.base import SummaryRequest
from sim.types import PieceResult
from strategies.base import CallContext
from strategies.registry import strategy


class BudgetOpen:
    name: str
    args: dict[str, object]

    def __init__(self, read_window_factor: float, instruction: str | None) -> None:
        self.read_window_factor = read_window_factor
        self.instruction = instruction

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        window = max(1, int(budget * self.read_window_factor))
        head: list[str] = []
        size = 0
        lines = text.splitlines(keepends=True)
        for i, line in enumerate(lines):
            cost = ctx.counter.count(line) if line.strip() else 0
            if size + cost > window:
                lines = lines[i:]
                break
            head.append(line)
            size += cost
        else:
            lines = []
        # one call and no re-ask: a real model's overflow is kept and reported by the level's
        # budget check (budget_ok false), as a budget-open runtime would ship it
        instruction = ctx.instruction(self.instruction, "compress")
        result = ctx.summarizer.summarize(
            SummaryRequest("".join(head), budget, instruction, (), ctx.level)
        )
        return PieceResult(
            text=result.text,
            declared_input_tokens=ctx.counter.count(text),
            consumed_input_tokens=result.consumed_input_tokens,
            unread_text="".join(lines),
            calls=1,
        )


@strategy("budget_open")
def budget_open(read_window_factor: float = 2.0, instruction: str | None = None) -> BudgetOpen:
    """Prefix reader: reads at most `read_window_factor` x budget tokens of its input
    (instruction: the level's, else compression)."""
    return BudgetOpen(read_window_factor, instruction)
