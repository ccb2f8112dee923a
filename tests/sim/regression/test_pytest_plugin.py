"""The pytest plugin as a runtime's own test suite meets it: installed through its `pytest11`
entry point, run in a separate pytest process (pytester), failing a test on a silent collapse
or on a regression against a committed baseline."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
SMALL = '("ladder=small", "constraints.depths=[0.5]")'

COMPACTORS = f"""
import os

import pytest

SCENARIO = {str(TINY)!r}
SMALL = {SMALL}


def keep_everything(text, budget_tokens):
    return text


def drop_rules(text, budget_tokens):
    keep = [ln for ln in text.splitlines() if " not " not in f" {{ln.lower()}} "]
    return "".join(ln + "\\n" for ln in keep[:3])


def mine(text, budget_tokens):  # which one is the change under review
    return (drop_rules if os.environ.get("MINE") == "drop" else keep_everything)(
        text, budget_tokens
    )
"""


def _tests(pytester: pytest.Pytester, body: str) -> None:
    pytester.makepyfile(test_compaction=COMPACTORS + body)


def test_the_plugin_is_installed_through_its_entry_point(pytester: pytest.Pytester) -> None:
    names = {e.name: e.value for e in entry_points(group="pytest11")}
    assert names.get("compaction_sim") == "sim.regression.pytest_plugin"
    result = pytester.runpytest_subprocess("--markers")
    result.stdout.fnmatch_lines(["*@pytest.mark.compsim(scenario=*"])


@pytest.mark.slow  # a pytest process running the harness
def test_a_silent_collapse_fails_the_test_with_the_diagnosis(pytester: pytest.Pytester) -> None:
    _tests(
        pytester,
        """
def test_keeps(compsim_check):
    report = compsim_check(keep_everything, scenario=SCENARIO, trials=2, overrides=SMALL)
    assert report.collapses()[0].silent == 0


@pytest.mark.compsim(scenario=SCENARIO, trials=2, overrides=SMALL)
def test_drops(compsim_check):
    compsim_check(drop_rules)
""",
    )
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*drop_rules: SILENT COLLAPSE in 2 of 2 trials*", "*drop_rules: * lost at L1*"]
    )


@pytest.mark.slow  # four pytest processes, each running the harness
def test_a_regression_against_the_committed_baseline_fails(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tests(
        pytester,
        """
def test_mine(compsim_check):
    compsim_check(mine, scenario=SCENARIO, trials=10, overrides=SMALL,
                  fail="silent_collapse_rate:+0.00", baseline="compsim_baseline.json")
""",
    )
    missing = pytester.runpytest_subprocess("-q")
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(["*compsim_baseline.json does not exist*"])

    written = pytester.runpytest_subprocess("-q", "--compsim-update-baseline")
    written.assert_outcomes(passed=1)
    assert (pytester.path / "compsim_baseline.json").is_file()

    pytester.runpytest_subprocess("-q").assert_outcomes(passed=1)  # unchanged: passes

    monkeypatch.setenv("MINE", "drop")
    regressed = pytester.runpytest_subprocess("-q")
    regressed.assert_outcomes(failed=1)
    regressed.stdout.fnmatch_lines(["*compsim: regressed*", "*silent_collapse_rate*"])
