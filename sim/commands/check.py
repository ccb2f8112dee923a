"""`compsim check RUN --baseline FILE --fail EXPR ...`: the regression gate for CI.

Exit codes: 0 every check passed; 1 at least one regressed; 3 none regressed but the gate is
undecided (a check needs more trials, something the baseline gates is missing from the run, or
a strategy or case under test has no baseline); 2 bad input (an empty baseline, or one with
repeated or foreign trial rows, included).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.errors import UserError
from sim.regression.check import run_gate
from sim.regression.expr import DEFAULT_GATE, METRICS, parse_expr
from sim.regression.suite_run import load_outcomes
from sim.regression.verdicts import references, render_json, render_markdown, render_text

DEFAULT_BASELINE = Path("results/baselines/default.json")
RENDERERS = {"table": render_text, "markdown": render_markdown, "json": render_json}


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser(
        "check",
        help="gate a suite run against a baseline (exit 0 pass, 1 regressed, 3 inconclusive)",
    )
    p.add_argument("run", help="suite run directory (compsim bench), run directory or baseline")
    p.add_argument(
        "--baseline",
        default=str(DEFAULT_BASELINE),
        help=f"the baseline to compare with (default: {DEFAULT_BASELINE})",
    )
    p.add_argument(
        "--fail",
        action="append",
        metavar="EXPR",
        help="metric[class,strategy=S,case=C]:+abs or :+pct%%, repeatable; metrics: "
        + ", ".join(METRICS)
        + f"; default: {' '.join(DEFAULT_GATE)}".replace("%", "%%"),
    )
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    p.add_argument("--format", choices=tuple(RENDERERS), default="table")
    p.add_argument(
        "--wide",
        action="store_true",
        help="table: every column (p, test), however wide (default: fit 100 columns)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0.0 < args.alpha < 0.5:
        raise UserError(f"--alpha={args.alpha}: must be between 0 and 0.5")
    exprs = [parse_expr(e) for e in (args.fail or DEFAULT_GATE)]
    base = load_outcomes(args.baseline)
    cand = load_outcomes(args.run)
    report = run_gate(base, cand, exprs, args.alpha)
    for w in report.warnings:
        print(f"compsim: warning: {w}", file=sys.stderr)
    title = (
        f"candidate {args.run} ({cand.name} v{cand.version}) vs baseline {args.baseline} "
        f"({base.name} v{base.version}), alpha {args.alpha:g}"
    )
    refs = references(base, cand)
    if args.format == "table":
        print(render_text(report, refs, title, wide=args.wide))
    else:
        print(RENDERERS[args.format](report, refs, title))
    return report.exit_code
