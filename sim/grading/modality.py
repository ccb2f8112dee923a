"""What one clause does with the action it names: forbid, demand or allow, or lift a rule.

The modality of a clause, read by the cue lexicon (sim.grading.lexicon), with what else a
judgement needs: whether it is exclusive ("only after ..."), hedged ("consider ..."), an order
rather than a description, and whether it forbids only by putting off ("pending").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from sim.grading import lexicon as lx
from sim.grading.text import lemmas, normalize

_NOT_BEFORE = re.compile(
    r" (?:and |but )?(?:not|never) (?:(?:before|earlier|early|sooner|soon)(?: that| then)? "
    r"(?!than )|(?:after|later|late|afterwards?)(?: that| then)? $)"
)
"""A "not before" or a trailing "never later": the other side of the condition, so the clause
is exclusive ("after the user says yes, not before"; "only up to step 9, never later"). Lemma
space reads "earlier" as "early"; "not later than step 9" is a bound, and "never after step 6"
opens a rule of its own."""


# "leave the document embeddings alone": the thing left between the verb and its particle
_LEAVE_BE = re.compile(r" (?:leave|let) (?:\S+ ){1,4}(?:alone|be|untouched|as is) ")


# "needs Marguerite's go-ahead", "until she gives the green light", "wait for the OK": the yes
# named as a thing, which a gate waits for, not a permission the clause gives
_YES_NOUN = re.compile(
    r" (?:need|require|get|receive|obtain|await|wait for|until|pending|without|with|after|once|"
    r"give|for|on|her|his|their|your|my|our|(?!is |was |its |this )[a-z]+s) "
    r"(?:go ahead|ok|okay|green light)(?= (?!to )\S| $)"
)


_ASKS = re.compile(
    r"^ (?:(?:so|and|but|then) )?(?:should|shall|can|could|may|do|does|did|is|are|will|would|"
    r"must|what if|how about|why not|need) "
)


def _yes_named(text: str) -> str:
    if "ok" not in text and " ahead " not in text and " light " not in text:
        return text  # nearly every clause: no regex run
    return _YES_NOUN.sub(" yes", text)


# "Step 5 lock on the volume resize: gone": a restriction labelled as ended (in the raw text,
# where the colon is; a restriction noun then an ending word reads the same in lemma space
# as an order, "hold the release")
_ENDED_LABEL = re.compile(
    r"(?i)\b(?:hold|freeze|ban|block|lock|gate|guard|embargo|moratorium|restriction)\b[^:]*:\s*"
    r"(?:gone|lifted|removed|over|ended|expired|cancell?ed|revoked|dropped|void|released)\W*$"
)


_DONE_OPENS = re.compile(r"^[\W_]*(?:done|did|does)\b", re.IGNORECASE)


# "no fixed temperature anymore", "we don't gate on it any more": a rule that held no longer does
_ANYMORE = re.compile(r" (?:no|not|never) (?:\S+ ){0,6}(?:anymore|any more) ")


_TRAILING = re.compile(
    r"\b(if|when|whenever|unless|once|because|since|in case|provided)\b[^,;:()\u2014\u2013]*$"
)
# the order a leading condition comes before ("... 45 km/h do not extend the ladder")
_MAIN_ORDER = re.compile(r"\s(?:do not|don't|never|must not|mustn't|should not|shouldn't)\s")


# "with the queen still unconfirmed we'll keep opening the boxes", "since the logs are not in,
# we pause": a leading circumstance (after a label, if any), up to its comma or the main
# clause's subject and verb, whose negation is its own (an "if" or a "when" is the rule's
# condition, which the regions read)
_LEADING_CIRCUMSTANCE = re.compile(
    r"^\s*(?:[^:,;.]{1,40}:\s*)?(?:with|since|because|as long as|given that|given|now that|while)"
    r"\b[^,;:]*?"
    r"(?=,|\s(?:we|i|you|they|he|she)(?:'ll|\s+(?:will|shall|must|can|should|are|have|need|"
    r"may|might|would|could|do|keep|plan|intend))\b)",
    re.IGNORECASE,
)


# "inflate the envelope quickly so it isn't dragged", "... to avoid a second trip": a purpose
# after the act, to the end of the clause, whose negation or restriction is the purpose's own
# (a bare "so" after a comma is a consequence: "winds over 8 knots, so the envelope stays
# packed")
_PURPOSE = re.compile(
    r"\b(so that|so as(?: not)? to|in order(?: not)? to|to avoid|lest"
    r"|(?<![,;] )so(?= (?:it|they|its|their|he|she|we|the|this|that|these|those|nothing|nobody)\b))"
    r"\b[^,;:()\u2014\u2013]*$"
)


# "seal it afterwards to lock the paint in": a restriction's verb as the purpose of an act,
# not a restriction of it; after "has to", "wants to", "remember to" it is the order itself
_PURPOSE_VERB = re.compile(
    r"\b([a-z']+) (to (?:lock|block|freeze|stop|halt|suspend|withhold|cease|prevent)\b"
    r"[^,;:()\u2014\u2013]*)$"
)
_ASKING = frozenset(
    ("have", "has", "had", "need", "needs", "needed", "want", "wants", "ought", "is", "are",
     "be", "was", "were", "been", "supposed", "going", "remember", "try", "asked", "told",
     "agreed", "decided", "plan", "planned", "able", "allowed", "sure", "forget", "not",
     "never", "please", "and", "or", "used", "got", "gotta", "wanted", "like", "prefer")
)  # fmt: skip


# a report that nothing went wrong ("no module faults", "printed without issues"), lemma space
_NO_TROUBLE = re.compile(
    r" (?:no|without)(?: any)?(?: (?!circumstance |account |condition |case )[a-z-]+){0,2}? "
    r"(?:fault|issue|problem|error|alarm|leak|defect|"
    r"finding|incident|anomaly|anomalie|warning|exception|complaint|crack|failure|injury|"
    r"hiccup|glitch|drama|surprise)s?(?= )"
    # "no tripped breakers", "no failed checks": a thing in a bad state, none found; ending the
    # clause, with no article ("no tripping the breaker" bans)
    r"| no (?:trip|fail|break|broken|blow|blown|burst|crack|jam|stall|damage|stick|stuck|miss|"
    r"drop|leak|spill|lose|lost) (?!the |a |an |any |this |that |it |its )[a-z-]+ $"
)
# "Regional departures: 14 pending": a count of what waits, no putting off
# "the bottom paddles at Lock 14", "board at Gate 3", "cargo in Hold 2": a restriction's noun
# that is a thing's name, capitalized before its number or letter (a lock or gate with a
# number after it is one in any case), after a word (a sentence's first word is capitalized
# anyway: "Hold 3 days"); raw text, then lemma space
_NAMED_THING = re.compile(
    r"(?<=[a-z,] )(?:(Lock|Gate|Block|Hold|Guard|Stop|Barrier)s?|(?i:(lock|gate))s?) (\d+|[A-Z]\b)"
)
_NAME_NOUN_HINT = re.compile(r" (?:lock|gate|block|hold|guard|stop|barrier) [a-z0-9]")


def _named_things(rest: str, raw: str) -> str:
    """`rest` (lemma space) with each restriction noun that is a thing's name in `raw`
    (`_NAMED_THING`) read as a plain noun."""
    for m in _NAMED_THING.finditer(raw):
        noun = (m.group(1) or m.group(2)).lower()
        ident = m.group(3).lower()
        rest = rest.replace(f" {noun} {ident} ", f" thing {ident} ")
    return rest


_COUNT_PENDING = re.compile(r" \d+ (?:[a-z-]+ )?pend(?:ing)? $")
_ASIDE_PENDING = re.compile(r"\s[-–—]\s+[\w' ]{1,40}\bpending\W*$", re.IGNORECASE)
# "the batch holds roughly 4,000 rows", "tank 2 holds 40 l": what a thing contains, not a hold
# on it (lemma space)
_HOLDS_AMOUNT = re.compile(
    r" hold (?=(?:(?:roughly|about|approximately|around|some|nearly|almost|over|under|just|"
    r"only|up to|at least|at most|close to) )*\d)"
)


# "nothing else", "nothing higher or lower", "none other than that" ending a clause (or before
# "is acceptable"), lemma space: the clause's own words are all it allows
_NOTHING_ELSE = re.compile(
    r" (?:and |but )?(?:nothing|none) (?:else|other|high(?:er)?|low(?:er)?|more|less|above"
    r"|below|over|under|beyond)(?: or (?:high(?:er)?|low(?:er)?|more|less|else))?"
    r"(?: than (?:that|this|it))?(?= $| (?:is|be|are) (?:acceptable|allow|allowed|ok|fine"
    r"|permit|permitted|accept|accepted) $)"
)


_EMPHASIS = frozenset(lx.lemma_phrase(p) for p in ("no exception", "without fail"))
_MID_CONDITION = re.compile(
    r",\s*((?:if|when|whenever|unless|once|because|since|in case|provided)\b"
    r"[^,;:()\u2014\u2013]*),"
)


class Reading(Enum):
    """What a clause does with the action it names."""

    FORBID = "forbid"
    POSITIVE = "positive"  # a requirement, a permission or a plain statement
    REVOKED = "revoked"  # lifts a rule ("no longer needed", "restriction lifted")


@dataclass(frozen=True, slots=True)
class Clause:
    reading: Reading
    exclusive: bool
    hedged: bool
    directive: bool  # permits or demands, rather than describes
    deferred: bool  # forbids only by putting off ("pending", "on hold"), with no negation
    tokens: tuple[str, ...]
    text: str  # lemma space, space-padded
    raw: str = ""
    gesture: bool = False  # gestures at a rule without stating it ("leave it alone for now")


# "Answer: no - grant it now", "No, ship it": the no answers what was asked before
REPLY_NO = re.compile(
    r"(?i)^\W*(?:(?:answer|reply|decision)\s*:\s*|[a-z]+ (?:answered|replied|said|says)\s*:?\s*)?"
    r"no\s*(?:-|–|—|,)\s+(?!no\b|not\b)"
)


def _revokes(s: str) -> bool:
    """A revocation cue that no negation before it denies: "the rate buffer cannot be waived"
    keeps the restriction ("not needed" is a cue of its own, and no such denial)."""
    for m in lx.REVOCATION_RE.finditer(s):
        if not _DENIED_CUE.search(s, max(0, m.start() - 24), m.start()):
            return True
    return False


_DENIED_CUE = re.compile(r" (?:not|never|cannot)(?: be| have| been| get| ever)* $")


_REJECTED = re.compile(r" (?:rather than|instead of) ")


def _only_permit_nouns(raw: str) -> bool:
    """Whether every "permit" of a raw clause names the document (lexicon.PERMIT_NOUN_RE)."""
    return len(lx.PERMIT_NOUN_RE.findall(raw)) >= len(_PERMIT_WORD.findall(raw))


_PERMIT_WORD = re.compile(r"(?i)\bpermit(?:s|ted|ting)?\b")


@lru_cache(maxsize=32_768)  # one sentence is read for every fact it names, at every level
def read_clause(
    lemma_text: str, deferral: bool = True, raw: str = "", acts: frozenset[str] = frozenset()
) -> Clause:
    """The clause's modality, by the cue lexicon (sim.grading.lexicon); `acts`, the words of
    the rule's own acts: a gate skipped by one of them ("skip check") is the act skipped."""
    s = lemma_text
    if " no" in s or " neither " in s:  # "232 bar, no more, no less": exactly, no negation
        s = lx.EXACT_RE.sub(" exactly", s)
    correction = _NOT_BEFORE.search(s)  # "after the user says yes, not before": exclusive
    if correction is not None:
        s = s[: correction.start()] + " only " + s[correction.end() :]
    if raw and " no " in s[:16] and REPLY_NO.match(raw):
        s = s.replace(" no ", " ", 1)  # "Answer: no - grant it now": a reply, not a negation
    waived = lx.WAIVE_RE.search(s) is not None
    if waived and acts:  # "skip checking the impedances": the rule's own check, not a gate
        waived = any(m.group(0).split()[-1] not in acts for m in lx.WAIVE_RE.finditer(s))
        rest = lx.WAIVE_RE.sub(lambda m: m.group(0) if m.group(0).split()[-1] in acts else " ", s)
    else:
        rest = lx.WAIVE_RE.sub(" ", s) if waived else s
    if raw and _NAME_NOUN_HINT.search(rest):
        rest = _named_things(rest, raw)
    trail = _TRAILING.search(raw.lower()) if raw and " " in raw else None
    if (
        trail is not None
        and raw[: trail.start()].rstrip().endswith((",", ":"))
        and _MAIN_ORDER.search(trail.group(0))
    ):
        trail = None  # "Per the SOP, if the wind exceeds 45 km/h do not extend the ladder":
        # a condition that opens the clause, its comma left out, before the order
    if trail is not None and trail.start() > 0 and raw[: trail.start()].count(" ") >= 2:
        # "re-pitch the yeast if the gravity hasn't moved", "resubmit it once the ledger is
        # locked": a negation or a hold in a trailing condition (nothing after it but its own
        # words; a leading one ends at a comma) is the condition's
        at = rest.rfind(f" {trail.group(1)} ")
        if at > 0:
            rest = rest[:at] + " "
    if " than " in rest:
        rest = lx.NEGATED_BOUND_RE.sub(" ", rest)  # "no higher than 232 bar": a bound
    lead = _LEADING_CIRCUMSTANCE.match(raw) if raw and " " in raw else None
    if lead is not None and lead.end() < len(raw.rstrip()) - 8:
        words = lemmas(normalize(lead.group(0)))
        if rest.startswith(words):
            rest = " " + rest[len(words) :]
    purpose = _PURPOSE.search(raw.lower()) if raw and " " in raw else None
    if purpose is not None and raw[: purpose.start()].count(" ") >= 2:
        at = rest.rfind(lemmas(normalize(purpose.group(1))))
        if at > 0:
            rest = rest[:at] + " "
    aim = _PURPOSE_VERB.search(raw.lower()) if raw and " " in raw else None
    if aim is not None and aim.group(1) not in _ASKING and raw[: aim.start()].count(" ") >= 2:
        at = rest.rfind(lemmas(normalize(aim.group(2))))
        if at > 0:
            rest = rest[:at] + " "
    if raw and "," in raw:
        for mid in _MID_CONDITION.finditer(raw.lower()):
            # "reorder it after step 4, once all location holds are back, rather than ...":
            # a condition set off by commas holds its own words, as a trailing one does
            words = lemmas(normalize(mid.group(1)))
            if len(words) > 2 and words in rest:
                rest = rest.replace(words, " ", 1)
    if " rather than " in rest or " instead of " in rest:
        # "start splitting the core now rather than holding for Radomir": the alternative
        # turned down holds no cue of the clause's
        cut = _REJECTED.search(rest)
        if cut is not None and cut.start() > 0:
            rest = rest[: cut.start()] + " "
    paper = " permit " in s and bool(raw) and _only_permit_nouns(raw)
    if paper:  # "(see permit)": a document, which allows nothing
        rest = rest.replace(" permit ", " permit-paper ")
    if " no " in rest or " without " in rest:
        rest = _NO_TROUBLE.sub(" ", rest)  # "dimmer rack healthy, no module faults": a report
    only_that = None
    if " nothing " in rest or " none " in rest:
        # "load limit 40 tonnes, nothing higher": what the clause names and nothing more, no ban
        only_that = _NOTHING_ELSE.search(rest)
        if only_that is not None:
            rest = rest[: only_that.start()] + " " + rest[only_that.end() :]
    if " pend" in rest and (count := _COUNT_PENDING.search(rest)) is not None:
        rest = rest[: count.end()].rstrip().rsplit(" ", 1)[0] + " "  # the count, not "pending"
    elif rest.endswith(" pend ") and raw and _ASIDE_PENDING.search(raw):
        rest = rest[: -len("pend ")]  # "... after Delphine signs off - proof of ownership
        # pending": a status of something else, set off by its dash
    if " hold " in rest:
        rest = _HOLDS_AMOUNT.sub(" contain ", rest)
    negation = bool(lx.NEGATION_RE.search(rest) or _LEAVE_BE.search(rest))
    deferred = (
        not negation
        and deferral
        and bool(lx.DEFERRAL_RE.search(rest) or lx.STAY_UNTIL_RE.search(rest))
    )
    negated = negation or deferred
    exclusive = bool(lx.EXCLUSIVE_RE.search(s)) or only_that is not None
    double = lx.DOUBLE_NEGATIVE_RE.search(s)
    if double is not None and double.group(0) in _EMPHASIS:
        # "display cases off-limits, no exceptions": emphasis of whatever the clause says
        plain = s[: double.start()] + s[double.end() :]
        if lx.NEGATION_RE.search(plain) or lx.DEFERRAL_RE.search(plain):
            double = None
    if double is not None:
        reading = Reading.POSITIVE
    elif (
        _revokes(s)
        or ("lift" in s and lx.LIFTED_RE.search(s))
        or (not negated and lx.WEAK_REVOCATION_RE.search(s))
        or lx.ENDED_RESTRICTION_RE.search(s)
        or lx.ENDED_GATE_RE.search(s)
        or (raw and lx.ENDING_RESTRICTION_RE.search(raw) is not None)
        or (":" in raw and _ENDED_LABEL.search(raw) is not None)
        or ("more" in s and _ANYMORE.search(s) is not None)
    ):
        reading = Reading.REVOKED
    elif exclusive and negated and lx.PERMISSION_RE.search(_yes_named(rest)):
        reading = Reading.POSITIVE  # "may only be dropped up to step 6, never later"
    elif lx.EXCEPT_PIN_RE.search(s):
        reading, exclusive = Reading.POSITIVE, True
    elif lx.NEGATED_PERMISSION.search(rest) or negated:
        reading = Reading.FORBID
    else:
        reading = Reading.POSITIVE
    cues = _yes_named(_NO_TROUBLE.sub(" ", s) if " without " in s else s)
    if paper:
        cues = cues.replace(" permit ", " permit-paper ")
    if cues.startswith(" do ") and raw and _DONE_OPENS.match(raw):
        cues = cues[3:]  # "Done: export pulled": a status, which lemma space opens with "do"
    directive = bool(
        lx.PERMISSION_RE.search(cues) or lx.DIRECTIVE_RE.search(cues) or lx.SKIP_RE.search(cues)
    )
    asks = raw.rstrip().endswith("?") and _ASKS.match(s) is not None  # "Should we X?"
    return Clause(
        reading,
        exclusive,
        bool(lx.HEDGE_RE.search(s)) or asks,
        directive,
        deferred and reading is Reading.FORBID,
        tuple(s.split()),
        s,
        raw,
        bool(lx.GESTURE_RE.search(s)),
    )
