"""`compsim demo`: the credential-rotation scenario (the note's case) as a small sweep on
every core, written like any run (into results/runs/demo, replacing an earlier demo) with its
plots and HTML report; prints the table and where report.html is. `make demo` runs it."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.commands.report import write_outputs
from sim.commands.run import add_run_options, grid_from, jobs_from, print_result
from sim.errors import UserError
from sim.runs.results import load_run
from sim.runs.runner import run_grid

DEFAULT_SCENARIO = Path("scenarios/credential_rotation.toml")
DEMO_TRIALS = 120
DEMO_OUT = Path("results/runs/demo")


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser(
        "demo", help="the credential-rotation scenario, every strategy: table and report"
    )
    p.add_argument(
        "scenario",
        nargs="?",
        type=Path,
        default=DEFAULT_SCENARIO,
        help=f"scenario TOML file (default {DEFAULT_SCENARIO})",
    )
    add_run_options(p)
    p.add_argument("--out", type=Path, default=DEMO_OUT, help=f"run directory ({DEMO_OUT})")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.scenario.exists():
        raise UserError(f"{args.scenario}: no such scenario (run from the repository root)")
    if args.trials is None:
        args.trials = DEMO_TRIALS
    jobs = jobs_from(args)
    result = run_grid(
        grid_from(args),
        args.out,
        jobs=jobs,
        force=True,
        progress=not args.no_progress,
        traces=args.traces,
    )
    print_result(result)
    files = write_outputs(load_run(result.path))
    print(f"\nplots:  {args.out / 'plots'}/ ({len(files.plots)} files)")
    print(f"report: {files.report}")
    return 1 if result.errors else 0
