"""What the tables, plots and report read from a run beyond its rows: the manifest's order of
cells and strategies, and which cells differ only in where the facts were planted.

A depth sweep puts each depth in its own cell; the depth tables and the depth × level heatmap
pool those cells, so one heatmap spans every depth, as the needle-in-a-haystack picture needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sim.report.aggregate import Aggregates, aggregate


class RunLike(Protocol):
    """What the plots and the report need of a loaded run (sim.runs.results.Run)."""

    manifest: dict[str, Any]
    traces: list[dict[str, Any]]

    def rows(self) -> Iterable[dict[str, Any]]: ...


@dataclass(frozen=True)
class RunView:
    cells: list[str] = field(default_factory=list)
    strategies: list[str] = field(default_factory=list)
    depth_groups: dict[str, str] = field(default_factory=dict)
    axes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """cell id -> its sweep axes (dotted path -> value), for the cross-cell plot."""


def _is_depth_axis(path: str) -> bool:
    return "depth" in path.rsplit(".", 1)[-1]


def run_view(manifest: dict[str, Any]) -> RunView:
    """Cell ids and strategy keys in scenario order, and each cell's depth group: its sweep
    axes other than depth (cells of a pure depth sweep share the group "")."""
    cells = [c for c in manifest.get("cells") or () if isinstance(c, dict)]
    strategies: dict[str, None] = {}
    groups: dict[str, str] = {}
    for cell in cells:
        strategies.update((str(s.get("key")), None) for s in cell.get("strategies") or ())
        raw = cell.get("axes")
        axes: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if any(_is_depth_axis(k) for k in axes):
            rest = sorted((k, v) for k, v in axes.items() if not _is_depth_axis(k))
            groups[str(cell.get("id"))] = ",".join(
                f"{k.rsplit('.', 1)[-1]}={json.dumps(v, separators=(',', ':'))}" for k, v in rest
            )
    axes_of = {str(c.get("id")): dict(c["axes"]) for c in cells if isinstance(c.get("axes"), dict)}
    return RunView([str(c.get("id")) for c in cells], list(strategies), groups, axes_of)


def aggregate_run(rows: Iterable[dict[str, Any]], manifest: dict[str, Any]) -> Aggregates:
    """The aggregates of a run, ordered and pooled as its manifest says."""
    view = run_view(manifest)
    return aggregate(
        rows, strategies=view.strategies, cells=view.cells, depth_groups=view.depth_groups
    )
