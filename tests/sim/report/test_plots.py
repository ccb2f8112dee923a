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
        f"{n}.{x}" for n in PLOTS for x in ("png", "svg")
    )
    for p in paths:
        data = p.read_bytes()
        assert len(data) > 5000, p
        if p.suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
        else:
            assert (
                b"<svg" in data
                and b"Survival funnel" in (tmp_path / "plots/survival.svg").read_bytes()
            )
    assert not list((tmp_path / "plots").glob("*.tmp"))


def test_same_data_gives_same_bytes() -> None:
    rows, _ = tiny_run()
    first, again = aggregate(rows), aggregate(list(reversed(rows)), strategies=STRATEGIES)
    a, b = PLOTS["survival"](first, CELL), PLOTS["survival"](again, CELL)
    svg = render(a, "svg")
    assert svg == render(b, "svg") and b"Date" not in svg
    assert render(a, "png") == render(b, "png")


def test_a_run_with_several_cells_gets_one_set_of_figures_per_cell() -> None:
    rows, _ = tiny_run()
    other = [{**r, "cell": "depth=$0.5 <x>"} for r in rows]
    stems = [stem for stem, _, _ in plan(aggregate(rows + other, cells=["tiny", other[0]["cell"]]))]
    assert len(stems) == 2 * len(PLOTS)
    assert "survival-00-tiny" in stems  # the manifest's cell order wins over names
    assert "survival-01-depth=_0.5_x_" in stems  # `$` would start mathtext; `<` is no file name


def test_pareto_front_keeps_only_undominated_points() -> None:
    cost = [0.0, 100.0, 200.0, 150.0, 300.0]
    silent = [100.0, 40.0, 0.0, 50.0, 0.0]
    assert pareto_front(cost, silent) == [0, 1, 2]
    assert pareto_front([], []) == []
