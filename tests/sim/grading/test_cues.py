"""Cues read in context: a fact's own words are no cue, gestures and tips keep a rule at
`degraded`, a switched-off setting and a lifted freeze reverse a rule. Fresh examples, on
rules declared the way a user declares them."""

from __future__ import annotations

import pytest

from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import MAILBOX, PAYROLL

INVOICE = declare_fact(
    "If the vendor is on the block list, do not pay the invoice.",
    {
        "action": ["pay"],
        "object": ["invoice"],
        "condition": ["vendor is on the block list", "block list"],
    },
    fact_id="invoice",
    cls="conditional",
)
CLIPPING = declare_fact(
    "The training run must use a gradient clipping of 1.0.",
    {"object": ["training run"], "setting": ["gradient clipping", "clipping"], "value": ["1.0"]},
    fact_id="clip",
    required=["object", "value"],
)
UPGRADE = declare_fact(
    "Do not upgrade the tenant plan until the account owner confirms.",
    {
        "action": ["upgrade"],
        "object": ["tenant plan"],
        "condition": ["until the account owner confirms", "account owner confirms"],
    },
    fact_id="upgrade",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Never pay an invoice when its vendor is on the block list.", Grade.ACTIONABLE),
        ("Go ahead and pay the invoice even though the vendor is on the block list.", Grade.INVERTED),  # noqa: E501
        ("Pay the invoice now; the vendor is on the block list but finance agreed.", Grade.INVERTED),  # noqa: E501
    ],
)  # fmt: skip
def test_a_cue_inside_the_facts_own_words_is_no_cue(text: str, grade: Grade) -> None:
    assert grade_one(text, INVOICE).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        "Payroll batch: leave it alone for now.",
        "Check with finance about the payroll batch at some point.",
        "Payroll batch: keep it stable.",
        "It is generally safer not to reprocess the payroll batch after step 3.",
        "Payroll batch: handle with care.",
        "Payroll batch: handle as part of the month-end workstream.",
    ],
)
def test_gestures_and_tips_are_degraded(text: str) -> None:
    assert grade_one(text, PAYROLL).grade is Grade.DEGRADED


def test_a_gesture_never_weakens_a_rule_stated_whole() -> None:
    text = "For now: do not reprocess the payroll batch after step 3."
    assert grade_one(text, PAYROLL).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Training run: turn off gradient clipping, 1.0 was too tight.", Grade.INVERTED),
        ("Training run: gradient clipping 1.0, fixed; do not tweak it.", Grade.ACTIONABLE),
        ("Training run: gradient clipping of roughly 1.0.", Grade.DEGRADED),
    ],
)
def test_a_pin_switched_off_kept_or_loosened(text: str, grade: Grade) -> None:
    assert grade_one(text, CLIPPING).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        "Upgrading the tenant plan no longer waits on the account owner.",
        "The hold on tenant plan upgrades was rescinded; upgrade it when ready.",
        "The tenant plan upgrade freeze has been withdrawn by the account owner.",
        "Upgrade the tenant plan today (no AO approval needed).",
        "Tenant plan upgrades used to wait on the account owner's confirmation.",
        "The account owner lifted the old Q3 tenant plan upgrade freeze.",
        "Upgrade the tenant plan; no sign-off from the account owner is required.",
    ],
)
def test_a_lifted_gate_is_inverted(text: str) -> None:
    assert grade_one(text, UPGRADE).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the yes named by what it gates, or as a prerequisite, said to be ended
        ("The account owner's confirmation before upgrading the tenant plan was dropped.",
         Grade.INVERTED),
        ("Account owner confirmation has been scrapped as a prerequisite for the tenant plan "
         "upgrade.", Grade.INVERTED),
        # a confirmation email is no gate
        ("Send the confirmation email before the tenant plan is upgraded.", Grade.DEGRADED),
        # a gate or a hold that stands on the act, ended by an active verb
        ("We've dropped the account owner gate on upgrading the tenant plan.", Grade.INVERTED),
        ("Ops removed the hold on the tenant plan upgrade this morning.", Grade.INVERTED),
        ("We kept the account owner gate on upgrading the tenant plan.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_gate_said_to_be_ended_is_lifted(text: str, grade: Grade) -> None:
    assert grade_one(text, UPGRADE).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Ops dropped the step-3 freeze on payroll batch reprocessing.", Grade.INVERTED),
        ("We scrapped the reprocessing limits for the payroll batch after step 3.",
         Grade.INVERTED),
        # the act of the rule is not the ending of a restriction named after a colon
        ("Reprocessing the payroll batch: frozen after step 3.", Grade.ACTIONABLE),
        # nor is removing things beyond a bound
        ("Remove the rows over the limit, and do not reprocess the payroll batch after step 3.",
         Grade.VERBATIM),
    ],
)  # fmt: skip
def test_a_restriction_ended_by_an_active_verb(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Nobody should reprocess the payroll batch after step 3.", Grade.ACTIONABLE),
        ("Past step 3, no-one may reprocess the payroll batch.", Grade.ACTIONABLE),
        ("Nobody said you cannot reprocess the payroll batch after step 3.", Grade.INVERTED),
        ("Best to avoid reprocessing the payroll batch after step 3.", Grade.DEGRADED),
        ("Reprocessing the payroll batch after step 3 is not advisable.", Grade.DEGRADED),
        ("Do not reprocess the payroll batch after step 3, at the lead's discretion.",
         Grade.DEGRADED),
        ("After step 3 it may be wise to hold off on reprocessing the payroll batch.",
         Grade.DEGRADED),
        ("It would be prudent not to reprocess the payroll batch after step 3.", Grade.DEGRADED),
        ("Reprocessing of the payroll batch should be kept to a minimum.", Grade.DEGRADED),
        ("Minimise reprocessing the payroll batch after step 3.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_nobody_forbids_and_advice_hedges(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a restriction said to be gone, or no longer there at all
        ("The freeze on payroll batch reprocessing after step 3 is gone.", Grade.INVERTED),
        ("There is no longer any ban on reprocessing the payroll batch after step 3.",
         Grade.INVERTED),
        ("Payroll batch: the step-3 hold is gone; reprocess it as needed.", Grade.INVERTED),
        # a hedge behind a contraction
        ("If there's time, skip reprocessing the payroll batch after step 3.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_restriction_gone_and_a_contracted_hedge(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Payroll: reprocessing deferred.", Grade.DEGRADED),
        ("Payroll batch: no reprocessing past step 3.", Grade.ACTIONABLE),
        ("Payroll: restriction lifted.", Grade.INVERTED),
        ("Expense batch: no reprocessing past step 3.", Grade.DROPPED),
    ],
)
def test_a_label_that_names_the_object_by_its_own_words(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The payroll batch may be reprocessed only during steps 1-3.", Grade.ACTIONABLE),
        ("Reprocess the payroll batch only within steps 4 to 6.", Grade.INVERTED),
        ("Reprocessing the payroll batch is banned from step 4 onward.", Grade.ACTIONABLE),
        # a log line: the window is no bound, and an act reported done states no rule
        ("Steps 1-3 complete: payroll batch reprocessed twice.", Grade.DROPPED),
    ],
)
def test_a_window_of_steps_reads_as_its_bounds(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


def test_an_order_put_off_to_a_vague_time_is_no_reversal() -> None:
    assert grade_one("Payroll batch: reprocess later.", PAYROLL).grade is Grade.DEGRADED


@pytest.mark.parametrize(
    "text",
    [
        "Maybe go easy on reprocessing the payroll batch after step 3.",
        "Try to leave the payroll batch alone after step 3 where you can.",
    ],
)
def test_a_tip_about_the_rule_is_degraded_not_reversed(text: str) -> None:
    assert grade_one(text, PAYROLL).grade is Grade.DEGRADED


def test_leave_it_alone_with_the_object_between_restricts() -> None:
    from sim.grading.modality import Reading, read_clause
    from sim.grading.text import lemmas, normalize

    clause = read_clause(lemmas(normalize("Leave the payroll batch completely alone.")))
    assert clause.reading is Reading.FORBID
    # it names no action, so the rule about reprocessing survives only as a gesture
    text = "Leave the payroll batch completely alone after step 3."
    assert grade_one(text, PAYROLL).grade is Grade.DEGRADED


PAYOUT = declare_fact(
    "If the vendor risk score is above 70, do not release the vendor payout.",
    {
        "action": ["release"],
        "object": ["vendor payout"],
        "condition": ["vendor risk score is above 70", "risk score above 70"],
    },
    fact_id="payout",
    cls="conditional",
)


def test_shorthand_names_the_object_in_its_condition() -> None:
    assert grade_one("vendor risk score > 70 => no release", PAYOUT).grade.at_floor


def test_the_same_condition_for_another_object_is_another_rule() -> None:
    text = "Do not release the refund batch if the vendor risk score is above 70."
    assert not grade_one(text, PAYOUT).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Billing todo:\n- upgrade the tenant plan right away, owner is on leave", Grade.INVERTED),
        ("Upgrade the tenant plan now.", Grade.INVERTED),
        ("Upgrade the tenant plan carefully.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_an_order_to_act_at_once_skips_the_yes(text: str, grade: Grade) -> None:
    assert grade_one(text, UPGRADE).grade is grade


def test_an_order_against_a_conditional_names_its_trigger() -> None:
    text = "Pay the invoice even when the vendor is on the block list."
    assert grade_one(text, INVOICE).grade is Grade.INVERTED


def test_a_caution_about_part_of_the_object_is_a_gist() -> None:
    assert grade_one("Be careful with anything payroll related.", PAYROLL).grade is Grade.DEGRADED
    assert grade_one("The payroll team meets on Fridays.", PAYROLL).grade is Grade.DROPPED


def test_an_order_opening_with_and_only_finishes_nothing() -> None:
    backups = declare_fact(
        "Only delete the old backups after the user says yes.",
        {"action": ["delete"], "object": ["old backups"], "condition": ["after the user says yes"]},
        fact_id="backups",
        cls="confirmation",
    )
    text = (
        "Oh, and do not start the nightly compaction job if disk usage is above 90%.\n"
        "And only delete the old backups after the user says yes.\n"
    )
    assert grade_one(text, backups).grade.at_floor
    # a bare condition still finishes the sentence before it
    assert grade_one(
        "Delete the old backups. But only after the user says yes.", backups
    ).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a bare answer to the question before it states the asked act's rule
        ("Reprocess the payroll batch after step 3? No.", Grade.ACTIONABLE),
        ("Can we reprocess the payroll batch after step 3? Absolutely not.", Grade.ACTIONABLE),
        ("Reprocess the payroll batch after step 3? Yes, per finance.", Grade.INVERTED),
        ("Can we reprocess the payroll batch after step 3? Yes.", Grade.INVERTED),
    ],
)
def test_a_question_answered_in_a_word(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a condition set off by commas holds its own words: the holds are the timesheets'
        ("The payroll batch should be reprocessed after step 3, once the supplier holds are"
         " sorted out, as finance asked.", Grade.INVERTED),
        ("The payroll batch must not be reprocessed after step 3, once the books close, per"
         " finance.", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_condition_between_commas_holds_its_own_cues(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "no exceptions" stresses what the clause says; it does not turn a ban into a demand
        ("Never reprocess the payroll batch after step 3, no exceptions.", Grade.ACTIONABLE),
        ("Reprocess the payroll batch after step 3, no exceptions.", Grade.INVERTED),
        # a blanket restriction right after the object stands for any act on it
        ("After step 3 the payroll batch is off-limits.", Grade.ACTIONABLE),
        ("Once step 3 is done: payroll batch off-limits, no exceptions.", Grade.ACTIONABLE),
    ],
)
def test_emphasis_and_a_blanket_restriction(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        # a rule struck through is withdrawn
        "Rules:\n- ~~Never reprocess the payroll batch after step 3~~ (per finance)",
        "~~No reprocessing of the payroll batch past step 3.~~",
    ],
)
def test_a_rule_struck_through_is_withdrawn(text: str) -> None:
    assert grade_one(text, PAYROLL).grade is Grade.INVERTED


FLOOD = declare_fact(
    "If the river is in flood, do not launch the rescue boat.",
    {"action": ["launch"], "object": ["rescue boat"], "condition": ["river is in flood"]},
    fact_id="flood",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a purpose after the act holds its own negation: the act itself is ordered
        ("If the river is in flood, launch the rescue boat at once so it isn't swept onto the pier.", False),  # noqa: E501
        ("If the river is in flood, launch the rescue boat so that the crew does not wait.", False),
        ("If the river is in flood, launch the rescue boat early to avoid a second call-out.", False),  # noqa: E501
        # the rule's own negation is not a purpose's
        ("If the river is in flood, do not launch the rescue boat, so nobody is put at risk.", True),  # noqa: E501
        # after a comma a bare "so" is a consequence, the rule itself
        ("The river is in flood, so the rescue boat must not be launched.", True),
    ],
)  # fmt: skip
def test_a_purpose_clause_keeps_its_own_negation(text: str, kept: bool) -> None:
    assert grade_one(text, FLOOD).grade.at_floor is kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a leading circumstance holds its own negation: the main clause does the act
        ("With the ledger still unconfirmed we'll keep reprocessing the payroll batch after step 3.", False),  # noqa: E501
        ("Update: since the totals are not in, we will reprocess the payroll batch after step 3.", False),  # noqa: E501
        ("Since the totals are not in, we will not reprocess the payroll batch after step 3.", True),  # noqa: E501
    ],
)  # fmt: skip
def test_a_leading_circumstance_keeps_its_own_negation(text: str, kept: bool) -> None:
    assert grade_one(text, PAYROLL).grade.at_floor is kept


PERMIT = declare_fact(
    "If the permit is still pending, do not pour the footings.",
    {"action": ["pour"], "object": ["footings"], "condition": ["permit is still pending"]},
    fact_id="permit",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # "pending" inside the condition's own words names a state, it restricts nothing
        ("If the permit is still pending, pour the footings.", False),
        ("While the permit is still pending, go ahead and pour the footings.", False),
        ("If the permit is still pending, never pour the footings.", True),
    ],
)
def test_a_relation_word_inside_the_condition_is_no_cue(text: str, kept: bool) -> None:
    assert grade_one(text, PERMIT).grade.at_floor is kept


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Not reprocessing the payroll batch after step 3 has been removed from the runbook.",
         Grade.INVERTED),
        ("The ban on reprocessing the payroll batch after step 3 was struck from the operating "
         "manual.", Grade.INVERTED),
        ("The step-3 cut-off for reprocessing the payroll batch was withdrawn once the ledger "
         "froze.", Grade.INVERTED),
        ("Do not reprocess the payroll batch after step 3, as the runbook says.", Grade.VERBATIM),
    ],
)  # fmt: skip
def test_a_rule_struck_from_its_document_is_gone(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


HATCH = declare_fact(
    "If the wind exceeds 40 km/h, do not open the roof hatch.",
    {"action": ["open"], "object": ["roof hatch"], "condition": ["wind exceeds 40 km/h"]},
    fact_id="hatch",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Keep the roof hatch shut whenever the wind exceeds 40 km/h.", Grade.ACTIONABLE),
        ("Open the roof hatch whenever the wind exceeds 40 km/h.", Grade.INVERTED),
        ("Open the roof hatch whenever you like.", Grade.INVERTED),
        ("Open the roof hatch whenever.", Grade.INVERTED),
    ],
)
def test_a_whenever_that_opens_a_condition_is_no_any_time(text: str, grade: Grade) -> None:
    assert grade_one(text, HATCH).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a leading condition whose comma is left out, after a lead-in: the order is the
        # clause's, not the condition's
        ("Per the SOP, if the wind exceeds 40 km/h do not open the roof hatch.", Grade.VERBATIM),
        ("Think twice about opening the roof hatch if the wind exceeds 40 km/h.",
         Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_lead_in_before_a_condition_and_thinking_twice(text: str, grade: Grade) -> None:
    assert grade_one(text, HATCH).grade is grade


def test_a_yes_no_longer_a_precondition_is_a_gate_lifted() -> None:
    kiln = declare_fact(
        "Do not open the glaze kiln until Odile confirms.",
        {"action": ["open"], "object": ["glaze kiln"], "condition": ["until Odile confirms"]},
        fact_id="kiln",
        cls="confirmation",
    )
    text = "Odile's confirmation is no longer a precondition for opening the glaze kiln."
    assert grade_one(text, kiln).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Restriction in place on the payroll batch after step 3 (see permit).", Grade.DEGRADED),
        ("Payroll batch: restricted after step 3, per the permit office.", Grade.DEGRADED),
        ("Reprocessing the payroll batch after step 3 is permitted now.", Grade.INVERTED),
        ("The payroll batch may be reprocessed after step 3 under permit 12.", Grade.INVERTED),
    ],
)
def test_a_permit_that_names_the_document_allows_nothing(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Badge in at the gate, no phones on the floor, payroll batch fine to reprocess after "
         "step 3, lunch at noon today.", Grade.INVERTED),
        ("Badge in at the gate, phones allowed in the break room, never reprocess the payroll "
         "batch after step 3, lunch at noon today.", Grade.ACTIONABLE),
        # a list of objects, or an aside, is one clause
        ("Never reprocess the payroll batch, the expense batch, or the bonus batch after "
         "step 3.", Grade.ACTIONABLE),
        ("Do not, under any circumstances, reprocess the payroll batch after step 3.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_items_listed_by_commas_alone_are_clauses_of_their_own(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (UPGRADE, "The wait on the account owner for the tenant plan upgrade has been dropped."),
        (PAYROLL, "The interlock on reprocessing the payroll batch after step 3 was removed."),
    ],
)
def test_a_wait_or_an_interlock_taken_away_lifts_the_rule(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.INVERTED


def test_safe_to_allows_where_safer_not_to_hedges() -> None:
    assert grade_one("After step 3 it is safe to reprocess the payroll batch.", PAYROLL).grade is (
        Grade.INVERTED
    )
    text = "It is safer not to reprocess the payroll batch after step 3."
    assert grade_one(text, PAYROLL).grade is Grade.DEGRADED


@pytest.mark.parametrize(
    "text",
    [
        "Reprocessing the payroll batch after step 3: no objections.",
        "Reprocessing the payroll batch after step 3 raises no concerns.",
    ],
)
def test_no_objection_to_the_act_allows_it(text: str) -> None:
    assert grade_one(text, PAYROLL).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        (
            "The ban on reprocessing the payroll batch after step 3 cannot be waived.",
            Grade.ACTIONABLE,
        ),
        (
            "The ban on reprocessing the payroll batch after step 3 was not rescinded.",
            Grade.ACTIONABLE,
        ),
        ("The ban on reprocessing the payroll batch after step 3 was waived.", Grade.INVERTED),
    ],
)
def test_a_denied_revocation_keeps_the_restriction(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


SHUTTERS = declare_fact(
    "Do not reopen the loading dock shutters until Imke confirms.",
    {
        "action": ["reopen", "reopening"],
        "object": ["loading dock shutters", "shutters"],
        "condition": ["until Imke confirms", "Imke confirms"],
    },
    fact_id="shutters",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # "restricted" restricts; "restricted to" a window permits only inside it
        (PAYROLL, "Payroll batch reprocessing: restricted after step 3.", Grade.ACTIONABLE),
        (PAYROLL, "Reprocessing the payroll batch is restricted to steps 1-3.", Grade.ACTIONABLE),
        (PAYROLL, "Reprocessing the payroll batch is unrestricted after step 3.", Grade.INVERTED),
        # a gate on the act defers it until what it is gated on
        (SHUTTERS, "Reopening the loading dock shutters is gated on Imke's confirmation.",
         Grade.ACTIONABLE),
        # the state kept refuses the act: shutters kept shut are not reopened
        (SHUTTERS, "Keep the loading dock shutters shut till Imke OKs it.", Grade.ACTIONABLE),
        (SHUTTERS, "The loading dock shutters stay closed until Imke confirms.", Grade.ACTIONABLE),
        (SHUTTERS, "Keep the loading dock shutters closed; reopen them without waiting for "
         "Imke.", Grade.INVERTED),
        # a state put until the yes, with no verb of keeping
        (SHUTTERS, "Loading dock shutters - closed until Imke confirms.", Grade.ACTIONABLE),
        # the yes put off past the act, or struck off the list, is skipped
        (SHUTTERS, "Reopen the loading dock shutters tonight; Imke's check can wait.",
         Grade.INVERTED),
        (SHUTTERS, "Imke's sign-off for reopening the loading dock shutters was struck off the "
         "checklist.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_restricted_gated_and_kept_shut(fact: Fact, text: str, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


LINEN = declare_fact(
    "If the chlorine level exceeds 4 ppm, do not release the pool towels.",
    {
        "action": ["release"],
        "object": ["pool towels", "towels"],
        "condition": ["exceeds 4 ppm", "above 4 ppm"],
    },
    fact_id="towels",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "is over 4 ppm" is a bound, not the hold being over
        ("Hold release of the pool towels if the chlorine level is over 4 ppm.",
         Grade.ACTIONABLE),
        ("The hold on releasing the pool towels is over.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_over_a_number_is_a_bound_not_an_ending(text: str, grade: Grade) -> None:
    assert grade_one(text, LINEN).grade is grade


VACUUM = declare_fact(
    "If disk usage exceeds 90%, do not run VACUUM FULL on the audit_log table.",
    {
        "action": ["VACUUM FULL", "vacuum"],
        "object": ["audit_log table", "audit_log"],
        "condition": ["exceeds 90%", "above 90%"],
    },
    fact_id="vacuum",
    cls="conditional",
)


@pytest.mark.parametrize(
    "text",
    [
        # the case is the clause before "so"; "on" and "at" place the act, they state no case
        "Disk usage is above 90%, so run VACUUM FULL on the audit_log table now.",
        "Disk is over 90%, so run VACUUM FULL on audit_log at midnight.",
    ],
)
def test_a_consequence_takes_the_case_of_the_clause_before(text: str) -> None:
    assert grade_one(text, VACUUM).grade is Grade.INVERTED


# a restriction's noun that names the thing acted on: declaring the rule works, and lifting
# the gates is the act, not a gate lifted
WEIR = declare_fact(
    "Do not lift the weir gates until Mara confirms.",
    {
        "action": ["lift", "lifting"],
        "object": ["weir gates", "gates"],
        "condition": ["until Mara confirms", "Mara confirms"],
    },
    fact_id="weir",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Lift the weir gates only once Mara confirms.", Grade.ACTIONABLE),
        ("Weir gates: lift them after Mara confirms.", Grade.ACTIONABLE),
        ("The hold on lifting the weir gates was lifted.", Grade.INVERTED),
        ("Lift the weir gates now; Mara's OK is not needed.", Grade.INVERTED),
    ],
)
def test_gates_that_are_things_are_lifted_as_things(text: str, grade: Grade) -> None:
    assert grade_one(text, WEIR).grade is grade


TRAYS = declare_fact(
    "If the kiln temperature exceeds 200 °C, do not load the glaze trays.",
    {
        "action": ["load", "loading"],
        "object": ["glaze trays", "trays"],
        "condition": ["exceeds 200 °C", "over 200 °C", "above 200 °C"],
    },
    fact_id="trays",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # "no yes, no act": the act waits on the yes
        (SHUTTERS, "No Imke confirmation, no reopening of the loading dock shutters.",
         Grade.ACTIONABLE),
        (SHUTTERS, "No sign-off from Imke - no reopening the loading dock shutters.",
         Grade.ACTIONABLE),
        # kept out of the place it would be loaded into
        (TRAYS, "If the kiln is over 200 °C, the glaze trays stay out of it.", Grade.ACTIONABLE),
        (TRAYS, "If the kiln is over 200 °C, load the glaze trays anyway.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_telegraphic_gates_and_states(fact: Fact, text: str, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


SLUICE = declare_fact(
    "Do not open the sluice valve at Gate 3 after step 4.",
    {"action": ["open"], "object": ["sluice valve"], "condition": ["after step 4"]},
    fact_id="sluice",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a lock, gate or hold with a number or letter after it is a place, not a restriction
        ("After step 4, open the sluice valve at Gate 3.", Grade.INVERTED),
        ("After step 4, open the sluice valve at Lock 14.", Grade.INVERTED),
        ("After step 4, the crew may open the sluice valve by Block C.", Grade.INVERTED),
        ("Never open the sluice valve at Gate 3 past step 4.", None),
        ("Once step 4 is done, the sluice valve by Lock 14 must not be opened.", None),
    ],
)  # fmt: skip
def test_a_restriction_noun_that_names_a_place_is_no_cue(text: str, grade: Grade | None) -> None:
    found = grade_one(text, SLUICE).grade
    assert found is grade if grade is not None else found.at_floor


@pytest.mark.parametrize(
    "text",
    [
        # a status set off by a dash after the gate ("- ticket pending") holds nothing back
        "Only archive the support mailbox after Ines confirms - migration ticket pending.",
        "* archive the support mailbox only once Ines confirms — export check pending",
    ],
)
def test_a_status_aside_after_a_gate_is_no_deferral(text: str) -> None:
    assert grade_one(text, MAILBOX).grade.at_floor


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # "whether or not" disregards the case: the act goes ahead either way
        (MAILBOX, "The support mailbox can be archived whether or not Ines confirms."),
        (MAILBOX, "Archive the support mailbox today, whether or not Ines has confirmed."),
        (PAYROLL, "Reprocess the payroll batch whether or not step 3 is done."),
    ],
)
def test_whether_or_not_disregards_the_case(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the object itself refused stands for any act on it
        ("The payroll batch is barred after step 3.", True),
        ("Payroll batches for the night shift are not allowed after step 3.", True),
        ("The payroll batch is prohibited once step 3 is done.", True),
        ("The payroll batch is embargoed after step 3.", True),
        ("The payroll batch is no longer barred after step 3.", False),
        ("The payroll batch is not forbidden after step 3.", False),
    ],
)  # fmt: skip
def test_the_object_refused_stands_for_its_act(text: str, kept: bool) -> None:
    assert grade_one(text, PAYROLL).grade.at_floor is kept


def test_a_yes_said_to_come_after_the_act_skips_the_gate() -> None:
    text = "Archive the support mailbox now; Ines can sign off on it after archiving it."
    assert grade_one(text, MAILBOX).grade is Grade.INVERTED


DOORS = declare_fact(
    "Always check the fire doors before opening the hall.",
    {"action": ["check"], "object": ["fire doors"], "condition": ["before opening the hall"]},
    fact_id="doors",
    cls="ordering",
)


def test_skipping_the_rules_own_check_is_no_skipped_gate() -> None:
    # "skip check" skips a gate's check; where the check is the rule's own act, it is skipped
    text = "Skip checking the fire doors and go straight to opening the hall."
    assert grade_one(text, DOORS).grade is Grade.INVERTED
    assert grade_one("Check the fire doors before opening the hall.", DOORS).grade.at_floor


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the window the act is allowed in, stated alone: the rule's "not after step 3"
        ("Reprocessing the payroll batch is allowed only up to the end of step 3.", True),
        ("Any reprocessing of the payroll batch has to happen during steps 1 to 3.", True),
        ("The payroll batch can be reprocessed up to step 3 and never after it.", True),
        ("Reprocessing the payroll batch has to happen after step 3.", False),
        ("The payroll batch can be reprocessed after step 3.", False),
    ],
)  # fmt: skip
def test_a_window_for_the_act_states_a_ban_outside_it(text: str, kept: bool) -> None:
    assert grade_one(text, PAYROLL).grade.at_floor is kept


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a question asks about the rule; it does not state it
        ("Open question: is reprocessing the payroll batch after step 3 off-limits?",
         Grade.DEGRADED),
        ("Is reprocessing the payroll batch after step 3 off-limits?\n"
         "Dana answered: no, reprocess it whenever.", Grade.INVERTED),
        ("We'd lean towards not reprocessing the payroll batch after step 3.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_question_or_a_leaning_is_no_rule_stated(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        # a reported question asks; it states no rule
        "Dana asked whether reprocessing the payroll batch after step 3 is off-limits.",
        "The auditor wondered if the payroll batch must not be reprocessed after step 3.",
    ],
)
def test_a_reported_question_is_no_rule_stated(text: str) -> None:
    assert not grade_one(text, PAYROLL).grade.at_floor
