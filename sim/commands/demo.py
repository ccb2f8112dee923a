"""`compsim demo SCENARIO`: run a scenario for every strategy it lists and print the table."""

from __future__ import annotations

import argparse

from sim.aggregate import format_table, summarize
from sim.records import trial_row
from sim.scenario import load_scenario
from sim.trial import run_scenario_trial


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("demo", help="run a scenario and print the per-strategy table")
    p.add_argument("scenario", help="scenario TOML file")
    p.add_argument("--trials", type=int, default=None, help="override the scenario's trials")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    trials = args.trials or scenario.trials
    rows = [trial_row(rec, i) for i in range(trials) for rec in run_scenario_trial(scenario, i)]
    print(
        f"{scenario.name}: {trials} trials x {len(scenario.strategies)} strategies, "
        f"seed {scenario.seed}"
    )
    print(format_table(summarize(rows)))
    return 0
