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
