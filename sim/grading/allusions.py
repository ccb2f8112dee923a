"""A sentence that alludes to a rule without any of its anchors: its topic and a caution.

Summaries abstract a rule past its own words: "Be cautious with anything that touches accruals"
for "Do not repost the accrual journal entries after step 7", "Regularization settings
for the fine-tune were fixed by the user" for a pinned dropout rate, "Denials need a senior
review" for a confirmation gate. No anchor matches, yet a careful reader calls the rule
`degraded` (it is still there, past acting on), not `dropped` (gone). Both are below any floor,
so the reading never keeps a rule; it only tells the report which collapse happened.

A sentence alludes when it carries a caution (sim.grading.lexicon's CAUTION and GESTURE, and
the HEDGE words that caution rather than describe) and names the rule's topic:
a word of the object (its head, a modifier) or of the setting, or the action together with a
word of the condition's reference. Generic words ("step", "run", "user") name no topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sim.grading import lexicon as lx
from sim.grading.frames import Frame
from sim.grading.frames import function_word as _function_word
from sim.grading.patterns import any_of
from sim.grading.text import word_runs

# words a rule's anchors share with nearly any other sentence of an agent's history
_GENERIC = frozenset(
    (
        "step", "steps", "user", "users", "thing", "item", "data", "file", "job", "task", "run",
        "work", "system", "process", "new", "old", "today", "time", "first", "last", "next",
        "confirm", "confirmation", "decline", "refuse", "veto", "object", "objection", "reject",
        "approve", "approval", "pass", "fail", "ok", "finish", "complete", "clean", "clear",
        "still", "back", "within", "above", "below", "under", "percent", "yes", "say", "done",
        "make", "take", "get", "set", "use", "put", "go", "up", "out", "off", "on", "start",
        "stop", "change", "send", "keep", "check", "test", "team", "owner", "someone",
    )
)  # fmt: skip


def _content(words: str) -> frozenset[str]:
    return frozenset(
        w
        for w in words.split()
        if len(w) > 2 and not w.isdigit() and w not in _GENERIC and not _function_word(w)
    )


@dataclass(frozen=True, slots=True)
class Topic:
    """A rule's topic as single words: of its object and setting (each names the topic on its
    own; `modifiers`, those never a phrase's head), of its action, and of its condition's
    reference apart from the action's (these two name it only together)."""

    things: frozenset[str]
    modifiers: frozenset[str]
    actions: frozenset[str]
    references: frozenset[str]

    @property
    def words(self) -> frozenset[str]:
        """The words a sentence that names the topic holds one of (where to look for it)."""
        return self.things | self.actions


def topic_words(frame: Frame) -> Topic:
    forms = [f.split() for f in (*frame.objects, *frame.settings)]
    things = _content(" ".join(w for f in forms for w in f))
    heads = {f[-1] for f in forms if f}
    acts = _content(" ".join(frame.actions))
    refs = _content(" ".join(frame.reference_words)) - acts
    return Topic(things, things - heads, acts, refs)


_NO_MATTER = re.compile(r" (?:no long|no longer|not|never|hardly|nothing) (?:\S+ )?matter(?= )")


@lru_cache(maxsize=32_768)  # one sentence is asked about for every dropped fact, at every level
def cautions(lemma_text: str) -> bool:
    """Whether a sentence (lemma space) carries a caution, a requirement or a hedge ("the
    order no longer matters" lifts one: sim.grading.lexicon's revocations)."""
    if " matter" in lemma_text:
        lemma_text = _NO_MATTER.sub(" ", lemma_text)
    return bool(
        lx.CAUTION_RE.search(lemma_text)
        or lx.GESTURE_RE.search(lemma_text)
        or lx.ALLUSION_HEDGE_RE.search(lemma_text)
    )


def names_topic(topic: Topic, lemma_text: str) -> bool:
    """Whether a sentence names the rule's topic: by a word of its object or setting, or by
    the action with a word of the condition's reference (a modifier after "to" is a verb). A
    rule of its own about a thing the topic's modifier names ("Do not use the build cache
    later" beside a rule on build runners: a negation, and "build" before a noun of its own)
    is another thing's, not an allusion."""
    tokens = lemma_text.split()
    found = topic.things.intersection(tokens)
    if not found:
        return bool(topic.actions.intersection(tokens) and topic.references.intersection(tokens))
    if found <= topic.modifiers and not lx.NEGATION_RE.search(lemma_text):
        # "make sure to build the release notes": after "to", the modifier is a verb
        return any(t in found and (i == 0 or tokens[i - 1] != "to") for i, t in enumerate(tokens))
    if found <= topic.modifiers:
        own = topic.words
        last = len(tokens) - 1
        for i, token in enumerate(tokens):
            if token in found:
                after = tokens[i + 1] if i < last else ""
                if not after or after in own or _function_word(after):
                    return True  # "anything payroll": the modifier names the thing itself
        return False
    return True


_COMMON_RUNS = frozenset(
    ("for", "you", "your", "that", "when", "into", "user", "keep", "check", "with", "time",
     "ther", "tak", "som", "mor", "lat", "read", "start", "point", "good", "help", "most", "can")
)  # fmt: skip


def _cue_filter() -> re.Pattern[str] | None:
    """One alternation over the raw text that finds a run of letters of one word of every cue
    `cautions` reads (sim.grading.text.word_runs), its most telling word; a cue of short
    words only ("as is", "or so") is looked for as written. None where no filter is safe."""
    runs: set[str] = set()
    short: set[str] = set()
    for form in {lx.lemma_phrase(p) for p in (*lx.CAUTION, *lx.GESTURE, *lx.ALLUSION_HEDGE)} - {""}:
        options = [
            r for r in map(lambda w: word_runs((w,)), form.split()) if r and min(map(len, r)) > 2
        ]
        # the word least like any line's: not a word of most sentences, then the longest
        best = max(
            options, key=lambda r: (not _COMMON_RUNS & set(r), min(map(len, r))), default=None
        )
        if best is None:  # "as is", "or so": words that are their own raw text
            if not re.fullmatch(r"[a-z]{1,2}(?: [a-z]{1,2})*", form):
                return None
            short.add(form)
        else:
            runs |= set(best)
    # a cue is a whole word in lemma space, and a word's run opens the raw word it came from
    # ("pin" in "pinned", not in "spin"): no letter stands before it
    body = any_of(runs, opening=True)
    phrases = (r"\b" + r"[\W_]+".join(map(re.escape, f.split())) + r"\b" for f in sorted(short))
    return re.compile("|".join((body, *phrases)))


_CUE_FILTER = _cue_filter()


def may_caution(raw_key: str) -> bool:
    """Whether a line (as sim.grading.text.raw_key writes it) may hold a cue `cautions` reads:
    most lines of a history do not, and need not be normalized to know it."""
    return _CUE_FILTER is None or _CUE_FILTER.search(raw_key) is not None
