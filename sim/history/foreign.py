"""Rendering ladders for text the generator did not write: a user's transcript, another tool's
session.

Such text is read as sentence units. A sentence that carries a declared fact gets the fact's
ladder, derived from its anchors and class the way the generator's own facts have one:
verbatim -> compressed (every required anchor kept, fewer words) -> abstracted (the object
left, a condition or value anchor gone: "Credential rotating deferred.") and an inverted form
(the polarity flipped: "You may rotate the credential after step 4."). Every candidate is
graded by the text grader (sim.grading) and kept only when it reads as the rung it stands for,
so a ladder never claims a grade the grader would not give. Any other sentence gets a generic
shortening: parentheticals and trailing clauses dropped, the head words kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sim.grading.grade import grade_text
from sim.grading.text import split_sentences
from sim.tokens import Tokenizer
from sim.types import Fact, Grade, Polarity

_PAREN = re.compile(r"\s*\([^()]*\)")
_CLAUSE_CUT = re.compile(
    r",\s|;\s|\s[-–—]\s|:\s|\s(?:because|which|so that|since|while|although|whereas)\s", re.I
)
HEAD_WORDS = 8
"""A generic shortening keeps at most this many words of the sentence's first clause."""


def sentences(line: str) -> list[str]:
    """A line as sentence units (the grader's own split), blanks left out."""
    return [s.strip() for s in split_sentences(line) if s.strip()]


def shorten(sentence: str) -> str | None:
    """The sentence's head: no parentheticals, its first clause, at most HEAD_WORDS words;
    None when that would not be shorter."""
    head = _CLAUSE_CUT.split(_PAREN.sub("", sentence), maxsplit=1)[0].strip()
    words = head.split()
    if len(words) > HEAD_WORDS:
        words = words[:HEAD_WORDS]
    short = " ".join(words).rstrip(",;:-–— ")
    if not short or len(short.split()) >= len(sentence.split()):
        return None
    return short if short[-1] in ".!?" else short + "."


def generic_ladder(sentence: str) -> tuple[str, ...]:
    short = shorten(sentence)
    return (sentence,) if short is None else (sentence, short)


def _surface(sentence: str, forms: tuple[str, ...]) -> str:
    """The form of an anchor group as this sentence writes it (else its first form)."""
    lower = sentence.lower()
    for form in sorted(forms, key=len, reverse=True):
        at = re.search(rf"(?<!\w){re.escape(form.lower())}(?!\w)", lower)
        if at:
            return sentence[at.start() : at.end()]
    return forms[0]


def _gerund(verb: str) -> str:
    word = verb.split()[0] if verb else verb
    if word.endswith("ing"):
        return word
    if word.endswith("e") and not word.endswith("ee"):
        return word[:-1] + "ing"
    return word + "ing"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _first(
    candidates: list[str], ok: Callable[[Grade], bool], fact: Fact, counter: Tokenizer
) -> str | None:
    for raw in candidates:
        text = re.sub(r"\s+([.,])", r"\1", re.sub(r"\s{2,}", " ", raw)).strip()
        if ok(grade_text(text + "\n", [fact], counter)[0].grade):
            return text
    return None


def fact_ladder(
    sentence: str, fact: Fact, counter: Tokenizer
) -> tuple[tuple[str, ...], str | None]:
    """(renderings, inverted) for the sentence that carries `fact`: verbatim first, then the
    compressed and abstracted forms that grade as such, and the inverted form if one does."""
    roles = {g.role: _surface(sentence, g.forms) for g in fact.anchors}
    obj = roles.get("object", "")
    action = roles.get("action", "")
    details = " ".join(
        v for r, v in roles.items() if r in fact.floor.required and r not in ("object", "action")
    )
    forbid = fact.polarity is Polarity.FORBID
    core = " ".join(p for p in (action, f"the {obj}", details) if p)
    if forbid:
        compressed = [f"Do not {core}.", f"No {obj} {_gerund(action)} {details}."]
        abstracted = [f"{_cap(obj)} {_gerund(action)} deferred.", f"Hold on the {obj}."]
        inverted = [
            f"You may {core}.",
            f"{_cap(core)}.",
            f"You may {action} the {obj} now.",
            f"{_cap(action)} the {obj} right away.",
        ]
    else:
        compressed = [f"{_cap(core)}.", f"{_cap(obj)}: {details}."]
        abstracted = [f"{_cap(action)} the {obj}." if action else "", f"{_cap(obj)} noted."]
        inverted = [f"Do not {core}.", f"Never {core}."]
    words = len(sentence.split())
    short = [c for c in compressed if len(c.split()) < words]
    rungs = [sentence]
    comp = _first(short, lambda g: g.at_floor and g is not Grade.INVERTED, fact, counter)
    gist = _first([a for a in abstracted if a], lambda g: g is Grade.DEGRADED, fact, counter)
    if gist is not None:  # rung 1 keeps every anchor: the sentence itself when nothing shorter does
        rungs += [comp or sentence, gist]
    elif comp is not None:
        rungs.append(comp)
    flipped = _first(inverted, lambda g: g is Grade.INVERTED, fact, counter)
    return tuple(rungs), flipped
