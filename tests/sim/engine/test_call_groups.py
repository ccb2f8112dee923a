"""A level's call groups and budget shares."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.engine.call_groups import calls
from sim.tokens import MemoCounter

CHARS = MemoCounter("chars", len, additive_lines=False)  # sizes the tests can read off


def test_groups_take_size_pieces_each_and_zero_means_one_call() -> None:
    pieces = ["a\n", "bb\n", "ccc\n", "dddd\n", "e\n"]
    groups, _ = calls(pieces, 2, 100, CHARS)
    assert groups == ("a\nbb\n", "ccc\ndddd\n", "e\n")
    assert calls(pieces, 0, 100, CHARS)[0] == ("".join(pieces),)


def test_shares_are_proportional_to_input() -> None:
    _, shares = calls(["x" * 10, "y" * 10, "z" * 10], 1, 100, CHARS)
    assert shares == (33, 33, 33)
    _, shares = calls(["x" * 30, "y" * 10], 1, 400, CHARS)
    assert shares == (300, 100)


def test_an_empty_input_still_gets_one_token() -> None:
    assert calls([""], 1, 128, CHARS)[1] == (1,)


@given(
    sizes=st.lists(st.integers(1, 5_000), min_size=1, max_size=40),
    size=st.integers(0, 6),
    budget=st.integers(40, 10_000),
)
def test_shares_never_exceed_the_budget(sizes: list[int], size: int, budget: int) -> None:
    groups, shares = calls(["x" * n for n in sizes], size, budget, CHARS)
    assert "".join(groups) == "x" * sum(sizes)  # every piece in exactly one call, in order
    assert all(s >= 1 for s in shares)
    assert sum(shares) <= max(budget, len(shares))


def test_tiny_groups_take_their_token_from_the_largest_share() -> None:
    """Found by the property above: 40 x 1/80 rounds down to 0, the floor of one token per call
    made the shares 1 + 1 + 39 = 41 > 40. The extra tokens now come off the largest share."""
    _, shares = calls(["x", "x", "x" * 78], 1, 40, CHARS)
    assert shares == (1, 1, 38)
