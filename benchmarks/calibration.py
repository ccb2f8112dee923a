"""Does a simulator calibrated on part of a real recording predict the rest?

    .venv/bin/python benchmarks/calibration.py RUN [--folds K] [--rounds N] [--replicas N]

RUN is a run recorded with a real model (the committed cassette replayed: README "Real
models"). For each strategy (prompt), the trials are split into K folds by index; each fold's
collapse is predicted by a simulator fitted (`compsim calibrate`, sim.runs.calibration) on the
other folds only, so no trial is predicted by a fit that saw it. Printed per strategy: the
recorded collapse rate, the calibrated prediction, and the uncalibrated simulator's (the
scenario's summarizer swapped for the default one, prompt features still applied); then, per
strategy family, Kendall's tau between the recorded ranking of the prompts and each predicted
one. Last, one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from sim.runs.calibration import calibrate, simulate, simulated_config
from sim.runs.moments import read_moments
from sim.runs.results import load_run
from sim.runs.runner import grid_from_manifest
from sim.runs.stats import kendall_tau
from sim.runs.trial import strategy_key
from sim.summarizers.config import SummarizerConfig


def folds_of(trials: list[int], k: int) -> list[list[int]]:
    """Trials dealt round-robin into `k` folds (leave-one-out when k >= the trials)."""
    k = max(2, min(k, len(trials)))
    return [trials[i::k] for i in range(k)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--replicas", type=int, default=8)
    ap.add_argument("--min-trials", type=int, default=30, help="the ±10-point goal's floor")
    args = ap.parse_args(argv)

    run = load_run(args.run)
    grid = grid_from_manifest(run.meta)
    scenario = grid.cells[0].scenario
    ladder = tuple(lv.name for lv in scenario.ladder_value().levels)
    specs = {strategy_key(n, a): (n, a) for n, a in scenario.strategy_specs()}
    by_key: dict[str, list[dict]] = defaultdict(list)
    for row in run.rows():
        by_key[row["strategy"]].append(row)
    default = SummarizerConfig(name="simulated")
    results = []
    print(f"{'strategy':<58} {'n':>3} {'recorded':>9} {'calibrated':>10} {'default':>8}")
    for key, spec in specs.items():
        rows = sorted(by_key.get(key, []), key=lambda r: int(r["trial"]))
        trials = [int(r["trial"]) for r in rows]
        if len(trials) < 2:
            continue
        predicted = 0.0
        for held in folds_of(trials, args.folds):
            train = [t for t in trials if t not in held]
            fitted = calibrate(
                scenario, spec, key, [r for r in rows if int(r["trial"]) in train], train,
                rounds=args.rounds, replicas=args.replicas,
            )  # fmt: skip
            guess = simulate(scenario, spec, held, simulated_config(fitted.levels), args.replicas)
            predicted += guess.collapse * len(held)
        recorded = read_moments(rows, ladder).collapse
        plain = simulate(scenario, spec, trials, default, args.replicas).collapse
        results.append(
            {
                "strategy": key,
                "trials": len(trials),
                "recorded": round(recorded, 4),
                "calibrated": round(predicted / len(trials), 4),
                "default": round(plain, 4),
            }
        )
        r = results[-1]
        print(
            f"{key[:58]:<58} {len(trials):>3} {r['recorded']:>9.1%} {r['calibrated']:>10.1%} "
            f"{r['default']:>8.1%}"
        )
    families: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        families[r["strategy"].split("(")[0]].append(r)
    summary: dict[str, object] = {"run": run.meta.run_id, "folds": args.folds, "strategies": []}
    for family, rs in families.items():
        rec = [r["recorded"] for r in rs]
        tau_cal = kendall_tau(rec, [r["calibrated"] for r in rs])
        tau_def = kendall_tau(rec, [r["default"] for r in rs])
        within = sum(abs(r["recorded"] - r["calibrated"]) <= 0.10 for r in rs)
        enough = sum(r["trials"] >= args.min_trials for r in rs)
        mae = sum(abs(r["recorded"] - r["calibrated"]) for r in rs) / len(rs)
        mae_def = sum(abs(r["recorded"] - r["default"]) for r in rs) / len(rs)
        print(
            f"{family}: Kendall tau recorded vs calibrated {_tau(tau_cal)}, vs default "
            f"{_tau(tau_def)}; within ±10 points {within}/{len(rs)}; mean |error| calibrated "
            f"{mae:.1%}, default {mae_def:.1%}; prompts with >= {args.min_trials} trials: {enough}"
        )
        summary[family] = {
            "tau_calibrated": tau_cal,
            "tau_default": tau_def,
            "within_10": within,
            "prompts": len(rs),
            "mae_calibrated": round(mae, 4),
            "mae_default": round(mae_def, 4),
        }
    summary["strategies"] = results
    print(json.dumps(summary, sort_keys=True))
    return 0


def _tau(t: float | None) -> str:
    return "n/a (no order)" if t is None else f"{t:+.2f}"


if __name__ == "__main__":
    sys.exit(main())
