"""Aggregates on hand-made rows: known rates, Wilson bounds, survival, blame, class and depth."""

from __future__ import annotations

import random
from typing import Any

import pandas as pd
import pytest

from sim.errors import ReportError
from sim.report.aggregate import aggregate, facts_frame, summarize
from sim.report.runview import aggregate_run, run_view
from sim.report.tables import align, format_all, format_table, write_csv
from sim.runs.records import retry_tokens

LEVELS = ("L1", "L2")


def level(name: str, **kw: Any) -> dict[str, Any]:
    base = {"name": name, "budget_tokens": 100, "tokens_in": 0, "tokens_out": 0, "calls": 1}
    base.update({"floor_retries": 0, "budget_retries": 0, "pin_tokens": 0})
    return {**base, **kw}


def fact(
    fid: str,
    grades: list[str],
    *,
    cls: str = "prohibition",
    depth: float = 0.1,
    l0: str | None = "verbatim",
    superseded: bool = False,
    loud: bool = False,
    missing: list[list[str]] | None = None,
) -> dict[str, Any]:
    lost = not superseded and grades[-1] not in ("verbatim", "actionable")
    blame = None
    if lost:
        chain = [l0 or "verbatim", *grades]
        k = next(i for i, g in enumerate(chain) if g not in ("verbatim", "actionable"))
        blame = ("L0", *LEVELS)[k]
    return {
        "fact_id": fid,
        "cls": cls,
        "declared": True,
        "superseded": superseded,
        "turn": 1,
        "depth": depth,
        "l0_grade": l0,
        "grades": grades,
        "missing": missing if missing is not None else [[] for _ in grades],
        "leaf": grades[-1],
        "lost": lost,
        "loud": loud and lost,
        "blame_level": blame,
    }


def row(
    trial: int,
    strategy: str,
    facts: list[dict[str, Any]],
    *,
    cell: str = "c",
    levels: list[dict[str, Any]] | None = None,
    aborted_at: str | None = None,
) -> dict[str, Any]:
    levels = levels if levels is not None else [level(n) for n in LEVELS]
    lost = [f for f in facts if f["lost"]]
    blames = [f["blame_level"] for f in lost] + ([aborted_at] if aborted_at else [])
    return {
        "trial_id": f"{trial:06d}:{strategy}",
        "trial": trial,
        "cell": cell,
        "strategy": strategy,
        "collapsed": bool(lost),
        "silent": any(not f["loud"] for f in lost),
        "loud": aborted_at is not None or any(f["loud"] for f in lost),
        "blame_level": min(blames) if blames else None,
        "aborted_at": aborted_at,
        "error": None,
        "tokens_read": 100,
        "tokens_emitted": 20,
        "tokens_unread": 0,
        "pin_tokens": 0,
        "calls": 2,
        "floor_retries": sum(lv["floor_retries"] for lv in levels),
        "budget_retries": sum(lv["budget_retries"] for lv in levels),
        "levels": levels,
        "facts": facts,
    }


KEPT = ["verbatim", "actionable"]
GONE_L1 = ["dropped", "dropped"]
GONE_L2 = ["verbatim", "degraded"]


def ten_trials() -> list[dict[str, Any]]:
    """Strategy `a`: 3 of 10 trials collapse (2 silent at L1/L2, 1 loud at L2)."""
    rows = []
    for t in range(10):
        if t == 0:
            facts = [fact("f1", GONE_L1)]
        elif t == 1:
            facts = [fact("f1", GONE_L2)]
        elif t == 2:
            facts = [fact("f1", GONE_L2, loud=True)]
        else:
            facts = [fact("f1", KEPT)]
        rows.append(row(t, "a", facts))
        rows.append(row(t, "b", [fact("f1", KEPT)]))
    return rows


def test_rates_and_wilson_bounds_match_published_values() -> None:
    s = summarize(ten_trials(), by=("cell", "strategy")).set_index("strategy")
    a = s.loc["a"]
    assert a["trials"] == 10 and a["errors"] == 0
    assert a["collapsed_rate"] == pytest.approx(0.3)
    # Wilson 95% for 3/10 and 2/10 (Newcombe 1998, table I): [0.1078, 0.6032], [0.0567, 0.5098]
    assert (a["collapsed_lo"], a["collapsed_hi"]) == pytest.approx((0.1078, 0.6032), abs=1e-4)
    assert a["silent_rate"] == pytest.approx(0.2)
    assert (a["silent_lo"], a["silent_hi"]) == pytest.approx((0.0567, 0.5098), abs=1e-4)
    assert a["loud_rate"] == pytest.approx(0.1)
    b = s.loc["b"]
    assert b["collapsed_rate"] == 0.0 and b["collapsed_lo"] == 0.0
    assert b["collapsed_hi"] == pytest.approx(0.2775, abs=1e-4)  # Wilson 0/10
    assert b["blame_level"] == "-"


def test_errored_trials_are_counted_apart_and_never_enter_a_rate() -> None:
    rows = ten_trials()
    rows.append({"trial_id": "000010:a", "trial": 10, "cell": "c", "strategy": "a", "error": "X"})
    a = summarize(rows, by=("cell", "strategy")).set_index("strategy").loc["a"]
    assert (a["trials"], a["errors"]) == (10, 1)
    assert a["collapsed_rate"] == pytest.approx(0.3)
    assert len(facts_frame(rows)) == 20 * 3  # 20 good trials x 1 fact x (L0, L1, L2)


def test_survival_counts_floored_facts_per_level_including_l0() -> None:
    rows = [
        row(0, "a", [fact("f1", KEPT), fact("f2", GONE_L1), fact("f3", GONE_L1, superseded=True)]),
        row(1, "a", [fact("f1", GONE_L2), fact("f2", KEPT, l0=None)]),
    ]
    surv = aggregate(rows).survival.set_index("level")
    assert list(surv.index) == ["L0", "L1", "L2"]
    # 4 floored facts (the superseded one is left out): L0 4/4, L1 3/4, L2 2/4
    assert list(surv["facts"]) == [4, 4, 4]
    assert list(surv["at_floor"]) == [4, 3, 2]
    assert surv.loc["L2", "survival_rate"] == pytest.approx(0.5)
    assert surv.loc["L2", "survival_lo"] < 0.5 < surv.loc["L2", "survival_hi"]


def test_l0_grade_is_inferred_for_rows_without_it() -> None:
    lost_at_l0 = fact("f1", GONE_L1, l0=None)
    lost_at_l0["blame_level"] = "L0"
    df = facts_frame([row(0, "a", [lost_at_l0, fact("f2", GONE_L1, l0=None)])])
    l0 = df[df["level"] == "L0"].set_index("fact_id")
    assert not l0.loc["f1", "at_floor"] and l0.loc["f2", "at_floor"]


def test_aborted_trials_count_only_the_levels_they_reached() -> None:
    aborted = row(1, "a", [fact("f1", ["verbatim"])], levels=[level("L1")], aborted_at="L2")
    rows = [row(0, "a", [fact("f1", KEPT)]), aborted]
    agg = aggregate(rows)
    surv = agg.survival.set_index("level")
    assert list(surv["trials"]) == [2, 2, 1]
    assert agg.levels == ("L0", "L1", "L2")
    blame = agg.blame.set_index("blame_level")["trials_blamed"]
    assert blame.to_dict() == {"L0": 0, "L1": 0, "L2": 1, "no loss": 1}


def test_blame_lists_every_level_with_counts_and_shares() -> None:
    blame = aggregate(ten_trials()).blame
    a = blame[blame["strategy"] == "a"].set_index("blame_level")
    assert list(a.index) == ["L0", "L1", "L2", "no loss"]
    assert list(a["trials_blamed"]) == [0, 1, 2, 7]  # the shares add up to all trials
    assert a["share"].sum() == pytest.approx(1.0)
    assert a.loc["L2", "share"] == pytest.approx(0.2)
    assert a.loc["L2", "share_of_collapsed"] == pytest.approx(2 / 3)
    assert a.loc["no loss", "share_of_collapsed"] == 0.0


def test_diagnosis_counts_lost_facts_by_level_grade_and_missing_anchors() -> None:
    step_lost = [[], ["condition"]]
    rows = [
        row(0, "a", [fact("f1", GONE_L2, missing=step_lost), fact("f2", KEPT)]),
        row(1, "a", [fact("f1", GONE_L2, missing=step_lost, loud=True)]),
        row(2, "a", [fact("f1", GONE_L2, missing=step_lost)]),
        row(3, "b", [fact("f1", GONE_L1, missing=[["action", "object"], ["object"]])]),
    ]
    diag = aggregate(rows).diagnosis
    assert diag.to_dict("records") == [
        {"cell": "c", "strategy": "a", "cls": "prohibition", "blame_level": "L2",
         "grade": "degraded", "missing": "condition", "how": "silent", "facts": 2},
        {"cell": "c", "strategy": "a", "cls": "prohibition", "blame_level": "L2",
         "grade": "degraded", "missing": "condition", "how": "loud", "facts": 1},
        {"cell": "c", "strategy": "b", "cls": "prohibition", "blame_level": "L1",
         "grade": "dropped", "missing": "action, object", "how": "silent", "facts": 1},
    ]  # fmt: skip


def test_level_budgets_are_kept_for_axis_labels() -> None:
    levels = [level("L1", budget_tokens=600), level("L2", budget_tokens=150)]
    agg = aggregate([row(0, "a", [fact("f1", KEPT)], levels=levels)])
    assert agg.budgets == {("c", "L1"): 600, ("c", "L2"): 150}


def test_rates_by_class_and_depth_bin() -> None:
    rows = [
        row(
            0, "a", [fact("f1", GONE_L1, cls="ordering", depth=0.05), fact("f2", KEPT, depth=0.95)]
        ),
        row(1, "a", [fact("f1", KEPT, cls="ordering", depth=0.15), fact("f2", KEPT, depth=1.0)]),
    ]
    agg = aggregate(rows)
    by_class = agg.by_class.set_index("cls")
    assert by_class.loc["ordering", "facts"] == 2
    assert by_class.loc["ordering", "collapsed_rate"] == pytest.approx(0.5)
    assert by_class.loc["prohibition", "collapsed_rate"] == 0.0
    by_depth = agg.by_depth.set_index("depth_bin")
    assert list(by_depth.index) == ["0.0-0.2", "0.8-1.0"]  # depth 1.0 falls in the last bin
    assert by_depth.loc["0.0-0.2", "silent_rate"] == pytest.approx(0.5)
    heat = agg.depth_level
    cell = heat[(heat["depth_bin"] == "0.0-0.2") & (heat["level"] == "L1")]
    assert cell["survival"].iloc[0] == pytest.approx(0.5)


def test_retry_tokens_charge_each_retry_one_average_fresh_call() -> None:
    lv = level("L1", tokens_in=400, tokens_out=100, calls=5, floor_retries=1)
    assert retry_tokens({"levels": [lv]}) == pytest.approx(125.0)
    assert retry_tokens({"levels": [level("L1", tokens_in=400)]}) == 0.0


def test_row_order_does_not_change_any_table() -> None:
    rows = ten_trials()
    shuffled = rows[:]
    random.Random(7).shuffle(shuffled)
    a, b = aggregate(rows, strategies=("a", "b")), aggregate(shuffled, strategies=("a", "b"))
    for name in ("summary", "survival", "blame", "by_class", "by_depth", "depth_level"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))


def test_csv_bytes_are_reproducible(tmp_path: Any) -> None:
    rows = ten_trials()
    units = [rows[i : i + 2] for i in range(0, len(rows), 2)]  # one trial's rows, written together
    reordered = [r for unit in reversed(units) for r in unit]
    first = write_csv(aggregate(rows), tmp_path / "a")
    second = write_csv(aggregate(reordered), tmp_path / "b")
    assert [p.name for p in first] == [p.name for p in second]
    for x, y in zip(first, second, strict=True):
        assert x.read_bytes() == y.read_bytes() and x.read_bytes()
    head = (tmp_path / "a" / "summary.csv").read_text().splitlines()[0]
    assert head.startswith("cell,strategy,trials,errors,collapsed_rate,collapsed_lo")


def test_terminal_tables_are_aligned_and_legacy_table_still_works() -> None:
    rows = ten_trials()
    text = format_all(aggregate(rows))
    for block in text.split("\n\n")[1:]:  # the headline first, then the tables
        head, rule = block.splitlines()[1:3]  # below the section title
        assert set(rule) <= {"-", " "} and len(rule) == len(head.rstrip()), block
    legacy = format_table(summarize(rows), wide=True)
    assert legacy.splitlines()[0].startswith("strategy")
    assert "  30.0% [10.8, 60.3]" in legacy
    assert align(["x", "n"], [["long-name", "1"]]).splitlines()[2] == "long-name  1"


def test_empty_input_gives_empty_tables() -> None:
    agg = aggregate([])
    assert agg.summary.empty and agg.survival.empty
    assert "(no trials)" in format_all(agg)


def test_depth_groups_pool_the_cells_of_a_depth_sweep() -> None:
    manifest = {
        "cells": [
            {"id": f"depths=[{d}]", "axes": {"constraints.depths": [d]}, "strategies": []}
            for d in (0.1, 0.9)
        ]
        + [{"id": "ladder=tight", "axes": {"ladder": "tight"}, "strategies": [{"key": "a"}]}]
    }
    view = run_view(manifest)
    assert view.depth_groups == {"depths=[0.1]": "", "depths=[0.9]": ""}
    assert view.cells == ["depths=[0.1]", "depths=[0.9]", "ladder=tight"]
    rows = [
        row(0, "a", [fact("f1", GONE_L1, depth=0.1)], cell="depths=[0.1]"),
        row(0, "a", [fact("f1", KEPT, depth=0.9)], cell="depths=[0.9]"),
    ]
    agg = aggregate_run(rows, manifest)
    assert set(agg.depth_level["cell"]) == {""}  # one heatmap spans every depth
    assert list(agg.by_depth["depth_bin"]) == ["0.0-0.2", "0.8-1.0"]
    assert list(agg.by_depth["collapsed_rate"]) == [1.0, 0.0]
    assert set(agg.summary["cell"]) == {"depths=[0.1]", "depths=[0.9]"}  # rates stay per cell


def test_a_malformed_row_is_one_line_naming_the_row_and_field() -> None:
    rows = ten_trials()
    del rows[3]["facts"]
    with pytest.raises(ReportError, match=r"^trial row 4 \(000001:b\): no field 'facts'$"):
        aggregate(rows)
    rows = ten_trials()
    rows[0]["facts"][0]["grades"] = ["verbatim"]
    with pytest.raises(ReportError, match="fact f1: grades do not match levels"):
        aggregate(rows)


def test_an_unwritable_output_is_one_line_naming_the_path(tmp_path: Any) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(
        ReportError, match=r"file/csv/summary.csv: cannot write \(Not a directory\)$"
    ):
        write_csv(aggregate(ten_trials()), blocker / "csv")
