"""One format for rates: a percentage with one decimal, its interval in the same unit, a
change in percentage points; the same text in run tables, the HTML report, bench and check."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sim.commands.bench import case_table
from sim.regression.baseline import write_baseline
from sim.regression.check import run_gate
from sim.regression.expr import parse_expr
from sim.regression.suite_run import load_outcomes
from sim.regression.verdicts import references, render_markdown, render_text
from sim.report.aggregate import aggregate
from sim.report.html import tables_html
from sim.report.rates import pct, pct_ci, pp, pp_ci
from sim.report.tables import format_all, format_table
from tests.sim.report.fixtures import tiny_run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"
PCT = re.compile(r"^-?\d+\.\d%$")
FRACTION = re.compile(r"(?<![\d.])0\.\d{3}(?!\d)")  # `0.125`: the old bench/check format


@given(st.floats(0, 1))
def test_a_rate_is_a_percentage_with_one_decimal(x: float) -> None:
    text = pct(x)
    assert PCT.match(text), text
    assert abs(float(text[:-1]) - 100 * x) <= 0.05 + 1e-9


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_an_interval_is_in_the_rate_s_unit(a: float, b: float, c: float) -> None:
    lo, rate, hi = sorted((a, b, c))
    text = pct_ci(rate, lo, hi)
    m = re.fullmatch(r"(\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\]", text)
    assert m, text
    assert float(m[2]) <= float(m[1]) + 0.05 and float(m[1]) <= float(m[3]) + 0.05


def test_changes_are_points_and_missing_values_a_dash() -> None:
    assert pp(0.02) == "+2.0 pp" and pp(-0.5) == "-50.0 pp" and pp(-0.0001) == "+0.0 pp"
    assert pp_ci(-0.012, 0.034) == "[-1.2, +3.4] pp"
    assert pct(None) == pct(math.nan) == pct_ci(math.nan, 0, 1) == "-"


def test_run_tables_and_the_html_report_write_rates_the_same_way() -> None:
    agg = aggregate(tiny_run()[0])
    rate = float(agg.summary["silent_rate"].iloc[0])
    want = pct(rate)
    for text in (format_table(agg.summary), format_all(agg), tables_html(agg)):
        assert want in text
        assert not FRACTION.search(text), FRACTION.search(text)


def test_bench_and_check_write_rates_as_percentages_and_changes_as_points(
    tmp_path: Path,
) -> None:
    rates = {"collapse_rate": 0.125, "silent_collapse_rate": 0.125, "loud_failure_rate": 0.0}
    per = {"a": {"trials": 8, **rates, "retries_per_trial": 0.25, "tokens_emitted": 900.0}}
    bench = case_table(per)
    assert "12.5%" in bench and "0.125" not in bench
    base_file = tmp_path / "compress.json"
    write_baseline(load_outcomes(FIXTURES / "compress"), base_file)
    base, cand = load_outcomes(base_file), load_outcomes(FIXTURES / "continuity")
    gate = run_gate(base, cand, [parse_expr("silent_collapse_rate:+0.02")])
    for render in (render_text, render_markdown):
        text = render(gate, references(base, cand), "title")
        text = html.unescape(text).replace("\\[", "[").replace("\\]", "]")  # markdown's escapes
        assert "0.0% -> 100.0% (+100.0 pp > +2.0 pp" in text
        assert "[+66.3, +100.0] pp" in text
        assert not FRACTION.search(text), FRACTION.search(text)
