"""Realistic agent-session lines that are not constraints: tool output, chatter, plans and
open subgoals. They compete with constraints for a summarizer's attention; open subgoals
compete hardest (the note's L3 ranked "the open subgoal" above the constraint).

The vocabulary is disjoint from the constraint pools, so filler never mentions a fact's object.
"""

from __future__ import annotations

import re
import string

from sim.history.draws import Draws
from sim.history.filler_forms import SLOTS, TEMPLATES
from sim.types import UnitKind

_SLOTS = SLOTS
_TEMPLATES = TEMPLATES  # (full, short) per kind (sim.history.filler_forms)


# Task salience as a summarizer would judge it: open subgoals high, constraints medium-low
# (as in the note's trace, where "credential rotation deferred" ranked below the open
# subgoal; see simulated.py), tool output lowest.
SALIENCE: dict[UnitKind, float] = {
    UnitKind.HEADER: 0.02,
    UnitKind.TOOL: 0.12,
    UnitKind.CHATTER: 0.2,
    UnitKind.PLAN: 0.35,
    UnitKind.SUBGOAL: 0.9,
    UnitKind.CONSTRAINT: 0.45,
    UnitKind.DISTRACTOR: 0.45,
    UnitKind.REVOCATION: 0.45,
}


# Every slot is drawn for every line, whether its template uses it or not, so the generator's
# stream does not depend on which template came up: the template, an index into each slot's
# values, then five numbers 1..9, all in one `below` (sim.history.draws: numpy's own values without
# a numpy call per draw; this is a sweep's hottest line). The templates are written with named
# slots and filled by position (`_POSITIONAL`, made once here): a list of the drawn values
# formats a line in two thirds of the time a dict takes.
_SLOT_NAMES = tuple(_SLOTS)
_SLOT_VALUES = tuple(_SLOTS.values())
_NUMBER_NAMES = ("n", "n1", "n2", "n3", "n4")
_DIGITS = tuple(map(str, range(1, 10)))  # a number's draw d stands for d + 1
_SLOTS_END = 1 + len(_SLOTS)  # the template's draw, then the slots'


def _positional(template: str) -> str:
    """`template` with each named slot replaced by its index in (slots..., numbers...)."""
    where = {name: i for i, name in enumerate(_SLOT_NAMES + _NUMBER_NAMES)}
    out = []
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            out.append(f"{{{where[field]}}}")
    return "".join(out)


_POSITIONAL: dict[UnitKind, tuple[tuple[str, str], ...]] = {
    kind: tuple((_positional(full), _positional(short)) for full, short in pairs)
    for kind, pairs in _TEMPLATES.items()
}
_SPANS: dict[UnitKind, tuple[int, ...]] = {
    kind: (len(pairs), *map(len, _SLOT_VALUES), *[len(_DIGITS)] * len(_NUMBER_NAMES))
    for kind, pairs in _TEMPLATES.items()
}


def filler_line(kind: UnitKind, draws: Draws) -> tuple[str, str]:
    """One (full, short) line of the given kind with its slots filled."""
    drawn = draws.below(_SPANS[kind])
    full, short = _POSITIONAL[kind][drawn[0]]
    values = [v[d] for v, d in zip(_SLOT_VALUES, drawn[1:_SLOTS_END], strict=True)]
    values += [_DIGITS[d] for d in drawn[_SLOTS_END:]]
    return full.format(*values), short.format(*values)


def filler_forms_pattern() -> re.Pattern[str]:
    """Every full and short filler form as a regular expression, slots as their values and
    digits, matched from a line's start without its closing mark: what a reader that knows the
    generator's phrasing would strip (tests/sim/history/test_template_reader.py)."""
    forms: list[str] = []
    for pairs in _TEMPLATES.values():
        for form in (f for pair in pairs for f in pair):
            parts = []
            for literal, name, _spec, _conv in string.Formatter().parse(form.rstrip(".?!")):
                parts.append(re.escape(literal))
                if name in _SLOTS:
                    parts.append("(?:" + "|".join(map(re.escape, _SLOTS[name])) + ")")
                elif name is not None:
                    parts.append("[1-9]")
            forms.append("".join(parts))
    return re.compile("|".join(sorted(set(forms), key=len, reverse=True)))
