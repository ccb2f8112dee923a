"""The cue lexicon (sim/grading/lexicon.py): every entry, written as a clause about an action,
reads as its kind, so a word added to the wrong list or lost to lemmatization fails here."""

from __future__ import annotations

import pytest

from sim.grading import lexicon as lx
from sim.grading.modality import Reading, read_clause
from sim.grading.text import lemmas, normalize


def reading(text: str) -> Reading:
    return read_clause(lemmas(normalize(text))).reading


@pytest.mark.parametrize("cue", [c for c in lx.NEGATION if c not in ("nothing", "none", "nor")])
def test_negations_forbid(cue: str) -> None:
    assert reading(f"the export {cue} the credential rotation") is Reading.FORBID, cue


@pytest.mark.parametrize("cue", lx.DEFERRAL)
def test_deferrals_forbid(cue: str) -> None:
    assert reading(f"credential rotation {cue}") is Reading.FORBID, cue


@pytest.mark.parametrize("cue", lx.REVOCATION)
def test_revocations_revoke(cue: str) -> None:
    assert reading(f"credential rotation rule: {cue}") is Reading.REVOKED, cue


# the statements of a rule ended that lexicon.py writes as patterns, not phrases (every form
# the phrase lists once spelled out): "That step is dropped", "We scrapped this", "gate is off"
_ENDED_STATEMENTS = (
    [
        f"{p} {aux} {v}"
        for p in ("that", "this", "that step", "this step", "that check", "that order",
                  "that requirement", "that rule")
        for aux in ("is", "was", "has been", "is now", "has now been", "got")
        for v in lx._ENDED_PAST
    ]
    + [
        f"{who} {v} {p}"
        for who in ("we", "they", "you")
        for v in (*lx._ENDED_PAST, "have lifted", "have dropped", "have waived", "have scrapped")
        for p in ("that", "this")
    ]
    + [f"the {n} {aux} off" for n in lx.RESTRICTION_NOUNS for aux in ("is", "was", "now")]
)  # fmt: skip


@pytest.mark.parametrize("said", _ENDED_STATEMENTS)
def test_a_rule_said_to_be_ended_revokes(said: str) -> None:
    assert reading(f"credential rotation after step 4. {said}") is Reading.REVOKED, said


@pytest.mark.parametrize("said", ["the hold is off the table", "rotation is off-limits"])
def test_off_the_table_restricts(said: str) -> None:
    assert reading(f"credential {said}") is not Reading.REVOKED


@pytest.mark.parametrize("cue", lx.DOUBLE_NEGATIVE)
def test_double_negatives_require(cue: str) -> None:
    assert reading(f"{cue} rotate the credential") is Reading.POSITIVE, cue


@pytest.mark.parametrize(
    "text",
    ["You may rotate the credential now.", "Rotating the credential is allowed.",
     "Feel free to rotate the credential.", "Go ahead and rotate the credential."],
)  # fmt: skip
def test_permissions_are_positive(text: str) -> None:
    assert reading(text) is Reading.POSITIVE


@pytest.mark.parametrize(
    "text",
    ["You may not rotate the credential.", "Rotating the credential is not allowed.",
     "Rotation is not permitted after step 4.", "The credential can't be rotated."],
)  # fmt: skip
def test_negated_permissions_forbid(text: str) -> None:
    assert reading(text) is Reading.FORBID


def test_an_exception_pin_is_an_exclusive_requirement() -> None:
    clause = read_clause(lemmas(normalize("No console on any port but 8443.")))
    assert clause.reading is Reading.POSITIVE and clause.exclusive


def test_a_waived_gate_permits_unless_negated() -> None:
    assert reading("Delete the backups without asking.") is Reading.POSITIVE
    assert reading("Never delete the backups without asking.") is Reading.FORBID


@pytest.mark.parametrize("cue", ["consider", "ideally", "if possible", "might want to"])
def test_hedges_are_seen(cue: str) -> None:
    assert read_clause(lemmas(normalize(f"{cue} wait before rotating"))).hedged
