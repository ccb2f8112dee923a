"""One colour per strategy, fixed across every plot and every run."""

from __future__ import annotations

from matplotlib.colors import to_hex

from sim.report.aggregate import aggregate
from sim.report.colors import FIXED, style
from sim.report.plots import PLOTS
from tests.sim.report.fixtures import CELL, tiny_run


def _line_colours(fig) -> dict[str, str]:  # type: ignore[no-untyped-def]
    out = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            if not line.get_label().startswith("_"):
                out[line.get_label()] = to_hex(line.get_color())
    return out


def test_shipped_strategies_have_fixed_distinct_slots() -> None:
    assert to_hex(style("floor_gated").color) == "#2ca02c"  # green, documented
    assert to_hex(style("re_ranking").color) == "#d62728"  # red
    assert to_hex(style("keep_all").color) == "#7f7f7f"  # grey
    assert len({to_hex(c) for c in FIXED.values()}) == len(FIXED)


def test_a_colour_depends_on_the_name_alone() -> None:
    assert to_hex(style("my_compactor").color) == "#843c39"  # pinned: the same in every run
    assert style("my_compactor") == style("my_compactor")
    variant = style("floor_gated(max_retries=1)")
    assert variant.color == style("floor_gated").color and variant.linestyle == "--"
    assert to_hex(style("other_compactor").color) not in {to_hex(c) for c in FIXED.values()}


def test_the_same_strategy_keeps_its_colour_whatever_the_run_holds() -> None:
    rows, _ = tiny_run()
    alone = [r for r in rows if r["strategy"] == "floor_gated"]
    first = _line_colours(PLOTS["survival"](aggregate(rows), [CELL]))
    second = _line_colours(PLOTS["survival"](aggregate(alone), [CELL]))
    reordered = _line_colours(
        PLOTS["survival"](aggregate(rows, strategies=["budget_open", "floor_gated"]), [CELL])
    )
    assert first["floor_gated"] == second["floor_gated"] == reordered["floor_gated"]
    assert first["floor_gated"] == to_hex(style("floor_gated").color)
