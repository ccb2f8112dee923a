"""`sim.test_compactor`: a compactor through the ladder in one Python line, and its report."""

from __future__ import annotations

from pathlib import Path

import pytest

import sim
from sim.errors import UserError
from sim.regression.baseline import write_baseline
from sim.regression.compactor import scenario_path
from sim.regression.suite_run import load_outcomes

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
FIXTURE = ROOT / "tests" / "fixtures" / "compactors.py"
SMALL = ("ladder=small", "constraints.depths=[0.5]")


def test_one_line_with_any_callable(tmp_path: Path) -> None:
    report = sim.test_compactor(
        lambda text, budget: text, scenario=TINY, trials=2, overrides=SMALL, out=tmp_path / "r"
    )
    assert report.path == tmp_path / "r"
    assert list(report.summary["strategy"]) == ["compactor", "empty", "head", "tail", "keep_all"]
    (c,) = report.collapses()
    assert (c.strategy, c.silent, c.trials, c.over_budget) == ("compactor", 0, 2, 2)
    report.assert_no_silent_collapse()
    assert "compactor: no silent collapse in 0 of 2 trials" in str(report)
    html = report.write_report(tmp_path / "report.html")
    assert "<html" in html.read_text(encoding="utf-8")[:200].lower()


def test_a_silent_collapse_fails_the_assertion_with_the_diagnosis(tmp_path: Path) -> None:
    report = sim.test_compactor(
        f"{FIXTURE}:drop_rules", scenario=TINY, trials=3, overrides=SMALL, out=tmp_path / "r"
    )
    assert set(report.class_rates["strategy"]) >= {"drop_rules"}
    lost = report.silent_diagnosis()
    assert len(lost) and set(lost["how"]) == {"silent"}
    with pytest.raises(AssertionError) as info:
        report.assert_no_silent_collapse()
    text = str(info.value)
    assert text.startswith("drop_rules: SILENT COLLAPSE in 3 of 3 trials (100.0%)")
    assert " lost at L1 (" in text and str(report.path) in text


def test_the_report_checks_against_a_baseline(tmp_path: Path) -> None:
    keep = sim.test_compactor(
        f"{FIXTURE}:keep_everything", TINY, trials=10, overrides=SMALL, name="mine",
        out=tmp_path / "base",
    )  # fmt: skip
    baseline = tmp_path / "baseline.json"
    write_baseline(load_outcomes(keep.path), baseline)
    assert keep.check(baseline).exit_code == 0
    worse = sim.test_compactor(
        f"{FIXTURE}:drop_rules", TINY, trials=10, overrides=SMALL, name="mine",
        out=tmp_path / "cand",
    )  # fmt: skip
    gate = worse.check(baseline, ["silent_collapse_rate:+0.00"])
    assert gate.exit_code == 1
    assert "REGRESSED" in worse.check_text(gate, baseline)


def test_worker_processes_need_a_reference(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="jobs=2 runs worker processes"):
        sim.test_compactor(lambda t, b: t, TINY, jobs=2, out=tmp_path / "r")
    with pytest.raises(UserError, match="jobs=0: must be >= 1"):
        sim.test_compactor(lambda t, b: t, TINY, jobs=0)


def test_shipped_scenarios_go_by_name() -> None:
    assert scenario_path("note").name == "credential_rotation.toml"
    assert scenario_path("tight_ladder").name == "tight_ladder.toml"
    assert scenario_path(TINY) == TINY
    with pytest.raises(UserError, match=r"scenario='nope': no such file or shipped scenario"):
        scenario_path("nope")


def test_pytest_does_not_collect_it_as_a_test() -> None:
    assert sim.test_compactor.__test__ is False  # type: ignore[attr-defined]
