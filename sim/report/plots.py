"""The report's figures, drawn from the aggregates only (matplotlib, no pyplot state).

One set of figures per cell. Output is deterministic: same data, same PNG and SVG bytes (fixed
SVG hash salt, no dates in metadata), so a committed figure only changes when the data does.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from sim.report.aggregate import Aggregates
from sim.report.runview import RunLike, aggregate_run
from sim.report.tables import write_file

FORMATS = ("png", "svg")
RC: dict[Any, Any] = {"svg.hashsalt": "compaction-sim", "svg.fonttype": "path", "font.size": 9.0}
METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None}}
PALETTE = [matplotlib.colormaps["tab10"](i) for i in range(10)]
MARKERS = "osD^v<>Ph*"


def _t(text: object) -> str:
    """Scenario text shown as-is: `$` would otherwise start matplotlib's mathtext."""
    return str(text).replace("$", r"\$")


def render(fig: Figure, fmt: str) -> bytes:
    """A figure's bytes in `fmt` (png or svg), reproducibly."""
    buf = io.BytesIO()
    with matplotlib.rc_context(RC):
        fig.savefig(buf, format=fmt, dpi=100, metadata=METADATA[fmt])
    return buf.getvalue()


def _figure(width: float = 8.0, height: float = 4.8) -> Figure:
    with matplotlib.rc_context(RC):
        return Figure(figsize=(width, height), layout="constrained")


def _style(strategies: list[str]) -> dict[str, tuple[Any, str]]:
    """One colour and marker per strategy, the same in every figure of a run."""
    return {
        s: (PALETTE[i % 10], MARKERS[(i // 10 + i) % len(MARKERS)])
        for i, s in enumerate(strategies)
    }


def _level_labels(agg: Aggregates, cell: str, levels: Iterable[str]) -> list[str]:
    """`L2` over its budget (`512 tok`); L0 is the raw turns."""
    out = []
    for name in levels:
        budget = agg.budgets.get((cell, name))
        under = "raw" if name == "L0" else (f"{budget} tok" if budget is not None else "")
        out.append(_t(f"{name}\n{under}" if under else name))
    return out


def _cell_title(title: str, cell: str) -> str:
    return _t(f"{title} — {cell}" if cell else title)


def survival_funnel(agg: Aggregates, cell: str) -> Figure:
    """Share of floored facts at or above floor per level, one line per strategy, 95% band."""
    df = agg.survival[agg.survival["cell"] == cell]
    fig = _figure()
    ax = fig.add_subplot()
    strategies = list(dict.fromkeys(df["strategy"]))
    style = _style(list(dict.fromkeys(agg.summary["strategy"])))
    width = 0.25 / max(len(strategies), 1)
    for i, (s, g) in enumerate(df.groupby("strategy", sort=False)):
        x = g["level_index"].to_numpy(float) + (i - (len(strategies) - 1) / 2) * width
        color, marker = style[str(s)]
        ax.fill_between(x, 100 * g["survival_lo"], 100 * g["survival_hi"], color=color, alpha=0.12)
        ax.plot(x, 100 * g["survival_rate"], marker=marker, color=color, label=_t(s), lw=1.6)
    levels = agg.levels
    ax.set_xticks(range(len(levels)), _level_labels(agg, cell, levels))
    ax.set_ylim(-3, 103)
    ax.set_xlabel("checkpoint level and its budget (L0 = raw turns)")
    ax.set_ylabel("floored facts at or above floor (%)")
    ax.set_title(_cell_title("Survival funnel (95% Wilson bands)", cell))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def depth_heatmap(agg: Aggregates, cell: str) -> Figure:
    """Depth bin × level survival per strategy: where in the history facts get lost, and when."""
    df = agg.depth_level[agg.depth_level["cell"] == cell]
    strategies = list(dict.fromkeys(df["strategy"]))
    cols = min(3, max(len(strategies), 1))
    rows = max(1, -(-len(strategies) // cols))
    fig = _figure(3.2 * cols + 1.2, 2.6 * rows + 0.8)
    bins = sorted(set(df["depth_bin"]))
    levels = [lv for lv in agg.levels if lv in set(df["level"])]
    image = None
    for k, (s, g) in enumerate(df.groupby("strategy", sort=False)):
        ax = fig.add_subplot(rows, cols, k + 1)
        grid = np.full((len(bins), len(levels)), np.nan)
        for _, r in g.iterrows():
            grid[bins.index(r["depth_bin"]), levels.index(r["level"])] = 100 * r["survival"]
        image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
        for (i, j), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(levels)), [_t(n) for n in levels])
        ax.set_yticks(range(len(bins)), bins)
        ax.set_title(_t(s), fontsize=9)
        ax.set_xlabel("level")
        ax.set_ylabel("fact depth (0 = oldest turn)")
    if image is not None:
        fig.colorbar(image, ax=fig.axes, label="survival: at or above floor (%)", shrink=0.8)
    fig.suptitle(_cell_title("Depth × level survival", cell))
    return fig


def pareto_front(cost: list[float], silent: list[float]) -> list[int]:
    """Indices of the points no other point beats on both cost and silent-collapse rate,
    cheapest first."""
    front: list[int] = []
    best = float("inf")
    for i in sorted(range(len(cost)), key=lambda i: (cost[i], silent[i])):
        if silent[i] < best:
            front.append(i)
            best = silent[i]
    return front


def cost_vs_silent(agg: Aggregates, cell: str) -> Figure:
    """Token cost per trial against silent-collapse rate, one point per strategy, retries in
    the legend, the Pareto front drawn: what each point of safety costs."""
    df = agg.summary[agg.summary["cell"] == cell].reset_index(drop=True)
    style = _style(list(dict.fromkeys(agg.summary["strategy"])))
    fig = _figure()
    ax = fig.add_subplot()
    cost = [float(c) for c in df["token_cost"]]
    positive = [c for c in cost if c > 0]
    edge = min(positive) / 2 if positive else 1.0  # a log axis has no 0: zero cost sits here
    silent = [100 * float(s) for s in df["silent_rate"]]
    for i, r in enumerate(df.to_dict("records")):
        color, marker = style[str(r["strategy"])]
        lo, hi = 100 * r["silent_lo"], 100 * r["silent_hi"]
        err = [[max(silent[i] - lo, 0.0)], [max(hi - silent[i], 0.0)]]
        label = f"{r['strategy']}: {cost[i]:.0f} tok, {r['retries_per_trial']:.2f} retries/trial"
        ax.errorbar(
            max(cost[i], edge),
            silent[i],
            yerr=err,
            fmt=marker,
            color=color,
            ms=8,
            capsize=3,
            label=_t(label),
        )
    front = pareto_front(cost, silent)
    if front:
        fx, fy = [max(cost[i], edge) for i in front], [silent[i] for i in front]
        ax.step(fx, fy, where="post", ls="--", color="0.3", lw=1, label="Pareto front")
    ax.set_xscale("log")
    ax.set_ylim(-5, 105)
    ax.set_xlabel(
        "token cost per trial (tokens emitted incl. pins + retry tokens; log; 0 at left edge)"
    )
    ax.set_ylabel("silent-collapse rate (% of trials, 95% CI)")
    ax.set_title(_cell_title("Token cost vs silent collapse", cell))
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def _grouped_bars(
    ax: Any, groups: list[str], series: dict[str, list[float]], style: dict[str, tuple[Any, str]]
) -> None:
    width = 0.8 / max(len(series), 1)
    for i, (name, values) in enumerate(series.items()):
        x = np.arange(len(groups)) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, values, width=width, color=style[name][0], label=_t(name))
    ax.set_xticks(range(len(groups)), [_t(g) for g in groups])
    ax.grid(alpha=0.3, axis="y")


def blame_bars(agg: Aggregates, cell: str) -> Figure:
    """Share of trials blamed on each level: where a runtime should look first."""
    df = agg.blame[agg.blame["cell"] == cell]
    style = _style(list(dict.fromkeys(agg.summary["strategy"])))
    series = {str(s): list(100 * g["share"]) for s, g in df.groupby("strategy", sort=False)}
    fig = _figure()
    ax = fig.add_subplot()
    _grouped_bars(ax, list(agg.levels), series, style)
    ax.set_xticks(range(len(agg.levels)), _level_labels(agg, cell, agg.levels))
    ax.set_ylim(0, 105)
    ax.set_xlabel("blamed level (first to hold a lost fact below floor, or to raise)")
    ax.set_ylabel("trials (%)")
    ax.set_title(_cell_title("Blame level", cell))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def retries_hist(agg: Aggregates, cell: str) -> Figure:
    """Retries per trial (floor + budget), per strategy: the price of the floor gate."""
    df = agg.trials[(agg.trials["cell"] == cell) & (agg.trials["error"].fillna("") == "")]
    style = _style(list(dict.fromkeys(agg.summary["strategy"])))
    top = int(df["retries"].max()) if len(df) else 0
    counts = [str(k) for k in range(top + 1)]
    series = {
        str(s): [100 * float((g["retries"] == k).mean()) for k in range(top + 1)]
        for s, g in df.groupby("strategy", sort=False)
    }
    fig = _figure()
    ax = fig.add_subplot()
    _grouped_bars(ax, counts, series, style)
    ax.set_ylim(0, 105)
    ax.set_xlabel("retries in one trial (floor + budget re-asks, all levels)")
    ax.set_ylabel("trials (%)")
    ax.set_title(_cell_title("Retries per trial", cell))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


CAPTIONS = {
    "survival": "Share of live planted facts still at or above their recall floor at each level"
    " (L0 = raw turns), one line per strategy with its 95% Wilson band: where the funnel"
    " narrows is where constraints are lost.",
    "depth_heatmap": "Survival by where the fact sat in the history (depth bin, rows) and by"
    " level (columns), one panel per strategy: the needle-in-a-haystack picture for compaction.",
    "cost_vs_silent": "Token cost per trial (tokens emitted, pins included, plus estimated retry"
    " tokens) against the silent-collapse rate, one point per strategy with its retries per"
    " trial; the dashed line is the Pareto front.",
    "blame": "Share of trials blamed on each level: the first level that held a lost fact below"
    " its floor, or that raised.",
    "retries": "How many floor and budget retries a trial needed, per strategy: the price of the"
    " floor gate.",
}

PLOTS: dict[str, Callable[[Aggregates, str], Figure]] = {
    "survival": survival_funnel,
    "depth_heatmap": depth_heatmap,
    "cost_vs_silent": cost_vs_silent,
    "blame": blame_bars,
    "retries": retries_hist,
}


def _slug(cell: str, index: int, many: bool) -> str:
    if not many:
        return ""
    return f"-{index:02d}-" + (re.sub(r"[^A-Za-z0-9_.=]+", "_", cell)[:60] or "cell")


def plan(agg: Aggregates) -> list[tuple[str, str, str]]:
    """(file stem, plot name, cell) for every plot of every cell, nothing drawn yet; the
    heatmap goes by the depth tables' cells, which pool the cells of a depth sweep."""
    out = []
    for name in PLOTS:
        table = agg.depth_level if name == "depth_heatmap" else agg.summary
        cells = [str(c) for c in dict.fromkeys(table["cell"])] if not table.empty else []
        data = {"survival": agg.survival, "blame": agg.blame}.get(name)
        for index, cell in enumerate(cells):
            if data is not None and (data.empty or cell not in set(data["cell"])):
                continue  # every trial of the cell raised: there is nothing to draw
            out.append((f"{name}{_slug(cell, index, len(cells) > 1)}", name, cell))
    return out


def figures(agg: Aggregates) -> Iterator[tuple[str, str, Figure]]:
    """(file stem, cell, figure) for every plot of every cell, drawn one at a time."""
    for stem, name, cell in plan(agg):
        yield stem, cell, PLOTS[name](agg, cell)


def write_figures(agg: Aggregates, out_dir: str | Path) -> list[Path]:
    """Every plot as PNG and SVG under `out_dir`; returns the paths written."""
    out = Path(out_dir)
    return [
        write_file(out / f"{stem}.{fmt}", render(fig, fmt))
        for stem, _, fig in figures(agg)
        for fmt in FORMATS
    ]


def write_plots(run: RunLike, out_dir: str | Path) -> list[Path]:
    """`compsim report`'s entry point: every plot of a run, PNG and SVG."""
    return write_figures(aggregate_run(run.rows(), run.manifest), out_dir)


__all__ = [
    "PLOTS",
    "RunLike",
    "figures",
    "pareto_front",
    "plan",
    "render",
    "write_figures",
    "write_plots",
]
