"""Near-synonyms of a rule's own verb keep its rule; nothing else does."""

from __future__ import annotations

import pytest

from sim.grading.synonyms import GROUPS, near_synonyms
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one

PROMO = declare_fact(
    "Do not start the spring promo until Ana confirms.",
    {"action": ["start"], "object": ["spring promo"], "condition": ["until Ana confirms"]},
    fact_id="promo",
    cls="confirmation",
    required=["action", "object", "condition"],
)
INVOICES = declare_fact(
    "Do not delete the draft invoices after step 3.",
    {"action": ["delete"], "object": ["draft invoices"], "condition": ["after step 3"]},
    fact_id="invoices",
    required=["action", "object", "condition"],
)
CANARY = declare_fact(
    "Do not promote the canary build after step 4.",
    {"action": ["promote", "ship"], "object": ["canary build"], "condition": ["after step 4"]},
    fact_id="canary",
    required=["action", "object", "condition"],
)


SAMPLES = declare_fact(
    "Do not discard the soil samples until Ravi confirms.",
    {"action": ["discard"], "object": ["soil samples"], "condition": ["until Ravi confirms"]},
    fact_id="soil-samples",
    cls="confirmation",
    required=["action", "object", "condition"],
)

MAST = declare_fact(
    "If wind gusts exceed 50 km/h, do not climb the radio mast.",
    {"action": ["climb"], "object": ["radio mast"], "condition": ["gusts exceed 50 km/h"]},
    fact_id="mast",
    cls="conditional",
    required=["action", "object", "condition"],
)


def test_groups_read_both_ways() -> None:
    for group in GROUPS:
        for verb in group:
            assert all(other in near_synonyms(verb) for other in group if other != verb)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Don't kick off the spring promo until Ana confirms.", PROMO),
        ("Launching the spring promo waits until Ana confirms.", PROMO),
        ("Never purge the draft invoices after step 3.", INVOICES),
        ("The draft invoices must not be erased after step 3.", INVOICES),
        ("Don't fire up the spring promo until Ana confirms.", PROMO),
        ("Soil samples: do not throw them out until Ravi confirms.", SAMPLES),
        ("The soil samples must not be disposed of before Ravi confirms.", SAMPLES),
        ("Ascending the radio mast is allowed only while gusts stay at or below 50 km/h.", MAST),
    ],
)
def test_a_near_synonym_of_the_rules_verb_keeps_it(text: str, fact: Fact) -> None:
    assert grade_one(text, fact).grade is Grade.ACTIONABLE


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Don't run the spring promo report until Ana confirms.", PROMO),  # "run" is no "start"
        ("Never archive the draft invoices after step 3.", INVOICES),  # another act
        # "ship" is one of the fact's anchors, "deploy" a synonym of "ship", not of "promote"
        ("Never deploy the canary build after step 4.", CANARY),
    ],
)
def test_other_verbs_and_synonyms_of_synonyms_keep_nothing(text: str, fact: Fact) -> None:
    assert not grade_one(text, fact).grade.at_floor


ROTA = declare_fact(
    "Do not send the weekend rota to the volunteers until Odile confirms.",
    {"action": ["send"], "object": ["weekend rota"], "condition": ["until Odile confirms"]},
    fact_id="rota",
    required=["action", "object", "condition"],
)
RECEIPT = declare_fact(
    "Send the donation receipt email before closing the pledge.",
    {
        "action": ["send"],
        "object": ["donation receipt email", "receipt email"],
        "condition": ["before closing the pledge"],
    },
    fact_id="receipt",
    required=["action", "object", "condition"],
)


def test_emailing_a_thing_is_sending_it() -> None:
    assert grade_one("Email the weekend rota to the volunteers now.", ROTA).grade is Grade.INVERTED
    text = "Only email the weekend rota out once Odile confirms."
    assert grade_one(text, ROTA).grade is Grade.ACTIONABLE


def test_a_synonym_that_is_a_word_of_the_object_is_no_act() -> None:
    # "email" names the receipt email here: the line says nothing of sending it
    text = "Donation receipt email template refreshed with the new logo."
    assert grade_one(text, RECEIPT).grade is Grade.DROPPED
