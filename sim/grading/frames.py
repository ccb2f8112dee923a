"""A fact as a small frame, and what one clause says of it.

A rule is read as: modality (forbid / require), an action by its lemma, an object by its head,
and for most classes a condition: a relation (after, before, if, unless) to a reference ("step
4", "the API deploy", "the user's yes", "the integration tests fail"). A clause is matched frame
to frame, not word to word, so the class's equivalent wordings agree:

- an ordering "A before B" = "never B before A" = "B only after A";
- a gate "wait for yes before X" = "X only once yes" = "X requires yes" = "X once yes";
- a prohibition "never X after step 4" = "X only up to step 4";
- a value pin "use V for O" = "no O with any value but V".

What flips a rule: the other modality under the same condition, the same modality under the
opposite condition (derived: after <-> before, if <-> unless, a reference's antonym such as
fail <-> pass, on top of any declared opposites), or a revocation ("no longer", "lifted",
"optional", "no need").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from sim.grading import lexicon as lx
from sim.grading.lexicon import Relation
from sim.grading.text import lemmas, normalize
from sim.types import Fact, Polarity

# Words that may stand before an object's head word without naming another object: "drop the
# table" and "this table" are about the fact's table, "staging table" is not.
_COMMON = frozenset(
    (
        "this", "that", "these", "those", "its", "their", "our", "your", "my", "of", "to", "for",
        "on", "in", "with", "from", "and", "or", "be", "is", "are", "was", "were", "by", "at",
        "as", "it",
    )
)  # fmt: skip
_FUNCTION = _COMMON | frozenset(
    (
        "all", "any", "every", "each", "no", "not", "but", "into", "onto", "over", "under",
        "them",
    )
)  # fmt: skip
# words a reference form may hold that say nothing of what it refers to
_STOP = _COMMON | frozenset(
    (
        "has", "have", "do", "does", "done", "complete", "completed", "finish", "finished", "say",
    )
)  # fmt: skip


_AFTER_NOUN = frozenset(
    (
        "now", "again", "today", "yet", "first", "then", "anymore", "immediately", "directly",
        "right", "once", "here", "there", "must", "should", "shall", "can", "could", "may",
        "might", "will", "would", "need", "needs", "do", "does", "did", "has", "have", "had",
        "until", "unless", "if", "when", "while", "before", "after", "without", "again", "also",
        "too", "only", "so", "even",
    )
)  # fmt: skip


def _ends_noun(token: str) -> bool:
    """Whether `token` may follow a noun phrase's head (not another noun of the phrase)."""
    return token in _FUNCTION or token in _AFTER_NOUN or token in lx.RELATIONS


_NOT_BEFORE = re.compile(r" (?:and |but )?(?:not|never) (?:before|earlier|sooner)(?: that| then)? ")


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


@lru_cache(maxsize=32_768)  # one sentence is read for every fact it names, at every level
def read_clause(lemma_text: str, deferral: bool = True, raw: str = "") -> Clause:
    """The clause's modality, by the cue lexicon (sim.grading.lexicon)."""
    s = lemma_text
    correction = _NOT_BEFORE.search(s)  # "after the user says yes, not before": exclusive
    if correction is not None:
        s = s[: correction.start()] + " only " + s[correction.end() :]
    waived = lx.WAIVE_RE.search(s) is not None
    rest = lx.WAIVE_RE.sub(" ", s) if waived else s
    negation = bool(lx.NEGATION_RE.search(rest))
    deferred = not negation and deferral and bool(lx.DEFERRAL_RE.search(rest))
    negated = negation or deferred
    exclusive = bool(lx.EXCLUSIVE_RE.search(s))
    if lx.DOUBLE_NEGATIVE_RE.search(s):
        reading = Reading.POSITIVE
    elif (
        lx.REVOCATION_RE.search(s)
        or (not negated and lx.WEAK_REVOCATION_RE.search(s))
        or lx.ENDED_RESTRICTION_RE.search(s)
    ):
        reading = Reading.REVOKED
    elif exclusive and negated and lx.PERMISSION_RE.search(rest):
        reading = Reading.POSITIVE  # "may only be dropped up to step 6, never later"
    elif lx.EXCEPT_PIN_RE.search(s):
        reading, exclusive = Reading.POSITIVE, True
    elif lx.NEGATED_PERMISSION.search(rest) or negated:
        reading = Reading.FORBID
    else:
        reading = Reading.POSITIVE
    directive = bool(
        lx.PERMISSION_RE.search(s) or lx.DIRECTIVE_RE.search(s) or lx.SKIP_RE.search(s)
    )
    return Clause(
        reading,
        exclusive,
        bool(lx.HEDGE_RE.search(s)),
        directive,
        deferred and reading is Reading.FORBID,
        tuple(s.split()),
        s,
        raw,
    )


@dataclass(frozen=True, slots=True)
class Reference:
    """One accepted wording of the condition's reference, with the relation it was written
    with (None when the form names the reference alone) and whether it is the complement."""

    tokens: frozenset[str]
    relation: Relation | None
    antonym: bool = False


def _relation_of(form: str) -> tuple[Relation | None, str]:
    """A condition form split into its leading relation word and the reference."""
    m = lx.RELATION_RE.match(form)
    if m is None:
        return None, form
    return lx.RELATIONS[m.group(0)], form[m.end() :].strip()


def _references(
    forms: tuple[str, ...], conditional: bool, object_words: frozenset[str] = frozenset()
) -> tuple[Reference, ...]:
    out: list[Reference] = []
    for form in forms:
        relation, rest = _relation_of(form)
        if form.startswith("from "):  # "from step 5 on": an off-by-one reference, matched whole
            continue
        tokens = frozenset(t for t in rest.split() if t not in _STOP)
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


def lemma_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(lemmas(normalize(f)) for f in forms if f.strip()))


@dataclass(frozen=True, slots=True)
class Frame:
    """A fact's anchors in lemma space, read once (grading is on a sweep's hot path)."""

    polarity: Polarity
    objects: tuple[str, ...]  # space-padded full forms
    heads: tuple[tuple[str, frozenset[str]], ...]  # head word, its own modifiers
    modifiers: tuple[str, ...]  # space-padded modifier runs of multi-word objects
    partners: tuple[str, ...]  # action, value and setting forms: what a partial object needs
    reference_words: frozenset[str]
    actions: tuple[str, ...]
    values: tuple[str, ...]
    settings: tuple[str, ...]
    references: tuple[Reference, ...]
    region: Relation | None  # the relation the fact's own condition states
    conditional: bool  # if/unless rather than before/after
    ordering: bool  # "A before B": the reference is an action with a modality of its own
    opposites: tuple[str, ...]
    other_value: re.Pattern[str] | None  # another value of the pinned value's kind
    moved_off: tuple[re.Pattern[str], ...]  # "moved off 9464", "instead of UTC"
    raw_values: tuple[str, ...]  # the pinned value as written, lower case
    split_actions: tuple[re.Pattern[str], ...]  # "roll the canary out" for "roll out"
    imperatives: tuple[str, ...]  # "rotate ": a clause whose raw text opens so is an order
    literals: tuple[str, ...]  # the condition's own forms, which state it whole wherever seen
    required: tuple[str, ...]
    deferral: bool  # "until", "wait", "pending" restrict (not for value pins)

    @classmethod
    def of(cls, fact: Fact) -> Frame:
        groups = {g.role: g for g in fact.anchors}

        def forms(role: str) -> tuple[str, ...]:
            return lemma_forms(groups[role].forms) if role in groups else ()

        objects = forms("object")
        heads, modifiers = [], []
        # head-word matches only for the fact's own object: an alternate wording ("metrics
        # port") would make a generic word ("port") name the fact
        own = lemma_forms(groups["object"].forms[:1]) if "object" in groups else ()
        for form in own:
            words = form.split()
            if len(words) > 1:
                heads.append((words[-1], frozenset(words[:-1])))
                modifiers.append(" " + " ".join(words[:-1]) + " ")
        conditional = fact.cls == "conditional"
        condition = tuple(f.strip() for f in forms("condition"))
        # a reference word that names the object itself may stand as a pronoun ("the canary
        # build must not be promoted if its error rate is above 2%")
        object_words = frozenset(w for o in objects for w in o.split())
        references = _references(condition, conditional, object_words)
        region = next((r.relation for r in references if r.relation is not None), None)
        if region is None and condition:
            region = _default_region(fact)
        opposites = lemma_forms(tuple(o for g in fact.anchors for o in g.opposites))
        return cls(
            fact.polarity,
            objects,
            tuple(heads),
            tuple(dict.fromkeys(modifiers)),
            forms("action") + forms("value") + forms("setting"),
            frozenset(w for r in references for w in r.tokens),
            forms("action"),
            forms("value"),
            forms("setting"),
            references,
            region,
            conditional or region in (Relation.IF, Relation.UNLESS),
            fact.polarity is Polarity.REQUIRE and region is Relation.BEFORE,
            opposites,
            _other_value(groups["value"].forms[0]) if "value" in groups else None,
            tuple(
                re.compile(pattern.format(v=re.escape(v.strip())))
                for v in forms("value")
                for pattern in _MOVED
            ),
            tuple(v.lower() for v in groups["value"].forms) if "value" in groups else (),
            tuple(
                re.compile(r" " + r"(?: \S+){0,3} ".join(map(re.escape, a.split())) + " ")
                for a in forms("action")
                if a.count(" ") == 3
            ),
            tuple(
                w + " "
                for w in dict.fromkeys(normalize(f).split()[0] for f in groups["action"].forms)
                if all(lemmas(f" {part} ").strip() == part for part in w.split("-"))
            )
            if "action" in groups
            else (),
            tuple(f" {c} " for c in condition if _relation_of(c)[0] is not None),
            fact.floor.required,
            "value" not in groups,
        )


_MOVED = (
    r" off {v} ", r" from {v} to ", r" away from {v} ", r" instead of {v} ", r" replace {v} ",
    r" {v} no longer ", r" no longer {v} ", r" not {v} ", r" drop {v} ", r" abandon {v} ",
)  # fmt: skip
_VALUE_KINDS = (
    (r"^[a-z]{2}-[a-z]+-\d$", r"\b[a-z]{2}-[a-z]+-\d\b"),  # a cloud region
    (r"^\d+$", r"(?<![\d.:/-])\d{2,6}(?![\d.:/-])"),  # a port, a count
    (r"^\d+ days?$", r"\b\d+ days?\b"),
    (r"^\d+ replicas?$", r"\b\d+ replicas?\b"),
    (r"^(?:utc|gmt)$", r"\b(?:gmt|est|edt|pst|pdt|cet|cest|local (?:time|timezone)"
     r"|utc ?[+-] ?\d+|[a-z]+/[a-z_]+)\b"),
    (r"^(?:warn|info|debug|error|trace)$", r"\b(?:debug|info|error|trace|fatal|warning|warn)\b"),
    (r"^[a-z]{3}$", r"\b(?:usd|eur|gbp|jpy|chf|cad|aud)\b"),  # a currency
    (r"^[a-z]\d[a-z]?\.\w+$", r"\b[a-z]\d[a-z]?\.\w+\b"),  # an instance type
)  # fmt: skip


def _other_value(value: str) -> re.Pattern[str] | None:
    """A pattern for values of the same kind as `value` (another region, port, zone ...)."""
    v = value.strip().lower()
    for kind, pattern in _VALUE_KINDS:
        if re.match(kind, v):
            return re.compile(pattern)
    return None


def _default_region(fact: Fact) -> Relation:
    """Where a condition named without a relation word puts the rule: a confirmation forbids
    the action before the yes; a conditional forbids it while the condition holds."""
    if fact.cls == "confirmation" or (fact.polarity is Polarity.FORBID and "confirm" in fact.text):
        return Relation.BEFORE
    return Relation.IF


def has_object(frame: Frame, clause: Clause | str) -> bool:
    """Whether the clause names the fact's object: a full form; its head word after one of
    its own modifiers, a function word, an action or a relation ("drop the table", "this
    table", not "staging table"); or all its modifiers without the head ("nightly compaction"
    for "nightly compaction job"; one modifier only right before an action: "canary promotion").
    `clause` may be a clause's text in lemma space, so the check runs before the clause is read."""
    text = clause if isinstance(clause, str) else clause.text
    if any(o in text for o in frame.objects):
        return True
    # a part of the object stands for it only beside the rule's action, value or setting:
    # "drop the table" is about the fact's table, "the table is slow" says nothing of the rule
    if not any(a in text for a in frame.partners):
        return False
    tokens = tuple(text.split()) if isinstance(clause, str) else clause.tokens
    for head, own in frame.heads:
        for i, t in enumerate(tokens):
            if t != head:
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if nxt and not _ends_noun(nxt) and nxt not in own:
                continue  # "build cache": the head word is itself a modifier here
            j = i - 1
            while j >= 0 and tokens[j] in own:  # the object's own modifiers before the head
                j -= 1
            if j < 0 or _free(tokens, j, frame) or (j < i - 1 and tokens[j] in _FUNCTION):
                return True
            if nxt in own and (j == i - 1):
                return True  # "buckets (new)"
    if (
        frame.settings
        and any(st in text for st in frame.settings)
        and any(len(m) > 6 and m in text for m in frame.modifiers)
    ):
        return True  # "report.tz=UTC": the object's own modifier with the pinned setting
    for mods in frame.modifiers:
        pos = text.find(mods)
        if pos < 0:
            continue
        if mods.count(" ") > 2 and not frame.reference_words & set(mods.split()):
            return True
        after = text[pos + len(mods) :].split(" ", 1)[0]
        lead = " " + " ".join(text[:pos].split()[-3:]) + " "
        if f" {after} " in frame.actions:
            return True  # "canary promotion"
        follow = " " + " ".join(text[pos + len(mods) :].split()[:4]) + " "
        if _ends_noun(after) and any(a in follow for a in frame.actions):
            return True  # "main may be force-pushed only after ..."
        if (not after or _ends_noun(after)) and any(a in lead for a in frame.actions):
            return True  # "do not force-push to main until ..."
    return False


_SUFFIX = ("ation", "ition", "ment", "ion", "ing", "al", "ed", "er", "e", "y", "s")
_SAME_REF = {
    "above": ("exceed", "over", "great", "high", "more", "beyond", "top", "past"),
    "below": ("under", "less", "within", "low"),
    "fail": ("red", "break", "broken", "failure", "failing"),
    "test": ("suite", "ci", "check", "tests"),
    "pass": ("green", "succeed", "success", "pass"),
    "yes": ("ok", "okay", "go-ahead", "go", "approve", "approval", "confirm", "confirmation",
            "agree", "agreement", "sign", "consent", "permission"),
    "confirm": ("yes", "approve", "approval", "ok", "okay", "sign", "consent", "confirmation",
                "agree", "agreement", "permission"),
    "user": ("owner", "human", "operator", "requester", "customer", "you"),
    "change": ("alter", "alteration", "modify", "modification", "migration", "migrate", "ddl"),
    "usage": ("full", "utilization", "use", "space", "fill"),
    "resize": ("grow", "expand", "extend", "enlarge", "shrink"),
    "deploy": ("deployment", "rollout", "release", "ship", "push"),
    "percent": ("pct",),
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


def _free(tokens: tuple[str, ...], j: int, frame: Frame) -> bool:
    """Whether token j may stand right before the object without naming another one: a
    function word, a relation, or a verb of the fact's action that is not itself a noun's
    modifier ("drop the table", not "vendor payout batch")."""
    t = tokens[j]
    if t in _FUNCTION or t in lx.RELATIONS:
        return True
    if f" {t} " in frame.actions:
        return (
            j == 0
            or tokens[j - 1] in _FUNCTION
            or tokens[j - 1] in _AFTER_NOUN
            or (tokens[j - 1] in lx.RELATIONS)
        )
    return False


_POLAR = frozenset(lx.ANTONYMS) | {w for ws in lx.ANTONYMS.values() for w in ws}


def _window(tokens: tuple[str, ...], ref: frozenset[str]) -> tuple[int, int] | None:
    """The first span of `tokens` holding every word of `ref` (or an equivalent), at most 3
    words looser; a reference of four words or more may miss one word that is not a number
    ("canary err > 2%" for "canary error rate above 2")."""
    need = len(ref) - 1 if len(ref) >= 4 else len(ref)
    width = len(ref) + 3
    for start, t in enumerate(tokens):
        if not any(_matches(t, w) for w in ref):
            continue
        seen: set[str] = set()
        for j in range(start, min(len(tokens), start + width)):
            seen.update(w for w in ref if _matches(tokens[j], w))
            if len(seen) >= need and all(w in seen for w in ref if w.isdigit() or w in _POLAR):
                return start, j + 1
    return None


def _relation_before(tokens: tuple[str, ...], start: int) -> tuple[str, Relation] | None:
    lead = " " + " ".join(tokens[max(0, start - 5) : start]) + " "
    found = None
    for m in lx.RELATION_RE.finditer(lead):
        found = m
    return (found.group(0), lx.RELATIONS[found.group(0)]) if found else None


def _object_at(frame: Frame, tokens: tuple[str, ...]) -> int | None:
    text = " " + " ".join(tokens) + " "
    for form in frame.objects:
        pos = text.find(form)
        if pos >= 0:
            return text[:pos].count(" ")
    heads = {h for h, _ in frame.heads}
    return next((i for i, t in enumerate(tokens) if t in heads), None)


def _relation_after_object(frame: Frame, tokens: tuple[str, ...], ref_end: int) -> Relation | None:
    """ "B first; A can follow afterwards": the relation stands after the object, which comes
    after the reference; A follows B, so A is after B."""
    obj = _object_at(frame, tokens)
    if obj is None or obj < ref_end:
        return None
    tail = " " + " ".join(tokens[obj + 1 : obj + 6]) + " "
    if _FIRST.search(tail):
        return Relation.BEFORE  # "snapshot the ledger volume (must be first)"
    m = lx.RELATION_RE.search(tail)
    if m is None or lx.RELATIONS[m.group(0)] not in (Relation.AFTER, Relation.BEFORE):
        return None
    rest = tail[m.end() :].split()
    if rest and rest[0] not in _TRAILING:
        return None  # "A ... before C": a relation to something else
    return lx.RELATIONS[m.group(0)]


_DONE_NOW = re.compile(
    r" step \d+ (?:\S+ ){0,5}(?:do|finish|complete|over|behind) .*\b(?:from (?:now|this point|here|"
    r"then) on|henceforth|go forward|from here)\b"
)
_FIRST = re.compile(r" (?:first|beforehand|earlier|1st) ")
_TRAILING = frozenset(
    (
        "it", "that", "this", "them", "afterwards", "afterward", "later", "next", "after",
        "then", "once", "too",
    )
)  # fmt: skip


class Region(Enum):
    SAME = "same"
    OPPOSITE = "opposite"
    NONE = "none"
    REFUSAL = "refusal"  # a gate keyed to the user's refusal ("unless the user objects")


def region(frame: Frame, clause: Clause) -> Region:
    """Where the clause puts the action relative to the fact's condition."""
    if frame.region is None:
        return Region.NONE
    if any(o in clause.text for o in frame.opposites):
        return Region.OPPOSITE
    if any(c in clause.text for c in frame.literals):
        return Region.SAME
    tokens = clause.tokens
    for ref in frame.references:
        span = _window(tokens, ref.tokens)
        if span is None:
            continue
        start, end = span
        relation: Relation | None = None
        found = _relation_before(tokens, start)
        if found is not None:
            relation = found[1]
            if frame.conditional and found[0] == "at":
                relation = Relation.IF  # "prohibited at disk usage above 90%": when
            if clause.deferred and found[0] in lx.GATES and relation is Relation.AFTER:
                relation = Relation.BEFORE  # "pending (needs the user's approval)": until then
        else:
            obj = _object_at(frame, tokens)
            if obj is not None and obj > end:  # "B ... before ... A": the reference comes first
                between = _relation_before(tokens, obj)
                temporal = between is not None and between[1] in (Relation.AFTER, Relation.BEFORE)
                if between is None:
                    pass
                elif temporal and (frame.ordering or between[0] not in lx.GATES):
                    relation = lx.OPPOSITE[between[1]]  # "B before A" is "A after B"
                else:
                    relation = between[1]  # "approval required for X": X after approval
        if relation is None and frame.ordering:
            relation = _relation_after_object(frame, tokens, end)
        if relation is None and _DONE_NOW.search(clause.text):
            relation = Relation.AFTER  # "step 4 is done ... from now on": after step 4
        if relation is None:
            if not frame.conditional:
                continue
            relation = Relation.IF
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
    return Region.NONE
