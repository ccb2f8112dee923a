"""A sentence that alludes to a rule by its topic and a caution, with none of its anchors, is
`degraded`: the rule is there, past acting on. Status lines and other rules on the same topic
stay `dropped`."""

from __future__ import annotations

import pytest

from sim.grading.allusions import cautions, names_topic, topic_words
from sim.grading.grade import matcher
from sim.grading.text import lemmas, normalize
from sim.runtime.floor_registry import declare_fact
from sim.types import Fact, Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import MAILBOX, PAYROLL, TILES

KILN = declare_fact(
    "Do not fire the glaze kiln until Tomasz confirms.",
    {
        "action": ["fire"],
        "object": ["glaze kiln"],
        "condition": ["until Tomasz confirms", "Tomasz confirms"],
    },
    fact_id="kiln",
    cls="confirmation",
)


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (PAYROLL, "Payroll work is nearly done; be mindful of anything touching it late on."),
        (TILES, "Render settings on the farm are pinned; nobody should improvise there."),
        (TILES, "Tile dimensions matter for this render."),
        (KILN, "Kiln firings need the usual sign-off."),
        (KILN, "The glaze firing needs a human sign-off first."),
        (MAILBOX, "Mailbox cleanup: take the owner's wishes into account."),
        (MAILBOX, "Keep the mailbox archive plans in sync with Ines's review."),
        # cautions in other words: care, mind, the usual way, making sure, a rated limit
        (KILN, "The glaze kiln needs careful handling this week."),
        (KILN, "Treat the kiln gently until the new elements are in."),
        (PAYROLL, "Keep the payroll batch in mind during the close."),
        (MAILBOX, "Support mailbox: follow the usual process."),
        (MAILBOX, "Make sure the support mailbox is handled properly."),
        (TILES, "Keep the render farm within its rated settings."),
        # a thing said to be risky or delicate; a short order of care after the topic
        (KILN, "The glaze kiln is a delicate one this month."),
        (PAYROLL, "The payroll batch is safety-critical for the close."),
        (MAILBOX, "The support mailbox has been flaky; handle with care."),
    ],
)
def test_an_allusion_to_the_rules_topic_is_degraded(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.DEGRADED


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (PAYROLL, "Payroll export sent to the bank at 10:02."),  # a status, no caution
        (PAYROLL, "Step 3 done; the ledger is balanced."),  # nothing of the topic
        (TILES, "Render farm at 80% load; 12 frames queued."),
        (KILN, "Kiln 2 loaded with bisque ware; firing schedule printed."),
        (MAILBOX, "Mailbox quota raised to 50 GB and the spam rules were updated."),
        (MAILBOX, "The security team reviewed the firewall rules."),
        # a rule of its own on another thing the modifier names (a near miss), with a gesture
        (PAYROLL, "Do not reprint the payroll calendar later."),
        (KILN, "Never open the glaze cabinet for now."),
        # the action on another object, then a hedge that points back: no topic
        (PAYROLL, "We reprocessed the invoices after step 3. The team suggests keeping it simple."),
        # the act reported done: a log line, no rule
        (PAYROLL, "Payroll batch reprocessed at 09:10; totals match the ledger."),
        (KILN, "Glaze kiln fired overnight, cones bent evenly."),
        (MAILBOX, "Support mailbox archived and the export sent to legal."),
        # nothing went wrong: a report, not a ban
        (PAYROLL, "Payroll batch healthy, no errors in the last export."),
        (KILN, "Glaze kiln shelves inspected without issues; firing log attached."),
        # a short status after the topic is no order of care
        (KILN, "Glaze kiln loaded; attention heads scored."),
    ],
)
def test_a_status_or_another_topic_stays_dropped(fact: Fact, text: str) -> None:
    assert grade_one(text, fact).grade is Grade.DROPPED


def test_an_allusion_never_outranks_what_the_rule_says() -> None:
    text = "Be mindful of payroll work. Reprocess the payroll batch after step 3 if needed."
    assert grade_one(text, PAYROLL).grade is Grade.INVERTED


def test_the_action_alone_needs_a_word_of_the_reference() -> None:
    topic = matcher(KILN).frame
    words = topic_words(topic)
    assert {"kiln", "glaze"} <= words.things
    assert "fire" in words.actions and "tomasz" in words.references
    lem = lemmas(normalize("Be careful with firing anything today."))
    assert cautions(lem) and not names_topic(topic_words(topic), lem)
    lem = lemmas(normalize("Be careful with firing until Tomasz has looked."))
    assert cautions(lem) and names_topic(topic_words(topic), lem)


@pytest.mark.parametrize(
    ("text", "grade"),
    [
        # a report with a word of the rule is read as the rule it states
        ("Payroll batch reprocessed only up to step 3.", Grade.ACTIONABLE),
        ("Payroll batch reprocessed after step 3, as agreed.", Grade.INVERTED),
        ("Payroll batch must not be reprocessed after step 3.", Grade.ACTIONABLE),
    ],
)
def test_a_report_that_states_the_rule_is_read_as_it(text: str, grade: Grade) -> None:
    assert grade_one(text, PAYROLL).grade is grade


def test_what_no_longer_matters_is_no_caution() -> None:
    assert cautions(lemmas(normalize("Chain of custody matters at close.")))
    assert not cautions(lemmas(normalize("Update: the order no longer matters.")))
    assert not cautions(lemmas(normalize("The order does not matter.")))
