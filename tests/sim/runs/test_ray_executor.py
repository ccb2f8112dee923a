"""The Ray executor runs the same trial units as the local pool and the run store ends with
byte-identical results; ordering and resume stay the driver's business."""

from __future__ import annotations

import builtins
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sim.errors import UserError
from sim.runs.grid import load_grid
from sim.runs.runner import execute, finish, open_run

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "tiny.toml"


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "ray", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_ray)
    from sim.runs.ray_executor import RayExecutor

    with pytest.raises(UserError, match=r"pip install 'compaction-sim\[ray\]'"):
        RayExecutor({}, jobs=1)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """One local Ray for every test here (start and stop cost ~10 s on 2 cores)."""
    ray = pytest.importorskip("ray")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def _run(out: Path, factory: Any, overrides: list[str], jobs: int = 2) -> bytes:
    grid = load_grid(str(TINY), overrides)
    writer, grid = open_run(grid, out, resume=False, force=False, traces=1)
    with writer:
        execute(writer, grid, jobs, progress=False, executor_factory=factory)
    finish(writer, grid)
    return (out / "summary.json").read_bytes()


@pytest.mark.slow
def test_ray_summary_is_byte_identical_to_local(local_ray: Any, tmp_path: Path) -> None:
    from sim.runs.ray_executor import RayExecutor
    from sim.runs.threaded import make_executor

    overrides = ["trials=6"]
    local = _run(tmp_path / "local", make_executor, overrides)
    remote = _run(tmp_path / "ray", lambda w, j, u: RayExecutor(w, j), overrides)
    assert local == remote
    rows_local = sorted((tmp_path / "local" / "trials.jsonl").read_text().splitlines())
    rows_ray = sorted((tmp_path / "ray" / "trials.jsonl").read_text().splitlines())
    assert rows_local == rows_ray and len(rows_ray) > 0


@pytest.mark.slow
def test_ray_executor_leaves_a_cluster_it_did_not_start_running(
    local_ray: Any, tmp_path: Path
) -> None:
    from sim.runs.ray_executor import RayExecutor

    _run(tmp_path / "run", lambda w, j, u: RayExecutor(w, j), ["trials=1"])
    assert local_ray.is_initialized()


def test_ray_flags_need_the_ray_executor(capsys: pytest.CaptureFixture[str]) -> None:
    from sim.commands.main import main

    code = main(["run", str(TINY), "--ray-address", "auto", "--out", "/nonexistent/x"])
    assert code == 2
    assert "--ray-address and --ray-gpus-per-task need --executor ray" in capsys.readouterr().err


@pytest.mark.slow
def test_ray_workers_import_a_compactor_by_reference(local_ray: Any, tmp_path: Path) -> None:
    from sim.runs.ray_executor import RayExecutor
    from sim.runs.threaded import make_executor

    pids = tmp_path / "pids"
    mine = tmp_path / "mine.py"  # a file no process has imported yet; it names its own log
    mine.write_text(
        "import os\n"
        "def keep(text, budget_tokens):\n"
        f"    with open({str(pids)!r}, 'a') as fh:\n"
        "        fh.write(f'{os.getpid()}\\n')\n"
        "    return ''.join(ln + '\\n' for ln in text.splitlines()[:4])\n"
    )
    overrides = ["trials=4", f'strategies=[{{callable = "{mine}:keep", name = "mine"}}]']
    remote = _run(tmp_path / "ray", lambda w, j, u: RayExecutor(w, j), overrides)
    assert str(os.getpid()) not in pids.read_text().split()  # every call ran in a Ray worker
    rows = [json.loads(r) for r in (tmp_path / "ray" / "trials.jsonl").read_text().splitlines()]
    assert len(rows) == 4 * 4 and not any(r.get("error") for r in rows)
    assert _run(tmp_path / "local", make_executor, overrides) == remote
