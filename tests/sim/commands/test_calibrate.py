"""`compsim calibrate`: fit the simulator to a recorded run and write a params file a scenario
reads back. The recording here is itself simulated with known knobs, so the fit can be checked
against what made the data; the moments come from rows alone (sim.runs.moments)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.commands.calibrate import parse_trials
from sim.commands.main import main
from sim.runs.moments import read_moments
from sim.runs.results import load_run
from sim.runs.scenario import load_scenario

TRUTH = """
name = "calibration_truth"
seed = 7
trials = 12
strategies = ["budget_closed", "floor_gated"]
[constraints]
count = 4
declared_fraction = 1.0
[history]
target_tokens = 900
[[ladder]]
name = "L1"
budget_tokens = 450
[[ladder]]
name = "L2"
budget_tokens = 160
[summarizer]
name = "simulated"
params = {overflow = 0.2, rule_drop = 0.15}
level_params = {L2 = {rule_drop = 0.45, overflow = 0.1}}
"""

FAST = ["--rounds", "4", "--replicas", "3"]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("calibrate")
    (where / "truth.toml").write_text(TRUTH, encoding="utf-8")
    out = where / "run"
    assert main(["run", str(where / "truth.toml"), "--out", str(out), "--no-progress"]) == 0
    return out


def test_the_fit_reproduces_the_recorded_shares_and_reads_back(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    params = tmp_path / "params.toml"
    args = ["calibrate", str(recorded), "--strategy", "budget_closed", "--out", str(params)]
    assert main([*args, *FAST]) == 0
    shown = capsys.readouterr().out
    assert "L2     rule_drop" in shown and "written:" in shown
    # the file is what a scenario names, and its knobs make a run that looks like the recording
    (tmp_path / "fitted.toml").write_text(
        TRUTH.replace(
            "params = {overflow = 0.2, rule_drop = 0.15}\nlevel_params = {L2 = {rule_drop = 0.45, "
            "overflow = 0.1}}",
            'params = "file:params.toml"',
        ).replace('["budget_closed", "floor_gated"]', '["budget_closed"]'),
        encoding="utf-8",
    )
    scenario = load_scenario(tmp_path / "fitted.toml")
    assert set(scenario.summarizer.level_params) == {"L1", "L2"}
    out = tmp_path / "fitted-run"
    assert main(["run", str(tmp_path / "fitted.toml"), "--out", str(out), "--no-progress"]) == 0
    rec = [r for r in load_run(recorded).rows() if r["strategy"] == "budget_closed"]
    fitted = list(load_run(out).rows())
    want, got = read_moments(rec, ("L1", "L2")), read_moments(fitted, ("L1", "L2"))
    for level in ("L1", "L2"):
        assert abs(want.levels[level].share("dropped") - got.levels[level].share("dropped")) < 0.15
    # the uncalibrated simulator drops far fewer rules at L2 than the recording
    assert want.levels["L2"].share("dropped") > 0.3


def test_the_same_run_and_options_write_the_same_file(recorded: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    for path in (a, b):
        args = ["calibrate", str(recorded), "--strategy", "floor_gated", "--trials", "0-5"]
        assert main([*args, "--out", str(path), *FAST]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert "trials = [0, 1, 2, 3, 4, 5]" in a.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "the run has 2 strategies; choose one with --strategy"),
        (["--strategy", "nope"], "--strategy 'nope' matches none"),
        (["--strategy", "_"], "--strategy '_' matches several"),
        (["--strategy", "floor_gated", "--trials", "0-99"], "no recorded row of floor_gated"),
        (["--strategy", "floor_gated", "--trials", "3-1"], "is not a range of indices"),
    ],
)
def test_a_bad_selection_is_one_line_and_exit_2(
    recorded: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", str(recorded), *extra, *FAST]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_parse_trials() -> None:
    assert parse_trials("0-3") == [0, 1, 2, 3]
    assert parse_trials("5,0-1,1") == [0, 1, 5]


def test_the_overflow_pattern_reads_the_message_a_refused_level_writes() -> None:
    """The moments count a refused level's calls from its failure line: the pattern and the
    strategy's message must stay one."""
    from sim.errors import CompactionFailure
    from sim.summarizers.base import SummaryRequest, SummaryResult
    from strategies.base import MAX_BUDGET_RETRIES, OVERFLOW_FAILURE, summarize_fitting
    from tests.helpers import context

    class Copier:
        name = "copier"
        max_input_tokens = 10_000

        def summarize(self, request: SummaryRequest) -> SummaryResult:
            return SummaryResult(request.text * 3, 0)

    with pytest.raises(CompactionFailure) as err:
        summarize_fitting("a line of input\n" * 20, 10, context(Copier()), "compress")
    found = OVERFLOW_FAILURE.search(err.value.reason)
    assert found is not None and int(found.group(1)) == MAX_BUDGET_RETRIES
