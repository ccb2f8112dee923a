"""The first counter in the tables: a strategy that keeps every fact by ignoring the budget
(keep_all) must not look perfect — its trials count as over budget."""

from __future__ import annotations

from pathlib import Path

from sim.report.aggregate import summarize
from sim.report.tables import format_table
from sim.runs.grid import load_grid
from sim.runs.records import trial_row
from sim.runs.summary import summarize_stream
from sim.runs.trial import run_scenario_trial

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "tiny.toml"


def _rows() -> list[dict[str, object]]:
    grid = load_grid(str(TINY), ["trials=2", "strategies=['keep_all','floor_gated']"])
    scenario = grid.cells[0].scenario
    return [trial_row(r, t) for t in range(2) for r in run_scenario_trial(scenario, t)]


def test_keep_all_is_over_budget_and_the_gate_is_not() -> None:
    rows = _rows()
    by_strategy = {r["strategy"]: r for r in rows}
    assert by_strategy["keep_all"]["over_budget"] is True
    assert by_strategy["floor_gated"]["over_budget"] is False
    frame = summarize(rows)
    rates = dict(zip(frame["strategy"], frame["over_budget_rate"], strict=True))
    assert rates == {"keep_all": 1.0, "floor_gated": 0.0}
    streamed = summarize_stream(rows, [("", "keep_all"), ("", "floor_gated")])
    assert [g["over_budget_rate"] for g in streamed] == [1.0, 0.0]
    table = format_table(frame)
    assert "over budget" in table.splitlines()[0]
    assert "100.0%" in next(line for line in table.splitlines() if line.startswith("keep_all"))


def test_rows_from_before_the_counter_still_summarize() -> None:
    rows = [{k: v for k, v in r.items() if k != "over_budget"} for r in _rows()]
    streamed = summarize_stream(rows, [("", "keep_all"), ("", "floor_gated")])
    assert [g["over_budget_rate"] for g in streamed] == [0.0, 0.0]
    assert "over budget" in format_table(summarize(rows)).splitlines()[0]
