"""A pinned quantity matched by amount (sim/grading/quantities.py): a duration in any unit it
converts to, a count with its unit on either side."""

from __future__ import annotations

import pytest

from sim.grading.quantities import equivalents, other_duration
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one

EXPIRY = declare_fact(
    "Session tokens must use an expiry of 30 minutes.",
    {"object": ["session tokens"], "value": ["30 minutes"], "setting": ["expiry"]},
    fact_id="expiry",
    required=["object", "value"],
)


def test_a_duration_converts_only_to_whole_amounts() -> None:
    assert equivalents("30 minute") == (" 1800 second ",)
    assert " 2 week " in equivalents("14 day") and " 336 hour " in equivalents("14 day")
    assert equivalents("3 replica") == ()


def test_a_short_unit_may_be_written_against_its_number() -> None:
    assert equivalents("150 mbar") == (" 150mbar ",)
    vacuum = declare_fact(
        "The drying oven must use a pressure of 20 mbar.",
        {"object": ["drying oven"], "setting": ["pressure"], "value": ["20 mbar"]},
        fact_id="oven",
    )
    assert grade_one("drying oven: pressure=20mbar (fixed)", vacuum).grade is Grade.ACTIONABLE


def test_other_durations_are_of_the_pins_scale() -> None:
    assert other_duration("30 minute").search("expiry 45s")
    assert not other_duration("90 day").search("the export took 14 min")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Session tokens: expiry=1800s.", Grade.ACTIONABLE),
        ("session tokens expire after 30 min (expiry pinned)", Grade.ACTIONABLE),
        ("Session tokens: expiry set to 2h.", Grade.INVERTED),
        ("Session tokens: expiry of about 30 minutes.", Grade.DEGRADED),
    ],
)
def test_a_duration_pin_is_read_by_amount(text: str, grade: Grade) -> None:
    assert grade_one(text, EXPIRY).grade is grade


SPLIT = declare_fact(
    "The traffic split must use a 3:1 ratio.",
    {"object": ["traffic split"], "setting": ["ratio"], "value": ["3:1"]},
    fact_id="split",
)
SLOTS = declare_fact(
    "The clinic calendar must use 30-minute visit slots.",
    {
        "object": ["clinic calendar"],
        "setting": ["visit slots"],
        "value": ["30-minute", "30 minutes"],
    },
    fact_id="slots",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("Traffic split moved to a 1:1 ratio for the test.", SPLIT, Grade.INVERTED),
        ("Traffic split ratio stays 3:1; review at 14:00.", SPLIT, Grade.ACTIONABLE),
        ("Clinic calendar switched to 20-minute visit slots.", SLOTS, Grade.INVERTED),
    ],
)
def test_another_ratio_or_hyphenated_duration_is_another_value(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


REPLICAS = declare_fact(
    "The cache tier must use a replica count of 3 replicas.",
    {"object": ["cache tier"], "setting": ["replica count"], "value": ["3 replicas"]},
    fact_id="replicas",
    required=["object", "value"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Cache tier replica count is pinned at 3.", Grade.ACTIONABLE),
        ("Cache tier replica count stays fixed at 3, not 2 or 4.", Grade.ACTIONABLE),
        ("Cache tier replicas are restarted at step 3.", Grade.DROPPED),
    ],
)
def test_a_count_may_stand_four_words_after_its_unit_but_never_as_a_step(
    text: str, grade: Grade
) -> None:
    assert grade_one(text, REPLICAS).grade is grade


def test_a_unit_after_another_number_is_not_the_counts() -> None:
    hertz = declare_fact(
        "The tandem roller must use a vibration frequency of 50 Hz.",
        {"object": ["tandem roller"], "setting": ["vibration frequency"], "value": ["50 Hz"]},
        fact_id="roller",
    )
    text = "Tandem roller: vibration frequency must be 42 Hz on this job, not 50."
    assert grade_one(text, hertz).grade is Grade.INVERTED
