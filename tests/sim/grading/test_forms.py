"""Forms a user's anchors leave out: an action's noun, the object named before the action,
a rule finished by a sub-bullet, a forbidding clause that says what the action needs, verbs
that stand in for the action, and negations of a ban. Fresh examples, on rules declared the
way a user declares them."""

from __future__ import annotations

import pytest

from sim.grading.agreement import label_of
from sim.grading.frames import action_nouns
from sim.grading.references import window
from sim.grading.sentences import reading_lines
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import DRAIN, FLUSH, MAILBOX, PAYROLL

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
    assert action_nouns(" resubmit ") == (" resubmission ",)
    assert action_nouns(" exclude ") == (" exclusion ",)
    assert action_nouns(" resume ") == (" resumption ",)
    assert " commission " not in action_nouns(" commit ")  # a git commit is a commit


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


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Storage quota\n- raise only once the billing owner confirms", Grade.ACTIONABLE),
        ("Storage quota\n- raise it now, no need to wait", Grade.INVERTED),
    ],
)
def test_a_short_plain_line_titles_the_bullets_below_it(text: str, grade: Grade) -> None:
    assert grade_one(text, QUOTA).grade is grade


def test_a_sentence_or_a_long_line_titles_nothing() -> None:
    from sim.grading.sentences import reading_lines

    assert reading_lines("Storage quota\n- raise") == ["Storage quota", "Storage quota: raise"]
    for line in ("We reviewed the storage quota.", "Storage quota, billing", "a b c d e f g"):
        assert reading_lines(f"{line}\n- raise") == [line, "- raise"]


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
     ("unless", " unless "), ("unknown", " unknown "), ("uncoupled", " uncouple "),
     ("unbolted", " unbolt ")],
)  # fmt: skip
def test_an_un_participle_denies_its_act(word: str, lemma: str) -> None:
    from sim.grading.text import lemmas, normalize

    assert lemmas(normalize(word)) == lemma


def test_an_un_verb_of_its_own_is_an_act_not_a_denial() -> None:
    """An "uncoupled" is the act of uncoupling: "before the engine is uncoupled" denies no
    coupling, and reading it as a denial reversed an ordering stated in the passive."""
    chock = declare_fact(
        "Chock the tank cars before uncoupling the switch engine.",
        {"action": ["chock"], "object": ["tank cars"], "condition": ["before uncoupling"]},
        fact_id="chock",
        cls="ordering",
    )
    text = "The tank cars are to be chocked before the switch engine is uncoupled."
    assert grade_one(text, chock).grade.at_floor
    assert grade_one("Uncouple the switch engine, then chock the tank cars.", chock).grade is (
        Grade.INVERTED
    )


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


def test_a_while_that_permits_is_a_clause_of_its_own() -> None:
    text = (
        "The expense batch must not be reprocessed, while the payroll batch can be reprocessed "
        "after step 3 if finance asks."
    )
    assert grade_one(text, PAYROLL).grade is Grade.INVERTED
    # a "while" of time stays in the rule's clause
    text = "Never reprocess the payroll batch after step 3, while the ledger sync runs."
    assert grade_one(text, PAYROLL).grade.at_floor


def test_common_verbs_have_their_irregular_nouns() -> None:
    assert action_nouns(" deny ") == (" denial ",) and action_nouns(" issue ") == (" issuance ",)


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


def test_would_be_good_is_a_tip() -> None:
    text = "It would be good to drain the print queue before patching the print server."
    assert grade_one(text, DRAIN).grade is Grade.DEGRADED


@pytest.mark.parametrize(
    "text",
    [
        # the rule's reference in the passive, its helpers between its words
        "The print server is not to be patched until the print queue has been drained.",
        "The print server must not be patched before the print queue has been drained.",
    ],
)
def test_a_passive_reference_keeps_an_ordering_stated_from_its_far_side(text: str) -> None:
    assert grade_one(text, DRAIN).grade is Grade.ACTIONABLE


def test_a_passives_helpers_do_not_widen_a_reference_over_other_words() -> None:
    ref = frozenset(("patch", "print", "server"))
    helpers = ("print", "server", "be", "not", "to", "be", "patch")
    assert window(helpers, ref) == (0, 7)
    others = ("print", "server", "log", "be", "keep", "for", "year", "then", "patch")
    assert window(others, ref) is None  # five other words: no longer one reference


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Only after the print queue has been drained may the print server be patched.", "kept"),
        ("Once the print queue is drained, the print server can be patched.", "kept"),
        # the other way round: the queue drained after the patch
        ("Only after the print server has been patched, drain the print queue.", "inverted"),
    ],
)
def test_a_relation_that_leads_the_rules_own_act_orders_it_first(text: str, grade: str) -> None:
    assert label_of(grade_one(text, DRAIN).grade) == grade


VITRINES = declare_fact(
    "Do not open the display vitrines after step 5.",
    {"action": ["open"], "object": ["display vitrines"], "condition": ["after step 5"]},
    fact_id="vitrines",
)


def test_an_action_named_by_its_gerunds_plural_keeps_the_rule() -> None:
    text = "Openings of the display vitrines are not allowed after step 5."
    assert grade_one(text, VITRINES).grade is Grade.ACTIONABLE


SUMP = declare_fact(
    "If the flood sensor trips, do not energise the sump pump.",
    {
        "action": ["energise", "energize"],
        "object": ["sump pump"],
        "condition": ["flood sensor trips", "flood sensor tripped"],
    },
    fact_id="sump",
    cls="conditional",
)


@pytest.mark.parametrize(
    "text",
    [
        "Flood sensor tripped?\n→ sump pump stays de-energised.",
        "Flood sensor tripped?\n- then: do not energise the sump pump",
        "If the flood sensor trips, the sump pump stays de-energised.",
    ],
)
def test_a_question_and_its_answer_or_a_state_kept_state_the_rule(text: str) -> None:
    assert grade_one(text, SUMP).grade is Grade.ACTIONABLE


def test_an_answer_with_no_question_before_it_is_its_own_line() -> None:
    assert reading_lines("Pump checked.\n→ sump pump stays de-energised") == [
        "Pump checked.",
        "→ sump pump stays de-energised",
    ]
    assert reading_lines("Flood sensor tripped?\n→ pump off") == [
        "If Flood sensor tripped, pump off"
    ]


_MAILBOX_STATUS = "The support mailbox has 4,210 threads.\n"


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the act with no object of its own, right after the object: read with it
        ("Support mailbox: 4,210 threads.\nArchiving blocked until Ines confirms.", "kept"),
        ("Support mailbox cleanup is done.\nArchiving waits: Ines has to confirm first.", "kept"),
        # the act on a thing of its own, or a noun it qualifies: not the rule
        (
            _MAILBOX_STATUS + "Archival of the old tickets is blocked until Ines confirms.",
            "dropped",
        ),
        (_MAILBOX_STATUS + "Archiving script dry-run passed.", "dropped"),
    ],
)
def test_a_sentence_that_leaves_the_object_out_reads_with_the_one_before(
    text: str, grade: str
) -> None:
    assert label_of(grade_one(text, MAILBOX).grade) == grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "that" is the act named before, put off until the yes
        ("Next step: archiving the support mailbox.\nHold that until Ines confirms.", "kept"),
        # no act named: the mailbox itself is held until the yes, every act on it put off, as
        # "the support mailbox is on hold until Ines confirms" is
        ("The support mailbox is next.\nHold that until Ines confirms.", "kept"),
        # held until something else: not the rule's gate
        ("The support mailbox is next.\nHold that until Friday.", "dropped"),
    ],
)
def test_a_pronoun_a_verb_puts_off_stands_for_the_act_named_before(text: str, grade: str) -> None:
    assert label_of(grade_one(text, MAILBOX).grade) == grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("The edge cache must not be flushed now that step 2 is behind us.", "kept"),
        ("Now that step 2 is done, flush the edge cache.", "inverted"),
    ],
)
def test_now_that_a_step_is_done_is_after_it(text: str, grade: str) -> None:
    assert label_of(grade_one(text, FLUSH).grade) == grade


REPAINT = declare_fact(
    "Do not repaint the exhibition hall after step 3.",
    {"action": ["repaint"], "object": ["exhibition hall"], "condition": ["after step 3"]},
    fact_id="exhibition-hall",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a clipped modifier names the object with its head
        ("No repainting the exhib hall past step 3.", Grade.ACTIONABLE),
        ("Exhib hall: must not be repainted after step 3.", Grade.ACTIONABLE),
        # "exhibit" is a word of its own, "exit" no clipping of "exhibition", and three
        # letters are too few
        ("Do not repaint the exhibit hall after step 3.", Grade.DROPPED),
        ("Do not repaint the exit hall after step 3.", Grade.DROPPED),
        ("Do not repaint the exh hall after step 3.", Grade.DROPPED),
    ],
)
def test_a_clipped_modifier_names_the_object(text: str, grade: Grade) -> None:
    assert grade_one(text, REPAINT).grade is grade


BOM = declare_fact(
    "Do not modify the bill of materials after step 3.",
    {"action": ["modify"], "object": ["bill of materials"], "condition": ["after step 3"]},
    fact_id="bom",
)
IMAGE = declare_fact(
    "Do not publish the container image after step 3.",
    {"action": ["publish"], "object": ["container image"], "condition": ["after step 3"]},
    fact_id="container-image",
)
VENUE = declare_fact(
    "Do not send the venue contract until the general counsel confirms.",
    {
        "action": ["send"],
        "object": ["venue contract"],
        "condition": ["until the general counsel confirms"],
    },
    fact_id="venue-contract",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "fact", "grade"),
    [
        # an object of three words or more, and a role, by their initials
        ("No BOM edits after step 3.", BOM, Grade.ACTIONABLE),
        ("The BOMs must not be modified past step 3.", BOM, Grade.ACTIONABLE),
        ("Venue contract: do not send it until the GC signs off.", VENUE, Grade.ACTIONABLE),
        # two letters name too much: "CI" is continuous integration, not the container image
        ("Do not publish CI results after step 3.", IMAGE, Grade.DROPPED),
    ],
)
def test_initials_name_an_object_or_a_role(text: str, fact: Fact, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a section header names what the plain lines under it are about, to the next header
        ("## Payroll batch\nNo reprocessing after step 3.\nTotals checked.", Grade.ACTIONABLE),
        ("## Payroll batch\nTotals checked.\n\nNo reprocessing after step 3.", Grade.ACTIONABLE),
        (
            "## Payroll batch\nTotals checked.\n## Timesheets\nNo reprocessing after step 3.",
            Grade.DROPPED,
        ),
        # a header with a number orders a transcript; it names no topic
        ("### turn 3 · user\nNo reprocessing after step 3.", Grade.DROPPED),
        # and the bullets of a header under it ("Rules:"), unless its title is a cue itself
        ("## Payroll batch\nRules:\n- no reprocessing after step 3", Grade.ACTIONABLE),
        (
            "## Payroll batch\nRules:\n- no reprocessing after step 3\n## Timesheets",
            Grade.ACTIONABLE,
        ),
        ("## Timesheets\nRules:\n- no reprocessing after step 3", Grade.DROPPED),
    ],
)
def test_a_section_header_titles_its_plain_lines(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade
    assert grade_one(text + "\n", PAYROLL).grade is grade


def test_a_cue_section_does_not_reach_the_bullets_of_a_header_under_it() -> None:
    text = "### Never\n- drop the table\nAllowed now:\n- clear the logs"
    assert reading_lines(text)[-1] == "Allowed now: clear the logs"


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the other side named after the clause: "only after step 3, never earlier" allows
        # the act after step 3, which the rule forbids
        ("The payroll batch should only be reprocessed after step 3, never earlier.", Grade.INVERTED),  # noqa: E501
        ("Reprocess the payroll batch only up to step 3, never later.", Grade.ACTIONABLE),
        ("Reprocess the payroll batch before step 3, not after.", Grade.ACTIONABLE),
        # a bound, and a rule that opens with the words
        ("Reprocess the payroll batch not later than step 3.", Grade.ACTIONABLE),
        ("Never after step 3: reprocess the payroll batch.", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_trailing_not_before_or_never_later_makes_the_clause_exclusive(
    text: str, grade: Grade
) -> None:
    assert grade_one(text, PAYROLL).grade is grade


SCAFFOLD = declare_fact(
    "Secure the scaffold ties before loading the brick pallets.",
    {
        "action": ["secure", "securing", "secured"],
        "object": ["scaffold ties"],
        "condition": ["before loading the brick pallets", "before loading"],
    },
    fact_id="scaffold",
    cls="ordering",
)
QUOTE = declare_fact(
    "Obtain the freight quote before booking the charter.",
    {
        "action": ["obtain", "obtaining"],
        "object": ["freight quote"],
        "condition": ["before booking the charter", "before booking"],
    },
    fact_id="quote",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        (SCAFFOLD, "Load the brick pallets first, then secure the scaffold ties.", Grade.INVERTED),
        (SCAFFOLD, "Secure the scaffold ties first, then load the brick pallets.", Grade.ACTIONABLE),  # noqa: E501
        (QUOTE, "Book the charter first and obtain the freight quote later.", Grade.INVERTED),
        (QUOTE, "Book the charter, then obtain the freight quote.", Grade.INVERTED),
        # "then" read as "after" the clause before, which opens with the rule's own act
        (SCAFFOLD, "Secure the scaffold ties, and only then load the brick pallets.", Grade.ACTIONABLE),  # noqa: E501
        (SCAFFOLD, "Load the brick pallets, and only then secure the scaffold ties.", Grade.INVERTED),  # noqa: E501
    ],
)  # fmt: skip
def test_a_rules_act_that_is_also_a_relation_word_is_its_act(
    fact: Fact, text: str, grade: Grade
) -> None:
    # "secure" and "obtain" also lead a gate's yes ("secure Ana's sign-off first")
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # a case the rule does not have narrows it
        (SCAFFOLD, "If the crane is free, secure the scaffold ties before loading the brick pallets.", Grade.DEGRADED),  # noqa: E501
        (PAYROLL, "If the auditor is around, do not reprocess the payroll batch after step 3.", Grade.DEGRADED),  # noqa: E501
        # a case that names the rule's own words is the rule
        (PAYROLL, "If step 3 is done, do not reprocess the payroll batch.", Grade.ACTIONABLE),
        # the case names B and "first" puts A before it
        (SCAFFOLD, "If you're loading the brick pallets, secure the scaffold ties first.", Grade.ACTIONABLE),  # noqa: E501
        (SCAFFOLD, "When loading the brick pallets, secure the scaffold ties first.", Grade.ACTIONABLE),  # noqa: E501
        (SCAFFOLD, "If you load the brick pallets, secure the scaffold ties afterwards.", Grade.INVERTED),  # noqa: E501
    ],
)  # fmt: skip
def test_a_leading_case_narrows_a_rule_or_states_its_reference(
    fact: Fact, text: str, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Secure the scaffold ties. Only once that is done do the brick pallets get loaded.", Grade.ACTIONABLE),  # noqa: E501
        ("Load the brick pallets. Only once that is done secure the scaffold ties.", Grade.INVERTED),  # noqa: E501
    ],
)  # fmt: skip
def test_only_once_that_is_done_points_back_to_the_sentence_before(text: str, grade: Grade) -> None:
    assert grade_one(text, SCAFFOLD).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Never load the brick pallets before the scaffold ties are in.", Grade.ACTIONABLE),
        ("Never load the brick pallets until the scaffold ties are done.", Grade.ACTIONABLE),
        ("Never load the brick pallets after the scaffold ties are done.", Grade.INVERTED),
        # another act than the later one is still another rule
        ("Never inspect the scaffold ties before loading the brick pallets.", Grade.DROPPED),
    ],
)  # fmt: skip
def test_a_ban_on_the_later_act_is_the_order_not_another_rule(text: str, grade: Grade) -> None:
    assert grade_one(text, SCAFFOLD).grade is grade


HOUSINGS = declare_fact(
    "Degrease the bearing housings before installing the seals.",
    {
        "action": ["degrease", "degreasing", "degreased"],
        "object": ["bearing housings"],
        "condition": ["before installing the seals", "before installing"],
    },
    fact_id="housings",
    cls="ordering",
)
CONSUMERS = declare_fact(
    "Pause the billing consumers before reassigning the partitions.",
    {
        "action": ["pause", "pausing", "paused"],
        "object": ["billing consumers"],
        "condition": ["before reassigning the partitions", "before reassigning"],
    },
    fact_id="consumers",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        (HOUSINGS, "Never install the seals into bearing housings that haven't been degreased.", Grade.ACTIONABLE),  # noqa: E501
        (HOUSINGS, "Install the seals only into bearing housings that have been degreased.", Grade.ACTIONABLE),  # noqa: E501
        (HOUSINGS, "Install the seals into bearing housings that have not been degreased.", Grade.INVERTED),  # noqa: E501
        (HOUSINGS, "Never install the seals into bearing housings that have been degreased.", Grade.INVERTED),  # noqa: E501
        (HOUSINGS, "It's fine to install the seals into bearing housings that weren't degreased.", Grade.INVERTED),  # noqa: E501
        # the act of the relative clause is a cue word itself: it is the clause's, not the rule's
        (CONSUMERS, "Reassign the partitions only with billing consumers that have been paused.", Grade.ACTIONABLE),  # noqa: E501
        (CONSUMERS, "Reassign the partitions with billing consumers that have not been paused.", Grade.INVERTED),  # noqa: E501
    ],
)  # fmt: skip
def test_a_relative_clause_on_the_object_states_the_act_done_or_not(
    fact: Fact, text: str, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Skip the scaffold ties for now and go straight to loading the brick pallets.", Grade.INVERTED),  # noqa: E501
        ("Secure the scaffold ties, then go straight to loading the brick pallets.", Grade.ACTIONABLE),  # noqa: E501
        ("Load the brick pallets, then go directly to securing the scaffold ties.", Grade.INVERTED),
    ],
)  # fmt: skip
def test_going_straight_to_the_later_act_puts_the_first_before_it(text: str, grade: Grade) -> None:
    assert grade_one(text, SCAFFOLD).grade is grade
