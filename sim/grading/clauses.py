"""Where a rule's words stand: clauses inside a sentence, and sentences that belong together.

Polarity is a property of a clause, not of a sentence: in "we agreed not to drop the staging
table, but you may clear the logs now" the permission is about the logs. So a sentence is split
at semicolons and at the conjunctions that start a clause of its own, and a clause that only
refers back ("that holds until ...", "which ...") is joined to the one it refers to. Across
sentences, a rule split in two ("Dropping the staging table is forbidden. That holds until the
export is done.") and a header over its bullets ("### Never" / "- drop the staging table") are
read as one, and only then: a second sentence with a subject of its own stands alone.
"""

from __future__ import annotations

import re

from sim.grading import lexicon as lx
from sim.grading.plans import LATER_STEP

_OTHERS = r"(?:the rest|everything else|anything else|all other|any other|the other|others)\b"
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*"
    # "(the rest of the checklist is optional)": an aside about the other things
    r"|\s*\((?=" + _OTHERS + r")"
    # ", and can have its auto-remediation mode enabled": a permission of its own after the
    # subject's other duties, whose modality is not theirs
    r"|,\s*(?=(?:but|and|so|yet)\s+(?:can|could|may|might)\s)"
    r"|,\s*(?=(?:but|and|so|yet|whereas|although|though|however|meanwhile|also)\b"
    # "the barley accessions, however, can be thawed": set off inside one clause, whose
    # subject stands before it
    r"(?!,?\s*(?:can|could|may|might|must|should|shall|will|would|is|are|was|were|has|have|"
    r"had|needs?|stays?|remains?|gets?)\b))"
    # ", while X can ...": a contrast, not a time ("while step 3 runs")
    r"|,\s*(?=while\s[^,;.]*?\b(?:can|may|allowed|fine|free)\b)"
    # (never the "but" of "anything but 40 tonnes": an exception, whatever follows it)
    r"|(?<!anything)(?<!nothing)(?<!everything)(?<!anyone)(?<!anybody)(?<!anywhere)"
    r"\s+(?=(?:but|however|although|though|whereas|meanwhile)\s)"
    # "(1) the buyer confirms, (2) publish it": an inline step is a clause of its own
    # (sim.grading.plans reads their order)
    r"|[,;]?\s+(?=" + LATER_STEP + ")",
    re.IGNORECASE,
)
_REFERS_BACK = re.compile(
    r"^(?:and\s+|but\s+)?"
    # "but it's acceptable to strip the lagging ...": an "it" that stands for what follows
    r"(?!it(?:'s|\s+is|\s+was|\s+will\s+be)\s+(?:[\w-]+\s+){0,2}?(?:to|for)\s)"
    r"(?:that|this|it|which|these|those|the same|same|such|"
    r"this rule|that rule|the rule|the restriction|the requirement)\b",
    re.IGNORECASE,
)
# A sentence with no subject of its own that only finishes the previous one.
_CONTINUES = re.compile(
    r"^(?:that|this|it|its|they|their|these|those|the same|same|such|the latter)\b"
    r"|^(?:until|till|unless|not (?:before|until|unless)"
    r"|(?:but |and )?only (?:after|once|if|when|until|before)|at least until|even if|even when)\b",
    re.IGNORECASE,
)
"""A sentence that opens with a pronoun or a bare condition finishes the one before: "The
refund batch is built. It stays unsent until the user says yes." ("And only delete the backups
after a yes." opens with an order of its own: it finishes nothing.)"""
# "From this point on ..." after "Step 4 is done.": the step is the condition
_NOW = re.compile(
    r"\b(?:from (?:now|this point|here|then) on|from now|henceforth|going forward|from here)\b",
    re.IGNORECASE,
)
_STEP_DONE = re.compile(
    r"\bstep \d+\b[^.;]*\b(?:done|finished|complete|completed|over|behind us|passed)\b"
    r"|\b(?:past|after|finished|completed|done with) step \d+\b",
    re.IGNORECASE,
)


# "Do not file it; waiting on Delgado's confirmation.": a short gate with no subject or act of
# its own is the condition of the clause before its semicolon
_GATE_ONLY = re.compile(
    r"^(?:(?:and\s+|but\s+)?(?:still\s+)?(?:waiting|pending|awaiting)\b(?:\s+(?:on|for))?)"
    r"(?:\s+[^\s,;]+){1,6}[.!?]?$",
    re.IGNORECASE,
)


# "Truck 27 dispatched; Gunnar to confirm when he gets in.": a yes still to come, after a
# semicolon, finishes the report before it (a summary's note of an act done ahead of its gate);
# so does its giver only to be told ("samples discarded; Tomasz to be informed on Monday")
_YES_TO_COME = re.compile(
    r"^(?:[A-Z][\w.-]*|the [a-z]+(?: [a-z]+)?)(?:'s)?\s+(?:will|to|is to|has yet to)\s+"
    r"(?:\w+\s+){0,2}?(?:confirm|approve|sign off|okay|ok|told|informed|notified|updated|briefed)\b"
    r"|^[A-Z][\w-]*'s\s+(?:approval|confirmation|sign-off|ok|okay|go-ahead)\s+"
    r"(?:to be|will be|is to be)\s+\w+",
)


def now_line(line: str) -> bool:
    """A line set "from now on": read with the line before, which may name the step."""
    return bool(_NOW.search(line))


_ONLY_AFTER_THAT = re.compile(
    r"^(?:but |and )?only (?:once|after|when) (?:that|this|it)\b", re.IGNORECASE
)


def continues_after(previous: str, sentence: str) -> bool:
    """`continues`, a sentence set "from now on" right after one that finished a step, or a
    short gate after a semicolon."""
    if _ONLY_AFTER_THAT.match(sentence):
        return False  # "Only once that is done do the calls get released": "that" stands for
        # the sentence before, which sim.grading.anaphora reads in (as "after that")
    if may_revise(sentence):
        return False  # "That has been replaced: ...", "That was last season's number - it's
        # 7% now": the later word on the rule, read on its own (sim.grading.grade.revised),
        # not as the rule's second half
    return (
        continues(sentence)
        or bool(_NOW.search(sentence) and _STEP_DONE.search(previous))
        or (
            previous.endswith(";")
            and bool(_GATE_ONLY.match(sentence) or _YES_TO_COME.match(sentence))
        )
    )


# "any port but 8443": a "but" that names an exception, not a clause of its own
_SHORT_EXCEPTION = re.compile(r"^but\s+\S+(?:\s+\S+){0,2}[.!?]?$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_HEADER = re.compile(r"^\s*(?:#{1,6}\s+\S.*|\*\*[^*]{1,60}\*\*:?|[A-Za-z][^.!?]{0,60}:)\s*$")


def clauses(sentence: str) -> list[str]:
    """A raw sentence's clauses; a clause that refers back is joined to the one before."""
    parts = [p for p in _CLAUSE_BREAK.split(sentence) if p and p.strip()]
    out: list[str] = []
    for part in parts:
        part = part.strip()
        if out and (
            _REFERS_BACK.match(part)
            or _SHORT_EXCEPTION.match(part)
            or _GATE_ONLY.match(part)
            or _YES_TO_COME.match(part)
        ):
            out[-1] = out[-1] + " " + part
        else:
            out.append(part)
    return out or [sentence]


def continues(sentence: str) -> bool:
    """Whether a sentence only finishes the one before it (no subject of its own)."""
    return bool(_CONTINUES.match(sentence.strip()))


def is_header(line: str) -> bool:
    return bool(_HEADER.match(line)) and not _BULLET.match(line)


def header_text(line: str) -> str:
    return line.strip().strip("#*: ").strip()


def bullet_body(line: str) -> str | None:
    m = _BULLET.match(line)
    return line[m.end() :] if m else None


_PRONOUN = re.compile(r"\b(?:it|its|that|this|these|those|they|them|him|her|his|their)\b")


def revising(raw: str) -> bool:
    """Whether a raw sentence (or a raw line, for LineGrader's mark) may revise the one
    before it: a pronoun and a revision cue (sim.grading.lexicon's REVISION_RE), an opening
    that takes it back (STRONG_REVISION_RE), or an exception made to it (EXCEPTION_RE)."""
    low = raw.lower()
    return (
        (
            _PRONOUN.search(low) is not None
            and any(not _DENIED.search(low, 0, m.start()) for m in lx.REVISION_RE.finditer(low))
        )
        or lx.STRONG_REVISION_RE.match(low.lstrip()) is not None
        or lx.makes_exception(low)
        or (
            ("revers" in low or "backward" in low or "wrong" in low or "step" in low)
            and _REVERSED.search(low) is not None
        )
    )


STRUCK = r"(?:struck|scrapped|dropped|removed|cut|deleted|skipped|skip|skipping|crossed out)"
"""The verbs that strike a step off a plan (raw, lower case)."""


# an order told reversed, or a step struck, with or without a pronoun: "the reverse works
# better - patch first", "that's backwards"
_REVERSED = re.compile(
    r"\b(?:the reverse|in reverse|reverse order|reversed order|backwards|the wrong way round"
    r"|the wrong order)\b"
    # a step struck or skipped by its name or number: "Luca struck step 0 this morning", "Skip
    # the validation step this release"
    r"|\b" + STRUCK + r" (?:the )?(?:step \d+\b|[\w-]+(?: [\w-]+)? step\b)"
)


# a revision's word denied by the words just before it: "that has not been lifted", "it
# cannot be waived", "nobody has waived it" keep the rule
_DENIED = re.compile(
    r"\b(?:not|never|nobody|no one|none|cannot|can't|won't|isn't|hasn't|wasn't|haven't|"
    r"hasn’t|isn’t)(?:\s+\S+){0,2}\s*$"
)


def may_revise(raw: str) -> bool:
    """`revising`, or a sentence that may give a pinned setting a new value (sim.grading.
    lexicon's VALUE_MOVED_RE, with a number in it): what a line is read apart from the one
    before for."""
    return (
        revising(raw)
        or lx.UPDATE_LABEL_RE.match(raw.lower()) is not None
        or (any(map(str.isdigit, raw)) and lx.value_moved(raw.lower()))
    )
