"""Plots: written and non-empty for a tiny run, byte-identical for identical data."""

from __future__ import annotations

from pathlib import Path

from sim.report.aggregate import aggregate
from sim.report.plots import PLOTS, pareto_front, plan, render, write_plots
from tests.sim.report.fixtures import CELL, STRATEGIES, FakeRun, tiny_run


def test_every_plot_is_written_as_png_and_svg(tmp_path: Path) -> None:
    rows, traces = tiny_run()
    paths = write_plots(FakeRun(tmp_path, rows, traces), tmp_path / "plots")
    assert sorted(p.name for p in paths) == sorted(
        f"{n}.{x}" for n in PLOTS if n != "sweep" for x in ("png", "svg")
    )  # one cell: no figure across cells
    for p in paths:
        data = p.read_bytes()
        assert len(data) > 5000, p
        if p.suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
        else:
            assert (
                b"<svg" in data
                and b"Survival" in (tmp_path / "plots/survival.svg").read_bytes()
            )
    assert not list((tmp_path / "plots").glob("*.tmp"))


def test_same_data_gives_same_bytes() -> None:
    rows, _ = tiny_run()
    first, again = aggregate(rows), aggregate(list(reversed(rows)), strategies=STRATEGIES)
    a, b = PLOTS["survival"](first, [CELL]), PLOTS["survival"](again, [CELL])
    svg = render(a, "svg")
    assert svg == render(b, "svg") and b"Date" not in svg
    assert render(a, "png") == render(b, "png")


def test_a_sweep_gets_one_figure_per_kind_and_one_across_cells() -> None:
    rows, _ = tiny_run()
    other = [{**r, "cell": "depth=$0.5 <x>"} for r in rows]
    agg = aggregate(rows + other, cells=["tiny", other[0]["cell"]])
    planned = plan(agg)
    stems = [stem for stem, _, _ in planned]
    assert stems[0] == "sweep" and planned[0][2] == ("tiny", "depth=$0.5 <x>")
    assert {"survival", "blame", "cost_vs_silent", "retries"} <= set(stems)
    assert "depth_heatmap-00-tiny" in stems  # the manifest's cell order wins over names
    assert "depth_heatmap-01-depth=_0.5_x_" in stems  # `$` starts mathtext; `<` no file name
    assert len(stems) == len(PLOTS) + 1  # two heatmaps (the cells are no depth sweep)


def test_many_cells_make_pages_of_twelve_panels_not_a_file_each() -> None:
    rows, _ = tiny_run()
    many = [{**r, "cell": f"c{i:02d}"} for i in range(13) for r in rows]
    stems = [stem for stem, name, _ in plan(aggregate(many)) if name == "survival"]
    assert stems == ["survival-1", "survival-2"]


def test_pareto_front_keeps_only_undominated_points() -> None:
    cost = [0.0, 100.0, 200.0, 150.0, 300.0]
    silent = [100.0, 40.0, 0.0, 50.0, 0.0]
    assert pareto_front(cost, silent) == [0, 1, 2]
    assert pareto_front([], []) == []
