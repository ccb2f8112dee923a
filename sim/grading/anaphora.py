"""Pronouns and anaphoric adverbs read with the sentence they point back to.

A summarizer often states a rule's object or condition in one sentence and the rule in the
next, pointing back with a pronoun: "The schema change is next. Before it, back up the user
table." / "Security scan runs on every build. A critical finding in it means the image is not
published." / "Deploy the API first; the migration can follow afterwards." The second sentence
alone names only half the rule. Here its pronoun ("it", "its", "them", "they", a bare "this" or
"that") is replaced by the half it lacks, and a bare "afterwards" / "later" / "beforehand" by
that half with its relation, but only when the sentence lacks that half and the context before the
pronoun (the sentence before it, or the first part of a sentence read as one with it) names
it: a pronoun stands for something already said, never for something new.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from sim.grading.frames import Frame, has_object
from sim.grading.references import covers, window
from sim.grading.text import lemmas, normalize

# "it"/"its"/"them"/"they" anywhere; "this"/"that" only as a whole noun phrase (after a
# relation word or preposition, before punctuation or the end): "for that:", "before this.";
# "these"/"those" as one too, or before a verb ("These stay open until Marcus confirms"), never
# as a determiner ("these hits")
_PRONOUN = re.compile(
    r"\b(?:it|its|them|they)\b"
    # (the word itself looked for first: nine look-behinds tried at every place cost more
    # than the rest of the pattern)
    r"|(?=th(?:is|at)\b)(?:(?<=\bbefore )|(?<=\bafter )|(?<=\bfor )|(?<=\bof )"
    r"|(?<=\buntil )|(?<=\bonce )|(?<=\bto )|(?<=\bwith )|(?<=\bon ))th(?:is|at)\b"
    r"(?=\s*(?:[:;,.!?)]|$))"
    r"|\b(?:these|those)\b(?=\s*(?:[:;,.!?)]|$)|\s+(?:must|may|might|can|cannot|could|should"
    r"|shall|will|would|need|are|were|stay|remain|wait|go|get|have|do)\b)",
    re.IGNORECASE,
)
# "hold that until Marguerite has confirmed", "park this until step 5": "this"/"that" as the
# object of a verb that puts an act off, before the relation that says until when (the verb
# and the space kept as groups 1 and 2, the pronoun after them)
_DEFERS = frozenset(("hold", "park", "pause", "defer", "delay", "postpone", "block", "freeze"))
_HELD = re.compile(
    r"\b(" + "|".join(sorted(_DEFERS | {"keep", "leave", "skip", "do"})) + r")(\s+)"
    r"(?:this|that)\b(?=\s+(?:until|till|unless|before|after|once|pending)\b)",
    re.IGNORECASE,
)
# "she", "her", "his": a person, never a thing: they stand only for the one who gives a gate's
# yes ("Waiting on Marisol" / "- timpani crates: load only after her confirmation")
_PERSON = re.compile(r"\b(?:she|her|he|him|his)\b", re.IGNORECASE)
# "then" as "after that" only where it cannot close an "if": "only then", or opening a
# sentence ("Sort the linens first; only then load the washer." / "Then load the washer."),
# as "next" does before a comma ("Next: ..." heads a plan, it does not point back); "once
# that is done", "when finished": the act before, done
_DONE = r"(?:done|finished|complete|completed|over)"
_CLAUSE_END = r"(?=\s*(?:[.;!?)]|$))"
# ("from that point on", "past this stage": the time the sentence before named, too)
_AFTER = re.compile(
    r"\bfrom (?:that|this) (?:point|moment|stage)(?: on\b| onwards?\b)?"
    r"|\b(?:after|past|beyond) (?:that|this) (?:point|moment|stage)\b"
    r"|\b(?:afterwards?|after (?:that|this)|thereafter|subsequently|only then"
    r"|following (?:that|this))\b"
    # "Checkpoint the weights first; pruning the heads comes after."
    r"|(?:(?<=\bcome )|(?<=\bcomes )|(?<=\bfollow )|(?<=\bfollows )|(?<=\bhappen )"
    rf"|(?<=\bhappens )|(?<=\bgoes ))after{_CLAUSE_END}"
    r"|\b(?:once|when|after) (?:(?:that|this|it)(?:\s+is|'s|’s|\s+has been|\s+was)?\s+)?"
    rf"{_DONE}\b"
    r"|^[\W_]*(?:and |so )?(?:then\b|next,)",
    re.IGNORECASE,
)
# "later" only as the time an act may come ("the calibration can happen later", "manifests can
# be printed later", "the deploy comes later"), never a plain adverb ("do not use it later")
_LATER = re.compile(
    r"(?P<keep>\b(?:can|may|will|could|might)\b[^.;!?]{0,40}?|\b(?:comes?|follows?|happens?) )"
    r"\blater\b(?! than)",
    re.IGNORECASE,
)
_BEFORE = re.compile(r"\bbeforehand\b", re.IGNORECASE)
# a "first" that ends its clause: before what was said before ("Do not discard the samples
# yet. Tomasz has to confirm first.")
_FIRST = re.compile(rf"\bfirst\b{_CLAUSE_END}", re.IGNORECASE)
# "In that case, do not deploy": the case the sentence before named
_IF = re.compile(
    r"\b(?:in (?:that|this|which|such a) case|if so|should (?:that|this) happen"
    r"|if (?:that|this) happens|when (?:that|this) happens)\b",
    re.IGNORECASE,
)


_ANY = re.compile(
    r"\b(?:it|its|them|they|this|that|these|those|afterwards?|thereafter|later|beforehand|then"
    rf"|subsequently|next(?=,)|(?:once|when|after) {_DONE}|first{_CLAUSE_END}|if so"
    rf"|(?:comes?|follows?|happens?|goes) after{_CLAUSE_END}"
    r"|she|her|he|him|his)\b"
)


# the patterns a pronoun or adverb starts at, as one: a search finds the leftmost place any
# of them matches, the earliest of their starts (one pass in C where there were six)
_EARLIEST = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (_PRONOUN, _PERSON, _AFTER, _BEFORE, _FIRST, _IF)),
    re.IGNORECASE,
)


@lru_cache(maxsize=32_768)  # asked of lines near a fact's topic whose fact is not kept
def first(raw: str) -> int | None:
    """Where a sentence's first pronoun or anaphoric adverb starts, or None."""
    if _ANY.search(raw.lower()) is None:  # one plain pass first: most lines hold none
        return None
    earliest = _EARLIEST.search(raw)
    found = [] if earliest is None else [earliest.start()]
    if "later" in raw.lower() and (late := _LATER.search(raw)) is not None:
        found.append(late.end("keep"))
    if (held := _HELD.search(raw)) is not None:
        found.append(held.end(2))
    return min(found) if found else None


def _names_reference(frame: Frame, lem: str) -> bool:
    tokens = tuple(lem.split())
    return any(window(tokens, r.tokens) is not None for r in frame.references)


def _any_reference_word(frame: Frame, context: str) -> bool:
    return any(covers(tuple(context.split()), frozenset((w,))) for w in frame.reference_words)


def _completes_reference(frame: Frame, context: str, lem: str) -> bool:
    """Whether `context` names what `lem` lacks of a reference: every word of it is in one of
    the two, and some in the context ("The integration tests run nightly. If they fail ...")."""
    both = tuple(context.split()) + tuple(lem.split())
    own = tuple(lem.split())
    return any(covers(both, r.tokens) and window(own, r.tokens) is None for r in frame.references)


# relation words that may stand just before a reference named by one of its words ("after the
# deploy", "once the rough grade is done"), lemma space
_RELATION_WORDS = frozenset(("after", "before", "once", "until", "till", "follow", "prior"))


def complete_reference(frame: Frame, before: str, lem: str) -> str | None:
    """`lem` (a clause, lemma space) with the words of the rule's reference that it leaves out
    put back, where it names the reference by some of its words just after a relation word
    and the clauses `before` it in the sentence name the rest ("Migrate the index, then
    deploy the API, and run the migration after the deploy settles": the API deploy); None
    where it names no reference in part, or names one whole."""
    tokens = tuple(lem.split())
    if any(window(tokens, r.tokens) is not None for r in frame.references):
        return None
    context = tuple(before.split())
    for r in frame.references:
        if r.relation is None:
            continue
        for i, token in enumerate(tokens):
            if not any(covers((token,), frozenset((w,))) for w in r.tokens):
                continue
            # a relation word at most two words before it ("once the rough grade")
            if not any(t in _RELATION_WORDS for t in tokens[max(0, i - 3) : i]):
                continue
            missing = frozenset(w for w in r.tokens if not covers(tokens, frozenset((w,))))
            if missing and covers(context, missing):
                return " ".join((*tokens[: i + 1], *sorted(missing), *tokens[i + 1 :]))
    return None


def _names_object(frame: Frame, lem: str) -> bool:
    """A full form of the object, or all of its modifiers ("the canary" for the canary build):
    never the head word alone, which names other objects too ("the staging table")."""
    return any(o in lem for o in frame.objects) or any(m in lem for m in frame.modifiers)


def resolve(
    frame: Frame, reference: str, obj: str, before: str, own: str, raw: str, lem: str
) -> str | None:
    """`raw` with its pronouns (and a bare "afterwards") standing for the half of the rule it
    lacks, when what was said before names that half; None when there is nothing to resolve.
    `before` is the previous sentence and `own` the sentence's own words before its first
    pronoun (both in lemma space): a pronoun may point back into its own sentence ("the canary
    ... it must not be promoted"), an adverb only to the sentence before ("Deploy the API first;
    the migration can follow afterwards"). `reference` and `obj` are the fact's condition
    reference and object as words."""
    lacks_object = not has_object(frame, lem)
    if lacks_object:
        if not (obj and _names_object(frame, before + own)):
            return None
        lacks_reference = False  # what the pronoun stands for is the object
    else:
        if not reference or not _any_reference_word(frame, before + own):
            return None  # nothing before it that the pronoun could stand for
        lacks_reference = not _names_reference(frame, lem)
    out = raw
    # pronouns point back into their own sentence too; adverbs only to the sentence before
    readings = (
        (_PRONOUN, before + own, ""),
        (_PERSON, before + own, ""),
        (_AFTER, before, "after "),
        (_LATER, before, "after "),
        (_BEFORE, before, "before "),
        (_FIRST, before, "before "),
        (_IF, before, "if "),
    )
    for pattern, context, relation in readings:
        if not pattern.search(out) and not (pattern is _PRONOUN and _HELD.search(out)):
            continue
        if (
            lacks_reference
            and not lacks_object
            and _points_to_reference(frame, pattern, context, lem)
        ):
            replace = _standing(relation + reference)
            if pattern is _PRONOUN:
                replace = _unless_the_object(frame, replace)
            out = pattern.sub(replace, out)
        elif pattern is _PERSON:
            continue  # a person is never the object
        elif (
            lacks_object
            and obj
            and relation
            and frame.ordering
            and (adverb := pattern.search(out)) is not None
            and _names_reference(frame, lemmas(normalize(out[: adverb.start()])))
            and reference
            and _act_just_before(frame, out[: adverb.start()])
        ):  # "Update - Priya says hem the train first and steam afterwards": after the act
            # its own sentence named first; only the object is the sentence before's
            out = f"{obj}: " + pattern.sub(_standing(relation + reference), out)
        elif lacks_object and obj and _names_object(frame, context):
            done = _done_before(frame, obj, before, lem)
            if pattern is _PRONOUN:
                stands = _stands_for(frame, obj, before, lem, out)
                out = _HELD.sub(_keeping_verb(stands), out)
                out = pattern.sub(_pronoun_for(stands, done), out)
            elif pattern is _FIRST and done is None:
                out = f"{obj}: {out}"  # "Disposal blocked: Halvard has to confirm first.":
                # before no act named, so about the object named before, as its label
            elif (
                relation == "after "
                and frame.sequenced
                and reference
                and _act_named(frame, lem) is not None
                and _names_reference(frame, before)
                and not _names_reference(frame, lem)
            ):  # "Seal the seed lots into the bags on arrival; drying can happen afterwards":
                # after the later act the sentence before did, the rule's act on its object
                out = f"{obj}: " + pattern.sub(_standing(relation + reference), out)
            else:
                out = pattern.sub(_standing(relation + (done or obj)), out)
    return out if out != raw else None


# the words before a pronoun that make it a time or a thing waited for: "before it", "until it
# is done", "wait for it"
_RELATION_BEFORE = re.compile(
    r"\b(?:after|before|until|till|once|for|on|upon|following|pending|when)\s+$", re.IGNORECASE
)


def _unless_the_object(
    frame: Frame, stands: Callable[[re.Match[str]], str]
) -> Callable[[re.Match[str]], str]:
    """`stands` for a pronoun, except an "it" after the object named in the same sentence,
    with no relation word before it: "the slug must stay as it was published" is the slug."""

    def replace(m: re.Match[str]) -> str:
        head = m.string[: m.start()]
        if (
            m.group(0).lower() == "it"
            and not _RELATION_BEFORE.search(head)
            and has_object(frame, lemmas(normalize(head)))
        ):
            return m.group(0)
        return stands(m)

    return replace


def _points_to_reference(frame: Frame, pattern: re.Pattern[str], context: str, lem: str) -> bool:
    """Whether what was said before gives the reference a sentence lacks: a bare "first" or
    "in that case" only where it names every word of it ("Next up: paginate the /api/shipments
    endpoint. Database migration to run first." names no API deploy); a pronoun or
    "afterwards" where it completes it."""
    if pattern is _FIRST or pattern is _IF:
        # each word as written (lemma space), not a loose match: "shipment" is no "ship"
        words = set(context.split())
        return any(r.tokens <= words for r in frame.references)
    return _completes_reference(frame, context, lem)


def _standing(stands: str) -> Callable[[re.Match[str]], str]:
    """A replacement: the words a match keeps (`_LATER`'s modal and what follows it) and
    `stands` in place of the rest ("can happen later" -> "can happen after the staking")."""
    return lambda m: (m.groupdict().get("keep") or "") + stands


def _act_just_before(frame: Frame, raw: str) -> bool:
    """Whether the rule's act is among the last four words of `raw` ("... and steam", "steam
    the gown"): what an adverb right after them says is when."""
    tail = " " + " ".join(lemmas(normalize(raw)).split()[-4:]) + " "
    return any(a in tail for a in frame.actions)


def _done_before(frame: Frame, obj: str, before: str, lem: str) -> str | None:
    """The act on the object the sentence before names, where this sentence names what an
    order puts after it: "Sort the linens first. After that, load the washer." is "after
    sorting the linens", not "after the linens" (an order's act is what "that" was)."""
    if not frame.sequenced or not _names_reference(frame, lem):
        return None
    act = _act_named(frame, before)
    return f"{act} {obj}" if act is not None else None


def _pronoun_for(stands: str, done: str | None) -> Callable[[re.Match[str]], str]:
    """A `_PRONOUN` replacement: a bare "this"/"that" after a relation word stands for the
    act done before (`_done_before`) where there is one; any other pronoun for `stands`."""
    if done is None:
        return lambda m: stands
    return lambda m: done if m.group(0).lower() in ("this", "that") else stands


def _act_named(frame: Frame, text: str) -> str | None:
    """The first of the rule's acts that `text` (lemma space) names."""
    return next((a.strip() for a in frame.actions if a in text), None)


def _keeping_verb(stands: str) -> Callable[[re.Match[str]], str]:
    """A `_HELD` replacement: the verb and its space kept, the pronoun read as `stands`."""
    return lambda m: m.group(1) + m.group(2) + stands


def _stands_for(frame: Frame, obj: str, before: str, lem: str, raw: str) -> str:
    """What a pronoun for the object stands for: the object, or the act on it where a verb
    that puts an act off points to one named before ("Next step would be purging the
    lost-item records. / Hold that until Marguerite has confirmed.": the purge is held)."""
    held = _HELD.search(raw)
    if held and held.group(1).lower() in _DEFERS and not any(a in lem for a in frame.actions):
        act = _act_named(frame, before)
        if act is not None:
            return f"{act} {obj}"
    return obj
