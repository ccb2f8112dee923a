"""The llama.cpp backend: identity without weights (a cassette replays anywhere), settings
errors, the switch for ggml's extra buffer types, and (slow, when llama-cpp-python and the
packaged 1.5B are here) a real greedy decode through the harness."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from sim.errors import UserError
from sim.summarizers.backend import GenParams
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.llama import LlamaChatModel, LlamaSettings, _model_params
from sim.summarizers.packaged import DEFAULT_DIR, MODELS

PACKAGED = "qwen2.5-coder-1.5b"


def test_packaged_identity_needs_no_file(tmp_path: Path) -> None:
    m = LlamaChatModel(LlamaSettings(model=PACKAGED, model_path=str(tmp_path)))
    assert m.identity() == {
        "model": MODELS[PACKAGED].file_name,
        "revision": MODELS[PACKAGED].sha256[:16],
    }
    assert m.path == tmp_path / MODELS[PACKAGED].file_name  # absent: only a real call needs it


def test_a_plain_gguf_is_hashed(tmp_path: Path) -> None:
    f = tmp_path / "m.gguf"
    f.write_bytes(b"GGUF" + bytes(100))
    a = LlamaChatModel(LlamaSettings(model_path=str(f))).identity()
    f.write_bytes(b"GGUF" + bytes(101))
    b = LlamaChatModel(LlamaSettings(model_path=str(f))).identity()
    assert a["model"] == "m.gguf" and a["revision"] != b["revision"]


def test_bad_settings_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="unknown packaged model 'nope'"):
        LlamaChatModel(LlamaSettings(model="nope"))
    with pytest.raises(UserError, match=r"is not a \.gguf file"):
        LlamaChatModel(LlamaSettings(model_path=str(tmp_path / "x.bin")))
    with pytest.raises(ValueError, match="needs model"):
        SummarizerConfig(name="llama")


def test_missing_weights_say_how_to_fetch_them(tmp_path: Path) -> None:
    m = LlamaChatModel(LlamaSettings(model=PACKAGED, model_path=str(tmp_path)))
    with pytest.raises(
        UserError, match=r"python -m sim\.summarizers\.packaged qwen2\.5-coder-1\.5b"
    ):
        m._file()


def test_extra_bufts_switch_sets_known_fields_only() -> None:
    class Params:
        _fields_: ClassVar[list[tuple[str, None]]] = [
            ("use_extra_bufts", None),
            ("n_gpu_layers", None),
        ]

        def __init__(self) -> None:
            self.use_extra_bufts = True

    low = types.SimpleNamespace(llama_model_params=Params, llama_model_default_params=Params)
    lib: Any = types.SimpleNamespace(llama_cpp=low)
    with _model_params(lib, use_extra_bufts=False, not_a_field=1):
        made = low.llama_model_default_params()
        assert made.use_extra_bufts is False
        assert not hasattr(made, "not_a_field")
    assert low.llama_model_default_params is Params  # restored


def _weights() -> Path:
    return DEFAULT_DIR / MODELS[PACKAGED].file_name


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None,
    reason="llama-cpp-python is not installed (pip install 'compaction-sim[llama]')",
)
@pytest.mark.skipif(
    not _weights().exists(),
    reason=f"no {_weights()} (python -m sim.summarizers.packaged {PACKAGED} build/models)",
)
def test_a_real_greedy_decode() -> None:
    m = LlamaChatModel(LlamaSettings(model=PACKAGED, threads=1, context_tokens=1024))
    params = GenParams(max_tokens=12, temperature=0.0, seed=3)
    prompt = "Reply with the word READY and nothing else."
    first = m.complete(prompt, params, np.random.default_rng(0))
    again = m.complete(prompt, params, np.random.default_rng(1))
    assert "READY" in first.text.upper()
    assert first == again  # greedy: the same answer whatever the jitter stream
    assert first.prompt_tokens and first.completion_tokens
    assert m.counter().count("hello world") > 0
