"""Fault injection: a summarizer that misbehaves on purpose, with seeded probabilities, so a
sweep shows what the harness and the strategies do when a real backend fails.

A scenario turns it on with a `[summarizer.faults]` table beside any summarizer (the faults
wrap whatever `name` says: the simulated model, the scripted one, an HTTP endpoint):

    [summarizer.faults]
    error = 0.02      # raises a transient error (an HTTP 503, a dropped connection)
    timeout = 0.02    # hangs past its time limit (raised at once as CallTimeout: no sleeping)
    empty = 0.02      # returns no text
    overlong = 0.02   # returns far more than the budget (`overlong_factor` x budget)
    garbage = 0.01    # returns control characters and an unpaired surrogate around the text
    echo = 0.01       # returns its input unchanged

Each call draws once from the trial's own `faults` stream (rng_for(seed, trial, key:faults)),
so the same seed injects the same faults. What the harness does with each: transient errors
and timeouts are retried (sim.summarizers.retry) on a virtual clock, and a call that keeps
failing makes the trial an error row; over-budget text (overlong, echo) is re-asked tighter by
budget-closed strategies (`budget_retries`) and fails loudly when that does not help, never
cut; empty text is graded (every fact dropped); garbage is stored and graded as sent, with
unpaired surrogates replaced. A real hang never needs this simulation: the HTTP backend gives
every attempt a total deadline of `connect_timeout_s` + `read_timeout_s` and retries timeouts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.errors import CallTimeout, TransientError
from sim.summarizers.base import Summarizer, SummaryRequest, SummaryResult
from sim.tokens import MemoCounter

KINDS = ("error", "timeout", "empty", "overlong", "garbage", "echo")
GARBAGE_HEAD = "\x00\x1b[2J\u202e"
"""NUL, a terminal escape and a right-to-left override, put before the text."""
GARBAGE_TAIL = "\udcff\x07"
"""An unpaired surrogate (an undecodable byte) and a bell, put after it."""


class FaultConfig(BaseModel):
    """`[summarizer.faults]`: the chance, per call, of each fault (at most one per call)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    error: float = Field(0.0, ge=0.0, le=1.0, description="Raise a transient error.")
    timeout: float = Field(0.0, ge=0.0, le=1.0, description="Hang past the time limit.")
    empty: float = Field(0.0, ge=0.0, le=1.0, description="Return no text.")
    overlong: float = Field(0.0, ge=0.0, le=1.0, description="Return far more than the budget.")
    garbage: float = Field(0.0, ge=0.0, le=1.0, description="Control characters, bad Unicode.")
    echo: float = Field(0.0, ge=0.0, le=1.0, description="Return the input unchanged.")
    overlong_factor: float = Field(8.0, ge=1.5, le=1000.0, description="Overlong size / budget.")

    @model_validator(mode="after")
    def _at_most_one(self) -> FaultConfig:
        total = sum(getattr(self, k) for k in KINDS)
        if total > 1.0 + 1e-9:
            raise ValueError(f"the fault probabilities add up to {total:g} > 1")
        return self

    def pick(self, u: float) -> str | None:
        """The fault for a uniform draw `u` in [0, 1), or None."""
        edge = 0.0
        for kind in KINDS:
            edge += getattr(self, kind)
            if u < edge:
                return kind
        return None


class FaultySummarizer:
    """Wraps a summarizer; `injected` counts the faults of each kind it injected."""

    def __init__(
        self,
        inner: Summarizer,
        faults: FaultConfig,
        rng: np.random.Generator,
        counter: MemoCounter,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.max_input_tokens = inner.max_input_tokens
        self.faults = faults
        self.rng = rng
        self.counter = counter
        self.injected: Counter[str] = Counter()

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        kind = self.faults.pick(float(self.rng.random()))
        if kind is None:
            return self.inner.summarize(request)
        self.injected[kind] += 1
        consumed = self.counter.count(request.text)
        if kind == "error":
            raise TransientError(f"{request.level}: injected fault: HTTP 503 from the backend")
        if kind == "timeout":
            raise CallTimeout(f"{request.level}: injected fault: no answer within the time limit")
        if kind == "empty":
            return SummaryResult("", consumed)
        if kind == "echo":
            return SummaryResult(request.text, consumed)
        result = self.inner.summarize(request)
        if kind == "garbage":
            return SummaryResult(GARBAGE_HEAD + result.text + GARBAGE_TAIL, consumed, result.cut)
        return SummaryResult(self._overlong(result.text, request), consumed, result.cut)

    def _overlong(self, text: str, request: SummaryRequest) -> str:
        """The summary, then the input again and again: whole lines, far over the budget."""
        target = self.faults.overlong_factor * request.budget_tokens
        lines = [ln.strip() + "\n" for ln in request.text.splitlines() if ln.strip()]
        lines = lines or ["The summary goes on and on without saying anything new.\n"]
        out = [text]
        size = self.counter.count(text)
        while size < target:
            for line in lines:
                out.append(line)
                size += self.counter.count_line(line.strip())
                if size >= target:
                    break
        return "".join(out)

    @property
    def ask(self) -> Callable[[str, str, int], str] | None:
        """The inner model's probe question, unfaulted (faults are for summaries)."""
        inner: Callable[[str, str, int], str] | None = getattr(self.inner, "ask", None)
        return inner
