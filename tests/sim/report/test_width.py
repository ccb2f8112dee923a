"""Every default table fits 100 columns: `compsim report` on a run and on a 10-cell sweep with
long cell ids and a long strategy key, `compsim run`'s summary, bench and check; `--wide`
shows every column; names cut to fit are written out in full."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.commands.bench import case_table
from sim.commands.main import main
from sim.regression.baseline import write_baseline
from sim.regression.suite_run import load_outcomes
from sim.report.aggregate import aggregate
from sim.report.fit import WIDTH, fit, too_wide
from sim.report.runview import aggregate_run
from sim.report.tables import format_all, format_summary
from tests.sim.report.fixtures import LONG_KEY, sweep_manifest, sweep_run, tiny_run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"


def sweep_agg():  # type: ignore[no-untyped-def]
    rows, _ = sweep_run()
    return aggregate_run(rows, sweep_manifest())


@pytest.mark.parametrize("only", [False, True])
def test_every_default_table_of_a_run_and_a_sweep_fits_100_columns(only: bool) -> None:
    for agg in (aggregate(tiny_run()[0]), sweep_agg()):
        text = format_all(agg, only_failures=only)
        assert too_wide(text) == [], "\n".join(too_wide(text))


def test_a_10_cell_sweep_is_short_and_wide_shows_every_table() -> None:
    agg = sweep_agg()
    short, wide = format_all(agg), format_all(agg, wide=True)
    assert len(short.splitlines()) <= 40  # was 292 lines for the depth sweep
    assert "## Rates per trial" not in short and "--wide" in short
    assert "never read" in wide and "## Survival" in wide and LONG_KEY in wide
    assert max(len(line) for line in wide.splitlines()) > WIDTH  # nothing was cut there


def test_a_long_strategy_key_is_wrapped_or_cut_but_always_named_in_full() -> None:
    rows = [{**r, "strategy": LONG_KEY * 2} for r in tiny_run()[0]]
    text = format_all(aggregate(rows))
    assert too_wide(text) == []
    assert "names cut to fit" in text and (LONG_KEY * 2)[:60] in text.replace("\n    ", "")


def test_run_summary_fits(capsys: pytest.CaptureFixture[str]) -> None:
    agg = sweep_agg()
    for summary in (agg.summary, agg.summary[agg.summary["cell"] == agg.summary["cell"][0]]):
        assert too_wide(format_summary(summary)) == []


def test_bench_and_check_tables_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    per = {k: {"trials": 20, "collapse_rate": 1.0, "silent_collapse_rate": 0.95,
               "loud_failure_rate": 0.05, "retries_per_trial": 1.25, "tokens_emitted": 12345.0}
           for k in (LONG_KEY, "keep_all", "empty")}  # fmt: skip
    assert too_wide(case_table(per)) == []
    base = tmp_path / "compress.json"
    write_baseline(load_outcomes(FIXTURES / "compress"), base)
    argv = ["check", str(FIXTURES / "continuity"), "--baseline", str(base)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    tables = [ln for ln in out.splitlines() if not ln.startswith(("REGRESSED:", "INCONCLUSIVE:"))]
    assert too_wide("\n".join(tables)) == []  # the findings are sentences, one a line
    assert main([*argv, "--wide"]) == 1
    wide = capsys.readouterr().out
    assert "McNemar exact  20 paired" in wide  # the test column, on one line


@given(
    st.lists(st.text(st.characters(codec="ascii", exclude_categories=["Cc"]), min_size=1,
                     max_size=120), min_size=1, max_size=6),
    st.integers(1, 12),
)  # fmt: skip
def test_fit_never_exceeds_its_width(labels: list[str], columns: int) -> None:
    head = ["strategy", *(f"column {i}" for i in range(columns))]
    rows = [[label, *(f"{i * 7.5:.1f}% [1.0, 99.0]" for i in range(columns))] for label in labels]
    text = fit(head, rows, 1, WIDTH)
    assert too_wide(text) == []
    for label in labels:  # every label is shown whole, in the table or in the note
        assert label.strip() in text.replace("\n    ", "") or len(label) > 16
