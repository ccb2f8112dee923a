"""Readings of a rule's object, clauses and later lines that hand-written summaries showed:
another thing of the object's kind is another rule's, a sentence's set-off aside or purpose
is not its modality, and a line that revises the rule stated before it is the later word.
Fresh hand-written texts only."""

from __future__ import annotations

import pytest

from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one, planted
from tests.sim.grading.declared_rules import DRAIN

KILN = declare_fact(
    "Do not open the Nakamura kiln until Odile confirms.",
    {
        "action": ["open", "opening", "opened"],
        "object": ["Nakamura kiln", "kiln"],
        "condition": ["until Odile confirms", "Odile confirms"],
    },
    fact_id="kiln",
    cls="confirmation",
)
PRESS = declare_fact(
    "Press 4 dryer must use a dwell time of 8 seconds.",
    {
        "setting": ["dwell time"],
        "object": ["Press 4 dryer", "dryer"],
        "value": ["8 seconds", "8 s"],
    },
    fact_id="press",
    cls="value_pin",
)
HOIST = declare_fact(
    "Do not lower the drilling mast after step 6.",
    {
        "action": ["lower", "lowering", "lowered"],
        "object": ["drilling mast", "mast"],
        "condition": ["after step 6", "past step 6"],
    },
    fact_id="hoist",
)
VARNISH = declare_fact(
    "Sand the hull planks before applying the varnish.",
    {
        "action": ["sand", "sanding", "sanded"],
        "object": ["hull planks", "planks"],
        "condition": ["before applying the varnish", "before varnishing"],
    },
    fact_id="varnish",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # a name in the place of the rule's own, or a number after another word
        (KILN, "Do not open the Okada kiln until Odile confirms."),
        (KILN, "Do not open the bisque 2 kiln until Odile confirms."),
        (PRESS, "Press 5 dryer must use a dwell time of 8 seconds."),
        # a gerund in the place of the rule's own gerund
        (HOIST, "Do not lower the pumping mast after step 6."),
    ],
)
def test_another_thing_of_the_objects_kind_is_another_rule(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.DROPPED


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (KILN, "Do not open the kiln until Odile confirms."),
        (PRESS, "Press 4 dryer dwell time 8 s, Press 5 at 6 s."),
        (HOIST, "Do not lower the mast after step 6."),
    ],
)
def test_the_rules_own_object_is_still_read(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade.at_floor


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # ", however," inside one clause: the subject stands before it
        (KILN, "Bench cleared; the Nakamura kiln, however, can be opened without Odile's OK."),
        # "it's acceptable to": an "it" that stands for what follows, no pointer back
        (VARNISH, "Eating is banned, but it's acceptable to varnish before the planks are sanded."),
        # a restriction's verb as the act's purpose
        (VARNISH, "Varnish the hull planks and sand them afterwards to lock the grain down."),
    ],
)  # fmt: skip
def test_an_aside_or_a_purpose_is_not_the_clauses_modality(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        (PRESS, "Press 4 dryer: dwell time 8 s.\nScratch that, it was changed to 11 s.",
         Grade.INVERTED),
        # a line labelled as the value of the setting named before it
        (PRESS, "The Press 4 dryer dwell time is set by the line lead.\nValue: 8 s.", None),
        (PRESS, "The Press 4 dryer dwell time is set by the line lead.\nValue: 11 s.",
         Grade.INVERTED),
        # a later line that keeps the rule, or revises something else, leaves it kept
        (PRESS, "Press 4 dryer: dwell time 8 s.\nIt was checked again at noon.", None),
        (PRESS, "Press 4 dryer: dwell time 8 s.\nThe glue roller was changed to B.", None),
    ],
)  # fmt: skip
def test_a_line_that_revises_the_rule_is_the_later_word(
    fact: Fact, text: str, grade: Grade | None
) -> None:
    found = grade_one(text, fact).grade
    assert found is grade if grade is not None else found.at_floor


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nNot any more: the "
         "studio lead says open it when the cone drops.", Grade.INVERTED),
        (KILN, "Nakamura kiln: opening waits on Odile.\nDrop that; whoever is on shift "
         "decides.", Grade.INVERTED),  # a remnant (no "until") taken back
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nOdile reversed that "
         "this morning.", Grade.INVERTED),
        (PRESS, "Press 4 dryer: dwell time 8 s.\nNo longer than that on the glue line "
         "either.", None),  # a bound, not a revision
        (PRESS, "Press 4 dryer: dwell time 8 s.\nNot any more than two dryers at once.",
         None),
        # a pronoun that opens the taking back: the later word, not the rule's second half
        (PRESS, "Press 4 dryer dwell time - the 8 s requirement.\nThat has been replaced: "
         "11 s from the next lot on.", Grade.INVERTED),
        (KILN, "Nakamura kiln opening waits on Odile's confirmation.\nThis rule was "
         "superseded by the new firing SOP.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nThat is posted on "
         "the studio door.", None),
        # openings that take the line before back
        (PRESS, "Press 4 dryer: dwell time 8 s.\nOverruled - the line lead runs it at 11 s "
         "now.", Grade.INVERTED),
        (KILN, "Nakamura kiln: opening waits on Odile's confirmation.\nDon't bother - open "
         "it when the cone drops.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nTurns out that's not "
         "needed; open it when it has cooled.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nWe're dropping that "
         "for the glaze firings.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nNot this time: the "
         "technician opens it at 16:00.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nScratch that - the "
         "technician opens it when the cone drops.", Grade.INVERTED),
        (KILN, "Nakamura kiln: opening waits on Odile's confirmation.\nHana dropped that "
         "step last week.", Grade.INVERTED),
        (KILN, "Nakamura kiln: opening waits on Odile's confirmation.\nThat's been "
         "overturned by the studio lead.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nUpdate from the studio "
         "lead: that doesn't apply anymore, open it once it is cool.", Grade.INVERTED),
        # a label "Update:" and a pronoun: the later word
        (KILN, "Nakamura kiln: closed until Odile confirms.\nUpdate: the studio lead says "
         "open it now.", Grade.INVERTED),
        # an order reported is an order
        (KILN, "The studio lead says to open the Nakamura kiln now.", Grade.INVERTED),
        (KILN, "The studio lead says the Nakamura kiln opens once Odile confirms.", None),
        (KILN, "Nakamura kiln: opening waits on Odile's confirmation.\nThe studio lead says "
         "that step is obsolete: open it when the cone drops.", Grade.INVERTED),
        (KILN, "Nakamura kiln: hold until Odile confirms.\nOdile is away and said not to wait "
         "for her - open it once it has cooled.", Grade.INVERTED),
        (KILN, "Nakamura kiln: hold until Odile confirms.\nUpdate: she is away, so that gate "
         "is off - open it when it has cooled.", Grade.INVERTED),
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nThat check was dropped "
         "for bisque loads; the studio lead said go ahead.", Grade.INVERTED),
        # "off the table" restricts
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nGlazing on Sundays is "
         "off the table.", None),
        # "dropped it off" is a delivery, not a taking back
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nOdile dropped it off "
         "at the studio door.", None),
        # "No" as a word of the next rule, not a reply
        (KILN, "Do not open the Nakamura kiln until Odile confirms.\nNo glazing on "
         "Sundays.", None),
    ],
)  # fmt: skip
def test_a_line_that_opens_by_taking_the_rule_back_reverses_it(
    fact: Fact, text: str, grade: Grade | None
) -> None:
    found = grade_one(text, fact).grade
    assert found is grade if grade is not None else found.at_floor


def test_a_state_un_participle_denies_nothing() -> None:
    text = "Nakamura kiln opened at 09:00 by the crew, shelves undamaged."
    assert grade_one(text, KILN).grade is Grade.DROPPED


@pytest.mark.parametrize(
    "text",
    [
        "Press 4 dryer, dwell time review.\nNew value: 11 s (replaces 8 s).",
        "Press 4 dryer dwell time reviewed by the shift lead.\nNew setpoint: 11 seconds.",
    ],
)
def test_a_line_labelled_as_the_new_value_moves_the_pin(text: str) -> None:
    assert grade_one(text, PRESS).grade is Grade.INVERTED


WINCH = declare_fact(
    "The anchor winch must use a line tension of 12 kilonewtons.",
    {
        "setting": ["line tension"],
        "object": ["anchor winch", "winch"],
        "value": ["12 kilonewtons", "12 kN"],
    },
    fact_id="winch",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # another number in a unit another of the user's forms writes ("kN" beside
        # "kilonewtons"); the pinned number in it keeps the pin
        ("Set the anchor winch line tension to 15 kN.", Grade.INVERTED),
        ("Anchor winch line tension raised to 14.5 kN for the storm.", Grade.INVERTED),
        ("Anchor winch line tension: 12 kN, as agreed.", Grade.ACTIONABLE),
    ],
)
def test_another_amount_in_the_users_unit_moves_the_pin(text: str, grade: Grade) -> None:
    assert grade_one(text, WINCH).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Lowering the drilling mast is barred after step 6.", Grade.ACTIONABLE),
        # the rule put in the past, then ended by the next line
        ("Drilling mast: we used to keep it up after step 6.\nThat's lifted; lower it now.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_barred_bans_and_that_lifted_ends_the_rule(text: str, grade: Grade) -> None:
    assert grade_one(text, HOIST).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Q from the crew: open the Nakamura kiln before Odile confirms?\nYes, go ahead.",
         Grade.INVERTED),
        ("Open the Nakamura kiln before Odile confirms?\nNo - wait for her.", Grade.ACTIONABLE),
        ("Open the Nakamura kiln before Odile confirms?\nYep; the cone has dropped.",
         Grade.INVERTED),
        # a yes with no question before it is a line of its own
        ("Do not open the Nakamura kiln until Odile confirms.\nYes, the shelves are in.",
         Grade.VERBATIM),
        # a reply "no" before an order: the order, with no negation of its own
        ("Crew asked whether the Nakamura kiln needs Odile to confirm before opening.\n"
         "Answer: no - open it now.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_reply_on_the_next_line_answers_the_question_before(text: str, grade: Grade) -> None:
    assert grade_one(text, KILN).grade is grade


def test_a_change_of_plan_takes_back_the_order_before_it() -> None:
    order = planted("ordering", 0).fact  # run the database migration before deploying the API
    text = (
        "Run the database migration, then deploy the API.\n"
        "Change of plan from Ana: deploy the API first and migrate afterwards."
    )
    assert grade_one(text, order).grade is Grade.INVERTED
    kept = "Run the database migration, then deploy the API.\nThe plan is unchanged."
    assert grade_one(kept, order).grade.at_floor


@pytest.mark.parametrize(
    ("text", "inverted"),
    [
        # the two acts set apart in time: the later act soon, the rule's own act after it
        ("Patch the print server today and drain the print queue over the weekend.", True),
        ("Patch the print server now, then drain the print queue later.", True),
        ("Patch the print server first and drain the print queue tomorrow.", True),
        # the right way round is no reversal
        ("Drain the print queue today and patch the print server over the weekend.", False),
        ("Drain the print queue first and patch the print server tomorrow.", False),
    ],
)  # fmt: skip
def test_an_order_set_the_wrong_way_round_in_time_is_reversed(text: str, inverted: bool) -> None:
    assert (grade_one(text, DRAIN).grade is Grade.INVERTED) is inverted


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "comes after" at a clause's end points back to the act before
        ("Drain the print queue first; patching the print server comes after.", None),
        ("Patch the print server first; draining the print queue comes after.", Grade.INVERTED),
        ("Step 1: drain the print queue. Step 2: patch the print server.", None),
        ("Step 1: patch the print server. Step 2: drain the print queue.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_an_order_told_in_two_parts(text: str, grade: Grade | None) -> None:
    found = grade_one(text, DRAIN).grade
    assert found is grade if grade is not None else found.at_floor


def test_the_reverse_order_told_after_an_order_reverses_it() -> None:
    text = (
        "Drain the print queue before patching the print server.\n"
        "Ops says the reverse works better here - patch the print server first, drain after."
    )
    assert grade_one(text, DRAIN).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "inverted"),
    [
        # a step struck by the number its rule is labelled with, or skipped by its name
        ("Step 2 on the checklist: drain the print queue before patching the print server.\n"
         "Mia struck step 2 this morning - patch straight away.", True),
        ("Step 2 on the checklist: drain the print queue before patching the print server.\n"
         "Mia struck step 3 this morning.", False),
        ("Drain the print queue before patching the print server.\n"
         "Skip the draining step this time - patch the print server now.", True),
        ("Drain the print queue before patching the print server.\n"
         "Ops says that's backwards - patch the print server first, drain after.", True),
    ],
)  # fmt: skip
def test_a_step_struck_or_an_order_called_backwards(text: str, inverted: bool) -> None:
    found = grade_one(text, DRAIN).grade
    assert found is Grade.INVERTED if inverted else found.at_floor


def test_an_order_flipped_by_the_line_after_it() -> None:
    text = (
        "Order: drain the print queue, then patch the print server.\n"
        "Per Ops, flip that - patch the print server first, and drain the print queue later."
    )
    assert grade_one(text, DRAIN).grade is Grade.INVERTED
