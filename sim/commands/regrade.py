"""`compsim regrade RUN --grader judge`: ask a model to grade what the text grader graded.

Every level text the run kept (its traces) and every live planted fact get one forced-choice
question; the answers go through the record/replay cache (`--cache`, `--cache-mode`), and the
run gains judge.jsonl and judge_summary.json, which `compsim report` then lists. The judge is
the scenario's `[grading] judge` table, else its summarizer, with any flag below on top.
Exit codes: 0; 2 when RUN is not a run directory, kept no traces, or the judge is no model.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.report.rates import pct
from sim.runs.regrade import JUDGE_SUMMARY, judge_run

_FLAGS = ("summarizer", "base_url", "model", "api_key_env", "model_path", "cache", "cache_mode")


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sim.summarizers.options import add_summarizer_args

    p = subs.add_parser("regrade", help="a judge model's grades beside the text grader's")
    p.add_argument("run", type=Path, help="run directory (results/runs/<id>)")
    p.add_argument("--grader", choices=("judge",), default="judge", help="the second grader")
    add_summarizer_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    overrides = {("name" if f == "summarizer" else f): getattr(args, f, None) for f in _FLAGS}
    summary = judge_run(args.run, overrides)
    overall = summary["overall"]
    rate = "n/a" if overall["rate"] is None else pct(overall["rate"])
    print(
        f"judge {summary['judge']['name']} {summary['judge']['model']}: {summary['cases']} "
        f"verdicts, agreement with the text grader {rate} "
        f"({overall['agree']}/{overall['cases']}; {summary['unanswered']} unanswered), "
        f"{summary['model_calls']} model calls, {summary['cache_hits']} cache hits"
    )
    for cls, r in summary["by_class"].items():
        shown = "n/a" if r["rate"] is None else pct(r["rate"])
        print(f"  {cls:<14} {shown:>7} of {r['cases']}")
    print(f"written: {args.run / JUDGE_SUMMARY} (compsim report {args.run} lists disagreements)")
    return 0
