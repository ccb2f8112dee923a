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
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from sim.grading import lexicon as lx
from sim.grading.lexicon import Relation
from sim.grading.modality import Clause, Reading, read_clause
from sim.grading.patterns import Lazy
from sim.grading.quantities import count_patterns, equivalents, is_duration, other_duration
from sim.grading.references import (
    COMMON_WORDS,
    Reference,
    awaited_references,
    condition_references,
    relation_of,
)
from sim.grading.synonyms import near_synonyms
from sim.grading.text import known_word, lemmas, normalize
from sim.types import AnchorGroup, Fact, Polarity

_FUNCTION = COMMON_WORDS | frozenset(
    (
        "all", "any", "every", "each", "no", "not", "but", "into", "onto", "over", "under",
        "them",
    )
)  # fmt: skip


_AFTER_NOUN = frozenset(
    (
        "now", "again", "today", "yet", "first", "then", "anymore", "immediately", "directly",
        "right", "once", "here", "there", "must", "should", "shall", "can", "could", "may",
        "might", "will", "would", "need", "needs", "do", "does", "did", "has", "have", "had",
        "until", "unless", "if", "when", "while", "before", "after", "without", "again", "also",
        "too", "only", "so", "even", "afterwards", "afterward", "later", "next", "last",
        "instead", "already", "tomorrow", "tonight", "asap",
    )
)  # fmt: skip


def _ends_noun(token: str) -> bool:
    """Whether `token` may follow a noun phrase's head (not another noun of the phrase)."""
    return token in _FUNCTION or token in _AFTER_NOUN or token in lx.RELATIONS


def function_word(token: str) -> bool:
    """A word that names no action or thing: an article's kin, a modal, a relation word."""
    return token in _FUNCTION or token in _AFTER_NOUN or token in lx.RELATIONS


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
    values: tuple[str, ...]  # the pinned value's forms, and a duration's in other units
    settings: tuple[str, ...]
    references: tuple[Reference, ...]
    region: Relation | None  # the relation the fact's own condition states
    conditional: bool  # if/unless rather than before/after
    ordering: bool  # "A before B": the reference is an action with a modality of its own
    opposites: tuple[str, ...]
    other_value: re.Pattern[str] | None  # another value of the pinned value's kind
    moved_off: Lazy | None  # "moved off 9464", "instead of UTC": any of them, in one pattern
    raw_values: tuple[str, ...]  # the pinned value as written, lower case
    split_actions: tuple[Lazy, ...]  # "roll the canary out" for "roll out"
    imperatives: tuple[str, ...]  # "rotate ": a clause whose raw text opens so is an order
    literals: tuple[str, ...]  # the condition's own forms, which state it whole wherever seen
    required: tuple[str, ...]
    deferral: bool  # "until", "wait", "pending" restrict (not for value pins)
    value_patterns: tuple[re.Pattern[str], ...] = ()  # a count's unit before it: "replicas=3"
    confirmation: bool = False  # the action waits for someone's yes
    masks: tuple[str, ...] = ()  # the fact's own words that hold a cue ("legal hold")
    cancels: tuple[Lazy, ...] = ()  # a pin's setting switched off ("disable dropout")
    setting_modifiers: tuple[str, ...] = ()  # "keyframe" of "keyframe interval", padded
    rivals: Lazy | None = None  # another name in the object's place, in raw text
    held_state: Lazy | None = None  # "stays closed" for "open"
    # shorter object forms that end the full one ("screening hit" of "sanctions screening
    # hit"), lower case, with the other words of the user's object forms (lemma space)
    narrowings: tuple[tuple[str, frozenset[str]], ...] = ()
    cap: bool = False  # a pin that is a ceiling ("cap the stop count at 18", "a load limit")
    kind_words: tuple[str, ...] = ()  # the object's words before its head, as written
    # the yes-giver named alone, read as the yes after a wait word only (region reads them;
    # nothing else does: "Keiko is at the show" names no yes a pronoun may stand for)
    awaited: tuple[Reference, ...] = ()
    measured: frozenset[str] = frozenset()  # what the rule's text says its condition of
    # an ordering's later act named by its object alone ("the ceramic sealant" of "before
    # loading the ceramic sealant"): a restriction on it restricts the act (regions reads it)
    held_objects: tuple[Reference, ...] = ()

    @property
    def act_words(self) -> frozenset[str]:
        """The words of the rule's own acts ("check", "back", "up")."""
        return frozenset(w for a in self.actions for w in a.split())

    @property
    def sequenced(self) -> bool:
        """Whether a plan's order can state the rule: an ordering ("A before B"), or a gate
        ("no X until Y": X comes after Y)."""
        return self.ordering or (
            self.polarity is Polarity.FORBID and self.region is Relation.BEFORE
        )

    @classmethod
    def of(cls, fact: Fact) -> Frame:
        return cls.read(fact.cls, fact.polarity, fact.anchors, fact.floor.required, wording(fact))

    @classmethod
    def read(
        cls,
        fact_cls: str,
        polarity: Polarity,
        anchors: tuple[AnchorGroup, ...],
        required: tuple[str, ...],
        worded: Wording,
    ) -> Frame:
        """`of`, from what the fact's frame depends on: a sweep plants the same rule in many
        texts (sim.grading.grade caches the frame by these)."""
        groups = {g.role: g for g in anchors}

        def forms(role: str) -> tuple[str, ...]:
            return lemma_forms(groups[role].forms) if role in groups else ()

        objects = forms("object")
        if "object" in groups:
            objects += tuple(a for a in _acronyms(groups["object"].forms) if a not in objects)
        actions = forms("action")
        named = frozenset(w for o in objects for w in o.split())  # the object's own words
        if actions and not any(a.strip().endswith(_NOUN_SUFFIXES) for a in actions):
            # a user's anchors list verbs: the noun of the first, the rule's own verb (a
            # synonym's noun may name a thing: "ship" for "send", but "the shipments view");
            # a noun that names the object is no action of it
            actions += tuple(
                n for n in action_nouns(actions[0]) if n not in actions and n.strip() not in named
            )
        # the rule's own verb's near-synonyms (sim.grading.synonyms), which a user's anchors
        # leave out; of its first form only, as its noun: another anchor may be a looser word
        others = near_synonyms(actions[0].strip()) if actions else ()
        others = (
            tuple(
                o
                for o in others
                if o not in groups["action"].forms
                and lemmas(f" {o} ") not in actions
                # a synonym that is a word of the object names it, not its act ("the
                # confirmation email")
                and not set(lemmas(f" {o} ").split()) <= named
            )
            if "action" in groups
            else ()
        )
        actions += tuple(f for f in lemma_forms(others) if f not in actions)
        heads, modifiers = [], []
        # head-word matches only for the fact's own object: an alternate wording ("metrics
        # port") would make a generic word ("port") name the fact
        own = lemma_forms(groups["object"].forms[:1]) if "object" in groups else ()
        for form in own:
            words = form.split()
            # "Crane 3", "Pit B": the number or letter is the object's name, not its head; named
            # without it, "crane" is any crane ("Crane 4 must use a load limit of 40 t")
            if len(words) > 1 and not any(c.isdigit() for c in words[-1]) and len(words[-1]) > 1:
                heads.append((words[-1], frozenset(words[:-1])))
                modifiers.append(" " + " ".join(words[:-1]) + " ")
        conditional = fact_cls == "conditional"
        condition = tuple(f.strip() for f in forms("condition"))
        # a reference word that names the object itself may stand as a pronoun ("the canary
        # build must not be promoted if its error rate is above 2%")
        references = condition_references(condition, conditional, named)
        if fact_cls == "ordering":
            references += _gone_references(condition, references)
        if "condition" in groups and fact_cls == "confirmation":  # a role says yes
            references += _acronym_references(groups["condition"].forms, references)
        region = next((r.relation for r in references if r.relation is not None), None)
        if region is None and condition:
            region = _default_region(fact_cls, polarity, worded)
        opposites = lemma_forms(tuple(o for g in anchors for o in g.opposites))
        literals = tuple(f" {c} " for c in condition if relation_of(c)[0] is not None)
        if region is not None and opposites:
            # a declared "opposite" on the rule's own side ("without Delgado's confirmation"
            # for "until Delgado confirms": both before the yes) states the condition itself
            same = tuple(o for o in opposites if relation_of(o.strip())[0] is region)
            opposites = tuple(o for o in opposites if o not in same)
            literals += same
        if (
            polarity is Polarity.FORBID
            and region in (Relation.AFTER, Relation.IF)
            and worded.permits_only
        ):
            # "Only deploy the API after the tests pass": what it forbids is the act before
            # then; its condition's own words name the side where the act is allowed
            region = lx.OPPOSITE[region]
            opposites, literals = (*opposites, *literals), ()
        values = forms("value")
        values += tuple(e for v in values for e in equivalents(v.strip()) if e not in values)
        return cls(
            polarity,
            objects,
            tuple(heads),
            tuple(dict.fromkeys(modifiers)),
            actions + forms("value") + forms("setting"),
            frozenset(w for r in references for w in r.tokens),
            actions,
            values,
            forms("setting"),
            references,
            region,
            conditional or region in (Relation.IF, Relation.UNLESS),
            polarity is Polarity.REQUIRE and region is Relation.BEFORE,
            opposites,
            _other_value(groups["value"].forms[0], values) if "value" in groups else None,
            Lazy(
                "|".join(
                    "(?:" + pattern.format(v=re.escape(v.strip())) + ")"
                    for v in forms("value")
                    for pattern in _MOVED
                )
            )
            if "value" in groups
            else None,
            tuple(v.lower() for v in groups["value"].forms) if "value" in groups else (),
            tuple(
                Lazy(r" " + r"(?: \S+){0,3} ".join(map(re.escape, a.split())) + " ")
                for a in (*forms("action"), *lemma_forms(others))
                if a.count(" ") == 3
            ),
            tuple(
                w + " "
                for w in dict.fromkeys(
                    normalize(f).split()[0] for f in (*groups["action"].forms, *others)
                )
                if all(lemmas(f" {part} ").strip() == part for part in w.split("-"))
            )
            if "action" in groups
            else (),
            literals,
            required,
            "value" not in groups,
            tuple(p for v in forms("value") for p in count_patterns(v.strip())),
            fact_cls == "confirmation",
            cue_names(anchors),
            tuple(
                Lazy(rf" {_CANCEL} (?:\S+ ){{0,2}}{re.escape(st.strip())} ")
                for st in forms("setting")
            ),
            _setting_modifiers(forms("setting"), objects),
            worded.rivals,
            # "keep the pen 7 aerators off even below 6 mg/L" refuses a required "switch on"
            # as "the display cases stay closed" keeps a forbidden "open"
            held_state(actions[0])
            if actions
            and (
                polarity is Polarity.FORBID
                or (polarity is Polarity.REQUIRE and fact_cls != "ordering")
            )
            else None,
            _narrowings(groups["object"].forms, worded.named) if "object" in groups else (),
            "value" in groups and worded.cap,
            tuple(groups["object"].forms[0].split()[:-1]) if "object" in groups else (),
            awaited_references(references) if fact_cls == "confirmation" else (),
            worded.measured,
            _held_objects(condition) if fact_cls == "ordering" else (),
        )


_HELD_STATES = {
    "open": ("close", "shut", "seal"),
    **dict.fromkeys(("close", "shut"), ("open",)),  # "leave the dampers open"
    "disable": ("on", "enable", "active"),  # "keep it on even below 0.55"
    "reopen": ("close", "shut", "seal"),
    **dict.fromkeys(
        ("load", "insert", "put in", "admit", "enter", "immerse", "dip", "board"),
        ("out", "outside"),
    ),  # "the skeins stay out of the vat"
    "unseal": ("seal",),
    "unload": ("load", "in memory", "resident"),  # "keep the reranker loaded"
    "unmount": ("mount",),
    "detach": ("attach",),
    "reconnect": ("disconnect", "unplug"),
    "resume": ("pause", "stop", "halt", "on hold"),
    "re enable": ("off", "disable"),
    "power on": ("off", "down"),
    "unlock": ("lock",),
    "enable": ("off", "disable"),
    "activate": ("off", "inactive", "disable"),
    "turn on": ("off",),
    "switch on": ("off",),
    "start": ("off", "stop"),
    "restart": ("off", "down", "offline", "stop"),
    "reboot": ("off", "down", "offline"),
    "energize": ("de energize", "off"),
    "re energize": ("de energize", "off", "offline", "down"),
    "list": ("off", "unlist", "offline"),
    "publish": ("not publish", "offline", "draft"),
    "advertise": ("off",),
    "release": ("put", "in bond"),
    "ship": ("put",),
    "send": ("put", "not send", "off", "back", "behind", "on ground", "ground", "home"),
    "move": ("put",),
    # "keep the uploads running even if ...": a stop refused ("on" is also "on hold")
    **dict.fromkeys(("pause", "stop", "halt", "suspend"), ("run", "go", "active", "live")),
    **dict.fromkeys(
        ("change", "modify", "edit", "alter", "amend", "revise", "tweak", "touch", "rename"),
        ("unchanged", "same", "as is", "as it is", "as it be", "not touch", "intact", "as publish"),
    ),  # "the slug must stay exactly as it was published", "stays unchanged"
}
"""The state an object is kept in that refuses the act: a display case that stays closed is not
opened, a container that stays put is not released. In lemma space ("closed" reads "close")."""
_IZE = re.compile(r"ise$")
_IZE_WORD = re.compile(r"ize\b")
_KEEPS = r" (?:stay|stays|remain|remains|keep|kept|left|leave|must stay|to stay)"


def held_state(action: str) -> Lazy | None:
    """`_KEEPS` and a state that refuses `action`, in either spelling of -ize ("energise")."""
    word = action.strip()
    states = _HELD_STATES.get(word) or _HELD_STATES.get(_IZE.sub("ize", word))
    if states is None:
        return None
    spelled = {v for st in states for v in (st, _IZE_WORD.sub("ise", st))}
    body = "|".join(re.escape(st) for st in sorted(spelled))
    # "Overhang lead wall - closed until Ingrid confirms": the state put until something
    # holds, with no verb of keeping; "the uploads should carry on": a stop refused
    goes_on = r"| (?:continue|carry on|go on)(?![\w-])" if "run" in states else ""
    return Lazy(
        _KEEPS + r" (?:\S+ ){0,5}?(?:" + body + r")(?![\w-])(?! hold)"
        r"| (?:" + body + r") (?=until |till |pending )" + goes_on
    )


_IDENTIFIED = re.compile(r"([A-Za-z][\w-]*) (\d+|[A-Z])(?![\w-])")
_QUALIFIED = re.compile(r"(?:e?s)? (at|in|on|for|from) (?:the )?([A-Z][a-z][\w-]*) ([a-z]+)")
_NUMBERED = re.compile(r"(?:e?s)? (at|in|on|for|from) (?:the )?([a-z]+) (\d+)\b")


def _after(obj: str, pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """`re.search("(?i:obj)" + pattern, text)`, without compiling a pattern for every rule:
    in ASCII text, `pattern` matched where `obj` first stands in any case and it matches."""
    if not (text.isascii() and obj.isascii()):
        return re.search(rf"(?i:{re.escape(obj)})" + pattern.pattern, text)
    low, sought = text.lower(), obj.lower()
    at = low.find(sought)
    while at >= 0:
        found = pattern.match(text, at + len(sought))
        if found is not None:
            return found
        at = low.find(sought, at + 1)
    return None


def _rivals(text: str, objects: tuple[str, ...], case: tuple[str, ...] = ()) -> Lazy | None:
    """Another thing named where the rule's is (`_object_rivals`), or another of the numbered
    names the rule's own text gives outside its condition and value (`case`): "grow room 4"
    for a rule on "mushroom grow room 2", "chat-70b" for one on "the chat-13b endpoint"."""
    parts = [p for p in (_object_rivals(text, objects), _text_rivals(text, case)) if p]
    return Lazy("|".join(f"(?:{p})" for p in parts)) if parts else None


def _other_number(noun: str, ident: str, other: str) -> str:
    """A pattern for `noun` (raw) with an `other` id than `ident`, in a clause that does not
    name `noun ident` too: "Crane 4" beside a rule on Crane 3."""
    n, i = map(re.escape, (noun, ident))
    return rf"^(?!.*(?i:\b{n}) {i}\b).*?(?i:\b{n}) (?!{i}\b){other}"


_NOT_NAMES = frozenset(
    ("step", "steps", "stage", "phase", "level", "version", "day", "week", "hour", "minute",
     "line", "page", "item", "point", "round", "v")
)  # fmt: skip
_HYPHEN_ID = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*-)(\d+[a-z]?)(?![\w-])")


def _text_rivals(text: str, case: tuple[str, ...]) -> str | None:
    """Other numbers of the numbered names in a rule's text ("grow room 2", "Plot 7",
    "chat-13b"), in a clause that does not name the rule's own as well; none inside the
    condition's or value's forms ("step 4", "20 m/s"), nor a count ("line 3" of a text)."""
    low_case = " ".join(c.lower() for c in case)
    numbers = set(re.findall(r"\d+(?:\.\d+)?", low_case))
    parts = []
    for m in _IDENTIFIED.finditer(text):
        noun, ident = m.groups()
        low = noun.lower()
        if (
            not ident.isdigit()
            or re.match(r"[.,]\d", text[m.end() : m.end() + 2])  # "below 0.55": a decimal
            or ident in numbers  # "at 60" of "60 m/s": the value's number, no name
            or low in _NOT_NAMES
            or not low.isalpha()
            or len(low) < 3
            or function_word(lemmas(f" {low} ").strip())
        ):
            continue
        parts.append(_other_number(noun, ident, r"\d+\b(?![.,]\d)"))
    for m in _HYPHEN_ID.finditer(text):
        prefix, ident = m.groups()
        if m.group(0).lower() in low_case:
            continue
        pr, i = map(re.escape, (prefix, ident))
        parts.append(
            rf"^(?!.*(?i:\b{pr}){i}(?![\w-])).*?(?i:\b{pr})(?!{i}(?![\w-]))\d+[a-z]?(?![\w-])"
        )
    return "|".join(f"(?:{p})" for p in parts) if parts else None


def _object_rivals(text: str, objects: tuple[str, ...]) -> str | None:
    """Raw-text form of another thing named where the fact's object is: another name in the
    place of the one that qualifies the object in the rule ("reserve crews at the Faro base"
    for "Reserve crews at the Lisbon base must ..."). Names only (capitalized): "at the main
    base" may be the rule's own."""
    named = _IDENTIFIED.match(objects[0].strip())
    if named is not None:  # "Pit B", "Crane 3", "the Tunnel 2 test section": another letter
        # or number is another one, in a clause that does not name the rule's own as well
        noun, ident = named.groups()
        return _other_number(noun, ident, r"(?:\d+|[A-Z])\b")
    qualified = _after(objects[0], _QUALIFIED, text)
    if qualified is None:
        numbered = _after(objects[0], _NUMBERED, text)
        if numbered is None:
            return None
        prep, noun, number = numbered.groups()  # "the bake oven on line 2": not on line 3
        return (
            rf"(?i:{re.escape(objects[0])})(?i:e?s)? {prep} (?:the )?{re.escape(noun)} "
            rf"(?!{number}\b)\d+\b"
        )
    prep, name, noun = qualified.groups()
    return (
        rf"(?i:{re.escape(objects[0])})(?i:e?s)? {prep} (?:the )?(?!{re.escape(name)}\b)"
        rf"[A-Z][a-z][\w-]* {re.escape(noun)}\b"
    )


_NOT_ACRONYMS = frozenset(
    ("tbc", "tbd", "tba", "eta", "eod", "eow", "asap", "fyi", "wip", "aka", "rsvp", "faq",
     "api", "sdk", "cli", "gpu", "cpu", "ram", "ssd", "hdd", "usb", "dns", "cdn", "sla", "kpi",
     "roi", "pdf", "csv", "url", "sso", "mfa", "vpn", "ssh", "ssl", "tls", "aws", "gcp", "iam",
     "rpc", "sql", "orm", "jwt", "otp", "ttl", "qps", "rps", "crm", "erp", "led", "lcd", "utc",
     "est", "pst", "cet", "gmt", "ceo", "cto", "cfo", "coo", "vip", "diy", "n/a")
)  # fmt: skip
"""Common abbreviations of their own: an object's initials that spell one name something else
("CI" for the container image is continuous integration)."""
_WORD = re.compile(r"[A-Za-z][a-z]+")


def _acronym(words: list[str]) -> str | None:
    """The initials of two to four lowercase words ("case report forms" -> "crf"), where they
    spell no short word of their own ("cm", "hm") nor a common abbreviation ("tbc")."""
    if not 2 <= len(words) <= 4 or not all(_WORD.fullmatch(w) for w in words):
        return None
    letters = "".join(w[0] for w in words).lower()
    if letters in _NOT_ACRONYMS or function_word(letters):
        return None
    if len(letters) == 2 and known_word(letters):
        return None  # "hm", "cm": short words the tables know; "bom" of three letters is none
    return letters


def _acronyms(objects: tuple[str, ...]) -> tuple[str, ...]:
    """The object's forms by its initials, in lemma space: "CRF" and "CRFs" for the case
    report forms. Three words or more only: two letters name too much ("CI" for a container
    image is continuous integration, "TLs" for tenant lists reads as TLS)."""
    out: list[str] = []
    for form in objects:
        words = form.split()
        letters = _acronym(words) if len(words) >= 3 else None
        if letters is not None and f"{letters}s" not in _NOT_ACRONYMS:
            out += [f" {letters} ", f" {letters}s "]
    return tuple(dict.fromkeys(out))


def _held_objects(forms: tuple[str, ...]) -> tuple[Reference, ...]:
    """An ordering's later act by its object alone, past the act's word ("ceramic sealant"
    of "before loading the ceramic sealant"); two words or more, none a pronoun."""
    out = []
    for form in forms:
        relation, rest = relation_of(form)
        words = [w for w in lemmas(normalize(rest)).split() if not function_word(w)]
        if relation is None or len(words) < 3 or any(w in _PRONOUNS for w in words):
            continue
        held = [w for w in words[1:] if w not in _PARTICLES]
        if len(held) >= 2:
            out.append(Reference(frozenset(held), relation))
    return tuple(dict.fromkeys(out))


_PRONOUNS = frozenset(("it", "them", "they", "this", "that", "these", "those"))
_PARTICLES = frozenset(("over", "up", "out", "off", "in", "back", "down", "on", "away"))


def _gone_references(
    forms: tuple[str, ...], references: tuple[Reference, ...]
) -> tuple[Reference, ...]:
    """An ordering's later act stood in for by "go" on its object: "the API goes out only
    after the migration" for "before deploying the API", "rooms go back to inventory only
    after ..." for "before releasing the room back to inventory" (sim.grading.lexicon's
    STAND_IN, on the reference's side)."""
    out = []
    for form in forms:
        relation, rest = relation_of(form)
        words = rest.split()
        if relation is None or len(words) < 2:
            continue
        for ref in references:
            gone = (ref.tokens - {words[0]}) | {"go"}
            if (
                ref.relation is relation
                and not ref.antonym
                and words[0] in ref.tokens
                and len(gone) > 1  # never "go" alone
            ):
                out.append(Reference(gone, relation))
    return tuple(dict.fromkeys(out))


def _acronym_references(
    forms: tuple[str, ...], known: tuple[Reference, ...]
) -> tuple[Reference, ...]:
    """A condition's person named by initials: "the GC signs off" for "until the general
    counsel confirms", "the LP" for the line producer. Only a run of lowercase words (a role,
    not a name) is shortened; each reference holding the run gains a form with its initials."""
    out: list[Reference] = []
    for form in forms:
        words = [w for w in form.split() if w.lower() not in ("the", "a", "an")]
        run: list[str] = []
        for w in (*words, ""):
            if w and w.islower() and _WORD.fullmatch(w) and not lx.RELATION_RE.fullmatch(w):
                run.append(w)
                continue
            role = run[:-1] if run and not w else run  # the last word may be the predicate
            letters = _acronym(role) if len(role) >= 2 else None
            if letters is not None:
                names = frozenset(lemmas(" " + " ".join(role) + " ").split())
                for ref in known:
                    if names <= ref.tokens and not ref.antonym:  # refusals by initials: rare
                        found = Reference((ref.tokens - names) | {letters}, ref.relation)
                        if found not in known and found not in out:
                            out.append(found)
            run = []
    return tuple(out)


_CAP = re.compile(r" (?:cap|limit|max|maximum|ceiling|at most|no more than|up to) ")


def _narrowings(
    objects: tuple[str, ...], named: frozenset[str] = frozenset()
) -> tuple[tuple[str, frozenset[str]], ...]:
    """The object's shorter forms made of its full form's words, each with the full form's
    other words (lemma space): "screening hit" of "sanctions screening hit", "seedlings" of
    "tomato seedlings", "timpani" of "timpani crates"; and the words the rule's own text
    names the object by ("the payments-primary PagerDuty escalation policy": `named`)."""
    full = lemmas(" " + objects[0].lower() + " ").split()
    own = frozenset(lemmas(" " + " ".join(objects).lower() + " ").split()) | named
    out = []
    for form in objects[1:]:
        words = form.lower().split()
        said = lemmas(" " + form.lower() + " ").split()  # "ballot box" of "ballot boxes"
        if 0 < len(said) < len(full) and _subsequence(said, full):
            # "accrual entries" of "accrual journal entries", "timpani" of "timpani crates"
            # every word of the user's own forms is the object's ("schema migration" beside
            # "database migration"), none of the shorter form's
            rest = own - frozenset(lemmas(" " + " ".join(words) + " ").split())
            out.append((" ".join(words), rest))
    return tuple(out)


def _subsequence(words: list[str], full: list[str]) -> bool:
    it = iter(full)
    return all(w in it for w in words)


# a possessive's "'s" is part of the name before the form ("the DBA agent's auto-remediation
# mode"), kept out of the word itself
_NAME_BEFORE = re.compile(r"([A-Za-z][\w-]*)(?:['’]s)?\s+(?:([A-Za-z0-9][\w-]*)(?:['’]s)?\s+)?$")


def names_another(frame: Frame, raw: str) -> bool:
    """Whether a clause names another kind through one of the object's shorter forms: a name
    of another kind right before it ("do not clear PEP screening hits ..." for a rule on
    sanctions screening hits, "South pasture drip line" for the north orchard drip line).
    A capitalized word counts before a form of two words or more, and a lowercase one after a
    determiner before any ("the cucumber seedlings" for the tomato seedlings); none that the
    user's own forms, a function word or a cue holds: "Never clear screening hits", "The drip
    line" and "the schema migration" (a listed form) name the fact's own."""
    low = raw.lower()
    # a rule whose own kind is a name ("the Yirgacheffe roast") or a gerund ("the gauging
    # pig") makes another name or gerund in that place another kind of it
    named = any(w[:1].isupper() for w in frame.kind_words)
    gerund = any(w.endswith("ing") for w in frame.kind_words)
    for short, rest in frame.narrowings:
        start = low.find(short)
        while start >= 0:
            before = _NAME_BEFORE.search(raw, 0, start)
            if before is not None:
                first, second = before.groups()
                if second is not None and second.isdigit():
                    # "the feeder 6 breaker", "the ULTEM 9085 print job": a numbered thing
                    if first.lower() not in _DETERMINERS and _other_kind(frame, first, rest):
                        return True
                    second = None
                if _kind_run(frame, raw[:start], rest, gerund):
                    return True  # "the juice line flash pasteurizer" for the HTST one
                if second is not None and second.lower() in _DETERMINERS:
                    # "Set the docs-site edge TTL ...": the form opens its noun phrase, so the
                    # word before the determiner names nothing of it
                    start = low.find(short, start + 1)
                    continue
                words = (first, second) if second else (first,)
                # a capitalized word before a one-word form is as often its own modifier
                # ("the URL slug") as another kind; only a lowercase kind counts there
                for word in words if " " in short or named else ():
                    # "the macOS CI runner fleet": a capital anywhere makes a name (not an
                    # order's verb opening the sentence: "Keep speculative decoding on")
                    opens = not raw[: before.start()].strip(" \t-*•:#") and word is first
                    if opens and word.lower() in _ORDERS:
                        continue
                    if not word.islower() and _other_kind(frame, word, rest):
                        return True
                # "Straw bales must not be stacked" for the hay bales: a sentence's first word,
                # capitalized by its place only, as a lowercase one after a determiner
                if (
                    second is None
                    and not raw[: before.start()].strip(" \t-*•:#")
                    and first[:1].isupper()
                    and first[1:].islower()
                    and _lower_kind(frame, first.lower(), rest, gerund)
                ):
                    return True
                # "the payroll audit logs": a lowercase modifier after a determiner, which no
                # verb stands in ("delete the audit logs"), nor an adjective of state
                if (
                    second
                    and first.lower() in _DETERMINERS
                    and _lower_kind(frame, second, rest, gerund)
                ):
                    return True
                if (
                    second
                    and first.lower() in _DETERMINERS
                    and _other_compound(frame, second, rest)
                ):
                    return True
                # "the reviews search reindex" for the catalog search reindex: another
                # modifier before one of the user's own, after a determiner
                lead = raw[: before.start()].split()[-1:]
                if (
                    second
                    and second.lower() in rest
                    and lead
                    and lead[0].lower() in _DETERMINERS
                    and (
                        _lower_kind(frame, first, rest, gerund)
                        or _other_compound(frame, first, rest)
                    )
                ):
                    return True
            start = low.find(short, start + 1)
    return False


def _kind_run(frame: Frame, lead: str, rest: frozenset[str], gerund: bool) -> bool:
    """Whether three lowercase words after a determiner stand right before a shorter form of
    the object, one of them another kind ("the juice line flash pasteurizer"): a compound
    that names another thing; none of them the object's own words."""
    words = re.findall(r"[\w'-]+", lead[-60:])[-4:]
    at = next((i for i in range(len(words) - 1, -1, -1) if words[i].lower() in _DETERMINERS), None)
    if at is None or not lead.rstrip().endswith(words[-1]):
        return False
    run = words[at + 1 :]
    return (
        len(run) == 3  # two are as often the object's own compound ("the annulus backfill")
        and all(w.isalpha() and w.islower() and w not in rest for w in run)
        and any(_lower_kind(frame, w, rest, gerund) for w in run)
    )


def _lower_kind(frame: Frame, word: str, rest: frozenset[str], gerund: bool) -> bool:
    """Whether a lowercase word may name another kind of the object: no state ("old"), no
    participle ("archived"), no gerund unless the rule's own kind is one."""
    if "-" in word:  # "the stage-right flash pots" for the stage-left ones: a sibling of
        # the rule's own hyphenated modifier (a hyphenated word of its own may be a synonym:
        # "the gauge-plate pig" for the gauging pig)
        head = word.split("-")[0]
        return word.replace("-", "").isalpha() and any(
            "-" in k and k.lower().split("-")[0] == head and k.lower() != word
            for k in frame.kind_words
        )
    return (
        word.isalpha()
        and word.islower()
        and word not in _STATES
        and word not in _ORDERS  # "Keep speculative decoding on ...": an order's verb
        and not word.endswith("ed")
        and (gerund or not word.endswith("ing"))
        and _other_kind(frame, word, rest)
    )


_ORDERS = frozenset(
    ("keep", "leave", "let", "make", "set", "use", "run", "put", "get", "have", "do", "turn",
     "switch", "stop", "start", "move", "take", "hold", "give", "try", "check", "ensure")
)  # fmt: skip
_DETERMINERS = frozenset(("the", "a", "an", "these", "those", "this", "that", "all", "any", "our"))
_STATES = frozenset(
    (
        "old", "new", "current", "existing", "remaining", "latest", "recent", "previous",
        "prior", "full", "raw", "daily", "weekly", "monthly", "nightly", "same", "whole",
        "entire", "live", "open", "final", "first", "last", "next", "original", "two", "three",
        "young", "small", "large", "big", "little", "main",
        "few", "many", "several", "both", "each", "every", "such", "own", "affected",
    )
)  # fmt: skip


def _other_compound(frame: Frame, word: str, rest: frozenset[str]) -> bool:
    """Whether a hyphenated or snake_case modifier names another kind ("the payment-webhook
    consumers" for the order-events consumers, "the search_typeahead flag" for the
    checkout_v2 flag): every part a lowercase word, none of them the user's own; or, where the
    user's own kind is such a compound, another one in its place, one part at least not the
    user's ("the sales-agent memory store" for the support-agent one)."""
    if ("-" not in word and "_" not in word) or not word.islower():
        return False
    parts = re.split(r"[-_]", word)
    if not all(p.isalnum() for p in parts) or not any(p.isalpha() for p in parts):
        return False  # "ratings-v2", not "v2-3"
    compounds = {re.sub(r"[-_]", " ", w.lower()) for w in frame.kind_words if re.search(r"[-_]", w)}
    if compounds and " ".join(parts) not in compounds:
        own = {w for c in compounds for w in c.split()}
        return any(
            _other_kind(frame, p, rest) if p.isalpha() else p not in own for p in parts
        )  # "ratings-v2", "support-v2" for "reviews-v2", "support-agent"
    return all(p.isalpha() for p in parts) and all(_other_kind(frame, p, rest) for p in parts)


def _other_kind(frame: Frame, word: str, rest: frozenset[str]) -> bool:
    """Whether a word before the object's shorter form may name another kind of it: none of
    the user's own object words or their clippings, no function word, act or cue."""
    lem = lemmas(normalize(word)).strip()
    if " " in lem and all(p in rest or _clipped(p, rest) for p in lem.split()):
        return False  # "stage-left" of the stage-left flash pots: the rule's own words
    return (
        bool(lem)
        and lem not in rest
        and not _clipped(lem, rest)
        and not function_word(lem)
        and f" {lem} " not in frame.actions
        and not any(c.search(f" {lem} ") for c in _CUES)
    )


def _setting_modifiers(settings: tuple[str, ...], objects: tuple[str, ...]) -> tuple[str, ...]:
    """The words before a multi-word setting's head ("keyframe" of "keyframe interval"): beside
    the object and the pinned value they name the setting ("4K transcodes: keyframes every 48
    frames"). The head alone does not: "rate", "size" and "interval" are every setting's; nor
    does a word the object holds ("notice" of "notice period" for the renewal notices)."""
    named = {w for o in objects for w in o.split()}
    words = (
        w for st in settings for w in st.split()[:-1] if not function_word(w) and w not in named
    )
    return tuple(f" {w} " for w in dict.fromkeys(words))


# restriction nouns that also name things a rule acts on (a spillway gate, a state lock)
_LIFTABLE = ("gate", "lock", "guard", "block")
_CUES = (lx.NEGATION_RE, lx.DEFERRAL_RE, lx.REVOCATION_RE, lx.HEDGE_RE, lx.GESTURE_RE, lx.WAIVE_RE)


class Wording(NamedTuple):
    """What a rule's frame reads from its text rather than its anchors (`wording`): two rules
    with the same anchors may differ in these ("Only close the tickets after the user says
    yes" / "Do not close the tickets until the user confirms")."""

    confirms: bool  # the text speaks of a confirmation: a condition without a relation is a yes
    permits_only: bool  # an exclusive permission ("only X after Y"), not a ban
    rivals: Lazy | None  # another thing named in the object's place (`_rivals`)
    cap: bool  # a ceiling's words ("cap", "at most", "a load limit")
    named: frozenset[str]  # the words right before the object in the text (lemma space)
    measured: frozenset[str] = frozenset()  # what the condition is said of (`_measured_by`)


def wording(fact: Fact) -> Wording:
    lem = lemmas(normalize(fact.text))
    objects = next((g.forms for g in fact.anchors if g.role == "object"), None)
    conditions = next((g.forms for g in fact.anchors if g.role == "condition"), None)
    return Wording(
        "confirm" in fact.text,
        lx.EXCLUSIVE_RE.search(lem) is not None and lx.NEGATION_RE.search(lem) is None,
        _rivals(fact.text, objects, _case_forms(fact)) if objects is not None else None,
        _CAP.search(lem) is not None,
        _named_by(fact.text, objects) if objects is not None else frozenset(),
        _measured_by(fact.text, conditions) if conditions is not None else frozenset(),
    )


def _case_forms(fact: Fact) -> tuple[str, ...]:
    """A rule's condition and value forms: its numbers that name no thing."""
    return tuple(f for g in fact.anchors if g.role in ("condition", "value") for f in g.forms)


def _measured_by(text: str, conditions: tuple[str, ...]) -> frozenset[str]:
    """The words a rule's own text says its condition of, between the relation word and the
    condition's form ("dissolved oxygen" in "If dissolved oxygen drops below 6 mg/L"), in
    lemma space: a summary's "if oxygen is low" speaks of the same case, vaguely."""
    low = text.lower()
    found: set[str] = set()
    for form in conditions:
        at = low.find(form.lower())
        if at <= 0:
            continue
        words = lemmas(normalize(text[:at])).split()[-5:]
        for word in reversed(words):
            if word in lx.RELATIONS or word in ("when", "whenever", "while"):
                break
            if not function_word(word) and not word.isdigit() and len(word) > 2:
                found.add(word)
    return frozenset(found)


def _named_by(text: str, objects: tuple[str, ...]) -> frozenset[str]:
    """The two words right before any form of the object in a rule's own text, in lemma
    space: how the user names the object ("payments-primary PagerDuty" before "escalation
    policy"), never another kind of it."""
    low = text.lower()
    found: set[str] = set()
    for form in objects:
        at = low.find(form.lower())
        if at > 0:
            found.update(lemmas(normalize(text[:at])).split()[-2:])
    return frozenset(found)


def cue_names(anchors: Iterable[AnchorGroup]) -> tuple[str, ...]:
    """A fact's own words that hold a cue ("legal hold", "block size", "no-reply inbox"), in
    lemma space: names, not restrictions, both where the fact's text says what it is about and
    where a summary does (`read_for`, and the floor registry's reading of the rule's polarity)."""
    # the rule's own verb too: in "do not pause the worker" or "do not lift the advisory" the
    # pause and the lifting are the act, not a deferral or a revocation
    forms = lemma_forms(tuple(f for g in anchors for f in g.forms))
    return tuple(f for f in forms if _holds_cue(f))


def _holds_cue(form: str) -> bool:
    """Whether an anchor form holds a restriction, revocation or hedge word that is not a
    relation ("legal hold", "block storage", "the freeze window"): inside the fact's own words
    it is part of a name, not a cue, and the clause's modality is read without it."""
    if any(f" {w} " in f" {form} " for w in _LIFTABLE):
        return True  # "weir gates": a thing, so "lift the weir gates" lifts no restriction
    for cue in _CUES:
        for m in cue.finditer(form):
            # a relation word is a cue of the form's own when it is not the form's first word:
            # "background check is still pending" names a state, "pending approval" a relation
            if m.group(0) not in lx.RELATIONS or form[: m.start()].strip():
                return True
    return False


_CANCEL = r"(?:disable|turn off|switch off|remove|drop|zero out|get rid of|rip out|stop use)"
"""A pin's setting switched off reverses the pin, whatever value the clause names: "disable
dropout entirely, since 0.1 was hurting convergence"."""

_MOVED = (
    r" off {v} ", r" from {v} to ", r" away from {v} ", r" instead of {v} ", r" replace {v} ",
    r" {v} no longer ", r" no longer {v} ", r" not {v} ", r" drop {v} ", r" abandon {v} ",
    r" deviation from {v} ", r" departure from {v} ",
    r" (?:differ|deviate|depart|stray|vary) from {v} ",  # "may differ from 25"
    # "raised from 115°C", "use a higher temperature than 115°C" (not "no higher than")
    r" (?:raise|lower|increase|decrease|reduce|change|move|switch|bump|cut|shift) (?:\S+ ){{0,2}}"
    r"from {v} ",
    r"(?<! no)(?<! not)(?<! never)(?<! nothing) (?:high|low|lower|great|long|short|big|small|large|"
    r"wide|narrow|deep|heavy|fast|slow) (?:\S+ ){{0,3}}than {v} ",
    r" {v} (?:\S+ ){{0,2}}too (?:many|much|few|little|high|low|large|small|big|long|short|"
    r"tight|loose|slow|fast|strict|aggressive|conservative|lenient|generous|costly|expensive|"
    r"shallow|steep|deep|narrow|wide|early|late|hot|cold|coarse|fine) ",
    # a pin reported changed: "the notice period was 60 days; legal shortened it to 45"
    r" {v} (?:\S+ ){{0,8}}(?:shorten|lengthen|raise|lower|increase|decrease|reduce|cut|bump|"
    r"change|move|switch|extend|drop) (?:\S+ )?to ",
    # a pin reported past: "300 s was the old pin", "48 frames was a temporary workaround and
    # has been dropped"
    r" {v} (?:\S+ ){{0,6}}(?:be|is|are) (?:\S+ )?"
    r"(?:old|previous|former|temporary|outdated|obsolete) ",
    r" {v} (?:\S+ ){{0,12}}(?:have be|has be|be|get) (?:drop|remove|retire|abandon|scrap|revert) ",
)  # fmt: skip
_VALUE_KINDS = (
    (r"^[a-z]{2}-[a-z]+-\d$", r"\b[a-z]{2}-[a-z]+-\d\b"),  # a cloud region
    (r"^\d+$", r"(?<![\d.:/-])\d{2,6}(?![\d.:/-])"),  # a port, a count
    (r"^\d+ days?$", r"\b\d+ days?\b"),
    (r"^(?:utc|gmt)$", r"\b(?:gmt|est|edt|pst|pdt|cet|cest|local (?:time|timezone)"
     r"|utc ?[+-] ?\d+|[a-z]+/[a-z_]+)\b"),
    (r"^(?:warn|info|debug|error|trace)$", r"\b(?:debug|info|error|trace|fatal|warning|warn)\b"),
    (r"^[a-z]{3}$", r"\b(?:usd|eur|gbp|jpy|chf|cad|aud)\b"),  # a currency
    (r"^\d:\d$", r"(?<![\d:])\d ?: ?\d(?![\d:])"),  # a ratio ("2:1"; not a time, "14:00")
    (r"^[a-z]\d[a-z]?\.\w+$", r"\b[a-z]\d[a-z]?\.\w+\b"),  # an instance type
    (r"^-?\d+ ?°[cf]$", r"(?<![\d.])-?\d+ ?°[cf]\b"),  # a temperature
    (r"^\d+(?:\.\d+)? ?%$", r"(?<![\d.])\d+(?:\.\d+)? ?%"),  # a percentage
    (r"^v?\d+\.\d+\.\d+$", r"(?<![\d.])v?\d+\.\d+\.\d+(?!\d|\.\d)"),  # a version
    (r"^(?:utf-?8|utf-?16|ascii|latin-?1|cp\d+|windows-\d+|iso-8859-\d+)$",
     r"\b(?:utf-?8|utf-?16|ascii|latin-?1|cp\d{3,4}|windows-\d{3,4}|iso-8859-\d+)\b"),  # encoding
)  # fmt: skip


def _other_value(value: str, forms: tuple[str, ...] = ()) -> re.Pattern[str] | None:
    """A pattern for values of the same kind as `value` (another region, port, zone ...), in
    raw lower-case text; for a duration, any duration (one that converts to the pinned amount
    names the value itself, and is matched as the value first)."""
    durations = [f.strip() for f in forms if is_duration(f.strip())]
    if durations:
        return other_duration(durations[0])
    v = value.strip().lower()
    count = re.match(r"^\d+(?:\.\d+)? ([a-z][a-z-]*?)s?$", v)
    if count is not None:  # "3 replicas", "0.15 ppm": another number of the same unit, on
        # either side, decimals too ("raised to 0.25 ppm", "9.5 volts"), or of a unit another
        # of the user's forms writes ("9.5 V" beside "8 volts")
        unit = re.escape(count.group(1))
        short = sorted(
            (_units(forms) | ({"%"} if count.group(1) == "percent" else set())) - {count.group(1)},
            key=len,
            reverse=True,
        )  # "8%" is another "5 percent", whatever the user's forms wrote
        other = "|".join(map(re.escape, short))
        return re.compile(
            rf"(?<![\d.])\d+(?:\.\d+)? ?{unit}s?\b|\b{unit}s?\s*[=:]?\s*\d+(?:\.\d+)?(?![\d.])"
            + (rf"|(?<![\d.])\d+(?:\.\d+)? ?(?:{other})(?![a-z\d])" if other else "")
        )
    units = sorted(_units((value, *forms)), key=len, reverse=True)
    if units:  # "1530°C", "45 m/s", "92%": another number of a unit the user's forms write,
        # with its sign ("-20 °C" is the pin of a freezer at -20 °C, "20 °C" is not)
        return re.compile(
            rf"(?<![\d.])-?\d+(?:\.\d+)? ?(?:{'|'.join(map(re.escape, units))})(?![a-z\d])"
        )
    for kind, pattern in _VALUE_KINDS:
        if re.match(kind, v):
            return re.compile(pattern)
    named = re.match(r"^([a-z][a-z-]*?)v? ?\d+(?:\.\d+)*$", v)
    if named is not None:  # "TLS 1.2", "Python 3.11", "gzip 6": the name with another number
        # (not a wildcard, "D27xx", "3.x"; a sentence's full stop ends the number)
        return re.compile(rf"\b{re.escape(named.group(1))}v? ?\d+(?:\.\d+)*(?!\w|\.\w)")
    return None


_UNIT = re.compile(r"^[-+−]?\d+(?:\.\d+)?[ -]?([a-z°%µ][a-z°%µ/]*(?: [a-z]+)?)$")


def _units(forms: tuple[str, ...]) -> set[str]:
    """The units a pin's value forms write after their number ("v" of "8 V", "°c" of
    "1530°C", "m/s", "%"), lower case."""
    found = (_UNIT.match(f.strip().lower()) for f in forms)
    return {m.group(1) for m in found if m is not None}


_NOUN_SUFFIXES = ("ion", "al", "ment")
_NOUNS = {  # common verbs whose noun no regular ending gives
    "deny": "denial", "issue": "issuance", "enable": "enablement", "apply": "application",
    "refuse": "refusal", "dismiss": "dismissal", "accept": "acceptance", "submit": "submission",
    "admit": "admission", "transmit": "transmission", "pay": "payment", "close": "closure",
    "disclose": "disclosure", "expose": "exposure", "seize": "seizure", "demote": "demotion",
    "commit": "commit", "limit": "limitation", "vomit": "vomit",
}  # fmt: skip
_NOUN_RULES = (  # (verb ending, what replaces it): English's regular nominalizations
    ("ify", "ification"), ("ize", "ization"), ("ise", "isation"), ("ate", "ation"),
    ("ete", "etion"), ("omote", "omotion"), ("ute", "ution"), ("ect", "ection"),
    ("ert", "ertion"), ("ict", "iction"),
    ("uct", "uction"), ("ibe", "iption"), ("oke", "ocation"), ("ew", "ewal"), ("ove", "oval"),
    ("ive", "ival"), ("draw", "drawal"), ("ose", "osal"), ("oy", "oyment"), ("ign", "ignment"),
    ("ip", "ipment"), ("oll", "ollment"), ("el", "ellation"), ("ublish", "ublication"),
    ("ish", "ishment"), ("mit", "mission"), ("ude", "usion"), ("ume", "umption"),
)  # fmt: skip


def action_nouns(action: str) -> tuple[str, ...]:
    """The noun an action verb (lemma space, padded) is written as: "deletion" for "delete",
    "renewal" for "renew", "deployment" for "deploy", "cancellation" for "cancel", so a
    declared action needs its verb forms only. Regular endings only: one form per verb."""
    word = action.strip()
    if word in _NOUNS:
        return (lemmas(normalize(_NOUNS[word])),)
    if " " in word or "-" in word or len(word) < 4 or not word.isalpha():
        return ()
    for ending, noun in _NOUN_RULES:
        if word.endswith(ending):
            return (lemmas(normalize(word[: -len(ending)] + noun)),)
    return ()


def _default_region(fact_cls: str, polarity: Polarity, worded: Wording) -> Relation:
    """Where a condition named without a relation word puts the rule: a confirmation forbids
    the action before the yes; a conditional forbids it while the condition holds."""
    if fact_cls == "confirmation" or (polarity is Polarity.FORBID and worded.confirms):
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
            compound = bool(nxt) and f" {nxt} " in frame.actions  # "version bump"
            if nxt and not _ends_noun(nxt) and nxt not in own and not compound:
                continue  # "build cache": the head word is itself a modifier here
            j = i - 1
            while j >= 0 and (tokens[j] in own or _clipped(tokens[j], own)):
                j -= 1  # the object's own modifiers before the head, or their clippings
            if compound and not _ends_noun(nxt):
                # the action named after the head ("version bumps are blocked", "container
                # image publish") only where the head opens the clause or follows its own
                # modifier: in "make sure to build the release notes" "build" is a verb
                if j < 0 or j < i - 1:
                    return True
                continue
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
    if (
        frame.conditional
        and _bare_action(frame, tokens)
        and any(len(m) > 5 and m in text for m in frame.modifiers)
    ):
        return True  # "canary err > 2% -> no promote": the object named in its condition,
        # the action with no object of its own
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


def _bare_action(frame: Frame, tokens: tuple[str, ...]) -> bool:
    """Whether one of the fact's one-word actions stands with no object after it (at the end,
    or before a function or relation word): "-> do NOT promote", not "promote the staging
    build"."""
    actions = {a.strip() for a in frame.actions if " " not in a.strip()}
    for i, t in enumerate(tokens):
        if t in actions:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if (
                not nxt
                or nxt in ("it", "them", "this", "that")
                or (
                    nxt in lx.RELATIONS or (nxt in _FUNCTION and nxt not in ("any", "all", "every"))
                )
            ):
                return True
    return False


def _clipped(token: str, own: frozenset[str]) -> bool:
    """Whether a word is a clipping of one of the object's own modifiers: "exhib hall" for
    the exhibition hall, "hosp wing" for the hospital wing. The head word must follow
    it as it is, so a clipping never names the object alone; and a word of its own is none
    ("main window" is another window, "product database" another database), so the common
    clippings that are words ("prod", "env") and common ones ("maint") come from the
    abbreviation table instead, and so does a clipping of three letters or fewer."""
    n = len(token)
    return (
        4 <= n <= 6
        and any(len(m) >= n + 3 and m.startswith(token) for m in own)
        and not known_word(token)
    )


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


_NOT_STOPPED = re.compile(
    r" (?:do|does|did|will|would|should|must|can)? ?not (stop|block|prevent|bar) "
)


_DENIED_REVOCATION = re.compile(
    # a passive or perfect ("has not been lifted", "cannot be waived", "nobody has waived"),
    # not an order ("do not revoke the certificate" is an act of its own)
    r" (?:not|never|nobody|no one)(?: ever)?(?: (?:be|have|get|being))+ (optional|waive|lift|"
    r"rescind|revoke|relax|overturn|withdraw|suspend|drop|remove|cancel|scrap)(?= )"
    r"| not (optional)(?= )"
)


def read_for(frame: Frame, text: str, raw: str = "") -> Clause:
    """`read_clause`, with the fact's own words that hold a cue ("if a ticket is tagged legal
    hold") left out of the modality: the hold is the condition's name, not a restriction."""
    if (" not " in text or " never " in text or " nobody " in text) and _DENIED_REVOCATION.search(
        text
    ):  # "that is not optional", "it cannot be waived": the rule said to stand, which neither
        # forbids nor requires the act (the rule's own words say which); not where the word is
        # the rule's own act ("the signing key must not be revoked")
        acts = {w for a in frame.actions for w in a.split()}
        text = _DENIED_REVOCATION.sub(lambda m: m.group(0) if m.group(1) in acts else " ", text)
    own_acts = frame.act_words if " skip " in text else frozenset()
    clause = read_clause(text, frame.deferral, raw, own_acts)
    if not frame.values and clause.exclusive and (cut := lx.EXCEPT_WORD_RE.search(text)):
        # "do not flush it after step 2, except for hotfixes": outside a pin, the exception
        # carves a case out of the rule; it does not make "no X except Y" an exclusive pin
        head = text[: cut.start()] + " "
        if lx.EXCLUSIVE_RE.search(head) is None:
            main = read_clause(head, frame.deferral, raw)
            clause = replace(clause, reading=main.reading, exclusive=main.exclusive)
    if (
        clause.reading is Reading.FORBID
        and " not " in text
        and (m := _NOT_STOPPED.search(text)) is not None
        and f" {m.group(1)} " not in frame.actions
    ):
        # "a malware hit does not stop the build release": the stop is denied, not the release
        # (where the rule's own act is the stopping, "do not stop the worker" forbids it)
        return replace(clause, reading=Reading.POSITIVE)
    if clause.reading is Reading.REVOKED and " lift" in text and lx.LIFTED_RE.search(text):
        # "trigger the sirens first, then lift the spillway gates": the rule's own gates are a
        # thing lifted, not a gate on an act
        own_words = frame.reference_words | {w for o in frame.objects for w in o.split()}
        nouns = [w for w in _LIFTABLE if w in own_words and f" {w} " in text]
        if nouns:
            plain = text
            for w in nouns:
                plain = plain.replace(f" {w} ", " thing ")
            again = read_clause(plain, frame.deferral, raw)
            if again.reading is not Reading.REVOKED:
                clause = replace(clause, reading=again.reading)
    if not frame.masks or not any(f in text for f in frame.masks):
        return clause
    masked = text
    for form in frame.masks:
        masked = masked.replace(form, " ")
    own = read_clause(masked, frame.deferral, raw, own_acts)
    return replace(
        clause,
        reading=own.reading,
        exclusive=own.exclusive,
        hedged=own.hedged,
        directive=own.directive,
        deferred=own.deferred,
        gesture=own.gesture,
    )
