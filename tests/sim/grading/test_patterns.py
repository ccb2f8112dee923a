"""Patterns built from a fact's words (sim/grading/patterns.py)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.grading.patterns import Lazy, any_of

_RUN_CHARS = st.sampled_from("abc-.(")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(_RUN_CHARS, max_size=4), max_size=8), st.text(_RUN_CHARS, max_size=16))
def test_any_of_finds_a_run_exactly_where_one_occurs(runs: list[str], text: str) -> None:
    # few letters, so runs share prefixes, extend one another and occur in the text
    found = re.search(any_of(runs), text) is not None
    assert found == any(run in text for run in runs)


_MORE_CHARS = st.sampled_from("abcdefghij-.(")  # runs open with few characters or with many


@settings(max_examples=800, deadline=None)
@given(st.lists(st.text(_MORE_CHARS, max_size=3), max_size=14), st.text(_MORE_CHARS, max_size=24))
def test_an_opening_run_is_found_exactly_where_no_letter_stands_before_one(
    runs: list[str], text: str
) -> None:
    found = re.search(any_of(runs, opening=True), text) is not None
    assert found == any(
        text.startswith(run, i) and not (i and "a" <= text[i - 1] <= "z")
        for run in runs
        for i in range(len(text) + 1)
    )


def test_any_of_lays_runs_out_by_shared_prefix() -> None:
    assert any_of(["account", "acct", "acc", "b"]) == "(?:acc|b)"
    assert any_of(["tent", "tend"]) == "ten(?:d|t)"
    assert any_of([]) == "(?!)"
    # the opening test after the first character, so the pattern opens with one
    assert any_of(["pin", "pen"], opening=True) == r"p(?<![a-z][\s\S])(?:en|in)"
    assert any_of("abcdefgh", opening=True).startswith("(?<![a-z])(?:a|b|")


def test_a_lazy_pattern_searches_as_its_source_compiled() -> None:
    lazy = Lazy(r" off (?:9464|9465) ")
    assert lazy.search(" move it off 9464 now ") is not None
    assert lazy.search(" keep 9464 ") is None
    assert [m.group() for m in Lazy(r"\d+").finditer("a 3 b 45")] == ["3", "45"]
    assert Lazy("a") == Lazy("a") and hash(Lazy("a")) == hash(Lazy("a"))
