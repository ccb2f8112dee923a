"""An in-process GGUF model through llama.cpp (llama-cpp-python, the `llama` extra).

On a CPU it decodes ~5x faster than transformers in fp32 on the same quantized file, which is
what makes a real-model prompt comparison fit on a laptop. Decoding is greedy (temperature 0,
top-k 1, no repeat penalty) with the model's own chat template and tokenizer, seeded anyway.

`model` names a packaged model (sim.summarizers.packaged, fetched once with its pinned sha256
into `build/models` or `model_path`'s folder); `model_path` alone is any `.gguf` file. For a
packaged model the cache identity is its pinned hash, so a replay from a cassette needs neither
the weights nor llama-cpp-python; a plain file is hashed once per process.

ggml's extra CPU buffer types (the AMX/AVX weight repack) crashed in decode on one VM built
with `GGML_NATIVE=ON`; they are off by default and `extra_bufts = true` turns them back on.
llama-cpp-python 0.3.36 has the switch in `llama_model_params` but not as a `Llama` argument,
so the default parameters are amended while the model loads (`_model_params`).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import UserError
from sim.summarizers.backend import Completion, GenParams
from sim.summarizers.http import BackendError
from sim.summarizers.local import weights_sha256
from sim.summarizers.packaged import PackagedModel, packaged_file, verified
from sim.tokens import MemoCounter

INSTALL_HINT = "install with: pip install 'compaction-sim[llama]' (compiles llama.cpp once)"
DEFAULT_CONTEXT = 4096
TEMPLATE_SLACK = 48
"""Tokens the chat template adds around a prompt, kept free when checking the context."""


@dataclass(frozen=True, slots=True)
class LlamaSettings:
    model_path: str | None = None
    model: str | None = None
    context_tokens: int | None = None
    threads: int | None = None
    extra_bufts: bool = False


def default_threads() -> int:
    return max(1, min(4, len(os.sched_getaffinity(0))))


def _import() -> Any:
    try:
        import llama_cpp  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise UserError(f"summarizer llama: {INSTALL_HINT}") from None
    return llama_cpp


class LlamaChatModel:
    """Identity from the settings (and the file's hash for a plain path); the library and the
    weights load on the first generation, so a replay never pays for them."""

    backend = "llama"

    def __init__(self, settings: LlamaSettings) -> None:
        self.settings = settings
        self.context_tokens = settings.context_tokens or DEFAULT_CONTEXT
        self.max_input_tokens = self.context_tokens * 3 // 5
        self._packaged: PackagedModel | None = None
        if settings.model:
            packaged, default = packaged_file(settings.model, _folder(settings.model_path))
            self.path = default
            self._name = packaged.file_name
            self._revision = packaged.sha256[:16]
            self._packaged = packaged
        elif settings.model_path:
            self.path = Path(settings.model_path).expanduser()
            if not (self.path.is_file() and self.path.suffix == ".gguf"):
                raise UserError(f"summarizer.model_path: {self.path} is not a .gguf file")
            st = self.path.stat()
            self._name = self.path.name
            self._revision = weights_sha256(self.path, st.st_size, st.st_mtime_ns)[:16]
        else:
            raise UserError("summarizer 'llama' needs model (a packaged model) or model_path")
        self._llm: Any = None
        self._counter: MemoCounter | None = None
        self.generated_tokens = 0

    def identity(self) -> dict[str, str]:
        return {"model": self._name, "revision": self._revision}

    def _file(self) -> Path:
        if self._packaged is not None and not verified(self.path, self._packaged):
            raise UserError(
                f"summarizer llama: {self.path} is missing or fails its pinned sha256; fetch it "
                f"with: python -m sim.summarizers.packaged {self._packaged.name} {self.path.parent}"
            )
        return self.path

    def _open(self, vocab_only: bool = False) -> Any:
        llama_cpp = _import()
        kwargs: dict[str, Any] = {
            "model_path": str(self._file()),
            "n_ctx": self.context_tokens,
            "n_threads": self.settings.threads or default_threads(),
            "n_threads_batch": self.settings.threads or default_threads(),
            "seed": 0,
            "verbose": False,
            "vocab_only": vocab_only,
        }
        try:
            with _model_params(llama_cpp, use_extra_bufts=self.settings.extra_bufts):
                return llama_cpp.Llama(**kwargs)
        except (ValueError, RuntimeError, OSError) as exc:
            raise UserError(f"summarizer.model_path: {self.path}: cannot load ({exc})") from None

    def _load(self) -> Any:
        if self._llm is None:
            self._llm = self._open()
        return self._llm

    def counter(self) -> MemoCounter:
        """The model's own tokenizer as a token counter (loads the vocabulary only)."""
        if self._counter is None:
            vocab = self._llm or self._open(vocab_only=True)

            def encode_len(s: str) -> int:
                return len(vocab.tokenize(s.encode("utf-8"), add_bos=False, special=False))

            self._counter = MemoCounter(f"llama:{self._name}", encode_len, additive_lines=False)
        return self._counter

    def complete(self, prompt: str, params: GenParams, rng: np.random.Generator) -> Completion:
        llm = self._load()
        n_in = len(llm.tokenize(prompt.encode("utf-8"), add_bos=False)) + TEMPLATE_SLACK
        if n_in + params.max_tokens > self.context_tokens:
            raise BackendError(
                f"{self._name}: prompt ~{n_in} + max_tokens {params.max_tokens} tokens exceed "
                f"the context of {self.context_tokens}; refusing to truncate the input"
            )
        try:
            out = llm.create_chat_completion(
                messages=[{"role": "user", "content": prompt}],
                max_tokens=params.max_tokens,
                temperature=0.0,
                top_k=1,
                top_p=1.0,
                min_p=0.0,
                repeat_penalty=1.0,
                seed=params.seed,
            )
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"{self._name}: generation failed ({exc})") from None
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        text = choice["message"]["content"] or ""
        finish = "length" if choice.get("finish_reason") == "length" else "stop"
        completion_tokens = usage.get("completion_tokens")
        self.generated_tokens += int(completion_tokens or 0)
        return Completion(text, finish, usage.get("prompt_tokens"), completion_tokens)


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def _model_params(llama_cpp: Any, **fields: Any) -> Iterator[None]:
    """`Llama(...)` builds its model parameters from `llama_model_default_params()`; set the
    fields it has no argument for (skipped where the installed version lacks them)."""
    low = llama_cpp.llama_cpp
    default = low.llama_model_default_params
    known = {name for name, _ in getattr(low.llama_model_params, "_fields_", ())}

    def amended() -> Any:
        params = default()
        for name, value in fields.items():
            if name in known:
                setattr(params, name, value)
        return params

    with _PARAMS_LOCK:
        low.llama_model_default_params = amended
        try:
            yield
        finally:
            low.llama_model_default_params = default


def _folder(model_path: str | None) -> Path | None:
    if not model_path:
        return None
    p = Path(model_path).expanduser()
    return p.parent if p.suffix == ".gguf" else p


_LOADED: dict[LlamaSettings, LlamaChatModel] = {}


def load_llama(settings: LlamaSettings) -> LlamaChatModel:
    """One model per process and settings: loading costs seconds."""
    model = _LOADED.get(settings)
    if model is None:
        model = _LOADED[settings] = LlamaChatModel(settings)
    return model
