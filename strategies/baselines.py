"""Baselines a user always wants beside the strategies under test: an empty compactor emits
nothing and so fits every budget, and it must never look like perfect compression.

keep_all: no compaction, the upper bound (it fails the budget check, honestly).
head / tail: keep the first / last whole lines that fit; what they cut was never used, so
    their consumed input is what they kept and the closure check fails visibly.
empty: emits nothing.
pinned: declared facts carried verbatim in a pin block beside a compressed summary, both
    inside the budget: the cost ceiling of never losing a declared fact.
"""

from __future__ import annotations

from sim.types import PieceResult
from strategies.base import CallContext, read_closed
from strategies.registry import strategy


def _lines(text: str) -> list[str]:
    return [ln.strip() + "\n" for ln in text.splitlines() if ln.strip()]


class KeepAll:
    name: str
    args: dict[str, object]

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        n = ctx.counter.count(text)
        return PieceResult(text, n, n)


class Truncate:
    name: str
    args: dict[str, object]

    def __init__(self, from_end: bool) -> None:
        self.from_end = from_end

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        lines = _lines(text)
        order = reversed(lines) if self.from_end else iter(lines)
        kept: list[str] = []
        size = 0
        for line in order:
            cost = ctx.counter.count(line)
            if size + cost > budget:
                break
            kept.append(line)
            size += cost
        if self.from_end:
            kept.reverse()
        cut = len(lines) - len(kept)
        unread = lines[:cut] if self.from_end else lines[len(kept) :]
        return PieceResult("".join(kept), ctx.counter.count(text), size, "".join(unread))


class Empty:
    name: str
    args: dict[str, object]

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        return PieceResult("", ctx.counter.count(text), 0, text)


class Pinned:
    name: str
    args: dict[str, object]

    def __init__(self, instruction: str | None) -> None:
        self.instruction = instruction

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        grades = ctx.grade(text, ctx.registry)
        keep = [f for f, g in zip(ctx.registry, grades, strict=True) if g.grade.at_floor]
        block = "".join(f.text.strip() + "\n" for f in keep)
        pin_cost = ctx.counter.count(block)
        pinned_lines = set(block.splitlines())
        rest = "".join(ln for ln in _lines(text) if ln.strip() not in pinned_lines)
        calls = retries = 0
        summary, consumed = "", ctx.counter.count(text) - ctx.counter.count(rest)
        if pin_cost > budget:  # pins are charged to the budget, never outside it
            from sim.errors import BudgetInfeasible

            raise BudgetInfeasible(
                ctx.level, f"pin block needs {pin_cost} tokens > budget {budget}"
            )
        if rest and budget > pin_cost:
            read = read_closed(
                rest, budget - pin_cost, ctx, ctx.instruction(self.instruction, "compress")
            )
            summary, calls, retries = read.text, read.calls, read.budget_retries
            consumed += read.consumed
        elif rest:  # the pins fill the budget exactly: the rest was read, none of it fits
            consumed += ctx.counter.count(rest)
        return PieceResult(
            block + summary,
            ctx.counter.count(text),
            consumed,
            calls=calls,
            budget_retries=retries,
            pin_tokens=pin_cost,
        )


@strategy("keep_all")
def keep_all() -> KeepAll:
    """No compaction: the upper bound on retention (and on cost)."""
    return KeepAll()


@strategy("head")
def head() -> Truncate:
    """Keep the first whole lines that fit the budget."""
    return Truncate(from_end=False)


@strategy("tail")
def tail() -> Truncate:
    """Keep the last whole lines that fit the budget."""
    return Truncate(from_end=True)


@strategy("empty")
def empty() -> Empty:
    """Emit nothing: compression only counts when facts survive."""
    return Empty()


@strategy("pinned")
def pinned(instruction: str | None = None) -> Pinned:
    """Declared facts verbatim in a pin block + a compressed summary, inside the budget."""
    return Pinned(instruction)
