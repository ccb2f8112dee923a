"""UnitSet behaves as a set of (cell, trial) pairs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.runs.unit_set import UnitSet

units = st.tuples(st.sampled_from(["", "a", "depths=[0.1]"]), st.integers(0, 5_000))


@given(adds=st.lists(units, max_size=80), drops=st.lists(units, max_size=20), probe=units)
def test_behaves_like_a_set(
    adds: list[tuple[str, int]], drops: list[tuple[str, int]], probe: tuple[str, int]
) -> None:
    got, want = UnitSet(adds), set(adds)
    for unit in drops:
        got.discard(unit)
        want.discard(unit)
    assert len(got) == len(want)
    assert set(got) == want and got == want
    assert (probe in got) == (probe in want)


def test_foreign_values_are_not_members_and_negative_trials_are_refused() -> None:
    done = UnitSet([("a", 3)])
    assert ("a", 3) in done and ("a", 4) not in done and ("b", 3) not in done
    assert "a" not in done and ("a", "3") not in done and ("a", 10**9) not in done
    with pytest.raises(ValueError, match="< 0"):
        done.add(("a", -1))
