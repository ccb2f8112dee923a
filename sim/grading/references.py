"""A condition's reference ("step 4", "the API deploy", "the user's yes") found in a clause.

Each accepted wording of a condition becomes a set of words and the relation it was written
with; a clause holds the reference when a short span of it holds every word, or a word of the
same stem, or an equivalent ("deployment" for "deploy", "exceeds" for "above"). The relation
is read from the words just before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sim.grading import lexicon as lx
from sim.grading.lexicon import Relation

# Words that may stand before an object's head word without naming another object: "drop the
# table" and "this table" are about the fact's table, "staging table" is not.
COMMON_WORDS = frozenset(
    (
        "this", "that", "these", "those", "its", "their", "our", "your", "my", "of", "to", "for",
        "on", "in", "with", "from", "and", "or", "be", "is", "are", "was", "were", "by", "at",
        "as", "it",
    )
)  # fmt: skip


STOP_WORDS = COMMON_WORDS | frozenset(
    (
        "has", "have", "do", "does", "done", "complete", "completed", "finish", "finished", "say",
    )
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Reference:
    """One accepted wording of the condition's reference, with the relation it was written
    with (None when the form names the reference alone) and whether it is the complement."""

    tokens: frozenset[str]
    relation: Relation | None
    antonym: bool = False
    awaited: bool = False  # the yes-giver named alone: a reference only after a wait word


# what a wait names its yes-giver after ("waits for Anselm", "pending Halvard"): the person
# stands for their yes (not "until Anselm", which may wait for anything of theirs)
AWAITS = frozenset(
    lx.lemma_phrase(w)
    for w in ("wait for", "wait on", "await", "pending", "hold for", "block on", "block by",
              "gate on", "gate by", "subject to", "depend on", "hinge on", "conditional on",
              "contingent on")
)  # fmt: skip
_YES_WORDS = frozenset(
    ("confirm", "confirmation", "approve", "approval", "sign", "off", "signoff", "agree", "ok",
     "okay", "yes", "say", "give", "consent", "authorise", "authorize", "green", "light")
)  # fmt: skip


def awaited_references(references: tuple[Reference, ...]) -> tuple[Reference, ...]:
    """For a gate on someone's yes ("until Anselm confirms"), that person named alone, read as
    the yes only after a wait word ("Uplinking the burn command waits for Anselm")."""
    out: list[Reference] = []
    for ref in references:
        if ref.antonym or not ref.tokens & _YES_WORDS:
            continue
        who = ref.tokens - _YES_WORDS
        if who and who != ref.tokens:
            out.append(Reference(frozenset(who), Relation.BEFORE, awaited=True))
    return tuple(r for r in dict.fromkeys(out) if r not in references)


def relation_of(form: str) -> tuple[Relation | None, str]:
    """A condition form split into its leading relation word and the reference."""
    m = lx.RELATION_RE.match(form)
    if m is None:
        return None, form
    return lx.RELATIONS[m.group(0)], form[m.end() :].strip()


def condition_references(
    forms: tuple[str, ...], conditional: bool, object_words: frozenset[str] = frozenset()
) -> tuple[Reference, ...]:
    out: list[Reference] = []
    for form in forms:
        relation, rest = relation_of(form)
        if form.startswith("from "):  # "from step 5 on": an off-by-one reference, matched whole
            continue
        tokens = frozenset(t for t in rest.split() if t not in STOP_WORDS)
        if tokens - object_words:
            tokens = tokens - object_words
        if not tokens:
            continue
        out.append(Reference(tokens, relation))
        if conditional or relation is None:
            for word, opposites in lx.ANTONYMS.items():
                if word in tokens:
                    for o in opposites:
                        out.append(Reference((tokens - {word}) | {o}, relation, True))
    return tuple(dict.fromkeys(out))


_SUFFIX = ("ation", "ition", "ment", "ion", "ing", "al", "ed", "er", "e", "y", "s")
_SAME_REF = {
    "above": ("exceed", "over", "great", "high", "more", "beyond", "top", "past"),
    "below": ("under", "less", "within", "low"),
    # the same bounds the other way: "exceeds 2 metres" is stated as "above 2 metres"
    "exceed": ("above", "over", "beyond", "great", "high", "more", "top"),
    "over": ("above", "exceed", "beyond", "great", "high", "more", "top"),
    "under": ("below", "less", "low"),
    "fail": ("red", "break", "broken", "failure", "failing"),
    "test": ("suite", "ci", "check", "tests"),
    "pass": ("green", "succeed", "success", "pass"),
    "yes": ("ok", "okay", "go-ahead", "go", "approve", "approval", "confirm", "confirmation",
            "agree", "agreement", "sign", "consent", "permission"),
    "confirm": ("yes", "approve", "approval", "ok", "okay", "sign", "consent", "confirmation",
                "agree", "agreement", "permission", "light", "greenlight", "greenlit",
                "nod", "blessing", "signoff"),
    "user": ("owner", "human", "operator", "requester", "customer", "you"),
    "change": ("alter", "alteration", "modify", "modification", "migration", "migrate", "ddl"),
    "usage": ("full", "utilization", "use", "space", "fill"),
    "resize": ("grow", "expand", "extend", "enlarge", "shrink"),
    "deploy": ("deployment", "rollout", "release", "ship", "push"),
    "percent": ("pct",),
    "miss": ("lack", "lacking", "absent", "missing"),
    "within": ("under", "less"),
}  # fmt: skip


@lru_cache(maxsize=32_768)
def stem(word: str) -> str:
    """A crude derivational stem, for references only: "deployment" ~ "deploy"."""
    for suffix in _SUFFIX:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


_EQUIVALENT: dict[str, frozenset[str]] = {}
for _word, _others in _SAME_REF.items():
    _EQUIVALENT[_word] = frozenset({stem(_word), *map(stem, _others)})


def _matches(token: str, word: str) -> bool:
    if token == word:
        return True
    st = stem(token)
    return st == stem(word) or st in _EQUIVALENT.get(word, ())


_POLAR = frozenset(lx.ANTONYMS) | {w for ws in lx.ANTONYMS.values() for w in ws}


@lru_cache(maxsize=4_096)
def _digits(ref: frozenset[str]) -> tuple[str, ...]:
    return tuple(w for w in ref if w.isdigit())


def window(tokens: tuple[str, ...], ref: frozenset[str]) -> tuple[int, int] | None:
    """The first span of `tokens` holding every word of `ref` (or an equivalent), at most 3
    words looser; a reference of four words or more may miss one word that is not a number
    ("canary err > 2%" for "canary error rate above 2")."""
    if any(d not in tokens for d in _digits(ref)):
        return None  # a number matches only itself, and every one is needed (below)
    need = len(ref) - 1 if len(ref) >= 4 else len(ref)
    width = len(ref) + 3
    for start, t in enumerate(tokens):
        if not any(_matches(t, w) for w in ref):
            continue
        seen: set[str] = set()
        room = width
        for j in range(start, len(tokens)):
            if tokens[j] in _AUXILIARIES and tokens[j] not in ref:
                continue  # "evening routes are not to be released": the verb's own helpers
            room -= 1
            if room < 0:
                break
            seen.update(w for w in ref if _matches(tokens[j], w))
            if len(seen) >= need and all(w in seen for w in ref if w.isdigit() or w in _POLAR):
                return start, j + 1
    return None


# words a passive or a modal puts inside a reference without loosening it
_AUXILIARIES = frozenset(
    ("be", "have", "get", "not", "do", "can", "may", "must", "should", "will", "shall",
     "would", "could", "might", "yet", "still", "already", "ever", "never")
)  # fmt: skip


def relation_before(
    tokens: tuple[str, ...], start: int, own: tuple[str, ...] = ()
) -> tuple[str, Relation] | None:
    """The last relation word of the five tokens before `start`; none of `own` (the rule's own
    acts: "secure the trawl doors" is no "secure" of a yes)."""
    lead = " " + " ".join(tokens[max(0, start - 5) : start]) + " "
    found = None
    for m in lx.RELATION_RE.finditer(lead):
        if m.group(0) == "on" and _PARTICLE_ON.search(lead, 0, m.end() + 1):
            continue  # "move on to posting it": a verb's particle, not "on" a case
        if own and f" {m.group(0)} " in own:
            continue
        found = m
    if found is not None and _NEW_CLAUSE.search(lead, found.end() - 1):
        return None  # "release them on the gun and let Wanjiru confirm": the "on" is the act's
    return (found.group(0), lx.RELATIONS[found.group(0)]) if found else None


# a clause of its own between a relation word and the reference: the word is not its relation
_NEW_CLAUSE = re.compile(r" (?:and|but|so) (?:let|have|get|ask|tell) ")


# "on" as the particle of a verb that moves to the next act ("move on to", "go on with")
_PARTICLE_ON = re.compile(r" (?:move|go|carry|get|press|push|head|pass|keep) on $")


def covers(tokens: tuple[str, ...], ref: frozenset[str]) -> bool:
    """Whether the words of `ref` (or equivalents) are somewhere in `tokens`, in any order and
    at any distance, as loosely as `window` asks: a reference spread over a sentence and the
    one it points back to."""
    seen = {w for w in ref if any(_matches(t, w) for t in tokens)}
    need = len(ref) - 1 if len(ref) >= 4 else len(ref)  # as loose as `window`
    return len(seen) >= need and all(w in seen for w in ref if w.isdigit() or w in _POLAR)
