"""Realistic agent-session lines that are not constraints: tool output, chatter, plans and
open subgoals. They compete with constraints for a summarizer's attention; open subgoals
compete hardest (the note's L3 ranked "the open subgoal" above the constraint).

The vocabulary is disjoint from the constraint pools, so filler never mentions a fact's object.
"""

from __future__ import annotations

import string

from sim.history.draws import Draws
from sim.types import UnitKind

_SLOTS: dict[str, tuple[str, ...]] = {
    "res": ("orders", "invoices", "customers", "shipments", "products", "reviews", "coupons"),
    "mod": ("test_orders", "test_auth", "test_cart", "test_search", "test_export", "test_tax"),
    "svc": ("checkout", "inventory", "notifier", "gateway", "scheduler", "pricing"),
    "pkg": ("shop-core", "shop-web", "shop-api", "shop-jobs"),
    "sym": ("parse_total", "build_query", "format_price", "load_user", "apply_discount"),
    "col": ("discount_code", "shipped_at", "tax_rate", "locale", "currency_code"),
    "day": ("Monday", "Tuesday", "Thursday", "Friday"),
}

# (full, short) per kind; {name} slots are filled from _SLOTS, {n} with a small number.
_TEMPLATES: dict[UnitKind, tuple[tuple[str, str], ...]] = {
    UnitKind.TOOL: (
        (
            "$ pytest tests/{mod}.py -q: {n} passed, {n2} skipped in {n3}.{n4}s",
            "Tests in {mod} passed.",
        ),
        (
            "grep found {n} matches for '{sym}' across {n2} files in src/{pkg}.",
            "Found {sym} usages.",
        ),
        (
            "HTTP 200 from GET /api/{res}?page={n} in {n3}{n4} ms, {n2} items returned.",
            "GET /api/{res} ok.",
        ),
        (
            "Build finished: {n}{n2} modules, {n3} warnings, artifact {pkg}-1.{n4}.tar.gz.",
            "Build ok.",
        ),
        (
            "git diff --stat: {n} files changed, {n2}{n3} insertions(+), {n4} deletions(-).",
            "Diff: {n} files.",
        ),
        (
            "ruff: {n} issues in src/{pkg}/{sym}.py (unused import, line too long).",
            "Lint issues in {sym}.",
        ),
        (
            "Container {svc}-{n} healthy after {n2}s; memory {n3}{n4}0 MiB of 2048 MiB.",
            "{svc} healthy.",
        ),
        (
            "EXPLAIN: index scan on idx_{res}_{col}, estimated cost {n}{n2}.{n3}, rows {n4}{n}0.",
            "Query uses an index.",
        ),
        (
            "Log tail: {n}{n2} lines, last entry 'GET /{res} status=200 duration={n3}ms'.",
            "Logs clean.",
        ),
        (
            "Traceback (most recent call last): File 'src/{pkg}/{sym}.py', line {n}{n2}, "
            "KeyError: '{col}'",
            "KeyError on {col}.",
        ),
    ),
    UnitKind.CHATTER: (
        ("Thanks, that looks good so far.", "Looks good."),
        ("I pushed a small fix to {pkg} earlier, pull before you continue.", "Pull {pkg}."),
        ("The design review is on {day}, so keep the diff readable.", "Review on {day}."),
        ("Can you explain why {sym} was written that way?", "Question on {sym}."),
        ("Nice, the {res} page feels faster already.", "{res} page faster."),
        ("I am in meetings until noon, keep going on your own.", "User away."),
    ),
    UnitKind.PLAN: (
        (
            "Next I will update the {res} handler and rerun the {mod} tests.",
            "Update {res} handler.",
        ),
        ("I will move {sym} into a helper so the {res} view can reuse it.", "Refactor {sym}."),
        (
            "Plan: add the {col} column to the {res} model, then backfill the existing rows.",
            "Add {col} column.",
        ),
        (
            "I will add a regression test for the {col} bug before touching {sym}.",
            "Test {col} bug.",
        ),
        ("Then I will profile the {svc} endpoint because p95 latency doubled.", "Profile {svc}."),
        ("After that I will clean up the {pkg} imports and update the changelog.", "Clean {pkg}."),
    ),
    UnitKind.SUBGOAL: (
        (
            "Open task: finish the CSV export for {res} before the {day} demo.",
            "Open: {res} CSV export.",
        ),
        ("Still open: pagination for the /api/{res} endpoint.", "Open: {res} pagination."),
        ("Remaining work: make the {res} search case-insensitive.", "Open: {res} search."),
        ("Todo: add retry with backoff to the {svc} client.", "Open: {svc} retries."),
        ("Outstanding: fix the flaky {mod} test that times out in CI.", "Open: flaky {mod}."),
        ("Open task: show {col} on the {res} detail page.", "Open: {col} on {res} page."),
    ),
}

# Task salience as a summarizer would judge it (DESIGN.md §5): open subgoals high,
# constraints medium-low (see simulated.py), tool output lowest.
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
