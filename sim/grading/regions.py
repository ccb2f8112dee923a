"""Where a clause puts the rule's action relative to the rule's condition.

The same condition (SAME), its opposite (OPPOSITE: after <-> before, if <-> unless, a
reference's antonym), none stated (NONE), or a gate keyed to a refusal (REFUSAL). Word order
counts: "never B before A" states A's condition from B's side, and reads reversed.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from sim.grading import lexicon as lx
from sim.grading.frames import Frame
from sim.grading.lexicon import Relation
from sim.grading.modality import Clause, Reading
from sim.grading.references import AWAITS, Reference, relation_before, window


def _object_at(frame: Frame, tokens: tuple[str, ...]) -> int | None:
    text = " " + " ".join(tokens) + " "
    for form in frame.objects:
        pos = text.find(form)
        if pos >= 0:
            return text[:pos].count(" ")
    heads = {h for h, _ in frame.heads}
    head = next((i for i, t in enumerate(tokens) if t in heads), None)
    if head is not None:
        return head
    # the object named by its modifiers alone ("the ledger snapshot" for the ledger volume)
    for mods in frame.modifiers:
        pos = text.find(mods)
        if pos >= 0:
            return text[:pos].count(" ")
    return None


def _after(frame: Frame, tokens: tuple[str, ...], end: int) -> bool:
    obj = _object_at(frame, tokens)
    return obj is not None and obj >= end


_CONDITIONAL = frozenset(("if", "when", "whenever", "should", "in case"))
_LEAD_WORDS = frozenset(("and", "but", "so", "also", "now", "only", "even"))


def _conditional(frame: Frame, before: tuple[str, ...]) -> bool:
    """Whether the words before a "then" are the case of a conditional: they open with "if",
    "when", ... and hold none of the rule's acts ("Run it if needed, then deploy" and "When
    ready, run the migration, then deploy" are sequences)."""
    words = [t for t in before[:3] if t not in _LEAD_WORDS]
    if not words or not (words[0] in _CONDITIONAL or " ".join(words[:2]) in _CONDITIONAL):
        return False
    text = " " + " ".join(before) + " "
    return not any(a in text for a in frame.actions)


def _relation_after_object(frame: Frame, tokens: tuple[str, ...], ref_end: int) -> Relation | None:
    """ "B first; A can follow afterwards": the relation stands after the object, which comes
    after the reference; A follows B, so A is after B."""
    obj = _object_at(frame, tokens)
    if obj is None or obj < ref_end:
        return None
    tail = " " + " ".join(tokens[obj + 1 : obj + 8]) + " "
    first = _FIRST.search(tail)
    if first is not None and not any(a in tail[first.end() - 1 :] for a in frame.actions):
        return Relation.BEFORE  # "snapshot the ledger volume (must be first)"; not "varnish
        # the planks first and sand them afterwards", where the rule's act follows "first"
    if any(t in _LATER for t in tokens[obj + 1 : obj + 8]):
        return Relation.AFTER  # "load the washer, and sort the linens at the table afterwards"
    m = lx.RELATION_RE.search(tail)
    if m is None or lx.RELATIONS[m.group(0)] not in (Relation.AFTER, Relation.BEFORE):
        return None
    rest = tail[m.end() :].split()
    if rest and rest[0] not in _TRAILING:
        return None  # "A ... before C": a relation to something else
    return lx.RELATIONS[m.group(0)]


def done_by_relative(
    frame: Frame, tokens: tuple[str, ...], obj: int | None = None
) -> tuple[bool, int, int] | None:
    """Whether a relative clause on the object denies the rule's act ("solvents that haven't
    been degassed": True) or states it done ("a ladle whose lining has been preheated":
    False), with the span of `tokens` from its relative word to the act; None where none
    names it. Its "not" and its act (which may be a cue itself: "consumers that have been
    paused") are its own: the rest of the clause has its own reading."""
    if obj is None and (obj := _object_at(frame, tokens)) is None:
        return None
    start = max(0, obj - 1)
    tail = " " + " ".join(tokens[start : obj + 10]) + " "
    if not any(w in tail for w in _RELATIVES):
        return None
    found = _relative_act(frame.actions).match(tail)
    if found is None:
        return None
    first = start + tail[: found.start("relative")].count(" ") - 1
    end = start + tail[: found.end()].count(" ") - 1
    return found.group("denied") is not None, first, end


_RELATIVES = (" that ", " which ", " who ", " whose ")


@lru_cache(maxsize=4_096)
def _relative_act(actions: tuple[str, ...]) -> re.Pattern[str]:
    acts = "|".join(re.escape(a.strip()) for a in actions)
    return re.compile(
        r" (?:\S+ ){0,4}?(?P<relative>that|which|who|whose) (?:\S+ )?"
        r"(?:(?:have|has|be|get|already) )*(?P<denied>(?:not|never) )?"
        r"(?:(?:yet|be|have|get) )*(?:" + acts + r") "
    )


_DONE_NOW = re.compile(
    r" step \d+ (?:\S+ ){0,5}(?:do|finish|complete|over|behind) .*\b(?:from (?:now|this point|here|"
    r"then) on|henceforth|go forward|from here)\b"
)
_FIRST = re.compile(r" (?:first|beforehand|earlier|1st) ")
# a step or act still to finish, right after its reference (lemma space): "while step 5 is
# still pending", "as long as the export is unfinished"
_PENDING = re.compile(
    r" (?:is |be |are |remain |stay )?(?:still |yet )?(?:pending|pend|unfinished|incomplete|"
    r"in progress|underway|ongoing|outstanding|open|not (?:yet )?(?:do|done|finish|complete|"
    r"over)|to come) "
)
# what comes after, in lemma space ("later" is "late")
_LATER = frozenset(("late", "afterwards", "afterward", "retroactively", "subsequently"))
_TRAILING = frozenset(
    (
        "it", "that", "this", "them", "afterwards", "afterward", "later", "next", "after",
        "then", "once", "too",
    )
)  # fmt: skip


# prepositions read as relations ("with sign-off", "from step 5"), loosely
_LOOSE = frozenset(("with", "from"))


def _orders_nothing(frame: Frame, tokens: tuple[str, ...], word: str, obj: int, end: int) -> bool:
    """Whether a loose preposition before an ordering's object orders nothing: a word after
    the act says it comes first or last ("raise the gates, with the sirens sounded
    afterwards", "load the washer straight from the carts and sort the linens afterwards"),
    or "with" leads an object the other act takes, no act done to it ("load the tunnel washer
    with the surgical linens"; "with the linens sorted" orders them)."""
    if word not in _LOOSE or not frame.ordering:
        return False
    if _relation_after_object(frame, tokens, end) is not None:
        return True
    after = " " + " ".join(tokens[obj : obj + 7]) + " "
    return word == "with" and not any(a in after for a in frame.actions)


_UNLESS = re.compile(r" (?:unless|except if|except when)$")
_NOT = re.compile(r" (?:not|never) ")
_NOT_NO = re.compile(r" (?:not|never|no) ")  # "when it has no leak alarm"


def _denied_at(tokens: tuple[str, ...], start: int, end: int, ref: Reference) -> int | None:
    """Where the condition's relation word stands (a token index) when the condition is denied
    after it, before or within its own words ("when the ticket is not tagged legal-hold", "when
    the build is not flagged"): that states the condition's opposite. None when it is not."""
    first = max(0, start - 5)
    lead = " " + " ".join(tokens[first:start]) + " "
    words = list(lx.RELATION_RE.finditer(lead))
    if not words:
        return None
    # a loose window may stop short of the reference's last word: "finds no malware" matches
    # "nightly scan finds" and leaves the denial just past its end
    tail = next((end + i + 1 for i, t in enumerate(tokens[end : end + 2]) if t in ref.tokens), end)
    inside = " " + " ".join(t for t in tokens[start:tail] if t not in ref.tokens) + " "
    # "no" denies a reference read as itself; a complement's "no X on file" is the reference
    denial = _NOT if ref.antonym else _NOT_NO
    if denial.search(lead[words[-1].end() :] + inside) is None:
        return None
    return first + lead.count(" ", 1, words[-1].start())  # the lead opens with a space


def denied_condition(frame: Frame, clause: Clause) -> tuple[int, int] | None:
    """The tokens, from its relation word to its end, of a condition denied in the clause ("only
    if the donor has not requested anonymity"), or None: the denial is the condition's, and the
    clause's own modality is read without it."""
    tokens = clause.tokens
    for ref in frame.references:
        span = window(tokens, ref.tokens)
        at = None if span is None else _denied_at(tokens, span[0], span[1], ref)
        if span is not None and at is not None and (frame.conditional or _if_at(tokens, at)):
            return at, span[1]
    return None


def _if_at(tokens: tuple[str, ...], at: int) -> bool:
    """Whether the relation word at `at` is "if" or its kin: only those deny a gate's yes
    ("if Marisol hasn't confirmed"); "until she has not" is no English."""
    found = lx.RELATION_RE.match(" ".join(tokens[at : at + 3]) + " ")
    return found is not None and lx.RELATIONS[found.group(0)] is Relation.IF


_WILL = frozenset(("will", "to"))


def _yes_to_come(frame: Frame, tokens: tuple[str, ...], start: int, end: int) -> bool:
    """Whether a gate's yes is said to come later ("Teodora will confirm later", "Gunnar to
    confirm", "approval to be requested retroactively"); not "has to confirm", which is the
    gate itself."""
    if not frame.confirmation or (
        start and (tokens[start - 1] in _NEED or tokens[start - 1] in lx.RELATIONS)
    ):
        return False  # "their release needs Teodora to confirm first", "archive it only after
        # Ines to confirm" (a wait, then an order): the gate itself
    span = tokens[start:end]
    if any(t in _LATER for t in tokens[end : end + 3]) or any(t in _LATER for t in span):
        return True
    tail = " " + " ".join(tokens[end : end + 8]) + " "
    if " after " in tail and any(f" after{a}" in tail for a in frame.actions):
        return True  # "Ines can sign off on them after publishing them": the yes after the act
    return any(t in _WILL and (i == 0 or span[i - 1] not in _HAVE) for i, t in enumerate(span[:-1]))


_HAVE = frozenset(("have", "has", "need", "needs", "ought", "be", "is", "going", "want"))
_NEED = frozenset(("need", "require", "want", "ask", "wait", "get", "have", "for", "until"))


def _leads_object(frame: Frame, tokens: tuple[str, ...], start: int) -> bool:
    """Whether the relation word before the reference at `start` leads the rule's own act
    instead of the reference: the object and the action stand between them ("before Truck 27
    is dispatched, Gunnar ..."; not "before it is released to production", where the object
    is the reference's own)."""
    if frame.conditional:
        return False
    first = max(0, start - 5)
    lead = " " + " ".join(tokens[first:start]) + " "
    own = frame.actions  # the rule's own act is no relation word (references.relation_before)
    last = next(
        (m for m in reversed(list(lx.RELATION_RE.finditer(lead))) if f" {m.group(0)} " not in own),
        None,
    )
    if last is None:
        return False
    at = first + lead.count(" ", 1, last.end()) + 1  # the token after the relation word
    between = tuple(tokens[at:start])
    text = " " + " ".join(between) + " "
    return _object_at(frame, between) is not None and any(a in text for a in frame.actions)


def _window_past_act(
    frame: Frame, tokens: tuple[str, ...], ref: Reference
) -> tuple[int, int] | None:
    """The reference's window, opening past the rule's own act where one opens on it: in "do
    not sign the contract until the general counsel signs off" the act's "sign" is no yes."""
    span = window(tokens, ref.tokens)
    while span is not None and f" {tokens[span[0]]} " in frame.actions:
        later = window(tokens[span[0] + 1 :], ref.tokens)
        if later is None:
            break
        span = (later[0] + span[0] + 1, later[1] + span[0] + 1)
    return span


# what may stand between an ordering's relation word and its own act on the object B was
# done to: "before redacting it", "until it has been redacted", "without first sanding them"
_TO_OWN_ACT = frozenset(
    ("it", "them", "they", "this", "that", "these", "those", "its", "their", "is", "are", "be",
     "been", "being", "have", "has", "had", "get", "first", "fully", "properly", "all",
     "pass", "undergo", "complete", "clear",  # "until it has passed validation"
     "you", "we", "i", "someone", "somebody")  # "before you smoke the hives"
)  # fmt: skip


def _own_act_after(frame: Frame, tokens: tuple[str, ...], obj: int) -> Relation | None:
    """The relation word (after or before) that leads the rule's own act after the object, with
    only pronouns and helpers between them: in "never share the export before redacting it"
    the object is the far act's, and "before" leads the rule's act done to it. None otherwise."""
    tail = tokens[obj + 1 : obj + 14]
    found = _first_relation(tail, len(tail))
    if found is None or found[2] not in (Relation.AFTER, Relation.BEFORE):
        return None
    i, word, relation = found
    j = i + word.count(" ") + 1
    while j < len(tail) and tail[j] in _TO_OWN_ACT:
        j += 1
    rest = " " + " ".join(tail[j : j + 3]) + " "
    if j < len(tail) and any(rest.startswith(a) for a in frame.actions):
        return relation
    return None  # the first relation word after the object leads something else


def _first_relation(
    tail: tuple[str, ...], limit: int, particles: tuple[str, ...] = ()
) -> tuple[int, str, Relation] | None:
    """The first relation word among the first `limit` tokens of `tail`: its place, words and
    relation. A loose one ("share the export with the vendor before ...": "with" leads the far
    act's own words) and the particle of a verb in `particles` ("go on") are passed over."""
    for i in range(min(len(tail), limit)):
        found = lx.RELATION_RE.match(" ".join(tail[i : i + 3]))
        if found is None or found.group(0) in _LOOSE:
            continue
        if f" {' '.join(tail[max(0, i - 1) : i + 1])} " not in particles:
            return i, found.group(0), lx.RELATIONS[found.group(0)]
    return None


class Region(Enum):
    SAME = "same"
    OPPOSITE = "opposite"
    NONE = "none"
    REFUSAL = "refusal"  # a gate keyed to the user's refusal ("unless the user objects")


_NEEDS = frozenset(
    lx.lemma_phrase(w)
    for w in ("need", "require", "subject to", "conditional on", "contingent on", "depend on",
              "hinge on", "wait for", "wait until", "wait on", "pending", "await")
)  # fmt: skip
"""Gates that name what the action needs: in a forbidding clause they say until when
("blocked: needs an explicit yes"), not after what ("with step 3 done, no restarts")."""


_WAIT_WORD = re.compile(
    r"\b(?:wait\w* (?:for|on)|await\w*|pending|hold\w* (?:off )?for|subject to|depend\w* on|"
    r"hinges? on|block\w* (?:on|by)|gated? (?:on|by))\s+([\w\s'’]{0,40})",
    re.IGNORECASE,
)


def _awaits_in_raw(raw: str, names: frozenset[str]) -> bool:
    """Whether the raw clause names the person right after the wait word, with no punctuation
    between ("waits for Anselm", "pending the GC"): not "pending — Desmond's name came up". A
    clause read without its raw text (a resolved one) is taken as it is."""
    if not raw:
        return True
    return any(
        any(n in m.group(1).lower().replace("'", " ").replace("’", " ").split() for n in names)
        for m in _WAIT_WORD.finditer(raw)
    )


def region(frame: Frame, clause: Clause) -> Region:
    """Where the clause puts the action relative to the fact's condition."""
    if frame.region is None:
        return Region.NONE
    for o in frame.opposites:
        at = clause.text.find(o)
        if at >= 0:  # "issue the ticket unless the passport is valid": the condition itself
            return Region.SAME if _UNLESS.search(clause.text[:at]) else Region.OPPOSITE
    if any(c in clause.text for c in frame.literals):
        return Region.SAME
    tokens = clause.tokens
    for ref in (*frame.references, *frame.awaited):
        span = _window_past_act(frame, tokens, ref)
        if span is None:
            continue
        start, end = span
        relation: Relation | None = None
        later = _yes_to_come(frame, tokens, start, end)
        found = None if later else relation_before(tokens, start, frame.actions)
        if ref.awaited and (
            found is None or found[0] not in AWAITS or not _awaits_in_raw(clause.raw, ref.tokens)
        ):
            continue  # "once Anselm is back", "pending — Desmond's name came up": the person
        if found is not None and found[0] == "then" and _after(frame, tokens, end):
            found = None  # "check X, then resize the disk - the snapshot comes after": "then"
            # ties the reference to what precedes it, not to the object that follows it
        if found is not None and found[0] == "then" and _conditional(frame, tokens[:start]):
            found = None  # "if the migration fails, then deploy the API": the "then" of an
            # "if", which names what follows a case, not what follows the act
        if found is not None:
            relation = found[1]
            if (
                relation is Relation.IF
                and frame.ordering
                and _relation_after_object(frame, tokens, end) is Relation.BEFORE
            ):
                relation = Relation.BEFORE  # "When tapping the converter, preheat the lining
                # first": the case names B, and "first" puts A before it
            if (
                relation in (Relation.AFTER, Relation.BEFORE)
                and clause.reading is Reading.FORBID
                and (clause.deferred or ", only " in clause.raw.lower())
                and (
                    found[0].startswith("only ")
                    or " ".join(tokens[max(0, start - 4) : start]).endswith(f"only {found[0]}")
                )
            ):
                relation = lx.OPPOSITE[relation]  # "loading on hold, only after Marisol
                # confirms", "Waiting on Marisol: load only after her yes": where the act is
                # allowed, so it is held on the other side
            if relation in (Relation.AFTER, Relation.BEFORE) and _leads_object(
                frame, tokens, start
            ):
                relation = lx.OPPOSITE[relation]  # "before Truck 27 is dispatched, Gunnar has
                # to confirm": the relation word leads the act; A before B is B after A
            if frame.conditional and found[0] == "at":
                relation = Relation.IF  # "prohibited at disk usage above 90%": when
            if (frame.conditional or relation is Relation.IF) and _denied_at(
                tokens, start, end, ref
            ) is not None:
                relation = lx.OPPOSITE[relation]  # "only when the ticket is not tagged X";
                # "if Marisol hasn't confirmed, do not load the crates" (until she confirms)
            if (
                (clause.deferred and found[0] in lx.GATES)
                or (clause.reading is Reading.FORBID and found[0] in _NEEDS)
            ) and relation is Relation.AFTER:
                relation = Relation.BEFORE  # "pending (needs the user's approval)", "blocked:
                # needs an explicit yes": forbidden until then, not after it
        else:
            obj = _object_at(frame, tokens)
            if obj is not None and obj > end:  # "B ... before ... A": the reference comes first
                between = relation_before(tokens, obj, frame.actions)
                if between is not None and _orders_nothing(frame, tokens, between[0], obj, end):
                    between = None
                if between is not None and between[1] is Relation.UNLESS and frame.ordering:
                    between = (between[0], Relation.BEFORE)  # "never B unless A" = "... until A"
                temporal = between is not None and between[1] in (Relation.AFTER, Relation.BEFORE)
                if between is None:
                    own = _own_act_after(frame, tokens, obj) if frame.ordering else None
                    if own is not None:  # "only apply the dye to a new client after they've
                        # been patch-tested": the rule's act on the far act's object, after it
                        relation = lx.OPPOSITE[own]
                elif temporal and (frame.ordering or between[0] not in lx.GATES):
                    relation = lx.OPPOSITE[between[1]]  # "B before A" is "A after B"
                else:
                    relation = between[1]  # "approval required for X": X after approval
                relative = done_by_relative(frame, tokens, obj) if frame.ordering else None
                if relative is not None:
                    undone = relative[0]
                    # "never tap the converter into a ladle whose lining hasn't been
                    # preheated": B done on an object A has not been done to is B before A
                    if relation is None:
                        relation = Relation.AFTER if undone else Relation.BEFORE
                    elif undone and relation in (Relation.AFTER, Relation.BEFORE):
                        relation = lx.OPPOSITE[relation]
            elif (
                frame.ordering
                and obj is not None
                and start <= obj <= end
                and (own := _own_act_after(frame, tokens, obj)) is not None
            ):
                relation = lx.OPPOSITE[own]  # "never share the export before redacting it":
                # the object is B's, A's act follows on it; B before A is A after B
            elif (
                obj is not None
                and obj < start
                and (
                    frame.ordering
                    or (
                        frame.confirmation
                        and any(a in " " + " ".join(tokens[obj:start]) + " " for a in frame.actions)
                    )
                )
            ):
                # "only after A is done may B go ahead": the relation word leads the rule's own
                # act, which comes first; B after A is A before B ("once the command is
                # uplinked, Anselm confirms": the yes comes after the act)
                between = relation_before(tokens, obj, frame.actions)
                if between is not None and between[1] in (Relation.AFTER, Relation.BEFORE):
                    relation = lx.OPPOSITE[between[1]]
        if later:
            # "units released at 10:40; Teodora will confirm later": the yes comes after the
            # act, so the act stands before it
            relation = Relation.BEFORE
        if relation is None and frame.ordering:
            relation = _relation_after_object(frame, tokens, end)
        if relation is None and _FIRST.search(" " + " ".join(tokens[end : end + 2]) + " "):
            # "Disposal blocked: Halvard has to confirm first": the reference comes first, so
            # a forbidding clause forbids the act before it, and any other puts the act after
            relation = Relation.BEFORE if clause.reading is Reading.FORBID else Relation.AFTER
        if relation is None and _DONE_NOW.search(clause.text):
            relation = Relation.AFTER  # "step 4 is done ... from now on": after step 4
        if relation is None:
            if not frame.conditional:
                continue
            relation = Relation.IF
        if (
            relation is Relation.IF
            and not frame.conditional
            and _PENDING.match(" " + " ".join(tokens[end : end + 5]) + " ")
        ):
            relation = Relation.BEFORE  # "only while step 5 is still pending": before it
        if frame.conditional:
            relation = {Relation.AFTER: Relation.IF, Relation.BEFORE: Relation.UNLESS}.get(
                relation, relation
            )
        else:
            relation = {Relation.IF: Relation.AFTER, Relation.UNLESS: Relation.BEFORE}.get(
                relation, relation
            )
        if ref.antonym and not frame.conditional:
            return Region.REFUSAL
        if ref.antonym:
            relation = lx.OPPOSITE[relation]
        return Region.SAME if relation is frame.region else Region.OPPOSITE
    if frame.held_objects and clause.reading in (Reading.FORBID, Reading.POSITIVE):
        held = _held_until(frame, tokens, clause.reading is Reading.POSITIVE)
        if held is not None:  # "ceramic sealant stays locked out until the lines are purged":
            # the later act's object held until the rule's act is "B until A", from B's side;
            # "the new shoes can go on before the hooves are trimmed": B done before A
            return Region.SAME if lx.OPPOSITE[held] is frame.region else Region.OPPOSITE
    return Region.NONE


# verbs that stand in for an ordering's later act on its object ("the new shoes go on", "the
# supers come off"): a positive clause names the act by one of them (lemma space)
_STAND_INS = (" go on ", " go out ", " go in ", " come off ", " come out ", " go ahead ",
              " proceed ", " happen ", " be fit ", " get fit ")  # fmt: skip


def _held_until(frame: Frame, tokens: tuple[str, ...], stands_in: bool = False) -> Relation | None:
    """The relation word (before or after) between an ordering's later act named by its
    object alone and the rule's own act after it, within a few words of each; with
    `stands_in`, only where a verb between them stands in for the later act."""
    for ref in frame.held_objects:
        span = window(tokens, ref.tokens)
        if span is None:
            continue
        tail = tokens[span[1] : span[1] + 8]
        found = _first_relation(tail, 6, _STAND_INS)  # past the particle of "go on"
        if found is None:
            continue
        i, _, relation = found
        if relation not in (Relation.AFTER, Relation.BEFORE):
            return None
        between = " " + " ".join(tail[:i]) + " "
        if stands_in and not any(v in between for v in _STAND_INS):
            return None
        after = " " + " ".join(tokens[span[1] + i + 1 : span[1] + i + 9]) + " "
        return relation if any(a in after for a in frame.actions) else None
    return None
