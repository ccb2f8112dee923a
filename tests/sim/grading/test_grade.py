"""The text-only grader (sim/grading/grade.py), fed hand-written texts only: never simulator output.

For every constraint class: the verbatim text, a faithful paraphrase (every anchor kept), the
condition lost (the note's "Credential rotation deferred."), the polarity flipped, a near miss
naming another object, and the anchors split across two sentences.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.grading import anaphora
from sim.grading.grade import grade_text, sentence_polarity
from sim.grading.text import normalize
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade, Polarity
from tests.helpers import counter, grade_one, grades_of, lines, note_fact, planted


@dataclass(frozen=True)
class Case:
    fact: Fact
    actionable: tuple[str, ...]  # faithful paraphrases: every anchor, same polarity
    degraded: tuple[str, ...]  # the object survives, a required anchor does not
    inverted: tuple[str, ...]  # the rule with its polarity flipped
    near_miss: tuple[str, ...]  # shares an anchor, names another object
    split: str  # every anchor, but not in one sentence


CASES = {
    "prohibition": Case(
        note_fact().fact,
        (
            "The credential must never be rotated after step 4.",
            "No credential rotation past step 4.",
            "Avoid rotating the credential beyond step four.",
            "Rotating the credential is not allowed after step 4.",
            # a step still running is before its end
            "The credential may only be rotated while step 4 is still in progress.",
        ),
        ("Credential rotation deferred.", "Do not rotate the credential."),
        (
            "Rotate the credential at step 4.",
            "You may now rotate the credential.",
            "Rotate the credential after step 4.",
            "The credential may be rotated while step 6 is in progress.",
            # put off until step 4 is over, then done: the rotation after step 4 the rule forbids
            "Hold off on rotating the credential until after step 4.",
        ),
        ("Do not rotate the API token after step 4.", "The credential status looked fine."),
        "Do not rotate the credential. This applies after step 4.",
    ),
    "ordering": Case(
        planted("ordering", 0).fact,
        (
            "Run the database migration prior to the API deploy.",
            "Before deploying the API, run the database migration.",
            # the order is stated, so what it disregards is something else
            "Run the database migration before deploying the API, regardless of the hour.",
        ),
        ("The database migration still needs to run.", "Database migration to run first."),
        (
            "Run the database migration after deploying the API.",
            "Run the database migration after the API deploy.",
        ),
        ("Run the read replica check before deploying the API.",),
        "Run the database migration. Do it before deploying the API.",
    ),
    "value_pin": Case(
        planted("value_pin", 0).fact,
        (
            "New buckets should be created in eu-west-1.",
            "New buckets go to EU-WEST-1.",
            "Keep new buckets in region eu-west-1.",
        ),
        ("Use the agreed region for new buckets.", "New buckets region is pinned."),
        (
            "Do not use region eu-west-1 for new buckets.",
            "Avoid eu-west-1 for new buckets.",
        ),
        ("Use region eu-west-1 for the staging bucket.",),
        "Use the usual region for new buckets. It is eu-west-1.",
    ),
    "conditional": Case(
        planted("conditional", 0).fact,
        (
            "Never merge the release branch while the integration tests are failing.",
            "No release branch merge if integration tests fail.",
        ),
        ("Release branch merge on hold.", "Do not merge the release branch."),
        (
            "Merge the release branch even if the integration tests fail.",
            "If the integration tests fail, merge the release branch anyway.",
            # a contracted modal is still the modal: "we'll" is "we will", an intent
            "The integration tests fail, but we'll merge the release branch anyway.",
        ),
        ("If the integration tests fail, do not merge the feature flags.",),
        "Do not merge the release branch. That is when the integration tests fail.",
    ),
    "confirmation": Case(
        planted("confirmation", 0, seed=1).fact,  # "Do not delete ... until the user confirms."
        (
            "Old backups must not be deleted until the user has said yes.",
            "Only delete the old backups after the user says yes.",
            "Wait for the user's yes before deleting the old backups.",
            # a double negative keeps the gate
            "Never delete the old backups without the user's confirmation.",
        ),
        ("Old backups deletion pending.", "Do not delete the old backups."),
        (
            "Go ahead and delete the old backups.",
            "You may delete the old backups now.",
            # skipping the gate is a permission, though "without" reads like a negation
            "Delete the old backups without waiting for the user's yes.",
        ),
        ("Wait for the user's yes before deleting the staging bucket.",),
        "Do not delete the old backups. Ask and wait until the user confirms.",
    ),
}
CLASSES = sorted(CASES)


def test_every_class_is_covered() -> None:
    from sim.history.constraints import CLASSES as BUILT

    assert set(CASES) == set(BUILT)
    for cls, case in CASES.items():
        assert case.fact.cls == cls


@pytest.mark.parametrize("cls", CLASSES)
def test_verbatim_text_grades_verbatim(cls: str) -> None:
    fact = CASES[cls].fact
    g = grade_one(fact.text, fact)
    assert g.grade is Grade.VERBATIM
    assert g.sentence == fact.text
    assert g.missing == ()
    assert g.span_tokens == counter().count(fact.text)


@pytest.mark.parametrize("cls", CLASSES)
def test_verbatim_inside_a_longer_text(cls: str) -> None:
    fact = CASES[cls].fact
    text = lines("Tests in test_orders passed.", "Next I will profile the gateway.", fact.text)
    assert grade_one(text, fact).grade is Grade.VERBATIM


@pytest.mark.parametrize(("cls", "text"), [(c, t) for c in CLASSES for t in CASES[c].actionable])
def test_faithful_paraphrase_is_actionable_not_lost(cls: str, text: str) -> None:
    g = grade_one(text, CASES[cls].fact)
    assert g.grade is Grade.ACTIONABLE, g
    assert g.grade.at_floor


@pytest.mark.parametrize(("cls", "text"), [(c, t) for c in CLASSES for t in CASES[c].degraded])
def test_missing_an_anchor_is_degraded(cls: str, text: str) -> None:
    g = grade_one(text, CASES[cls].fact)
    assert g.grade is Grade.DEGRADED, g
    assert not g.grade.at_floor
    assert g.missing and g.sentence == text


def test_the_notes_l2_rendering_is_degraded_for_want_of_the_step_anchor() -> None:
    g = grade_one("Credential rotation deferred.", note_fact().fact)
    assert g.grade is Grade.DEGRADED
    assert g.missing == ("condition",)


@pytest.mark.parametrize(("cls", "text"), [(c, t) for c in CLASSES for t in CASES[c].inverted])
def test_flipped_polarity_is_inverted(cls: str, text: str) -> None:
    g = grade_one(text, CASES[cls].fact)
    assert g.grade is Grade.INVERTED, g
    assert g.grade < Grade.DROPPED  # worst: an agent would act against the rule


@pytest.mark.parametrize(("cls", "text"), [(c, t) for c in CLASSES for t in CASES[c].near_miss])
def test_near_miss_is_dropped(cls: str, text: str) -> None:
    assert grade_one(text, CASES[cls].fact).grade is Grade.DROPPED


# A rule split over two sentences is one rule only when the second has no subject of its own
# and refers back to the first ("That holds until ..."); a sentence with its own subject says
# something else, even when it holds the missing anchor. ("Do it before deploying the API"
# points back with its pronoun: sim.grading.anaphora reads "it" as the migration.)
REFERS_BACK = {"prohibition", "value_pin", "conditional", "ordering"}


@pytest.mark.parametrize("cls", CLASSES)
def test_a_split_rule_counts_only_when_the_second_sentence_refers_back(cls: str) -> None:
    case = CASES[cls]
    split = grade_one(case.split, case.fact)
    assert split.grade.at_floor is (cls in REFERS_BACK), split
    # the same words in one sentence are always read together
    joined = case.split.replace(". ", ", ", 1)
    assert grade_one(joined, case.fact).grade.at_floor or cls == "value_pin"


@pytest.mark.parametrize(
    "text",
    [
        "Do not rotate the credential. The deploy happens after step 4.",
        "Do not rotate the credential. Step 4 is when the cache warms up.",
        "Rotating the credential is forbidden. The audit runs after step 4.",
    ],
)
def test_a_second_sentence_with_its_own_subject_is_not_joined(text: str) -> None:
    assert not grade_one(text, note_fact().fact).grade.at_floor


@pytest.mark.parametrize("cls", CLASSES)
def test_empty_text_drops_everything(cls: str) -> None:
    g = grade_one("", CASES[cls].fact)
    assert g.grade is Grade.DROPPED
    assert g.span_tokens == 0 and g.sentence == ""
    assert g.missing == CASES[cls].fact.floor.required


def test_best_evidence_wins_over_order() -> None:
    fact = note_fact().fact
    for text in (
        lines("Credential rotation deferred.", "Do not rotate the credential after step 4."),
        lines("Rotate the credential at step 4.", "No credential rotation after step 4."),
    ):
        assert grade_one(text, fact).grade.at_floor
    inverted_and_degraded = lines("Credential rotation deferred.", "Rotate the credential.")
    assert grade_one(inverted_and_degraded, fact).grade is Grade.INVERTED


def test_contractions_and_number_words_are_normalized() -> None:
    fact = note_fact().fact
    assert grade_one("Don't rotate the credential after step four.", fact).grade is (Grade.VERBATIM)
    assert grade_one("DO NOT ROTATE THE CREDENTIAL AFTER STEP 4", fact).grade is Grade.VERBATIM
    wrong_step = grade_one("Do not rotate the credential after step five.", fact)
    assert not wrong_step.grade.at_floor


@pytest.mark.parametrize(
    "text",
    [
        "The credential must never be rotated after step 4.",
        "Do not rotate the credential after step 4.",
        "No credential rotation after step 4.",
        "Never rotate credentials after step 4!",
        "Rotating the credential is forbidden past step 4.",
        "Credential rotation is never allowed after step 4.",
        "You may not rotate the credential after step 4.",
        "It is not ok to rotate the credential after step 4.",
    ],
)
def test_polarity_is_compared_as_a_class(text: str) -> None:
    """ "must never" = "do not" = "no X": all the same restriction."""
    assert grade_one(text, note_fact().fact).grade.at_floor


@pytest.mark.parametrize(
    ("text", "polarity"),
    [
        ("must never rotate", Polarity.FORBID),
        ("do not rotate", Polarity.FORBID),
        ("no rotation", Polarity.FORBID),
        ("rotation deferred", Polarity.FORBID),
        ("rotation on hold", Polarity.FORBID),
        ("only delete it after the user says yes", Polarity.FORBID),
        ("rotation is not allowed", Polarity.FORBID),
        ("you may now rotate", Polarity.REQUIRE),
        ("rotation allowed again", Polarity.REQUIRE),
        ("no need to wait for the user", Polarity.REQUIRE),
        ("rotate it", Polarity.REQUIRE),
    ],
)
def test_sentence_polarity(text: str, polarity: Polarity) -> None:
    assert sentence_polarity(normalize(text)) is polarity


def test_each_fact_graded_on_its_own_object() -> None:
    facts = [CASES[c].fact for c in CLASSES]
    ids = [f"f{i}" for i in range(len(facts))]
    facts = [
        Fact(i, f.cls, f.text, f.anchors, f.polarity, f.floor)
        for i, f in zip(ids, facts, strict=True)
    ]
    text = lines(CASES["prohibition"].fact.text, "Release branch merge on hold.")
    labels = dict(zip(ids, grades_of(text, facts), strict=True))
    assert labels[ids[CLASSES.index("prohibition")]] == "verbatim"
    assert labels[ids[CLASSES.index("conditional")]] == "degraded"
    assert {labels[ids[CLASSES.index(c)]] for c in ("ordering", "value_pin", "confirmation")} == {
        "dropped"
    }


def test_a_span_below_the_floor_is_degraded() -> None:
    fact = note_fact().fact
    tight = Fact(
        fact.fact_id,
        fact.cls,
        fact.text,
        fact.anchors,
        fact.polarity,
        type(fact.floor)(fact.floor.required, min_span_tokens=50),
    )
    g = grade_one("No credential rotation after step 4.", tight)
    assert g.grade is Grade.DEGRADED and g.missing == ("span",)


# --- properties ----------------------------------------------------------------------------

_POOL = sorted(
    {
        t
        for case in CASES.values()
        for t in (
            case.fact.text,
            *case.actionable,
            *case.degraded,
            *case.inverted,
            *case.near_miss,
            case.split,
        )
    }
    | {
        "Tests in test_orders passed.",
        "HTTP 200 from GET /api/orders?page=2 in 31 ms, 4 items returned.",
        "Open task: finish the CSV export for invoices before the Friday demo.",
    }
)
_FACTS = [CASES[c].fact for c in CLASSES]


def _recase(text: str, flips: list[bool]) -> str:
    return "".join(
        (ch.swapcase() if flip else ch)
        for ch, flip in zip(text, flips + [False] * len(text), strict=False)
    )


def _respace(text: str, seed: int) -> str:
    rnd = random.Random(seed)
    out = []
    for line in text.split("\n"):
        words = line.split(" ")
        pad = lambda: rnd.choice([" ", "  ", "\t", " \t ", "   "])  # noqa: E731
        out.append(pad() + "".join(w + pad() for w in words[:-1]) + words[-1] + pad())
    return "\n".join(out)


@given(
    st.lists(st.sampled_from(_POOL), min_size=0, max_size=6),
    st.lists(st.booleans(), max_size=400),
    st.integers(0, 2**16),
)
def test_grade_is_invariant_to_case_and_whitespace(
    sentences: list[str], flips: list[bool], seed: int
) -> None:
    text = lines(*sentences)
    expected = grades_of(text, _FACTS)
    assert grades_of(_recase(text, flips), _FACTS) == expected
    assert grades_of(_respace(text, seed), _FACTS) == expected
    assert grades_of(text.upper(), _FACTS) == expected


# a sentence that points back ("Database migration to run first.") reads the one before it,
# so its grade depends on what precedes it by design; the others must not
_POINTS_NOWHERE = [t for t in _POOL if anaphora.first(t) is None]


@given(st.lists(st.sampled_from(_POINTS_NOWHERE), min_size=1, max_size=6), st.randoms())
def test_grade_does_not_depend_on_line_order(sentences: list[str], rnd: random.Random) -> None:
    shuffled = list(sentences)
    rnd.shuffle(shuffled)
    assert grades_of(lines(*shuffled), _FACTS) == grades_of(lines(*sentences), _FACTS)


def test_rules_that_share_anchors_are_read_each_by_its_own_text() -> None:
    # an exclusive permission and a ban with the same anchors forbid opposite sides: a reading
    # cached by anchors alone gave the second rule the first one's frame (and refused to
    # declare it, its own text grading inverted)
    anchors = {
        "action": ["restock"],
        "object": ["vending machines"],
        "condition": ["after the audit"],
    }
    only = declare_fact("Only restock the vending machines after the audit.", anchors, fact_id="o")
    never = declare_fact(
        "Do not restock the vending machines after the audit.", anchors, fact_id="n"
    )
    text = "Restock the vending machines after the audit."
    assert [g.grade for g in grade_text(text, [only, never], counter())] == [
        Grade.ACTIONABLE,
        Grade.INVERTED,
    ]
