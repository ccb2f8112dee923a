"""The regression suite: definition, `compsim bench`, and the whole bench -> baseline -> check
loop on a tiny suite (the standard suite's runs are marked slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.commands.main import main
from sim.errors import ScenarioError
from sim.grading.outcomes import REFERENCES
from sim.regression.suite import load_suite

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"
TINY = FIXTURES / "suite" / "suite.toml"
STANDARD = Path(__file__).resolve().parents[3] / "benchmarks" / "suite.toml"
SUMMARIES = ("summary.json", "short/summary.json", "swept/summary.json")


def bench(out: Path, *extra: str, suite: Path = TINY) -> int:
    return main(["bench", "--suite", str(suite), "--out", str(out), "--no-progress", *extra])


def test_every_case_runs_the_references_beside_the_strategies_under_test() -> None:
    suite = load_suite(TINY)
    assert (suite.name, suite.version, [c.name for c in suite.cases]) == (
        "tiny",
        3,
        ["short", "swept"],
    )
    short, swept = (c.grid().cells[0].scenario for c in suite.cases)
    assert [s for s in short.strategies] == ["budget_closed", *REFERENCES]
    assert [s for s in swept.strategies] == ["budget_closed", "pinned", *REFERENCES]
    assert short.name == "short" and short.seed == 11


def test_the_standard_suite_pins_its_seeds_and_names_its_cases() -> None:
    suite = load_suite(STANDARD)
    names = [c.name for c in suite.cases]
    assert names == [
        "note_case",
        "depth_by_level",
        "tight_ladder",
        "many_constraints",
        "long_horizon",
        "distractor_heavy",
        "superseded",
    ]
    for case in suite.cases:
        assert "seed" in case.data, case.name
        strategies = case.grid().cells[0].scenario.strategy_specs()
        assert [n for n, _ in strategies][-4:] == list(REFERENCES)
    note = suite.cases[0].grid().cells[0].scenario
    assert [lv.budget_tokens for lv in note.ladder] == [2048, 512, 128]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = 'x'\nversion = 1\nstrategies = ['pinned']\ncases = []", "cases"),
        (
            "name = 'x'\nversion = 1\nstrategies = ['pinned']\n"
            "[[cases]]\nname = 'a'\nfile = 'a.toml'\nversion = 1\n"
            "[[cases]]\nname = 'a'\nfile = 'a.toml'\nversion = 1\n",
            "case name 'a' is used twice",
        ),
        (
            "name = 'x'\nversion = 1\nstrategies = ['pinned']\n"
            "[[cases]]\nname = 'a'\nfile = 'missing.toml'\nversion = 1\n",
            "missing.toml: cannot read scenario",
        ),
        ("name = 'x'\nversion = 0\nstrategies = ['pinned']", "version"),
        ("name = [", "invalid TOML"),
    ],
)
def test_bad_suite_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "suite.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match=message):
        load_suite(path)


def test_bench_twice_gives_byte_identical_summaries_and_passes_its_own_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench(tmp_path / "a", "--jobs", "1") == 0
    assert bench(tmp_path / "b", "--jobs", "2") == 0
    for name in (*SUMMARIES, "suite.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    out = capsys.readouterr().out
    assert "swept/near_misses=2" in out and "keep_all" in out
    base = tmp_path / "base.json"
    assert (
        main(["baseline", "update", str(tmp_path / "a"), "--name", "base", "--dir", str(tmp_path)])
        == 0
    )
    capsys.readouterr()
    assert main(["check", str(tmp_path / "b"), "--baseline", str(base)]) == 0
    out = capsys.readouterr().out
    assert "candidate" in out and "tiny v3" in out
    assert bench(tmp_path / "a", "--jobs", "1") == 2  # an existing suite run needs --force
    assert "use --force" in capsys.readouterr().err


def test_a_shrunk_leaf_regresses_and_the_ladder_change_is_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench(tmp_path / "a", "--jobs", "1", "--case", "short") == 0
    assert (
        bench(tmp_path / "b", "--jobs", "1", "--case", "short", "-S", "ladder.L2.budget_tokens=12")
        == 0
    )
    assert main(["baseline", "update", str(tmp_path / "a"), "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    code = main(
        [
            "check",
            str(tmp_path / "b"),
            "--baseline",
            str(tmp_path / "default.json"),
            "--fail",
            "collapse_rate:+0",
        ]
    )
    out, err = capsys.readouterr()
    assert "case short: ladder.L2.budget_tokens: 96 -> 12" in err
    assert code == 1
    assert (
        "REGRESSED: collapse_rate for budget_closed: 0.0% -> 100.0% (+100.0 pp > +0.0 pp; "
        "p=0.0312, McNemar exact on 6 paired trials)" in out
    )


def test_bench_refuses_to_override_the_strategies_and_unknown_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench(tmp_path / "x", "-S", "strategies=['empty']") == 2
    assert "the strategies under test are the suite's" in capsys.readouterr().err
    assert bench(tmp_path / "x", "--case", "nope") == 2
    assert "--case 'nope': no such case" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.fixture(scope="module")
def standard_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One bench of the standard suite, shared by the tests that only read it (a bench takes
    most of a minute on two cores)."""
    out = tmp_path_factory.mktemp("standard") / "run"
    assert bench(out, "--jobs", "2", suite=STANDARD) == 0
    return out


@pytest.mark.slow
def test_standard_suite_summaries_are_byte_identical(standard_run: Path, tmp_path: Path) -> None:
    # two of its cases again, in one process instead of two: the same bytes whatever the
    # number of workers or the cases run beside them (the whole suite twice took over a minute)
    cases = ("superseded", "tight_ladder")
    assert {c.name for c in load_suite(STANDARD).cases} >= set(cases)
    args = [a for c in cases for a in ("--case", c)]
    assert bench(tmp_path / "b", "--jobs", "1", *args, suite=STANDARD) == 0
    for name in (f"{c}/summary.json" for c in cases):
        assert (standard_run / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.slow
def test_committed_baseline_matches_a_fresh_standard_run(
    standard_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The committed baseline is what this code produces: a fresh bench passes its gate."""
    capsys.readouterr()
    baseline = STANDARD.parent.parent / "results" / "baselines" / "default.json"
    assert main(["check", str(standard_run), "--baseline", str(baseline)]) == 0
