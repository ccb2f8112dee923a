"""`compsim report RUN_DIR`: the run's tables in the terminal, plots/ and report.html.

Works on an unfinished run too (what is on disk so far), so a long sweep can be looked at
while it runs or after Ctrl-C.
"""

from __future__ import annotations

import argparse
import warnings
from dataclasses import dataclass
from pathlib import Path

from sim.report.escape import term
from sim.runs.results import PLOTS, REPORT, Run, RunIncompleteWarning, load_run


@dataclass(frozen=True, slots=True)
class ReportFiles:
    report: Path
    plots: tuple[Path, ...]


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("report", help="print a run's tables, write report.html and plots/")
    p.add_argument("run_dir", type=Path, help="run directory (results/runs/<run_id>)")
    p.add_argument("--no-tables", action="store_true", help="write files, print only paths")
    p.add_argument(
        "--wide",
        action="store_true",
        help="every column and every per-cell table, however wide (default: fit 100 columns)",
    )
    p.add_argument(
        "--only-failures",
        action="store_true",
        help="only the strategies under test that collapsed or raised (baselines left out)",
    )
    p.set_defaults(func=run)


def tables(run: Run, *, wide: bool = False, only_failures: bool = False) -> str:
    """Every aggregate table of the run, titled; ordered and pooled exactly as the plots and
    report.html are (a depth sweep's cells pooled in the depth tables)."""
    from sim.report.runview import aggregate_run
    from sim.report.tables import format_all

    agg = aggregate_run(run.rows(), run.manifest)
    text = format_all(agg, wide=wide, only_failures=only_failures)
    return f"{term(run.incomplete_text)}\n\n{text}" if run.incomplete_text else text


def load_quietly(path: Path) -> Run:
    """load_run without its RunIncompleteWarning: the command prints that line itself."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RunIncompleteWarning)
        return load_run(path)


def write_outputs(run: Run) -> ReportFiles:
    """plots/ (PNG + SVG) and the self-contained report.html inside the run directory."""
    from sim.report.html import write_report
    from sim.report.plots import render_run, write_plots

    rendered = render_run(run)  # drawn once, for plots/ and the page
    plots = write_plots(run, run.path / PLOTS, rendered)
    report = write_report(run, run.path / REPORT, rendered=rendered)
    return ReportFiles(report, tuple(plots))


def run(args: argparse.Namespace) -> int:
    loaded = load_quietly(args.run_dir)
    if not args.no_tables:
        print(tables(loaded, wide=args.wide, only_failures=args.only_failures))
    elif loaded.incomplete_text:
        print(term(loaded.incomplete_text))
    files = write_outputs(loaded)
    print(f"\nplots:  {files.report.parent / PLOTS}/ ({len(files.plots)} files)")
    print(f"report: {files.report}")
    return 0
