"""The text-only fact grader: what a level's text still says about each planted fact.

It reads nothing but the text and the fact's declared anchors, never the simulator's choices,
so it grades a real model's output exactly as it grades the simulated one. Anchors must
co-occur in one sentence with the fact's polarity: a sentence that keeps every word of a rule
but flips it ("you may now rotate the credential") is `inverted`, the worst grade, not a pass.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from sim.grading.text import normalize, split_sentences
from sim.tokens import Tokenizer
from sim.types import Fact, FactGrade, Grade, Polarity

# A permission cue lifts a restriction even when a negation word is present ("no need to wait").
_PERMIT = re.compile(
    r"\b(?:you may|may now|can now|no longer|no need|go ahead|allowed|is fine to|ok to|okay to"
    r"|free to|lifted|unpinned|regardless|even if|whenever needed)\b"
)
_FORBID = re.compile(
    r"\b(?:not|never|no|avoid|defer|deferred|deferring|postpone|postponed|hold off|on hold|held"
    r"|wait|waiting|until|only after|only once|only if|blocked|forbidden|prohibited|without"
    r"|pending|refrain|must wait)\b"
    # "only delete the old backups after the user says yes": a gate, split by the action
    r"|\bonly(?: \S+){1,8}? (?:after|once|if|when)\b"
)
# A negated permission is a restriction ("not allowed", "you may not"): it must not count as
# a permission cue; the negation itself is still seen by _FORBID.
_NEGATED_PERMIT = re.compile(
    r"\b(?:(?:not|never|no longer) (?:allowed|ok to|okay to|free to)"
    r"|may (?:not|never|no longer))\b"
)


# Skipping the gate is a permission ("delete the backups without waiting for a yes"), unless a
# negation governs it, which makes a double negative: "do not delete them without asking".
_WAIVE = re.compile(r"\bwithout (?:waiting|asking|checking|confirming|confirmation|approval)\b")
_NEGATION = re.compile(r"\b(?:not|never|no)\b")


@lru_cache(maxsize=50_000)  # a kept sentence is graded again at every level and strategy
def sentence_polarity(normalized: str) -> Polarity:
    """A polarity class, so "must never" = "do not" = "no X" = "X deferred"."""
    if _WAIVE.search(normalized):
        return Polarity.FORBID if _NEGATION.search(normalized) else Polarity.REQUIRE
    if _PERMIT.search(_NEGATED_PERMIT.sub(" ", normalized)):
        return Polarity.REQUIRE
    if _FORBID.search(normalized):
        return Polarity.FORBID
    return Polarity.REQUIRE


@dataclass(frozen=True, slots=True)
class Matcher:
    """A fact's anchors, normalized once (grading is on a sweep's hot path)."""

    fact: Fact
    verbatim: str
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    opposites: tuple[str, ...]
    topic_forms: tuple[str, ...]

    @classmethod
    def of(cls, fact: Fact) -> Matcher:
        groups = tuple((g.role, tuple(normalize(f) for f in g.forms)) for g in fact.anchors)
        opposites = tuple(normalize(o) for g in fact.anchors for o in g.opposites)
        topic = tuple(normalize(f) for f in fact.topic.forms)
        return cls(fact, normalize(fact.text), groups, opposites, topic)


# Keyed by identity: hashing a frozen Fact hashes every anchor form, on every call.
_MATCHERS: dict[int, Matcher] = {}


def matcher(fact: Fact) -> Matcher:
    m = _MATCHERS.get(id(fact))
    if m is None or m.fact is not fact:
        if len(_MATCHERS) > 4_096:  # a trial's facts; bounded so old ones are released
            _MATCHERS.clear()
        m = Matcher.of(fact)
        _MATCHERS[id(fact)] = m
    return m


_LINE_SENTENCES: dict[str, tuple[tuple[str, str], ...]] = {}
_MAX_LINE_SENTENCES = 32_768  # filled within the first few thousand trials of any sweep, so a
# sweep's peak memory does not depend on how many trials it runs (benchmarks/perf.py --memory)


def line_sentences(line: str) -> tuple[tuple[str, str], ...]:
    """A line's sentences, raw and normalized. Lines recur across levels and strategies
    (a kept line is the same string at every level), so this is cached per line."""
    cached = _LINE_SENTENCES.get(line)
    if cached is None:
        if len(_LINE_SENTENCES) >= _MAX_LINE_SENTENCES:
            _LINE_SENTENCES.clear()
        cached = tuple((raw, normalize(raw)) for raw in split_sentences(line))
        _LINE_SENTENCES[line] = cached
    return cached


class Sentences:
    """A level's text split and normalized once, shared by every fact graded against it."""

    __slots__ = ("joined", "pairs", "starts")

    def __init__(self, text: str) -> None:
        self.pairs = [p for line in text.split("\n") if line for p in line_sentences(line)]
        # All normalized sentences in one string, with each one's offset: a fact's topic is
        # located by str.find in C instead of testing every sentence in Python.
        norms = [norm for _, norm in self.pairs]
        self.joined = "".join(norms)
        self.starts = list(accumulate(map(len, norms), initial=0))

    def mentioning(self, forms: tuple[str, ...]) -> list[int]:
        """Indices, in text order, of the sentences that contain any of `forms`."""
        found: set[int] = set()
        joined, starts = self.joined, self.starts
        for form in forms:
            pos = joined.find(form)
            while pos >= 0:
                i = bisect_right(starts, pos) - 1
                found.add(i)
                pos = joined.find(form, starts[i + 1])
        return sorted(found)


# Evidence ranks, best first: one sentence is one piece of evidence of one rank.
VERBATIM, ACTIONABLE, INVERTED, DEGRADED = range(4)
Evidence = tuple[int, FactGrade]


def evidence(fact: Fact, m: Matcher, raw: str, norm: str, counter: Tokenizer) -> Evidence | None:
    """What one sentence that mentions the fact's topic says of it, if anything."""
    required = fact.floor.required
    present = {role for role, forms in m.groups if any(f in norm for f in forms)}
    missing = tuple(r for r in required if r not in present)
    flipped = sentence_polarity(norm) is not fact.polarity or any(o in norm for o in m.opposites)
    if not missing and not flipped:
        span = counter.count(raw)
        if span < fact.floor.min_span_tokens:
            return DEGRADED, FactGrade(fact.fact_id, Grade.DEGRADED, span, ("span",), raw)
        if m.verbatim.strip() in norm:
            return VERBATIM, FactGrade(fact.fact_id, Grade.VERBATIM, span, (), raw)
        return ACTIONABLE, FactGrade(fact.fact_id, Grade.ACTIONABLE, span, (), raw)
    # every anchor the floor needs, with the polarity flipped, is the rule inverted even
    # when the class's floor does not need a verb ("avoid eu-west-1 for new buckets")
    if flipped and ("action" in present or not missing):
        return INVERTED, FactGrade(
            fact.fact_id, Grade.INVERTED, counter.count(raw), ("polarity",), raw
        )
    if len(present) >= 2:
        return DEGRADED, FactGrade(fact.fact_id, Grade.DEGRADED, counter.count(raw), missing, raw)
    return None


def dropped(fact: Fact) -> FactGrade:
    return FactGrade(fact.fact_id, Grade.DROPPED, 0, fact.floor.required, "")


def grade_fact(fact: Fact, sentences: Sentences, counter: Tokenizer) -> FactGrade:
    """Best evidence wins: verbatim beats actionable beats inverted beats degraded beats
    dropped; between equals, the first sentence in the text."""
    m = matcher(fact)
    best: Evidence | None = None
    for index in sentences.mentioning(m.topic_forms):
        found = evidence(fact, m, *sentences.pairs[index], counter)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
            if best[0] == VERBATIM:
                break
    return best[1] if best is not None else dropped(fact)


def grade_text(text: str, facts: Iterable[Fact], counter: Tokenizer) -> tuple[FactGrade, ...]:
    """Grade every fact against one level's text."""
    facts = tuple(facts)
    if not facts:  # a gate with nothing to guard in this call: no need to read the text
        return ()
    sentences = Sentences(text)
    return tuple(grade_fact(f, sentences, counter) for f in facts)


def at_floor(grades: Sequence[FactGrade]) -> set[str]:
    return {g.fact_id for g in grades if g.grade.at_floor}
