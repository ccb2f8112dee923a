"""Plots: written and non-empty for a tiny run, byte-identical for identical data."""

from __future__ import annotations

from pathlib import Path

from sim.report.aggregate import aggregate
from sim.report.plots import PLOTS, Context, pareto_front, plan, render, sweep_axis, write_plots
from tests.sim.report.fixtures import (
    CELL,
    STRATEGIES,
    FakeRun,
    sweep_manifest,
    sweep_run,
    tiny_run,
)


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
            assert b"<svg" in data and b"Survival" in (tmp_path / "plots/survival.svg").read_bytes()
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


def test_the_blame_plot_has_a_no_loss_bar_and_the_bars_add_up() -> None:
    rows, _ = tiny_run()
    fig = PLOTS["blame"](aggregate(rows), [CELL])
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[-1] == "no loss"
    for container in ax.containers:
        total = sum(p.get_height() for p in container.patches)
        assert abs(total - 100.0) < 1e-6, container.get_label()  # every trial somewhere


def test_titles_name_the_run_and_its_trials_in_plain_words() -> None:
    rows, _ = tiny_run()
    ctx = Context(run_id="tiny-run")
    for name in PLOTS:
        if name == "sweep":
            continue
        fig = PLOTS[name](aggregate(rows), [CELL], ctx)
        title = fig.get_suptitle()
        assert "run tiny-run" in title and "4 trials per strategy" in title, (name, title)
        texts = [ax.get_ylabel() for ax in fig.axes] + [title]
        assert not any("floored" in t or "at or above floor" in t for t in texts), texts


def test_the_cross_cell_figure_puts_each_strategy_on_the_swept_axis_with_bands() -> None:
    rows, _ = tiny_run()
    cells = [f"depths=[{d}]" for d in (0.5, 0.05, 0.95)]
    sweep = [{**r, "cell": c} for c in cells for r in rows]
    axes = {c: {"constraints.depths": [float(c[8:-1])]} for c in cells}
    assert sweep_axis(cells, axes) == ("constraints.depths", [0.5, 0.05, 0.95])
    assert sweep_axis(cells, {})[0] == "cell"
    agg = aggregate(sweep, cells=cells)
    fig = PLOTS["sweep"](agg, cells, Context("sw", axes))
    collapse, silent = fig.axes[:2]
    assert collapse.get_xlabel() == "swept: constraints.depths"
    for ax in (collapse, silent):
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        assert set(lines) == set(STRATEGIES)
        xs = list(lines["re_ranking"].get_xdata())
        assert xs == sorted(xs)  # drawn in axis order (a little apart, so lines that coincide show)
        assert all(abs(a - b) < 0.02 for a, b in zip(xs, (0.05, 0.5, 0.95), strict=True))
        bands = ax.collections
        assert len(bands) == len(STRATEGIES)
        for band in bands:  # Wilson bands, within 0-100%
            ys = [y for path in band.get_paths() for _, y in path.vertices]
            assert min(ys) >= 0.0 and max(ys) <= 100.0
    assert "3 cells" not in fig.get_suptitle() and "run sw" in fig.get_suptitle()


def test_a_sweep_writes_a_dozen_files_not_one_per_cell(tmp_path: Path) -> None:
    rows, traces = sweep_run()
    out = tmp_path / "plots"
    out.mkdir()
    (out / "survival-03-old_cell.png").write_bytes(b"stale")  # an earlier report's file
    (out / "mine.png").write_bytes(b"keep")
    paths = write_plots(FakeRun(tmp_path, rows, traces, sweep_manifest()), out)
    kinds = {p.stem.split("-", 1)[0] for p in paths}
    assert kinds == set(PLOTS)
    # one figure per kind; a heatmap per depth group: the six depth cells pool into one,
    # the four cells that sweep other axes keep theirs (82 files before, for ten cells)
    assert len(paths) == 2 * (len(PLOTS) - 1 + 5)
    assert not (out / "survival-03-old_cell.png").exists() and (out / "mine.png").exists()
