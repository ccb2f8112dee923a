"""An in-process model through Hugging Face transformers, for fully offline comparisons.

`model_path` is a model folder with safetensors weights, or a `.gguf` file (transformers
dequantizes it to fp32; needs the `gguf` and `accelerate` packages of the `hf` extra). Loading
refuses remote code (`trust_remote_code=False`), pickle weights (`.bin`) and the network
(`local_files_only=True`). Decoding is greedy with the model's own chat template (a plain prompt
when it has none), seeded anyway. The model is loaded once per process (sim.summarizers.registry
memoizes it); its tokenizer counts tokens when the scenario says `tokenizer = "model"`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import UserError
from sim.files import read_json
from sim.summarizers.backend import Completion, GenParams
from sim.summarizers.http import BackendError
from sim.tokens import MemoCounter

INSTALL_HINT = "install with: pip install 'compaction-sim[hf]'"
DEFAULT_CONTEXT = 8192


@dataclass(frozen=True, slots=True)
class LocalSettings:
    model_path: str
    context_tokens: int | None = None
    threads: int | None = None


@lru_cache(maxsize=16)
def weights_sha256(path: Path, size: int, mtime_ns: int) -> str:
    """The weights' hash (part of the cache key); memoized per file version."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_FOLDER_FILES = (
    "config.json",
    "generation_config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "chat_template.jinja",
)


def _weights(path: Path) -> tuple[Path, str | None, list[Path]]:
    """(folder to load from, gguf file name or None, files whose bytes decide the answers)."""
    if path.is_file() and path.suffix == ".gguf":
        return path.parent, path.name, [path]
    if path.is_dir():
        files = sorted(path.glob("*.safetensors"))
        if not files:
            pickled = sorted(p.name for p in path.glob("*.bin"))
            extra = f" (found {', '.join(pickled)}: pickle weights are refused)" if pickled else ""
            raise UserError(f"summarizer.model_path: {path} has no .safetensors weights{extra}")
        files += [path / n for n in _FOLDER_FILES if (path / n).exists()]
        odd = [f.name for f in files if not f.is_file()]  # a FIFO or device would never end
        if odd:
            raise UserError(f"summarizer.model_path: {path}: {odd[0]} is not a regular file")
        return path, None, files
    raise UserError(f"summarizer.model_path: {path} is neither a model folder nor a .gguf file")


def _import() -> tuple[Any, Any]:
    try:
        import torch  # type: ignore[import-not-found,unused-ignore]
        import transformers  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise UserError(f"summarizer local: {INSTALL_HINT}") from None
    return torch, transformers


def _window(folder: Path) -> int | None:
    try:
        data = read_json(folder / "config.json", "model config", UserError, 1 << 20)
    except UserError:
        return None
    value = data.get("max_position_embeddings") if isinstance(data, dict) else None
    return value if isinstance(value, int) and value > 0 else None


class HfChatModel:
    """Identity, context window and (for folders) the tokenizer come from the files alone;
    torch and the weights load on the first generation, so a replay from the cache never
    pays for them."""

    backend = "hf"

    def __init__(self, settings: LocalSettings) -> None:
        self.settings = settings
        self.path = Path(settings.model_path).expanduser()
        self._folder, self._gguf, files = _weights(self.path)
        window = None if self._gguf else _window(self._folder)
        self.context_tokens = min(settings.context_tokens or DEFAULT_CONTEXT, window or 1 << 30)
        self.max_input_tokens = self.context_tokens * 3 // 5
        self._name = self.path.name
        self._revision = hashlib.sha256(
            "+".join(
                weights_sha256(f, f.stat().st_size, f.stat().st_mtime_ns) for f in files
            ).encode()
        ).hexdigest()[:16]
        self.generated_tokens = 0
        self.loaded = False
        self._counter: MemoCounter | None = None
        self.tokenizer: Any = None

    def identity(self) -> dict[str, str]:
        return {"model": self._name, "revision": self._revision}

    def _kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"trust_remote_code": False, "local_files_only": True}
        if self._gguf:
            kwargs["gguf_file"] = self._gguf
        return kwargs

    def _load(self) -> None:
        if self.loaded:
            return
        torch, transformers = _import()
        self._torch = torch
        # one thread per process unless told otherwise: sweeps parallelize with worker
        # processes, and two OpenMP threads per worker on a busy 2-core machine ran 7x slower
        torch.set_num_threads(self.settings.threads or 1)
        kwargs = self._kwargs()
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(str(self._folder), **kwargs)
            model_kwargs = dict(kwargs, dtype=torch.float32)
            if not self._gguf:
                model_kwargs["use_safetensors"] = True
            self.model = transformers.AutoModelForCausalLM.from_pretrained(
                str(self._folder), **model_kwargs
            ).eval()
        except (OSError, ValueError) as exc:
            raise UserError(f"summarizer.model_path: {self.path}: cannot load ({exc})") from None
        window = getattr(self.model.config, "max_position_embeddings", None)
        if window:
            self.context_tokens = min(self.context_tokens, int(window))
        self.chat = bool(getattr(self.tokenizer, "chat_template", None))
        eos = getattr(self.model.generation_config, "eos_token_id", None)
        ids = eos if isinstance(eos, list) else [eos]
        self._eos = {int(i) for i in [*ids, self.tokenizer.eos_token_id] if i is not None}
        pad = self.tokenizer.pad_token_id
        self._pad = pad if pad is not None else min(self._eos, default=0)
        self.loaded = True

    def counter(self) -> MemoCounter:
        """The model's own tokenizer as a token counter (one memo per process): straight from
        tokenizer.json when the folder has one (no torch), else through transformers."""
        if self._counter is None:
            encode_len = self._tokenizer_json() or self._hf_encode_len()
            self._counter = MemoCounter(f"hf:{self._name}", encode_len, additive_lines=False)
        return self._counter

    def _tokenizer_json(self) -> Callable[[str], int] | None:
        path = self._folder / "tokenizer.json"
        if self._gguf or not path.exists():
            return None
        try:
            from tokenizers import Tokenizer  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return None
        tok = Tokenizer.from_file(str(path))
        return lambda s: len(tok.encode(s, add_special_tokens=False).ids)

    def _hf_encode_len(self) -> Callable[[str], int]:
        if self.tokenizer is None:
            _, transformers = _import()
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                str(self._folder), **self._kwargs()
            )
        tok = self.tokenizer
        return lambda s: len(tok.encode(s, add_special_tokens=False))

    def _encode(self, prompt: str) -> Any:
        if self.chat:
            return self.tokenizer.apply_chat_template(
                [{"role": "user", "content": prompt}],
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            )
        return self.tokenizer(prompt, return_tensors="pt")

    def complete(self, prompt: str, params: GenParams, rng: np.random.Generator) -> Completion:
        self._load()
        torch = self._torch
        enc = self._encode(prompt)
        n_in = int(enc["input_ids"].shape[1])
        if n_in + params.max_tokens > self.context_tokens:
            raise BackendError(
                f"{self._name}: prompt {n_in} + max_tokens {params.max_tokens} tokens exceed "
                f"the context of {self.context_tokens}; refusing to truncate the input"
            )
        torch.manual_seed(params.seed)
        with torch.no_grad():
            out = self.model.generate(
                **enc,
                max_new_tokens=params.max_tokens,
                do_sample=False,
                pad_token_id=self._pad,
            )
        new = out[0, n_in:].tolist()
        stopped = bool(new) and new[-1] in self._eos
        finish = "length" if len(new) >= params.max_tokens and not stopped else "stop"
        self.generated_tokens += len(new)
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        return Completion(text, finish, n_in, len(new))


_LOADED: dict[LocalSettings, HfChatModel] = {}


def load_local(settings: LocalSettings) -> HfChatModel:
    """One model per process and settings: loading costs seconds to minutes."""
    model = _LOADED.get(settings)
    if model is None:
        model = _LOADED[settings] = HfChatModel(settings)
    return model
