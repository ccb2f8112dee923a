"""The regression gate on saved fixture runs (tests/fixtures/gate, made by the real harness
with make_fixtures.py), plus its statistics and expression parser on hand-built samples."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.regression.baseline import write_baseline
from sim.regression.check import run_gate
from sim.regression.expr import METRICS, GateError, parse_expr
from sim.regression.paired import Sample, Verdict, compare_counts, compare_rates
from sim.regression.suite_run import load_outcomes
from sim.runs.stats import mcnemar_interval

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"


def compsim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def baselines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Baseline files written from the fixture runs (what `compsim baseline update` writes)."""
    out = tmp_path_factory.mktemp("baselines")
    for run in ("compress", "continuity", "forget_others"):
        write_baseline(load_outcomes(FIXTURES / run), out / f"{run}.json")
    return out


def check(
    capsys: pytest.CaptureFixture[str], run: str, baseline: Path, *extra: str
) -> tuple[int, str, str]:
    return compsim(capsys, "check", str(FIXTURES / run), "--baseline", str(baseline), *extra)


def findings(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith(("REGRESSED: ", "INCONCLUSIVE: "))]


# --- verdicts on the fixture runs ------------------------------------------------------------


def test_clear_regression_exits_1_with_the_exact_message(
    capsys: pytest.CaptureFixture[str], baselines: Path
) -> None:
    code, out, err = check(
        capsys, "continuity", baselines / "compress.json", "--fail", "silent_collapse_rate:+0.00"
    )
    assert code == 1
    assert findings(out) == [
        "REGRESSED: silent_collapse_rate for budget_closed(instruction='continuity') "
        "(baseline budget_closed): 0.0% -> 100.0% (+100.0 pp > +0.0 pp; p<0.0001, McNemar exact "
        "on 20 paired trials)"
    ]
    assert out.rstrip().endswith(
        "gate: REGRESSED: 1 of 1 checks regressed, 0 inconclusive (exit 1)"
    )
    assert "is compared with baseline strategy budget_closed" in err


def test_every_failing_metric_is_listed(
    capsys: pytest.CaptureFixture[str], baselines: Path
) -> None:
    code, out, _ = check(
        capsys,
        "continuity",
        baselines / "compress.json",
        "--fail",
        "silent_collapse_rate:+0.00",
        "--fail",
        "collapse_rate:+0.02",
        "--fail",
        "tokens_emitted:+1%",
        "--fail",
        "silent_collapse_rate[*]:+0",
    )
    assert code == 1
    regressed = [f.split(" for ")[0] for f in findings(out)]
    assert regressed == [
        "REGRESSED: silent_collapse_rate",
        "REGRESSED: collapse_rate",
        "REGRESSED: tokens_emitted",  # 1043.1 -> 1070.8 tokens is +2.7%
        "REGRESSED: silent_collapse_rate[conditional]",
        "REGRESSED: silent_collapse_rate[ordering]",
        "REGRESSED: silent_collapse_rate[prohibition]",
        "REGRESSED: silent_collapse_rate[value_pin]",
    ]


def test_improvement_exits_0(capsys: pytest.CaptureFixture[str], baselines: Path) -> None:
    code, out, _ = check(
        capsys,
        "compress",
        baselines / "continuity.json",
        "--fail",
        "silent_collapse_rate:+0.00",
        "--fail",
        "collapse_rate:+0.02",
    )
    assert code == 0
    assert findings(out) == []
    row = next(ln.split() for ln in out.splitlines() if ln.startswith("PASS"))
    assert row[:6] == ["PASS", "silent_collapse_rate", "100.0%", "0.0%", "-100.0", "pp"]
    assert "\nstrategy budget_closed" in out  # the table's heading names the strategy


def test_too_small_sample_exits_3_with_the_trials_needed(
    capsys: pytest.CaptureFixture[str], baselines: Path
) -> None:
    code, out, err = check(
        capsys,
        "continuity_small",
        baselines / "compress.json",
        "--fail",
        "silent_collapse_rate:+0.00",
    )
    assert code == 3
    # 4 of 4 paired trials worse: p = 2 / 2**4 = 0.125; 6 of 6 would give 0.031 < 0.05
    assert findings(out) == [
        "INCONCLUSIVE: silent_collapse_rate for budget_closed(instruction='continuity') "
        "(baseline budget_closed): 0.0% -> 100.0% (+100.0 pp > +0.0 pp but not significant: "
        "p=0.1250, McNemar exact on 4 paired trials); ≈2 more trials would decide it (6 in all)"
    ]
    assert "case mini: trials: 20 -> 4" in err


def test_identical_runs_exit_0(capsys: pytest.CaptureFixture[str], baselines: Path) -> None:
    code, out, err = check(capsys, "compress", baselines / "compress.json")
    assert code == 0
    assert findings(out) == [] and err == ""
    assert "[+0.0, +0.0] pp" in out


def test_per_class_regression_hidden_by_an_overall_improvement_exits_1(
    capsys: pytest.CaptureFixture[str], baselines: Path
) -> None:
    code, out, _ = check(
        capsys,
        "forget_prohibition",
        baselines / "forget_others.json",
        "--fail",
        "collapse_rate:+0.00",
        "--fail",
        "silent_collapse_rate[prohibition]:+0.00",
        "--wide",
    )
    assert code == 1
    rows = {ln.split()[1]: ln.split() for ln in out.splitlines() if ln.startswith(("PASS", "REG"))}
    assert rows["collapse_rate"][0] == "PASS"
    assert rows["collapse_rate"][2:6] == ["100.0%", "50.0%", "-50.0", "pp"]  # overall: better
    assert findings(out) == [
        "REGRESSED: silent_collapse_rate[prohibition] for forgetful(forget=['prohibition']) "
        "(baseline forgetful(forget=['ordering', 'value_pin', 'conditional'])): 0.0% -> 50.0% "
        "(+50.0 pp > +0.0 pp; p=0.0020, McNemar exact on 20 paired trials with a prohibition "
        "constraint)"
    ]


def test_a_strategy_missing_from_the_candidate_is_inconclusive(
    capsys: pytest.CaptureFixture[str], baselines: Path
) -> None:
    code, out, _ = check(
        capsys, "forget_others", baselines / "compress.json", "--fail", "collapse_rate:+0"
    )
    assert code == 3
    assert findings(out) == [
        "INCONCLUSIVE: strategy budget_closed is in the baseline but not in the candidate run",
        "INCONCLUSIVE: strategy forgetful(forget=['ordering', 'value_pin', 'conditional']) has "
        "no baseline, so it is not gated; record it with `compsim baseline update RUN --name "
        "NAME` once reviewed",
        "INCONCLUSIVE: no check was evaluated: nothing was compared",
    ]


def test_a_strategy_missing_from_one_case_is_inconclusive() -> None:
    base = load_outcomes(FIXTURES / "compress")
    case = base.cases["mini"]
    two = replace(base, cases={"a": replace(case, name="a"), "b": replace(case, name="b")})
    cand = replace(two, cases={"a": two.cases["a"], "b": replace(case, name="b", trials={})})
    report = run_gate(two, cand, [parse_expr("collapse_rate:+0")])
    assert report.missing == (
        "strategy budget_closed of case b is in the baseline but not in the candidate run",
    )
    assert report.exit_code == 3 and report.checks[0].verdict is Verdict.PASS


def test_markdown_and_json_formats(capsys: pytest.CaptureFixture[str], baselines: Path) -> None:
    args = ["check", str(FIXTURES / "continuity"), "--baseline", str(baselines / "compress.json")]
    code, out, _ = compsim(capsys, *args, "--format", "markdown")
    assert code == 1
    assert out.startswith("### compaction-sim gate: REGRESSED")
    assert "| REGRESSED | silent_collapse_rate | budget_closed(instruction='continuity') |" in out
    code, out, _ = compsim(capsys, *args, "--format", "json", "--fail", "collapse_rate:+0.02")
    doc = json.loads(out)
    assert (code, doc["verdict"], doc["exit_code"]) == (1, "REGRESSED", 1)
    (check,) = doc["checks"]
    assert check["test"] == "McNemar exact" and check["paired"] is True
    assert check["ci"][0] > 0.02 and check["trials_candidate"] == 20


# --- bad input: one line, exit 2 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("silent:+x", "threshold '+x' is not a number"),
        ("silent:+0.1", "unknown metric 'silent'; valid: collapse_rate, silent_collapse_rate"),
        ("collapse_rate", "does not parse"),
        ("tokens_emitted[prohibition]:+5%", "has no per-class breakdown"),
        ("collapse_rate[color=red]:+0", "selector 'color=red' is not a class"),
        ("silent_collapse_rate:+10%", "the baseline silent_collapse_rate of budget_closed is 0"),
        ("collapse_rate[nonsense]:+0", "no constraint of class 'nonsense'"),
        ("collapse_rate[strategy=nope]:+0", "no strategy 'nope' under test in both runs"),
    ],
)
def test_bad_gate_expressions(
    capsys: pytest.CaptureFixture[str], baselines: Path, expr: str, message: str
) -> None:
    code, out, err = check(capsys, "compress", baselines / "compress.json", "--fail", expr)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"compsim: error: --fail {expr!r}: ")
    assert message in err


def test_percent_threshold_against_zero_suggests_an_absolute_one() -> None:
    base = load_outcomes(FIXTURES / "compress")
    with pytest.raises(
        GateError, match=r"use an absolute one, e\.g\. silent_collapse_rate:\+0\.02"
    ):
        run_gate(base, base, [parse_expr("silent_collapse_rate:+10%")])


def _bad_baseline(tmp: Path, baselines: Path, edit: str) -> Path:
    text = (baselines / "compress.json").read_text()
    path = tmp / "bad.json"
    if edit == "newer":
        text = text.replace('"version": 2,', '"version": 99,', 1)
    elif edit == "truncated":
        text = text[: len(text) // 2]
    elif edit == "corrupt":
        text = text.replace("[0,0,0,0,0,", '[0,"x",0,0,0,', 1)
    elif edit == "columns":
        text = text.replace('"blame_level",', '"blame",', 1)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("newer", "version: baseline schema 99 is newer than this compaction-sim reads (up to 2)"),
        ("truncated", "not valid JSON at line"),
        ("corrupt", "cases.mini.trials.budget_closed.0.1: Input should be a valid boolean"),
        ("columns", "trial_columns must be"),
    ],
)
def test_bad_baselines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, baselines: Path, edit: str, message: str
) -> None:
    bad = _bad_baseline(tmp_path, baselines, edit)
    code, out, err = compsim(capsys, "check", str(FIXTURES / "compress"), "--baseline", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"compsim: error: {bad}: ")
    assert message in err


def test_a_run_without_results(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, baselines: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "compress", run)
    (run / "summary.json").unlink()
    base = str(baselines / "compress.json")
    code, _, err = compsim(capsys, "check", str(run), "--baseline", base)
    assert code == 2 and err.count("\n") == 1
    assert "no results: the run has not finished (no summary.json)" in err
    code, _, err = compsim(capsys, "check", str(tmp_path), "--baseline", base)
    assert code == 2 and "not a run directory (no manifest.json)" in err
    code, _, err = compsim(capsys, "check", str(tmp_path / "nope"), "--baseline", base)
    assert code == 2 and "no such run directory or baseline file" in err


@pytest.mark.parametrize("command", [["check"], ["bench"], ["baseline", "update"]])
def test_help(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = compsim(capsys, *command, "--help")
    assert code == 0 and out.startswith(f"usage: compsim {' '.join(command)}")
    if command == ["check"]:
        assert "tokens_emitted:+5%" in out and "3 none regressed" in out


def test_bad_alpha(capsys: pytest.CaptureFixture[str], baselines: Path) -> None:
    code, _, err = check(capsys, "compress", baselines / "compress.json", "--alpha", "1.5")
    assert code == 2 and "--alpha=1.5" in err


# --- spec mismatches warn with the difference -------------------------------------------------


def test_ladder_harness_and_suite_mismatches_warn_with_the_difference() -> None:
    base = load_outcomes(FIXTURES / "compress")
    case = base.cases["mini"]
    ladder = [dict(lv) for lv in case.spec["ladder"]]
    ladder[2]["budget_tokens"] = 64
    spec = {**case.spec, "ladder": ladder, "seed": 8}
    cand = replace(
        base, version=2, harness_version="9.9.9", cases={"mini": replace(case, spec=spec)}
    )
    report = run_gate(base, cand, [parse_expr("collapse_rate:+0")])
    assert report.warnings == (
        "harness version differs: baseline 0.1.0, candidate 9.9.9",
        "suite differs: baseline mini v0, candidate mini v2",
        "case mini: ladder.L3.budget_tokens: 96 -> 64",
        "case mini: seed: 2 -> 8",
        "case mini: histories differ (seed, tokenizer, history, constraints), so its trials "
        "are compared unpaired",
    )
    (check,) = report.checks
    assert not check.paired and check.outcome.test == "Newcombe"


# --- the statistics behind each verdict -------------------------------------------------------


def _paired(worse: int, better: int, both: int, neither: int) -> Sample:
    pairs = [(0.0, 1.0)] * worse + [(1.0, 0.0)] * better + [(1.0, 1.0)] * both
    return Sample.from_pairs(pairs + [(0.0, 0.0)] * neither)


def test_paired_verdicts_at_zero_threshold() -> None:
    same = compare_rates(_paired(0, 0, 5, 95), 0.0, 0.05)  # identical: no discordant pair
    assert (same.verdict, same.lo, same.hi) == (Verdict.PASS, 0.0, 0.0)
    assert compare_rates(_paired(0, 12, 0, 88), 0.0, 0.05).verdict is Verdict.PASS  # better
    out = compare_rates(_paired(12, 2, 0, 86), 0.0, 0.05)
    assert out.verdict is Verdict.REGRESSED and out.p == pytest.approx(0.012939453125)
    out = compare_rates(_paired(5, 0, 0, 95), 0.0, 0.05)  # p = 0.0625
    # at the same 5% rate, 110 trials hold 5.5 -> 6 worse pairs: p = 0.031
    assert out.verdict is Verdict.INCONCLUSIVE and out.needed == 110
    on = compare_rates(_paired(3, 3, 0, 94), 0.0, 0.05)  # a shuffle: no net change
    assert on.verdict is Verdict.INCONCLUSIVE and on.needed is None


def test_an_undecided_improvement_says_when_it_would_pass() -> None:
    out = compare_rates(_paired(3, 5, 5, 87), 0.0, 0.05)
    assert out.verdict is Verdict.INCONCLUSIVE and out.hi is not None and out.hi > 0
    assert out.needed is not None
    k = out.needed / 100
    assert mcnemar_interval(round(3 * k), round(5 * k), out.needed)[1] <= 0
    k = (out.needed - 1) / 100
    assert mcnemar_interval(round(3 * k), round(5 * k), out.needed - 1)[1] > 0


def test_paired_threshold_uses_the_exact_conditional_interval() -> None:
    # +8% observed against a 2% threshold: decided only when the interval clears 0.02
    out = compare_rates(_paired(10, 2, 10, 78), 0.02, 0.05)
    assert (out.test, out.p, out.verdict) == ("McNemar exact", None, Verdict.INCONCLUSIVE)
    assert out.lo is not None and out.lo < 0.02 < 0.08
    out = compare_rates(_paired(40, 8, 40, 312), 0.02, 0.05)
    assert out.verdict is Verdict.REGRESSED and out.lo is not None and out.lo > 0.02
    assert compare_rates(_paired(0, 0, 10, 90), 0.02, 0.05).verdict is Verdict.PASS
    assert compare_rates(_paired(1, 0, 10, 389), 0.02, 0.05).verdict is Verdict.PASS


def test_unpaired_rates_use_newcombe() -> None:
    worse = Sample(False, (1.0,) * 10 + (0.0,) * 90, (1.0,) * 30 + (0.0,) * 70)
    out = compare_rates(worse, 0.0, 0.05)
    assert out.test == "Newcombe" and out.verdict is Verdict.REGRESSED and out.p is None
    close = Sample(False, (1.0,) * 10 + (0.0,) * 30, (1.0,) * 14 + (0.0,) * 26)
    out = compare_rates(close, 0.0, 0.05)
    assert out.verdict is Verdict.INCONCLUSIVE and out.needed is not None and out.needed > 40
    same = Sample(False, (1.0,) * 10 + (0.0,) * 30, (1.0,) * 10 + (0.0,) * 30)
    assert compare_rates(same, 0.0, 0.05).verdict is Verdict.INCONCLUSIVE  # cannot prove +0


def test_counts_compare_the_plain_difference() -> None:
    s = Sample(True, (100.0, 110.0), (104.0, 116.0))  # +5 tokens per trial
    assert compare_counts(s, 5.0).verdict is Verdict.PASS
    assert compare_counts(s, 4.9).verdict is Verdict.REGRESSED


def test_parse_expr_forms() -> None:
    e = parse_expr("silent_collapse_rate[prohibition]:+0.00")
    assert (e.metric.name, e.cls, e.threshold) == ("silent_collapse_rate", "prohibition", 0.0)
    assert not e.percent
    e = parse_expr("tokens_emitted:+5%")
    assert (e.threshold, e.percent) == (5.0, True)
    e = parse_expr("collapse_rate[strategy=floor_gated(max_retries=1,sticky=False),case=x]:0.02")
    assert e.strategy == "floor_gated(max_retries=1,sticky=False)" and e.case == "x"
    assert parse_expr("loud_failure_rate[class=ordering]:-0.1").threshold == -0.1
    assert "retries_per_trial" in METRICS and "tokens_read" in METRICS
