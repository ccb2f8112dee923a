"""`compsim run | report | list | demo` end to end on the tiny sweep (tests/fixtures/tiny.toml)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from sim.commands.main import main
from sim.runs.results import MANIFEST, REPORT, SUMMARY_JSON, TRIALS, iter_jsonl, load_run
from tests.helpers import resume_run, start_long_run, wait_for_first_unit

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "tests" / "fixtures" / "tiny.toml")
ONE_CELL = ["-S", "ladder=small", "-S", "constraints.depths=[0.5]", "-S", "trials=2"]


def compsim(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--no-progress"] if args[0] in ("run", "demo") else list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_writes_a_run_and_prints_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    code, stdout, _ = compsim(
        capsys, "run", TINY, "-S", "trials=1", "--out", str(out), "--jobs", "1"
    )
    assert code == 0
    assert stdout.startswith(f"run: {out}\n")
    assert "depths=[0.8],ladder=tiny" in stdout and "floor_gated" in stdout  # a row per cell
    assert max(len(line) for line in stdout.splitlines()) <= 100
    assert f"compsim report {out}" in stdout
    summary = (out / SUMMARY_JSON).read_bytes()
    assert load_run(out).summary == json.loads(summary)

    code, _, err = compsim(capsys, "run", TINY, "-S", "trials=1", "--out", str(out))
    assert code == 2 and "already holds this run; use --resume" in err
    code, _, err = compsim(capsys, "run", TINY, "--out", str(out), "--seed", "9")
    assert code == 2 and "holds a different run" in err

    code, stdout, err = compsim(capsys, "run", "--resume", str(out), "--jobs", "1")
    assert code == 0 and "0 trials run" in err
    assert (out / SUMMARY_JSON).read_bytes() == summary

    code, _, _ = compsim(
        capsys, "run", TINY, "--out", str(out), "--force", "--seed", "3", "--trials", "1"
    )
    assert code == 0
    assert len(list(iter_jsonl(out / TRIALS))) == 4 * 3  # replaced: 1 trial x 4 cells x 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-S", "histroy.target_tokens=3"], "-S histroy.target_tokens=3: histroy: Extra inputs"),
        (["-S", "strategies=['nope']"], "unknown strategy 'nope'; valid: budget_closed, "),
        (["--jobs", "0"], "--jobs=0: must be >= 1"),
        (["--resume", "x", "--force"], "--resume and --force contradict each other"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    code, _, err = compsim(capsys, "run", TINY, "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.startswith("compsim: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r" / MANIFEST).exists()


def test_resume_without_a_scenario_rejects_overrides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = compsim(capsys, "run", "--resume", str(tmp_path), "-S", "trials=3")
    assert code == 2 and "need the SCENARIO when resuming" in err


def test_default_out_dir_is_named_after_the_scenario_and_spec(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, stdout, _ = compsim(capsys, "run", TINY, *ONE_CELL, "--jobs", "1")
    assert code == 0
    (run_dir,) = (tmp_path / "results" / "runs").iterdir()
    assert run_dir.name.startswith("tiny-") and len(run_dir.name) == len("tiny-") + 10
    assert f"run: results/runs/{run_dir.name}" in stdout


def test_a_run_with_error_rows_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sim.runs.sweep

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("lost")

    monkeypatch.setattr(sim.runs.sweep, "run_strategy", boom)
    code, stdout, err = compsim(
        capsys, "run", TINY, *ONE_CELL, "--out", str(tmp_path / "r"), "--jobs", "1"
    )
    assert code == 1
    assert "6 trial rows raised" in err and "KeyError: 'lost'" in err
    assert "errors" in stdout  # the table shows them


def test_list(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = compsim(capsys, "list", "strategies")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert {"budget_open", "floor_gated", "keep_all", "empty"} <= set(names)
    assert "Full reader" in out  # the factory's docstring
    code, out, _ = compsim(capsys, "list", "summarizers")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and {"http", "simulated", "callable"} <= set(names)
    assert "your own model call by reference" in out
    monkeypatch.chdir(ROOT)
    code, out, _ = compsim(capsys, "list", "scenarios")
    assert code == 0
    assert "scenarios/credential_rotation.toml" in out and "The note's trace" in out
    for name in ("depth_sweep", "tight_ladder", "many_constraints", "long_horizon"):
        assert f"scenarios/{name}.toml" in out
    code, _, err = compsim(capsys, "list", "scenarios", "--dir", "nowhere")
    assert code == 2 and "--dir nowhere: no such folder" in err


def test_shipped_scenarios_load_and_expand() -> None:
    from sim.runs.grid import load_grid

    cells = {p.stem: len(load_grid(p).cells) for p in sorted((ROOT / "scenarios").glob("*.toml"))}
    assert cells["depth_sweep"] == 10
    assert cells["tight_ladder"] == 3 and cells["many_constraints"] == 4
    assert cells["credential_rotation"] == 1 and cells["long_horizon"] == 1
    assert len(load_grid(ROOT / "scenarios" / "long_horizon.toml").cells[0].scenario.ladder) == 5


@pytest.mark.slow
def test_report_and_demo_write_the_html_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "one"
    assert compsim(capsys, "run", TINY, *ONE_CELL, "--out", str(out), "--jobs", "1")[0] == 0
    code, stdout, _ = compsim(capsys, "report", str(out))
    assert code == 0
    assert "## Survival: planted rules" in stdout and f"report: {out / REPORT}" in stdout
    assert (out / REPORT).read_text().lower().startswith("<!doctype html>")
    assert any((out / "plots").glob("*.png")) and any((out / "plots").glob("*.svg"))

    demo = tmp_path / "demo"
    demo.mkdir()
    (demo / MANIFEST).write_text((out / MANIFEST).read_text())  # an earlier run: replaced
    code, stdout, _ = compsim(
        capsys, "demo", TINY, *ONE_CELL, "--trials", "1", "--jobs", "1", "--out", str(demo)
    )
    assert code == 0
    assert f"report: {demo / REPORT}" in stdout
    assert load_run(demo).meta.trials == 1 and (demo / REPORT).exists()


@pytest.mark.slow
def test_ctrl_c_exits_130_and_the_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "int"
    proc = start_long_run(Path(TINY), out, ROOT)
    wait_for_first_unit(out / TRIALS)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal sends it to the whole group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (
        f"SIGINT in the test process: {signal.getsignal(signal.SIGINT)}; {err}"
    )
    assert "Traceback" not in err
    assert f"continue with: compsim run --resume {out}" in err
    assert not (out / SUMMARY_JSON).exists()
    resumed = resume_run(out, ROOT)
    assert resumed.returncode == 0, resumed.stderr
    assert load_run(out).summary["complete"]  # type: ignore[index]


def _children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (Linux /proc)."""
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds workers through /proc")
def test_a_killed_worker_exits_4_in_one_line_and_the_run_resumes(tmp_path: Path) -> None:
    """As when the kernel kills a worker for memory: `compsim run --jobs 2` stops with one
    line, exit 4, no traceback, and a resume completes the run."""
    out = tmp_path / "oom"
    proc = start_long_run(Path(TINY), out, ROOT)
    workers: list[int] = []
    for _ in range(1200):  # the pool starts in the background: its worker forks from a server
        workers = [w for server in _children(proc.pid) for w in _children(server)]
        if workers or proc.poll() is not None:
            break
        time.sleep(0.05)
    assert workers, "no worker process appeared"
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, err
    assert "Traceback" not in err
    assert "compsim: error: a worker process died" in err
    assert f"continue with: compsim run --resume {out}" in err
    resumed = resume_run(out, ROOT)
    assert resumed.returncode == 0, resumed.stderr
    assert load_run(out).summary["complete"]  # type: ignore[index]
