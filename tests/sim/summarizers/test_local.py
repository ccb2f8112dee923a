"""The in-process transformers backend. Fast tests check the refusals (no extra installed,
pickle weights, a missing path); slow ones load a tiny random Llama built in the test (torch
and transformers are imported once per session) and run a scenario through the cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.errors import UserError
from sim.runs.records import trial_row
from sim.runs.scenario import Scenario, parse_scenario
from sim.runs.trial import run_scenario_trial
from sim.summarizers import registry
from sim.summarizers.backend import GenParams
from sim.summarizers.http import BackendError
from sim.summarizers.local import HfChatModel, LocalSettings, load_local


def test_missing_extra_names_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "model.safetensors").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "torch", None)
    model = HfChatModel(LocalSettings(str(tmp_path)))  # files only: no torch needed yet
    assert model.identity()["model"] == tmp_path.name
    with pytest.raises(UserError, match=r"install with: pip install 'compaction-sim\[hf\]'"):
        model.complete("hi", GenParams(max_tokens=4), np.random.default_rng(0))


def test_pickle_weights_are_refused(tmp_path: Path) -> None:
    (tmp_path / "pytorch_model.bin").write_bytes(b"\x80\x04")
    with pytest.raises(UserError, match=r"no \.safetensors weights \(found pytorch_model\.bin"):
        HfChatModel(LocalSettings(str(tmp_path)))


def test_missing_path_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"neither a model folder nor a \.gguf file"):
        HfChatModel(LocalSettings(str(tmp_path / "nope")))


# --- slow: a real (tiny) model ------------------------------------------------------------
@pytest.mark.slow
def test_greedy_generation_is_deterministic_and_reports_its_cap(
    tiny_models: dict[str, Path],
) -> None:
    model = load_local(LocalSettings(str(tiny_models["rambling"]), threads=1))
    assert load_local(LocalSettings(str(tiny_models["rambling"]), threads=1)) is model
    params = GenParams(max_tokens=24, seed=5)
    first = model.complete(
        "Summarize: do not rotate the credential.", params, np.random.default_rng(0)
    )
    again = model.complete(
        "Summarize: do not rotate the credential.", params, np.random.default_rng(1)
    )
    assert first == again
    assert first.finish_reason == "length" and first.completion_tokens == 24
    assert first.prompt_tokens and first.prompt_tokens > 5
    assert model.chat and len(model.identity()["revision"]) == 16
    # the tokenizer.json counter (no torch) counts like the transformers tokenizer
    counter = model.counter()
    for text in ("Do not rotate the credential after step 4.\n", "tool: exit code 0", ""):
        assert counter.count(text) == len(model.tokenizer.encode(text, add_special_tokens=False))
    quiet = load_local(LocalSettings(str(tiny_models["quiet"]), threads=1))
    stopped = quiet.complete("Summarize: hi", params, np.random.default_rng(0))
    assert (stopped.text, stopped.finish_reason) == ("", "stop")


@pytest.mark.slow
def test_context_overflow_is_refused_not_truncated(tiny_models: dict[str, Path]) -> None:
    model = load_local(LocalSettings(str(tiny_models["quiet"]), context_tokens=256, threads=1))
    with pytest.raises(BackendError, match="refusing to truncate the input"):
        model.complete("word " * 400, GenParams(max_tokens=16), np.random.default_rng(0))


def _scenario(model_path: Path, cache: Path, mode: str = "read-write") -> Scenario:
    data: dict[str, Any] = {
        "name": "tiny_local",
        "seed": 3,
        "trials": 2,
        "tokenizer": "model",
        "strategies": [
            {"name": "budget_closed", "instruction": "file:prompts/structured.txt"},
            "floor_gated",
            "budget_open",
        ],
        "history": {"target_tokens": 400, "near_misses": 0},
        "constraints": {"count": 1},
        "ladder": [
            {"name": "L1", "budget_tokens": 120, "group_size": 4},
            {"name": "L2", "budget_tokens": 40, "group_size": 0},
        ],
        "summarizer": {
            "name": "local",
            "model_path": str(model_path),
            "threads": 1,
            "cache": str(cache),
            "cache_mode": mode,
        },
    }
    repo = Path(__file__).resolve().parents[3]
    return parse_scenario(data, repo / "scenarios" / "tiny_local.toml")


def _rows(sc: Scenario) -> str:
    out = [trial_row(r, i) for i in range(sc.trials) for r in run_scenario_trial(sc, i)]
    return json.dumps(out, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["quiet", "rambling"])
def test_local_scenario_replays_byte_identical_with_zero_calls(
    tiny_models: dict[str, Path], tmp_path: Path, kind: str
) -> None:
    cache = tmp_path / "cache.sqlite"
    registry.reset_usage()
    first = _rows(_scenario(tiny_models[kind], cache))
    recorded = registry.usage()
    assert recorded["model_calls"] > 0
    registry.reset_usage()
    again = _rows(_scenario(tiny_models[kind], cache, "read-only"))
    assert again == first
    assert registry.usage()["model_calls"] == 0
    rows = json.loads(first)
    if kind == "rambling":
        # never stops by itself: every output is cut at max_tokens, re-asked, then refused
        assert recorded["cut_at_max_tokens"] == recorded["calls"]
        closed = [r for r in rows if r["strategy"] != "budget_open"]
        assert all(r["aborted_at"] == "L1" for r in closed)
        assert all("refusing to truncate" in r["failure"] for r in closed)
        # budget-open keeps the overflow; the level's budget check reports it
        opened = [r for r in rows if r["strategy"] == "budget_open"]
        assert opened and all(r["aborted_at"] is None for r in opened)
        assert all(not r["levels"][0]["budget_ok"] for r in opened)
    else:
        # empty summaries: the facts are gone, silently for budget_closed, loudly when gated
        by = {r["strategy"]: r for r in rows if r["trial"] == 0}
        assert by["budget_closed(instruction='file:prompts/structured.txt')"]["silent"]
        assert by["floor_gated"]["loud"] and not by["floor_gated"]["silent"]
