"""Your own model call as the summarizer: `[summarizer] name = "callable"`, `callable =
"pkg.mod:fn"` (or `compsim run --summarizer pkg.mod:fn`), so the built-in strategies
(`budget_closed`, `floor_gated`, ...) drive it through the ladder.

`fn(text, budget_tokens)` is called with the text to summarize and the call's budget, and also
with `instruction=`, `pinned=` (the `Fact`s to keep) and `level=` for each of those it names as
a parameter (or all of them, with `**kwargs`). It returns a `str`, a `(text,
consumed_input_tokens)` pair, or an object with `.text` (optionally `.consumed_input_tokens` and
`.cut`). A reply that reports no consumption is taken to have read all of its input.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from sim.runtime.call import read_any_reply
from sim.runtime.reference import load_callable
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.tokens import MemoCounter

OPTIONAL = ("instruction", "pinned", "level")
DEFAULT_WINDOW = 1 << 20
"""The input a callable is assumed to take in one call unless `context_tokens` says less."""


def _keywords(fn: Callable[..., Any]) -> tuple[str, ...]:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return ()
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return OPTIONAL
    return tuple(k for k in OPTIONAL if k in params)


class CallableSummarizer:
    """The `Summarizer` protocol over a plain function."""

    name = "callable"

    def __init__(self, reference: str, counter: MemoCounter, max_input_tokens: int) -> None:
        self.reference = reference
        self.fn = load_callable(reference, 2, "summarizer fn(text, budget_tokens)")
        self.keywords = _keywords(self.fn)
        self.counter = counter
        self.max_input_tokens = max_input_tokens

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        given = {"instruction": request.instruction, "pinned": request.pinned}
        given["level"] = request.level
        kwargs = {k: given[k] for k in self.keywords}
        value = self.fn(request.text, request.budget_tokens, **kwargs)
        text, consumed, cut = read_any_reply(self.reference, value)
        if consumed is None:
            consumed = self.counter.count(request.text)
        return SummaryResult(text, consumed, cut)
