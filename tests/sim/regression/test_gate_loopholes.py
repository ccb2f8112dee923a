"""The gate's loopholes, each closed: a strategy or case the baseline does not hold, an emptied,
repeated or foreign baseline row, a compactor that overflows every budget, and one that inverts
rules at a level above the leaf."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.grading.outcomes import FactState, SuiteOutcomes, trial_outcome
from sim.regression.baseline import write_baseline
from sim.regression.check import run_gate
from sim.regression.expr import DEFAULT_GATE, parse_expr
from sim.regression.suite_run import load_outcomes
from sim.regression.verdicts import findings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"
UPDATE = "record it with `compsim baseline update RUN --name NAME` once reviewed"


def compsim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def compress() -> SuiteOutcomes:
    return load_outcomes(FIXTURES / "compress")


def _renamed(outcomes: SuiteOutcomes, new: str) -> SuiteOutcomes:
    case = outcomes.cases["mini"]
    (trials,) = case.trials.values()
    return replace(outcomes, cases={"mini": replace(case, trials={new: trials})})


def _with_trials(outcomes: SuiteOutcomes, **changes: object) -> SuiteOutcomes:
    case = outcomes.cases["mini"]
    trials = {k: tuple(replace(t, **changes) for t in v) for k, v in case.trials.items()}  # type: ignore[arg-type]
    return replace(outcomes, cases={"mini": replace(case, trials=trials)})


def test_a_strategy_without_a_baseline_is_inconclusive_never_a_pass(
    tmp_path: Path, compress: SuiteOutcomes, capsys: pytest.CaptureFixture[str]
) -> None:
    """A renamed strategy skipped the gate with exit 0."""
    base, cand = tmp_path / "base.json", tmp_path / "cand.json"
    write_baseline(compress, base)
    both = replace(
        compress,
        cases={
            "mini": replace(
                compress.cases["mini"],
                trials={
                    **compress.cases["mini"].trials,
                    "sneaky": compress.cases["mini"].trials["budget_closed"],
                },
            )
        },
    )
    write_baseline(both, cand)
    code, out, _ = compsim(capsys, "check", str(cand), "--baseline", str(base))
    assert code == 3
    assert f"INCONCLUSIVE: strategy sneaky has no baseline, so it is not gated; {UPDATE}" in out
    assert out.rstrip().endswith("1 without a baseline (exit 3)")
    assert "PASS" in out  # budget_closed itself is still checked


def test_a_renamed_strategy_alone_is_inconclusive(compress: SuiteOutcomes) -> None:
    report = run_gate(compress, _renamed(compress, "other"), [parse_expr("collapse_rate:+0")])
    assert report.exit_code == 3 and not report.checks
    assert findings(report) == [
        "INCONCLUSIVE: strategy budget_closed is in the baseline but not in the candidate run",
        f"INCONCLUSIVE: strategy other has no baseline, so it is not gated; {UPDATE}",
        "INCONCLUSIVE: no check was evaluated: nothing was compared",
    ]


def test_a_case_without_a_baseline_is_inconclusive(compress: SuiteOutcomes) -> None:
    case = compress.cases["mini"]
    cand = replace(compress, cases={"mini": case, "extra": replace(case, name="extra")})
    report = run_gate(compress, cand, [parse_expr("collapse_rate:+0")])
    assert report.exit_code == 3
    assert report.ungated == (f"case extra has no baseline, so it is not gated; {UPDATE}",)


def _edited(tmp_path: Path, compress: SuiteOutcomes, edit) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "b.json"
    write_baseline(compress, path)
    doc = json.loads(path.read_text())
    edit(doc["cases"]["mini"])
    path.write_text(json.dumps(doc))
    return path


def _empty_trials(case: dict) -> None:  # type: ignore[type-arg]
    case["trials"] = {}


def _no_rows(case: dict) -> None:  # type: ignore[type-arg]
    case["trials"]["budget_closed"] = []


def _duplicate(case: dict) -> None:  # type: ignore[type-arg]
    rows = case["trials"]["budget_closed"]
    rows.insert(3, rows[1])


def _foreign(case: dict) -> None:  # type: ignore[type-arg]
    rows = case["trials"]["budget_closed"]
    rows.append([999, *rows[0][1:]])


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            _empty_trials,
            "cases.mini: trials: no strategy under test (an empty baseline gates nothing)",
        ),
        (_no_rows, "cases.mini: trials.budget_closed: no trial rows"),
        (_duplicate, "cases.mini: trials.budget_closed.3: trial 1 repeats row 1"),
        (_foreign, "cases.mini: trials.budget_closed.20: trial 999 is outside the plan (0..19)"),
    ],
)
def test_an_empty_repeated_or_foreign_baseline_is_an_error_naming_the_row(
    tmp_path: Path,
    compress: SuiteOutcomes,
    capsys: pytest.CaptureFixture[str],
    edit,  # type: ignore[no-untyped-def]
    message: str,
) -> None:
    path = _edited(tmp_path, compress, edit)
    code, out, err = compsim(capsys, "check", str(FIXTURES / "compress"), "--baseline", str(path))
    assert code == 2 and out == ""
    assert err == f"compsim: error: {path}: {message}\n"


def test_a_baseline_without_cases_is_an_error(
    tmp_path: Path, compress: SuiteOutcomes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.json"
    write_baseline(compress, path)
    doc = json.loads(path.read_text())
    doc["cases"] = {}
    path.write_text(json.dumps(doc))
    code, _, err = compsim(capsys, "check", str(FIXTURES / "compress"), "--baseline", str(path))
    assert code == 2
    assert err == f"compsim: error: {path}: cases: none (an empty baseline gates nothing)\n"


def test_over_budget_is_in_the_default_gate(compress: SuiteOutcomes) -> None:
    """A compactor that appends every rule after the budget cut: every level over budget."""
    assert "over_budget_rate:+0.00" in DEFAULT_GATE
    cand = _with_trials(compress, over_budget=True)
    report = run_gate(compress, cand, [parse_expr(e) for e in DEFAULT_GATE])
    (over,) = [c for c in report.checks if c.label == "over_budget_rate"]
    assert over.verdict.value == "REGRESSED" and report.exit_code == 1
    assert (over.outcome.base, over.outcome.cand) == (0.0, 1.0)


def test_inverted_rate_counts_a_rule_inverted_above_the_leaf(compress: SuiteOutcomes) -> None:
    """Rules reversed at L1, then dropped: the leaf says `dropped`, the gate still sees them."""
    case = compress.cases["mini"]
    (key,) = case.trials
    trials = tuple(
        replace(t, facts=tuple(replace(f, leaf="dropped", inverted_at="L1") for f in t.facts))
        for t in case.trials[key]
    )
    cand = replace(compress, cases={"mini": replace(case, trials={key: trials})})
    report = run_gate(compress, cand, [parse_expr("inverted_rate:+0.00")])
    (check,) = report.checks
    assert check.verdict.value == "REGRESSED"
    assert check.by_level == (("L1", 0, 20),)
    (line,) = findings(report)
    assert line.endswith("; first inverted at L1 in 20 trials (baseline: L1 in 0)")


def test_a_rows_first_inversion_level_is_read_from_its_grades() -> None:
    row = {
        "trial": 0,
        "strategy": "s",
        "levels": [{"name": "L1"}, {"name": "L2"}, {"name": "L3"}],
        "facts": [
            {"fact_id": "a", "cls": "prohibition", "leaf": "dropped", "lost": True, "loud": False,
             "grades": ["verbatim", "inverted", "dropped"]},
            {"fact_id": "b", "cls": "ordering", "leaf": "verbatim", "lost": False, "loud": False,
             "grades": ["verbatim", "verbatim", "verbatim"]},
        ],
    }  # fmt: skip
    out = trial_outcome(row)
    assert [f.inverted_at for f in out.facts] == ["L2", None]
    assert out.inverted
    assert FactState("a", "c", "dropped", True, False, None).inverted_at is None
