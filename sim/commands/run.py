"""`compsim run SCENARIO`: run a scenario's sweep into a run directory, then print the table.

Exit codes: 0 done; 1 done, but some trials raised (error rows), or a `--compactor` /
`--strategy` under test collapsed silently; 2 bad input; 130 Ctrl-C (resumable with --resume DIR).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

from sim.commands.user_code import (
    add_user_code_args,
    print_verdicts,
    strategy_overrides,
    user_labels,
)
from sim.errors import UserError
from sim.report.tables import format_summary
from sim.runs.grid import Grid, load_grid
from sim.runs.manifest import spec_hash
from sim.runs.runner import DEFAULT_TRACES, RunResult, run_grid
from sim.runs.scenario import Scenario
from sim.runs.summary import summary_frame
from sim.runs.sweep import Executor
from sim.runs.threaded import make_executor
from sim.summarizers.options import add_summarizer_args, summarizer_overrides

RUNS_DIR = Path("results/runs")
MAX_JOBS_PER_CORE = 4
"""--jobs above this many processes per core only adds memory and switching, never speed."""


def add_overrides(p: argparse.ArgumentParser, text: str) -> None:
    """`-S KEY=VALUE`, repeatable, collected in `args.overrides`."""
    p.add_argument(
        "-S", dest="overrides", action="append", default=[], metavar="KEY=VALUE", help=text
    )


def add_jobs(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes running trials, this one included (default: all cores; at most "
        f"{MAX_JOBS_PER_CORE}x the cores on this machine)",
    )
    add_prompt_files_anywhere(p)


def add_prompt_files_anywhere(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--prompt-files-anywhere",
        action="store_true",
        help="let file: prompt references leave the scenario's folder (absolute, ../, links)",
    )


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Options shared by `run` and `demo`."""
    p.add_argument(
        "--trials", type=int, default=None, help="trials per cell (default: the scenario's)"
    )
    p.add_argument(
        "--seed", type=int, default=None, help="the run's seed (default: the scenario's)"
    )
    add_overrides(p, "set a scenario field before validation (value parsed as TOML); repeatable")
    add_jobs(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument(
        "--traces",
        type=int,
        default=DEFAULT_TRACES,
        metavar="K",
        help=f"keep level texts for the first K trials of each cell (default {DEFAULT_TRACES})",
    )
    add_summarizer_args(p)
    add_user_code_args(p)


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("run", help="run a scenario sweep into a run directory")
    p.add_argument("scenario", nargs="?", help="scenario TOML file (optional with --resume)")
    add_run_options(p)
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"run directory to create (default: {RUNS_DIR}/<scenario>-<hash>)",
    )
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="DIR",
        help="continue an interrupted run; its finished trials are kept",
    )
    p.add_argument("--force", action="store_true", help="replace the run in --out")
    p.add_argument(
        "--executor",
        choices=("local", "ray"),
        default="local",
        help="where trials run: this machine's processes, or a Ray cluster (extra [ray])",
    )
    p.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="Ray cluster to join ('auto' for the one this machine belongs to); "
        "default: start a local Ray with --jobs CPUs",
    )
    p.add_argument(
        "--ray-gpus-per-task",
        type=float,
        default=0.0,
        metavar="N",
        help="accelerators each Ray task reserves (local-model summarizers)",
    )
    p.set_defaults(func=run)


def executor_factory(
    args: argparse.Namespace,
) -> Callable[[dict[str, Scenario], int, int], Executor]:
    """The local process pool, or Ray (imported only when asked for)."""
    if args.executor != "ray":
        if args.ray_address is not None or args.ray_gpus_per_task:
            raise UserError("--ray-address and --ray-gpus-per-task need --executor ray")
        return make_executor
    if args.ray_gpus_per_task < 0:
        raise UserError(f"--ray-gpus-per-task={args.ray_gpus_per_task}: must be >= 0")
    from sim.runs.ray_executor import RayExecutor

    def ray(workload: dict[str, Scenario], jobs: int, units: int) -> Executor:
        return RayExecutor(workload, jobs, args.ray_address, args.ray_gpus_per_task)

    return ray


def jobs_from(args: argparse.Namespace, grid: Grid | None = None) -> int:
    """--jobs, else one process for an HTTP summarizer (its calls run on threads:
    sim.runs.threaded), else every core."""
    cores = os.cpu_count() or 1
    http = grid is not None and all(c.scenario.summarizer.name == "http" for c in grid.cells)
    jobs = args.jobs if args.jobs is not None else (1 if http else cores)
    if jobs < 1:
        raise UserError(f"--jobs={jobs}: must be >= 1")
    cap = MAX_JOBS_PER_CORE * cores
    if jobs > cap and getattr(args, "executor", "local") == "local":
        warnings.warn(
            f"--jobs={jobs}: more than {MAX_JOBS_PER_CORE}x this machine's {cores} cores; "
            f"running {cap} processes",
            stacklevel=1,
        )
        jobs = cap
    if args.traces < 0:
        raise UserError(f"--traces={args.traces}: must be >= 0")
    return int(jobs)


def grid_from(args: argparse.Namespace) -> Grid:
    """The scenario with -S overrides, then --trials / --seed (which win)."""
    overrides = list(args.overrides) + summarizer_overrides(args, args.overrides)
    overrides += strategy_overrides(args, args.overrides)
    if args.trials is not None:
        overrides.append(f"trials={args.trials}")
    if args.seed is not None:
        overrides.append(f"seed={args.seed}")
    return load_grid(args.scenario, overrides)


def default_out(grid: Grid, traces: int) -> Path:
    return RUNS_DIR / f"{grid.base.name}-{spec_hash(grid, traces)[:10]}"


def print_result(result: RunResult) -> None:
    """Where the run is, the headline and the rates (fitted to 100 columns; a sweep's as one
    line per cell), and what failed."""
    print(f"run: {result.path}\n")
    print(format_summary(summary_frame(result.summary)))
    rate = result.units_run / result.seconds if result.seconds > 0 else 0.0
    print(
        f"{result.units_run} trials run in {result.seconds:.1f} s ({rate:.2f} trials/s)",
        file=sys.stderr,
    )
    if result.errors:
        print(
            f"compsim: {result.errors} trial rows raised (error rows in trials.jsonl); "
            f"first: {result.first_error or 'see trials.jsonl'}",
            file=sys.stderr,
        )


def run(args: argparse.Namespace) -> int:
    jobs_from(args)  # bad --jobs / --traces fail before the scenario is read
    if args.resume is not None:
        if args.force:
            raise UserError("--resume and --force contradict each other; choose one")
        if args.out is not None and args.out != args.resume:
            raise UserError(f"--out {args.out} and --resume {args.resume} name different runs")
        if args.scenario is None and (args.overrides or args.trials or args.seed is not None):
            raise UserError("-S, --trials and --seed need the SCENARIO when resuming")
        grid = grid_from(args) if args.scenario else None
        out = args.resume
    else:
        if args.scenario is None:
            raise UserError("a SCENARIO file is needed (or --resume DIR)")
        grid = grid_from(args)
        out = args.out or default_out(grid, args.traces)
    result = run_grid(
        grid,
        out,
        jobs=jobs_from(args, grid),
        resume=args.resume is not None,
        force=args.force,
        progress=not args.no_progress,
        traces=args.traces,
        executor_factory=executor_factory(args),
    )
    print_result(result)
    print(f"\nreport: compsim report {result.path}")
    silent = print_verdicts(result.path, user_labels(args))
    return 1 if result.errors or silent else 0
