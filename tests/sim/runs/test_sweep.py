"""The grid runner: trial units, batching, determinism across --jobs, error rows, interruption
and resume, and the streamed summary (sim.runs.sweep, sim.runs.runner, sim.runs.summary)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from sim.report.aggregate import summarize
from sim.runs.grid import load_grid
from sim.runs.results import SUMMARY_CSV, SUMMARY_JSON, TRIALS, iter_jsonl, load_run
from sim.runs.runner import execute, finish, open_run, run_grid
from sim.runs.scenario import Scenario
from sim.runs.sweep import (
    MAX_BATCH,
    InProcessExecutor,
    LocalExecutor,
    TrialSpec,
    UnitResult,
    batch_size,
    iter_batches,
    pending_specs,
)
from sim.runs.unit_set import UnitSet
from tests.helpers import LONG_TINY_OVERRIDES, resume_run, start_long_run, wait_for_first_unit

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"


def sorted_rows(run: Path) -> list[dict[str, Any]]:
    return sorted(iter_jsonl(run / TRIALS), key=lambda r: r["trial_id"])


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny sweep, uninterrupted, in one process: the reference every variant must match."""
    out = tmp_path_factory.mktemp("sweep") / "jobs1"
    run_grid(load_grid(TINY), out, jobs=1, progress=False)
    return out


def test_trial_specs_are_trial_major_skip_done_and_keep_early_texts() -> None:
    specs = list(pending_specs(["a", "b"], 3, {("a", 1)}, traces_per_cell=1))
    assert [(s.cell, s.trial) for s in specs] == [("a", 0), ("b", 0), ("b", 1), ("a", 2), ("b", 2)]
    assert [s.keep_text for s in specs] == [True, True, False, False, False]
    assert TrialSpec("a", 7).unit_id == "a/000007" and TrialSpec("", 7).unit_id == "000007"


def test_specs_and_batches_are_made_as_they_are_asked_for() -> None:
    """A sweep of any size never holds its list of units: an endless one still yields."""
    endless = pending_specs(["a"], 10**15, UnitSet([("a", 0)]), traces_per_cell=0)
    first = next(iter_batches(endless, 10**15, 2))
    assert [s.trial for s in first] == list(range(1, MAX_BATCH + 1))


@pytest.mark.parametrize(("units", "jobs"), [(1, 1), (7, 2), (1000, 2), (100_000, 16)])
def test_batches_cover_every_unit_once_in_bounded_chunks(units: int, jobs: int) -> None:
    specs = [TrialSpec("", i) for i in range(units)]
    chunks = list(iter_batches(specs, len(specs), jobs))
    assert [s for c in chunks for s in c] == specs
    sizes = [len(c) for c in chunks]
    assert sizes[0] == batch_size(units, jobs) and max(sizes) <= MAX_BATCH
    assert sizes == sorted(sizes, reverse=True)  # they shrink towards the end
    assert sizes[-1] == 1  # the last unit is never waited for in a large batch
    assert len(chunks) >= min(units, 4 * jobs)


@pytest.mark.parametrize("mode", ["as run", "driver and workers", "workers only"])
def test_same_seed_same_results_with_one_or_two_jobs(
    baseline: Path, tmp_path: Path, mode: str
) -> None:
    """As `--jobs 2` runs (the driver may finish a tiny sweep before its pool is up), with the
    pool up first so driver and worker share the units, and with every unit in a worker."""
    two = tmp_path / "jobs2"
    made: list[LocalExecutor] = []

    def factory(workload: Mapping[str, Scenario], jobs: int, units: int) -> LocalExecutor:
        made.append(LocalExecutor(workload, jobs, driver_works=mode != "workers only"))
        if mode == "driver and workers":
            made[-1].wait_started()  # the worker is fed first, then the driver takes batches
        return made[-1]

    result = run_grid(load_grid(TINY), two, jobs=2, progress=False, executor_factory=factory)
    if mode == "driver and workers":
        assert 0 < made[0].units_here < result.units_run
    if mode == "workers only":
        assert made[0].units_here == 0
    assert (two / SUMMARY_JSON).read_bytes() == (baseline / SUMMARY_JSON).read_bytes()
    assert (two / SUMMARY_CSV).read_bytes() == (baseline / SUMMARY_CSV).read_bytes()
    assert sorted_rows(two) == sorted_rows(baseline)


def test_a_dead_worker_stops_the_sweep_loudly_and_it_resumes(
    baseline: Path, tmp_path: Path
) -> None:
    """A worker killed mid-sweep (out of memory, say) breaks the pool: the sweep stops with
    BrokenProcessPool instead of hanging, and what it wrote resumes to the same summary."""
    out = tmp_path / "dead"

    def factory(workload: Mapping[str, Scenario], jobs: int, units: int) -> LocalExecutor:
        executor = LocalExecutor(workload, jobs)
        executor.wait_started()
        for proc in executor._pool._processes.values():  # the pool's own workers
            os.kill(proc.pid, signal.SIGKILL)
        return executor

    with pytest.raises(BrokenProcessPool):
        run_grid(load_grid(TINY), out, jobs=2, progress=False, executor_factory=factory)
    assert not (out / SUMMARY_JSON).exists()
    run_grid(None, out, jobs=1, resume=True, progress=False)
    assert (out / SUMMARY_JSON).read_bytes() == (baseline / SUMMARY_JSON).read_bytes()


def test_summary_agrees_with_the_in_memory_aggregates(baseline: Path) -> None:
    run = load_run(baseline)
    assert run.summary is not None
    streamed = {(g["cell"], g["strategy"]): g for g in run.summary["groups"]}
    frame = summarize(list(run.rows()), by=("cell", "strategy"))
    assert len(frame) == len(streamed)
    for _, r in frame.iterrows():
        g = streamed[(r["cell"], r["strategy"])]
        assert g["trials"] == r["trials"] and g["errors"] == r["errors"]
        for col in ("collapsed_rate", "silent_lo", "loud_hi", "retries_per_trial", "tokens_read"):
            assert g[col] == pytest.approx(r[col])
        assert g["retry_tokens"] == pytest.approx(r["retry_tokens"])
        assert g["blame_level"] == r["blame_level"]


class _Interrupting:
    """Yields `after` units, then behaves like Ctrl-C."""

    def __init__(self, workload: Mapping[str, Scenario], after: int) -> None:
        self.inner = InProcessExecutor(workload)
        self.after = after
        self.cancelled = False

    def submit(self, batches: Iterable[Sequence[TrialSpec]]) -> Iterator[UnitResult]:
        for i, result in enumerate(self.inner.submit(batches)):
            if i == self.after:
                raise KeyboardInterrupt
            yield result

    def cancel(self) -> None:
        self.cancelled = True

    def close(self) -> None:
        raise AssertionError("close after an interrupt")


def test_interrupted_then_resumed_equals_uninterrupted(baseline: Path, tmp_path: Path) -> None:
    out = tmp_path / "cut"
    made: list[_Interrupting] = []

    def factory(workload: Mapping[str, Scenario], jobs: int, units: int) -> _Interrupting:
        made.append(_Interrupting(workload, after=5))
        return made[-1]

    writer, grid = open_run(load_grid(TINY), out, resume=False, force=False, traces=3)
    with writer, pytest.raises(KeyboardInterrupt):
        execute(writer, grid, 1, progress=False, executor_factory=factory)
    assert made[0].cancelled
    assert len(list(iter_jsonl(out / TRIALS))) == 5 * 3  # every finished unit is on disk
    assert not (out / SUMMARY_JSON).exists()
    result = run_grid(None, out, jobs=1, resume=True, progress=False)
    assert result.units_run == result.manifest.units_total - 5
    assert (out / SUMMARY_JSON).read_bytes() == (baseline / SUMMARY_JSON).read_bytes()
    assert sorted_rows(out) == sorted_rows(baseline)


def test_a_torn_tail_is_rerun_on_resume(baseline: Path, tmp_path: Path) -> None:
    out = tmp_path / "torn"
    run_grid(load_grid(TINY), out, jobs=1, progress=False)
    data = (out / TRIALS).read_bytes()
    (out / TRIALS).write_bytes(data[: len(data) // 2])  # mid-line, mid-unit
    (out / SUMMARY_JSON).unlink()
    run_grid(None, out, jobs=1, resume=True, progress=False)
    assert (out / SUMMARY_JSON).read_bytes() == (baseline / SUMMARY_JSON).read_bytes()


def test_a_strategy_that_raises_becomes_error_rows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sim.runs.sweep

    real = sim.runs.sweep.run_strategy

    def flaky(scenario: Scenario, history: Any, trial: int, name: str, *a: Any, **k: Any) -> Any:
        if name == "floor_gated" and trial == 1:
            raise ValueError("injected\nsecond line")
        return real(scenario, history, trial, name, *a, **k)

    monkeypatch.setattr(sim.runs.sweep, "run_strategy", flaky)
    result = run_grid(load_grid(TINY), tmp_path / "err", jobs=1, progress=False)
    cells = len(result.manifest.cells)
    assert result.errors == cells
    assert result.first_error == "ValueError: injected"
    errors = [r for r in iter_jsonl(tmp_path / "err" / TRIALS) if r["error"]]
    assert {(r["strategy"], r["trial"]) for r in errors} == {("floor_gated", 1)}
    assert all(r["levels"] == [] and r["facts"] == [] and not r["collapsed"] for r in errors)
    groups = {(g["cell"], g["strategy"]): g for g in result.summary["groups"]}
    gated = groups[(result.manifest.cells[0].id, "floor_gated")]
    assert (gated["trials"], gated["errors"]) == (3, 1)  # errors never enter a rate
    assert groups[(result.manifest.cells[0].id, "empty")]["errors"] == 0


def test_a_history_that_raises_errors_every_strategy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sim.runs.sweep

    def broken(scenario: Scenario, trial: int) -> Any:
        raise RuntimeError("no history")

    monkeypatch.setattr(sim.runs.sweep, "trial_history", broken)
    result = run_grid(load_grid(TINY, ["trials=1"]), tmp_path / "h", jobs=1, progress=False)
    assert result.errors == len(result.manifest.cells) * 3
    rows = list(iter_jsonl(tmp_path / "h" / TRIALS))
    assert {r["error"] for r in rows} == {"RuntimeError: no history"}


def test_finish_is_idempotent(baseline: Path, tmp_path: Path) -> None:
    out = tmp_path / "again"
    run_grid(load_grid(TINY), out, jobs=1, progress=False)
    first = (out / SUMMARY_JSON).read_bytes()
    writer, grid = open_run(None, out, resume=True, force=False, traces=3)
    with writer:
        finish(writer, grid)
    assert (out / SUMMARY_JSON).read_bytes() == first


def _session(sid: int) -> dict[int, int]:
    """Live (not zombie) processes of session `sid`, pid -> parent pid, from /proc."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:  # gone meanwhile
            continue
        fields = stat.rpartition(")")[2].split()  # state, ppid, pgrp, session, ...
        if fields and int(fields[3]) == sid and fields[0] != "Z":
            found[int(entry.name)] = int(fields[1])
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_their_driver_is_killed_alone(tmp_path: Path) -> None:
    """SIGKILL to the driver only (the out-of-memory killer's choice, a `kill -9 PID`): its
    worker, the forkserver and the resource tracker go too, instead of waiting forever."""
    out = tmp_path / "orphans"
    proc = start_long_run(TINY, out, ROOT)
    try:
        deadline = time.monotonic() + 120
        worker = None
        while worker is None and time.monotonic() < deadline and proc.poll() is None:
            procs = _session(proc.pid)
            # the driver starts a forkserver and a resource tracker; the worker is forked by one
            started = {p for p, parent in procs.items() if parent == proc.pid}
            worker = next((p for p, parent in procs.items() if parent in started), None)
            time.sleep(0.02)
        assert worker is not None, "no worker started before the run ended"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert not (out / SUMMARY_JSON).exists(), "the run finished before it could be killed"
        deadline = time.monotonic() + 30
        while _session(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _session(proc.pid) == {}, "processes outlived their driver"
    finally:
        with contextlib.suppress(ProcessLookupError):  # nothing left of the group
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


@pytest.mark.slow
def test_resume_after_sigkill_gives_identical_summary(baseline: Path, tmp_path: Path) -> None:
    """A real crash: the driver and its workers die by SIGKILL mid-run."""
    out = tmp_path / "killed"
    proc = start_long_run(TINY, out, ROOT)
    wait_for_first_unit(out / TRIALS)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert not (out / SUMMARY_JSON).exists(), "the run finished before it could be killed"
    resumed = resume_run(out, ROOT)
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole"
    run_grid(load_grid(TINY, list(LONG_TINY_OVERRIDES)), whole, jobs=1, progress=False)
    assert (out / SUMMARY_JSON).read_bytes() == (whole / SUMMARY_JSON).read_bytes()
    assert sorted_rows(out) == sorted_rows(whole)
