"""Real models behind the Summarizer protocol: one adapter for every chat backend.

A backend (`ChatModel`: scripted, HTTP, in-process transformers) turns one rendered prompt into
one completion. `ModelSummarizer` does the rest, the same way for all of them: it renders the
instruction template (sim.prompts.templates), derives `max_tokens` from the level budget, looks the
call up in the record/replay cache, and normalizes the output into lines. The harness counts the
output with its own tokenizer; a completion the backend cut at `max_tokens` is marked `cut`, so the
strategy treats it as overflow (re-ask tighter, then fail loudly), never as a fitting summary.
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from sim.prompts.templates import render
from sim.summarizers.backend import ChatModel, Completion, GenParams
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.summarizers.cache import CallKey, CallStore
from sim.tokens import MemoCounter

MAX_TOKENS_HEADROOM = 1.5
"""`max_tokens` = budget x headroom + slack: room to overflow visibly, so a model that ignores
its budget is seen over budget (and re-asked) instead of being cut to fit."""
MAX_TOKENS_SLACK = 8
_STATS_LOCK = threading.Lock()


@dataclass(slots=True)
class CallStats:
    """What one summarizer did, summed by the caller into the run manifest."""

    calls: int = 0
    model_calls: int = 0
    cache_hits: int = 0
    cut: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


def lines_of(text: str) -> str:
    """Model output as stripped non-empty lines, each ended by a newline: the shape every
    level's text has, so pieces join cleanly and counts stay additive. Nothing is dropped."""
    return "".join(line.strip() + "\n" for line in text.splitlines() if line.strip())


def prompt_sha256(prompt: str) -> str:
    return hashlib.sha256(prompt.encode("utf-8")).hexdigest()


class ModelSummarizer:
    """One instance per trial and strategy: it holds the trial's model seed (the same for all
    strategies of a trial, so identical calls share a cache row) and counts repeats of a call."""

    def __init__(
        self,
        model: ChatModel,
        counter: MemoCounter,
        *,
        model_seed: int,
        rng: np.random.Generator,
        cache: CallStore | None = None,
        stats: CallStats | None = None,
    ) -> None:
        self.model = model
        self.name = model.backend
        self.max_input_tokens = model.max_input_tokens
        self.counter = counter
        self.model_seed = model_seed
        self.rng = rng
        self.cache = cache
        self.stats = stats if stats is not None else CallStats()
        self._repeats: dict[str, int] = {}

    def params_for(self, budget_tokens: int) -> GenParams:
        return GenParams(
            max_tokens=int(budget_tokens * MAX_TOKENS_HEADROOM) + MAX_TOKENS_SLACK,
            temperature=0.0,
            seed=self.model_seed,
        )

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        prompt = render(
            request.instruction,
            text=request.text,
            budget_tokens=request.budget_tokens,
            level=request.level,
            pinned=request.pinned,
        )
        completion = self._call(prompt, self.params_for(request.budget_tokens), request.level)
        return SummaryResult(
            lines_of(completion.text), self.counter.count(request.text), cut=completion.cut
        )

    def _single_flight(
        self, key: CallKey, prompt: str, params: GenParams
    ) -> tuple[Completion, bool]:
        return _single_flight_call(self, key, prompt, params)

    def ask(self, prompt: str, tag: str, max_tokens: int) -> str:
        """A free-form question (the behavioural probe), cached like a summary call."""
        params = GenParams(max_tokens=max_tokens, temperature=0.0, seed=self.model_seed)
        return self._call(prompt, params, tag).text

    def _call(self, prompt: str, params: GenParams, level: str) -> Completion:
        digest = prompt_sha256(prompt)
        repeat_id = f"{digest}:{params.max_tokens}:{level}"
        repeat = self._repeats.get(repeat_id, 0)
        self._repeats[repeat_id] = repeat + 1
        key = CallKey(
            backend=self.model.backend,
            identity=tuple(sorted(self.model.identity().items())),
            params=tuple(sorted((k, v) for k, v in asdict(params).items())),
            prompt_sha256=digest,
            level=level,
            trial_seed=self.model_seed,
            repeat=repeat,
        )
        completion = self.cache.get(key) if self.cache is not None else None
        called = completion is None
        if completion is None and self.cache is None:
            completion = self.model.complete(prompt, params, self.rng)
        elif completion is None:
            completion, called = self._single_flight(key, prompt, params)
        with _STATS_LOCK:  # the process-wide stats are shared by threads (sim.runs.threaded)
            self.stats.calls += 1
            self.stats.model_calls += called
            self.stats.cache_hits += not called
            self.stats.cut += completion.cut
            self.stats.prompt_tokens += completion.prompt_tokens or 0
            self.stats.completion_tokens += completion.completion_tokens or 0
        return completion


_IN_FLIGHT: dict[str, Future[Completion]] = {}
_FLIGHT_LOCK = threading.Lock()


def _single_flight_call(
    summarizer: ModelSummarizer, key: CallKey, prompt: str, params: GenParams
) -> tuple[Completion, bool]:
    """A cache miss is called once however many threads miss it at the same moment: run one
    after another, the second would have found the first's answer in the cache, and a server
    that is not deterministic at temperature 0 must not make threads differ from a serial run.
    Returns the answer and whether this thread made the call."""
    digest = key.digest
    with _FLIGHT_LOCK:
        pending = _IN_FLIGHT.get(digest)
        mine = pending is None
        if pending is None:
            pending = _IN_FLIGHT[digest] = Future()
    if not mine:
        return pending.result(), False
    try:
        cache = summarizer.cache
        found = cache.get(key) if cache is not None else None  # finished while we looked
        completion = found or summarizer.model.complete(prompt, params, summarizer.rng)
        if cache is not None and found is None:
            cache.put(key, completion)
    except BaseException as exc:
        pending.set_exception(exc)
        raise
    finally:
        with _FLIGHT_LOCK:
            _IN_FLIGHT.pop(digest, None)
    pending.set_result(completion)
    return completion, found is None


def describe(model: ChatModel) -> dict[str, Any]:
    """What the run manifest says about a backend."""
    return {"backend": model.backend, **model.identity()}
