"""Rules said from the far act with one object for both, states that refuse a demanded act, an
act switched off, an object's label over a later clause, a later line labelled as an update,
and names of other things before a rule's short object. Fresh examples, not corpus cases; each
is graded by grade_text and by the sweep's LineGrader alike."""

from __future__ import annotations

import pytest

from sim.grading.grade import grade_text
from sim.grading.grade_lines import LineGrader
from sim.runtime.floor_registry import declare_fact
from sim.tokens import get_counter
from sim.types import Fact, Grade

WEIGH = declare_fact(
    "Weigh the export crate before shipping it to the buyer.",
    {
        "action": ["weigh", "weighing", "weighed"],
        "object": ["export crate", "crate"],
        "condition": ["before shipping it to the buyer", "before shipping"],
    },
    fact_id="weigh",
    cls="ordering",
    opposites={"condition": ["after shipping it to the buyer", "after shipping"]},
)
CHILLER = declare_fact(
    "If the cellar temperature rises above 18 °C, switch on the cellar chiller.",
    {
        "action": ["switch on", "switching on", "switched on", "turn on"],
        "object": ["cellar chiller", "chiller"],
        "condition": ["rises above 18 °C", "above 18 °C"],
    },
    fact_id="chiller",
    cls="conditional",
    opposites={"condition": ["below 18 °C"]},
)
SYNC = declare_fact(
    "If queue lag exceeds 10 minutes, pause the invoice sync.",
    {
        "action": ["pause", "pausing", "paused"],
        "object": ["invoice sync"],
        "condition": ["exceeds 10 minutes", "above 10 minutes"],
    },
    fact_id="sync",
    cls="conditional",
    opposites={"condition": ["below 10 minutes"]},
)
REPLICATION = declare_fact(
    "Never pause the ledger replication after step 3.",
    {
        "action": ["pause", "pausing", "paused"],
        "object": ["ledger replication"],
        "condition": ["after step 3", "past step 3"],
    },
    fact_id="replication",
    cls="prohibition",
    opposites={"condition": ["before step 3"]},
)
UNMOUNT = declare_fact(
    "Unmount the scratch volume if its error count exceeds 5.",
    {
        "action": ["unmount", "unmounting", "unmounted"],
        "object": ["scratch volume"],
        "condition": ["exceeds 5", "above 5", "over 5"],
    },
    fact_id="unmount",
    cls="conditional",
    opposites={"condition": ["below 5"]},
)
GRACE = declare_fact(
    "Keep the intranet Varnish tier's grace period at 6 hours.",
    {
        "setting": ["grace period"],
        "object": ["intranet Varnish tier", "intranet tier", "intranet"],
        "value": ["6 hours", "6h"],
    },
    fact_id="grace",
    cls="value_pin",
)
FRIDGE = declare_fact(
    "The dairy walk-in fridge must stay at a temperature of 3 °C.",
    {"setting": ["temperature"], "object": ["dairy walk-in fridge", "walk-in fridge"],
     "value": ["3 °C", "3°C"]},
    fact_id="fridge",
    cls="value_pin",
)  # fmt: skip
RELIGHT = declare_fact(
    "Only relight oven 3 after Imogen signs off.",
    {
        "action": ["relight", "relighting", "relit"],
        "object": ["oven 3"],
        "condition": ["after Imogen signs off", "Imogen signs off", "Imogen confirms"],
    },
    fact_id="relight",
    cls="confirmation",
)
DRAIN = declare_fact(
    "Always drain the glycol loop before swapping the pump.",
    {
        "action": ["drain", "draining", "drained"],
        "object": ["glycol loop"],
        "condition": ["before swapping the pump", "before the pump swap"],
    },
    fact_id="drain",
    cls="ordering",
    opposites={"condition": ["after swapping the pump"]},
)
SAND = declare_fact(
    "Always sand the teak deck before oiling it.",
    {
        "action": ["sand", "sanding", "sanded"],
        "object": ["teak deck", "deck"],
        "condition": ["before oiling it", "before oiling"],
    },
    fact_id="sand",
    cls="ordering",
    opposites={"condition": ["after oiling it", "after oiling"]},
)
KILN = declare_fact(
    "Never crack open the raku kiln after step 5.",
    {
        "action": ["crack open", "open"],
        "object": ["raku kiln"],
        "condition": ["after step 5", "past step 5"],
    },
    fact_id="kiln",
    cls="prohibition",
    opposites={"condition": ["before step 5"]},
)
HOLD = declare_fact(
    "The vat pasteurizer's holding temperature is pinned at 63 °C.",
    {"setting": ["holding temperature"], "object": ["vat pasteurizer", "pasteurizer"],
     "value": ["63 °C", "63°C"]},
    fact_id="hold",
    cls="value_pin",
)  # fmt: skip


def _graded(text: str, fact: Fact) -> Grade:
    counter = get_counter()
    plain = grade_text(text, [fact], counter)
    assert LineGrader([fact], counter).grade(text, [fact]) == plain
    return plain[0].grade


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Never ship the export crate to the buyer before weighing it.", True),
        ("Do not ship the export crate with the courier until it has been weighed.", True),
        ("Ship the export crate to the buyer only after weighing it.", True),
        ("Ship the export crate to the buyer before weighing it.", False),
        ("Ship the export crate to the buyer, and weigh the pallet tomorrow.", False),
    ],
)
def test_the_far_act_on_the_rules_own_object_then_its_act(text: str, kept: bool) -> None:
    # the object is the far act's ("ship the crate"); the rule's act follows it on "it"
    assert _graded(text, WEIGH).at_floor is kept
    if not kept and "before" in text:
        assert _graded(text, WEIGH) is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Keep the cellar chiller off even if the cellar temperature rises above 18 °C.",
         Grade.INVERTED),
        ("Leaving the cellar chiller off while the temperature is above 18 °C is not allowed.",
         Grade.ACTIONABLE),
        ("The cellar chiller stays off, no switching on, even above 18 °C.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_state_that_refuses_a_demanded_act(text: str, grade: Grade) -> None:
    assert _graded(text, CHILLER) is grade


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("Keep the invoice sync running even if queue lag exceeds 10 minutes.", SYNC,
         Grade.INVERTED),
        ("The invoice sync should carry on even when queue lag exceeds 10 minutes.", SYNC,
         Grade.INVERTED),
        ("Keep the ledger replication running after step 3.", REPLICATION, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_stop_refused_by_the_act_going_on(text: str, fact: Fact, grade: Grade) -> None:
    assert _graded(text, fact) is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The auto-unmount of the scratch volume above 5 errors is disabled now.",
         Grade.INVERTED),
        ("Do not disable the auto-unmount of the scratch volume above 5 errors.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_demanded_act_switched_off(text: str, grade: Grade) -> None:
    assert _graded(text, UNMOUNT) is grade


def test_a_pin_in_hours_moved_to_minutes_after_an_opening_verb() -> None:
    # "Lower the intranet ...": the verb before the determiner names no other tier, and a
    # pin in hours has minutes beside it
    assert _graded("Lower the intranet grace period to 30 minutes.", GRACE) is Grade.INVERTED
    assert _graded("Lower the intranet grace period to 6 hours.", GRACE).at_floor


def test_three_words_of_another_kind_before_the_short_object() -> None:
    assert not _graded(
        "The bakery back room walk-in fridge temperature stays at 3 °C.", FRIDGE
    ).at_floor
    assert _graded("The dairy walk-in fridge temperature stays at 3 °C.", FRIDGE).at_floor


@pytest.mark.parametrize(
    "text",
    [
        "- oven 3: door seal worn; only relight after Imogen signs off",
        "- oven 3: door seal worn. Only relight after Imogen signs off.",
    ],
)
def test_the_objects_label_carries_to_a_later_clause_that_leaves_it_out(text: str) -> None:
    assert _graded(text, RELIGHT).at_floor
    assert not _graded(text.replace("oven 3", "oven 4"), RELIGHT).at_floor


@pytest.mark.parametrize(
    ("update", "grade"),
    [
        ("Update: skip the drain and swap the pump straight away.", Grade.INVERTED),
        ("Update 09:10: Ruth says swap the pump first and drain the glycol loop afterwards.",
         Grade.INVERTED),
        ("Update: the spare pump is in bay 4.", Grade.VERBATIM),
        ("Update: drain the glycol loop before swapping the pump, as planned.", Grade.VERBATIM),
    ],
)  # fmt: skip
def test_a_line_labelled_as_an_update_revises_only_what_it_reverses(
    update: str, grade: Grade
) -> None:
    text = f"Always drain the glycol loop before swapping the pump.\n{update}"
    assert _graded(text, DRAIN) is grade


def test_an_adverb_after_the_far_act_in_its_own_sentence() -> None:
    text = "Teak deck: sand before oiling.\nUpdate - Tomas says oil first and sand afterwards."
    assert _graded(text, SAND) is Grade.INVERTED


def test_under_no_circumstances_is_a_ban_not_a_report_of_no_cracks() -> None:
    assert _graded("Under no circumstances crack open the raku kiln after step 5.", KILN).at_floor


def test_a_new_value_someone_approved_after_the_pin() -> None:
    text = "Vat pasteurizer holding temperature: 63 °C.\nUpdate: QA approved 66 °C from today."
    assert _graded(text, HOLD) is Grade.INVERTED
    assert _graded(
        "Vat pasteurizer holding temperature: 63 °C.\nUpdate: QA approved the new labels.", HOLD
    ).at_floor


VET = declare_fact(
    "Every new tenant has to be vetted before handing over the flat keys.",
    {
        "action": ["vet", "vetting", "vetted"],
        "object": ["new tenant", "tenant"],
        "condition": ["before handing over the flat keys", "before handing over"],
    },
    fact_id="vet",
    cls="ordering",
    opposites={"condition": ["after handing over the flat keys"]},
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Only hand over the flat keys to a new tenant after they've been vetted.",
         Grade.ACTIONABLE),
        ("Hand over the flat keys to a new tenant before they've been vetted.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_the_far_act_then_the_object_then_the_rules_act_on_it(text: str, grade: Grade) -> None:
    assert _graded(text, VET) is grade


def test_a_vague_case_of_what_the_rules_condition_measures_weakens_it() -> None:
    # "the temperature is high" is the rule's case ("the cellar temperature rises above
    # 18 °C") said vaguely, not another rule's
    assert _graded("Cellar chiller: switch on if the temperature is high.", CHILLER) is (
        Grade.DEGRADED
    )
    assert not _graded("Switch on the cellar chiller if the delivery is late.", CHILLER).at_floor


@pytest.mark.parametrize(
    ("later", "fact"),
    [
        ("Leave it running - Dana said that limit doesn't apply to this sync.", SYNC),
        ("Edit: the compressor tripped, so leave the cellar chiller off even when it's warm.",
         CHILLER),
    ],
)  # fmt: skip
def test_a_later_line_ordering_the_refusing_state_reverses_the_rule(later: str, fact: Fact) -> None:
    text = f"{fact.text}\n{later}"
    assert _graded(text, fact) is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("The 10-minute lag stop on the invoice sync has been withdrawn.", SYNC, Grade.INVERTED),
        ("The auto-unmount trigger above 5 errors on the scratch volume is retired.", UNMOUNT,
         Grade.INVERTED),
        ("The step 3 pause guard on the ledger replication is no longer enforced.",
         REPLICATION, Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_rule_named_as_a_thing_and_taken_away(text: str, fact: Fact, grade: Grade) -> None:
    assert _graded(text, fact) is grade


def test_a_rule_list_that_drops_nothing_is_no_rule_taken_away() -> None:
    text = "Rules:\n- If queue lag exceeds 10 minutes, pause the invoice sync\n- Drop stale carts"
    assert _graded(text, SYNC).at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The flat keys stay locked away until the new tenant has been vetted.", Grade.ACTIONABLE),
        ("The flat keys are off-limits until the new tenant is vetted.", Grade.ACTIONABLE),
    ],
)
def test_the_later_acts_object_held_until_the_rules_act(text: str, grade: Grade) -> None:
    # "no handing over the keys until the tenant is vetted", by the keys alone
    assert _graded(text, VET) is grade


DAMPERS = declare_fact(
    "If the CO2 level in ripening room 3 rises above 1500 ppm, open the roof vents.",
    {
        "action": ["open", "opening", "opened"],
        "object": ["roof vents"],
        "condition": ["rises above 1500 ppm", "above 1500 ppm"],
    },
    fact_id="dampers",
    cls="conditional",
    opposites={"condition": ["below 1500 ppm"]},
)
ROUTER = declare_fact(
    "Do not enable request hedging on the search-7b endpoint until Ilse approves.",
    {
        "action": ["enable", "enabling", "enabled", "turn on"],
        "object": ["request hedging"],
        "condition": ["until Ilse approves", "Ilse approves", "Ilse's approval"],
    },
    fact_id="router",
    cls="confirmation",
)
GLAZE = declare_fact(
    "Wait for Noor's approval before firing the north-wing glaze kiln.",
    {
        "action": ["fire", "firing", "fired"],
        "object": ["north-wing glaze kiln", "glaze kiln"],
        "condition": ["Noor's approval", "until Noor approves", "Noor approves"],
    },
    fact_id="glaze",
    cls="confirmation",
)
AGENT = declare_fact(
    "Do not enable the billing agent's refund tool until Ilse approves.",
    {
        "action": ["enable", "enabling", "enabled"],
        "object": ["billing agent's refund tool", "refund tool"],
        "condition": ["until Ilse approves", "Ilse approves", "Ilse's approval"],
    },
    fact_id="agent",
    cls="confirmation",
)
POOL = declare_fact(
    "The analytics connection pool's max size stays at 40.",
    {"setting": ["max size", "pool size"], "object": ["analytics connection pool"],
     "value": ["40"]},
    fact_id="pool",
    cls="value_pin",
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("If the CO2 level in ripening room 5 rises above 1500 ppm, open room 5's roof vents.",
         DAMPERS),
        ("Do not enable request hedging on the search-13b endpoint until Ilse approves.", ROUTER),
        ("Wait for Noor's approval before firing the south-wing glaze kiln.", GLAZE),
        ("Do not enable the support agent's refund tool until Ilse approves.", AGENT),
    ],
)  # fmt: skip
def test_the_same_rule_for_another_numbered_or_named_thing_is_not_the_rule(
    text: str, fact: Fact
) -> None:
    assert not _graded(text, fact).at_floor
    assert _graded(fact.text, fact).at_floor


@pytest.mark.parametrize(
    ("later", "fact"),
    [
        ("Edit - ignore that, the lead says leave the roof vents shut whatever the CO2 does.",
         DAMPERS),
        ("Update after the walkthrough - the manager says skip Noor's sign-off and fire it now.",
         GLAZE),
        ("Actually no - Marek says keep them shut even above 1500 ppm.", DAMPERS),
        ("Update from Kai: set it to 80 before the month-end jobs.", POOL),
        ("Later: the DBA OK'd raising it to 60 for the backfill.", POOL),
    ],
)  # fmt: skip
def test_a_labelled_later_word_takes_the_rule_back(later: str, fact: Fact) -> None:
    assert _graded(f"{fact.text}\n{later}", fact) is Grade.INVERTED


def test_a_permission_after_the_subjects_other_duties_is_its_own_clause() -> None:
    text = (
        "The billing agent must not issue credits, must not email customers, and can have its "
        "refund tool enabled right away without Ilse's approval."
    )
    assert _graded(text, AGENT) is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Pausing the ledger replication is permitted only while step 3 is still pending.",
         Grade.ACTIONABLE),
        ("The ledger replication may be paused only as long as step 3 is unfinished.",
         Grade.ACTIONABLE),
        ("Pause the ledger replication only while step 3 is done.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_step_still_pending_is_before_it(text: str, grade: Grade) -> None:
    assert _graded(text, REPLICATION) is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The analytics connection pool's max size must never differ from 40.", Grade.ACTIONABLE),
        ("The analytics connection pool's max size is fixed at 40 and not to be adjusted.",
         Grade.ACTIONABLE),
        ("The analytics connection pool's max size may differ from 40.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_pin_kept_or_let_go_by_differing_from_it(text: str, grade: Grade) -> None:
    assert _graded(text, POOL) is grade


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("The invoice sync may not continue once queue lag exceeds 10 minutes.", SYNC,
         Grade.ACTIONABLE),
        ("The cellar chiller is not allowed to stay off once the temperature rises above 18 °C.",
         CHILLER, Grade.ACTIONABLE),
        ("Pausing the ledger replication is fine only while step 3 is still outstanding.",
         REPLICATION, Grade.ACTIONABLE),
        ("Handing over the flat keys is not allowed until the new tenant has passed vetting.",
         VET, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_refusing_state_denied_is_the_act_demanded(text: str, fact: Fact, grade: Grade) -> None:
    assert _graded(text, fact) is grade


def test_the_far_act_before_the_rules_act_by_you() -> None:
    text = "Keep the gate shut, and go ahead and ship the export crate before you weigh it."
    assert _graded(text, WEIGH) is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "at_floor"),
    [
        ("Keep the timeouts, and raise the max size on the analytics connection pool to 60.",
         False),
        ("Never raise the max size on the analytics connection pool to 60.", None),
        ("Set the max size on the analytics connection pool to 40.", True),
    ],
)  # fmt: skip
def test_a_pin_set_to_another_number(text: str, at_floor: bool | None) -> None:
    grade = _graded(text, POOL)
    if at_floor is None:
        assert grade is not Grade.INVERTED  # refusing the move keeps the pin, if weakly
    else:
        assert grade.at_floor is at_floor
        assert at_floor or grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The flat keys can go out before the new tenant has been vetted.", Grade.INVERTED),
        ("The flat keys can go out only after the new tenant has been vetted.", Grade.ACTIONABLE),
        ("The flat keys were copied before the new tenant was vetted.", None),
    ],
)
def test_the_later_acts_object_with_a_verb_standing_in_for_it(
    text: str, grade: Grade | None
) -> None:
    got = _graded(text, VET)
    if grade is None:  # no verb that stands in for handing over: no order read
        assert got is not Grade.INVERTED
    else:
        assert got is grade


ROUTING = declare_fact(
    "If the p95 latency rises above 0.75 seconds, disable request hedging on the search-7b"
    " endpoint.",
    {
        "action": ["disable", "disabling", "disabled", "turn off"],
        "object": ["request hedging on the search-7b endpoint", "request hedging"],
        "condition": ["rises above 0.75 seconds", "above 0.75 seconds"],
    },
    fact_id="routing",
    cls="conditional",
    opposites={"condition": ["below 0.75 seconds"]},
)


def test_an_orders_verb_opening_the_sentence_names_no_other_kind() -> None:
    # "Keep" before the shorter form is the order, and "0" of "0.75" is no numbered name
    text = "Keep request hedging on for the search-7b endpoint even above 0.75 seconds."
    assert _graded(text, ROUTING) is Grade.INVERTED
