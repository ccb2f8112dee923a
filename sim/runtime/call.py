"""One call of a runtime's summarizer through the floor gate, answered within its budget.

The gate accepts the callables runtimes already have, so this module is the adapter: which of
the two call shapes a callable has (`fn(text, budget_tokens)`, or with a `pinned` parameter),
which of the three reply shapes it returned (`str`, `(text, consumed_input_tokens)`, or an
object with `.text`, `.consumed_input_tokens` and optionally `.cut`), the budget closure check
on what it reports it consumed, and the harness's rule for output over budget: re-ask tighter
(sim's strategies do the same in strategies.base.summarize_fitting), never cut.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.errors import BudgetClosureViolation, BudgetInfeasible, CompactionFailure
from sim.runtime.reference import ReferenceLoadError
from sim.tokens import Tokenizer
from sim.types import Fact

Summarize = Callable[..., Any]
MAX_BUDGET_RETRIES = 2
"""Tighter re-asks after an over-budget output, before failing loudly (as in the harness)."""


def pin_block(facts: Sequence[Fact]) -> str:
    """The pinned facts as the level's first lines, verbatim and unlabelled."""
    return "".join(f.text.strip() + "\n" for f in facts)


def accepts_pinned(fn: Summarize) -> bool:
    """A callable that can be told which facts to keep: a `pinned` parameter or `**kwargs`."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "pinned" or p.kind is p.VAR_KEYWORD for p in params)


def read_reply(level: str, value: object) -> tuple[str, int | None, bool]:
    """(text, consumed or None, cut) from whichever shape the callable returned."""
    if isinstance(value, str):
        return value, None, False
    if isinstance(value, tuple) and len(value) == 2:
        text, consumed = value
    else:
        text = getattr(value, "text", None)
        consumed = getattr(value, "consumed_input_tokens", None)
    if isinstance(text, str) and isinstance(consumed, int) and not isinstance(consumed, bool):
        return text, consumed, bool(getattr(value, "cut", False))
    raise TypeError(
        f"{level}: summarize returned {type(value).__name__}; expected str, "
        "(text, consumed_input_tokens) or an object with .text and .consumed_input_tokens"
    )


def read_any_reply(ref: str, value: object) -> tuple[str, int | None, bool]:
    """(text, consumed or None, cut) from a harness-side callable named by reference, which
    need not report consumption; any other shape is bad input that stops the run."""
    if isinstance(value, str):
        return value, None, False
    if isinstance(value, tuple) and len(value) == 2:
        text, consumed = value
        cut: object = False
    else:
        text = getattr(value, "text", None)
        consumed = getattr(value, "consumed_input_tokens", None)
        cut = getattr(value, "cut", False)
    counted = consumed is None or (isinstance(consumed, int) and not isinstance(consumed, bool))
    if isinstance(text, str) and counted:
        return text, consumed, bool(cut)
    raise ReferenceLoadError(
        f"{ref!r} returned {type(value).__name__}; expected str, "
        "(text, consumed_input_tokens) or an object with .text"
    )


@dataclass(frozen=True, slots=True)
class Answer:
    """A level's text (the gate's pin block, then the reply) and what producing it cost."""

    text: str
    reply: str
    consumed: int | None
    calls: int
    budget_retries: int
    pin_tokens: int


def call_fitting(
    fn: Summarize,
    *,
    level: str,
    text: str,
    budget: int,
    counter: Tokenizer,
    pins: tuple[Fact, ...] = (),
    inline: Sequence[Fact] = (),
) -> Answer:
    """The pin block of `inline` plus `fn`'s reply for the budget left; a pin-aware `fn` is
    also given `pins`. Pins that leave no room fail loudly, as does output still over budget
    after the tighter re-asks."""
    block = pin_block(inline)
    cost = counter.count(block)
    room = budget - cost
    if room < 1:
        raise BudgetInfeasible(
            level, f"pinned facts need {cost} tokens of budget {budget}; refusing to truncate"
        )
    aware = accepts_pinned(fn)
    declared = counter.count(text)
    ask, retries = room, 0
    while True:
        value = fn(text, ask, pinned=pins) if aware else fn(text, ask)
        reply, consumed, cut = read_reply(level, value)
        if consumed is not None and consumed != declared:
            raise BudgetClosureViolation(level, consumed, declared)
        out = counter.count(block + reply)
        if out <= budget and not cut:
            return Answer(block + reply, reply, consumed, retries + 1, retries, cost)
        if retries >= MAX_BUDGET_RETRIES:
            why = "cut at the backend's output cap" if cut else f"> budget {budget}"
            raise CompactionFailure(
                level,
                f"output {out} tokens ({why}) after {retries} tighter re-asks; "
                "refusing to truncate",
            )
        retries += 1
        ask = max(1, int(ask * min(1.0, room / max(out - cost, 1)) * 0.9))
