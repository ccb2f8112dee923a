"""`compsim bench`: run the regression suite into one suite run directory (one run directory
per case, plus suite.json and summary.json), for `compsim check` to gate.

Exit codes: 0 done; 1 done, but some trials raised (error rows); 2 bad input; 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from sim.commands.run import RUNS_DIR, add_jobs, add_overrides, jobs_from
from sim.commands.user_code import add_user_code_args, entries
from sim.errors import UserError
from sim.regression.suite import DEFAULT_SUITE, Suite, load_suite
from sim.regression.suite_run import (
    SUITE_JSON,
    SuiteRunCase,
    SuiteRunManifest,
    load_outcomes,
    write_suite_manifest,
)
from sim.report.fit import WIDTH, fit
from sim.report.rates import pct
from sim.runs.manifest import harness_version, spec_hash
from sim.runs.runner import run_grid
from sim.runs.store import atomic_write

SUMMARY = "summary.json"
COLUMNS = ("strategy", "trials", "collapse", "silent", "loud", "retries", "emitted")
"""Per case and strategy: rates as everywhere (sim.report.rates), retries and tokens emitted
as means per trial."""


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("bench", help="run the regression suite (for compsim check)")
    p.add_argument(
        "--suite",
        type=Path,
        default=DEFAULT_SUITE,
        help=f"the suite file (default: {DEFAULT_SUITE})",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"suite run directory to create (default: {RUNS_DIR}/bench-<suite>-<hash>)",
    )
    add_jobs(p)
    add_overrides(p, "set a field of every case's scenario (value parsed as TOML); repeatable")
    p.add_argument("--case", action="append", default=[], help="run only this case; repeatable")
    p.add_argument("--force", action="store_true", help="replace the suite run in --out")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_user_code_args(p)
    p.set_defaults(func=run, traces=0)


def case_table(per: dict[str, dict[str, Any]]) -> str:
    """One case's strategies as a table fitted to 100 columns, rates as everywhere."""
    rows = [
        [
            key,
            str(int(s["trials"])),
            *(pct(s[m]) for m in ("collapse_rate", "silent_collapse_rate", "loud_failure_rate")),
            f"{s['retries_per_trial']:.2f}",
            f"{s['tokens_emitted']:.0f}",
        ]
        for key, s in per.items()
    ]
    return fit(COLUMNS, rows, 1, WIDTH)


def default_out(suite: Suite, hashes: list[str]) -> Path:
    digest = hashlib.sha256("".join(hashes).encode()).hexdigest()[:10]
    return RUNS_DIR / f"bench-{suite.name}-{digest}"


def run(args: argparse.Namespace) -> int:
    jobs = jobs_from(args)
    mine = entries(args)  # --compactor / --strategy: the strategies under test in every case
    suite = load_suite(args.suite, mine or None)
    names = [c.name for c in suite.cases]
    for name in args.case:
        if name not in names:
            raise UserError(
                f"--case {name!r}: no such case in {args.suite}; cases: {', '.join(names)}"
            )
    cases = [c for c in suite.cases if not args.case or c.name in args.case]
    overrides = tuple(args.overrides)
    for o in overrides:
        if o.split("=", 1)[0].strip().strip('"').startswith("strategies"):
            raise UserError(
                f"-S {o}: the strategies under test are the suite's; edit `strategies` in "
                f"{args.suite} (every case keeps its reference baselines)"
            )
    grids = [(c, c.grid(overrides)) for c in cases]  # every case validated before any runs
    out: Path = args.out or default_out(suite, [spec_hash(g, 0) for _, g in grids])
    if (out / SUITE_JSON).exists() and not args.force:
        raise UserError(f"--out {out}: a suite run is already there; use --force to replace it")
    out.mkdir(parents=True, exist_ok=True)
    manifest = SuiteRunManifest(
        suite=suite.name,
        suite_version=suite.version,
        harness_version=harness_version(),
        suite_file=str(args.suite),
        overrides=list(overrides),
        cases=[SuiteRunCase(name=c.name, version=c.version) for c in cases],
    )
    write_suite_manifest(out, manifest)
    started = time.perf_counter()
    errors = 0
    for case, grid in grids:
        result = run_grid(
            grid,
            out / case.name,
            jobs=jobs,
            force=args.force,
            progress=not args.no_progress,
            traces=0,
        )
        errors += result.errors
    seconds = time.perf_counter() - started
    outcomes = load_outcomes(out)
    summary = {name: case.summaries() for name, case in outcomes.cases.items()}
    atomic_write(out / SUMMARY, (json.dumps(summary, indent=1) + "\n").encode())
    for name, per in summary.items():
        print(f"\n{name}")
        print(case_table(per))
    print(f"\nsuite {suite.name} v{suite.version}: {len(cases)} cases in {seconds:.1f} s -> {out}")
    print(f"gate it: compsim check {out} --baseline results/baselines/default.json")
    if errors:
        print(f"compsim: {errors} trial rows raised (error rows in trials.jsonl)", file=sys.stderr)
    return 1 if errors else 0
