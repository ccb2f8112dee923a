"""Every training rule of the grader corpus restated the way summaries restate rules: none may
be lost. A lost rule costs a retry and trust, and these are plain restatements (an emphatic
ban, a pin stressed, an order told in two parts or as numbered steps), written here from
templates, not hand-labelled. The corpus's held-out rules are left out, as in
test_plain_inversions.py, so nothing is tuned to them."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator

from sim.grading.grade import grade_text
from sim.tokens import get_counter
from tests.sim.grading.corpus import CORPUS, bench, heldout_rules, orders_its_act
from tests.sim.grading.test_plain_inversions import STOPS, _slots

TEMPLATES = {
    "prohibition": (
        "Under no circumstances {V} the {O} {C}.", "The {O} can't be {P} {C}.",
        "It is forbidden to {V} the {O} {C}.", "You are not to {V} the {O} {C}.",
        "NEVER {V} the {O} {C}.", "- [ ] do NOT {V} the {O} {C}", "The {O} is forbidden {C}.",
        "The {O} is not allowed {C}.",
    ),
    "value_pin": (
        "{O}: {S} {VAL} (do not change).", "{S} for the {O} is pinned at {VAL}.",
        "The {O} runs with {S} {VAL}; keep it that way.", "Leave the {O} {S} at {VAL}.",
        "The {O} {S} must remain {VAL}.", "Pin the {O} {S} to {VAL}.", "{O} -> {S} {VAL}, fixed.",
        "The {S} of the {O} stays at {VAL} no matter what.",
    ),
    "ordering": (
        "{R} must wait until the {O} is {P}.", "Don't start {R} until the {O} is {P}.",
        "Step 1: {V} the {O}. Step 2: {R}.", "The {O} has to be {P} ahead of {R}.",
        "Prior to {R}, {V} the {O}.", "Nobody starts {R} before the {O} is {P}.",
    ),
    "conditional": ("{G} the {O} is off-limits when {COND}.",),
}  # fmt: skip


def _restated() -> Iterator[tuple[str, str]]:
    held = heldout_rules()
    for path in sorted(CORPUS.glob("declared*.toml")):
        for rule in tomllib.loads(path.read_text(encoding="utf-8"))["fact"]:
            if rule["id"] in held or rule["class"] not in TEMPLATES:
                continue
            slots = _slots(rule)
            if slots.get("V") in STOPS or orders_its_act(rule):
                continue  # "pause the uploads if ...": the act is itself the refusal
            for template in TEMPLATES[rule["class"]]:
                text = template.format(**slots)
                yield rule["id"], text[0].upper() + text[1:]


def test_the_probe_covers_many_rules() -> None:
    cases = list(_restated())
    assert len({rule for rule, _ in cases}) >= 100 and len(cases) >= 900


def test_no_plain_restatement_of_a_training_rule_is_lost() -> None:
    facts, counter = bench.corpus_facts(), get_counter()
    lost = [
        (rule, text)
        for rule, text in _restated()
        if not grade_text(text, [facts[rule]], counter)[0].grade.at_floor
    ]
    assert lost == [], lost[:10]
