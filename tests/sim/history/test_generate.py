"""The seeded L0 history generator (sim/history/generate.py): target length by the real tokenizer,
facts where the scenario asks, distractors and superseded rules, determinism, and no markers
that would let a compactor find the planted sentences."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.grading.grade import grade_text
from sim.grading.text import normalize
from sim.history.constraints import CLASSES
from sim.history.generate import HistorySpec, Placement, generate_history
from sim.types import Grade, History, UnitKind
from tests.helpers import counter, examples, note_fact, planted, raw_count, small_history


def _gen(seed: int, **spec: object) -> History:
    return generate_history(HistorySpec(**spec), np.random.default_rng(seed), counter())  # type: ignore[arg-type]


def _lines_of(history: History, kind: UnitKind) -> list[str]:
    """The L0 lines of one kind that made it into the turns."""
    in_turns = {u for t in history.turns for u in t.unit_ids}
    return [u.renderings[0] for u in history.units if u.kind is kind and u.unit_id in in_turns]


@pytest.mark.parametrize("target", [1000, 1500, 2500, 4000, 7800])
@pytest.mark.parametrize("seed", [0, 1])
def test_length_within_two_percent_by_the_real_tokenizer(target: int, seed: int) -> None:
    history = _gen(seed, target_tokens=target, constraints=4, near_misses=2, superseded=1)
    n = raw_count(history.text)
    assert abs(n - target) <= 0.02 * target, (n, target)


@settings(max_examples=examples(0.5))
@given(st.integers(1000, 3000), st.integers(0, 2**32 - 1), st.integers(0, 6))
def test_length_property(target: int, seed: int, k: int) -> None:
    history = _gen(seed, target_tokens=target, constraints=k, near_misses=k % 3)
    assert abs(raw_count(history.text) - target) <= 0.02 * target
    assert len(history.facts) == k
    grades = grade_text(history.text, history.facts, counter())
    assert [g.grade for g in grades] == [Grade.VERBATIM] * k


def test_text_is_line_built() -> None:
    text = small_history(seed=2).text
    assert text.endswith("\n")
    assert all(line and line == line.strip() for line in text[:-1].split("\n"))


def test_facts_at_requested_turns() -> None:
    history = _gen(
        5,
        target_tokens=1500,
        constraints=0,
        near_misses=0,
        placements=(
            Placement(note_fact("f1"), turn=7),
            Placement(planted("ordering", 2, "f2"), turn=3),
        ),
    )
    by_id = {f.fact_id: f for f in history.facts}
    assert by_id["f1"].turn == 7 and by_id["f2"].turn == 3
    assert "Do not rotate the credential after step 4." in history.turn_text(history.turns[6])
    assert by_id["f2"].text in history.turn_text(history.turns[2])


def test_turn_past_the_target_length_extends_the_history() -> None:
    history = _gen(
        1,
        target_tokens=300,
        constraints=0,
        near_misses=0,
        placements=(Placement(note_fact(), turn=40),),
    )
    assert len(history.turns) >= 40
    assert history.facts[0].turn == 40


@pytest.mark.parametrize("seed", range(6))
def test_facts_at_requested_depths(seed: int) -> None:
    wanted = (0.1, 0.5, 0.9)
    history = _gen(seed, target_tokens=2000, constraints=3, depths=wanted, near_misses=1)
    depths = [f.depth for f in history.facts]
    assert depths == sorted(depths)
    for got, want in zip(depths, wanted, strict=True):
        assert abs(got - want) <= 0.1, (depths, wanted)
    # depth is the token position of the fact's line in L0
    for fact in history.facts:
        before = history.text[: history.text.index(fact.text + "\n")]
        assert abs(raw_count(before) / raw_count(history.text) - fact.depth) < 0.01


def test_distinct_objects_across_a_histories_facts() -> None:
    """As many facts as the smallest class pool allows per class: no two share an object."""
    per_class = min(size for _, size in CLASSES.values())
    total = per_class * len(CLASSES)
    for seed in range(3):
        history = _gen(seed, target_tokens=3000, constraints=total, near_misses=0)
        objects = [f.topic.forms[0] for f in history.facts]
        assert len(objects) == total
        assert len(set(objects)) == total
        assert {f.cls for f in history.facts} == set(CLASSES)
        texts = [f.text for f in history.facts]
        assert len(set(texts)) == total


@pytest.mark.parametrize("n", [0, 1, 4])
def test_near_miss_count_and_nature(n: int) -> None:
    history = _gen(3, target_tokens=1500, constraints=3, near_misses=n)
    near = _lines_of(history, UnitKind.DISTRACTOR)
    assert len(near) == n
    for line in near:
        assert line in history.text
        # it shares an anchor with some fact ...
        norm = normalize(line)
        assert any(
            any(normalize(form) in norm for g in f.anchors for form in g.forms)
            for f in history.facts
        ), line
        # ... but is none of them
        assert {g.grade for g in grade_text(line, history.facts, counter())} == {Grade.DROPPED}


@pytest.mark.parametrize("seed", range(4))
def test_superseded_facts_are_revoked_later(seed: int) -> None:
    history = _gen(seed, target_tokens=2000, constraints=4, superseded=2, near_misses=0)
    superseded = [f for f in history.facts if f.superseded]
    assert len(superseded) == 2
    revocations = _lines_of(history, UnitKind.REVOCATION)
    assert len(revocations) == 2
    text = history.text
    for fact in superseded:
        topic = normalize(fact.topic.forms[0])
        mine = [r for r in revocations if topic.strip() in normalize(r)]
        assert len(mine) == 1, (fact.text, revocations)
        assert text.index(mine[0] + "\n") > text.index(fact.text + "\n")
    assert all(not f.floored for f in superseded)
    assert all(f.floored for f in history.facts if not f.superseded)
    assert set(history.declared_facts).isdisjoint(superseded)


def test_declared_fraction() -> None:
    history = _gen(4, target_tokens=1500, constraints=4, declared_fraction=0.5)
    assert sum(f.declared for f in history.facts) == 2
    assert len(history.declared_facts) == 2
    full = _gen(4, target_tokens=1500, constraints=4, declared_fraction=1.0)
    assert all(f.declared for f in full.facts)


def test_same_seed_same_history_and_other_seed_another() -> None:
    spec = {"target_tokens": 1500, "constraints": 3, "near_misses": 2, "superseded": 1}
    a, b = _gen(11, **spec), _gen(11, **spec)
    assert a == b
    assert a.text == b.text
    assert _gen(12, **spec).text != a.text


@pytest.mark.parametrize("seed", range(20))
def test_every_fact_grades_verbatim_at_l0(seed: int) -> None:
    history = _gen(
        seed,
        target_tokens=1200,
        constraints=6,
        near_misses=3,
        superseded=1,
        declared_fraction=0.5,
    )
    grades = grade_text(history.text, history.facts, counter())
    assert [(g.fact_id, g.grade) for g in grades] == [
        (f.fact_id, Grade.VERBATIM) for f in history.facts
    ]


_MARKERS = re.compile(
    r"safety|rule:|important|constraint|\[fact|planted|distractor|near.miss|ground truth"
    r"|critical:|warning:|note:|must remember|\bf\d+\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("seed", range(8))
def test_no_markers_in_the_history(seed: int) -> None:
    history = _gen(seed, target_tokens=2000, constraints=5, near_misses=3, superseded=1)
    for line in history.text.splitlines():
        assert not _MARKERS.search(line), line


@pytest.mark.parametrize("seed", range(8))
def test_planted_lines_are_formatted_like_other_lines(seed: int) -> None:
    """A planted line is a plain sentence inside an ordinary turn: no label, no bullet, no
    heading, no brackets, not alone in a turn of its own kind."""
    history = _gen(seed, target_tokens=2000, constraints=5, near_misses=2)
    plain = re.compile(r"^[A-Z][^\n]*[.!?]$")
    others = [
        u.renderings[0]
        for u in history.units
        if u.kind in (UnitKind.CHATTER, UnitKind.PLAN, UnitKind.SUBGOAL)
    ]
    assert any(plain.match(line) for line in others)  # plain sentences are common filler too
    for fact in history.facts:
        line = fact.text
        assert plain.match(line), line
        assert not re.match(r"^[\w ]{1,20}:", line), line  # no "Label:" prefix
        assert not re.search(r"[\[\]{}<>*#`_]", line), line
        turn = history.turns[fact.turn - 1]
        assert history.units[turn.unit_ids[0]].kind is UnitKind.HEADER
        assert (
            history.units[turn.unit_ids[0]].renderings[0] == f"### turn {fact.turn} · {turn.role}"
        )
