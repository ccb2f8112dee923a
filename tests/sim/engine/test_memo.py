"""The work strategies share within a trial: memoized, it must give what fresh work gives."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sim.engine.call_groups import calls
from sim.engine.memo import trial_memo
from sim.grading.grade import grade_text
from sim.summarizers.base import SummaryRequest
from sim.summarizers.simulated import SimulatedSummarizer
from sim.types import Polarity
from tests.helpers import counter, small_history


def test_memo_is_per_history_and_matches_fresh_work() -> None:
    history = small_history(seed=3)
    memo = trial_memo(history, counter())
    assert trial_memo(history, counter()) is memo  # every strategy of the trial shares it
    assert memo.l0_text == history.text
    assert memo.l0_tokens == counter().count(history.text)
    assert memo.declared == history.declared_facts
    assert memo.first_calls(3, 500) == calls(history.pieces, 3, 500, counter())
    assert memo.grade(memo.l0_text, history.facts) == grade_text(
        history.text, history.facts, counter()
    )
    other = small_history(seed=4)
    assert trial_memo(other, counter()) is not memo  # a new trial: the old memo is released
    assert trial_memo(other, counter()).l0_text == other.text


def test_grade_memo_keys_on_the_facts_themselves() -> None:
    history = small_history(seed=5)
    memo = trial_memo(history, counter())
    fact = history.facts[0]
    text = fact.text + "\n"
    assert memo.grade(text, [fact])[0].grade.at_floor
    flipped = Polarity.REQUIRE if fact.polarity is Polarity.FORBID else Polarity.FORBID
    inverted = replace(fact, polarity=flipped)  # same text, another fact: its own verdict
    assert memo.grade(text, [inverted]) == grade_text(text, [inverted], counter())
    assert not memo.grade(text, [inverted])[0].grade.at_floor
    assert memo.grade(text, []) == ()


def test_a_cached_read_does_not_leak_one_call_into_the_next() -> None:
    """The summarizer's read of a text is cached per history; the items it hands out are
    mutated by compression, so a second call on the same text must start afresh."""
    history = small_history(seed=6)
    text = history.text
    request = SummaryRequest(text, 60, "Summarize the session.", (), "L1")

    def first_output(warm: bool) -> str:
        sim = SimulatedSummarizer(history, np.random.default_rng(9), counter())
        if warm:  # fills the cache and runs compression over the cached read
            SimulatedSummarizer(history, np.random.default_rng(1), counter()).summarize(request)
        return sim.summarize(request).text

    cold = first_output(warm=False)
    assert first_output(warm=True) == cold
    assert first_output(warm=True) == cold
