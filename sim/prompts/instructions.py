"""Summarizer instructions and the note's decision boundary: compression vs re-ranking.

"If the summarizer prompt contains any instruction of the form 'prioritize', 'focus on', or
'summarize for X', the level is re-ranking and must be gated by an explicit floor check."
The verdict is read from the prompt's features (sim.prompts.features: ranking, purpose or
recency cues, clause by clause); the same classifier drives the simulated summarizer's mode
and `compsim lint-prompt`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from sim.prompts.features import RERANKING_FEATURES, prompt_features


class Mode(StrEnum):
    COMPRESS = "compress"
    RERANK = "rerank"


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
    """The first re-ranking cue of each line (sim.prompts.features reads the clauses)."""
    lines: set[int] = set()
    for e in prompt_features(prompt).evidence:
        if e.feature in RERANKING_FEATURES and e.line_no not in lines:
            lines.add(e.line_no)
            yield Classification(Mode.RERANK, e.cue, e.line_no, e.line)


def matches(prompt: str) -> list[Classification]:
    """Every line of a prompt with a re-ranking cue, in order (lint shows them all)."""
    return sorted(_matches(prompt), key=lambda c: c.line_no)


@lru_cache(maxsize=1024)
def classify(prompt: str) -> Classification:
    """Re-ranking when any instruction line holds a re-ranking cue that is neither negated nor
    quoted; the first such line is the reason. Memoized: a sweep sends the same few prompts."""
    return next(iter(matches(prompt)), Classification(Mode.COMPRESS))


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
