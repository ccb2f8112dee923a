"""Pronouns and anaphoric adverbs (sim/grading/anaphora.py): a rule whose object or condition
is named in the sentence before and pointed back to. Fresh hand-written texts only."""

from __future__ import annotations

import pytest

from sim.grading import anaphora
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one, note_fact, planted
from tests.sim.grading.declared_rules import MAILBOX, PROOFS

ORDERING = planted("ordering", 0).fact  # run the database migration before deploying the API
CONDITIONAL = planted("conditional", 0).fact  # if the integration tests fail, do not merge ...
CONFIRMATION = planted("confirmation", 0, seed=1).fact  # do not delete the old backups until ...
PROHIBITION = note_fact().fact  # do not rotate the credential after step 4


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (ORDERING, "The API deploy is scheduled for noon. Before it, run the database migration."),
        (PROHIBITION, "The credential is shared with billing. Do not rotate it after step 4."),
        (
            CONDITIONAL,
            "The integration tests run nightly. If they fail, the release branch must not be "
            "merged.",
        ),
        (CONFIRMATION, "The old backups take 2 TB. Do not delete them until the user confirms."),
    ],
)
def test_a_pronoun_stands_for_the_half_named_before(fact, text) -> None:  # type: ignore[no-untyped-def]
    g = grade_one(text, fact)
    assert g.grade is Grade.ACTIONABLE  # never verbatim: the reading supplied the words
    assert g.sentence == text.split(". ", 1)[1]  # the text as written, for the audit


@pytest.mark.parametrize(
    "text",
    [
        "Ship the API deploy first. The database migration runs afterwards.",
        "The API deploy can go out straight away. The database migration can happen later.",
        "Deploy the API right now; the database migration can be run later in the week.",
    ],
)
def test_an_adverb_points_back_to_the_sentence_before(text: str) -> None:
    assert grade_one(text, ORDERING).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Run the database migration first. After that, deploy the API.", True),
        ("The database migration is run first. The API is deployed after that.", True),
        ("Run the database migration first; only then deploy the API.", True),
        ("Run the database migration. Then deploy the API.", True),
        ("Run the database migration. Once that is done, deploy the API.", True),
        ("Run the database migration. When finished, deploy the API.", True),
        ("Run the database migration first. Next, deploy the API.", True),
        ("Run the database migration. Subsequently the API is deployed.", True),
        ("Deploy the API first. After that, run the database migration.", False),
        ("Deploy the API. Once that's done, run the database migration.", False),
        ("Deploy the API. Only then run the database migration.", False),
    ],
)
def test_after_that_stands_for_the_act_done_before(text: str, kept: bool) -> None:
    # "that" is the migration run, not the migration: "after the migration, deploy" must not
    # be read as "the migration after deploying"
    g = grade_one(text, ORDERING)
    assert g.grade.at_floor is kept
    if not kept:
        assert g.grade is Grade.INVERTED


@pytest.mark.parametrize(
    "text",
    [
        "If the database migration fails, then deploy the API.",
        "When the database migration stalls, then deploy the API anyway.",
    ],
)
def test_the_then_of_an_if_orders_nothing(text: str) -> None:
    assert not grade_one(text, ORDERING).grade.at_floor


def test_a_then_after_the_act_still_orders() -> None:
    text = "When you are ready, run the database migration, then deploy the API."
    assert grade_one(text, ORDERING).grade.at_floor


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # a "first" that ends its clause: before what the sentence before named
        (CONFIRMATION, "Do not delete the old backups yet. The user has to confirm first.",
         Grade.ACTIONABLE),
        (ORDERING, "Deploy the API at noon. The database migration has to run first.",
         Grade.ACTIONABLE),
        (ORDERING, "Run the database migration at noon. Deploy the API first.", Grade.INVERTED),
        # "in that case", "if so": the case named before
        (CONDITIONAL, "The integration tests may fail. In that case, do not merge the release "
         "branch.", Grade.ACTIONABLE),
        (CONDITIONAL, "The integration tests may fail. If so, merge the release branch anyway.",
         Grade.INVERTED),
    ],
)  # fmt: skip
def test_first_and_in_that_case_point_back(fact, text, grade) -> None:  # type: ignore[no-untyped-def]
    assert grade_one(text, fact).grade is grade


def test_move_on_to_is_a_verb_not_a_case() -> None:
    text = "After running the database migration, move on to deploying the API."
    assert grade_one(text, ORDERING).grade.at_floor
    text = "Deploy the API, then move on to running the database migration."
    assert grade_one(text, ORDERING).grade is Grade.INVERTED


def test_later_points_back_only_to_what_was_named() -> None:
    assert grade_one("Run the database migration later.", ORDERING).grade is not Grade.INVERTED
    text = "Run the database migration first. The API deploy comes later."
    assert grade_one(text, ORDERING).grade.at_floor


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # the pronoun's antecedent is another object: never read as the fact's
        (PROHIBITION, "The API token is old. Do not rotate it after step 4."),
        (CONFIRMATION, "The new snapshots take 2 TB. Do not delete them until the user confirms."),
        (
            CONDITIONAL,
            "The integration tests run nightly. If they fail, the docs branch must not be merged.",
        ),
        # an adverb inside the same clause as both halves is not resolved to either
        (ORDERING, "Deploying the API first and migrating the database afterwards was agreed."),
    ],
)
def test_a_pronoun_for_something_else_keeps_nothing(fact, text) -> None:  # type: ignore[no-untyped-def]
    assert grade_one(text, fact).grade in (Grade.DROPPED, Grade.DEGRADED, Grade.INVERTED)


def test_this_and_that_count_only_as_a_whole_noun_phrase() -> None:
    assert anaphora.first("Prerequisite for that: a snapshot.") is not None
    assert anaphora.first("We agreed that the snapshot runs at noon.") is None
    # a "first" that ends its clause points back (before what was said before)
    assert anaphora.first("We agreed that the snapshot comes first.") is not None
    assert anaphora.first("Before this step, back up.") is None


def test_an_object_named_by_its_modifier_has_a_place_in_the_order() -> None:
    # "the ledger snapshot" names the ledger volume by its modifier; it comes after the resize
    fact = planted("ordering", 7).fact  # snapshot the ledger volume before resizing the disk
    text = "Check the IOPS, then resize the disk first - the ledger snapshot may come after."
    assert grade_one(text, fact).grade is Grade.INVERTED


def test_these_and_those_stand_for_the_object_only_as_a_pronoun() -> None:
    fact = MAILBOX  # do not archive the support mailbox until Ines confirms
    before = "Open item: the two support mailboxes of the old tenant."
    for text in ("Those must not be archived until Ines confirms.",
                 "These stay live until Ines confirms; nobody archives these."):  # fmt: skip
        assert anaphora.first(text) is not None
    text = f"{before}\nThose must not be archived until Ines confirms."
    assert grade_one(text, fact).grade.at_floor
    assert anaphora.first("These hits must not be cleared.") is None  # a determiner
    other = "Open item: the two shared inboxes of the old tenant."
    text = f"{other}\nThose must not be archived until Ines confirms."
    assert not grade_one(text, fact).grade.at_floor  # they point to something else


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Ines is out until noon. Do not archive the support mailbox until she confirms.", True),
        ("**Waiting on Ines**\n- support mailbox: archive only after her confirmation", True),
        ("Pending Ines:\n- support mailbox -> archive only on her confirmation", True),
        # she is someone else, or nobody named: the gate's giver is lost
        ("Ana is out until noon. Do not archive the support mailbox until she confirms.", False),
        ("Do not archive the support mailbox until she confirms.", False),
    ],
)
def test_a_personal_pronoun_stands_only_for_the_one_who_gives_the_yes(
    text: str, kept: bool
) -> None:
    assert grade_one(text, MAILBOX).grade.at_floor is kept


def test_a_personal_pronoun_never_stands_for_the_object() -> None:
    text = "The support mailbox is full. Archive him only after Ines confirms."
    assert not grade_one(text, MAILBOX).grade.at_floor


def test_later_points_back_only_as_the_time_an_act_may_come() -> None:
    assert anaphora.first("Manifests can be printed later.") is not None
    assert anaphora.first("The API deploy comes later.") is not None
    assert anaphora.first("Do not use the webhook secret later.") is None  # a plain adverb
    assert anaphora.first("It can run no later than noon.") is not None  # "it", not "later"


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # a clause that points back to the clause before it, in one sentence
        (ORDERING, "The database migration runs first, and the API is deployed after that.",
         Grade.ACTIONABLE),
        (ORDERING, "Deploy the API at noon, and run the database migration after that.",
         Grade.INVERTED),
        (PROHIBITION, "Step 4 wraps up the audit, and the credential must not be rotated after "
         "that point.", Grade.ACTIONABLE),
        (CONFIRMATION, "The user confirms first, and the old backups are deleted after that, "
         "never before.", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_clause_points_back_to_the_clause_before_it(fact: Fact, text: str, grade: Grade) -> None:
    assert grade_one(text, fact).grade is grade


@pytest.mark.parametrize(
    "text",
    [
        # the object's own verb of going, under a label or not
        "Cleanup plan: the old backups go into the shredder only once the user confirms.",
        "Backups: the old backups go out to cold storage only after the user confirms.",
    ],
)
def test_an_objects_going_stands_in_for_the_act(text: str) -> None:
    assert grade_one(text, CONFIRMATION).grade.at_floor


def test_a_numbered_item_held_until_the_yes_keeps_the_gate() -> None:
    text = "Cleanup board:\n- B2 old backups: HOLD until the user confirms\n- B3 logs: done"
    assert grade_one(text, CONFIRMATION).grade.at_floor


COOLANT = declare_fact(
    "Drain the coolant loop before flushing the radiator.",
    {
        "action": ["drain"],
        "object": ["coolant loop"],
        "condition": ["before flushing the radiator"],
    },
    fact_id="coolant",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # the reference named by its act alone, its object said earlier in the sentence
        (
            "Isolate the rack first, then flush the radiator, and drain the coolant loop once "
            "the flush is done.",
            Grade.INVERTED,
        ),
        ("Flush the radiator later today, but drain the coolant loop before the flush.", None),
        # nothing earlier names the radiator: which flush is not said
        ("Drain the coolant loop after the flush.", Grade.DEGRADED),
        ("Flush the heater core, and drain the coolant loop after the flush.", Grade.DEGRADED),
    ],
)
def test_a_reference_named_in_part_is_completed_by_the_clause_before(
    text: str, grade: Grade | None
) -> None:
    got = grade_one(text, COOLANT).grade
    assert got is grade if grade is not None else got >= Grade.ACTIONABLE


TINT = declare_fact(
    "Do not tint the reading lenses until Okonkwo confirms.",
    {
        "action": ["tint"],
        "object": ["reading lenses"],
        "condition": ["until Okonkwo confirms", "Okonkwo confirms"],
    },
    fact_id="tint",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        (
            "The reading lenses are cut and polished.\nDo not tint them until Okonkwo confirms.",
            None,
        ),
        (
            "The reading lenses are cut and polished.\nOkonkwo's confirmation isn't required for "
            "that.",
            Grade.INVERTED,
        ),
    ],
)
def test_a_pronoun_stands_for_the_object_as_written(text: str, grade: Grade | None) -> None:
    # the object put in the pronoun's place is read again: its lemma ("lense") would not give
    # itself again ("lens"), and the sentence would name no object
    got = grade_one(text, TINT).grade
    assert got is grade if grade is not None else got >= Grade.ACTIONABLE


LABELS = declare_fact(
    "Do not edit the label template after step 3.",
    {"action": ["edit"], "object": ["label template"], "condition": ["after step 3"]},
    fact_id="labels",
    required=["action", "object", "condition"],
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        ("Step 3 is done. From that point on, nobody edits the label template.", Grade.ACTIONABLE),
        ("Step 3 closes the batch. Past this stage the label template stays unchanged.",
         Grade.ACTIONABLE),
        ("Step 3 closes the batch. Beyond that point, edit the label template freely.",
         Grade.INVERTED),
        # the "it" after the object is the object, not the step named before
        ("After step 3 you may reprint the invoices, but the label template must stay exactly "
         "as it was printed from that point on.", Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_that_point_is_the_time_named_before(text: str, grade: Grade) -> None:
    assert grade_one(text, LABELS).grade is grade


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "nothing gets <act>" after a sentence naming the object leaves the object out
        ("The client wants the print proofs now.\nNothing gets sent until Oksana confirms.",
         Grade.ACTIONABLE),
        ("The client wants the print proofs now.\nNothing was sent.", Grade.DROPPED),
    ],
)  # fmt: skip
def test_nothing_gets_the_act_on_the_object_named_before(text: str, grade: Grade) -> None:
    assert grade_one(text, PROOFS).grade is grade


JARS = declare_fact(
    "Dry the grain samples before sealing the sample jars.",
    {
        "action": ["dry", "drying"],
        "object": ["grain samples"],
        "condition": ["before sealing the sample jars", "before sealing"],
    },
    fact_id="jars",
    cls="ordering",
)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # "afterwards" after a sentence that did the later act: the rule's act comes after it
        ("Seal the grain samples into the sample jars on arrival; drying can happen "
         "afterwards.", Grade.INVERTED),
        ("Grain samples: seal the sample jars first. Drying can wait until afterwards.",
         Grade.INVERTED),
        ("Dry the grain samples on arrival. Sealing the sample jars can happen afterwards.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_afterwards_puts_the_rules_act_after_the_act_before(text: str, grade: Grade) -> None:
    assert grade_one(text, JARS).grade is grade
