"""How a level splits its input into calls, and shares its budget between them."""

from __future__ import annotations

from collections.abc import Sequence

from sim.tokens import MemoCounter


def calls(
    pieces: Sequence[str], size: int, budget: int, counter: MemoCounter
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The level's call groups (`size` lower pieces each, 0 = all) and each one's share of the
    level budget, in proportion to its input and never above it."""
    groups: tuple[str, ...]
    if size <= 0:
        groups = ("".join(pieces),)
    else:
        groups = tuple("".join(pieces[i : i + size]) for i in range(0, len(pieces), size))
    sizes = [counter.count(g) for g in groups]
    total = max(sum(sizes), 1)
    return groups, tuple(max(1, budget * s // total) for s in sizes)
