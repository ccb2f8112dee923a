"""`sim.history.draws` must make numpy's own values and leave the generator where numpy's calls
would: every history, and so every pinned result, depends on it."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.history.draws import drawing

# small spans (the generator's), any span a 32-bit word can hold, and spans just above a
# power of two, where up to half the words are rejected and redrawn
SPANS = st.one_of(
    st.integers(1, 12),
    st.integers(1, 2**32),
    st.integers(1, 31).map(lambda k: 2**k + 1),
)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("random")),
        st.tuples(st.just("integers"), SPANS),
        st.tuples(st.just("integers2"), st.integers(-5, 5), SPANS),
        st.tuples(st.just("uniform"), st.floats(-1, 1), st.floats(0, 2)),
        st.tuples(st.just("below"), st.lists(SPANS, max_size=14)),
    ),
    max_size=40,
)


def _apply(d: Any, op: tuple[Any, ...], reference: bool) -> Any:
    name, *args = op
    if name == "random":
        return float(d.random())
    if name == "integers":
        return int(d.integers(args[0]))
    if name == "integers2":
        return int(d.integers(args[0], args[0] + args[1]))
    if name == "uniform":
        return float(d.uniform(args[0], args[0] + args[1]))
    if reference:
        return [int(d.integers(span)) for span in args[0]]
    return d.below(args[0])


def _state(rng: np.random.Generator) -> Any:
    """The bit generator's state with arrays as lists (Philox keeps some), for comparing."""

    def plain(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return v.tolist() if isinstance(v, np.ndarray) else v

    return plain(rng.bit_generator.state)


def _check(rng_fast: np.random.Generator, rng_slow: np.random.Generator, ops: list[Any]) -> None:
    with drawing(rng_fast) as d:
        fast = [_apply(d, op, False) for op in ops]
    slow = [_apply(rng_slow, op, True) for op in ops]
    assert fast == slow
    assert _state(rng_fast) == _state(rng_slow)
    # and the stream goes on in step, for whole and for half words alike
    assert int(rng_fast.integers(2**20)) == int(rng_slow.integers(2**20))
    assert rng_fast.random() == rng_slow.random()


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), half_word=st.booleans(), ops=OPS)
def test_draws_equal_numpys_and_leave_the_same_state(
    seed: int, half_word: bool, ops: list[Any]
) -> None:
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    if half_word:  # a 32-bit draw before leaves half an output kept for the next word
        assert int(fast.integers(7)) == int(slow.integers(7))
    _check(fast, slow, ops)


def test_more_outputs_than_one_block_and_many_rejections() -> None:
    ops: list[Any] = [("random",)] * 1500 + [("below", [2**31 + 1] * 14)] * 100
    _check(np.random.default_rng(11), np.random.default_rng(11), ops)


def test_a_rejected_kept_half_word() -> None:
    """A kept half word of 0 is in the biased zone of a span of 10 (words below 6): it is
    rejected and the next word drawn, as numpy does."""
    fast, slow = np.random.default_rng(3), np.random.default_rng(3)
    for rng in (fast, slow):
        state = rng.bit_generator.state
        state.update(has_uint32=1, uinteger=0)
        rng.bit_generator.state = state
    _check(fast, slow, [("below", [10, 7, 6, 6, 4, 5, 5, 4, 9, 9, 9, 9, 9])])


def test_other_bit_generators_draw_through_numpy() -> None:
    ops: list[Any] = [("random",), ("integers", 10), ("uniform", -0.05, 0.1), ("below", [3, 9])]
    fast = np.random.Generator(np.random.Philox(5))
    slow = np.random.Generator(np.random.Philox(5))
    _check(fast, slow, ops)
