"""What every figure of the report shares: reproducible rendering, the run's context for
titles (its id, its cells' axes), one colour per strategy (sim.report.colors), plain titles
that name the run and its trials, one legend a figure, and panels a cell.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from sim.report.aggregate import Aggregates
from sim.report.colors import Style, style

FORMATS = ("png", "svg")
RC: dict[Any, Any] = {"svg.hashsalt": "compaction-sim", "svg.fonttype": "path", "font.size": 9.0}
METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None}}
PAGE = 12
"""Panels per figure in a sweep; more cells make more pages."""
COLS = 4


@dataclass(frozen=True)
class Context:
    """What a figure says about the run beyond the aggregates: its id and its cells' axes."""

    run_id: str = ""
    axes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


NO_CONTEXT = Context()
"""A figure drawn without a run (tests, a notebook): no run id, no axes."""


def plain(text: object) -> str:
    """Scenario text shown as-is: `$` would otherwise start matplotlib's mathtext."""
    return str(text).replace("$", r"\$")


def render(fig: Figure, fmt: str) -> bytes:
    """A figure's bytes in `fmt` (png or svg), reproducibly."""
    buf = io.BytesIO()
    with matplotlib.rc_context(RC):
        fig.savefig(buf, format=fmt, dpi=100, metadata=METADATA[fmt])
    return buf.getvalue()


def new_figure(width: float = 8.0, height: float = 4.8) -> Figure:
    with matplotlib.rc_context(RC):
        return Figure(figsize=(width, height), layout="constrained")


def strategy_style(key: object) -> Style:
    return style(str(key))


def level_labels(agg: Aggregates, cell: str, levels: Iterable[str]) -> list[str]:
    """`L2` over its budget (`512 tok`); L0 is the raw turns."""
    out = []
    for name in levels:
        budget = agg.budgets.get((cell, name))
        under = "raw" if name == "L0" else (f"{budget} tok" if budget is not None else "")
        out.append(plain(f"{name}\n{under}" if under else name))
    return out


def trials_text(agg: Aggregates, cells: Sequence[str]) -> str:
    s = agg.summary
    s = s[s["cell"].isin(cells)] if not s.empty else s
    if s.empty:
        return "no trials"
    lo, hi = int(s["trials"].min()), int(s["trials"].max())
    n = f"{lo}" if lo == hi else f"{lo}-{hi}"
    return f"{n} trials per strategy" + (" per cell" if len(cells) > 1 else "")


def title(what: str, agg: Aggregates, ctx: Context, cells: Sequence[str]) -> str:
    """`What it shows`, then the run and the trials behind it (and the cell, when one)."""
    run = f"run {ctx.run_id}, " if ctx.run_id else ""
    one = f" — cell {cells[0]}" if len(cells) == 1 and cells[0] else ""
    return plain(f"{what}{one}\n{run}{trials_text(agg, cells)}")


def legend(fig: Figure, ax_or_axes: Any) -> None:
    """One legend for the figure, right of the panels, each strategy once."""
    seen: dict[str, Any] = {}
    axes = ax_or_axes if isinstance(ax_or_axes, list) else [ax_or_axes]
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, handle)
    if seen:
        fig.legend(list(seen.values()), list(seen), fontsize=8, loc="outside right upper")


def panels(cells: Sequence[str]) -> tuple[Figure, list[Any]]:
    if len(cells) <= 1:
        fig = new_figure()
        return fig, [fig.add_subplot()]
    cols = min(COLS, len(cells))
    rows = -(-len(cells) // cols)
    fig = new_figure(3.4 * cols + 2.2, 2.9 * rows + 1.0)
    axes = [fig.add_subplot(rows, cols, k + 1) for k in range(len(cells))]
    return fig, axes


def panel_title(ax: Any, cell: str, many: bool) -> None:
    if many:
        ax.set_title(plain(cell or "(no cell)"), fontsize=8)
