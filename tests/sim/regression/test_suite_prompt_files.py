"""`file:` prompt references in a suite resolve next to the file that names them: the suite's
strategies under test next to `suite.toml`, a case file's own references next to the case
file. A decoy with the same relative path sits next to the other file in every test, so a
lookup in the wrong folder reads the wrong prompt instead of passing by luck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.errors import ScenarioError
from sim.regression.suite import load_suite

CASE = """seed = 11
trials = 1
{extra}
[history]
target_tokens = 600

[constraints]
count = 1

[[ladder]]
name = "L1"
budget_tokens = 200
group_size = 3
{level}
"""

RECORDER = """from pathlib import Path

def summarize(text, budget_tokens, instruction=None):
    with open(Path(__file__).with_suffix(".log"), "a") as log:
        log.write((instruction or "") + "\\n---\\n")
    return text.splitlines()[0] if text.strip() else ""
"""


def _prompt(path: Path, marker: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{marker}: compress the log.\n\n$input\n")


def _suite(tmp: Path, strategies: str, case: str) -> Path:
    (tmp / "cases").mkdir(parents=True, exist_ok=True)
    (tmp / "cases" / "c.toml").write_text(case)
    suite = tmp / "suite.toml"
    suite.write_text(
        f'name = "t"\nversion = 1\nstrategies = {strategies}\n'
        '[[cases]]\nname = "c"\nfile = "cases/c.toml"\nversion = 1\n'
    )
    return suite


def _recorded(tmp: Path, suite: Path) -> str:
    (tmp / "rec.py").write_text(RECORDER)
    code = main(
        [
            "bench",
            "--suite",
            str(suite),
            "--out",
            str(tmp / "out"),
            "--jobs",
            "1",
            "--no-progress",
            "-S",
            f'summarizer={{name = "callable", callable = "{tmp / "rec.py"}:summarize"}}',
        ]
    )
    assert code == 0
    return (tmp / "rec.log").read_text()


def test_a_suite_strategy_prompt_is_read_next_to_the_suite_file(tmp_path: Path) -> None:
    _prompt(tmp_path / "prompts" / "mine.txt", "SUITE-PROMPT")
    _prompt(tmp_path / "cases" / "prompts" / "mine.txt", "CASE-DECOY")
    suite = _suite(
        tmp_path,
        '[{name = "budget_closed", instruction = "file:prompts/mine.txt"}]',
        CASE.format(extra="", level=""),
    )
    sent = _recorded(tmp_path, suite)
    assert "SUITE-PROMPT" in sent and "CASE-DECOY" not in sent
    # the label keeps the reference as the suite wrote it (it is the baseline's key)
    specs = load_suite(suite).cases[0].grid().cells[0].scenario.strategy_specs()
    assert specs[0] == ("budget_closed", {"instruction": "file:prompts/mine.txt"})


def test_a_case_files_own_prompts_are_read_next_to_the_case_file(tmp_path: Path) -> None:
    _prompt(tmp_path / "cases" / "prompts" / "mine.txt", "CASE-PROMPT")
    _prompt(tmp_path / "prompts" / "mine.txt", "SUITE-DECOY")
    case = CASE.format(
        extra='strategies = [{name = "budget_closed", instruction = "file:prompts/mine.txt"}]',
        level='instruction = "file:prompts/mine.txt"',
    )
    suite = _suite(tmp_path, '["budget_closed"]', case)
    sent = _recorded(tmp_path, suite)
    assert "CASE-PROMPT" in sent and "SUITE-DECOY" not in sent


@pytest.mark.parametrize(
    ("where", "naming", "field"),
    [
        ("suite", "suite.toml", "strategies.0.instruction"),
        ("case", "cases/c.toml", "ladder.0.instruction"),
    ],
)
def test_a_missing_prompt_names_the_naming_file_the_field_and_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, naming: str, field: str
) -> None:
    ref = "file:prompts/gone.txt"
    strategies = f'[{{name = "budget_closed", instruction = "{ref}"}}]'
    level = f'instruction = "{ref}"' if where == "case" else ""
    suite = _suite(
        tmp_path,
        strategies if where == "suite" else '["budget_closed"]',
        CASE.format(extra="", level=level),
    )
    with pytest.raises(ScenarioError) as info:
        load_suite(suite)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / naming}: {field}: {ref}: ")
    assert "cannot read prompt file (No such file or directory)" in message
    assert "\n" not in message
    assert main(["bench", "--suite", str(suite), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"compsim: error: {message}"]
    assert not (tmp_path / "o").exists()


def test_a_suite_prompt_cannot_leave_the_suite_folder(tmp_path: Path) -> None:
    _prompt(tmp_path / "outside.txt", "OUTSIDE")
    suite = _suite(
        tmp_path / "s",
        '[{name = "budget_closed", instruction = "file:../outside.txt"}]',
        CASE.format(extra="", level=""),
    )
    with pytest.raises(ScenarioError, match=r"suite\.toml: strategies\.0\.instruction: .*outside"):
        load_suite(suite)


def test_a_resumed_case_still_reads_the_suites_prompt(tmp_path: Path) -> None:
    """`compsim run --resume` on one case of a suite run rebuilds the case from its manifest,
    which records where the suite's strategies resolve their prompts."""
    _prompt(tmp_path / "prompts" / "mine.txt", "SUITE-PROMPT")
    _prompt(tmp_path / "cases" / "prompts" / "mine.txt", "CASE-DECOY")
    suite = _suite(
        tmp_path,
        '[{name = "budget_closed", instruction = "file:prompts/mine.txt"}]',
        CASE.format(extra="", level=""),
    )
    _recorded(tmp_path, suite)
    case = tmp_path / "out" / "c"
    manifest = json.loads((case / "manifest.json").read_text())
    assert manifest["prompt_dirs"] == {"strategies": str(tmp_path)}
    (tmp_path / "rec.log").unlink()
    (case / "trials.jsonl").write_text("")  # as if interrupted before any trial finished
    (case / "summary.json").unlink()
    assert main(["run", "--resume", str(case), "--jobs", "1", "--no-progress"]) == 0
    sent = (tmp_path / "rec.log").read_text()
    assert "SUITE-PROMPT" in sent and "CASE-DECOY" not in sent
