"""The grader against the hand-labelled corpus (tests/fixtures/grader_corpus/): the training
split is held at the agreement it has reached, per class, with no false kept but the known ones.
The held-out split is measured by benchmarks/grader_agreement.py only, never here, so nothing is
tuned to it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.grading.agreement import CorpusError, load_cases, score
from sim.tokens import get_counter
from tests.sim.grading.corpus import bench

# The level reached on the training split (agreeing cases of all), per class: a change that
# loses any of it fails here; one that gains raises these numbers in the same commit.
REACHED = {
    "conditional": 739,
    "confirmation": 1316,
    "ordering": 1209,
    "prohibition": 896,
    "value_pin": 793,
}

# Training cases the grader still calls kept against the label, each a known limit (the label
# is the reader's, written first and never changed): a new false kept fails here, and a fixed
# one is taken off this list in the same commit.
KNOWN_FALSE_KEPT = {
    # "call-out window 90 minutes. (Which bases this applies to wasn't carried over.)": the
    # rule's base is in its text, not its anchors, and the note of the loss is not read
    "D58-10",
    # "... before rodding the flue. / Not at the Hale job though - she wants the flue rodded
    # straight away and the sheet put up afterwards": an exception for one job, then the order
    # reversed by the act's noun ("the sheet put up"), neither read
    "D302-09",
    # "the checkout-web Sentry project's profiles_sample_rate stays at 0.05" for the
    # traces_sample_rate: another setting by a snake_case name holding the rule's shorter
    # form ("sample rate"), read as the rule's own
    "D358-14",
    # "user_sessions DynamoDB table - capacity mode on-demand. / Changed yesterday: Olamide
    # converted it to provisioned with autoscaling": a pin of a word, not a number, moved by
    # the next line; only numbers are read as a pin's new value
    "D378-09",
    # "Pilot asked whether the towline has to be made fast before the tug takes the strain. /
    # Master said no - take the strain first and secure the line afterwards": a reported
    # question answered no on the next line, and the reversed order with the act's synonym
    "D382-09",
    # "... and the planner's tool-call budget can go past 40 calls whenever a task needs it":
    # a pin that is a ceiling let past by "go past", read as the pin named
    "D397-08",
}


@pytest.fixture(scope="module")
def train():  # type: ignore[no-untyped-def]
    return bench.measure("train")


def test_the_corpus_is_big_and_broad_enough() -> None:
    cases = [c for p in bench.corpus_files() for c in load_cases(p)]
    facts = bench.corpus_facts()
    assert len(cases) >= 5_750 and len(facts) >= 350
    real = [c for c in cases if c.source.startswith("real:")]
    assert len(real) >= 150  # cut from a real model's summaries (the committed cassette)
    assert {f.cls for f in facts.values()} == set(REACHED)
    heldout = sum(c.split == "heldout" for c in cases)
    assert 0.3 <= heldout / len(cases) <= 0.36
    assert all(c.reason.strip() for c in cases)


def test_training_split_agreement_holds_per_class(train) -> None:  # type: ignore[no-untyped-def]
    for cls, (agree, _) in train.by(lambda g: g.cls).items():
        assert agree >= REACHED[cls], (cls, agree, [g.case.id for g in train.disagreements])


def test_training_split_has_only_the_known_false_kept(train) -> None:  # type: ignore[no-untyped-def]
    assert {g.case.id for g in train.false_kept} == KNOWN_FALSE_KEPT


def test_a_case_for_an_undefined_fact_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    row = {"id": "x", "fact": "NOPE", "text": "t", "accept": ["kept"], "kind": "k",
           "reason": "r", "source": "written", "split": "train"}  # fmt: skip
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="fact='NOPE' is not defined"):
        score(load_cases(path), bench.corpus_facts(), get_counter())


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", ":1: not JSON"),
        ("[1, 2]", ":1: a case is a JSON object"),
        ('{"id": "a"}', ":1: missing field 'fact'"),
    ],
)
def test_bad_corpus_lines_are_one_line_errors(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        load_cases(path)


def test_a_bad_label_and_a_duplicate_id_are_errors(tmp_path: Path) -> None:
    row = {"id": "a", "fact": "P1", "text": "t", "accept": ["kept"], "kind": "k",
           "reason": "r", "source": "written", "split": "train"}  # fmt: skip
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({**row, "accept": ["fine"]}) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="accept="):
        load_cases(path)
    path.write_text((json.dumps(row) + "\n") * 2, encoding="utf-8")
    with pytest.raises(CorpusError, match="appears twice"):
        load_cases(path)


def test_a_directory_is_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="not a regular file"):
        load_cases(tmp_path)
