"""Text normalization shared by the grader and the anchor checks.

Graders that match raw substrings pass paraphrases as losses and inverted rules as kept.
Everything here maps surface variation to one form: case, punctuation, contractions
("don't" = "do not"), number words ("four" = "4") and articles, so an anchor form and a
sentence are compared in the same space.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

# not after "i.e." / "e.g." / "etc." / "vs.": "banned from step 5 on (i.e. after step 4)", nor
# after a title before a name ("Dr. Okafor overrode that")
_SENTENCE_END = re.compile(
    r"(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\betc\.)(?<!\bvs\.)"
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bProf\.)(?<!\bCapt\.)"
    r"(?<!\bSgt\.)(?<!\bLt\.)(?<!\bJr\.)(?<!\bSr\.)(?<!\bapprox\.)"
    r"(?<=[.!?;])\s+|\n+"
)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_IRREGULAR = {
    "can't": "can not",
    "cannot": "can not",
    "won't": "will not",
    "shan't": "shall not",
    "ain't": "is not",
    # "'s" after these is "is", not a possessive: "if there's time" is "if there is time"
    # ("it's" stays "its", as summaries often write it)
    **{
        f"{w}'s": f"{w} is"
        for w in ("that", "what", "there", "here", "he", "she", "who", "where", "how")
    },
    "let's": "let us",
}
_IRREGULAR_RE = re.compile(r"\b(" + "|".join(re.escape(k) for k in _IRREGULAR) + r")\b")
_NT = re.compile(r"\b(\w+)n't\b")
# "we'll climb it anyway" is "we will climb it": the modal is a cue ("well climb" is none)
_PRONOUN_AUX = re.compile(r"\b(i|you|we|they|he|she|it|that|there|who)'(ll|re|ve|d|m)\b")
_FRONTED_HINT = re.compile(r"\bonly (?:after|once|when|if|until) ")
_FRONTED_ONLY = re.compile(
    r"\bonly (after|once|when|if|until) ([^,;.:]+?) (do|does|did|can|could|will|would|may|must|"
    r"should|shall) ([^,;.:]+)"
)
_UNBLOCK_ON = re.compile(
    # not "unlock" (an act of its own, "not to be unlocked after step 4"), nor "after"/"when"
    r"(?<![\w-])un(block|freez|paus|hold)(?:e|s|es|ed|ing)?[ _](?:on|once|upon)\b"
)
_NO_YES_NO = re.compile(
    r"\bno ((?:[\w'-]+ ){0,3}?(?:confirmation|approval|sign-off|signoff|sign off|ok|okay|"
    r"go-ahead|consent|permission|yes|green light|nod))\s*[,:;\u2014\u2013-]+\s*no ([^.;\n]+)"
)
_HELD_UNTIL = {"block": "blocked", "freez": "frozen", "paus": "paused", "hold": "held"}
_HAS_BEEN = re.compile(r"\b(\w+)'s been\b")
_AUX = {"ll": "will", "re": "are", "ve": "have", "d": "would", "m": "am"}
_POSSESSIVE = re.compile(r"\b(?!(?:it|that|what|there|here|let|he|she|who|where|how)'s\b)(\w+)'s\b")
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty")
    )
}  # fmt: skip
_NUMBER_WORDS.update(
    {w: str(10 * (i + 3)) for i, w in enumerate(
        ("thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"))}
)  # fmt: skip
_NUMBER_WORDS["hundred"] = "100"
_NUMBER_WORDS["thousand"] = "1000"
_NUMBER_RE = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")
# number words in a row, once spelled as digits: "three hundred" -> "3 100", "forty-five" ->
# "40-5", "two thousand five hundred" -> "2 1000 5 100"
_COMPOUND_RE = re.compile(r"\b\d{1,3}(?:[ -](?:and )?\d{1,4})+\b")


_STEP_RANGE = re.compile(
    r"\b(during|within|in|for|between|only|over|across|while|to) steps? (\d+)"
    r" ?(?:-|to|through|thru|and) ?(?:step )?(\d+)\b"
)
"""A window of steps ("only during steps 1-3") as its two ends, each a step the relations see
("steps 1-4 complete" is a report, not a window, and is left alone)."""
_STEP_RUNNING = re.compile(
    r"\b(?:while|whilst|as long as) step (\d+) is (?:still )?(?:in progress|running|underway|"
    r"ongoing|open|active|not done|not finished|not complete)\b"
)
"""A step still running is before the step is done: "restart it only while step 3 is in
progress" allows it up to step 3's end and no later."""
_STEP_ONWARD = re.compile(
    r"\b(?:from|starting (?:at|with|from)|beginning (?:at|with)) step ([1-9]\d?)"
    r"(?: (?:on|onwards?|and later|and beyond)\b| ?$| (?!until|to|through|thru)(?=\S))"
    r"|(?<!of )\bstep ([1-9]\d?) (?:onwards?|and later|and beyond)\b"
    r"|\b(?:from )?end of step ([1-9]\d?)(?: (?:on|onwards?))?\b"
)


def _onward(m: re.Match[str]) -> str:
    """Step N onward is "after step N-1": "off-limits from step 3 onward" keeps "not after
    step 2". The word after a bare "from step N" is kept."""
    if m.group(3):
        return f"after step {m.group(3)}"  # "from the end of step 4 onward"
    n = int(m.group(1) or m.group(2))
    tail = m.group(0)[m.group(0).rfind(str(n)) + len(str(n)) :]
    keep = "" if re.match(r" (?:on|onwards?|and later|and beyond)\b", tail) else tail
    return f"after step {n - 1}{keep}"


def _compound(m: re.Match[str]) -> str:
    """Spelled-out numbers in a row as one number ("3 100" -> "300"); digits that do not
    compose so ("step 3 4", "1 2 3") are left as they are."""
    parts = [int(p) for p in re.split(r"[ -](?:and )?", m.group(0))]
    total, current = 0, 0
    for i, n in enumerate(parts):
        if n in (100, 1000):
            if current == 0 or (n == 100 and current >= 100):
                return m.group(0)
            current *= n
            if n == 1000:
                total, current = total + current, 0
        elif i and current % 10 == 0 and current % 100 >= 20 and n < 10 and parts[i - 1] != 100:
            current += n  # "forty five"
        elif i and parts[i - 1] in (100, 1000) and n < 100:
            current += n  # "three hundred twenty"
        elif i:
            return m.group(0)
        else:
            current = n
    return str(total + current)


# every article goes, but the one that keeps "in the general counsel" from reading as the
# hedge "in general"
_ARTICLES = re.compile(r"\b(?:a|an|the(?! general\b)|(?<!\bin )the)\b")
# keep letters, digits, hyphens inside words, dots inside tokens like versions (v2.3)
_PUNCT = re.compile(r"[^a-z0-9\s\-.]|(?<![a-z0-9])[-.]|[-.](?![a-z0-9])")
_SPACES = re.compile(r"\s+")
# Symbols telegraphic notes use for words ("err rate > 2% => no promote", "migrate -> deploy").
_SYMBOLS = {
    "w/o": " without ", "=>": " then ", "->": " then ", "→": " then ", "⇒": " then ",
    "⟹": " then ", ">=": " at least ",
    "<=": " at most ", "≥": " at least ", "≤": " at most ", "~": " about ", "≈": " about ",
    ">": " above ", "<": " below ", "%": " percent ",
}  # fmt: skip
_SYMBOL_RE = re.compile("|".join(re.escape(k) for k in sorted(_SYMBOLS, key=len, reverse=True)))


# speeds spelled out or short after their number: one spelling each ("fifteen kilometres per
# hour", "15 kph" = "15 km/h"; "40 miles per hour" = "40 mph"; "12 metres per second" = "12 m/s")
_SPEED_RE = re.compile(
    r"\b(kph|kmh|km per hour|kilomet(?:re|er)s? (?:per|an) hour|mil(?:e|es) (?:per|an) hour"
    r"|met(?:re|er)s? per second|kts)\b"
)
_SPEEDS = {"kph": "km/h", "kmh": "km/h", "km ": "km/h", "kil": "km/h", "mil": "mph", "met": "m/s",
           "kts": "knots"}  # fmt: skip

_PENDING_THINGS = re.compile(
    r"\bpending (?=[a-z-]+ (?:are|is|exceed|exceeds|stay|stays|remain|remains|count|number|"
    r"total|go|goes|climb|climbs|rise|rises)\b)"
)
_NO_MATTER = re.compile(r"\bno matter(?= (?:what|how|who|when|where|which|if|whether)\b)")

_STRUCK = re.compile(r"~~(.+?)~~")
_SAYS_SO = re.compile(r"(?<=\w) (?:says|say|said) so\b(?! (?:far|much|many|long|often)\b)")
_THROUGH_STEP = re.compile(
    r"\b(is|are|was|were|be|been|gone|get|got|gets|come|came) through step\b"
)
_BY_STEP = re.compile(r"\bby step (\d+)\b(?! at (?:the )?latest)")
# "lower than 4" is below it; elsewhere "lower" is the verb ("do not lower the car ramp")
_LOWER_THAN = re.compile(r"\blower than\b")
# a thousands separator ("3,600 s", "12,500,000 rows"), not a list of ports ("ports 80,443")
_THOUSANDS = re.compile(r"(?<!port )(?<!ports )(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")
_OR_LOWER = re.compile(r"(\d\S*(?: [a-z/%°µ]+)?) or (?:lower|less)\b")
# "until after step 5", "can wait till after the backfill": the "after" only says the wait
# ends once the reference is done, which "until" says already
_UNTIL_AFTER = re.compile(r"\b(until|till|up to) after\b")
# "can be opened up to step 2 and never after it": only up to the step just named
_NEVER_AFTER_IT = re.compile(
    r"\b((?:up to|until|till|before|through) step \d+),? (?:and|but) (?:never|not|no) "
    r"(?:after|past|beyond) (?:it|that|this)\b"
)
# a numbered stage or phase is a step: "beyond stage 4", "after the sixth phase"
_STAGE_NUMBER = re.compile(r"\b(?:stage|phase)(s?) (?=\d)")
_NTH_STAGE = re.compile(
    r"\b(\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
    r"|tenth|eleventh|twelfth) (?:stage|phase)\b"
)
# "post-lock", "post step 5": after; elsewhere "post" is the verb ("posting the schedule")
_POST_AFTER = re.compile(r"\bpost(?:-(?=[a-z0-9])|\s+(?=step\b))")


def split_sentences(text: str) -> list[str]:
    """Lines first, then sentence ends; anchors must co-occur within one of these."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


# "lines first, seal second": an order, as "lines first, then seal" states it (a "second"
# that ends its clause, not "the second batch")
_FIRST_SECOND = re.compile(
    r"\bfirst\s*(?:,|;|\band\b)\s*(.{1,80}?)\s+second\b(?=\s*(?:[.;,!?)]|$))"
)


@lru_cache(maxsize=32_768)  # bounded: a sweep's memory stays flat (see sim.grading.grade)
def normalize(text: str) -> str:
    """Canonical form used for every comparison; padded with spaces for whole-word search."""
    s = text.lower().translate(_APOSTROPHES)
    s = _IRREGULAR_RE.sub(lambda m: _IRREGULAR[m.group(1)], s)
    s = _NT.sub(r"\1 not", s)
    if "'" in s:
        if "'s been" in s:
            s = _HAS_BEEN.sub(r"\1 has been", s)  # "that's been overturned": "has", not "is"
        if "'ll" in s or "'re" in s or "'ve" in s or "'d" in s or "'m" in s:
            s = _PRONOUN_AUX.sub(lambda m: f"{m.group(1)} {_AUX[m.group(2)]}", s)
    if "~~" in s:  # "~~do not reset the governor after step 5~~": struck through, withdrawn
        s = _STRUCK.sub(r"\1 (no longer applies) ", s)
    if "no " in s and (s.startswith("no ") + s.count(" no ")) >= 2:
        s = _NO_YES_NO.sub(r"no \2 without \1", s)  # "no Priyanka OK, no spraying": a gate
    if "only " in s and _FRONTED_HINT.search(s):
        # "only after the check do the calls get released": the fronted case, put back after
        # the clause it governs ("the calls get released only after the check")
        s = _FRONTED_ONLY.sub(r"\4 only \1 \2", s)
    if "unblock" in s or "unfreez" in s or "unpaus" in s or "unhold" in s:
        # "unblock_on: rosalind_confirmation": a gate, blocked until it
        s = _UNBLOCK_ON.sub(lambda m: f"{_HELD_UNTIL[m.group(1)]} until", s)
    if "post" in s:
        s = _POST_AFTER.sub("after ", s)
    if " so" in s:
        s = _SAYS_SO.sub(" confirms", s)  # "only once Siobhán says so": her yes
    if "no matter" in s:  # "stays at 0.1 no matter what": whatever else, not a negation
        s = _NO_MATTER.sub("regardless", s)
    if "pending " in s:  # "if pending pods are above 200": pods that wait, not a wait
        s = _PENDING_THINGS.sub("queued ", s)
    if "whether or not" in s:  # "drill it whether or not Delphine has signed off": the
        # case disregarded, not denied
        s = s.replace("whether or not", "regardless of whether")
    if "lower than" in s:
        s = _LOWER_THAN.sub("below", s)
    if " or l" in s:
        s = _OR_LOWER.sub(r"\1 or below", s)  # "12.5 or lower", "5 mg/l or less": a bound
    if "'s" in s:
        s = _POSSESSIVE.sub(r"\1", s)  # "Marguerite's go-ahead": the name, not "marguerites"
    s = s.replace("'", "")
    if _SYMBOL_RE.search(s):
        s = _SYMBOL_RE.sub(lambda m: _SYMBOLS[m.group(0)], s)
    if "per " in s or " an hour" in s or "kph" in s or "kmh" in s or "kts" in s:
        s = _SPEED_RE.sub(lambda m: _SPEEDS[m.group(1)[:3]], s)  # "15 kph" is 15 km/h
    if "second" in s and "first" in s:
        s = _FIRST_SECOND.sub(r"first, then \1", s)  # "seal first, paint second"
    if "," in s:
        s = raw_numbers(s)  # "3,600 s" is 3600 s
    s = _PUNCT.sub(" ", s)
    if _NUMBER_RE.search(s):
        s = _NUMBER_RE.sub(lambda m: _NUMBER_WORDS[m.group(1)], s)
        s = _COMPOUND_RE.sub(_compound, s)
    s = _SPACES.sub(" ", _ARTICLES.sub(" ", s)).strip()
    if "stage" in s or "phase" in s:  # "once stage 4 has passed", "the 6th stage": a step
        s = _NTH_STAGE.sub(r"\1 step", _STAGE_NUMBER.sub(r"step\1 ", s))
    if "step" in s:
        if "by step" in s:  # "finished by step 5": a deadline, no later than step 5
            s = _BY_STEP.sub(r"by step \1 at latest", s)
        if "through step" in s:  # "once a forging is through step 4": past it, not up to it
            s = _THROUGH_STEP.sub(r"\1 past step", s)
        s = _STEP_RANGE.sub(r"\1 from step \2 up to step \3", s)
        if "while" in s or "as long as" in s:  # "only while step 3 is still in progress"
            s = _STEP_RUNNING.sub(r"before step \1 is done", s)
        s = _STEP_ONWARD.sub(_onward, s)
    if "after" in s and ("until" in s or "till" in s or "up to" in s):
        s = _UNTIL_AFTER.sub(r"\1", s)  # "do not reset it until after step 5": until step 5
        if " it" in s or " that" in s or " this" in s:
            s = _NEVER_AFTER_IT.sub(r"only \1", s)
    if "wait" in s and " then " in s:
        s = _WAIT_THEN.sub(r"\2 only after \1", s)
        s = _THEN_WAIT.sub(r"\1 before \2", s)
    return " " + s + " "


# "wait for the data, then change the slug": the order after "then" is the act, and the wait
# gates it on what is waited for ("change the slug only after the data"), not on any other
# condition the order states ("then change it after step 6" permits the change after step 6)
# and "clear the hit, then wait for the yes" acts before the yes (a wait that names no other
# relation: "then wait for Marcus before clearing it" still gates the clearing)
_THEN_WAIT = re.compile(
    r"^((?:(?!\b(?:not|no|never|wait)\b).)+?) (?:and )?then wait (?:for|until|till) "
    r"((?:(?!\b(?:before|after|until|till|prior|once|first)\b)\S+ ?){1,8})$"
)
_WAIT_THEN = re.compile(
    r"\b(?:wait|hold off) (?:for|until|till) (\S+(?: \S+){0,7}?) (?:and )?then (.+)$"
)


# Letters normalize writes that the raw text need not hold: the words contractions expand to.
_EXPANDED = frozenset({"not", "can", "will", "shall", "is"})
_JOINING = "'’‘`"  # normalize deletes these, joining what stands around


def raw_key(text: str) -> str:
    """Lowercase with apostrophes deleted: the raw text in which `raw_filter` searches.
    (The grader calls this once per new line: a test for each mark and a replace of the
    few found take a fifth of the time of `str.translate` with a deletion table.)"""
    key = text.lower()
    for mark in _JOINING:
        if mark in key:
            key = key.replace(mark, "")
    return key


# The lemma space: every word by its dictionary form (simplemma's English tables, which ship
# inside the package), so "dropped" = "dropping" = "drop" and "consoles" = "console", plus the
# abbreviations agent sessions use and ordinals as digits. Anchors and text are both mapped, so
# a form written once matches every inflection of it.
_ABBREVIATIONS = {
    "k8s": "kubernetes", "db": "database", "dbs": "database", "env": "environment",
    "envs": "environment", "prod": "production", "creds": "credential", "cred": "credential",
    "config": "configuration", "cfg": "configuration", "repo": "repository",
    "repos": "repository", "msg": "message", "msgs": "message", "pw": "password",
    "pwd": "password", "tz": "timezone", "infra": "infrastructure", "deps": "dependency",
    "dep": "dependency", "pr": "pull-request", "okd": "approve", "back-up": "backup",
    "backups": "backup", "bkp": "backup", "bkps": "backup", "tbl": "table", "tbls": "table",
    "bkt": "bucket", "bkts": "bucket", "integ": "integration", "err": "error",
    "errs": "error", "ts": "timestamp", "vol": "volume", "vols": "volume", "util": "usage",
    "rm": "delete", "svc": "service", "svcs": "service", "oks": "ok", "okays": "ok",
    "w": "with", "w/o": "without",
    "wo": "without", "b4": "before", "thru": "through",
    "til": "until", "till": "until", "shouldnt": "should not", "dont": "do not",
    "cant": "can not", "wont": "will not", "isnt": "is not", "arent": "are not",
    "mustnt": "must not", "neednt": "need not", "cert": "certificate", "certs": "certificate",
    "perms": "permission", "acct": "account", "accts": "account", "txn": "transaction",
    "txns": "transaction", "pkg": "package", "pkgs": "package", "img": "image",
    "imgs": "image", "ns": "namespace", "dir": "directory", "dirs": "directory",
    "mgmt": "management", "notif": "notification", "notifs": "notification",
    "stg": "staging", "qty": "quantity", "approx": "approximately", "mins": "minute",
    "hrs": "hour", "hr": "hour",
    "yr": "year", "yrs": "year", "wk": "week", "wks": "week",
    "docs": "document", "doc": "document", "ack": "acknowledge", "acked": "acknowledge",
    "sign-off": "approval", "signoff": "approval", "go-ahead": "approval", "mq": "message queue",
    "lb": "load balancer", "lbs": "load balancer", "vm": "virtual machine",
    "vms": "virtual machine", "cron": "scheduled job",
    "ctrl": "controller", "ctrls": "controller", "fw": "firmware", "ckpt": "checkpoint",
    "ckpts": "checkpoint", "chkpt": "checkpoint", "cmd": "command", "cmds": "command",
    "mgr": "manager", "hw": "hardware", "sw": "software",
    "param": "parameter", "params": "parameter", "perf": "performance", "spec": "specification",
    "specs": "specification", "src": "source", "usr": "user", "ver": "version",
    "vuln": "vulnerability", "vulns": "vulnerability", "xfer": "transfer", "mtg": "meeting",
    "appt": "appointment", "appts": "appointment", "cust": "customer", "custs": "customer",
    "dept": "department", "addr": "address", "attr": "attribute", "attrs": "attribute",
    "lib": "library", "libs": "library", "ref": "reference", "refs": "reference",
    "sched": "schedule", "org": "organization", "orgs": "organization",
    "ep": "episode", "eps": "episode", "maint": "maintenance", "qual": "qualification",
    "quals": "qualification", "amt": "amount", "equip": "equipment", "eqpt": "equipment",
    "info": "information", "pax": "passenger", "vax": "vaccine", "meds": "medication",
    "rx": "prescription", "mfg": "manufacturing", "calc": "calculation",
}  # fmt: skip
_ORDINAL_SUFFIX = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_UNIT_SUFFIX = re.compile(r"^(\d+)(s|sec|secs|min|mins|h|hr|hrs|d|w|wk|wks|yr|yrs)$")
_UNITS = {
    "s": "second", "sec": "second", "secs": "second", "min": "minute", "mins": "minute",
    "h": "hour", "hr": "hour", "hrs": "hour", "d": "day", "w": "week", "wk": "week",
    "wks": "week", "yr": "year", "yrs": "year",
}  # fmt: skip
"""Durations written short ("90d", "2160h", "45s", "30 min"): the number and its unit as words."""
_NUMBER_HYPHEN = re.compile(r"^(\d+)-([a-z]+)$")
_ORDINAL_WORDS = {
    w: str(i + 1)
    for i, w in enumerate(
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
         "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
         "seventeenth", "eighteenth", "nineteenth", "twentieth")
    )
}  # fmt: skip
_LEMMA_FIXES = {
    "least": "least", "preferred": "prefer", "preferring": "prefer", "lower": "lower",
    "barred": "barred", "latest": "latest", "earliest": "earliest",
}  # fmt: skip
"""Where simplemma's tables are wrong for what the grader reads: "at least" is a bound, not
the comparative "less" ("at least 3 replicas" loosens a pin; ">= 3" is not "below 3"), and
"preferred" lemmatizes to "preferr"; "lower" is the verb ("do not lower the car ramp"), as its
other forms ("lowered", "lowering") are, not the comparative "low"; "barred" is banned, not
the unit "bar" ("232 bar"); "latest" is the most recent ("latest archive 02:00"), not the
"later" that puts an act off."""
_ONE_L = frozenset(("cancel", "label", "model", "signal", "travel", "level", "channel",
                    "counsel", "fuel", "total", "dial", "marshal", "tunnel", "funnel"))  # fmt: skip
_PLURAL_UNKNOWN = re.compile(r"[a-z]{3,}[^su']s$")
"""A word the tables do not know, read as a plural when it ends like one; the anchors go
through the same reading, so a name that only looks plural ("postgres") still matches."""
_LEMMA: dict[str, str] = {}
_MAX_LEMMAS = 65_536


@lru_cache(maxsize=4_096)
def known_word(token: str) -> bool:
    """Whether a lowercase word is in simplemma's English tables (a word of its own)."""
    import simplemma

    return bool(simplemma.is_known(token, lang="en"))


def _lemma(token: str) -> str:
    cached = _LEMMA.get(token)
    if cached is not None:
        return cached
    if token in _ABBREVIATIONS:
        out = _ABBREVIATIONS[token]
    elif token in _LEMMA_FIXES:
        out = _LEMMA_FIXES[token]
    elif token in _ORDINAL_WORDS:
        out = token  # "seventh" (the tables give "seven"), read by its neighbours in `lemmas`
    elif (m := _ORDINAL_SUFFIX.match(token)) is not None:
        out = m.group(1)
    elif (m := _UNIT_SUFFIX.match(token)) is not None:
        out = f"{m.group(1)} {_UNITS[m.group(2)]}"
    elif (m := _NUMBER_HYPHEN.match(token)) is not None:
        out = m.group(1) + " " + _lemma(m.group(2))
    elif not token.isalpha() or len(token) < 3:
        out = token
    else:
        import simplemma

        out = simplemma.lemmatize(token, lang="en").lower()
        if not out.isalpha() and "-" not in out:
            out = token
        elif token.endswith("ings") and out == token[:-1]:
            out = _lemma(out)  # "openings" as "opening" is read: the tables give the verb
        elif out.endswith("ll") and token.endswith(("lled", "lling")) and out[:-1] in _ONE_L:
            out = out[:-1]  # British doubling the tables keep: "cancelled" -> "cancel"
        elif out == token and _PLURAL_UNKNOWN.match(token) and not known_word(token):
            out = token[:-1]  # a plural the tables lack ("markdowns", "ckpts"): its anchor
    if len(_LEMMA) >= _MAX_LEMMAS:
        _LEMMA.clear()
    _LEMMA[token] = out
    return out


_SPLIT_TOKEN = re.compile(r"(?<=[a-z])[-.](?=[a-z0-9])|(?<=[0-9])-(?=[a-z])|(?<=[a-z])(?=[0-9])")


_TOKENS: dict[str, tuple[str, ...]] = {}


_UNDONE_KEPT = frozenset(
    ("block", "freeze", "pin", "lock", "protect", "restrict", "guard", "gate", "ban", "do",
     "know", "expect", "load", "pack", "wrap", "tie", "mount", "plug", "install", "link",
     "change", "modify", "alter", "test", "use", "resolve", "read", "answer", "assign", "see",
     "check", "verify", "review", "fix", "solve", "claim", "cover", "mention", "plan",
     "damage", "harm", "affect", "impair", "scratch", "attend", "occupy", "staff",
     "couple", "hook", "bolt", "clamp", "screw", "zip", "buckle", "latch", "dock", "tether",
     "leash", "harness", "shackle", "fasten", "button", "coil", "cork", "strap", "hitch",
     "subscribe", "roll", "stack", "earth")
)  # fmt: skip
"""Verbs whose "un-" participle undoes a thing or describes a state rather than denies the
act: "unblocked" lifts a block (sim.grading.lexicon's revocations), "uncoupled" and
"unbolted" are acts of their own ("before the switch engine is uncoupled"); "unknown",
"unchanged", "untested", "unresolved", "undamaged" and "unattended" describe."""


def _undone(token: str) -> str | None:
    """The action an "un-" participle denies ("unsent" -> "send", "unstarted" -> "start",
    "unmerged" -> "merge"), or None for any other word that opens with "un"."""
    rest = token[2:]
    if len(rest) < 3 or not rest.endswith(("ed", "en", "t", "n")):
        return None
    verb = _lemma(rest)
    if verb == rest or verb in _UNDONE_KEPT or not verb.isalpha():
        return None
    return verb


def _token_lemmas(raw: str) -> tuple[str, ...]:
    """One normalized token in lemma space: a compound gives several words."""
    cached = _TOKENS.get(raw)
    if cached is None:
        if raw.startswith("un") and raw.isalpha() and (done := _undone(raw)) is not None:
            cached = ("not", done)
        elif raw in _ABBREVIATIONS or raw.isalpha():
            cached = tuple(_lemma(raw).split())
        else:
            cached = tuple(
                w for part in _SPLIT_TOKEN.sub(" ", raw).split() for w in _lemma(part).split()
            )
        if len(_TOKENS) >= _MAX_LEMMAS:
            _TOKENS.clear()
        _TOKENS[raw] = cached
    return cached


def warm_lemmas() -> None:
    """Load the lemma tables now (~1 s, once per process): a sweep's forkserver does it before
    it forks, so workers inherit them instead of each paying for them on their first grade."""
    _lemma("warming")


# past participles that are also nouns or adjectives, read as the verb after a passive's
# helper: "before the pontil marks get ground", "is left as is", "was shot on film"
_PARTICIPLES = {
    "ground": "grind", "bound": "bind", "wound": "wind", "left": "leave", "shot": "shoot",
    "rung": "ring",
}  # fmt: skip
_HELPERS = frozenset(("be", "is", "are", "was", "were", "get", "got", "have", "has", "had"))
_ADVERBS = frozenset(("not", "yet", "already", "never", "all", "just", "first", "being"))
_RESPELLED = frozenset(_UNITS) | frozenset(_ORDINAL_WORDS) | frozenset(_PARTICIPLES)
"""Words read by their neighbours."""


def raw_numbers(raw: str) -> str:
    """A raw clause in lower case with thousands separators dropped, where a pin's values are
    matched in raw text: "3,600 seconds" is the pinned 3600 s, not 600 s."""
    low = raw.lower()
    return _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), low) if "," in low else low


def lemmas(normalized: str) -> str:
    """`normalize`'s output in lemma space, padded with spaces like it for whole-word search.
    Compounds split into words ("payment-worker", "worker.restart", "step3"), and an ordinal
    word next to "step" becomes its digit ("the third step" = "step 3")."""
    tokens: list[str] = []
    for raw in normalized.split():
        tokens.extend(_token_lemmas(raw))
    for i, t in enumerate(tokens):
        if t not in _RESPELLED:
            continue
        if t in _PARTICIPLES:
            helper = next((w for w in reversed(tokens[max(0, i - 3) : i]) if w not in _ADVERBS), "")
            if helper in _HELPERS:
                tokens[i] = _PARTICIPLES[t]
        elif t in _UNITS and i and tokens[i - 1].isdigit():
            tokens[i] = _UNITS[t]  # "30 min", "2 h": a unit after its number
        elif t in _ORDINAL_WORDS and (
            (i + 1 < len(tokens) and tokens[i + 1] == "step") or (i and tokens[i - 1] == "step")
        ):
            tokens[i] = _ORDINAL_WORDS[t]
    return " " + " ".join(tokens) + " "


_SOURCES: dict[str, tuple[str, ...]] = {}
for _short, _long in (*_ABBREVIATIONS.items(), *_PARTICIPLES.items()):
    for _word in _long.split():
        _SOURCES[_word] = (*_SOURCES.get(_word, ()), _short)


def _runs_of(word: str) -> set[str]:
    """What `raw_key` holds wherever `word` (a word in lemma space) came from: its longest run
    of letters cut back past a final e or y (regular inflection keeps the rest: "stag" is in
    "staging", "polic" in "policies"), every abbreviation that lemmatizes to it ("creds",
    "k8s", "back-up"), and every irregular form the tables lemmatize to it ("frozen",
    "sent", "indices")."""
    main = max(re.findall("[a-z]+", word), key=len)
    run = main[:-1] if len(main) > 3 and main[-1] in "ey" else main
    return {run, *_SOURCES.get(word, ()), *_irregular_forms().get(word, ())}


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, tuple[str, ...]]:
    """Per lemma, the forms of four letters or more in simplemma's English table that do not
    hold its run ("froze", "frozen" for "freeze"; "ground" for "grind", which `lemmas` reads
    after a helper); shorter ones ("was", "ran") are in most lines, and would filter nothing
    out. Built once, on first use, from the table the lemmas come from (a fifth of a
    second)."""
    try:
        from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

        items = list(DefaultDictionaryFactory().get_dictionary("en").items())
    except (ImportError, AttributeError, ValueError):  # another simplemma: no table
        items = []
    found: dict[str, list[str]] = {}
    for form, lemma in items:
        f = (form.decode() if isinstance(form, bytes) else form).lower()
        lem = (lemma.decode() if isinstance(lemma, bytes) else lemma).lower()
        run = lem[:-1] if len(lem) > 3 and lem[-1] in "ey" else lem
        if f.isalpha() and len(f) > 3 and run not in f:
            found.setdefault(lem, []).append(f)
    for form, verb in _PARTICIPLES.items():
        found.setdefault(verb, []).append(form)
    return {k: tuple(v) for k, v in found.items()}


def lemma_filter(forms: Iterable[str]) -> tuple[str, ...] | None:
    """Runs of letters, one of which `raw_key(text)` holds whenever `lemmas(normalize(text))`
    could contain one of `forms` (each form's longest word stands for it); None when a form has
    no word a run stands for (digits only, a word contractions expand to). Most lines of a
    history hold none and need not be normalized at all."""
    return _lemma_filter(tuple(forms))


@lru_cache(maxsize=4_096)  # a sweep asks for the same facts' forms in trial after trial
def _lemma_filter(forms: tuple[str, ...]) -> tuple[str, ...] | None:
    runs: set[str] = set()
    for form in forms:
        words = [w for w in form.split() if w not in _EXPANDED and re.search("[a-z]", w)]
        if not words:
            return None
        runs |= _runs_of(max(words, key=lambda w: len(max(re.findall("[a-z]+", w), key=len))))
    # a run that holds another adds nothing: the shorter one is found wherever it is
    return tuple(sorted(r for r in runs if not any(o != r and o in r for o in runs))) or None


def word_runs(words: Iterable[str]) -> tuple[str, ...] | None:
    """Every run `raw_key` holds where one of `words` (lemma space, one word each) came from,
    opening the raw word ("truncat" for "truncate"): `lemma_filter`'s runs, none left out for
    holding another (a search for runs that open a word needs them all). None when a word has
    no run (digits only, a word contractions expand to)."""
    runs: set[str] = set()
    for word in words:
        if word in _EXPANDED or not re.search("[a-z]", word):
            return None
        runs |= _runs_of(word)
    return tuple(sorted(runs))


Need = tuple[tuple[str, ...], ...]  # every word of a form, each by its accepted runs


def lemma_needs(forms: Iterable[str]) -> tuple[Need, ...] | None:
    """A stricter `lemma_filter`: per form, every word's runs (its stem cut past a final e or
    y, and the abbreviations that lemmatize to it); `raw_key(text)` holds one run of every word
    of a form whenever the form can occur in `lemmas(normalize(text))`. None when some form
    has a word no run stands for (digits only, an expanded contraction)."""
    out = []
    for form in forms:
        words = [w for w in form.split() if w not in _EXPANDED]
        need = []
        for word in words:
            if word.isdigit():  # "3": the raw text may spell it ("three", "third")
                spelled = [
                    w for w, d in (*_NUMBER_WORDS.items(), *_ORDINAL_WORDS.items()) if d == word
                ]
                need.append(tuple(sorted({word, *spelled})))
                continue
            if not re.search("[a-z]", word) or not word.replace("-", "").isalnum():
                return None
            need.append(tuple(sorted(_runs_of(word))))
        if not need:
            return None
        out.append(tuple(need))
    return tuple(dict.fromkeys(out))


def holds(key: str, needs: tuple[Need, ...]) -> bool:
    """Whether `raw_key` text `key` holds a run of every word of one of the forms."""
    return any(all(any(map(key.__contains__, alts)) for alts in need) for need in needs)
