"""The report's figures, drawn from the aggregates only (matplotlib, no pyplot state).

A run with one cell gets one figure of each kind. A sweep gets, first, the cross-cell figure
(collapse and silent collapse against the swept axis, one line per strategy, 95% Wilson bands),
then one figure of each kind with a panel per cell (twelve panels a page), not a file per
cell: a 10-cell sweep writes 6 figures, not 41. Every strategy keeps its colour in every figure
of every run (sim.report.colors); titles name the run and its trials.

Output is deterministic: same data, same PNG and SVG bytes (fixed SVG hash salt, no dates in
metadata), so a committed figure only changes when the data does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim.report.aggregate import NO_LOSS, Aggregates
from sim.report.figure import (
    FORMATS,
    NO_CONTEXT,
    PAGE,
    Context,
    legend,
    level_labels,
    new_figure,
    panel_title,
    panels,
    plain,
    render,
    strategy_style,
    title,
    trials_text,
)
from sim.report.runview import RunLike, aggregate_run, run_view
from sim.report.sweep_plot import sweep_axis, sweep_lines
from sim.report.tables import write_file


def _survival(ax: Any, agg: Aggregates, cell: str) -> None:
    df = agg.survival[agg.survival["cell"] == cell]
    strategies = list(dict.fromkeys(df["strategy"]))
    width = 0.25 / max(len(strategies), 1)
    for i, (s, g) in enumerate(df.groupby("strategy", sort=False)):
        x = g["level_index"].to_numpy(float) + (i - (len(strategies) - 1) / 2) * width
        st = strategy_style(s)
        lo = 100 * np.clip(g["survival_lo"].to_numpy(float), 0, 1)
        hi = 100 * np.clip(g["survival_hi"].to_numpy(float), 0, 1)
        ax.fill_between(x, lo, hi, color=st.color, alpha=0.12)
        ax.plot(
            x,
            100 * g["survival_rate"],
            marker=st.marker,
            ls=st.linestyle,
            color=st.color,
            label=plain(s),
            lw=1.6,
        )
    ax.set_xticks(range(len(agg.levels)), level_labels(agg, cell, agg.levels))
    ax.set_ylim(-3, 103)
    ax.grid(alpha=0.3)


def survival_funnel(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Share of planted rules still usable per level, one line per strategy, 95% band."""
    fig, axes = panels(cells)
    for ax, cell in zip(axes, cells, strict=True):
        _survival(ax, agg, cell)
        panel_title(ax, cell, len(cells) > 1)
    axes[-1 if len(axes) == 1 else 0].set_ylabel("planted rules still usable (%)")
    fig.supxlabel("compaction level and its token budget (L0 = the raw turns)", fontsize=9)
    fig.suptitle(title("Survival: rules still usable after each compaction (95% bands)",
                        agg, ctx, cells))  # fmt: skip
    legend(fig, axes)
    return fig


def depth_heatmap(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Depth bin × level survival per strategy: where in the history rules get lost, and
    when. `cells` holds one depth group (sim.report.runview), whose cells are pooled."""
    cell = cells[0]
    df = agg.depth_level[agg.depth_level["cell"] == cell]
    strategies = list(dict.fromkeys(df["strategy"]))
    cols = min(3, max(len(strategies), 1))
    rows = max(1, -(-len(strategies) // cols))
    fig = new_figure(3.2 * cols + 1.2, 2.6 * rows + 1.0)
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
        ax.set_xticks(range(len(levels)), [plain(n) for n in levels])
        ax.set_yticks(range(len(bins)), bins)
        ax.set_title(plain(s), fontsize=9, color=strategy_style(s).color)
        ax.set_xlabel("compaction level")
        ax.set_ylabel("where the rule sat\n(0 = oldest turn)")
    if image is not None:
        fig.colorbar(image, ax=fig.axes, label="planted rules still usable (%)", shrink=0.8)
    pooled = [c for c in dict.fromkeys(agg.summary["cell"])] if not agg.summary.empty else []
    title = "Survival by where the rule sat in the history and by level"
    run = f"run {ctx.run_id}, " if ctx.run_id else ""
    group = f" — {cell}" if cell else ""
    fig.suptitle(plain(f"{title}{group}\n{run}{trials_text(agg, pooled or [cell])}"))
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


def _cost(ax: Any, agg: Aggregates, cell: str) -> None:
    df = agg.summary[agg.summary["cell"] == cell].reset_index(drop=True)
    cost = [float(c) for c in df["token_cost"]]
    positive = [c for c in cost if c > 0]
    edge = min(positive) / 2 if positive else 1.0  # a log axis has no 0: zero cost sits here
    silent = [100 * float(s) for s in df["silent_rate"]]
    for i, r in enumerate(df.to_dict("records")):
        st = strategy_style(r["strategy"])
        lo, hi = 100 * max(r["silent_lo"], 0.0), 100 * min(r["silent_hi"], 1.0)
        err = [[max(silent[i] - lo, 0.0)], [max(hi - silent[i], 0.0)]]
        ax.errorbar(
            max(cost[i], edge),
            silent[i],
            yerr=err,
            fmt=st.marker,
            color=st.color,
            ms=7,
            capsize=3,
            label=plain(r["strategy"]),
        )
    front = pareto_front(cost, silent)
    if front:
        fx, fy = [max(cost[i], edge) for i in front], [silent[i] for i in front]
        ax.step(fx, fy, where="post", ls="--", color="0.3", lw=1, label="Pareto front")
    ax.set_xscale("log")
    ax.set_ylim(-5, 105)
    ax.grid(alpha=0.3, which="both")


def cost_vs_silent(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Token cost per trial against silent-collapse rate, one point per strategy, the Pareto
    front drawn: what each point of safety costs."""
    fig, axes = panels(cells)
    for ax, cell in zip(axes, cells, strict=True):
        _cost(ax, agg, cell)
        panel_title(ax, cell, len(cells) > 1)
    axes[0].set_ylabel("trials that lost a rule silently (%, 95% CI)")
    fig.supxlabel(
        "token cost per trial (tokens emitted incl. pins + retry tokens; log scale; "
        "0 at the left edge)",
        fontsize=9,
    )
    fig.suptitle(title("Token cost against silent collapse", agg, ctx, cells))
    legend(fig, axes)
    return fig


def _grouped_bars(ax: Any, groups: list[str], series: dict[str, list[float]]) -> None:
    width = 0.8 / max(len(series), 1)
    for i, (name, values) in enumerate(series.items()):
        x = np.arange(len(groups)) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, values, width=width, color=strategy_style(name).color, label=plain(name))
    ax.set_xticks(range(len(groups)), [plain(g) for g in groups])
    ax.grid(alpha=0.3, axis="y")


def _blame(ax: Any, agg: Aggregates, cell: str) -> None:
    df = agg.blame[agg.blame["cell"] == cell]
    groups = [*agg.levels, NO_LOSS]
    series = {
        str(s): [100 * float(g.loc[g["blame_level"] == lv, "share"].sum()) for lv in groups]
        for s, g in df.groupby("strategy", sort=False)
    }
    _grouped_bars(ax, groups, series)
    ax.set_xticks(range(len(groups)), [*level_labels(agg, cell, agg.levels), "no loss"])
    ax.axvline(len(agg.levels) - 0.5, color="0.6", lw=0.8, ls=":")
    ax.set_ylim(0, 105)


def blame_bars(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Share of trials blamed on each level, and of those that lost nothing: where a runtime
    should look first, and how often it need not look at all."""
    fig, axes = panels(cells)
    for ax, cell in zip(axes, cells, strict=True):
        _blame(ax, agg, cell)
        panel_title(ax, cell, len(cells) > 1)
    axes[0].set_ylabel("trials (%)")
    fig.supxlabel(
        "level where a trial first lost a rule (or stopped loudly); last bar: nothing lost",
        fontsize=9,
    )
    fig.suptitle(title("Where trials first lost a rule", agg, ctx, cells))
    legend(fig, axes)
    return fig


def _retries(ax: Any, agg: Aggregates, cell: str) -> None:
    df = agg.trials[(agg.trials["cell"] == cell) & (agg.trials["error"].fillna("") == "")]
    top = int(df["retries"].max()) if len(df) else 0
    counts = [str(k) for k in range(top + 1)]
    series = {
        str(s): [100 * float((g["retries"] == k).mean()) for k in range(top + 1)]
        for s, g in df.groupby("strategy", sort=False)
    }
    _grouped_bars(ax, counts, series)
    ax.set_ylim(0, 105)


def retries_hist(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Retries per trial (floor + budget), per strategy: the price of the floor gate."""
    if "error" not in agg.trials:
        agg.trials["error"] = ""
    fig, axes = panels(cells)
    for ax, cell in zip(axes, cells, strict=True):
        _retries(ax, agg, cell)
        panel_title(ax, cell, len(cells) > 1)
    axes[0].set_ylabel("trials (%)")
    fig.supxlabel("retries in one trial (floor and budget re-asks, all levels)", fontsize=9)
    fig.suptitle(title("Retries per trial", agg, ctx, cells))
    legend(fig, axes)
    return fig


CAPTIONS = {
    "sweep": "Collapse (left: silent or loud) and silent collapse (right) in each cell of the"
    " sweep, against the swept axis, one line per strategy with its 95% Wilson band: where a"
    " line rises is where the sweep breaks a strategy.",
    "survival": "Share of live planted rules still at or above their recall floor at each level"
    " (L0 = raw turns), one line per strategy with its 95% Wilson band: where the funnel"
    " narrows is where constraints are lost.",
    "depth_heatmap": "Survival by where the rule sat in the history (rows: 0 = oldest turn)"
    " and by level (columns), one panel per strategy: the needle-in-a-haystack picture for"
    " compaction.",
    "cost_vs_silent": "Token cost per trial (tokens emitted, pins included, plus estimated retry"
    " tokens) against the silent-collapse rate, one point per strategy with its 95% interval;"
    " the dashed line is the Pareto front.",
    "blame": "Share of trials blamed on each level (the first level that held a lost rule below"
    " its floor, or that raised), and last the trials that lost nothing.",
    "retries": "How many floor and budget retries a trial needed, per strategy: the price of the"
    " floor gate.",
}

PLOTS: dict[str, Callable[[Aggregates, Sequence[str], Context], Figure]] = {
    "sweep": sweep_lines,
    "survival": survival_funnel,
    "depth_heatmap": depth_heatmap,
    "cost_vs_silent": cost_vs_silent,
    "blame": blame_bars,
    "retries": retries_hist,
}


def _slug(cell: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=]+", "_", cell)[:60] or "cell"


def _cells(agg: Aggregates, name: str) -> list[str]:
    table = agg.depth_level if name == "depth_heatmap" else agg.summary
    cells = [str(c) for c in dict.fromkeys(table["cell"])] if not table.empty else []
    data = {"survival": agg.survival, "blame": agg.blame}.get(name)
    if data is not None:  # a cell whose every trial raised has nothing to draw
        cells = [c for c in cells if not data.empty and c in set(data["cell"])]
    return cells


def plan(agg: Aggregates) -> list[tuple[str, str, tuple[str, ...]]]:
    """(file stem, plot name, cells) for every figure, nothing drawn yet: the cross-cell
    figure when there are several cells, one figure per kind (a page per twelve cells), and
    a heatmap per depth group (the depth tables pool the cells of a depth sweep)."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for name in PLOTS:
        cells = _cells(agg, name)
        if not cells:
            continue
        if name == "sweep":
            if len(cells) > 1:
                out.append(("sweep", name, tuple(cells)))
        elif name == "depth_heatmap":
            many = len(cells) > 1
            out += [
                (f"{name}-{i:02d}-{_slug(c)}" if many else name, name, (c,))
                for i, c in enumerate(cells)
            ]
        else:
            pages = [cells[i : i + PAGE] for i in range(0, len(cells), PAGE)]
            for i, page in enumerate(pages):
                out.append((name if len(pages) == 1 else f"{name}-{i + 1}", name, tuple(page)))
    return out


def figures(agg: Aggregates, ctx: Context = NO_CONTEXT) -> Iterator[tuple[str, str, Figure]]:
    """(file stem, the cell a figure is of, or "" when it covers several, figure) for every
    figure, drawn one at a time."""
    for stem, name, cells in plan(agg):
        covers = cells[0] if len(cells) == 1 else ""
        yield stem, covers, PLOTS[name](agg, cells, ctx)


def context(manifest: Mapping[str, Any]) -> Context:
    """The run id and the cells' axes, from a run's manifest."""
    return Context(str(manifest.get("run_id") or ""), run_view(dict(manifest)).axes)


Rendered = tuple[tuple[str, str, dict[str, bytes]], ...]
"""Every figure of a run, drawn once: (stem, the cell it covers, its bytes per format)."""


def render_figures(agg: Aggregates, ctx: Context = NO_CONTEXT) -> Rendered:
    """Every figure in every format, each figure built once (a report writes the files and
    shows the PNGs inline: drawing them twice took a third of `compsim report`)."""
    return tuple(
        (stem, cell, {fmt: render(fig, fmt) for fmt in FORMATS})
        for stem, cell, fig in figures(agg, ctx)
    )


def write_figures(
    agg: Aggregates,
    out_dir: str | Path,
    ctx: Context = NO_CONTEXT,
    rendered: Rendered | None = None,
) -> list[Path]:
    """Every figure as PNG and SVG under `out_dir` (`rendered`, or drawn here); returns the
    paths written. Figures left there by an earlier report of the same run (a file per cell,
    before) are removed."""
    out = Path(out_dir)
    drawn = render_figures(agg, ctx) if rendered is None else rendered
    paths = [
        write_file(out / f"{stem}.{fmt}", data[fmt]) for stem, _, data in drawn for fmt in FORMATS
    ]
    for old in out.glob("*"):
        ours = old.suffix[1:] in FORMATS and old.stem.split("-", 1)[0] in PLOTS
        if ours and old not in paths and old.is_file():
            old.unlink()
    return paths


def write_plots(run: RunLike, out_dir: str | Path, rendered: Rendered | None = None) -> list[Path]:
    """`compsim report`'s entry point: every figure of a run, PNG and SVG."""
    agg = aggregate_run(run.rows(), run.manifest)
    return write_figures(agg, out_dir, context(run.manifest), rendered)


def render_run(run: RunLike) -> Rendered:
    """Every figure of a run, drawn once for both plots/ and report.html."""
    return render_figures(aggregate_run(run.rows(), run.manifest), context(run.manifest))


__all__ = [
    "PLOTS",
    "Context",
    "RunLike",
    "context",
    "figures",
    "pareto_front",
    "plan",
    "render",
    "render_figures",
    "render_run",
    "sweep_axis",
    "write_figures",
    "write_plots",
]
