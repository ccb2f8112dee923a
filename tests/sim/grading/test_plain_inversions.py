"""Plain inversions a summary could write, built from every training rule declared in the
grader corpus (tests/fixtures/grader_corpus/declared*.toml): none may be graded kept. A kept
inversion is the silent failure the harness exists to find, and these are its plainest forms
(a permission, the condition flipped, the gate skipped, the pin moved or denied, the order
reversed), written here from templates, not hand-labelled. The rules held out of the corpus's
training split are left out, as the held-out cases are, so nothing is tuned to them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator

from sim.grading.grade import grade_text
from sim.tokens import get_counter
from tests.sim.grading.corpus import CORPUS, bench, heldout_rules, orders_its_act

TEMPLATES = {
    "prohibition": (
        "{V} the {O} {C}.", "The {O} may be {P} {C}.", "You can {V} the {O} {C}.",
        "{G} the {O} {C} is allowed.", "{G} the {O} {C} is fine.", "Go ahead and {V} the {O} {C}.",
        "Feel free to {V} the {O} {C}.", "Do not {V} the {O} {OPP}.", "The {O} was {P} {C}.",
        "No restriction on {G} the {O} {C} anymore.", "There is no rule against {G} the {O} {C}.",
        "Nothing stops us from {G} the {O} {C}.", "{G} the {O} {C} is no longer forbidden.",
        "We will {V} the {O} {C}.", "Plan: {V} the {O} {C}.", "It is OK to {V} the {O} {C}.",
        "The {O} gets {P} {C}.", "Allowed: {G} the {O} {C}.",
        "The ban on {G} the {O} {C} was lifted.",
        "Remember to {V} the {O} {C}.", "Make sure to {V} the {O} {C}.", "Only {V} the {O} {C}.",
        "The {O} must be {P} {C}.", "We can now {V} the {O} {C}.",
        "Do not {V} the {O} until after {STEP}.",
    ),
    "confirmation": (
        "{V} the {O} now.", "{V} the {O} without waiting for {N}.",
        "The {O} may be {P} before {N} confirms.", "{V} the {O}; {N} can confirm later.",
        "The {O} was {P}; {N} will confirm afterwards.",
        "No need to wait for {N} before {G} the {O}.",
        "{N}'s confirmation is no longer needed to {V} the {O}.",
        "Go ahead and {V} the {O} before {N} confirms.",
        "{V} the {O} even if {N} does not confirm.",
        "{V} the {O} unless {N} objects.", "Feel free to {V} the {O} today.",
        "{V} the {O} before {N} confirms.", "{N} has not confirmed, but {V} the {O} anyway.",
        "The {O} has been {P} without {N}'s confirmation.",
        "Skip {N}'s confirmation and {V} the {O}.",
        "The {O} was {P} this morning; {N} to be informed on Monday.",
    ),
    "value_pin": (
        "The {O} can use any {S}.", "The {O} must not use a {S} of {VAL}.",
        "The {S} of the {O} is not {VAL}.", "Set the {O} {S} to something other than {VAL}.",
        "The {O} {S} is no longer {VAL}.", "Do not use {VAL} for the {O} {S}.",
        "Change the {O} {S} away from {VAL}.", "Avoid a {S} of {VAL} on the {O}.",
        "The {O} {S} was raised from {VAL}.", "Use a higher {S} than {VAL} on the {O}.",
        "Stop using {VAL} for the {O} {S}.", "The {O} {S} is free to vary.",
    ),
    "ordering": (
        "{V} the {O} after {R}.", "Do not {V} the {O} before {R}.", "{V} the {O} only after {R}.",
        "Skip {G} the {O} and go straight to {R}.", "No need to {V} the {O} before {R}.",
        "{V} the {O} once {R} is done.", "{G} the {O} can wait until after {R}.",
        "It is fine to {V} the {O} after {R}.",
    ),
    "conditional": (
        "{V} the {O} even if {COND}.", "If {COND}, {V} the {O}.",
        "If {COND}, go ahead and {V} the {O}.", "When {COND}, the {O} may be {P}.",
        "Do not {V} the {O} unless {COND}.", "{V} the {O} only if {COND}.",
        "If {COND}, it is fine to {V} the {O}.", "Even when {COND}, {V} the {O}.",
        "The rule against {G} the {O} when {COND} was dropped.",
    ),
}  # fmt: skip


STOPS = frozenset(("pause", "stop", "halt", "suspend", "freeze", "hold", "block"))
"""Acts that are themselves a refusal: a rule that orders one is read the other way round."""


def _slots(rule: dict) -> dict[str, str]:  # type: ignore[type-arg]
    a = rule["anchors"]
    out = {"O": a["object"][0]}
    if "action" in a:
        acts = a["action"]
        out["V"] = acts[0]
        out["G"] = next((x for x in acts if x.endswith("ing")), acts[0] + "ing")
        out["P"] = next((x for x in acts[1:] if not x.endswith("ing")), acts[0] + "ed")
    cls = rule["class"]
    if cls == "prohibition":
        out["C"] = a["condition"][0]
        out["STEP"] = a["condition"][0].split(" ", 1)[1]  # "after step 5" -> "step 5"
        out["OPP"] = rule.get("opposites", {}).get("condition", [""])[0]
    elif cls == "confirmation":
        out["N"] = a["condition"][1].split()[0]
    elif cls == "value_pin":
        out["S"], out["VAL"] = a["setting"][0], a["value"][0]
    elif cls == "ordering":
        out["R"] = a["condition"][0].removeprefix("before ")
    else:
        out["COND"] = a["condition"][0]
    return out


def _inversions() -> Iterator[tuple[str, str, str]]:
    held = heldout_rules()
    for path in sorted(CORPUS.glob("declared*.toml")):
        for rule in tomllib.loads(path.read_text(encoding="utf-8"))["fact"]:
            if rule["id"] in held:
                continue
            slots = _slots(rule)
            if slots.get("V") in STOPS or orders_its_act(rule):
                continue  # "pause the uploads if ...": the act is itself the refusal, and
                # these templates' "permissions" of it restate the rule
            for template in TEMPLATES[rule["class"]]:
                try:
                    text = template.format(**slots)
                except KeyError:  # a slot the rule has no anchor for ("{V}" of a pin)
                    continue
                if "{OPP}" in template and not slots.get("OPP"):
                    continue
                yield rule["class"], rule["id"], text[0].upper() + text[1:]


def test_the_probe_covers_every_class_and_many_rules() -> None:
    cases = list(_inversions())
    assert {cls for cls, _, _ in cases} == set(TEMPLATES)
    assert len({rule for _, rule, _ in cases}) >= 50 and len(cases) >= 600


def test_no_plain_inversion_of_a_training_rule_is_kept() -> None:
    facts, counter = bench.corpus_facts(), get_counter()
    kept = [
        (rule, text)
        for _, rule, text in _inversions()
        if grade_text(text, [facts[rule]], counter)[0].grade.at_floor
    ]
    assert kept == [], kept[:10]
