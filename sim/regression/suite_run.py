"""A suite run directory, and loading anything the gate can compare.

    <suite run>/suite.json     which suite, version, harness version, and the case list
    <suite run>/<case>/        one run directory per case (sim.runs.results layout)

`load_outcomes` accepts a suite run, a single run directory (each cell becomes a case) or a
baseline file, so `compsim check` and `compsim baseline update` take any of them.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.files import DataError, parse_json, read_capped
from sim.grading.outcomes import CaseOutcomes, SuiteOutcomes, group_rows
from sim.runs.results import SUMMARY_JSON, Run, RunIncompleteWarning, RunStoreError, load_run
from sim.runs.store import atomic_write

SUITE_RUN_VERSION = 1
SUITE_JSON = "suite.json"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class SuiteRunCase(_Model):
    name: str
    """The case name; its run directory is `<suite run>/<name>`."""
    version: int
    """The case version from the suite file."""


class SuiteRunManifest(_Model):
    version: int = Field(SUITE_RUN_VERSION)
    """Schema version of suite.json; always first."""
    suite: str
    """The suite's name."""
    suite_version: int
    """The suite's version."""
    harness_version: str
    """compaction-sim version that ran it."""
    suite_file: str
    """The suite file, as given to `compsim bench`."""
    overrides: list[str]
    """`-S` overrides applied to every case."""
    cases: list[SuiteRunCase]
    """The cases, in suite order."""


def write_suite_manifest(out: Path, manifest: SuiteRunManifest) -> None:
    atomic_write(out / SUITE_JSON, (json.dumps(manifest.model_dump(), indent=2) + "\n").encode())


def read_suite_manifest(out: Path) -> SuiteRunManifest:
    path = out / SUITE_JSON
    try:
        data = parse_json(read_capped(path, "suite manifest", RunStoreError))
    except DataError as exc:
        raise RunStoreError(f"{path}: unreadable suite manifest ({exc})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, int) and version > SUITE_RUN_VERSION:
        raise RunStoreError(
            f"{path}: version: suite run version {version} is newer than this "
            f"compaction-sim reads (up to {SUITE_RUN_VERSION}); upgrade compaction-sim"
        )
    try:
        return SuiteRunManifest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise RunStoreError(f"{path}: {loc}: {err['msg']}") from None


def _run_cases(run: Run, name: str, version: int) -> dict[str, CaseOutcomes]:
    """One case per cell (`name` alone for a single cell); unfinished or empty runs refused."""
    if run.incomplete_text:
        raise RunStoreError(f"{run.path}: {run.incomplete_text}")
    if not (run.path / SUMMARY_JSON).exists():
        raise RunStoreError(
            f"{run.path}: no results: the run has not finished (no {SUMMARY_JSON}); "
            "resume or re-run it"
        )
    rows: dict[str, list[dict[str, Any]]] = {c.id: [] for c in run.meta.cells}
    for row in run.rows():
        rows.setdefault(str(row.get("cell") or ""), []).append(row)
    if not any(rows.values()):
        raise RunStoreError(f"{run.path}: no results: trials.jsonl holds no trials")
    cells = {c.id: c for c in run.meta.cells}
    out = {}
    for cid, cell_rows in rows.items():
        key = name if len(rows) == 1 else f"{name}/{cid}"
        spec = cells[cid].scenario if cid in cells else run.meta.scenario
        out[key] = CaseOutcomes(key, version, spec, group_rows(cell_rows))
    return out


def _load(path: Path) -> Run:
    """load_run without its warning: an incomplete run is refused by _run_cases, in one line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RunIncompleteWarning)
        return load_run(path)


def load_outcomes(path: str | Path) -> SuiteOutcomes:
    """A suite run, a run directory or a baseline file, reduced to per-trial outcomes."""
    p = Path(path)
    if p.exists() and not p.is_dir():  # a baseline; read_baseline refuses a FIFO or device
        from sim.regression.baseline import read_baseline

        return read_baseline(p)
    if not p.is_dir():
        raise RunStoreError(f"{p}: no such run directory or baseline file")
    if (p / SUITE_JSON).exists():
        manifest = read_suite_manifest(p)
        cases: dict[str, CaseOutcomes] = {}
        commit = None
        for case in manifest.cases:
            run = _load(p / case.name)
            commit = commit or run.meta.git.commit
            cases.update(_run_cases(run, case.name, case.version))
        source = {"run": p.name, "commit": commit}
        return SuiteOutcomes(
            manifest.suite, manifest.suite_version, manifest.harness_version, cases, source
        )
    run = _load(p)
    name = str(run.meta.scenario.get("name") or p.name)
    source = {"run": p.name, "commit": run.meta.git.commit}
    return SuiteOutcomes(name, 0, run.meta.harness_version, _run_cases(run, name, 0), source)
