"""`compsim run --compactor / --strategy / --summarizer REF`: one command, worker processes that
import the reference themselves, and exit 2 before any trial when the reference is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.runs.results import TRIALS, iter_jsonl

ROOT = Path(__file__).resolve().parents[3]
TINY = str(ROOT / "tests" / "fixtures" / "tiny.toml")
FIXTURE = ROOT / "tests" / "fixtures" / "compactors.py"
ONE_CELL = ["-S", "ladder=small", "-S", "constraints.depths=[0.5]"]


def compsim(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def _strategies(out: Path) -> list[str]:
    return sorted({str(r["strategy"]) for r in iter_jsonl(out / TRIALS)})


def test_one_flag_runs_the_compactor_beside_the_reference_baselines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    code, stdout, _ = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "3", "--out", str(out),
        "--compactor", f"{FIXTURE}:drop_rules",
    )  # fmt: skip
    assert code == 1  # it lost rules silently: the command fails like a check
    assert _strategies(out) == ["drop_rules", "empty", "head", "keep_all", "tail"]
    assert "drop_rules: SILENT COLLAPSE in 3 of 3 trials (100.0%)" in stdout
    manifest = json.loads((out / "manifest.json").read_text())
    entry = manifest["scenario"]["strategies"][0]
    assert entry == {"name": "drop_rules", "callable": f"{FIXTURE}:drop_rules"}


def test_a_compactor_that_keeps_every_rule_exits_0_and_can_be_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, stdout, _ = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "2", "--out", str(tmp_path / "r"),
        "--compactor", f"everything={FIXTURE}:keep_everything",
    )  # fmt: skip
    assert code == 0
    assert "everything: no silent collapse in 0 of 2 trials (0.0%); over budget in 2" in stdout


def test_worker_processes_import_the_compactor_by_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    mine = tmp_path / "mine.py"  # a file no process has imported yet; it names its own log
    mine.write_text(
        "import os, time\n"
        "def with_pid(text, budget_tokens):\n"
        "    time.sleep(0.01)  # enough work that the pool has started before the end\n"
        f"    with open({str(pids)!r}, 'a') as fh:\n"
        "        fh.write(f'{os.getpid()}\\n')\n"
        "    return text\n"
    )
    out = tmp_path / "r"
    code, _, err = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "40", "--jobs", "2", "--out", str(out),
        "--compactor", f"{mine}:with_pid",
    )  # fmt: skip
    assert code == 0, err
    rows = list(iter_jsonl(out / TRIALS))
    assert len(rows) == 40 * 5 and not any(r.get("error") for r in rows)
    assert len(set(pids.read_text().split())) >= 2  # the driver and at least one worker


@pytest.mark.parametrize(
    ("flag", "ref", "message"),
    [
        ("--compactor", f"{FIXTURE}:missing", "has no attribute 'missing'"),
        ("--compactor", f"{FIXTURE}:one_arg", "2 positional arguments"),
        ("--compactor", "mine", "expected 'pkg.module:function'"),
        ("--strategy", f"{FIXTURE}:not_a_strategy", "has no compact(text, budget, ctx)"),
        ("--summarizer", f"{FIXTURE}:one_arg", "2 positional arguments"),
        ("--summarizer", "no_such_pkg_here.mod:fn", "importing no_such_pkg_here.mod raised"),
    ],
)
def test_a_bad_reference_is_one_line_exit_2_before_any_trial(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str, ref: str, message: str
) -> None:
    out = tmp_path / "r"
    code, _, err = compsim(capsys, "run", TINY, *ONE_CELL, "--out", str(out), flag, ref)
    assert code == 2
    assert err.startswith("compsim: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not (out / TRIALS).exists()


def test_two_compactors_of_one_name_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = compsim(
        capsys, "run", TINY, "--out", str(tmp_path / "r"),
        "--compactor", f"{FIXTURE}:drop_rules", "--compactor", f"{FIXTURE}:drop_rules",
    )  # fmt: skip
    assert code == 2 and "two strategies are named 'drop_rules'; name one with NAME=REF" in err


def test_flags_and_s_strategies_contradict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = compsim(
        capsys, "run", TINY, "-S", "strategies=['empty']", "--out", str(tmp_path / "r"),
        "--compactor", f"{FIXTURE}:drop_rules",
    )  # fmt: skip
    assert code == 2 and "contradict" in err


def test_a_strategy_factory_and_toml_references(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "1", "--out", str(tmp_path / "a"),
        "--strategy", f"{FIXTURE}:first_lines",
    )  # fmt: skip
    assert code in (0, 1), err
    assert "first_lines" in _strategies(tmp_path / "a")
    monkeypatch.chdir(ROOT)  # a relative file reference is relative to the working directory
    listed = (
        '[{callable = "tests/fixtures/compactors.py:drop_rules", name = "mine"}, '
        '{factory = "tests/fixtures/compactors.py:first_lines", lines = 1}]'
    )
    code, _, err = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "1", "--out", str(tmp_path / "b"),
        "-S", f"strategies={listed}",
    )  # fmt: skip
    assert code == 0, err
    assert _strategies(tmp_path / "b") == ["first_lines(lines=1)", "mine"]


def test_the_summarizer_flag_drives_the_built_in_strategies(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    code, _, err = compsim(
        capsys, "run", TINY, *ONE_CELL, "--trials", "2", "--out", str(out),
        "-S", "strategies=['budget_closed', 'floor_gated']",
        "--summarizer", f"{FIXTURE}:model_call",
    )  # fmt: skip
    assert code == 0, err
    rows = {str(r["strategy"]): r for r in iter_jsonl(out / TRIALS)}
    assert not any(r.get("error") for r in rows.values())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["scenario"]["summarizer"]["callable"] == f"{FIXTURE}:model_call"
    assert manifest["scenario"]["summarizer"]["name"] == "callable"


def test_a_suite_file_lists_a_compactor_by_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = ROOT / "tests" / "fixtures" / "gate" / "suite" / "cases"
    suite = tmp_path / "suite.toml"
    suite.write_text(
        'name = "mine"\nversion = 1\n'
        f'strategies = [{{callable = "{FIXTURE}:drop_rules", name = "mine"}}]\n'
        f'[[cases]]\nname = "short"\nfile = "{cases / "short.toml"}"\nversion = 1\n'
    )
    out = tmp_path / "run"
    code = main(["bench", "--suite", str(suite), "--out", str(out), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    assert _strategies(out / "short") == ["empty", "head", "keep_all", "mine", "tail"]
