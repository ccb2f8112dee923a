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

from sim.grading.grade import (
    Evidence,
    dropped,
    evidence,
    line_role,
    line_sentences,
    matcher,
    reading_lines,
)
from sim.grading.text import lemma_filter, may_mention
from sim.tokens import Tokenizer
from sim.types import Fact, FactGrade

LineEvidence = tuple[tuple[int, Evidence], ...]  # (index of the fact, evidence), text order


class LineGrader:
    """Grades any subset of a fixed fact list; facts are recognised by identity."""

    __slots__ = (
        "_counter",
        "_dropped",
        "_facts",
        "_index",
        "_lines",
        "_matchers",
        "_raw_topics",
        "_topics",
    )

    def __init__(self, facts: Sequence[Fact], counter: Tokenizer) -> None:
        self._facts = tuple(facts)
        self._matchers = tuple(matcher(f) for f in self._facts)
        self._index = {id(f): i for i, f in enumerate(self._facts)}
        self._dropped = tuple(map(dropped, self._facts))  # immutable: one per fact serves all
        self._counter = counter
        self._lines: dict[str, LineEvidence] = {}
        # Any fact's topic, looked for in one pass: most lines mention none, and are done with
        # at once, most of them before they are even normalized (sim.grading.text.raw_filter says
        # why that is safe). Substring tests, not a regex: compiling one per trial cost more.
        self._topics = tuple(sorted({form for m in self._matchers for form in m.topic_forms}))
        self._raw_topics = lemma_filter(self._topics)

    def knows(self, facts: Sequence[Fact]) -> bool:
        index, own = self._index, self._facts
        return all((i := index.get(id(f))) is not None and own[i] is f for f in facts)

    def _evidence(self, line: str) -> LineEvidence:
        if self._raw_topics is not None and not may_mention(line, self._raw_topics):
            return ()
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
        cache = self._lines
        best: dict[int, Evidence] = {}
        lines = text.split("\n")
        if any(r is not None and r[0] != "header" for r in map(line_role, lines)):
            lines = reading_lines(text)  # a header's bullets or a split rule: read together
        for line, known in zip(lines, map(cache.get, lines), strict=True):
            if known is None:
                if not line:
                    continue
                known = cache[line] = self._evidence(line)
            for k, ev in known:
                held = best.get(k)
                if held is None or ev[0] < held[0]:
                    best[k] = ev
        index, none = self._index, self._dropped
        return tuple(
            won[1] if (won := best.get(k := index[id(f)])) is not None else none[k] for f in facts
        )
