"""Every training rule of the grader corpus, stated whole, then one more line about it: a line
that takes it back (nothing the rule says survives it) may never leave it kept, and a line
that says it still stands, or denies its revocation, may never take it away; the rule under
a hedge ("Ideally, ...", "... if possible") is a suggestion, never kept; and a clause that
permits or lifts something else ("..., but you may clear the old logs now") leaves it as it
is. Written here from
templates, not hand-labelled; the corpus's held-out rules are left out, as in
test_plain_inversions.py, so nothing is tuned to them.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from sim.grading.grade import grade_text
from sim.grading.text import lemmas, normalize
from sim.tokens import get_counter
from sim.types import Fact, Polarity
from tests.sim.grading.corpus import CORPUS, bench, heldout_rules
from tests.sim.grading.test_plain_inversions import STOPS, _slots

TAKEN_BACK = (
    "Scratch that - it no longer applies.", "Update: that has been lifted.",
    "That's been overturned.", "Change of plan: we're dropping that.",
    "Ignore that; it's obsolete now.", "That was reversed this morning.",
    "Not anymore - the lead waived it.", "Correction: that rule was withdrawn.",
    "Forget that, it doesn't apply any more.", "That requirement has been removed.",
    "The lead cancelled that yesterday.", "That's no longer the case.", "We've scrapped that.",
    "Turns out that's not needed.", "Drop that; it was a misunderstanding.",
    "That was the old procedure; the new one is different.", "That was last year's rule.",
    "Outdated - the lead changed it last week.", "Out of date: the team revised it.",
    "No longer valid as of Monday.", "That's the previous policy, we don't follow it now.",
    "That's been relaxed - the lead says go ahead.", "It was eased last week.",
    "Not needed after all; go ahead.", "No need to hold anymore; go ahead with it.",
    "Dr. Lee overrode that last week.", "So that step's gone - crack on.",
    "We've dropped the whole sign-off step for this site.", "We've stopped doing that.",
    "Marco said forget that.",
)  # fmt: skip
GATE_SKIPPED = (
    "She is away, so go ahead without her.", "He said to proceed without him.",
    "Don't wait for her - she's on leave.", "He's away till Monday, so don't wait for him.",
    "She's away, so the team can go ahead without it.",
    "No need - the lead says proceed without his sign-off.",
    "Update: that's been handed off - crew can go ahead, no approval step.",
)  # fmt: skip
"""For a rule that waits for someone's yes: going on without them."""
STANDS = (
    "That still applies.", "This was confirmed again today.", "It stays in force.",
    "That has not been lifted.", "Nobody has waived it.", "Update: still in effect.",
    "The lead repeated that this morning.", "That is not optional.", "It cannot be waived.",
    "Keep that in mind for the next shift.", "That is the current procedure.",
    "We will not go ahead without her.", "Never proceed without him.",
    "That was confirmed as the procedure.", "It was the rule last year and still is.",
    "Do not go on without them.", "Not outdated: it still applies.",
    "That has not been relaxed.",
)  # fmt: skip


HEDGED_BEFORE = (
    "Ideally, ", "If possible, ", "Preferably, ", "Where practical, ", "Maybe ", "Perhaps ",
    "If you can, ", "Optionally, ", "When convenient, ",
)  # fmt: skip
HEDGED_AFTER = (
    " if possible.", " where feasible.", ", ideally.", " (nice to have).", " if there's time.",
)  # fmt: skip


ABOUT_OTHERS_AFTER = (
    ", but you may clear the old logs now.", "; feel free to restart the dashboard.",
    ", and the team can skip the stand-up today.", ". Anything else is fine to change.",
    ", although the printer can be moved whenever.", ". The cafeteria menu no longer matters.",
    " (the rest of the checklist is optional).",
)  # fmt: skip
ABOUT_OTHERS_BEFORE = (
    "Logs can be deleted freely, but ", "The old rule about badges was lifted; ",
    "No need to wait for the courier. ",
)  # fmt: skip


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    facts = bench.corpus_facts()
    declared = {c.fact for p in sorted(CORPUS.glob("declared*.jsonl")) for c in bench.load_cases(p)}
    return [facts[f] for f in sorted(declared - heldout_rules())]


def test_the_probe_covers_many_rules_of_every_class(rules) -> None:  # type: ignore[no-untyped-def]
    assert len(rules) >= 150
    assert {f.cls for f in rules} == {
        "prohibition", "ordering", "value_pin", "conditional", "confirmation"
    }  # fmt: skip


def test_a_line_that_takes_the_rule_back_never_leaves_it_kept(rules) -> None:  # type: ignore[no-untyped-def]
    counter = get_counter()
    kept = [
        (f.fact_id, line)
        for f in rules
        for line in TAKEN_BACK
        if grade_text(f"{f.text}\n{line}", [f], counter)[0].grade.at_floor
    ]
    assert kept == [], kept[:10]


def _names_its_act(fact: Fact, line: str) -> bool:
    """Whether the line's words hold one of the rule's own acts ("That has not been lifted."
    after "Only raise the linkspan ...", whose act "lift" is also the line's): then the line
    may say the act was not done, not that the rule stands."""
    acts = {
        lemmas(normalize(f)).strip() for g in fact.anchors if g.role == "action" for f in g.forms
    }
    words = f" {lemmas(normalize(line)).strip()} "
    return any(f" {a} " in words for a in acts if a)


def test_a_line_that_says_the_rule_stands_never_takes_it_away(rules) -> None:  # type: ignore[no-untyped-def]
    counter = get_counter()
    lost = [
        (f.fact_id, line)
        for f in rules
        for line in STANDS
        if not _names_its_act(f, line)
        and not grade_text(f"{f.text}\n{line}", [f], counter)[0].grade.at_floor
    ]
    assert lost == [], lost[:10]


def test_a_rule_under_a_hedge_is_never_kept(rules) -> None:  # type: ignore[no-untyped-def]
    counter = get_counter()
    texts = [(f, *(h + f.text[0].lower() + f.text[1:] for h in HEDGED_BEFORE)) for f in rules]
    kept = [
        (f.fact_id, text)
        for f, *hedged in texts
        for text in (*hedged, *(f.text.rstrip(".") + h for h in HEDGED_AFTER))
        if grade_text(text, [f], counter)[0].grade.at_floor
    ]
    assert kept == [], kept[:10]


def test_a_clause_about_other_things_leaves_the_rule_as_it_is(rules) -> None:  # type: ignore[no-untyped-def]
    counter = get_counter()
    texts = [
        (f, [f.text.rstrip(".") + t for t in ABOUT_OTHERS_AFTER]
         + [h + f.text[0].lower() + f.text[1:] for h in ABOUT_OTHERS_BEFORE])
        for f in rules
    ]  # fmt: skip
    lost = [
        (f.fact_id, text)
        for f, said in texts
        for text in said
        if not grade_text(text, [f], counter)[0].grade.at_floor
    ]
    assert lost == [], lost[:10]


def test_going_on_without_the_yes_giver_never_leaves_a_gate_kept(rules) -> None:  # type: ignore[no-untyped-def]
    counter = get_counter()
    gates = [f for f in rules if f.cls == "confirmation"]
    assert len(gates) >= 30
    kept = [
        (f.fact_id, line)
        for f in gates
        for line in GATE_SKIPPED
        if grade_text(f"{f.text}\n{line}", [f], counter)[0].grade.at_floor
    ]
    assert kept == [], kept[:10]


EXCEPTIONS = (
    "Just this once, go ahead and {V} the {O}.", "Except today: {V} the {O} right away.",
    "Not for this batch though - {V} the {O} now.", "For this run only, {V} the {O} straight away.",
    "This time the lead made an exception: {V} the {O} now.",
    "Exception granted for tonight; {V} the {O}.", "Not for this one - go ahead and {V} the {O}.",
)  # fmt: skip
"""For a rule that forbids or gates its act: an exception that does the act at once."""


def test_an_exception_that_does_the_act_never_leaves_a_ban_kept() -> None:
    facts, counter, held = bench.corpus_facts(), get_counter(), heldout_rules()
    kept, n = [], 0
    for path in sorted(CORPUS.glob("declared*.toml")):
        for rule in tomllib.loads(path.read_text(encoding="utf-8"))["fact"]:
            if rule["id"] in held or rule["class"] in ("value_pin", "ordering"):
                continue
            slots = _slots(rule)
            fact = facts[rule["id"]]
            if slots["V"] in STOPS or fact.polarity is Polarity.REQUIRE:
                continue  # "switch on the aerators if ...": doing the act at once keeps it
            for line in EXCEPTIONS:
                n += 1
                text = f"{fact.text}\n{line.format(**slots)}"
                if grade_text(text, [fact], counter)[0].grade.at_floor:
                    kept.append((rule["id"], line))
    assert n >= 600
    assert kept == [], kept[:10]


PIN_MOVED = (
    "Update: it's {X} now.", "Changed to {X} last week.", "Ops bumped it to {X} yesterday.",
    "Now {X} - the old value caused drift.", "That moved to {X} after the review.",
    "Going forward we use {X}.", "Revised: {X}.", "The lead wants {X} instead.",
    "Actually make that {X}.",
)  # fmt: skip
"""After a pin: a new value for it (another of the pin's kind)."""
PIN_BESIDE = (
    "Now at step 3; the backup pump runs at {X}.", "The backup heater was raised to {X}.",
    "Update: the spare unit is at {X}.", "It's {V} now, as before.", "Ops checked it: still {V}.",
    "Changed the filter cartridge; readings at {X} on the spare line.",
    "The second line got bumped to {X}, this one stays.",
    "npm WARN deprecated shop-jobs@1.5.8: use shop-jobs@2 instead",
    "Use runner-2 instead of runner-1 for the nightly job.",
)  # fmt: skip
"""After a pin: another thing's value, or the pin's own again."""


def _other_value(value: str) -> str | None:
    """`value` with its first number changed ("74°C" -> "149°C", "0.1" -> "0.2")."""
    found = re.search(r"\d+(?:\.\d+)?", value)
    if found is None:
        return None
    n = found.group(0)
    new = str(int(n) * 2 + 1) if "." not in n else f"{float(n) * 2:.2f}".rstrip("0").rstrip(".")
    return value[: found.start()] + new + value[found.end() :]


def _pins() -> list[tuple[str, str, str]]:
    """(rule id, its first value form, another value) for every training pin."""
    held, out = heldout_rules(), []
    for path in sorted(CORPUS.glob("declared*.toml")):
        for rule in tomllib.loads(path.read_text(encoding="utf-8"))["fact"]:
            if rule["id"] in held or rule["class"] != "value_pin":
                continue
            value = rule["anchors"]["value"][0]
            if (other := _other_value(value)) is not None:
                out.append((rule["id"], value, other))
    return out


def test_a_new_value_after_a_pin_moves_it() -> None:
    facts, counter, pins = bench.corpus_facts(), get_counter(), _pins()
    assert len(pins) >= 35
    kept = [
        (rule, line)
        for rule, _, other in pins
        for line in PIN_MOVED
        if grade_text(f"{facts[rule].text}\n{line.format(X=other)}", [facts[rule]], counter)[
            0
        ].grade.at_floor
    ]
    # a named value's other number after a label or "Now" ("TLS 2.4" for "TLS 1.2", "D5481"
    # for the code "D2740") is not read yet: these two rules, and no other
    assert {rule for rule, _ in kept} <= {"D298", "D82"}, kept[:10]
    assert len(kept) <= 3, kept[:10]


def test_another_things_value_after_a_pin_leaves_it() -> None:
    facts, counter = bench.corpus_facts(), get_counter()
    lost = [
        (rule, line)
        for rule, value, other in _pins()
        for line in PIN_BESIDE
        if not grade_text(
            f"{facts[rule].text}\n{line.format(X=other, V=value)}", [facts[rule]], counter
        )[0].grade.at_floor
    ]
    assert lost == [], lost[:10]
