"""Summarizer selection from a scenario, and whole trials through real-model backends (the
scripted one and the HTTP stub) with the record/replay cache: a replay is byte-identical and
makes no model call, and an API key is never written anywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.errors import ScenarioError, UserError
from sim.runs.records import trial_row
from sim.runs.scenario import Scenario, parse_scenario
from sim.runs.trial import run_scenario_trial
from sim.summarizers import registry
from sim.summarizers.scripted import ScriptedModel
from tests.sim.summarizers.stub_server import Seen, Stub, ok

REPO = Path(__file__).resolve().parents[3]


def scenario(summarizer: dict[str, Any], **extra: Any) -> Scenario:
    data: dict[str, Any] = {
        "name": "tiny",
        "seed": 11,
        "trials": 2,
        "strategies": [
            "budget_closed",
            {"name": "re_ranking", "instruction": "file:prompts/continuity.txt"},
            {"name": "floor_gated", "instruction": "file:prompts/structured.txt"},
            "budget_open",
        ],
        "history": {"target_tokens": 700, "near_misses": 1},
        "constraints": {
            "count": 1,
            "planted": [
                {"class": "prohibition", "verb": "rotate", "object": "credential", "step": 4}
            ],
        },
        "ladder": [
            {"name": "L1", "budget_tokens": 300, "group_size": 3},
            {"name": "L2", "budget_tokens": 120, "group_size": 0},
        ],
        "summarizer": summarizer,
    }
    data.update(extra)
    return parse_scenario(data, REPO / "scenarios" / "tiny.toml")


def rows(sc: Scenario) -> str:
    out = [trial_row(r, i) for i in range(sc.trials) for r in run_scenario_trial(sc, i)]
    return json.dumps(out, sort_keys=True)


@pytest.mark.parametrize(
    ("summarizer", "message"),
    [
        ({"name": "gpt"}, "unknown summarizer 'gpt'; valid: "),
        ({"name": "http", "model": "m"}, "needs base_url and model"),
        ({"name": "local"}, "needs model_path"),
        (
            {"name": "http", "base_url": "http://x/v1", "model": "m", "api_key_env": "sk-abc123"},
            "NAME of an environment variable",
        ),
        ({"name": "scripted", "params": {"rank_noise": 0.1}}, "simulated-summarizer knobs"),
        ({"name": "scripted", "cache_mode": "sometimes"}, "cache_mode"),
        (
            {"name": "http", "base_url": "http://x/v1", "model": "m", "api_key": "sk-abc123"},
            "api_key is not accepted",
        ),
    ],
)
def test_bad_summarizer_tables(summarizer: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError, match=message) as err:
        scenario(summarizer)
    assert "sk-abc123" not in str(err.value)


def test_model_tokenizer_needs_a_local_model() -> None:
    sc = scenario({"name": "scripted"}, tokenizer="model")
    with pytest.raises(UserError, match="tokenizer = 'model' needs summarizer 'local'"):
        run_scenario_trial(sc, 0)


def test_simulated_is_the_default() -> None:
    assert scenario({}).summarizer.name == "simulated"
    assert {"simulated", "scripted", "http", "local"} <= set(registry.summarizer_names())


def test_scripted_run_replays_byte_identical_with_zero_calls(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache.sqlite")
    registry.reset_usage()
    first = rows(scenario({"name": "scripted", "cache": cache}))
    recorded = registry.usage()
    assert recorded["model_calls"] > 0
    assert recorded["cache_misses"] >= recorded["model_calls"]
    registry.reset_usage()
    again = rows(scenario({"name": "scripted", "cache": cache, "cache_mode": "read-only"}))
    replayed = registry.usage()
    assert again == first
    assert replayed["model_calls"] == 0
    assert replayed["cache_hits"] == recorded["calls"]
    assert replayed["cache_misses"] == 0


def test_prompt_files_reach_the_backend(tmp_path: Path) -> None:
    sc = scenario({"name": "scripted", "script": "echo", "context_tokens": 4096})
    run_scenario_trial(sc, 0)
    model = registry.backend_for(sc.summarizer)
    assert isinstance(model, ScriptedModel)
    assert any("Summarize for task continuity" in p for p in model.prompts)
    assert any("RULES: every rule or restriction" in p for p in model.prompts)


def _echo(seen: Seen) -> Any:
    """The stub as a model: the rule-like lines of the prompt, within max_tokens words."""
    prompt = seen.body["messages"][0]["content"]
    keep = [ln for ln in prompt.splitlines() if "not" in ln or "before" in ln]
    words = " ".join(keep).split()[: seen.body["max_tokens"] // 2]
    return ok(" ".join(words), "stop", len(prompt.split()), len(words))


def test_http_run_through_the_cache_never_writes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-live-SECRET-4f1d0c9e"
    monkeypatch.setenv("COMPSIM_STUB_KEY", secret)
    cache = tmp_path / "cache.sqlite"
    with Stub(default=_echo) as stub:
        table = {
            "name": "http",
            "base_url": stub.base_url,
            "model": "stub-model",
            "api_key_env": "COMPSIM_STUB_KEY",
            "cache": str(cache),
        }
        sc = scenario(table)
        first = rows(sc)
        calls = len(stub.seen)
        assert calls > 0
        assert all(s.headers["authorization"] == f"Bearer {secret}" for s in stub.seen)
        again = rows(scenario({**table, "cache_mode": "read-only"}))
        assert len(stub.seen) == calls  # the replay asked the server nothing
    assert again == first
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files
    for path in files:
        assert secret.encode() not in path.read_bytes(), path
    assert secret not in first
    assert secret not in json.dumps(sc.model_dump(mode="json"))
