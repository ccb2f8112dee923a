"""`compsim baseline update RUN --name NAME`: write results/baselines/NAME.json from a suite
run. A deliberate, reviewed change: the file diffs line by line, one line per trial."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from sim.errors import UserError
from sim.regression.baseline import write_baseline
from sim.regression.suite_run import load_outcomes

BASELINE_DIR = Path("results/baselines")


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("baseline", help="manage committed baselines for `compsim check`")
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    up = actions.add_parser("update", help="write a baseline from a suite run")
    up.add_argument("run", help="suite run directory (compsim bench) or run directory")
    up.add_argument("--name", default="default", help="baseline name (default: default)")
    up.add_argument("--dir", default=str(BASELINE_DIR), help=f"default: {BASELINE_DIR}")
    up.set_defaults(func=update)


def update(args: argparse.Namespace) -> int:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", args.name) or args.name.startswith("."):
        raise UserError(f"--name {args.name!r}: use letters, digits, '_', '-' and '.' only")
    outcomes = load_outcomes(args.run)
    path = Path(args.dir) / f"{args.name}.json"
    size = write_baseline(outcomes, path)
    trials = sum(len(c.trials[k]) for c in outcomes.cases.values() for k in c.gated)
    print(
        f"wrote {path}: {outcomes.name} v{outcomes.version}, {len(outcomes.cases)} cases, "
        f"{trials} trials of strategies under test, {size / 1024:.0f} KiB"
    )
    return 0
