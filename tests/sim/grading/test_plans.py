"""An order stated by a plan (sim/grading/plans.py): numbered steps and checklists sequence
their items; plain bullets do not."""

from __future__ import annotations

import pytest

from sim.grading.plans import may_hold_plan, plan_items
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one

ARCHIVE = declare_fact(
    "Archive the raw uploads before running the dedupe job.",
    {
        "action": ["archive"],
        "object": ["raw uploads"],
        "condition": ["before running the dedupe job", "dedupe job"],
    },
    fact_id="archive",
    cls="ordering",
)


def test_items_are_read_in_order_with_their_sub_bullets() -> None:
    text = "Plan:\n1. archive raw uploads\n   - to cold storage\n2) run the dedupe job\nDone."
    assert plan_items(text) == [["archive raw uploads - to cold storage", "run the dedupe job"]]
    assert plan_items("- a\n- b") == [] and not may_hold_plan("- a\n- b")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Tonight:\n1. Archive the raw uploads (s3://cold)\n2. Run the dedupe job\n3. Report", Grade.ACTIONABLE),  # noqa: E501
        ("Checklist:\n- [ ] archive raw uploads\n- [ ] dedupe job\n- [ ] verify counts", Grade.ACTIONABLE),  # noqa: E501
        ("Tonight:\n1. Run the dedupe job\n2. Archive the raw uploads\n3. Report", Grade.INVERTED),
        ("Step 1: run the dedupe job\nStep 2: archive the raw uploads", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_plan_keeps_or_reverses_an_order(text: str, grade: Grade) -> None:
    assert grade_one(text, ARCHIVE).grade is grade


def test_plain_bullets_state_no_order() -> None:
    text = "Open:\n- archive the raw uploads\n- run the dedupe job"
    assert not grade_one(text, ARCHIVE).grade.at_floor


def test_a_skipped_item_is_no_step_of_the_plan() -> None:
    text = "Plan:\n1. do not archive the raw uploads\n2. run the dedupe job"
    assert not grade_one(text, ARCHIVE).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The dedupe job must be preceded by archiving the raw uploads.", Grade.ACTIONABLE),
        ("Running the dedupe job, followed by archiving the raw uploads.", Grade.INVERTED),
    ],
)
def test_a_passive_order_keeps_its_direction(text: str, grade: Grade) -> None:
    assert grade_one(text, ARCHIVE).grade is grade


PRICES = declare_fact(
    "Do not publish the price list until the buyer confirms.",
    {"action": ["publish"], "object": ["price list"], "condition": ["until the buyer confirms"]},
    fact_id="prices",
    cls="confirmation",
    required=["action", "object", "condition"],
)
CHECK = declare_fact(
    "Run the schema check before the data load.",
    {"action": ["run"], "object": ["schema check"], "condition": ["before the data load"]},
    fact_id="check",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("Next:\n1. get the buyer's confirmation\n2. publish the price list", PRICES,
         Grade.ACTIONABLE),
        ("Next:\n1. publish the price list\n2. get the buyer's confirmation", PRICES,
         Grade.INVERTED),
        ("Order:\n1. schema check\n2. data load", CHECK, Grade.ACTIONABLE),
        ("Order:\n1. data load\n2. schema check", CHECK, Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_plan_orders_a_gate_and_an_item_may_be_its_objects_name(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


def test_inline_numbered_items_are_a_plan_led_by_the_lines_opening() -> None:
    text = "Raw uploads: (1) archive them, (2) run the dedupe job. Then report."
    assert plan_items(text) == [["Raw uploads: archive them", "Raw uploads: run the dedupe job."]]
    assert plan_items("Use 1) fast or 3) slow mode; ratio 2:1") == []  # not numbered 1, 2, ...
    assert plan_items("Release 1.4 then 2.0") == []  # "1." inline is a decimal or a version


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("Order for the raw uploads: 1) archive them, 2) run the dedupe job.", ARCHIVE,
         Grade.ACTIONABLE),
        ("Order for the raw uploads: 1) run the dedupe job, 2) archive them.", ARCHIVE,
         Grade.INVERTED),
        ("Price list: (1) the buyer confirms, (2) publish it on the site.", PRICES,
         Grade.ACTIONABLE),
        ("Price list: (1) publish it on the site, (2) the buyer confirms.", PRICES,
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_line_of_inline_steps_keeps_or_reverses_an_order(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


CATALOGUE = declare_fact(
    "Proofread the catalogue before releasing the price list.",
    {"action": ["proofread"], "object": ["catalogue"],
     "condition": ["before releasing the price list"]},
    fact_id="catalogue",
    cls="ordering",
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The price list only goes out after the catalogue is proofread.", Grade.ACTIONABLE),
        ("The price list goes out before the catalogue is proofread.", Grade.INVERTED),
        ("Proofread the catalogue; the price list goes out on Monday.", Grade.DEGRADED),
    ],
)
def test_the_later_act_may_be_stood_in_for_by_go(text: str, grade: Grade) -> None:
    """ "Goes out", "goes back to production": the far side of an ordering named by what its
    object does, as the rule's own act may be."""
    assert grade_one(text, CATALOGUE).grade is grade


RINK = declare_fact(
    "Seal the base ice before painting the hockey lines.",
    {
        "action": ["seal", "sealing"],
        "object": ["base ice"],
        "condition": ["before painting the hockey lines", "before painting"],
    },
    fact_id="rink",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the item naming the most of the later act is its step, not one that shares a word
        ("1. flood\n2. white paint\n3. seal base ice\n4. paint hockey lines", Grade.ACTIONABLE),
        ("1. flood\n2. paint hockey lines\n3. seal base ice\n4. white paint", Grade.INVERTED),
    ],
)
def test_the_later_act_is_the_item_that_names_the_most_of_it(text: str, grade: Grade) -> None:
    assert grade_one(text, RINK).grade is grade


def test_steps_named_inside_one_line_are_a_plan() -> None:
    text = "Step 1: drain the queue. Step 2: patch the server."
    assert plan_items(text) == [["drain the queue", "patch the server"]]
    assert plan_items("Plan: step 1: drain it; step 2: patch it") == [
        ["Plan: drain it", "Plan: patch it"]
    ]
    # one "step N:" is no list, and a numbered list keeps its own items
    assert plan_items("Do not patch it after step 2: it breaks. Step 3: done.") == []
    assert plan_items("1. a\n2. b\n3. c") == [["a", "b", "c"]]
