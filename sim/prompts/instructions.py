"""Summarizer instructions and the note's decision boundary: compression vs re-ranking.

"If the summarizer prompt contains any instruction of the form 'prioritize', 'focus on', or
'summarize for X', the level is re-ranking and must be gated by an explicit floor check."
The same classifier drives the simulated summarizer's mode and `compsim lint-prompt`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache


class Mode(StrEnum):
    COMPRESS = "compress"
    RERANK = "rerank"


# Each pattern is a re-ranking phrase and its close variants; "focus" alone, or "summarize
# the following" without a purpose, is not re-ranking.
_RERANK = (
    ("prioritize", re.compile(r"\b(?:de-?)?prioriti[sz](?:e|es|ed|ing)\b|\bpriority to\b", re.I)),
    (
        "focus on",
        re.compile(
            r"\b(?:focus(?:es|ed|ing)?|concentrat(?:e|es|ed|ing))\s+(?:\w+\s+){0,2}?on\b", re.I
        ),
    ),
    (
        "summarize for",
        re.compile(
            r"\bsummar(?:i[sz]e|y)\b[^.\n]{0,40}?\bfor\s+(?!at most\b|up to\b)"
            r"(?:the\s+)?(?:task|continuity|next|downstream|planning|the user"
            r"|a reader|the agent|what|relevance|\w+ing\b)",
            re.I,
        ),
    ),
    ("most important", re.compile(r"\b(?:most|least)\s+(?:important|relevant|salient)\b", re.I)),
    (
        "keep only what matters",
        re.compile(
            r"\bonly\s+(?:keep|include|retain)\b[^.\n]{0,30}"
            r"\b(?:relevant|important|matters|useful)\b",
            re.I,
        ),
    ),
    ("emphasize", re.compile(r"\b(?:emphasi[sz](?:e|es|ing)|highlight(?:s|ing)?)\b", re.I)),
    (
        "by importance",
        re.compile(
            r"\b(?:by|in order of)\s+(?:importance|relevance|salience|priority)\b"
            r"|\bmatters?\s+most\b",
            re.I,
        ),
    ),
    (
        "relevant to",
        re.compile(
            r"\b(?:relevant|useful)\s+(?:to|for)\s+(?:the\s+)?"
            r"(?:task|goal|next|current|continuing)\b",
            re.I,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class Classification:
    mode: Mode
    phrase: str = ""
    line_no: int = 0
    line: str = ""

    @property
    def why(self) -> str:
        if self.mode is Mode.COMPRESS:
            return "no re-ranking phrase"
        return f"line {self.line_no}: {self.phrase!r} in {self.line.strip()!r}"


def _matches(prompt: str) -> Iterator[Classification]:
    for no, line in enumerate(prompt.splitlines() or [prompt], start=1):
        for phrase, pattern in _RERANK:
            if pattern.search(line):
                yield Classification(Mode.RERANK, phrase, no, line)


def matches(prompt: str) -> list[Classification]:
    """Every re-ranking phrase of a prompt, line by line (lint shows them all)."""
    return list(_matches(prompt))


@lru_cache(maxsize=1024)
def classify(prompt: str) -> Classification:
    """Re-ranking when any line holds a re-ranking phrase; the first match is the reason.
    Memoized: a sweep classifies the same few instructions on every call."""
    return next(_matches(prompt), Classification(Mode.COMPRESS))


PRESETS: dict[str, str] = {
    "compress": (
        "Compress the log below to at most $budget_tokens tokens. Keep every rule, decision "
        "and open task; shorten the wording instead of leaving things out.\n\n$input"
    ),
    "continuity": "Summarize for task continuity in at most $budget_tokens tokens.\n\n$input",
}


def resolve(instruction: str) -> str:
    """A preset name or a literal prompt."""
    return PRESETS.get(instruction, instruction)
