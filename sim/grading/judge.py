"""The judge grader's question: one forced choice per fact and level text, asked of a model.

The text grader reads a level's text by rules; the judge asks a model the same question a
careful reader answers (keeps the rule / keeps it weakened / reverses it / does not mention it),
so a run can carry both verdicts and a reader can audit where they differ. The option order is
fixed, so a replayed judgement hits its cache row.
"""

from __future__ import annotations

import re

from sim.types import Fact

CHOICES = {"A": "kept", "B": "degraded", "C": "inverted", "D": "dropped"}
JUDGE_MAX_TOKENS = 8
LAST_LINE = "Answer with the letter A, B, C or D only."


def judge_prompt(text: str, fact: Fact) -> str:
    return (
        "You check whether a summary that an agent will work from still carries a rule.\n\n"
        f"Summary:\n{text.strip() or '(empty)'}\n\n"
        f"Rule: {fact.text}\n\n"
        "Which is true of the summary?\n"
        "A) It keeps the rule: an agent reading only the summary would follow it.\n"
        "B) It keeps the rule only weakened: something needed to follow it is missing or "
        "softened.\n"
        "C) It reverses the rule: it allows or asks for what the rule forbids, or drops what "
        "it requires.\n"
        "D) It does not mention the rule.\n"
        f"{LAST_LINE}"
    )


_LEADING = re.compile(r"^\W*(?:answer\W*)?([ABCDabcd])(?:\W|$)")
_ANYWHERE = re.compile(r"\b([ABCD])\b")


def parse_judge(reply: str) -> str | None:
    """The label a reply names, or None when it names no option."""
    m = _LEADING.match(reply.strip()) or _ANYWHERE.search(reply.strip()[:40])
    return CHOICES[m.group(1).upper()] if m else None
