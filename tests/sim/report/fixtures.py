"""A tiny run built in memory (rows, traces, manifest), for the plot and report tests: the
note's shape at a small scale, so every figure and the trace viewer have real data."""

from __future__ import annotations

import copy
import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.runs.records import trace_row, trial_row
from sim.runs.scenario import parse_scenario
from sim.runs.trial import run_scenario_trial
from tests.helpers import SMALL_SCENARIO

STRATEGIES = ("re_ranking", "floor_gated", "budget_open")
CELL = "tiny"


@functools.cache
def _tiny(trials: int, traced: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    scenario = parse_scenario(tomllib.loads(SMALL_SCENARIO), Path("small.toml"))
    scenario = scenario.model_copy(update={"strategies": list(STRATEGIES)})
    rows, traces = [], []
    for i in range(trials):
        for rec in run_scenario_trial(scenario, i, keep_text=i < traced):
            rows.append(trial_row(rec, i, CELL))
            if i < traced:
                traces.append({**trace_row(rec, i), "cell": CELL})
    return rows, traces


def manifest(run_id: str = "tiny-run") -> dict[str, Any]:
    """The parts of a run store manifest the report shows."""
    scenario = parse_scenario(tomllib.loads(SMALL_SCENARIO), Path("small.toml"))
    resolved = scenario.model_copy(update={"strategies": list(STRATEGIES)})
    data = resolved.model_dump(mode="json", by_alias=True)
    return {
        "version": 1,
        "run_id": run_id,
        "harness_version": "0.1.0",
        "created": "2026-11-08T00:00:00Z",
        "git": {"commit": "0" * 40, "dirty": False},
        "seed": scenario.seed,
        "trials": 4,
        "tokenizer": scenario.tokenizer,
        "scenario": data,
        "cells": [
            {
                "id": CELL,
                "axes": {},
                "scenario": data,
                "strategies": [{"key": s, "name": s, "args": {}} for s in STRATEGIES],
                "summarizer": {"name": "simulated"},
            }
        ],
    }


def tiny_run(trials: int = 4, traced: int = 1) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(rows, traces) of a small run; copies, so a test may change them freely."""
    rows, traces = _tiny(trials, traced)
    return copy.deepcopy(rows), copy.deepcopy(traces)


@dataclass
class FakeRun:
    """Stands in for sim.runs.results.Run where only rows, traces and the manifest matter."""

    path: Path
    row_list: list[dict[str, Any]]
    traces: list[dict[str, Any]]
    manifest: dict[str, Any] = field(default_factory=manifest)

    def rows(self) -> list[dict[str, Any]]:
        return list(self.row_list)


LONG_KEY = "floor_gated(instruction='Keep every rule, never drop one', max_retries=3)"
"""A strategy key with arguments, as long as a user's configured strategy gets."""
SWEEP_CELLS = tuple(
    f"injection_susceptibility={s},ladder={lad}" for s in (0.0, 0.5) for lad in ("note", "tight")
) + tuple(f"depths=[{d / 20:.2f}]" for d in range(1, 7))


def sweep_run(trials: int = 4) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A 10-cell sweep made of the tiny run's rows (and traces), with long cell ids and one
    long strategy key: the shapes the width and headline tests need. Baselines `empty` and
    `keep_all` join, collapsing and not."""
    rows, traces = tiny_run(trials, 1)
    out, out_traces = [], []
    for cell in SWEEP_CELLS:
        for r in rows:
            key = LONG_KEY if r["strategy"] == "floor_gated" else r["strategy"]
            out.append({**copy.deepcopy(r), "cell": cell, "strategy": key,
                        "trial_id": f"{cell}/{r['trial']:06d}:{key}"})  # fmt: skip
            if r["strategy"] == "re_ranking":
                for base in ("empty", "keep_all"):
                    lost = base == "empty"
                    out.append({**copy.deepcopy(r), "cell": cell, "strategy": base,
                                "trial_id": f"{cell}/{r['trial']:06d}:{base}",
                                "collapsed": lost, "silent": lost, "loud": False})  # fmt: skip
        for t in traces:
            out_traces.append({**copy.deepcopy(t), "cell": cell,
                               "trial_id": f"{cell}/{t['trial_id']}"})  # fmt: skip
    return out, out_traces


def sweep_manifest() -> dict[str, Any]:
    """The tiny manifest with the sweep's cells and their axes."""
    m = manifest("sweep-run")
    base = m["cells"][0]
    keys = ["re_ranking", LONG_KEY, "budget_open", "empty", "keep_all"]
    cells = []
    for cell in SWEEP_CELLS:
        axes = {f"x.{k}": v for k, v in (p.split("=", 1) for p in cell.split(",", 1)[:1])}
        cells.append({**base, "id": cell, "axes": axes,
                      "strategies": [{"key": k, "name": k.split("(")[0], "args": {}}
                                     for k in keys]})  # fmt: skip
    m["cells"] = cells
    return m
