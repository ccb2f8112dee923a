"""Conditions, gates and orderings on rules declared the way a user declares them: waits
then orders, denied conditions, the yes named as a thing, exceptions and expiries, states
kept, trailing conditions. Fresh examples."""

from __future__ import annotations

import pytest

from sim.grading.frames import Frame
from sim.grading.modality import read_clause
from sim.grading.regions import denied_condition
from sim.grading.text import lemmas, normalize
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one, planted
from tests.sim.grading.declared_rules import DRAIN, FLUSH, GATEWAY, MAILBOX, PAYROLL, PROOFS

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


def test_a_denied_conditions_span_starts_at_its_relation_word() -> None:
    text = lemmas(normalize("Print the student's photo only if the parent has not opted out."))
    clause = read_clause(text)
    span = denied_condition(Frame.of(PHOTO), clause)
    assert span is not None and clause.tokens[span[0]] == "if"
    assert clause.tokens[span[1] - 1] == "out"
    assert (
        denied_condition(
            Frame.of(PHOTO),
            read_clause(lemmas(normalize("If a parent has opted out, do not publish the photo."))),
        )
        is None
    )


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Support mailbox: do not archive it; waiting on Ines's confirmation.", Grade.ACTIONABLE),
        (
            "Do not archive the support mailbox; still pending Ines's confirmation.",
            Grade.ACTIONABLE,
        ),
        ("Do not archive the support mailbox; awaiting confirmation from Ines.", Grade.ACTIONABLE),
        # a gate with a subject and an act of its own is a sentence of its own
        (
            "Do not archive the support mailbox; waiting on the vendor to send the storage"
            " quote for next quarter.",
            Grade.DEGRADED,
        ),
    ],
)
def test_a_gate_after_a_semicolon_is_the_clause_befores_condition(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a relation word that leads the rule's own act: "before A, B" is "A after B"
        ("Before the support mailbox is archived, Ines has to confirm.", Grade.ACTIONABLE),
        ("After the support mailbox is archived, Ines has to confirm.", Grade.INVERTED),
    ],
)
def test_a_relation_that_leads_the_act(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


ESCROW = declare_fact(
    "Do not release the escrow funds until Kwame confirms.",
    {
        "action": ["release"],
        "object": ["escrow funds"],
        "condition": ["until Kwame confirms", "Kwame confirms"],
    },
    fact_id="escrow",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the rule's own act is an ending verb: denied, it keeps the hold; a hold that ended
        # is lifted
        ("Escrow funds on hold: not to be released before Kwame has confirmed.",
         Grade.ACTIONABLE),
        ("The hold on the escrow funds has been removed; release them now.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_hold_whose_ending_is_denied_is_kept(text: str, grade: Grade) -> None:
    assert grade_one(text, ESCROW).grade is grade


BACKUP_FIRST = declare_fact(
    "Back up the forum database before posting the upgrade announcement.",
    {
        "action": ["back up"],
        "object": ["forum database"],
        "condition": [
            "before posting the upgrade announcement",
            "posting the upgrade announcement",
        ],
    },
    fact_id="forum-backup",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "posting" is the reference's act, not "post-" (after)
        ("Posting the upgrade announcement is blocked until the forum database is backed up.",
         Grade.ACTIONABLE),
        ("Post the upgrade announcement, then back up the forum database.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_posting_is_an_act_not_a_relation(text: str, grade: Grade) -> None:
    assert grade_one(text, BACKUP_FIRST).grade is grade


def test_post_before_a_step_or_with_a_hyphen_is_after() -> None:
    assert normalize("edits post-lock") == normalize("edits after lock")
    assert normalize("no reprocessing post step 3") == normalize("no reprocessing after step 3")
    assert normalize("posting the notice") != normalize("after the notice")


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "if she hasn't confirmed" denies the yes: "until she confirms"
        ("If Ines hasn't confirmed, do not archive the support mailbox.", Grade.ACTIONABLE),
        ("If Ines has not confirmed yet, archive the support mailbox anyway.", Grade.INVERTED),
        ("If Ines has confirmed, do not archive the support mailbox.", Grade.INVERTED),
    ],
)
def test_a_gate_whose_yes_is_denied_by_if(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


# "lower" is the rule's verb here, not the comparative "low" (declaring it used to fail: the
# verb was read as the condition's "below", and the text graded inverted against itself)
RAMP = declare_fact(
    "If the swell exceeds 2 metres, do not lower the car ramp.",
    {
        "action": ["lower", "lowering", "lowered"],
        "object": ["car ramp"],
        "condition": ["swell exceeds 2 metres", "over 2 metres"],
    },
    fact_id="car-ramp",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Car ramp: never lower it when the swell is above 2 metres.", Grade.ACTIONABLE),
        ("Lower the car ramp even if the swell exceeds 2 metres.", Grade.INVERTED),
        ("Only lower the car ramp when the swell is lower than 2 metres.", Grade.ACTIONABLE),
    ],
)
def test_lower_is_a_verb_and_a_bound_reads_both_ways(text: str, grade: Grade) -> None:
    assert grade_one(text, RAMP).grade is grade
    assert normalize("pH lower than 4") == normalize("pH below 4")


@pytest.mark.parametrize(
    "text",
    [
        # the gate survives with nobody to give its yes: the condition is lost, not the rule
        "Support mailbox: retirement requires approval.",
        "Support mailbox - on hold until someone on the team confirms.",
        "Support mailbox: hold until she confirms.",
    ],
)
def test_a_gate_with_nobody_to_say_yes_is_degraded(text: str) -> None:
    assert grade_one(text, MAILBOX).grade is Grade.DEGRADED


def test_a_yes_given_for_something_else_is_no_gate() -> None:
    text = "Support mailbox was approved for the new retention tier yesterday."
    assert grade_one(text, MAILBOX).grade is Grade.DROPPED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # an act reported done with its yes still to come: done ahead of the gate
        ("Support mailbox archived this morning; Ines will confirm later.", Grade.INVERTED),
        ("Support mailbox archived at 09:10; Ines to confirm when she is back.", Grade.INVERTED),
        # the gate itself, or a refusal until the yes comes
        ("Archiving the support mailbox needs Ines to confirm first.", Grade.ACTIONABLE),
        ("Do not archive the support mailbox; Ines will confirm later today.", Grade.ACTIONABLE),
    ],
)
def test_an_act_done_with_its_yes_still_to_come(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


SIGN = declare_fact(
    "Do not sign the venue contract until the general counsel confirms.",
    {
        "action": ["sign"],
        "object": ["venue contract"],
        "condition": ["until the general counsel confirms"],
    },
    fact_id="venue-signing",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the act's own "sign" is no yes: the yes is the counsel's "signs off"
        ("Do not sign the venue contract until the general counsel signs off.", Grade.ACTIONABLE),
        ("Sign the venue contract once the general counsel signs off.", Grade.ACTIONABLE),
        ("Sign the venue contract before the general counsel signs off.", Grade.INVERTED),
    ],
)
def test_an_act_that_shares_the_yes_word(text: str, grade: Grade) -> None:
    assert grade_one(text, SIGN).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        # "by step 3" is a deadline: no later than step 3
        "Any reprocessing of the payroll batch has to be finished by step 3.",
        "Reprocess the payroll batch by step 3.",
    ],
)
def test_by_a_step_is_a_deadline(text: str) -> None:
    assert grade_one(text, PAYROLL).grade is Grade.ACTIONABLE


def test_afterwards_after_the_object_puts_its_act_last() -> None:
    # "run the database migration before deploying the API", stated the other way round
    ordering = planted("ordering", 0).fact
    text = "Deploy the API and run the database migration afterwards."
    assert grade_one(text, ordering).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "with" or "from" before the object is no relation once a word after it orders the act
        ("Patch the print server right away, with the print queue drained afterwards.", Grade.INVERTED),  # noqa: E501
        ("Patch the print server, with the print queue drained later.", Grade.INVERTED),
        ("Patch the print server with the print queue drained first.", Grade.ACTIONABLE),
        # the object is what the other act takes, not an act done before it
        ("Patch the print server with the print queue.", Grade.DROPPED),
        ("Patch the print server with the print queue drained.", Grade.ACTIONABLE),
        ("1. Patch print server with print queue\n2. Drain print queue\n3. Reboot", Grade.INVERTED),
        ("Patch the print server straight from the console and drain the print queue afterwards.", Grade.INVERTED),  # noqa: E501
        # "without" is a relation of its own, never a loose one
        ("The print server can be patched without draining the print queue first.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_word_after_the_act_orders_it_over_a_with(text: str, grade: Grade) -> None:
    assert grade_one(text, DRAIN).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Archive the support mailbox now.", Grade.INVERTED),  # at once, without the yes
        ("Do not archive the support mailbox now.", Grade.DEGRADED),  # a hold, its yes lost
        ("Support mailbox: archiving on hold for now.", Grade.DEGRADED),
    ],
)
def test_now_reverses_a_gate_only_in_an_order_to_act(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Archive the support mailbox only after sign-off.", Grade.DEGRADED),
        ("Support mailbox: archive it only once approved.", Grade.DEGRADED),
        ("Archive the support mailbox only after Ines confirms.", Grade.ACTIONABLE),
        ("Archive the support mailbox now; sign-off can come later.", Grade.INVERTED),
        ("Support mailbox: archive only with authorisation.", Grade.DEGRADED),
        ("## Support mailbox\n- archive needs sign-off\n- 4 GB", Grade.DEGRADED),
        ("Archive the support mailbox before sign-off.", Grade.INVERTED),
    ],
)
def test_an_order_after_a_yes_nobody_gives_keeps_the_gate_not_its_giver(
    text: str, grade: Grade
) -> None:
    assert grade_one(text, MAILBOX).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        "Archiving of the support mailbox is on hold, only after Ines confirms.",
        "Do not archive the support mailbox, only after Ines confirms.",
        "Waiting on Ines: archive the support mailbox only after Ines's confirmation.",
    ],
)
def test_only_after_a_yes_says_where_a_held_act_is_allowed(text: str) -> None:
    assert grade_one(text, MAILBOX).grade is Grade.ACTIONABLE


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # kept as it is until the yes: the archiving is put off
        ("The support mailbox stays live until Ines confirms.", True),
        ("The support mailbox remains open, no archiving it yet, until Ines signs off.", True),
        ("Open item: the support mailbox. It stays live until Ines confirms.", True),
        ("The support mailbox stays live until Friday.", False),  # another condition
    ],
)
def test_an_object_that_stays_until_the_yes_is_held(text: str, kept: bool) -> None:
    assert grade_one(text, MAILBOX).grade.at_floor is kept


def test_staying_without_an_until_only_describes() -> None:
    grade = grade_one("The payroll batch stays as it is after step 3.", PAYROLL).grade
    assert grade is not Grade.INVERTED and not grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the act done, the one who gives the yes only to be told of it
        ("Support mailbox archived this morning; Ines to be informed on Monday.", Grade.INVERTED),
        ("Support mailbox archived this morning; Ines will be told later.", Grade.INVERTED),
        ("Support mailbox archived after Ines confirmed it.", Grade.ACTIONABLE),
        ("Do not archive the support mailbox; Ines to be informed.", Grade.DEGRADED),
    ],
)
def test_a_yes_giver_only_to_be_told_means_the_act_went_ahead(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Pause the print queue before patching the print server.", False),  # another act
        ("Check the print queue before patching the print server.", False),
        ("Drain the print queue before patching the print server.", True),
        ("Stalled print queue gets drained before patching the print server.", True),
        ("Next: drain the print queue before patching the print server.", True),
    ],
)
def test_an_order_of_another_act_on_the_object_is_another_rule(text: str, kept: bool) -> None:
    assert grade_one(text, DRAIN).grade.at_floor is kept


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # "until after" is "until": the act waits for the reference, then goes ahead
        (PAYROLL, "Do not reprocess the payroll batch until after step 3."),
        (DRAIN, "Draining the print queue can wait until after patching the print server."),
    ],
)
def test_until_after_puts_the_act_after_the_reference(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # an order to hold the object puts off any act on it
        ("Hold the support mailbox until Ines confirms.", True),
        ("Hold the support mailbox: Ines has to confirm first.", True),
        ("Hold the support mailbox until noon.", False),  # another condition
        ("Hold the print proofs until Ines confirms.", False),  # another object
    ],
)
def test_an_order_to_hold_the_object_holds_its_act(text: str, kept: bool) -> None:
    assert grade_one(text, MAILBOX).grade.at_floor is kept


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The confirmation step for archiving the support mailbox has been removed.", Grade.INVERTED),  # noqa: E501
        ("Archiving the support mailbox: the approval step was dropped while Ines is away.", Grade.INVERTED),  # noqa: E501
        # a "confirmation" that names a thing ends no gate
        ("Send the confirmation email before the support mailbox is archived.", Grade.DEGRADED),
    ],
)  # fmt: skip
def test_a_gate_step_removed_lifts_the_gate(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Skip waiting on Ines and go straight to archiving the support mailbox.", Grade.INVERTED),
        ("Skip the wait for Ines; archive the support mailbox tonight.", Grade.INVERTED),
    ],
)
def test_skipping_the_wait_lifts_the_gate(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


RESIN = declare_fact(
    "If the shop humidity drops below 40%, do not pour the resin tabletops.",
    {"action": ["pour"], "object": ["resin tabletops"], "condition": ["below 40%"]},
    fact_id="resin",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Pour the resin tabletops only if shop humidity is at 40% or above.", Grade.ACTIONABLE),
        ("Pour the resin tabletops only when humidity is at least 40%.", Grade.ACTIONABLE),
        ("Pour the resin tabletops even if the humidity is under 40%.", Grade.INVERTED),
    ],
)
def test_a_lower_bound_has_its_complement_derived(text: str, grade: Grade) -> None:
    assert grade_one(text, RESIN).grade is grade


KAYAKS = declare_fact(
    "If the group size exceeds 12, do not launch the kayaks.",
    {"action": ["launch"], "object": ["kayaks"], "condition": ["exceeds 12"]},
    fact_id="kayaks",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The kayaks may only be launched when the group is 12 people or fewer.", Grade.ACTIONABLE),
        ("Launch the kayaks only if the group size is at most 12.", Grade.ACTIONABLE),
        ("Launch the kayaks only if the group size is 12 or more.", Grade.INVERTED),
        ("Never launch the kayaks when the group is at most 12.", Grade.INVERTED),
    ],
)
def test_an_upper_bound_has_its_complement_derived(text: str, grade: Grade) -> None:
    assert grade_one(text, KAYAKS).grade is grade


GLAZE = declare_fact(
    "Bisque-fire the mugs before glazing them.",
    {"action": ["bisque-fire"], "object": ["mugs"], "condition": ["before glazing"]},
    fact_id="glaze",
    required=["object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Bisque-fire the mugs first, glaze them second.", Grade.ACTIONABLE),
        ("Glaze the mugs first, bisque-fire them second.", Grade.INVERTED),
        ("Bisque-fire the first and second kiln loads of mugs before glazing.", Grade.ACTIONABLE),
    ],
)
def test_first_then_second_is_an_order(text: str, grade: Grade) -> None:
    assert grade_one(text, GLAZE).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        "Archive the support mailbox on Friday and let Ines confirm the labels once it's done.",
        "Archive the support mailbox on the hour, and have Ines confirm afterwards.",
    ],
)
def test_a_relation_word_before_a_clause_of_its_own_is_not_the_gates(text: str) -> None:
    # the "on" is the act's ("on Friday"), not a case of the yes that comes after it
    assert grade_one(text, MAILBOX).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Archiving the support mailbox waits for Ines.", Grade.ACTIONABLE),
        ("Archiving the support mailbox is pending Ines.", Grade.ACTIONABLE),
        # the person, not their yes; a pronoun for her is no pronoun for her yes
        ("Archive the support mailbox once Ines is back from leave.", None),
        ("Ines is at the offsite, so archive the support mailbox now and she can look at it "
         "when she's back.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_a_wait_for_the_yes_giver_is_a_wait_for_their_yes(text: str, grade: Grade | None) -> None:
    found = grade_one(text, MAILBOX).grade
    assert found is grade if grade is not None else not found.at_floor


def test_the_alternative_turned_down_holds_no_cue() -> None:
    text = "Keep the labels, and archive the support mailbox now rather than holding for Ines."
    assert grade_one(text, MAILBOX).grade is Grade.INVERTED
    text = "Wait until Ines confirms instead of archiving the support mailbox today."
    assert grade_one(text, MAILBOX).grade.at_floor


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Archive the support mailbox as soon as Ines confirms.", Grade.ACTIONABLE),
        ("Archive the support mailbox the moment Ines confirms.", Grade.ACTIONABLE),
        ("Archive the support mailbox right after Ines confirms.", Grade.ACTIONABLE),
        # as soon as something else holds, or at once: without the yes
        ("Archive the support mailbox as soon as possible.", Grade.INVERTED),
        ("Archive the support mailbox as soon as it is tagged.", Grade.INVERTED),
    ],
)
def test_as_soon_as_the_yes_comes_is_after_it(text: str, grade: Grade) -> None:
    assert grade_one(text, MAILBOX).grade is grade


LAUNCH = declare_fact(
    "If the wind speed exceeds 30 knots, do not launch the survey drone.",
    {
        "action": ["launch", "launching"],
        "object": ["survey drone"],
        "condition": ["wind speed exceeds 30 knots", "above 30 knots"],
    },
    fact_id="drone",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Launch the survey drone only if the wind speed is 30 knots or lower.", Grade.ACTIONABLE),
        ("Launch the survey drone only if the wind speed is 30 knots or less.", Grade.ACTIONABLE),
        ("Do not launch the survey drone if the wind speed is 30 knots or lower.", Grade.INVERTED),
    ],
)
def test_n_or_lower_is_the_complement_of_above_n(text: str, grade: Grade) -> None:
    assert grade_one(text, LAUNCH).grade is grade


KAYAK_GROUPS = declare_fact(
    "If the river gauge reads above 3 m, do not send the kayak groups out.",
    {
        "action": ["send"],
        "object": ["kayak groups"],
        "condition": ["river gauge reads above 3 m", "above 3 m"],
    },
    fact_id="kayak-groups",
    cls="conditional",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("If the river gauge is above 3 m, hold the kayak groups.", Grade.ACTIONABLE),
        ("river gauge > 3 m -> no kayak groups on the water", Grade.ACTIONABLE),
        ("When the gauge is above 3 m, skip the kayak groups today.", Grade.ACTIONABLE),
        ("If the river gauge is above 3 m, the kayak groups stay back.", Grade.ACTIONABLE),
        ("If the river gauge is below 3 m, hold the kayak groups.", Grade.INVERTED),
        ("If the river gauge is above 3 m, hold the canoe rentals.", Grade.DROPPED),
    ],
)
def test_a_hold_in_the_consequent_refuses_the_act_under_its_case(text: str, grade: Grade) -> None:
    assert grade_one(text, KAYAK_GROUPS).grade is grade


LEAK = declare_fact(
    "Run the leak test before releasing the gas cylinders.",
    {
        "action": ["run", "running"],
        "object": ["leak test"],
        "condition": ["before releasing the gas cylinders", "before releasing"],
    },
    fact_id="leak",
    cls="ordering",
)


@pytest.mark.parametrize(
    "text",
    [
        # a fronted "only after ... do": the clause it governs is the later act
        "Only after the leak test do the gas cylinders get released.",
        "Next: leak test on the rack.\nOnly once that is done do the gas cylinders get released.",
    ],
)
def test_a_fronted_only_after_keeps_the_order(text: str) -> None:
    assert grade_one(text, LEAK).grade.at_floor
