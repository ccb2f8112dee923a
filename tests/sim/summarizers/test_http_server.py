"""The HTTP backend against a real OpenAI-compatible server: `transformers serve` (the `serve`
extra) started on 127.0.0.1 by the test, serving the tiny random Llama. A scenario runs through
the cache, and the replay is byte-identical with zero model calls. Slow: the server imports
torch and transformers in its own process."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sim.runs.records import trial_row
from sim.runs.scenario import Scenario, parse_scenario
from sim.runs.trial import run_scenario_trial
from sim.summarizers import registry

REPO = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 180


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tiny_models: dict[str, Path]) -> Iterator[tuple[str, Path]]:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    cli = Path(sys.executable).parent / "transformers"
    exe = str(cli) if cli.exists() else shutil.which("transformers")
    if exe is None:
        pytest.skip("the transformers command is not installed")
    port = _free_port()
    model = tiny_models["rambling"]
    proc = subprocess.Popen(
        [exe, "serve", str(model), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("transformers serve did not come up")
            time.sleep(0.5)
        yield f"{base}/v1", model
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _scenario(base_url: str, model: Path, cache: Path, mode: str) -> Scenario:
    data: dict[str, Any] = {
        "name": "tiny_http",
        "seed": 4,
        "trials": 1,
        "strategies": ["budget_closed", "budget_open"],
        "history": {"target_tokens": 300, "near_misses": 0},
        "constraints": {"count": 1},
        "ladder": [
            {"name": "L1", "budget_tokens": 60, "group_size": 0},
            {"name": "L2", "budget_tokens": 24, "group_size": 0},
        ],
        "summarizer": {
            "name": "http",
            "base_url": base_url,
            "model": str(model),
            "max_retries": 1,
            "cache": str(cache),
            "cache_mode": mode,
        },
    }
    return parse_scenario(data, REPO / "scenarios" / "tiny_http.toml")


@pytest.mark.slow
def test_real_server_run_replays_byte_identical(server: tuple[str, Path], tmp_path: Path) -> None:
    base_url, model = server
    cache = tmp_path / "cache.sqlite"

    def rows(mode: str) -> str:
        sc = _scenario(base_url, model, cache, mode)
        return json.dumps([trial_row(r, 0) for r in run_scenario_trial(sc, 0)], sort_keys=True)

    registry.reset_usage()
    first = rows("read-write")
    recorded = registry.usage()
    assert recorded["model_calls"] > 0
    # the server reports its own token usage and that it cut the output at max_tokens
    assert recorded["backend_completion_tokens"] > 0
    assert recorded["cut_at_max_tokens"] > 0
    registry.reset_usage()
    assert rows("read-only") == first
    assert registry.usage()["model_calls"] == 0
