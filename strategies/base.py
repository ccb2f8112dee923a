"""What a strategy sees and the reading disciplines the built-in strategies share.

A strategy sees the text of one call group, its share of the level's budget, a summarizer,
a token counter, a text-only grader and the runtime's *declared* floor registry. It never sees
the planted ground truth (tests/strategies/test_isolation.py checks its imports).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from sim.errors import CompactionFailure
from sim.prompts.instructions import resolve
from sim.summarizers.base import Summarizer, SummaryRequest
from sim.tokens import MemoCounter
from sim.types import Fact, Grader, PieceResult

MAX_BUDGET_RETRIES = 2
"""Re-asks with a tighter budget when a backend's output overflows, before failing loudly."""
OVERFLOW_FAILURE = re.compile(r"after (\d+) tighter re-asks; refusing to truncate$")
"""How a level that failed on overflow says it (the re-asks are its calls over budget, less
one): a calibration reads a recorded run's overflow rate from it (sim.runs.moments)."""


@dataclass(frozen=True, slots=True)
class CallContext:
    level: str
    level_instruction: str | None
    summarizer: Summarizer
    counter: MemoCounter
    grade: Grader
    registry: tuple[Fact, ...]

    def instruction(self, own: str | None, fallback: str) -> str:
        """The strategy's own instruction if it has one, else the level's, else `fallback`."""
        return resolve(own or self.level_instruction or fallback)


class Strategy(Protocol):
    name: str
    args: dict[str, Any]

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult: ...


@dataclass(frozen=True, slots=True)
class Read:
    """The outcome of a budget-closed read: output, consumption and what it cost."""

    text: str
    consumed: int
    calls: int
    budget_retries: int


def split_lines(text: str, limit: int, counter: MemoCounter) -> list[str]:
    """Chunks of whole lines, each at most `limit` tokens (a longer line is its own chunk)."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        cost = counter.count_line(line.strip())
        if current and size + cost > limit:
            chunks.append("".join(current))
            current, size = [], 0
        current.append(line.strip() + "\n")
        size += cost
    if current:
        chunks.append("".join(current))
    return chunks


def summarize_fitting(
    text: str, budget: int, ctx: CallContext, instruction: str, pinned: tuple[Fact, ...] = ()
) -> Read:
    """One call whose output must fit: overflow is re-asked tighter, never cut."""
    calls = retries = 0
    ask = budget
    while True:
        result = ctx.summarizer.summarize(SummaryRequest(text, ask, instruction, pinned, ctx.level))
        calls += 1
        out = ctx.counter.count(result.text)
        if out <= budget and not result.cut:
            return Read(result.text, result.consumed_input_tokens, calls, retries)
        if retries >= MAX_BUDGET_RETRIES:
            why = "cut at the backend's output cap" if result.cut else f"> budget {budget}"
            raise CompactionFailure(
                ctx.level,
                f"output {out} tokens ({why}) after {retries} tighter "
                "re-asks; refusing to truncate",
            )
        retries += 1
        ask = max(1, int(ask * min(1.0, budget / max(out, 1)) * 0.9))


def read_closed(
    text: str, budget: int, ctx: CallContext, instruction: str, pinned: tuple[Fact, ...] = ()
) -> Read:
    """Consume 100% of the input: map-reduce over window-sized chunks when it does not fit
    the summarizer's context, then re-compress the joined partials until they fit."""
    declared = ctx.counter.count(text)
    window = ctx.summarizer.max_input_tokens
    if declared <= window:
        return summarize_fitting(text, budget, ctx, instruction, pinned)
    chunks = split_lines(text, window, ctx.counter)
    partial_budget = max(1, window // len(chunks))  # the partials together fit one window
    parts = [summarize_fitting(c, partial_budget, ctx, instruction, pinned) for c in chunks]
    joined = "".join(p.text for p in parts)
    calls = sum(p.calls for p in parts)
    retries = sum(p.budget_retries for p in parts)
    final = read_closed(joined, budget, ctx, instruction, pinned)
    consumed = sum(p.consumed for p in parts)
    return Read(final.text, consumed, calls + final.calls, retries + final.budget_retries)
