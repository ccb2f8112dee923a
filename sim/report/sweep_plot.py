"""The sweep in one figure: collapse and silent collapse in each cell against the swept axis,
one line per strategy with its 95% Wilson band; the cells themselves on the x axis when the
sweep has no single numeric axis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim.report.aggregate import Aggregates
from sim.report.figure import (
    NO_CONTEXT,
    Context,
    legend,
    new_figure,
    plain,
    strategy_style,
    title,
)
from sim.report.headline import is_reference


def _numeric(value: Any) -> float | None:
    """An axis value as a number: `0.5`, or `[0.5]` (a list of one, as depth sweeps write)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def sweep_axis(
    cells: Sequence[str], axes: Mapping[str, Mapping[str, Any]]
) -> tuple[str, list[Any]]:
    """The x axis of the cross-cell figure: the swept path and each cell's number when the
    sweep has one numeric axis, else `cell` and the cell ids (in the manifest's order)."""
    keys = {tuple(axes.get(c, {})) for c in cells}
    if len(keys) == 1 and len(next(iter(keys))) == 1:
        (path,) = next(iter(keys))
        values = [_numeric(axes[c][path]) for c in cells]
        if all(v is not None for v in values) and len(set(values)) == len(values):
            return path, values
    return "cell", list(cells)


def sweep_lines(agg: Aggregates, cells: Sequence[str], ctx: Context = NO_CONTEXT) -> Figure:
    """Collapse and silent collapse against the swept axis, one line per strategy, with
    95% Wilson bands (clamped to 0-100%): the sweep in one picture."""
    label, xs = sweep_axis(cells, ctx.axes)
    numeric = label != "cell"
    fig = new_figure(11.0, 4.6)
    panels = [fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)]
    groups = list(agg.summary.groupby("strategy", sort=False))
    groups.sort(key=lambda g: not is_reference(str(g[0])))  # baselines drawn first, beneath
    span = (max(xs) - min(xs)) if numeric and len(xs) > 1 else float(len(cells))
    dodge = 0.012 * span / max(len(groups), 1)  # lines that coincide stay visible side by side
    for ax, (rate, what) in zip(
        panels,
        (("collapsed", "collapse, silent or loud"), ("silent", "silent collapse")),
        strict=True,
    ):
        for k, (strategy, g) in enumerate(groups):
            by_cell = {str(r["cell"]): r for r in g.to_dict("records")}
            pts = [(x, by_cell[c]) for x, c in zip(xs, cells, strict=True) if c in by_cell]
            if not pts:
                continue
            x = np.array([p[0] if numeric else cells.index(p[1]["cell"]) for p in pts], float)
            x = x + (k - (len(groups) - 1) / 2) * dodge
            order = np.argsort(x, kind="stable")
            y = 100 * np.array([p[1][f"{rate}_rate"] for p in pts], float)[order]
            lo = 100 * np.clip([p[1][f"{rate}_lo"] for p in pts], 0, 1)[order]
            hi = 100 * np.clip([p[1][f"{rate}_hi"] for p in pts], 0, 1)[order]
            st = strategy_style(strategy)
            ax.fill_between(x[order], lo, hi, color=st.color, alpha=0.07, lw=0)
            ax.plot(x[order], y, marker=st.marker, ls=st.linestyle, color=st.color, lw=1.6,
                    label=plain(strategy))  # fmt: skip
        ax.set_title(plain(what))
        ax.set_ylim(-3, 103)
        ax.set_ylabel("trials (%, 95% band)")
        ax.grid(alpha=0.3)
        if numeric:
            ax.set_xlabel(plain(f"swept: {label}"))
        else:
            ax.set_xticks(range(len(cells)), [plain(c) for c in cells], rotation=30, ha="right")
            ax.set_xlabel("cell")
    fig.suptitle(title("Collapse across the sweep", agg, ctx, list(cells)))
    legend(fig, panels)
    return fig
