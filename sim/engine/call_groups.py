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
    shares = [max(1, budget * s // total) for s in sizes]
    # Every call gets at least one token; when tiny groups got theirs from the rounding, take
    # it back from the largest shares, so the level's shares never add up past its budget.
    excess = sum(shares) - budget
    while excess > 0:
        largest = max(range(len(shares)), key=shares.__getitem__)
        if shares[largest] <= 1:  # a budget smaller than the number of calls: one each
            break
        shares[largest] -= 1
        excess -= 1
    return groups, tuple(shares)
