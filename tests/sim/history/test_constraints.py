"""Constraint classes (sim/history/constraints.py): every template of every class renders into text
the grader reads the way the rendering ladder says — verbatim, compressed at the floor, abstracted
below it, inverted worst — and the anchors a fact declares occur in its own text."""

from __future__ import annotations

import numpy as np
import pytest

from sim.grading.text import lemmas, normalize
from sim.history.constraints import CLASSES, PlantedText, build_fact, near_miss, prohibition_for
from sim.types import Grade, Polarity
from tests.helpers import grade_one


def _grade(text: str, p: PlantedText) -> Grade:
    return grade_one(text, p.fact).grade


SEEDS = range(30)  # enough draws to see every phrasing of every template


def _all(cls: str) -> list[PlantedText]:
    _, size = CLASSES[cls]
    return [
        build_fact(cls, variant, np.random.default_rng(seed), "f1")
        for variant in range(size)
        for seed in SEEDS
    ]


@pytest.fixture(scope="module", params=sorted(CLASSES))
def built(request: pytest.FixtureRequest) -> tuple[str, list[PlantedText]]:
    return request.param, _all(request.param)


def test_there_are_at_least_the_five_classes_of_the_issue() -> None:
    assert {"prohibition", "ordering", "value_pin", "conditional", "confirmation"} <= set(CLASSES)


def test_each_template_has_several_phrasings(built: tuple[str, list[PlantedText]]) -> None:
    cls, facts = built
    _, size = CLASSES[cls]
    texts = {p.fact.text for p in facts}
    assert len(texts) >= 3 * size  # every variant, in each of its phrasings


def test_variants_name_distinct_objects(built: tuple[str, list[PlantedText]]) -> None:
    cls, facts = built
    _, size = CLASSES[cls]
    assert len({p.fact.topic.forms[0] for p in facts}) == size


def test_verbatim_rendering_grades_verbatim(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    bad = [p.fact.text for p in facts if _grade(p.renderings[0], p) is not Grade.VERBATIM]
    assert bad == []


def test_compressed_rendering_keeps_the_floor(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    bad = [p.renderings[1] for p in facts if not _grade(p.renderings[1], p).at_floor]
    assert bad == []


def test_compressed_rendering_is_shorter(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    assert all(len(p.renderings[1]) < len(p.renderings[0]) for p in facts)


def test_abstracted_rendering_is_degraded(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    bad = [p.renderings[2] for p in facts if _grade(p.renderings[2], p) is not Grade.DEGRADED]
    assert bad == []


def test_inverted_rendering_is_inverted(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    bad = [p.inverted for p in facts if _grade(p.inverted, p) is not Grade.INVERTED]
    assert bad == []


def test_revocation_does_not_keep_the_rule(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    for p in facts:
        for line in p.revocation:
            assert not grade_one(line, p.fact).grade.at_floor, line
        assert normalize(p.fact.topic.forms[0]).strip() in normalize(p.revocation[0])


def test_declared_anchors_occur_in_the_facts_own_text(
    built: tuple[str, list[PlantedText]],
) -> None:
    _, facts = built
    for p in facts:
        norm = lemmas(normalize(p.fact.text))  # where the grader matches anchors
        for group in p.fact.anchors:
            assert any(lemmas(normalize(f)) in norm for f in group.forms), (
                p.fact.text,
                group.role,
            )
        roles = {g.role for g in p.fact.anchors}
        assert set(p.fact.floor.required) <= roles
        assert "object" in roles
        assert p.fact.floor.min_span_tokens >= 1


def test_opposites_are_not_accepted_forms(built: tuple[str, list[PlantedText]]) -> None:
    _, facts = built
    for p in facts:
        for group in p.fact.anchors:
            assert not set(map(normalize, group.forms)) & set(map(normalize, group.opposites))


def test_near_miss_shares_an_anchor_but_is_not_the_fact(
    built: tuple[str, list[PlantedText]],
) -> None:
    _, facts = built
    for seed, p in enumerate(facts[:: len(SEEDS) // 3]):
        for s in (seed, seed + 1000):
            near = near_miss(np.random.default_rng(s), p)
            text = near.renderings[0]
            assert grade_one(text, p.fact).grade is Grade.DROPPED, text
            norm = normalize(text)
            shared = [g.role for g in p.fact.anchors if any(normalize(f) in norm for f in g.forms)]
            assert shared, text


def test_polarity_per_class() -> None:
    expected = {
        "prohibition": Polarity.FORBID,
        "ordering": Polarity.REQUIRE,
        "value_pin": Polarity.REQUIRE,
        "conditional": Polarity.FORBID,
        "confirmation": Polarity.FORBID,
    }
    for cls, polarity in expected.items():
        assert {p.fact.polarity for p in _all(cls)[:5]} == {polarity}


def test_prohibition_for_the_notes_constraint() -> None:
    p = prohibition_for("rotate", "credential", 4, "f1")
    assert p.fact.text == "Do not rotate the credential after step 4."
    assert p.renderings[2] == "Credential rotation deferred."
    assert p.fact.fact_id == "f1" and p.fact.cls == "prohibition"
    assert p.fact.floor.required == ("action", "object", "condition")
    other_step = prohibition_for("rotate", "credential", 7, "f1")
    assert "step 7" in other_step.fact.text
    assert grade_one(p.fact.text, other_step.fact).grade is not Grade.VERBATIM


def test_prohibition_for_unknown_slots() -> None:
    with pytest.raises(KeyError, match="teleport"):
        prohibition_for("teleport", "credential", 4, "f1")


def test_object_synonyms_never_name_a_near_miss_object() -> None:
    """A synonym that a near-miss object contains would make the near miss count as the fact."""
    from sim.grading.frames import has_object, lemma_forms
    from sim.grading.grade import matcher
    from sim.grading.modality import read_clause
    from sim.grading.text import lemmas
    from sim.history.constraint_pools import OTHER_OBJECTS

    for cls in CLASSES:
        for variant in range(CLASSES[cls][1]):
            fact = build_fact(cls, variant, np.random.default_rng(0), "f").fact
            frame = matcher(fact).frame
            for other in OTHER_OBJECTS:
                clause = read_clause(lemmas(normalize(f"Check the {other} later.")))
                assert not has_object(frame, clause), (fact.topic.forms, other)
            assert lemma_forms(fact.topic.forms)
