"""Many calls in flight from one process: the rows are byte-identical to a serial run's, the
requests in flight reach `max_concurrency` and never pass it, and the cache written by many
threads at once replays the run with zero calls."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from sim.runs.grid import load_grid
from sim.runs.runner import run_grid
from sim.runs.sweep import InProcessExecutor
from sim.runs.threaded import ThreadedExecutor, make_executor
from tests.sim.summarizers.stub_server import Reply, Seen, Stub, ok

REPO = Path(__file__).resolve().parents[3]
SCENARIO = REPO / "scenarios" / "prompt_comparison.toml"


def _reply(seen: Seen) -> Reply:
    """Deterministic in the prompt, with a delay that scrambles the order replies arrive in."""
    if seen.path.endswith("/models"):  # the fail-fast probe
        return Reply(200, {"object": "list", "data": [{"id": "stub"}]})
    prompt = seen.body["messages"][0]["content"]
    digest = hashlib.sha256(prompt.encode()).digest()
    rules = [ln for ln in prompt.splitlines() if ln.startswith(("Do not", "Never"))][:2]
    text = "\n".join(rules) or "Nothing to keep."
    return Reply(200, ok(text).body, delay_s=digest[0] / 255 * 0.03)


def _overrides(base_url: str, concurrency: int, cache: Path, mode: str = "read-write") -> list[str]:
    return [
        "trials=6",
        "history.target_tokens=700",
        "ladder=[{name='L1',budget_tokens=240,group_size=2},{name='L2',budget_tokens=60}]",
        f'summarizer={{name="http",base_url="{base_url}",model="stub",'
        f'max_concurrency={concurrency},max_retries=0,cache="{cache}",cache_mode="{mode}"}}',
    ]


def _run(tmp: Path, name: str, overrides: list[str]) -> Path:
    out = tmp / name
    run_grid(load_grid(str(SCENARIO), overrides), out, jobs=1, force=True, progress=False)
    return out


def test_many_in_flight_gives_the_serial_rows(tmp_path: Path) -> None:
    with Stub(default=_reply) as stub:
        serial = _run(tmp_path, "serial", _overrides(stub.base_url, 1, tmp_path / "a.sqlite"))
        assert stub.max_in_flight == 1
        assert stub.seen[0].path == "/v1/models"
        calls = len(stub.seen) - 1
        stub.max_in_flight = 0
        many = _run(tmp_path, "many", _overrides(stub.base_url, 16, tmp_path / "b.sqlite"))
        assert 1 < stub.max_in_flight <= 16
        assert len(stub.seen) == 2 * (calls + 1)
    assert (many / "trials.jsonl").read_bytes() == (serial / "trials.jsonl").read_bytes()
    assert (many / "summary.json").read_bytes() == (serial / "summary.json").read_bytes()
    rows = [
        sqlite3.connect(tmp_path / f"{x}.sqlite").execute("SELECT COUNT(*) FROM calls").fetchone()
        for x in "ab"
    ]
    assert rows[0] == rows[1] == (calls,)


def test_cache_written_by_threads_replays_with_zero_calls(tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    with Stub(default=_reply) as stub:
        first = _run(tmp_path, "first", _overrides(stub.base_url, 16, cache))
        made = len(stub.seen)
        again = _run(tmp_path, "again", _overrides(stub.base_url, 16, cache, "read-only"))
        assert len(stub.seen) == made  # not one more request (no probe either: a replay)
    assert (again / "trials.jsonl").read_bytes() == (first / "trials.jsonl").read_bytes()


def test_threads_only_for_http_with_room_in_flight() -> None:
    grid = load_grid(str(SCENARIO), [])
    workload = {c.id: c.scenario for c in grid.cells}
    assert isinstance(make_executor(workload, 1, 10), InProcessExecutor)  # simulated
    http = load_grid(
        str(SCENARIO), ['summarizer={name="http",base_url="http://127.0.0.1:9/v1",model="m"}']
    )
    chosen = make_executor({c.id: c.scenario for c in http.cells}, 1, 10)
    assert isinstance(chosen, ThreadedExecutor) and chosen.threads == 32
    chosen.close()
    one = load_grid(
        str(SCENARIO),
        ['summarizer={name="http",base_url="http://127.0.0.1:9/v1",model="m",max_concurrency=1}'],
    )
    assert isinstance(
        make_executor({c.id: c.scenario for c in one.cells}, 1, 10), InProcessExecutor
    )
