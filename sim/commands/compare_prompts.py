"""`compsim compare-prompts RUN`: collapse and cost per summarizer prompt, as a table, a CSV
and a plot of silent collapse against tokens emitted (one point per prompt and strategy).

Writes `prompt_comparison.csv` and `plots/prompt_comparison.{png,svg}` into the run directory
(or `--out`). Exit codes: 0, or 2 when RUN is not a finished run directory.
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

from sim.report.prompt_table import PromptRow, compare, format_rows, tokenizer_line, usage_line
from sim.runs.results import load_run
from sim.runs.store import atomic_write


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("compare-prompts", help="collapse and cost per summarizer prompt")
    p.add_argument("run", type=Path, help="run directory (results/runs/<id>)")
    p.add_argument("--out", type=Path, default=None, help="where to write (default: the run)")
    p.add_argument("--no-plot", action="store_true", help="table and CSV only")
    p.add_argument(
        "--wide",
        action="store_true",
        help="every column (intervals, violations, retries, calls), however wide",
    )
    p.add_argument(
        "--rank",
        action="store_true",
        help="best first: fewest trials that did not end with their rules kept (collapsed, or "
        "stopped before the leaf: a prompt the model cannot follow compacts nothing), then "
        "fewest silent collapses, then fewest rules a probed agent would break (table and CSV)",
    )
    p.set_defaults(func=run)


def to_csv(rows: list[PromptRow]) -> bytes:
    dicts = [r.as_dict() for r in rows]
    names = list(dict.fromkeys(k for d in dicts for k in d))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    writer.writerows(dicts)
    return buf.getvalue().encode("utf-8")


def plot(rows: list[PromptRow], title: str, out: Path) -> list[Path]:
    """Silent collapse (with its Wilson interval) against tokens emitted per trial."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    prompts = list(dict.fromkeys(r.prompt for r in rows))
    colours = {p: plt.get_cmap("tab10")(i % 10) for i, p in enumerate(prompts)}
    one_strategy = len({q.strategy for q in rows}) == 1
    shown = [r for r in rows if r.trials and r.errors < r.trials]
    span = max((r.as_dict()["tokens_per_trial"] for r in shown), default=1.0) or 1.0
    spots: dict[tuple[int, int], tuple[float, float, list[str]]] = {}
    for r in shown:
        d = r.as_dict()
        y, lo, hi = d["silent"], d["silent_lo"], d["silent_hi"]
        x = d["tokens_per_trial"]
        ax.errorbar(x, y, yerr=[[y - lo], [hi - y]], fmt="o", color=colours[r.prompt], capsize=3)
        spot = spots.setdefault((round(x / span * 40), round(y * 40)), (x, y, []))
        spot[2].append(r.prompt if one_strategy else f"{r.prompt} / {r.strategy}")
    for x, y, names in spots.values():  # points that coincide share one label
        ax.annotate("\n".join(names), (x, y), textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.set_xlabel("tokens emitted per trial (all levels, harness tokenizer)")
    ax.set_ylabel("silent collapse rate (95% Wilson interval)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "prompt_comparison.png", out / "prompt_comparison.svg"]
    for path in paths:
        fig.savefig(path, dpi=120)
    plt.close(fig)
    return paths


def ranked(rows: list[PromptRow]) -> list[PromptRow]:
    """Best first; ties keep the scenario's order (a stable sort). A trial whose ladder stopped
    lost nothing but compacted nothing either, so it counts against the prompt beside a
    collapse: ranking it first would crown a prompt the model cannot follow."""

    def key(r: PromptRow) -> tuple[float, float, float]:
        n = max(r.trials, 1)
        probe = r.probe_violations / r.probes if r.probes else 0.0
        return ((r.collapsed + r.stopped) / n, r.silent / n, probe)

    return sorted(rows, key=key)


def run(args: argparse.Namespace) -> int:
    loaded = load_run(args.run)
    rows = compare(loaded)
    if args.rank:
        rows = ranked(rows)
    out = args.out or args.run
    print(f"{loaded.meta.scenario.get('name')}: {loaded.meta.trials} trials per cell")
    print(format_rows(rows, wide=args.wide))
    print(tokenizer_line(loaded))
    print(usage_line(loaded))
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "prompt_comparison.csv", to_csv(rows))
    print(f"csv:  {out / 'prompt_comparison.csv'}")
    if not args.no_plot:
        title = f"{loaded.meta.scenario.get('name')}: silent collapse vs tokens, per prompt"
        for path in plot(rows, title, out / "plots"):
            print(f"plot: {path}")
    return 0
