"""Constraint classes: how each kind of task-critical rule is written, paraphrased, abstracted
and inverted, and which anchors its recall floor needs.

Each class draws slot values (verb, object, step, value, ...) from a pool, so one history holds
many distinct facts. Anchor forms are written once here; the grader normalizes them the same way
it normalizes text (sim.grading.text), so "don't" / "do not" and "four" / "4" need no extra forms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.history.constraint_pools import (
    ACTION_SYNONYMS,
    CONDITIONAL,
    CONFIRM_FORMS,
    CONFIRM_MORE,
    CONFIRMATION,
    OBJECT_FORMS,
    ORDERING,
    OTHER_OBJECTS,
    PROHIBITION,
    VALUE_PIN,
)
from sim.types import AnchorGroup, Fact, Polarity, RecallFloor


@dataclass(frozen=True, slots=True)
class PlantedText:
    """A fact plus the renderings the simulated summarizer may emit for it."""

    fact: Fact
    renderings: tuple[str, str, str]  # verbatim, compressed (anchors kept), abstracted
    inverted: str
    revocation: tuple[str, str]  # used when the fact is superseded later in the history


@dataclass(frozen=True, slots=True)
class Near:
    """A near-miss sentence: shares an anchor with some fact but states something else."""

    renderings: tuple[str, str]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _pick(rng: np.random.Generator, seq: tuple[str, ...]) -> str:
    return seq[int(rng.integers(len(seq)))]


def _past(verb: str) -> str:
    return verb + "d" if verb.endswith("e") else verb + "ed"


def _prohibition(
    i: int, rng: np.random.Generator, fact_id: str, step: int | None = None, phrasing: int = -1
) -> PlantedText:
    v, g, n, o, o_pl = PROHIBITION[i]
    step = int(rng.integers(2, 10)) if step is None else step
    phrasings = (
        f"Do not {v} the {o} after step {step}.",
        f"Never {v} the {o} after step {step}.",
        f"Please don't {v} the {o} once step {step} is done.",
    )
    text = _pick(rng, phrasings) if phrasing < 0 else phrasings[phrasing]
    anchors = (
        AnchorGroup("action", (v, g, n, _past(v), *ACTION_SYNONYMS.get(v, ()))),
        AnchorGroup("object", (o, o_pl, *OBJECT_FORMS.get(o, ()))),
        AnchorGroup(
            "condition",
            (
                f"after step {step}",
                f"past step {step}",
                f"beyond step {step}",
                f"once step {step} is done",
                f"once step {step} is complete",
                f"from step {step + 1} on",
                f"later than step {step}",
            ),
            (f"before step {step}", f"at step {step}", f"by step {step}"),
        ),
    )
    fact = Fact(
        fact_id,
        "prohibition",
        text,
        anchors,
        Polarity.FORBID,
        RecallFloor(("action", "object", "condition"), 4),
    )
    return PlantedText(
        fact,
        (text, f"No {o} {n} after step {step}.", f"{_cap(o)} {n} deferred."),
        f"{_cap(v)} the {o} at step {step}.",
        (
            f"Update: the hold on {n} of the {o} is lifted; you may {v} it whenever needed.",
            f"{_cap(o)} {n} allowed again.",
        ),
    )


def _ordering(i: int, rng: np.random.Generator, fact_id: str) -> PlantedText:
    v, g, o, later_g, later_n = ORDERING[i]
    text = _pick(
        rng,
        (
            f"{_cap(v)} the {o} before {later_g}.",
            f"Always {v} the {o} before {later_g}.",
            f"Make sure to {v} the {o} before {later_g}.",
        ),
    )
    anchors = (
        AnchorGroup("action", (v, g, *ACTION_SYNONYMS.get(v, ()))),
        AnchorGroup("object", (o, *OBJECT_FORMS.get(o, ()))),
        AnchorGroup(
            "condition",
            (
                f"before {later_g}",
                f"before {later_n}",
                f"prior to {later_g}",
                f"prior to {later_n}",
                f"ahead of {later_n}",
            ),
            (f"after {later_g}", f"after {later_n}"),
        ),
    )
    fact = Fact(
        fact_id,
        "ordering",
        text,
        anchors,
        Polarity.REQUIRE,
        RecallFloor(("action", "object", "condition"), 4),
    )
    return PlantedText(
        fact,
        (text, f"{_cap(v)} {o} before {later_n}.", f"{_cap(o)} to {v} first."),
        f"{_cap(v)} the {o} after {later_g}.",
        (
            f"Update: the order no longer matters; {v} the {o} whenever convenient.",
            f"{_cap(o)} order no longer matters.",
        ),
    )


def _value_pin(i: int, rng: np.random.Generator, fact_id: str) -> PlantedText:
    setting, o, value = VALUE_PIN[i]
    text = _pick(
        rng,
        (
            f"Use {setting} {value} for {o}.",
            f"Set the {setting} to {value} for {o}.",
            f"{_cap(o)} must use {setting} {value}.",
        ),
    )
    anchors = (
        AnchorGroup("action", ("use", "using", "set", "setting", *ACTION_SYNONYMS["use"])),
        AnchorGroup("object", (o, *OBJECT_FORMS.get(o, ()))),
        AnchorGroup("value", (value,)),
        AnchorGroup("setting", (setting,)),
    )
    fact = Fact(
        fact_id, "value_pin", text, anchors, Polarity.REQUIRE, RecallFloor(("object", "value"), 3)
    )
    return PlantedText(
        fact,
        (text, f"{_cap(o)}: {setting} {value}.", f"{_cap(o)} {setting} is pinned."),
        f"Do not use {setting} {value} for {o}.",
        (f"Update: {o} may use any {setting} now.", f"{_cap(o)} {setting} unpinned."),
    )


def _conditional(i: int, rng: np.random.Generator, fact_id: str) -> PlantedText:
    cond, forms, v, g, n, o = CONDITIONAL[i]
    text = _pick(
        rng,
        (
            f"If {cond}, do not {v} the {o}.",
            f"Do not {v} the {o} if {cond}.",
            f"If {cond}, never {v} the {o}.",
        ),
    )
    anchors = (
        AnchorGroup("action", (v, g, n, _past(v), *ACTION_SYNONYMS.get(v, ()))),
        AnchorGroup("object", (o, *OBJECT_FORMS.get(o, ()))),
        AnchorGroup("condition", forms),
    )
    fact = Fact(
        fact_id,
        "conditional",
        text,
        anchors,
        Polarity.FORBID,
        RecallFloor(("action", "object", "condition"), 4),
    )
    return PlantedText(
        fact,
        (text, f"No {o} {n} if {cond.removeprefix('the ')}.", f"{_cap(o)} {n} on hold."),
        f"{_cap(v)} the {o} even if {cond}.",
        (
            f"Update: you may {v} the {o} regardless of test results now.",
            f"{_cap(o)} {n} allowed again.",
        ),
    )


def _confirmation(i: int, rng: np.random.Generator, fact_id: str) -> PlantedText:
    v, g, n, o = CONFIRMATION[i]
    text = _pick(
        rng,
        (
            f"Wait for the user's yes before {g} the {o}.",
            f"Do not {v} the {o} until the user confirms.",
            f"Only {v} the {o} after the user says yes.",
        ),
    )
    anchors = (
        AnchorGroup("action", (v, g, n, _past(v), *ACTION_SYNONYMS.get(v, ()))),
        AnchorGroup("object", (o, *OBJECT_FORMS.get(o, ()))),
        AnchorGroup("condition", CONFIRM_FORMS + CONFIRM_MORE),
    )
    fact = Fact(
        fact_id,
        "confirmation",
        text,
        anchors,
        Polarity.FORBID,
        RecallFloor(("action", "object", "condition"), 4),
    )
    return PlantedText(
        fact,
        (text, f"{_cap(o)} {n} only after user's yes.", f"{_cap(o)} {n} pending."),
        f"Go ahead and {v} the {o}.",
        (
            f"Update: no need to ask first; you may {v} the {o} now.",
            f"{_cap(o)} {n} allowed again.",
        ),
    )


Builder = Callable[[int, np.random.Generator, str], PlantedText]

CLASSES: dict[str, tuple[Builder, int]] = {
    "prohibition": (_prohibition, len(PROHIBITION)),
    "ordering": (_ordering, len(ORDERING)),
    "value_pin": (_value_pin, len(VALUE_PIN)),
    "conditional": (_conditional, len(CONDITIONAL)),
    "confirmation": (_confirmation, len(CONFIRMATION)),
}


_OBJECT_COLUMN = {
    "prohibition": 3,
    "ordering": 2,
    "value_pin": 1,
    "conditional": 5,
    "confirmation": 3,
}
_POOLS: dict[str, tuple[tuple[object, ...], ...]] = {
    "prohibition": PROHIBITION, "ordering": ORDERING, "value_pin": VALUE_PIN,
    "conditional": CONDITIONAL, "confirmation": CONFIRMATION,
}  # fmt: skip


def variant_object(cls: str, variant: int) -> str:
    """The object a variant is about, without building it (and drawing from a generator)."""
    return str(_POOLS[cls][variant % len(_POOLS[cls])][_OBJECT_COLUMN[cls]])


def build_fact(cls: str, variant: int, rng: np.random.Generator, fact_id: str) -> PlantedText:
    """The `variant`-th slot set of a class (distinct variants never share an object)."""
    builder, size = CLASSES[cls]
    return builder(variant % size, rng, fact_id)


def prohibition_for(verb: str, obj: str, step: int, fact_id: str) -> PlantedText:
    """A prohibition with chosen slots (the note's "do not rotate the credential after step 4")."""
    for i, row in enumerate(PROHIBITION):
        if row[0] == verb and row[3] == obj:
            return _prohibition(i, np.random.default_rng(0), fact_id, step=step, phrasing=0)
    raise KeyError(f"no prohibition template for verb={verb!r} object={obj!r}")


def near_miss(rng: np.random.Generator, planted: PlantedText) -> Near:
    """A sentence that shares the fact's action and condition but names another object,
    or names the fact's object with an unrelated action: a substring grader's trap."""
    other = _pick(rng, OTHER_OBJECTS)
    fact = planted.fact
    action = next((g.forms[0] for g in fact.anchors if g.role == "action"), None)
    topic = fact.topic.forms[0]
    # a custom fact may have no action group: then only the object-based near miss fits
    if rng.random() < 0.5 and action is not None:
        cond = next((g.forms[0] for g in fact.anchors if g.role == "condition"), "later")
        return Near((f"Do not {action} the {other} {cond}.", f"{_cap(other)} on hold."))
    return Near(
        (f"The {topic} status was checked earlier and looked fine.", f"{_cap(topic)} status fine.")
    )
