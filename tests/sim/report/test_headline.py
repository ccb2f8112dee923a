"""The headline: the worst cells ranked, the reference baselines never among the findings,
and `--only-failures` keeping only strategies under test that collapsed or raised."""

from __future__ import annotations

import pandas as pd

from sim.report.headline import SHOWN, failing, findings, headline_lines
from sim.report.html import render_report
from sim.report.runview import aggregate_run
from tests.sim.report.fixtures import sweep_manifest, sweep_run


def summary(rows: list[tuple[str, str, float, float, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"cell": c, "strategy": s, "silent_rate": r, "silent_lo": lo, "silent_hi": 1.0,
             "collapsed_rate": r, "trials": n, "errors": 0}
            for c, s, r, lo, n in rows
        ]
    )  # fmt: skip


def test_baselines_are_never_findings_and_the_worst_come_first() -> None:
    df = summary(
        [
            ("a", "empty", 1.0, 0.9, 50),
            ("a", "keep_all(x=1)", 0.5, 0.3, 50),
            ("a", "tail", 0.9, 0.8, 50),
            ("a", "re_ranking", 0.4, 0.2, 50),
            ("b", "re_ranking", 0.8, 0.5, 10),
            ("b", "budget_open", 0.8, 0.7, 40),  # same rate, more trials: ranks higher
            ("b", "floor_gated", 0.0, 0.0, 40),
        ]
    )
    found = findings(df)
    assert [(f.cell, f.strategy) for f in found] == [
        ("b", "budget_open"),
        ("b", "re_ranking"),
        ("a", "re_ranking"),
    ]
    text = "\n".join(headline_lines(df))
    assert "empty at" not in text and "tail at" not in text and "keep_all(x=1) at" not in text
    assert "baselines empty, keep_all(x=1), tail are not ranked" in text
    assert list(failing(df)["strategy"]) == ["re_ranking", "re_ranking", "budget_open"]


def test_a_sweep_headline_is_short_and_counts_the_rest() -> None:
    rows, traces = sweep_run()
    agg = aggregate_run(rows, sweep_manifest())
    lines = headline_lines(agg.summary)
    assert len(lines) <= SHOWN + 3
    assert lines[-1].strip().startswith("and ") and "more with silent collapse" in lines[-1]
    page = render_report(rows, traces, sweep_manifest(), plots=False)
    head = page[page.index("<header>") : page.index("</header>")]
    assert head.count("<li>") == SHOWN
    assert "empty at" not in head and "keep_all at" not in head
    assert "Baselines (empty, keep_all)" in head


def test_no_silent_collapse_says_so() -> None:
    df = summary([("", "floor_gated", 0.0, 0.0, 10), ("", "empty", 1.0, 0.7, 10)])
    assert headline_lines(df) == [
        "No silent collapse outside the baselines. (baselines empty are not ranked)"
    ]
