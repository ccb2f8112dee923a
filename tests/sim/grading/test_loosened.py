"""Rules stated as tips, pins loosened to a range or a scope, and values judged wrong: never
kept (sim/grading/lexicon.py HEDGE, BOUND; sim/grading/grade.py _loosened). Fresh texts."""

from __future__ import annotations

import pytest

from sim.grading.text import lemmas, normalize
from sim.types import Grade
from tests.helpers import grade_one, note_fact, planted

PIN = planted("value_pin", 5).fact  # metrics endpoint must use port 9464
BAN = note_fact().fact  # do not rotate the credential after step 4


@pytest.mark.parametrize(
    "text",
    [
        "Try not to rotate the credential after step 4.",
        "It would be nice to avoid rotating the credential after step 4.",
        "Rotating the credential after step 4 is a bad idea.",
        "If you can, skip rotating the credential after step 4.",
    ],
)
def test_a_rule_put_as_a_tip_is_degraded(text: str) -> None:
    assert grade_one(text, BAN).grade is Grade.DEGRADED


@pytest.mark.parametrize(
    "text",
    [
        "The metrics endpoint port must be at least 9464.",
        "Metrics endpoint: port 9464 preferred.",
        "The metrics endpoint uses port 9464 only on the canary hosts.",
        "Somewhere near port 9464 would be fine for the metrics endpoint.",
        "The metrics endpoint should sit in the region of port 9464.",
        "Port 9464 would be a sensible choice for the metrics endpoint.",
    ],
)
def test_a_loosened_pin_is_degraded(text: str) -> None:
    assert grade_one(text, PIN).grade is Grade.DEGRADED


def test_a_pinned_value_judged_wrong_is_inverted() -> None:
    text = "Port 9464 is too high for the metrics endpoint, pick 8080."
    assert grade_one(text, PIN).grade is Grade.INVERTED


def test_the_pin_itself_and_its_own_scope_are_still_kept() -> None:
    assert grade_one("Set the metrics endpoint port to 9464.", PIN).grade.at_floor
    assert grade_one("Use port 9464 only for the metrics endpoint.", PIN).grade.at_floor
    assert grade_one("Never rotate the credential after step 4.", BAN).grade.at_floor


def test_bounds_and_preferences_keep_their_own_lemma() -> None:
    # simplemma maps "least" to "less" and "preferred" to "preferr"
    assert lemmas(normalize("at least 3")) == " at least 3 "
    assert lemmas(normalize(">= 3")) == " at least 3 "
    assert lemmas(normalize("preferred")) == " prefer "


@pytest.mark.parametrize(
    "text",
    [
        "The metrics endpoint port is pinned at 9464 for all six cars.",  # "car", not "ca"
        "The metrics endpoint port is 9464 on the minibus hosts.",  # "minibus", not "min"
    ],
)
def test_a_bound_is_a_whole_word_beside_the_value(text: str) -> None:
    assert grade_one(text, PIN).grade.at_floor
