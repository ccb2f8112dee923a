"""The harness's side of every summarizer call: retries for transient failures, and text that
can be stored whatever a backend sends back.

- A `TransientError` (an overloaded server, a dropped connection, a call that timed out) is
  retried up to `MAX_ATTEMPTS` calls in all, after a capped exponential backoff with seeded
  jitter: attempt k waits `min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**k) * U(0.5, 1)`. The retries
  are counted apart from floor and budget retries (`transient_retries` in every trial row).
  A call that keeps failing raises `SummarizerUnavailable`: the trial becomes an error row
  with the reason, and the run goes on.
- Unpaired surrogates (what a JSON `"\\udcff"` escape or undecodable bytes turn into) cannot
  be written as UTF-8: they are replaced by U+FFFD before anything grades or stores the text,
  so the grader sees what the run store keeps. Control characters are kept: they are what
  the model said, and JSON escapes them.

The sleep is injectable: tests record it, and a scenario with injected faults (simulated
failures) waits on a virtual clock that only adds up the seconds it would have slept.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import numpy as np

from sim.errors import SummarizerUnavailable, TransientError
from sim.summarizers.base import Summarizer, SummaryRequest, SummaryResult

MAX_ATTEMPTS = 4
"""Calls per request, the first included."""
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 8.0
_SURROGATE = re.compile("[\ud800-\udfff]")

Sleep = Callable[[float], None]


def backoff_s(attempt: int, rng: np.random.Generator) -> float:
    """Seconds to wait before retry `attempt` (0-based): capped, with jitter in [50%, 100%]."""
    return min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2.0**attempt) * (0.5 + 0.5 * float(rng.random()))


def storable(text: str) -> tuple[str, bool]:
    """`text` with unpaired surrogates replaced, and whether any were."""
    if text.isascii():  # a flag CPython keeps on the string: no scan
        return text, False
    fixed = _SURROGATE.sub("\ufffd", text)
    return fixed, fixed != text


class VirtualClock:
    """A sleep that does not sleep: it adds up the seconds (for simulated failures)."""

    def __init__(self) -> None:
        self.slept_s = 0.0

    def __call__(self, seconds: float) -> None:
        self.slept_s += seconds


class GuardedSummarizer:
    """Wraps any summarizer (one per trial and strategy) with the retries and the text check."""

    def __init__(
        self,
        inner: Summarizer,
        rng: np.random.Generator | Callable[[], np.random.Generator],
        sleep: Sleep = time.sleep,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.max_input_tokens = inner.max_input_tokens
        self._rng = rng
        self.sleep = sleep
        self.transient_retries = 0
        self.sanitized = 0

    @property
    def rng(self) -> np.random.Generator:
        """The backoff's jitter stream, made on the first retry when given as a function:
        seeding a generator costs ~25 us, for each strategy of every trial, and most runs
        never retry (the stream is the same whenever it is made)."""
        if not isinstance(self._rng, np.random.Generator):
            self._rng = self._rng()
        return self._rng

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        for attempt in range(MAX_ATTEMPTS):
            try:
                result = self.inner.summarize(request)
            except TransientError as exc:
                if attempt + 1 == MAX_ATTEMPTS:
                    raise SummarizerUnavailable(
                        f"{request.level}: summarizer call failed {MAX_ATTEMPTS} times; "
                        f"last: {type(exc).__name__}: {exc}"
                    ) from None
                self.transient_retries += 1
                self.sleep(backoff_s(attempt, self.rng))
                continue
            text, changed = storable(result.text)
            if not changed:
                return result
            self.sanitized += 1
            return SummaryResult(text, result.consumed_input_tokens, result.cut)
        raise AssertionError("unreachable")  # pragma: no cover

    @property
    def ask(self) -> Callable[[str, str, int], str] | None:
        """The inner model's free-form question (the behavioural probe), or None: the probe
        then uses its simulated stand-in."""
        inner: Callable[[str, str, int], str] | None = getattr(self.inner, "ask", None)
        if inner is None:
            return None

        def ask(prompt: str, tag: str, max_tokens: int) -> str:
            return storable(inner(prompt, tag, max_tokens))[0]

        return ask
