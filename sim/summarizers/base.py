"""The summarizer protocol every backend implements: text in, text out.

A backend also reports how many input tokens it actually consumed, which is what the budget
closure check compares with the declared input length (a backend that silently reads only the
head of an over-long input must say so here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sim.types import Fact


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    text: str
    budget_tokens: int
    instruction: str
    pinned: tuple[Fact, ...] = ()
    level: str = ""


@dataclass(frozen=True, slots=True)
class SummaryResult:
    text: str
    consumed_input_tokens: int
    cut: bool = False
    """The backend stopped at its output cap: the text is incomplete and counts as overflow."""


@runtime_checkable
class Summarizer(Protocol):
    """`max_input_tokens` is the context window: budget-closed strategies map-reduce past it."""

    name: str
    max_input_tokens: int

    def summarize(self, request: SummaryRequest) -> SummaryResult: ...
