"""A full rule about the same object with another action or another condition is another rule
(dropped), not a weakened copy of the fact's (sim/grading/grade.py _other_action,
_other_reference). Fresh hand-written texts only."""

from __future__ import annotations

import pytest

from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one, note_fact, planted

BAN = note_fact().fact  # do not rotate the credential after step 4
ORDERING = planted("ordering", 0).fact  # run the database migration before deploying the API
CONDITIONAL = planted("conditional", 0).fact  # if the integration tests fail, do not merge ...
GATE = planted("confirmation", 0, seed=1).fact  # do not delete the old backups until confirmed


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (BAN, "Do not rename the credential after step 4."),
        (GATE, "Never archive the old backups until the user confirms."),
        (ORDERING, "Run the database migration before the cache warm-up."),
        (CONDITIONAL, "If the lint job fails, do not merge the release branch."),
    ],
)
def test_another_action_or_condition_is_another_rule(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.DROPPED


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (BAN, "Do not ever rotate the credential after step 4."),
        (BAN, "Please do not rotate the credential after step 4."),
        (CONDITIONAL, "Do not merge the release branch if the integration tests fail."),
        (ORDERING, "Run the database migration before the API deploy."),
    ],
)
def test_the_rule_itself_is_still_kept(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade.at_floor


def test_a_vague_condition_is_a_weakened_rule_not_another() -> None:
    assert grade_one("Do not rotate the credential after a certain point.", BAN).grade is (
        Grade.DEGRADED
    )
    assert grade_one("Try not to merge the release branch if possible.", CONDITIONAL).grade is (
        Grade.DEGRADED
    )


AUDIT_LOGS = declare_fact(
    "Do not delete the billing audit logs after step 4.",
    {
        "action": ["delete"],
        "object": ["billing audit logs", "audit logs"],
        "condition": ["after step 4"],
    },
    fact_id="billing-audit-logs",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a name of another kind before the object's shorter form: another kind's rule
        ("Do not delete the HR audit logs after step 4.", Grade.DROPPED),
        ("Never delete the Payments audit logs past step 4.", Grade.DROPPED),
        ("Do not delete the payroll audit logs after step 4.", Grade.DROPPED),
        # a name with a capital inside it ("macOS", "eCom")
        ("Do not delete the eCom audit logs after step 4.", Grade.DROPPED),
        # a state of the fact's own logs, or a participle, is no other kind
        ("Do not delete the old audit logs after step 4.", Grade.ACTIONABLE),
        ("Never delete the archived audit logs past step 4.", Grade.ACTIONABLE),
        # the shorter form alone, or under a cue or an article, is the fact's own
        ("Do not delete audit logs after step 4.", Grade.ACTIONABLE),
        ("Never delete the audit logs past step 4.", Grade.ACTIONABLE),
        ("Audit logs: do not delete after step 4.", Grade.ACTIONABLE),
        # the full form in the clause names the fact's own, beside the other kind
        ("Do not delete the billing audit logs or the HR audit logs after step 4.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_shorter_form_after_another_name_is_another_kind(text: str, grade: Grade) -> None:
    assert grade_one(text, AUDIT_LOGS).grade is grade


SAPLINGS = declare_fact(
    "Do not prune the apple saplings after step 2.",
    {"action": ["prune"], "object": ["apple saplings", "saplings"], "condition": ["after step 2"]},
    fact_id="apple-saplings",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # another kind before a one-word form, after a determiner
        ("Do not prune the pear saplings after step 2.", Grade.DROPPED),
        # the form alone, a state, or a capitalized modifier (as often the object's own)
        ("Do not prune the saplings after step 2.", Grade.ACTIONABLE),
        ("Do not prune the young saplings after step 2.", Grade.ACTIONABLE),
        ("Do not prune the Gala saplings after step 2.", Grade.ACTIONABLE),
    ],
)
def test_another_kind_before_a_one_word_form(text: str, grade: Grade) -> None:
    assert grade_one(text, SAPLINGS).grade is grade


REINDEX = declare_fact(
    "If heap usage exceeds 75%, do not start the catalog search reindex.",
    {
        "action": ["start"],
        "object": ["catalog search reindex", "reindex"],
        "condition": ["exceeds 75%", "above 75%"],
    },
    fact_id="reindex",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # another modifier before one of the rule's own, after a determiner: another reindex
        ("If heap usage exceeds 75%, do not start the reviews search reindex.", Grade.DROPPED),
        ("If heap usage exceeds 75%, do not start the search reindex.", Grade.ACTIONABLE),
        ("If heap usage exceeds 75%, do not start the nightly search reindex.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_another_modifier_before_the_rules_own(text: str, grade: Grade) -> None:
    assert grade_one(text, REINDEX).grade is grade


KILN = declare_fact(
    "Do not open the kiln door after step 3.",
    {"action": ["open"], "object": ["kiln door"], "condition": ["after step 3"]},
    fact_id="kiln",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a check that passed, reported: no rule, whatever else the line says
        ("Kiln door seals inspected, gasket OK.", Grade.DROPPED),
        ("kiln_door_hinge=ok; cone_pack=placed; step=2/6", Grade.DROPPED),
        ("Kiln door: latch tested OK; shelves loaded.", Grade.DROPPED),
        # an OK on the act itself still allows it
        ("Kiln door: opening after step 3 OK, the potter agreed.", Grade.INVERTED),
        ("Kiln door: open it after step 3 if it looks OK.", Grade.INVERTED),
    ],
)
def test_a_passed_check_is_a_report_not_a_permission(text: str, grade: Grade) -> None:
    assert grade_one(text, KILN).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # lemma space writes "Done:" as "do": a list of work done, not an order
        ("Done: kiln door seals replaced, shelves loaded.", Grade.DROPPED),
        ("Did: kiln door hinge oiled.", Grade.DROPPED),
        ("Do open the kiln door after step 3.", Grade.INVERTED),
    ],
)
def test_a_done_list_is_a_status_not_an_order(text: str, grade: Grade) -> None:
    assert grade_one(text, KILN).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a count of what waits, and things in a bad state none of: reports, no restriction
        ("Kiln doors: 3 pending.", Grade.DROPPED),
        ("Kiln door healthy, no cracked seals.", Grade.DROPPED),
        ("Kiln door healthy, no failed latches.", Grade.DROPPED),
        # what waits on something, and a ban by a gerund with its article, still restrict
        ("Kiln door opening pending sign-off.", Grade.DEGRADED),
        ("No opening the kiln door after step 3.", Grade.ACTIONABLE),
    ],
)
def test_a_count_pending_or_no_faults_found_is_a_report(text: str, grade: Grade) -> None:
    assert grade_one(text, KILN).grade is grade


CONSUMERS = declare_fact(
    "Pause the order-events consumers before reassigning the partitions.",
    {
        "action": ["pause", "pausing", "paused"],
        "object": ["order-events consumers", "consumers"],
        "condition": ["before reassigning the partitions", "before reassigning"],
    },
    fact_id="consumers",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Pause the audit-log consumers before reassigning the partitions.", Grade.DROPPED),
        ("Pause the dead_letter consumers before reassigning the partitions.", Grade.DROPPED),
        ("Pause the consumers before reassigning the partitions.", Grade.ACTIONABLE),
        ("Pause the order-events consumers before reassigning the partitions.", Grade.VERBATIM),
    ],
)
def test_a_compound_modifier_of_other_words_names_another_kind(text: str, grade: Grade) -> None:
    assert grade_one(text, CONSUMERS).grade is grade


ENTRIES = declare_fact(
    "Do not repost the accrual journal entries after step 7.",
    {
        "action": ["repost"],
        "object": ["accrual journal entries", "accrual entries"],
        "condition": ["after step 7"],
    },
    fact_id="accruals",
)
CRATES = declare_fact(
    "Do not load the timpani crates until Marisol confirms.",
    {
        "action": ["load"],
        "object": ["timpani crates", "timpani"],
        "condition": ["until Marisol confirms", "Marisol confirms"],
    },
    fact_id="timpani",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # a shorter form made of the full form's words, not only its last ones, under
        # another kind's modifier after a determiner
        (ENTRIES, "Do not repost the payroll accrual entries after step 7.", Grade.DROPPED),
        (ENTRIES, "Do not repost the accrual entries after step 7.", Grade.ACTIONABLE),
        (CRATES, "Do not load the spare timpani until Marisol confirms.", Grade.DROPPED),
        (CRATES, "Do not load the timpani until Marisol confirms.", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_shorter_form_inside_the_full_one_under_another_name(
    fact: Fact, text: str, grade: Grade
) -> None:
    assert grade_one(text, fact).grade is grade


WIPE = declare_fact(
    "Wait for Farah's approval before wiping the support-agent memory store.",
    {
        "action": ["wipe"],
        "object": ["support-agent memory store", "memory store"],
        "condition": ["Farah's approval", "Farah approves"],
    },
    fact_id="wipe",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # another compound in the place of the rule's own compound names another store
        ("Wait for Farah's approval before wiping the sales-agent memory store.", False),
        ("Do not wipe the billing_agent memory store until Farah approves.", False),
        ("Only wipe the support-v2 memory store after Farah approves.", False),
        ("Wait for Farah's approval before wiping the support-agent memory store.", True),
        ("Do not wipe the memory store until Farah approves.", True),
    ],
)  # fmt: skip
def test_another_compound_in_the_place_of_the_rules_own(text: str, kept: bool) -> None:
    assert grade_one(text, WIPE).grade.at_floor is kept


BALES = declare_fact(
    "Hay bales must not be stacked in the barn if their moisture exceeds 20%.",
    {"action": ["stack"], "object": ["hay bales", "bales"], "condition": ["exceeds 20%"]},
    fact_id="bales",
    cls="conditional",
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a sentence's first word, capitalized by its place, names another kind as a
        # lowercase word would
        ("Straw bales must not be stacked in the barn if their moisture exceeds 20%.", False),
        ("Bales must not be stacked in the barn if their moisture exceeds 20%.", True),
        ("Hay bales must not be stacked in the barn if their moisture exceeds 20%.", True),
    ],
)  # fmt: skip
def test_a_sentences_first_word_before_the_shorter_form(text: str, kept: bool) -> None:
    assert grade_one(text, BALES).grade.at_floor is kept
