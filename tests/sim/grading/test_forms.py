"""Forms a user's anchors leave out: an action's noun, the object named before the action,
a rule finished by a sub-bullet, and a forbidding clause that says what the action needs.
Fresh examples, on rules declared the way a user declares them."""

from __future__ import annotations

import pytest

from sim.grading.frames import action_nouns
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import PAYROLL

REFUND = declare_fact(
    "Do not cancel the annual subscription after step 2.",
    {"action": ["cancel"], "object": ["annual subscription"], "condition": ["after step 2"]},
    fact_id="subscription",
)
QUOTA = declare_fact(
    "Do not raise the storage quota until the billing owner confirms.",
    {
        "action": ["raise"],
        "object": ["storage quota"],
        "condition": ["until the billing owner confirms", "billing owner confirms"],
    },
    fact_id="quota",
    cls="confirmation",
)


def test_nouns_are_derived_from_verbs() -> None:
    assert " deletion " in action_nouns(" delete ") and " renewal " in action_nouns(" renew ")
    assert " deployment " in action_nouns(" deploy ")
    assert action_nouns(" scale down ") == ()


@pytest.mark.parametrize(
    "text",
    [
        "Cancellation of the annual subscription is not allowed after step 2.",
        "Annual subscription: no cancellation past step 2.",
    ],
)
def test_an_action_named_by_its_noun_keeps_the_rule(text: str) -> None:
    assert grade_one(text, REFUND).grade.at_floor


def test_the_object_named_before_its_action() -> None:
    text = "Storage quota raise is blocked until the billing owner confirms."
    assert grade_one(text, QUOTA).grade.at_floor


def test_a_sub_bullet_finishes_its_bullet_and_siblings_stay_apart() -> None:
    kept = "Open:\n- raise the storage quota\n  - only once the billing owner confirms\n- rotate"
    assert grade_one(kept, QUOTA).grade.at_floor
    apart = "Copied:\n- raise the storage quota to 2 TB\n  - never cancel the annual subscription\n  - after step 2 notify finance"  # noqa: E501
    assert not grade_one(apart, REFUND).grade.at_floor


def test_a_forbidding_clause_that_names_what_the_action_needs() -> None:
    text = "Storage quota raise: BLOCKED, needs a yes from the billing owner first."
    assert grade_one(text, QUOTA).grade.at_floor
    # a requirement stated on its own is no reversal of the gate
    needs = "Raise the storage quota; it needs the billing owner to confirm."
    assert grade_one(needs, QUOTA).grade is not Grade.INVERTED


@pytest.mark.parametrize(
    ("words", "digits"),
    [("three hundred dpi", " 300 dpi "), ("forty-five seconds", " 45 seconds "),
     ("two thousand five hundred rows", " 2500 rows "), ("one hundred and twenty", " 120 "),
     ("after step three", " after step 3 "), ("steps one two three", " steps 1 2 3 ")],
)  # fmt: skip
def test_spelled_numbers_compose(words: str, digits: str) -> None:
    from sim.grading.text import normalize

    assert normalize(words) == digits


def test_a_cleared_check_is_the_complement_of_a_pending_one() -> None:
    offer = declare_fact(
        "If the credit check is still pending, do not ship the order.",
        {"action": ["ship"], "object": ["order"], "condition": ["credit check is still pending"]},
        fact_id="ship",
        cls="conditional",
    )
    assert grade_one("Ship the order only once the credit check has cleared.", offer).grade.at_floor
    assert grade_one("Ship the order even though the credit check is pending.", offer).grade is (
        Grade.INVERTED
    )


@pytest.mark.parametrize(
    ("word", "lemma"),
    [("unsent", " not send "), ("unmerged", " not merge "), ("unpublished", " not publish "),
     ("unblocked", " unblock "), ("unchanged", " unchanged "), ("until", " until "),
     ("unless", " unless "), ("unknown", " unknown ")],
)  # fmt: skip
def test_an_un_participle_denies_its_act(word: str, lemma: str) -> None:
    from sim.grading.text import lemmas, normalize

    assert lemmas(normalize(word)) == lemma


def test_a_subscription_that_stays_uncancelled_keeps_the_rule() -> None:
    text = "The annual subscription renews monthly. It stays uncancelled after step 2."
    assert grade_one(text, REFUND).grade.at_floor


def test_a_verb_before_an_action_word_is_no_object_and_a_synonyms_noun_is_no_action() -> None:
    """Two readings a sweep caught: "build" in "build the release notes" is a verb, not the
    canary build's head; "shipments" is a thing, not the refund batch being shipped."""
    from tests.helpers import planted

    canary = planted("conditional", 1).fact  # never promote the canary build if ...
    text = "Oh, and make sure to build the release notes before tagging the release."
    assert grade_one(text, canary).grade is Grade.DROPPED
    refunds = planted("confirmation", 1).fact  # only send the customer refund batch after ...
    text = (
        "Customer refund batch payout pending.\nPlease speed up the shipments view, it takes 8 s."
    )
    assert grade_one(text, refunds).grade is not Grade.INVERTED


PAYOUT = declare_fact(
    "Do not send the refund batch until finance approves.",
    {"action": ["send"], "object": ["refund batch"], "condition": ["until finance approves"]},
    fact_id="refund",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    "text",
    [
        "The refund batch goes out only once finance approves.",
        "The refund batch can go ahead once finance approves, not before.",
        "Refund batch is blocked until finance approves.",
    ],
)
def test_a_verb_that_stands_in_for_the_objects_action_keeps_the_rule(text: str) -> None:
    assert grade_one(text, PAYOUT).grade is Grade.ACTIONABLE


@pytest.mark.parametrize(
    "text",
    [
        "The payroll export goes out only once finance approves.",  # another object
        "The refund batch went out yesterday.",  # a report, no rule
        "Finance approves the refund batch so it can go out.",  # the object is no subject
    ],
)
def test_a_stand_in_verb_keeps_nothing_but_its_own_subjects_rule(text: str) -> None:
    assert not grade_one(text, PAYOUT).grade.at_floor


SHIP = declare_fact(
    "If the build is flagged, do not ship the artifact.",
    {"action": ["ship"], "object": ["artifact"], "condition": ["build is flagged"]},
    fact_id="ship",
    cls="conditional",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Shipping the artifact is only allowed when the build is not flagged.", Grade.ACTIONABLE),
        ("Ship the artifact only when the build is flagged.", Grade.INVERTED),
        ("Never ship the artifact when the build is not flagged.", Grade.INVERTED),
    ],
)
def test_a_denied_condition_is_the_conditions_opposite(text: str, grade: Grade) -> None:
    assert grade_one(text, SHIP).grade is grade


PUBLISH = declare_fact(
    "Do not publish the quarterly report after step 5.",
    {"action": ["publish"], "object": ["quarterly report"], "condition": ["after step 5"]},
    fact_id="publish",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Publish the quarterly report by step 5 at the latest.", Grade.ACTIONABLE),
        ("Publish the quarterly report at step 6 at the earliest.", Grade.INVERTED),
    ],
)
def test_at_the_latest_bounds_the_action(text: str, grade: Grade) -> None:
    assert grade_one(text, PUBLISH).grade is grade


RETENTION = declare_fact(
    "The audit archive must use a retention of 30 days.",
    {"object": ["audit archive"], "setting": ["retention"], "value": ["30 days"]},
    fact_id="retention",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Audit archive retention: 30 days was the old pin; the new target is 14 days.",
         Grade.INVERTED),
        ("The 30 days retention on the audit archive was temporary and has been dropped.",
         Grade.INVERTED),
        ("The audit archive keeps a retention of 30 days; the old 90-day setting is gone.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_pin_reported_past_is_reversed(text: str, grade: Grade) -> None:
    assert grade_one(text, RETENTION).grade is grade


def test_a_while_that_permits_is_a_clause_of_its_own() -> None:
    text = (
        "The expense batch must not be reprocessed, while the payroll batch can be reprocessed "
        "after step 3 if finance asks."
    )
    assert grade_one(text, PAYROLL).grade is Grade.INVERTED
    # a "while" of time stays in the rule's clause
    text = "Never reprocess the payroll batch after step 3, while the ledger sync runs."
    assert grade_one(text, PAYROLL).grade.at_floor


FLAGGED = declare_fact(
    "If the build is flagged, do not ship the artifact.",
    {"action": ["ship"], "object": ["artifact"], "condition": ["build is flagged"]},
    opposites={"condition": ["build is clean"]},
    fact_id="flagged",
    cls="conditional",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Ship the artifact unless the build is clean.", Grade.INVERTED),
        ("Ship the artifact only if the build is clean.", Grade.ACTIONABLE),
    ],
)
def test_unless_before_a_declared_opposite_names_the_condition(text: str, grade: Grade) -> None:
    assert grade_one(text, FLAGGED).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Moving the audit archive retention away from 30 days is not allowed.", Grade.ACTIONABLE),
        ("Any deviation from the 30 days retention on the audit archive is prohibited.",
         Grade.ACTIONABLE),
        ("Audit archive retention is locked at 30 days; any other value is not allowed.",
         Grade.ACTIONABLE),
        ("Audit archive retention moved away from 30 days.", Grade.INVERTED),
        ("The 30 days retention for the audit archive was dropped; pick any retention.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_refused_move_off_a_pin_keeps_it(text: str, grade: Grade) -> None:
    assert grade_one(text, RETENTION).grade is grade


CHAT = declare_fact(
    "If a driver's safety form is missing, do not unlock the van.",
    {"action": ["unlock"], "object": ["van"], "condition": ["safety form is missing"]},
    fact_id="van",
    cls="conditional",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        (
            "The van may be unlocked only once the driver's safety form is on file.",
            Grade.ACTIONABLE,
        ),
        # a gate stated positively: unlocking waits for the form, as the rule says
        ("Unlock the van once the driver's safety form is received.", Grade.ACTIONABLE),
        ("Unlock the van even if the driver's safety form is missing.", Grade.INVERTED),
    ],
)
def test_a_missing_forms_complement_is_its_being_on_file(text: str, grade: Grade) -> None:
    assert grade_one(text, CHAT).grade is grade


def test_common_verbs_have_their_irregular_nouns() -> None:
    assert action_nouns(" deny ") == (" denial ",) and action_nouns(" issue ") == (" issuance ",)


WAIVER = declare_fact(
    "Do not deny the fee waiver until the branch manager confirms.",
    {
        "action": ["deny"],
        "object": ["fee waiver"],
        "condition": ["until the branch manager confirms"],
    },
    fact_id="waiver",
    cls="confirmation",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    "text",
    [
        "Denial of the fee waiver is on hold until the branch manager confirms.",
        "The fee waiver is frozen until the branch manager confirms.",
    ],
)
def test_a_held_object_or_its_actions_noun_keeps_a_gate(text: str) -> None:
    assert grade_one(text, WAIVER).grade is Grade.ACTIONABLE


def test_a_held_object_beside_another_gate_keeps_nothing() -> None:
    text = "The fee schedule is frozen until the branch manager confirms."
    assert not grade_one(text, WAIVER).grade.at_floor


BADGE = declare_fact(
    "If a visitor's badge form is missing, do not open the lab door.",
    {"action": ["open"], "object": ["lab door"], "condition": ["badge form is missing"]},
    fact_id="badge",
    cls="conditional",
    required=["action", "object", "condition"],
)


def test_lacking_a_form_is_missing_it() -> None:
    text = "Never open the lab door for a visitor lacking a badge form."
    assert grade_one(text, BADGE).grade is Grade.ACTIONABLE


def test_withheld_restricts() -> None:
    text = "Opening the lab door is withheld for any visitor lacking a badge form."
    assert grade_one(text, BADGE).grade is Grade.ACTIONABLE


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Fee waiver: on hold until the branch manager confirms.", Grade.ACTIONABLE),
        ("Fee waiver off-limits until the branch manager confirms.", Grade.ACTIONABLE),
        ("Fee schedule: on hold until the branch manager confirms.", Grade.DROPPED),
    ],
)
def test_an_object_held_with_no_verb_names_its_action(text: str, grade: Grade) -> None:
    assert grade_one(text, WAIVER).grade is grade


def test_a_stand_in_verb_after_a_conjunction_still_has_its_subject() -> None:
    text = "The memo still waits on legal, but the fee waiver can go ahead right away."
    assert grade_one(text, WAIVER).grade is Grade.INVERTED


WINDOW = declare_fact(
    "The nightly ETL must use a batch window of 30 minutes.",
    {"setting": ["batch window"], "object": ["nightly ETL"], "value": ["30 minutes"]},
    fact_id="etl_window",
    cls="value_pin",
)
DROPOUT = declare_fact(
    "The sentiment model must use a dropout rate of 0.3.",
    {"setting": ["dropout rate"], "object": ["sentiment model"], "value": ["0.3"]},
    fact_id="dropout",
    cls="value_pin",
)


@pytest.mark.parametrize(
    "text",
    [
        "Nightly ETL: batches are cut every thirty minutes, fixed.",
        "The sentiment model trains with dropout at 0.3.",
    ],
)
def test_a_settings_modifier_beside_its_value_names_the_setting(text: str) -> None:
    fact = WINDOW if "ETL" in text else DROPOUT
    assert grade_one(text, fact).grade.at_floor


def test_a_settings_head_word_names_no_setting() -> None:
    # "rate" is every rate's: the learning rate at the pinned number is no dropout pin
    assert not grade_one("Sentiment model: learning rate 0.3.", DROPOUT).grade.at_floor
    # the modifier without the pinned value names no pin
    assert not grade_one("Nightly ETL: batches are cut hourly.", WINDOW).grade.at_floor


NOTICES = declare_fact(
    "The renewal notices must use a notice period of 45 days.",
    {"setting": ["notice period"], "object": ["renewal notices"], "value": ["45 days"]},
    fact_id="notices",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Renewal notices: notice period 45 days.", Grade.ACTIONABLE),
        # a pin reported changed or judged wrong is dropped
        ("Renewal notices: 45 days was too early, so the notice period moved to 30 days.",
         Grade.INVERTED),
        ("Renewal notices: notice period was 45 days until legal shortened it to 30.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_pin_changed_or_judged_wrong_is_dropped(text: str, grade: Grade) -> None:
    assert grade_one(text, NOTICES).grade is grade


def test_a_word_of_the_object_names_no_setting() -> None:
    # "notice" is the object's own word: beside a value it names no notice period (a careful
    # reader says inverted: the period is 30 days now; the grader reads the first half alone)
    text = "Renewal notices go out 45 days after signing; the notice period is 30 days now."
    assert not grade_one(text, NOTICES).grade.at_floor


MAILBOX = declare_fact(
    "Do not archive the support mailbox until Ines confirms.",
    {
        "action": ["archive"],
        "object": ["support mailbox"],
        "condition": ["until Ines confirms", "Ines confirms"],
    },
    fact_id="mailbox",
    cls="confirmation",
)
VOLUME = declare_fact(
    "Do not resize the data volume after step 3.",
    {"action": ["resize"], "object": ["data volume"], "condition": ["after step 3"]},
    fact_id="volume",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("Wait for Ines to confirm, then archive the support mailbox.", MAILBOX, Grade.ACTIONABLE),
        ("Archive the support mailbox, then wait for Ines to confirm.", MAILBOX, Grade.INVERTED),
        ("Tidy the labels, then wait for Ines to confirm before archiving the support mailbox.",
         MAILBOX, Grade.ACTIONABLE),
        # the wait gates the order on the metrics; the order itself permits the resize later
        ("Wait for the metrics, then resize the data volume after step 3.", VOLUME,
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_wait_then_an_order_gates_the_order_on_what_is_waited_for(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


PHOTO = declare_fact(
    "If a parent has opted out, do not publish the student's photo.",
    {"action": ["publish"], "object": ["student's photo"], "condition": ["opted out"]},
    fact_id="photo",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # an exclusive permission whose condition is denied: "only if not C" = "if C, do not"
        ("The student's photo is published only if the parent has not opted out.", PHOTO,
         Grade.ACTIONABLE),
        ("Publish the student's photo only if the parent has not opted out.", PHOTO,
         Grade.ACTIONABLE),
        # the clause's own negation still forbids
        ("Do not publish the student's photo if the parent has not opted out.", PHOTO,
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_denied_condition_is_the_conditions_not_the_clauses(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


TILLS = declare_fact(
    "Do not reconcile the cash tills at the Harbour branch after step 4.",
    {"action": ["reconcile"], "object": ["cash tills"], "condition": ["after step 4"]},
    fact_id="tills",
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Cash tills at the Harbour branch: no reconciling after step 4.", True),
        ("Do not reconcile the cash tills after step 4.", True),  # the name lost, not replaced
        ("Do not reconcile the cash tills at the Airport branch after step 4.", False),
        ("Never reconcile cash tills at the Quayside branch once past step 4.", False),
    ],
)
def test_another_name_where_the_rule_names_its_object_is_another_object(
    text: str, kept: bool
) -> None:
    assert grade_one(text, TILLS).grade.at_floor is kept


FREEZER = declare_fact(
    "If the walk-in freezer shows a temperature alarm, do not restock the walk-in freezer.",
    {"action": ["restock"], "object": ["walk-in freezer"], "condition": ["temperature alarm"]},
    fact_id="freezer",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The walk-in freezer may be restocked only when it shows no temperature alarm.",
         Grade.ACTIONABLE),
        ("Do not restock the walk-in freezer when it shows no temperature alarm.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_no_before_the_condition_denies_it(text: str, grade: Grade) -> None:
    assert grade_one(text, FREEZER).grade is grade


PROOFS = declare_fact(
    "Do not send the print proofs to the client until Oksana confirms.",
    {
        "action": ["send"],
        "object": ["print proofs"],
        "condition": ["until Oksana confirms", "Oksana confirms"],
    },
    fact_id="proofs",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a name's possessive is the name ("Oksana's", not a word "oksanas")
        ("Sending the print proofs to the client needs Oksana's approval first.",
         Grade.ACTIONABLE),
        # the yes named as a thing ("her go-ahead", "the green light") is no permission
        ("The print proofs stay here; sending them needs Oksana's go-ahead first.",
         Grade.ACTIONABLE),
        ("Send the print proofs once Oksana gives the green light.", Grade.ACTIONABLE),
        ("Send the print proofs now; Oksana's go-ahead can come later.", Grade.INVERTED),
        ("Go ahead and send the print proofs to the client.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_the_yes_named_as_a_thing_is_the_gate(text: str, grade: Grade) -> None:
    assert grade_one(text, PROOFS).grade is grade


TILES = declare_fact(
    "The render farm must use a tile size of 64 pixels.",
    {"setting": ["tile size"], "object": ["render farm"], "value": ["64 pixels"]},
    fact_id="tiles",
    cls="value_pin",
)


def test_done_is_a_status_not_an_order() -> None:
    # lemma space writes "done" as "do": a status line that names the object says nothing
    # of its pin, so the pin is dropped, not degraded
    assert grade_one("Shots: render farm done for 12 of 14.", TILES).grade is Grade.DROPPED
    assert grade_one("Render farm: tile size 64 pixels.", TILES).grade.at_floor


FLUSH = declare_fact(
    "Do not flush the edge cache after step 2.",
    {"action": ["flush"], "object": ["edge cache"], "condition": ["after step 2"]},
    fact_id="flush",
)
HALT = declare_fact(
    "Do not stop the billing daemon after step 2.",
    {"action": ["stop"], "object": ["billing daemon"], "condition": ["after step 2"]},
    fact_id="halt",
)
LINT = declare_fact(
    "If the lint job finds secrets, do not publish the package.",
    {"action": ["publish"], "object": ["package"], "condition": ["lint job finds secrets"]},
    fact_id="lint",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # a negated ban allows: "not forbidden", "never hesitate", "no rule against"
        ("It is not forbidden to flush the edge cache after step 2.", FLUSH, Grade.INVERTED),
        ("Never hesitate to flush the edge cache after step 2.", FLUSH, Grade.INVERTED),
        ("There is no rule against flushing the edge cache after step 2.", FLUSH,
         Grade.INVERTED),
        ("It is forbidden to flush the edge cache after step 2.", FLUSH, Grade.ACTIONABLE),
        # a denied stop allows the act; where the rule's act is the stopping, it forbids it
        ("A secrets hit in the lint job does not stop the package publish.", LINT,
         Grade.INVERTED),
        ("A secrets hit in the lint job blocks the package publish.", LINT, Grade.ACTIONABLE),
        ("Do not stop the billing daemon after step 2.", HALT, Grade.VERBATIM),
        ("The billing daemon must not be stopped once step 2 is done.", HALT, Grade.ACTIONABLE),
        # a denial just past a loose reference's end still denies it
        ("If the lint job finds no secrets, do not publish the package.", LINT, Grade.INVERTED),
    ],
)  # fmt: skip
def test_negations_of_a_restriction_allow(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


def test_a_bound_in_words_loosens_a_pin() -> None:
    assert grade_one("Render farm: tile size 64 pixels or lower.", TILES).grade is Grade.DEGRADED
    assert grade_one("Render farm: tile size 64 pixels and up.", TILES).grade is Grade.DEGRADED


GATEWAY = declare_fact(
    "The payments gateway must use timeout 20 seconds.",
    {"setting": ["timeout"], "object": ["payments gateway"], "value": ["20 seconds"]},
    fact_id="gateway",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # a restriction reported as past ("used to be blocked") is lifted
        ("Flushing the edge cache after step 2 used to be blocked.", FLUSH, Grade.INVERTED),
        ("We used to forbid flushing the edge cache after step 2; not anymore.", FLUSH,
         Grade.INVERTED),
        # a pin judged wrong ("too tight", "too slow") is dropped
        ("Payments gateway timeout: 20 seconds was too tight, now 40.", GATEWAY,
         Grade.INVERTED),
        ("Payments gateway: timeout 20 seconds, fixed.", GATEWAY, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_rule_reported_past_is_lifted(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


DRAIN = declare_fact(
    "Drain the print queue before patching the print server.",
    {
        "action": ["drain"],
        "object": ["print queue"],
        "condition": ["before patching the print server"],
    },
    fact_id="drain",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # an exception or an expiry the rule does not state weakens it
        ("Do not flush the edge cache after step 2, except for hotfixes.", FLUSH, Grade.DEGRADED),
        ("Do not flush the edge cache after step 2 until Friday.", FLUSH, Grade.DEGRADED),
        ("Drain the print queue before patching the print server, unless the patch is urgent.",
         DRAIN, Grade.DEGRADED),
        ("Send the print proofs once Oksana confirms or by Friday, whichever comes first.",
         PROOFS, Grade.DEGRADED),
        # ... but "unless" before the rule's own reference is its gate
        ("Do not send the print proofs to the client unless Oksana confirms.", PROOFS,
         Grade.ACTIONABLE),
        ("Never patch the print server unless the print queue is drained.", DRAIN,
         Grade.ACTIONABLE),
        ("Patch the print server unless the print queue is drained.", DRAIN, Grade.INVERTED),
        # a question, a default, a stopgap
        ("Should the print queue be drained before patching the print server?", DRAIN,
         Grade.DEGRADED),
        ("Payments gateway timeout is 20 seconds by default.", GATEWAY, Grade.DEGRADED),
        ("Payments gateway timeout: 20 seconds for now, revisit later.", GATEWAY,
         Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_rule_with_an_exception_or_an_expiry_is_weakened(
    text: str, fact: Fact, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


def test_would_be_good_is_a_tip() -> None:
    text = "It would be good to drain the print queue before patching the print server."
    assert grade_one(text, DRAIN).grade is Grade.DEGRADED


KEYS = declare_fact(
    "If the restore drill fails, do not rotate the signing keys.",
    {"action": ["rotate"], "object": ["signing keys"], "condition": ["restore drill fails"]},
    fact_id="keys",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        ("A failed restore drill is no reason to hold the signing key rotation.", KEYS,
         Grade.INVERTED),
        ("Step 2 lock on the edge cache flush: gone.", FLUSH, Grade.INVERTED),
        ("Patching the print server does not depend on draining the print queue.", DRAIN,
         Grade.INVERTED),
        # "depends on" and "hinges on" gate as "requires" does (they read as the reverse)
        ("Patching the print server depends on draining the print queue first.", DRAIN,
         Grade.ACTIONABLE),
        ("Sending the print proofs depends on Oksana confirming.", PROOFS, Grade.ACTIONABLE),
        ("Archiving the support mailbox hinges on Ines confirming.", MAILBOX, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_gate_said_not_to_hold_is_lifted(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


CASES = declare_fact(
    "If the gallery humidity is above 60%, do not open the display cases.",
    {"action": ["open"], "object": ["display cases"], "condition": ["humidity is above 60%"]},
    fact_id="cases",
    cls="conditional",
)
CONTAINERS = declare_fact(
    "Do not release the bonded containers until Ingrid confirms.",
    {
        "action": ["release"],
        "object": ["bonded containers"],
        "condition": ["until Ingrid confirms", "Ingrid confirms"],
    },
    fact_id="containers",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # the state kept refuses the act: a case that stays closed is not opened
        ("When the gallery humidity is above 60%, the display cases must stay closed.", CASES,
         Grade.ACTIONABLE),
        ("Gallery humidity above 60%: keep the display cases shut.", CASES, Grade.ACTIONABLE),
        ("The bonded containers stay put until Ingrid confirms.", CONTAINERS, Grade.ACTIONABLE),
        ("The display cases no longer have to stay closed above 60% humidity.", CASES,
         Grade.INVERTED),
        ("The display cases can stay open when humidity is above 60%.", CASES, Grade.INVERTED),
        ("The bonded containers stay put until the trucker arrives.", CONTAINERS,
         Grade.DROPPED),
    ],
)  # fmt: skip
def test_a_state_kept_refuses_the_act(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


KILN = declare_fact(
    "The glaze kiln on bay 4 must use a temperature of 1220°C.",
    {"setting": ["temperature"], "object": ["glaze kiln"], "value": ["1220°C"]},
    fact_id="kiln",
    cls="value_pin",
)
FEED = declare_fact(
    "The bank feed must use file encoding UTF-8.",
    {"setting": ["file encoding", "encoding"], "object": ["bank feed"], "value": ["UTF-8"]},
    fact_id="feed",
    cls="value_pin",
)
LAG = declare_fact(
    "The queue lag alert must use a threshold of 5 minutes.",
    {"setting": ["threshold"], "object": ["queue lag alert"], "value": ["5 minutes"]},
    fact_id="lag",
    cls="value_pin",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # another value after a change word, the pinned one reported past
        ("Glaze kiln: temperature raised to 1240°C after the 1220°C firings crazed.", KILN,
         Grade.INVERTED),
        ("Glaze kiln temperature was 1220°C; now 1200°C per the new glaze.", KILN,
         Grade.INVERTED),
        ("bank_feed: {encoding: cp1252}  # was utf-8", FEED, Grade.INVERTED),
        ("Glaze kiln: no fixed temperature anymore (used to be 1220°C).", KILN, Grade.INVERTED),
        # another numbered place where the rule names its own
        ("The glaze kiln on bay 5 must use a temperature of 1220°C.", KILN, Grade.DROPPED),
        # a pin as a starting point, kept only in one scope, or one of a choice
        ("Glaze kiln temperature: 1220°C is a starting point, tune per batch.", KILN,
         Grade.DEGRADED),
        ("The queue lag alert threshold is 5 minutes in staging only.", LAG, Grade.DEGRADED),
        ("Bank feed encoding: UTF-8 or Latin-1, whichever is easier.", FEED, Grade.DEGRADED),
        # and the pin kept, with the alternatives refused
        ("Queue lag alert: threshold 5 minutes, not 10.", LAG, Grade.ACTIONABLE),
        ("Glaze kiln temperature set to 1220°C as required.", KILN, Grade.ACTIONABLE),
        ("Bank feed: encoding UTF-8, never Latin-1.", FEED, Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_pin_moved_loosened_or_elsewhere_is_not_kept(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # a negation or a hold in a trailing condition is the condition's, not the clause's
        ("After step 2 flush the edge cache if the hit rate hasn't recovered.", FLUSH,
         Grade.INVERTED),
        ("Flush the edge cache only after step 2, once the origin is locked.", FLUSH,
         Grade.INVERTED),
        # a leading condition ends at its comma: the negation after it is the clause's
        ("Reminder: once step 2 is over, the edge cache is not to be flushed.", FLUSH,
         Grade.ACTIONABLE),
        ("Do not flush the edge cache after step 2 if anyone asks.", FLUSH, Grade.VERBATIM),
    ],
)  # fmt: skip
def test_a_trailing_conditions_negation_is_its_own(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


UPGRADE = declare_fact(
    "If the smoke test fails, do not promote the staging build.",
    {"action": ["promote"], "object": ["staging build"], "condition": ["smoke test fails"]},
    fact_id="upgrade",
    cls="conditional",
)


@pytest.mark.parametrize(
    "text",
    [
        "Staging build: a failed smoke test means no promotion.",  # "promotion" is its noun
        "Promoting the staging build is off the table whenever the smoke test fails.",
        "Promotion of the staging build is a no-go if the smoke test fails.",
    ],
)
def test_more_restriction_words_and_nouns_keep_the_rule(text: str) -> None:
    assert grade_one(text, UPGRADE).grade.at_floor
