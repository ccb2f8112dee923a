"""`grade_text` for one trial's facts, with each line's evidence found once.

A sweep grades hundreds of texts per trial, and they are made of the same lines: a kept line
is the same string in the call that kept it, at every later level and under every strategy
that kept it too. So the evidence a line holds about each fact (sim.grading.grade.evidence, per
sentence) is found once per trial, and grading a text becomes a lookup per line plus a
comparison per piece of evidence; most lines (tool output, chatter) hold none. The result is
exactly `grade_text`'s: best rank, then the first such sentence in the text
(tests/sim/grading/test_grade_lines.py compares the two on generated texts).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, repeat

from sim.grading import anaphora
from sim.grading.frames import Frame
from sim.grading.grade import (
    ACTIONABLE,
    Evidence,
    Matcher,
    better,
    dropped,
    evidence,
    matcher,
    plan_evidence,
    pointing_back,
    resolved_one,
)
from sim.grading.notation import as_prose
from sim.grading.plans import may_hold_plan, plan_items
from sim.grading.references import stem
from sim.grading.sentences import Unit, line_role, line_sentences, reading_lines
from sim.grading.text import Need, holds, lemma_filter, lemma_needs, raw_key
from sim.tokens import Tokenizer
from sim.types import Fact, FactGrade

LineEvidence = tuple[tuple[int, Evidence], ...]  # (index of the fact, evidence), text order


def _runs(forms: tuple[str, ...]) -> tuple[str, ...] | None:
    """`lemma_filter`'s runs, a form of digits only ("9464") standing for itself."""
    digits = tuple(f.strip() for f in forms if f.strip().isdigit())
    words = lemma_filter(tuple(f for f in forms if not f.strip().isdigit()))
    if words is None and len(digits) < len(forms):
        return None
    return (*(words or ()), *digits)


Checks = tuple[
    tuple[str, ...], tuple[Need, ...], tuple[str, ...], tuple[str, ...], tuple[Need, ...]
]
_CHECKS: dict[int, tuple[Frame, Checks | None]] = {}


def _checks(m: Matcher) -> Checks | None:
    """One fact's raw-line filter (cached per frame): its whole object's quick runs and every
    word, its partial object's, and its partners' runs; None when no filter is safe."""
    cached = _CHECKS.get(id(m.frame))
    if cached is not None and cached[0] is m.frame:
        return cached[1]
    frame = m.frame
    partial_forms = tuple(f for f in m.topic_forms if f not in frame.objects)
    parts = (
        lemma_filter(frame.objects),
        lemma_needs(frame.objects),
        lemma_filter(partial_forms) if partial_forms else (),
        _runs(frame.partners),
        lemma_needs(partial_forms) if partial_forms else (),
    )
    checks: Checks | None = None if any(p is None for p in parts) else parts  # type: ignore[assignment]
    if len(_CHECKS) > 4_096:
        _CHECKS.clear()
    _CHECKS[id(frame)] = (frame, checks)
    return checks


_NAMED, _WHOLE, _POINTS = 1, 2, 4


def _not_kept(ev: Evidence | None) -> bool:
    return ev is None or ev[0] > ACTIONABLE


class LineGrader:
    """Grades any subset of a fixed fact list; facts are recognised by identity."""

    __slots__ = (
        "_checks",
        "_counter",
        "_dropped",
        "_facts",
        "_filtered",
        "_flags",
        "_index",
        "_joiners",
        "_lines",
        "_matchers",
        "_pairs",
        "_pointing",
        "_quick",
        "_say_runs",
        "_topics",
        "_whole_runs",
    )

    def __init__(self, facts: Sequence[Fact], counter: Tokenizer) -> None:
        self._facts = tuple(facts)
        self._matchers = tuple(matcher(f) for f in self._facts)
        self._index = {id(f): i for i, f in enumerate(self._facts)}
        self._dropped = tuple(map(dropped, self._facts))  # immutable: one per fact serves all
        self._counter = counter
        self._lines: dict[str, LineEvidence] = {}
        # Any fact's topic, looked for in one pass: most lines mention none, and are done with
        # at once, most of them before they are even normalized (sim.grading.text.lemma_filter says
        # why that is safe). Substring tests, not a regex: compiling one per trial cost more.
        self._topics = tuple(sorted({form for m in self._matchers for form in m.topic_forms}))
        # A line names a fact's object whole, or a part of it beside one of the same fact's
        # actions, values or settings (sim.grading.frames.has_object): the filter asks the
        # same of the raw line, first by one run per form (in C), then every word of a form.
        checks = [_checks(m) for m in self._matchers]
        self._filtered = all(c is not None for c in checks)
        self._checks = tuple(c for c in checks if c is not None)
        self._quick = tuple(sorted({r for c in self._checks for r in (*c[0], *c[2])}))
        self._joiners: set[str] = set()
        self._flags: dict[str, int] = {}  # the marks of lines that may name a topic
        self._pointing: dict[str, bool] = {}  # lines that hold a pronoun (`_points`)
        self._pairs: dict[tuple[str | None, str], LineEvidence] = {}  # resolved, per line pair
        self._whole_runs = lemma_filter(
            tuple(f for m in self._matchers for f in (*m.frame.objects, *m.frame.modifiers))
        )
        says = [_runs(m.frame.partners) for m in self._matchers]
        self._say_runs: tuple[str, ...] | None = (
            None
            if any(r is None for r in says)
            else tuple(
                sorted(
                    {r for rs in says for r in rs or ()}
                    | {stem(w) for m in self._matchers for w in m.frame.reference_words}
                )
            )
        )

    def knows(self, facts: Sequence[Fact]) -> bool:
        index, own = self._index, self._facts
        return all((i := index.get(id(f))) is not None and own[i] is f for f in facts)

    def _mentions(self, line: str) -> bool:
        key = raw_key(line)
        if not any(map(key.__contains__, self._quick)):
            return False  # no fact's object, whole or in part: most lines, in one C loop
        self._mark(line, key)  # it may name a fact's topic: a pronoun may point back to it
        for quick, whole, partial_quick, partners, partial in self._checks:
            if any(map(key.__contains__, quick)) and holds(key, whole):
                return True
            if (
                any(map(key.__contains__, partial_quick))
                and any(map(key.__contains__, partners))
                and holds(key, partial)
            ):
                return True
        return False

    def _evidence(self, line: str) -> LineEvidence:
        if self._filtered:
            if not self._mentions(line):
                return ()
        elif line.strip():
            self._mark(line, None)
        found = []
        topics = self._topics
        for unit in line_sentences(line):
            lem = unit[2]
            if not any(map(lem.__contains__, topics)):
                continue
            for k, m in enumerate(self._matchers):
                if any(form in lem for form in m.topic_forms):
                    ev = evidence(m.fact, m, unit, self._counter)
                    if ev is not None:
                        found.append((k, ev))
        return tuple(found)

    def grade(self, text: str, facts: Sequence[Fact]) -> tuple[FactGrade, ...]:
        """Every fact of `facts` (all known to this grader) against `text`."""
        if not facts:
            return ()
        # as sim.grading.sentences.Sentences reads a text: config notation as sentences, then
        # a header's bullets or a split rule read together (rare, so done again)
        read = as_prose(text)
        lines = read.split("\n")
        best, joins = self._best(lines)
        if joins:
            lines = reading_lines(read)
            best, _ = self._best(lines)
        index, none = self._index, self._dropped
        ks = [index[id(f)] for f in facts]
        ordering = [k for k in ks if self._matchers[k].frame.ordering and _not_kept(best.get(k))]
        if ordering and may_hold_plan(text):  # an order stated by a plan (sim.grading.plans)
            plans = plan_items(text)
            for k in ordering:
                m = self._matchers[k]
                if found := better(best.get(k), plan_evidence(m.fact, m, plans, self._counter)):
                    best[k] = found
        pending = {k for k in ks if _not_kept(best.get(k))}
        if pending:  # a fact not kept: a sentence may point back to it, read as grade_text does
            extra: dict[int, Evidence] = {}
            for pair in self._pointing_lines(lines):
                for k, ev in self._pair_evidence(pair):
                    if k in pending and ((held := extra.get(k)) is None or ev[0] < held[0]):
                        extra[k] = ev
            for k, ev in extra.items():
                if (held := best.get(k)) is None or ev[0] < held[0]:
                    best[k] = ev
        return tuple(won[1] if (won := best.get(k)) is not None else none[k] for k in ks)

    def _pointing_lines(self, lines: list[str]) -> list[tuple[str | None, str]]:
        """Each line that holds a pronoun and may say something of a fact, with the line before
        it that holds a sentence, where it names a fact's topic or the line before names an
        object in full (sim.grading.grade.pointing_back asks no more of a sentence): in text
        order. A line is marked when its evidence is found (`_mark`), so a text costs two
        passes in C and a step per line that points back or names an object in full."""
        flags = list(map(self._flags.get, lines, repeat(0)))
        n = len(lines)
        found: list[tuple[int, str | None, str]] = []
        for i in compress(range(n), map(_POINTS.__and__, flags)):  # names a topic, points
            back = i - 1
            while back >= 0 and not lines[back].strip():
                back -= 1  # the line with the sentence before (blank ones hold none)
            found.append((i, lines[back] if back >= 0 else None, lines[i]))
        for i in compress(range(n), map(_WHOLE.__and__, flags)):  # names an object in full
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            if j < n and not flags[j] & _NAMED and self._points(lines[j]):
                found.append((j, lines[i], lines[j]))  # a pronoun may stand for that object
        found.sort(key=lambda f: f[0])
        return [(before, line) for _, before, line in found]

    def _mark(self, line: str, key: str | None) -> None:
        """A line that may name a fact's topic (`key`, its raw_key, held a run of one): marked
        `_NAMED`, `_WHOLE` where it may name an object in full or by its modifiers, and
        `_POINTS` where it holds a pronoun and may say something of a fact."""
        runs = self._whole_runs
        whole = runs is None or key is None or any(map(key.__contains__, runs))
        points = self._points(line)
        self._flags[line] = _NAMED | (_WHOLE if whole else 0) | (_POINTS if points else 0)

    def _points(self, line: str) -> bool:
        """Whether a line holds a pronoun and may name some fact's action, value, setting or
        condition (raw runs of their forms), cached per line."""
        known = self._pointing.get(line)
        if known is None:
            runs = self._say_runs
            says = runs is None or any(map(raw_key(line).__contains__, runs))
            known = self._pointing[line] = says and anaphora.first(line) is not None
        return known

    def _pair_evidence(self, pair: tuple[str | None, str]) -> LineEvidence:
        """What a line's pointing sentences say of each fact, resolved (sim.grading.anaphora),
        the line before given: found once per pair of lines, in text order."""
        cached = self._pairs.get(pair)
        if cached is None:
            before_line, line = pair
            last: Unit | None = line_sentences(before_line)[-1] if before_line else None
            found = []
            for unit in line_sentences(line):
                for k, m in enumerate(self._matchers):
                    if pointing_back(m, last, unit):
                        before = " " if last is None else last[2]
                        ev = resolved_one(m.fact, m, before, unit, self._counter)
                        if ev is not None:
                            found.append((k, ev))
                last = unit
            cached = self._pairs[pair] = tuple(found)
        return cached

    def _best(self, lines: list[str]) -> tuple[dict[int, Evidence], bool]:
        """The best evidence per fact over `lines`, and whether a line joins its neighbours."""
        cache = self._lines
        best: dict[int, Evidence] = {}
        for line, known in zip(lines, map(cache.get, lines), strict=True):
            if known is None:
                if not line:
                    continue
                known = cache[line] = self._evidence(line)
                role = line_role(line)
                if role is not None and role[0] != "header":
                    self._joiners.add(line)
            for k, ev in known:
                held = best.get(k)
                if held is None or ev[0] < held[0]:
                    best[k] = ev
        return best, bool(self._joiners) and not self._joiners.isdisjoint(lines)
