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

import re
from collections.abc import Callable, Sequence
from functools import lru_cache, reduce
from itertools import compress, filterfalse, repeat
from operator import or_

from sim.grading import anaphora
from sim.grading.allusions import cautions, may_caution, names_topic
from sim.grading.clauses import may_revise
from sim.grading.frames import Frame
from sim.grading.grade import (
    ACTIONABLE,
    CARE_START,
    INVERTED,
    LIGHT_VERBS,
    OPENERS,
    PASSIVE_AUX,
    REVISION_LABEL,
    Evidence,
    Matcher,
    allusion,
    better,
    care_order,
    dropped,
    evidence,
    matcher,
    plan_evidence,
    pointing_back,
    resolved_one,
    revised,
)
from sim.grading.notation import as_prose
from sim.grading.patterns import any_of
from sim.grading.plans import may_hold_plan, plan_items
from sim.grading.references import stem
from sim.grading.sentences import (
    Unit,
    line_role,
    line_sentences,
    plain_role,
    reading_lines,
    section_title,
    title,
)
from sim.grading.text import Need, holds, lemma_filter, lemma_needs, raw_key, word_runs
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


@lru_cache(maxsize=4_096)  # a sweep asks for the same facts' runs in trial after trial
def _opening(runs: tuple[str, ...] | None) -> Callable[[str], object] | None:
    """A search for `runs` where no letter stands before one (None: no filter is safe). The
    runs are all a word's (sim.grading.text.word_runs): one that another holds inside it
    ("run" in "truncat") does not open the word the other does."""
    return None if runs is None else re.compile(any_of(runs, opening=True)).search


Checks = tuple[
    tuple[str, ...],
    tuple[Need, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[Need, ...],
    tuple[str, ...],
]
_CHECKS: dict[int, tuple[Frame, Checks | None]] = {}


def _label_runs(words: tuple[str, ...]) -> tuple[str, ...]:
    """Raw runs one of which a label holds whenever it may hold one of `words` (lemma space):
    a number as itself; ("",) (every label) where a word has no run."""
    runs: list[str] = []
    for word in words:
        found = (word,) if word.isdigit() else lemma_filter((f" {word} ",))
        if found is None:
            return ("",)
        runs.extend(found)
    return tuple(dict.fromkeys(runs))


def _checks(m: Matcher) -> Checks | None:
    """One fact's raw-line filter (cached per frame): its whole object's quick runs and every
    word, its partial object's, and its partners' runs; None when no filter is safe."""
    cached = _CHECKS.get(id(m.frame))
    if cached is not None and cached[0] is m.frame:
        return cached[1]
    frame = m.frame
    partial_forms = tuple(f for f in m.topic_forms if f not in frame.objects)
    label_forms = (*frame.objects, *frame.modifiers)
    parts = (
        lemma_filter(frame.objects),
        lemma_needs(frame.objects),
        lemma_filter(partial_forms) if partial_forms else (),
        _runs(frame.partners),
        lemma_needs(partial_forms) if partial_forms else (),
        # a label made of the object's words ("SRE agent: suggest-only mode", grade.evidence
        # reads what follows it as said of the object): any one of them
        _label_runs(tuple(dict.fromkeys(w for o in label_forms for w in o.split()))),
    )
    checks: Checks | None = None if any(p is None for p in parts) else parts  # type: ignore[assignment]
    if len(_CHECKS) > 4_096:
        _CHECKS.clear()
    _CHECKS[id(frame)] = (frame, checks)
    return checks


# A line's marks, found with its evidence: it may name a fact's topic (_NAMED), an object in
# full (_WHOLE), hold a pronoun that may say something of a fact (_POINTS, or _POINTER where
# it names no topic; a line that leaves the object out is looked for after one that names it
# in full, or in it); it finishes the line before (_FINISHES), is a header that lends its
# bullets a cue (_CUE), a bullet (_BULLET), an indented one (_SUB_BULLET); it may open a plan
# (_PLAN). A text's marks are its lines' marks or-ed together, so the passes each of them
# asks for run only on the texts that need them: without a line that finishes another, a
# sub-bullet or a cue over a bullet, sim.grading.sentences.reading_lines changes no line.
_NAMED, _WHOLE, _POINTS, _POINTER, _PLAN = 1, 2, 4, 8, 16
_FINISHES, _CUE, _BULLET, _SUB_BULLET = 32, 64, 128, 256
_PRONOUN = 512  # a pronoun, whatever it may stand for (sim.grading.anaphora.first)
_CAUTIOUS = 1024  # it may hold a caution (sim.grading.allusions.may_caution)
_CUE_PRONOUN = 2048  # its first sentence holds a pronoun and a caution
_SECTION = 4096  # a markdown header that titles the plain lines under it
_REVISING = 8192  # it may revise the line before it (sim.grading.clauses.may_revise)
_POINTING = _POINTS | _POINTER


def _not_kept(ev: Evidence | None) -> bool:
    return ev is None or ev[0] > ACTIONABLE


class LineGrader:
    """Grades any subset of a fixed fact list; facts are recognised by identity."""

    __slots__ = (
        "_act_firsts",
        "_allusion_runs",
        "_checks",
        "_counter",
        "_cued",
        "_dropped",
        "_elliptic",
        "_facts",
        "_filtered",
        "_flags",
        "_index",
        "_lines",
        "_marks",
        "_matchers",
        "_named_by",
        "_object_runs",
        "_pairs",
        "_pointing",
        "_quick",
        "_say_runs",
        "_topics",
        "_whole_by",
        "_whole_runs",
    )

    def __init__(self, facts: Sequence[Fact], counter: Tokenizer) -> None:
        self._facts = tuple(facts)
        self._matchers = tuple(matcher(f) for f in self._facts)
        self._index = {id(f): i for i, f in enumerate(self._facts)}
        self._dropped = tuple(map(dropped, self._facts))  # immutable: one per fact serves all
        self._counter = counter
        self._lines: dict[str, LineEvidence] = {"": ()}
        self._marks: dict[str, int] = {"": 0}
        # a fact no sentence names may be alluded to by its topic's words (sim.grading.allusions):
        # per line, the facts whose words it may hold (a bit each), so a text where none of a
        # dropped fact's words occurs is done with by one lookup per line
        # (a topic's words are whole words in lemma space: a run opens the raw word it came from)
        self._allusion_runs = tuple(
            _opening(word_runs(tuple(w.strip() for w in m.allusion_runs))) for m in self._matchers
        )
        self._named_by: dict[str, int] = {"": 0}
        self._cued: dict[str, int] = {"": 0}  # per line, `_topic_bits` where it holds a cue
        # Any fact's topic, looked for in one pass: most lines mention none, and are done with
        # at once, most of them before they are even normalized (sim.grading.text.lemma_filter says
        # why that is safe).
        self._topics = tuple(sorted({form for m in self._matchers for form in m.topic_forms}))
        # A line names a fact's object whole, or a part of it beside one of the same fact's
        # actions, values or settings (sim.grading.frames.has_object): the filter asks the
        # same of the raw line, first by one run per form (in C), then every word of a form.
        checks = [_checks(m) for m in self._matchers]
        self._filtered = all(c is not None for c in checks)
        self._checks = tuple(c for c in checks if c is not None)
        # one alternation in C: twice as fast as a substring test per run, once per trial
        quick = sorted({r for c in self._checks for r in (*c[0], *c[2])})
        self._quick = re.compile("|".join(map(re.escape, quick)) if quick else "(?!)").search
        self._flags: dict[str, int] = {}  # the marks of lines that may name a topic
        self._pointing: dict[str, bool] = {}  # lines that hold a pronoun (`_points`)
        # a line that leaves an object out (sim.grading.grade.elliptic), per fact
        self._elliptic: dict[str, int] = {}
        self._whole_by: dict[str, int] = {}
        self._act_firsts = tuple(
            word_runs(
                tuple(w for a in m.frame.actions if (w := a.split()[0]) not in LIGHT_VERBS)
                + tuple(st.split()[0] for st in m.frame.settings)  # "Dropout: 0.1, fixed"
            )
            for m in self._matchers
        )
        self._object_runs = tuple(
            lemma_filter((*m.frame.objects, *m.frame.modifiers)) for m in self._matchers
        )
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

    def _mentions(self, line: str, key: str) -> bool:
        if self._quick(key) is None:
            return False  # no fact's object, whole or in part: most lines, in one C loop
        self._mark(line, key)  # it may name a fact's topic: a pronoun may point back to it
        colon = key.find(":", 0, 48)
        label = key[:colon] if colon >= 0 else ""  # "billing: avoid churn" (grade.evidence)
        for quick, whole, partial_quick, partners, partial, labels in self._checks:
            if any(map(key.__contains__, quick)) and holds(key, whole):
                return True
            if label and any(map(label.__contains__, labels)):
                return True
            if (
                any(map(key.__contains__, partial_quick))
                and any(map(key.__contains__, partners))
                and holds(key, partial)
            ):
                return True
        return False

    def _evidence(self, line: str, key: str) -> LineEvidence:
        if self._filtered:
            if not self._mentions(line, key):
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
        best, marks = self._best(lines)
        planned = marks & _PLAN
        if marks & (_FINISHES | _SUB_BULLET | _SECTION) or (marks & _CUE and marks & _BULLET):
            lines = reading_lines(read)
            best, marks = self._best(lines)
        index, none = self._index, self._dropped
        ks = [index[id(f)] for f in facts]
        if planned and (
            ordering := [
                k for k in ks if self._matchers[k].frame.sequenced and _not_kept(best.get(k))
            ]
        ):  # an order stated by a plan (sim.grading.plans)
            plans = plan_items(read)
            for k in ordering:
                m = self._matchers[k]
                if found := better(best.get(k), plan_evidence(m.fact, m, plans, self._counter)):
                    best[k] = found
        if marks & (_POINTING | _WHOLE) and (pending := {k for k in ks if _not_kept(best.get(k))}):
            # a fact not kept: a sentence may point back to it, read as grade_text does
            extra: dict[int, Evidence] = {}
            for pair in self._pointing_lines(lines, sum(1 << k for k in pending)):
                for k, ev in self._pair_evidence(pair):
                    if k in pending and ((held := extra.get(k)) is None or ev[0] < held[0]):
                        extra[k] = ev
            for k, ev in extra.items():
                if (held := best.get(k)) is None or ev[0] < held[0]:
                    best[k] = ev
        if marks & _REVISING:
            # a later line may revise a rule kept or weakened (grade.revised): read as
            # grade_text does
            kept = [k for k in ks if (won := best.get(k)) is not None and won[0] != INVERTED]
            for k in kept:
                m = self._matchers[k]
                near = _after_sentence(lines, best[k][1].sentence)
                best[k] = revised(m.fact, m, near, self._counter, best[k])
        graded: list[FactGrade] = []
        named: int | None = None  # the facts an allusion may name (a bit each), when asked
        for k in ks:
            won = best.get(k)
            if won is not None:
                graded.append(won[1])
                continue
            if named is None:  # no sentence names this fact: one may allude to it
                named = reduce(or_, map(self._cued.__getitem__, lines), 0)
                if marks & _CUE_PRONOUN:  # a cue by a pronoun may finish the line before
                    before = _before_pronoun_cues(lines, self._marks)
                    named |= reduce(or_, (self._topic_bits(lines[i]) for i in before), 0)
            graded.append(self._alluded(k, lines) if named >> k & 1 else none[k])
        return tuple(graded)

    def _alluded(self, k: int, lines: list[str]) -> FactGrade:
        """`grade.alluded` for fact `k`, asked only of the lines that may hold its topic's words
        and a cue, or whose next line may finish them with one, with the sentence after each
        (which may open the next line)."""
        m = self._matchers[k]
        bit = 1 << k
        before = set(_before_pronoun_cues(lines, self._marks))
        for i, line in enumerate(lines):
            if not (self._cued[line] & bit or (i in before and self._topic_bits(line) & bit)):
                continue
            units = line_sentences(line)
            for j, unit in enumerate(units):
                if not names_topic(m.alluded_by, unit[2]):
                    continue
                if j + 1 < len(units) or cautions(unit[2]):
                    found = allusion(m.fact, m, units, j, self._counter)
                else:  # the sentence after it, where its caution may be, opens the next line
                    after = _first_after(lines, i)
                    pair = (unit, after) if after is not None else (unit,)
                    found = allusion(m.fact, m, pair, 0, self._counter)
                if found is not None:
                    return found
        return self._dropped[k]

    def _topic_bits(self, line: str, key: str | None = None) -> int:
        """The facts whose topic's words `line` (`key`, its raw_key) may hold, a bit each
        (cached per line)."""
        bits = self._named_by.get(line)
        if bits is None:
            key = key or raw_key(line)
            bits = self._named_by[line] = sum(
                1 << k
                for k, found in enumerate(self._allusion_runs)
                if found is None or found(key) is not None
            )
        return bits

    def _pointing_lines(self, lines: list[str], pending: int) -> list[tuple[str | None, str]]:
        """Each line that may say something of a fact named before it (by a pronoun, or leaving
        the object out), with the line before it that holds a sentence: where it names a
        fact's topic and holds a pronoun, names an object in full, or the line before names
        one (sim.grading.grade.pointing_back asks no more of a sentence): in text order; a line
        that leaves an object out, only for the `pending` facts (a bit each) whose object the
        line before names and whose act it may open a sentence with. A line is marked when
        its evidence is found (`_mark`), so a text costs two passes in C and a step per line
        that points back or names an object in full."""
        flags = list(map(self._flags.get, lines, repeat(0)))
        n = len(lines)
        found: list[tuple[int, str | None, str]] = []
        for i in compress(range(n), map(_POINTS.__and__, flags)):  # names a topic, points
            back = i - 1
            while back >= 0 and not lines[back].strip():
                back -= 1  # the line with the sentence before (blank ones hold none)
            found.append((i, lines[back] if back >= 0 else None, lines[i]))
        for i in compress(range(n), map(_WHOLE.__and__, flags)):  # names an object in full
            whole = self._whole_bits(lines[i]) & pending
            if whole and not flags[i] & _POINTS and whole & self._leaves_out(lines[i]):
                # a later sentence of its own may leave that object out
                back = i - 1
                while back >= 0 and not lines[back].strip():
                    back -= 1
                found.append((i, lines[back] if back >= 0 else None, lines[i]))
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            if j >= n:
                continue
            if not flags[j] & _NAMED and self._points(lines[j]):
                found.append((j, lines[i], lines[j]))  # a pronoun may stand for that object
            elif not flags[j] & _POINTS and whole & self._leaves_out(lines[j]):
                # it may leave that object out, whatever else it names (a line that points
                # is read with the line before it already)
                found.append((j, lines[i], lines[j]))
        found.sort(key=lambda f: f[0])
        return [(before, line) for _, before, line in found]

    def _mark(self, line: str, key: str | None) -> None:
        """A line that may name a fact's topic (`key`, its raw_key, held a run of one): marked
        `_NAMED`, `_WHOLE` where it may name an object in full or by its modifiers, and
        `_POINTS` where it holds a pronoun and may say something of a fact."""
        runs = self._whole_runs
        whole = runs is None or key is None or any(map(key.__contains__, runs))
        points = self._points(line, key)
        self._flags[line] = _NAMED | (_WHOLE if whole else 0) | (_POINTS if points else 0)

    def _points(self, line: str, key: str | None = None) -> bool:
        """Whether a line holds a pronoun and `_says` something of a fact (cached per line)."""
        known = self._pointing.get(line)
        if known is None:
            known = self._pointing[line] = anaphora.first(line) is not None and self._says(
                line, key
            )
        return known

    def _says(self, line: str, key: str | None = None) -> bool:
        """Whether a line may name some fact's action, value, setting or condition (raw runs
        of their forms): what a sentence that points back must hold."""
        runs = self._say_runs
        return runs is None or any(map((key or raw_key(line)).__contains__, runs))

    def _leaves_out(self, line: str) -> int:
        """The facts (a bit each) whose act a sentence of the line may open with, as one that
        leaves the object out does (sim.grading.grade.elliptic): its first word, past its
        openers, opens with a run of the act's first word. Cached per line."""
        bits = self._elliptic.get(line)
        if bits is None:
            key = raw_key(line)
            if REVISION_LABEL.search(line):  # a sentence may open with a new value's label
                bits = self._elliptic[line] = (1 << len(self._act_firsts)) - 1
                return bits
            words = _OPENING.findall(key)
            bits = self._elliptic[line] = sum(
                1 << k
                for k, runs in enumerate(self._act_firsts)
                if runs is None or (runs and any(w.startswith(runs) for w in words))
            )
        return bits

    def _whole_bits(self, line: str) -> int:
        """The facts (a bit each) whose object `line` may name in full (cached per line)."""
        bits = self._whole_by.get(line)
        if bits is None:
            key = raw_key(line)
            bits = self._whole_by[line] = sum(
                1 << k
                for k, runs in enumerate(self._object_runs)
                if runs is None or any(map(key.__contains__, runs))
            )
        return bits

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

    def _best(self, lines: list[str]) -> tuple[dict[int, Evidence], int]:
        """The best evidence per fact over `lines`, and their marks or-ed together: three
        passes in C, and a step in Python per line that holds evidence (few do)."""
        evidence_of, marks_of = self._lines, self._marks
        for line in filterfalse(evidence_of.__contains__, lines):
            evidence_of[line], marks_of[line] = self._read(line)
        best: dict[int, Evidence] = {}
        for found in filter(None, map(evidence_of.__getitem__, lines)):
            for k, ev in found:
                held = best.get(k)
                if held is None or ev[0] < held[0]:
                    best[k] = ev
        return best, reduce(or_, map(marks_of.__getitem__, lines), 0)

    def _read(self, line: str) -> tuple[LineEvidence, int]:
        """A new line's evidence and marks."""
        key = raw_key(line)
        found = self._evidence(line, key)
        mark = self._flags.get(line, 0)
        kind = _STATIC.get(line)
        if kind is None:
            kind = _static_marks(line, key)
        if kind & _PRONOUN and not mark & _NAMED and self._points(line, key):
            mark |= _POINTER
        bits = self._topic_bits(line, key) if kind & _CAUTIOUS else 0
        if bits and not any(cautions(unit[2]) for unit in line_sentences(line)):
            bits = 0  # its raw text has a cue's letters, not the cue
        self._cued[line] = bits
        if kind & _CUE_PRONOUN:
            units = line_sentences(line)
            first = units[0] if units else None
            if (
                first is None
                or not cautions(first[2])
                or (anaphora.first(first[0]) is None and not care_order(first[2]))
            ):
                kind &= ~_CUE_PRONOUN  # its first sentence holds no pronoun (nor a short
                # order of care) and cue
        return found, mark | (kind & ~_PRONOUN)


# the first word of each sentence of a raw line, past the words sim.grading.grade.elliptic
# passes over (a sentence ends as sim.grading.text.split_sentences ends one): one pattern for
# every rule, so no trial compiles one of its own
_OPENING = re.compile(
    r"(?:^|[.!?;]\s)[\W_]*(?:(?:" + "|".join(sorted(OPENERS)) + r"|don['’]?t)\b[\W_]*)*"
    r"(?:(?:" + "|".join(sorted(PASSIVE_AUX)) + r")\b[\W_]*)?([a-z0-9]+)"  # "nothing gets sent"
)


def _after_sentence(lines: list[str], said: str) -> list[Unit]:
    """The sentences grade.revised reads for a rule kept by `said`: those of the first line
    that holds it as a sentence, and of the two lines after it that hold any (a revision is
    the sentence right after the rule's, or the one after its semicolon), split as
    sim.grading.sentences.Sentences splits the whole text; every sentence where no line
    holds it (a rule kept by a plan's items), which revised() then leaves as it is."""
    for i, line in enumerate(lines):
        if said not in line:  # one pass in C; few lines hold the sentence
            continue
        units = line_sentences(line)
        if not any(u[0] == said for u in units):
            continue
        near = list(units)
        more = 0
        for after in lines[i + 1 :]:
            if more == 2:
                break
            if after and (found := line_sentences(after)):
                near.extend(found)
                more += 1
        return near
    return []


def _first_after(lines: list[str], i: int) -> Unit | None:
    """The first sentence after line `i` (blank lines hold none)."""
    for line in lines[i + 1 :]:
        if line and (units := line_sentences(line)):
            return units[0]
    return None


def _before_pronoun_cues(lines: list[str], marks: dict[str, int]) -> list[int]:
    """The lines whose next line holding text opens with a pronoun and a cue (`marks`, the
    lines' marks), which may finish the line's last sentence ("Payroll work is nearly done."
    / "Be mindful of anything touching it.")."""
    found: list[int] = []
    after = False  # the next line holding text may hold a pronoun and a cue
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if not line.strip():
            continue
        if after:
            found.append(i)
        # a line with no letter or digit may hold no sentence: the next one may still follow
        after = bool(marks[line] & _CUE_PRONOUN) or (after and not any(map(str.isalnum, line)))
    return found


_STATIC: dict[str, int] = {}  # a line's marks that no fact decides, once per process: a
_MAX_STATIC = 32_768  # sweep meets the same lines in trial after trial (bounded, as
# sim.grading.sentences bounds its cache, so memory stays flat)


def _static_marks(line: str, key: str) -> int:
    """The marks of `line` (`key`, its raw_key) that no fact decides."""
    role = line_role(line)
    kind = 0
    if role is not None and role[0].startswith(("answers", "replies")):
        role = plain_role(line)  # may finish a question on the line before
        kind = _FINISHES
    if role is not None:
        if role[0] == "continues":
            kind |= _FINISHES
        elif role[0] == "header":
            kind |= _CUE if role[1] else 0
            kind |= _SECTION if section_title(line) is not None else 0
        else:
            kind |= _SUB_BULLET if line[:1].isspace() else _BULLET
    elif title(line) is not None:
        kind |= _CUE  # a short plain line titles the bullets below it
    if may_hold_plan(line):
        kind |= _PLAN
    if anaphora.first(line) is not None:
        kind |= _PRONOUN
    if may_caution(key):
        kind |= _CAUTIOUS | (_CUE_PRONOUN if kind & _PRONOUN or CARE_START.match(line) else 0)
    if may_revise(line):
        kind |= _REVISING
    if len(_STATIC) >= _MAX_STATIC:
        _STATIC.clear()
    _STATIC[line] = kind
    return kind
