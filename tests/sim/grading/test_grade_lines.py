"""The per-line grader a sweep uses must grade exactly as `grade_text` does."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.grading.grade import grade_text
from sim.grading.grade_lines import LineGrader
from sim.runtime.floor_registry import declare_fact
from sim.types import Grade, History
from tests.helpers import counter, small_history

_HISTORIES: dict[int, History] = {}


def _history(seed: int) -> History:
    if seed not in _HISTORIES:
        _HISTORIES[seed] = small_history(seed=seed, constraints=6, near_misses=2)
    return _HISTORIES[seed]


def _pool(history: History) -> list[str]:
    """Every rendering the world can emit, the same rule in other words (equal evidence from
    different sentences: the first must win), sentences run together on one line, stray
    spaces and blank lines: the shapes real and simulated outputs take."""
    rules = [u for u in history.units if u.kind.constraint_like]
    lines = [r for u in rules for r in (*u.renderings, u.inverted) if r]
    lines += [u.renderings[0] for u in history.units[:20]]  # headers, chatter, tool output
    facts = [f.text for f in history.facts]
    restated = [t.upper() for t in facts] + [f"Reminder: {t}" for t in facts]
    restated += [t.replace("e", "’e", 2) for t in facts]  # apostrophes that join letters
    restated += [t.replace("four", "4").replace("not", "n't") for t in facts]
    joined = [f"{a} {b}" for a, b in pairwise(facts)]
    # config notes, plans, sub-bullets, labels and spellings the grader rewrites before it
    # reads (sim.grading.notation, sim.grading.plans, sim.grading.text)
    shaped = [
        "rules:", "  - id: worker", "    rule: no restart after step 3", "cfg:", "  port: 9464",
        "retention=90d; replicas=3; allowed=false",
        "state: {cache: {purge_after_step: 4, allowed: false}}",
        "1. run the database migration", "2. deploy the API", "- [ ] back up the user table",
        "- [ ] change the schema", "Plan:", "- rotate the credential", "  - only up to step 4",
        "Credential: rotation deferred.", "It stays unsent until the user says yes.",
        "Retention: 2160h, about three hundred days.", "Banned from step 5 onward.",
        "Only during steps 1-3.", "The freeze was revoked; go ahead now.",
    ]  # fmt: skip
    shaped += [f"{i}. {t}" for i, t in enumerate(facts, 1)]  # the rules as a numbered plan
    shaped += [f"    rule: {t}" for t in facts] + [f"  - {t}" for t in facts]  # nested, indented
    # allusions (sim.grading.allusions): a rule's words with a caution, on its line or by a
    # pronoun on the next; a short title over bullets
    tails = [" ".join(t.rstrip(".").split()[-3:]) for t in facts]
    shaped += [f"Be mindful of the {w}." for w in tails] + [f"{w} is nearly done." for w in tails]
    shaped += ["Be careful with it, ideally.", "Watch it; it matters here.", "---", "Audit log"]
    # a sentence that leaves the object out, after one that names it (sim.grading.grade.elliptic)
    parts = [{g.role: g.forms[0] for g in f.anchors} for f in history.facts]
    acts = [p["action"] for p in parts if "action" in p]
    shaped += [f"The {p['object']} is ready." for p in parts if "object" in p]
    shaped += [f"{a.capitalize()} blocked until the user confirms." for a in acts]
    shaped += [f"{a} is on hold; ask first. Ready at 5." for a in acts] + ["No restarts."]
    shaped += ["Hold that until the user confirms.", "Park this until step 5."]
    shaped += [f"The {p['object']} is ready. {p['action']} waits." for p in parts if len(p) > 2]
    shaped += [f"The {p['object']} is ready.\nNothing gets {p['action']} until the user confirms."
               for p in parts if "action" in p] + ["Value: 7."]  # fmt: skip
    shaped += [f"The {p['object']} is ready.\nHandle with care." for p in parts]
    # a question and the line that answers it (sim.grading.sentences.line_role)
    shaped += [f"{w}?" for w in tails] + ["→ it stays off", "- then: hold it", "Then no restarts."]
    # a line that revises the rule a line before kept (sim.grading.grade.revised)
    shaped += ["Scratch that, it was changed to 7.", "That has been replaced: do it now.",
               "It no longer applies; go ahead.", "Update: it is now optional.",
               "New value: 7 (replaces 3).", "New order: deploy first, migrate afterwards.",
               "Update: it ran.", "- new setpoint: 4"]  # fmt: skip
    return lines + restated + joined + shaped + ["", "   ", f"  {facts[0]}  "]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 5),
    picks=st.lists(st.integers(0, 10_000), max_size=60),
    subset=st.lists(st.booleans(), min_size=8, max_size=8),
    trailing_newline=st.booleans(),
)
def test_line_grader_equals_grade_text(
    seed: int, picks: list[int], subset: list[bool], trailing_newline: bool
) -> None:
    history = _history(seed)
    pool = _pool(history)
    text = "\n".join(pool[p % len(pool)] for p in picks) + ("\n" if trailing_newline else "")
    facts = [f for f, keep in zip(history.facts, subset, strict=False) if keep]
    grader = LineGrader(history.facts, counter())
    assert grader.knows(facts)
    assert grader.grade(text, facts) == grade_text(text, facts, counter())
    # a second text through the same grader reuses the cached lines and still agrees
    again = "\n".join(reversed(text.split("\n")))
    assert grader.grade(again, facts) == grade_text(again, facts, counter())


def test_between_equal_evidence_the_first_sentence_wins() -> None:
    history = _history(0)
    fact = history.facts[0]
    text = f"{fact.text}\n{fact.text.upper()}\n"
    (got,) = LineGrader(history.facts, counter()).grade(text, [fact])
    assert got == grade_text(text, [fact], counter())[0]
    assert got.sentence == fact.text.strip()


@pytest.mark.parametrize("gap", ["\n", "\n\n"])
def test_an_allusion_finished_on_the_next_line_is_read_as_grade_text_reads_it(gap: str) -> None:
    history = _history(0)
    for fact in history.facts:
        obj = next(g.forms[0] for g in fact.anchors if g.role == "object")
        text = f"The {obj} is nearly done.{gap}Be careful with it, ideally.\n"
        (got,) = LineGrader(history.facts, counter()).grade(text, [fact])
        assert got == grade_text(text, [fact], counter())[0]
        assert got.grade is Grade.DEGRADED, text
        plain = text.replace("Be careful with it, ideally.", "It ran in 3 s.")
        (got,) = LineGrader(history.facts, counter()).grade(plain, [fact])
        assert got == grade_text(plain, [fact], counter())[0]


@pytest.mark.parametrize(
    "revision",
    ["Scratch that, it was changed to 7.", "That rule has been dropped; do it now.", "It ran."],
)
def test_a_line_that_revises_a_kept_rule_is_read_as_grade_text_reads_it(revision: str) -> None:
    history = _history(0)
    for fact in history.facts:
        text = f"{fact.text}\n{revision}\n"
        (got,) = LineGrader(history.facts, counter()).grade(text, [fact])
        assert got == grade_text(text, [fact], counter())[0]


def test_facts_of_another_history_are_not_known() -> None:
    grader = LineGrader(_history(0).facts, counter())
    assert not grader.knows(_history(1).facts[:1])
    assert grader.knows(())
    assert grader.grade("anything\n", ()) == ()


def test_a_topic_word_that_holds_another_is_looked_for_where_it_opens_a_word() -> None:
    # "fetch" stands inside "prefetch": a filter that kept only the shorter run would look for
    # it where a word opens, and miss the allusion "Be careful with prefetching"
    fact = declare_fact(
        "The fetch workers must use a prefetch count of 8.",
        {"setting": ["prefetch count"], "object": ["fetch workers"], "value": ["8"]},
        fact_id="prefetch",
        cls="value_pin",
    )
    for text in ("Be careful with prefetching on those nodes.", "Prefetching matters here."):
        grader = LineGrader([fact], counter())
        assert grader.grade(text, [fact]) == grade_text(text, [fact], counter())
        assert grade_text(text, [fact], counter())[0].grade is Grade.DEGRADED


@pytest.mark.parametrize(
    "text",
    [
        "Parish registers: unpack them now.\nThe incoming ledger boxes get frozen after that.",
        "Billing: avoid churn.",
    ],
)
def test_irregular_forms_and_labels_are_read_as_grade_text_reads_them(text: str) -> None:
    facts = [
        declare_fact(
            "Freeze the incoming ledger boxes before unpacking the parish registers.",
            {
                "action": ["freeze", "freezing"],
                "object": ["incoming ledger boxes", "ledger boxes"],
                "condition": ["before unpacking the parish registers", "before unpacking"],
            },
            fact_id="boxes",
            cls="ordering",
        ),
        declare_fact(
            "Do not redeploy the billing service after step 4.",
            {"action": ["redeploy"], "object": ["billing service"], "condition": ["after step 4"]},
            fact_id="billing",
        ),
    ]
    grader = LineGrader(facts, counter())
    assert grader.grade(text, facts) == grade_text(text, facts, counter())
