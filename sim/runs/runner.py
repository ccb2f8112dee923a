"""Drives one sweep into one run directory: create or resume it, run the missing trial units
on an executor with a progress bar, stream each finished unit to disk, then write the summary.

Ctrl-C cancels the executor, flushes what finished and re-raises (the CLI exits 130); the run
is resumable with `--resume`. A unit that raised is kept as error rows and the sweep goes on.
"""

from __future__ import annotations

import shlex
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.errors import one_line
from sim.runs.grid import Cell, Grid
from sim.runs.manifest import build_manifest, harness_version, spec_hash
from sim.runs.results import (
    MANIFEST,
    SUMMARY_CSV,
    SUMMARY_JSON,
    TRIALS,
    Manifest,
    RunStoreError,
    iter_jsonl,
)
from sim.runs.row_schema import TrialRow
from sim.runs.scenario import Scenario
from sim.runs.store import RunWriter, atomic_write, write_whole
from sim.runs.summary import summarize_stream, summary_csv, summary_document, summary_json
from sim.runs.sweep import Executor, iter_batches, pending_specs
from sim.runs.threaded import make_executor
from sim.summarizers.preflight import check_endpoints
from sim.summarizers.registry import add_usage

DEFAULT_TRACES = 3


@dataclass(frozen=True, slots=True)
class RunResult:
    path: Path
    manifest: Manifest
    summary: dict[str, Any]
    units_run: int
    seconds: float
    first_error: str | None = None

    @property
    def errors(self) -> int:
        return int(self.summary["errors"])


@dataclass(slots=True)
class _Tally:
    units: int = 0
    errors: int = 0
    first_error: str | None = None
    started: float = field(default_factory=time.perf_counter)
    usage: dict[str, int] = field(default_factory=dict)


def grid_from_manifest(manifest: Manifest) -> Grid:
    """The cells a run was started with, rebuilt from its manifest (for --resume)."""
    source = Path(manifest.source)
    named = {k: Path(v) for k, v in manifest.prompt_dirs.items()}
    cells = []
    for index, entry in enumerate(manifest.cells):
        scenario = Scenario.model_validate(entry.scenario)
        scenario._base_dir, scenario._ref_dirs = source.parent, dict(named)
        cells.append(Cell(entry.id, index, tuple(entry.axes.items()), scenario))
    base = Scenario.model_validate(manifest.scenario)
    base._base_dir, base._ref_dirs = source.parent, dict(named)
    grid = Grid(manifest.source, base, tuple(cells), tuple(manifest.overrides))
    if spec_hash(grid, manifest.traces_per_cell) != manifest.spec_hash:
        raise RunStoreError(
            f"{manifest.run_id}: this run was written by a harness whose scenario schema "
            "differs; it cannot be resumed by this version"
        )
    return grid


def open_run(
    grid: Grid | None, out: Path, *, resume: bool, force: bool, traces: int
) -> tuple[RunWriter, Grid]:
    if resume:
        expected = build_manifest(grid, out.name, traces) if grid is not None else None
        writer = RunWriter.resume(out, expected)
        if writer.manifest.harness_version != harness_version():
            warnings.warn(
                f"--resume {out}: started by compaction-sim {writer.manifest.harness_version}, "
                f"continued by {harness_version()}; rows may differ between versions",
                stacklevel=2,
            )
        return writer, grid_from_manifest(writer.manifest)
    if grid is None:
        raise RunStoreError("a scenario is needed to start a run")
    return RunWriter.create(out, build_manifest(grid, out.name, traces), force=force), grid


def _progress(total: int, initial: int, enabled: bool, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="trials",
        desc=desc,
        file=sys.stderr,
        disable=not enabled,
        dynamic_ncols=True,
        smoothing=0.1,
    )


def execute(
    writer: RunWriter,
    grid: Grid,
    jobs: int,
    progress: bool = True,
    executor_factory: Callable[[dict[str, Scenario], int, int], Executor] | None = None,
) -> _Tally:
    """Run every unit not yet in the store; each finished unit is on disk before the next."""
    manifest = writer.manifest
    pending = manifest.units_total - len(writer.done)
    tally = _Tally()
    if pending <= 0:
        return tally
    specs = pending_specs(
        [c.id for c in grid.cells], manifest.trials, writer.done, manifest.traces_per_cell
    )
    workload = {c.id: c.scenario for c in grid.cells}
    check_endpoints(c.scenario.summarizer for c in grid.cells)  # fail fast, before any trial
    executor = (executor_factory or make_executor)(workload, jobs, pending)
    bar = _progress(manifest.units_total, len(writer.done), progress, manifest.scenario["name"])
    try:
        for result in executor.submit(iter_batches(specs, pending, jobs)):
            writer.append(result.traces, result.rows, result.spec.unit)
            tally.units += 1
            tally.errors += result.errors
            tally.first_error = tally.first_error or result.first_error
            tally.usage = add_usage(tally.usage, result.usage)
            bar.update(1)
    except BaseException:
        executor.cancel()
        raise
    else:
        executor.close()
    finally:
        bar.close()
    return tally


def record_usage(writer: RunWriter, usage: dict[str, int]) -> None:
    """Real-model calls and cache traffic go into the manifest (never into the results, which
    a replay must reproduce byte for byte); summed over resumed invocations."""
    if usage:
        writer.manifest = writer.manifest.model_copy(
            update={"model_usage": add_usage(writer.manifest.model_usage, usage)}
        )
        data = (writer.manifest.model_dump_json(indent=1) + "\n").encode()
        atomic_write(writer.path / MANIFEST, data)


def finish(writer: RunWriter, grid: Grid) -> dict[str, Any]:
    """summary.json + summary.csv from the rows on disk (streamed, order-independent)."""
    manifest = writer.manifest
    groups = [(c.id, s.key) for c in manifest.cells for s in c.strategies]
    levels = ["L0"]
    for cell in grid.cells:
        levels += [lv.name for lv in cell.scenario.ladder if lv.name not in levels]
    records = summarize_stream(iter_jsonl(writer.path / TRIALS, TrialRow), groups, levels)
    doc = summary_document(
        records,
        {
            "scenario": manifest.scenario["name"],
            "spec_hash": manifest.spec_hash,
            "seed": manifest.seed,
            "trials_per_cell": manifest.trials,
            "cells": [{"id": c.id, "axes": c.axes} for c in manifest.cells],
            "units": len(writer.done),
            "complete": len(writer.done) == manifest.units_total,
        },
    )
    write_whole(
        writer.path, [(SUMMARY_JSON, summary_json(doc)), (SUMMARY_CSV, summary_csv(records))]
    )
    return doc


def run_grid(
    grid: Grid | None,
    out: Path,
    *,
    jobs: int,
    resume: bool = False,
    force: bool = False,
    progress: bool = True,
    traces: int = DEFAULT_TRACES,
    executor_factory: Callable[[dict[str, Scenario], int, int], Executor] = make_executor,
) -> RunResult:
    """Create (or resume) `out`, run what is missing, write the summary.

    With jobs > 1 this process runs trials beside jobs - 1 workers, which start by forkserver
    (or spawn) and import the calling script again: a script that calls this needs the usual
    multiprocessing guard, `if __name__ == "__main__":` (a notebook does not)."""
    writer, grid = open_run(grid, out, resume=resume, force=force, traces=traces)
    try:
        with writer:
            tally = execute(writer, grid, jobs, progress, executor_factory)
            record_usage(writer, tally.usage)
    except BaseException:  # Ctrl-C, a worker killed (BrokenProcessPool), a bug: resumable
        print(
            one_line(
                f"compsim: {len(writer.done)}/{writer.manifest.units_total} trials on disk; "
                f"continue with: compsim run --resume {shlex.quote(str(out))}",
                limit=4200,
            ),
            file=sys.stderr,
        )
        raise
    summary = finish(writer, grid)
    seconds = time.perf_counter() - tally.started
    return RunResult(out, writer.manifest, summary, tally.units, seconds, tally.first_error)
