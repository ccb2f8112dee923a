"""The versioned run store, read side: what a run directory holds and how to load it.

Layout of `results/runs/<run_id>/` (store version 1)::

    manifest.json   written once, atomically, before the first trial: `version` first, harness
                    version, created time (the only wall-clock value in a run), git commit and
                    dirty flag, package versions, machine, the fully resolved scenario, every
                    cell with its own resolved scenario, strategy registry args and summarizer
                    params, the tokenizer and `spec_hash` (identity of everything that decides
                    the results; resume and the out-dir check compare it).
    trials.jsonl    append-only, one JSON line per trial x strategy (sim.runs.records.trial_row,
    plus
                    `error`: "Type: text" when that strategy's trial raised). All rows of one
                    trial unit (one trial index of one cell) are written by one write + flush,
                    so a crash can only tear the tail; resume drops a torn tail.
    traces.jsonl    the texts at every level (sim.runs.records.trace_row + `cell`) for the first K
                    trial indices of each cell, for the trace viewer.
    summary.json    aggregates per cell x strategy (sim.runs.summary), written atomically at the
    summary.csv     end; no wall-clock values, so byte-identical across --jobs and resume.
    report.html     written by `compsim report` (sim.report.html), with plots/ (sim.report.plots).
    .lock           flock'ed by the one process writing the run (resume refuses a live run).

Rows with a non-null `error` are trials that raised: they carry no levels or facts and are
left out of every rate (the summary counts them separately). `Run.trials` keeps them so a
report can show them; filter with `run.trials[run.trials.error.isna()]` for rates.
"""

from __future__ import annotations

import shlex
import warnings
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.errors import RunStoreError as RunStoreError
from sim.errors import one_line
from sim.files import DataError, iter_lines, parse_json, read_capped
from sim.runs.records import ROW_VERSION
from sim.runs.row_schema import TraceRow, TrialRow, row_problem
from sim.runs.unit_check import UnitCheck
from sim.types import AT_FLOOR_LABELS

if TYPE_CHECKING:  # pandas is for reading runs; a sweep's workers never need it
    import pandas as pd

STORE_VERSION = 1
MANIFEST, TRIALS, TRACES = "manifest.json", "trials.jsonl", "traces.jsonl"
SUMMARY_JSON, SUMMARY_CSV, REPORT, PLOTS = "summary.json", "summary.csv", "report.html", "plots"
LOCK = ".lock"
OWNED = (MANIFEST, TRIALS, TRACES, SUMMARY_JSON, SUMMARY_CSV, REPORT, PLOTS, LOCK)
"""Every name the harness writes into a run directory (and the only ones --force removes)."""

_NESTED = ("levels", "facts", "violations")
MAX_MANIFEST_BYTES = 256 * 1024 * 1024
"""manifest.json and summary.json (a 10,000-cell sweep writes a few tens of MB)."""
MAX_LINE_BYTES = 256 * 1024 * 1024
"""One row of trials.jsonl or traces.jsonl (a trace holds every level's text)."""
MAX_JSONL_BYTES = 1 << 40
"""trials.jsonl and traces.jsonl are streamed, so only their lines need a tight cap."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StrategyEntry(_Model):
    key: str = Field(description="Label used in rows, e.g. `floor_gated(max_retries=1)`.")
    name: str = Field(description="Registry name.")
    args: dict[str, Any] = Field(description="Every factory argument, defaults included.")


class CellEntry(_Model):
    id: str = Field(description="Stable, readable cell id, e.g. `depths=[0.5],ladder=tight`.")
    axes: dict[str, Any] = Field(description="Sweep axis path -> this cell's value.")
    scenario: dict[str, Any] = Field(description="The cell's fully resolved scenario.")
    strategies: list[StrategyEntry]
    summarizer: dict[str, Any] = Field(description="Backend name and every parameter.")


class GitInfo(_Model):
    commit: str | None = None
    dirty: bool | None = None


class Machine(_Model):
    platform: str
    machine: str
    python: str
    cpu_count: int


class Manifest(_Model):
    """manifest.json, store version 1."""

    version: int = Field(STORE_VERSION, description="Run store schema version; always first.")
    run_id: str
    harness_version: str
    created: str = Field(description="ISO 8601 UTC; the only wall-clock value of a run.")
    spec_hash: str = Field(description="sha256 of everything that decides the results.")
    git: GitInfo
    machine: Machine
    packages: dict[str, str]
    source: str = Field(description="The scenario file; `file:` prompts resolve next to it.")
    prompt_dirs: dict[str, str] = Field(
        default_factory=dict,
        description="Top-level fields another file wrote, with the folder their `file:` prompts "
        "resolve in (a suite's strategies: the suite's folder); empty for a plain scenario.",
    )
    scenario: dict[str, Any] = Field(description="Resolved scenario after -S, with its sweep.")
    overrides: list[str] = Field(description="The -S key=value arguments, as given.")
    seed: int
    trials: int = Field(description="Trial indices per cell.")
    traces_per_cell: int = Field(description="Trial indices per cell whose texts are kept.")
    tokenizer: str
    cells: list[CellEntry]
    model_usage: dict[str, int] = Field(
        default_factory=dict,
        description="Real-model calls and cache traffic (hits, misses, bytes), summed over every "
        "invocation of the run; empty for the simulated summarizer. Not part of the results.",
    )

    @property
    def units_total(self) -> int:
        return self.trials * len(self.cells)


def read_manifest(run_dir: Path) -> Manifest:
    """Dispatch on `version`: old versions are upgraded by their reader, newer are refused."""
    path = run_dir / MANIFEST
    if not path.exists() and not path.is_symlink():
        raise RunStoreError(f"{run_dir}: not a run directory (no {MANIFEST})")
    raw = read_capped(path, "manifest", RunStoreError, MAX_MANIFEST_BYTES)
    try:
        data = parse_json(raw)
    except DataError as exc:
        raise RunStoreError(f"{path}: unreadable manifest ({exc})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise RunStoreError(f"{path}: version: missing or not an integer (got {version!r})")
    reader = _MANIFEST_READERS.get(version)
    if reader is None:
        if version > STORE_VERSION:
            raise RunStoreError(
                f"{path}: version: store version {version} is newer than this compaction-sim "
                f"reads (up to {STORE_VERSION}); upgrade compaction-sim"
            )
        raise RunStoreError(f"{path}: version: unknown store version {version}")
    try:
        return reader(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise RunStoreError(f"{path}: {loc}: {err['msg']}") from None


_MANIFEST_READERS: dict[int, Callable[[dict[str, Any]], Manifest]] = {
    1: Manifest.model_validate,
}


def iter_jsonl(path: Path, model: type[BaseModel] | None = None) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL file; a torn last line (a crash mid-write) is skipped, a bad line
    anywhere else is corruption and raises, and so does a row without `model`'s shape."""
    return (row for _, row in numbered_jsonl(path, model))


def numbered_jsonl(
    path: Path, model: type[BaseModel] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """iter_jsonl's rows with their 1-based line numbers (what an error names)."""
    if not path.exists() and not path.is_symlink():
        return
    pending: bytes | None = None
    lineno = 0
    for raw in iter_lines(path, "run file", RunStoreError, MAX_LINE_BYTES, MAX_JSONL_BYTES):
        if pending is not None:
            yield lineno, _parse_line(pending, path, lineno, model)
        lineno += 1
        pending = raw
    if pending is not None and pending.endswith(b"\n"):
        try:
            parse_json(pending)
        except DataError as exc:
            if exc.position is not None:
                return  # a torn tail that happens to end on a newline byte
        yield lineno, _parse_line(pending, path, lineno, model)


def _parse_line(
    raw: bytes, path: Path, lineno: int, model: type[BaseModel] | None
) -> dict[str, Any]:
    try:
        row: dict[str, Any] = parse_json(raw)
    except DataError as exc:
        why = "not valid JSON (file corrupted)" if exc.position or "nested" in str(exc) else exc
        raise RunStoreError(f"{path}: line {lineno}: {why}") from None
    if not isinstance(row, dict) or type(row.get("v", 1)) is not int:
        raise RunStoreError(f"{path}: line {lineno}: not a row of a run (file corrupted)")
    if row.get("v", 1) > ROW_VERSION:
        raise RunStoreError(
            f"{path}: line {lineno}: v: row version {row.get('v')} is newer than this "
            f"compaction-sim reads (up to {ROW_VERSION}); upgrade compaction-sim"
        )
    problem = row_problem(model, row) if model is not None else None
    if problem is not None:
        raise RunStoreError(f"{path}: line {lineno}: {problem}")
    return row


class Run:
    """A run directory loaded for analysis; frames are built on first use.

    `units_done` of `units_total` trial units are on disk; `incomplete` is true for a run that
    was interrupted (or is still running), and `incomplete_text` says so in the words every
    output uses. A trials.jsonl with a repeated or foreign row is refused, naming the line."""

    def __init__(self, path: Path, manifest: Manifest) -> None:
        self.path = path
        self.meta = manifest
        self.manifest: dict[str, Any] = manifest.model_dump(mode="json")
        self.traces: list[dict[str, Any]] = sorted(
            iter_jsonl(path / TRACES, TraceRow), key=lambda t: str(t["trial_id"])
        )
        self.units_done = self._count_units()

    def _check(self, rows: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[dict[str, Any]]:
        check = UnitCheck(self.meta, self.path / TRIALS)
        for lineno, row in rows:
            check.add(lineno, row)
            yield row

    def _count_units(self) -> int:
        check = UnitCheck(self.meta, self.path / TRIALS)
        for lineno, row in numbered_jsonl(self.path / TRIALS):
            try:
                check.add(lineno, row)
            except RunStoreError:  # a row of the wrong shape: say what is wrong with it
                problem = row_problem(TrialRow, row)
                if problem is None:
                    raise
                raise RunStoreError(f"{self.path / TRIALS}: line {lineno}: {problem}") from None
        return len(check.done)

    @property
    def units_total(self) -> int:
        return self.meta.units_total

    @property
    def incomplete(self) -> bool:
        return self.units_done < self.units_total

    @property
    def incomplete_text(self) -> str | None:
        """`incomplete: N of M trials; resume with compsim run --resume DIR`, or None."""
        if not self.incomplete:
            return None
        return (
            f"incomplete: {self.units_done} of {self.units_total} trials; resume with "
            f"compsim run --resume {shlex.quote(str(self.path))}"
        )

    @property
    def cells(self) -> list[str]:
        return [c.id for c in self.meta.cells]

    @property
    def strategies(self) -> list[str]:
        """Strategy keys in scenario order (union over cells)."""
        seen: dict[str, None] = {}
        for cell in self.meta.cells:
            seen.update((s.key, None) for s in cell.strategies)
        return list(seen)

    def rows(self) -> Iterator[dict[str, Any]]:
        """Raw trials.jsonl rows, in file (completion) order, each checked against the plan."""
        return self._check(numbered_jsonl(self.path / TRIALS, TrialRow))

    @cached_property
    def trials(self) -> pd.DataFrame:
        """One row per trial x strategy, sorted by trial_id; nested lists left out."""
        import pandas as pd

        flat = [{k: v for k, v in r.items() if k not in _NESTED} for r in self.rows()]
        df = pd.DataFrame(flat)
        if not df.empty:
            df = df.sort_values("trial_id", kind="stable").reset_index(drop=True)
        return df

    @cached_property
    def facts(self) -> pd.DataFrame:
        """Long frame: one row per trial x strategy x fact x level reached."""
        import pandas as pd

        cols: dict[str, list[Any]] = {c: [] for c in FACT_COLUMNS}
        for r in self.rows():
            names = [lv["name"] for lv in r.get("levels", ())]
            for f in r.get("facts", ()):
                for i, name in enumerate(names):
                    grade = f["grades"][i]
                    values = (
                        r["trial_id"], r["trial"], r.get("cell", ""), r["strategy"],
                        f["fact_id"], f["cls"], f["declared"], f["superseded"], f["depth"],
                        f["turn"], name, i + 1, grade, grade in AT_FLOOR_LABELS,
                        f["span_tokens"][i], ",".join(f["missing"][i]), f["leaf"], f["lost"],
                        f["loud"], f["blame_level"], f.get("exposure"),
                    )  # fmt: skip
                    for c, v in zip(FACT_COLUMNS, values, strict=True):
                        cols[c].append(v)
        df = pd.DataFrame(cols)
        return df.sort_values(["trial_id", "fact_id", "level_index"], kind="stable").reset_index(
            drop=True
        )

    @cached_property
    def summary(self) -> dict[str, Any] | None:
        """summary.json, or None when the run has not finished."""
        path = self.path / SUMMARY_JSON
        if not path.exists():
            return None
        try:
            data = parse_json(read_capped(path, "summary", RunStoreError, MAX_MANIFEST_BYTES))
        except DataError as exc:
            raise RunStoreError(f"{path}: unreadable summary ({exc})") from None
        if not isinstance(data, dict):
            raise RunStoreError(f"{path}: not a summary (a JSON object)")
        return data

    def __repr__(self) -> str:
        done = f", {self.incomplete_text.split(';')[0]}" if self.incomplete_text else ""
        cells, trials = len(self.meta.cells), self.meta.trials
        return f"Run({str(self.path)!r}, cells={cells}, trials={trials}{done})"


FACT_COLUMNS = (
    "trial_id", "trial", "cell", "strategy", "fact_id", "cls", "declared", "superseded", "depth",
    "turn", "level", "level_index", "grade", "at_floor", "span_tokens", "missing", "leaf", "lost",
    "loud", "blame_level", "exposure",
)  # fmt: skip


def load_run(path: str | Path) -> Run:
    """Open a run directory for notebooks, reports and the gate. A run cut short loads (what is
    on disk so far) with a RunIncompleteWarning and `run.incomplete` set; a trials.jsonl with a
    repeated or foreign row raises RunStoreError naming the line."""
    run_dir = Path(path)
    if not run_dir.is_dir():
        raise RunStoreError(f"{run_dir}: no such run directory")
    run = Run(run_dir, read_manifest(run_dir))
    if run.incomplete_text:
        warnings.warn(one_line(run.incomplete_text), RunIncompleteWarning, stacklevel=2)
    return run


class RunIncompleteWarning(UserWarning):
    """A run loaded before all its trials were on disk: its numbers are partial."""
