"""The hostile and malformed input corpus (tests/bad_inputs/cases.toml): every case ends with
its one-line error and exit code through the real CLI, never a traceback, and writes nothing
it should not. Most cases call `sim.commands.main.main` in process; those marked `subprocess` run
`python -m sim.commands.main` for real. Files that no command reads (transcripts, floor registries)
go through their library loaders. Cases too big to commit, or built from a real run, are below."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sim.commands.main import main
from sim.errors import UserError
from sim.history.transcripts import load_transcript
from sim.runs.grid import load_grid
from sim.runs.results import MANIFEST, SUMMARY_JSON, TRACES, TRIALS, load_run
from sim.runs.runner import run_grid
from sim.runtime.floor_registry import load_floor_registry

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "bad_inputs"
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
CASES: list[dict[str, Any]] = tomllib.loads((HERE / "cases.toml").read_text())["case"]
LOADERS: dict[str, Callable[[Path], object]] = {
    "transcript": load_transcript,
    "registry": load_floor_registry,
}


def fill(text: str, case_path: Path | None, tmp: Path) -> str:
    out = text.replace("{root}", str(ROOT)).replace("{tmp}", str(tmp))
    return out.replace("{path}", str(case_path)) if case_path is not None else out


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run from the repository root, with no key variable set, and undo the CLI's one-line
    warning hook so it does not leak into other tests."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("COMPSIM_TEST_UNSET_KEY", raising=False)
    saved = warnings.showwarning
    yield
    warnings.showwarning = saved


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_subprocess(argv: list[str]) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "sim.commands.main", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def check_one_line(
    code: int,
    out: str,
    err: str,
    expected: str,
    *,
    want: int = 2,
    lines: int = 1,
    usage: bool = False,
) -> None:
    """Exit `want`, no traceback, and the error as the last stderr line, alone unless the
    case says otherwise (argparse prints its usage first)."""
    assert "Traceback" not in out + err, err
    shown = [ln for ln in err.splitlines() if ln.strip()]
    assert shown, f"nothing on stderr (exit {code}); stdout: {out[-300:]}"
    assert shown[-1].startswith("compsim: error: "), err
    assert expected in shown[-1], (expected, shown[-1])
    if not usage:
        assert len(shown) == lines, err
    assert sum(ln.startswith("compsim: error") for ln in shown) == 1, err
    assert code == want, (code, err)


def case_id(case: dict[str, Any]) -> str:
    return str(case["id"])


def test_the_corpus_has_forty_cases_and_every_file_is_used() -> None:
    assert len(CASES) >= 40
    assert len({c["id"] for c in CASES}) == len(CASES)
    used = {c["path"] for c in CASES if "path" in c}
    for folder in ("scenarios", "prompts", "baselines", "transcripts", "registries"):
        for path in (HERE / folder).iterdir():
            assert str(path.relative_to(HERE)) in used, f"{path} is in no case"
    for path in (HERE / "runs").iterdir():
        assert str(path.relative_to(HERE)) in used, f"{path} is in no case"


@pytest.mark.parametrize("case", [c for c in CASES if c.get("kind", "cli") == "cli"], ids=case_id)
def test_cli_case(case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / case["path"] if "path" in case else None
    argv = [fill(a, path, tmp_path) for a in case["argv"]]
    before = _snapshot(path)
    if case.get("subprocess"):
        code, out, err = run_subprocess(argv)
    else:
        code, out, err = run_cli(argv, capsys)
    check_one_line(
        code,
        out,
        err,
        fill(case["error"], path, tmp_path),
        want=case.get("code", 2),
        lines=case.get("lines", 1),
        usage=case.get("usage", False),
    )
    for secret in case.get("absent", []):
        assert secret not in out + err
    if not case.get("writes"):
        assert not (tmp_path / "out").exists(), "a refused command wrote its output"
    assert _snapshot(path) == before, "the command changed its own input"


@pytest.mark.parametrize("case", [c for c in CASES if c.get("kind") in LOADERS], ids=case_id)
def test_loader_case(case: dict[str, Any]) -> None:
    path = HERE / case["path"]
    with pytest.raises(UserError) as info:
        LOADERS[case["kind"]](path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path)), message
    assert case["error"] in message


def _snapshot(path: Path | None) -> dict[str, bytes]:
    if path is None or not path.exists():
        return {}
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


# --- generated cases ------------------------------------------------------------------------
BIG = 50_000_000


def test_a_50_mb_line_in_a_scenario_is_refused_before_parsing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.toml"
    with path.open("w") as fh:
        fh.write(TINY.read_text())
        fh.write('description = "' + "a" * BIG + '"\n')
    code, out, err = run_cli(["run", str(path), "--out", str(tmp_path / "out")], capsys)
    check_one_line(code, out, err, f"{path}: larger than 1048576 bytes; not a scenario file")
    assert not (tmp_path / "out").exists()


def test_a_long_name_is_one_line_that_shows_only_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.toml"
    path.write_text(TINY.read_text().replace('name = "tiny"', 'name = "' + "n" * 900_000 + '"'))
    code, out, err = run_cli(["run", str(path), "--out", str(tmp_path / "out")], capsys)
    check_one_line(code, out, err, "name: String should have at most 128 characters")
    assert len(err) < 400


def test_a_50_mb_prompt_line_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.txt"
    path.write_text("x" * BIG + " $input\n")
    code, out, err = run_cli(["lint-prompt", str(path)], capsys)
    check_one_line(code, out, err, f"prompt file is {BIG + 8} bytes (limit 262144)")


def test_a_50_mb_transcript_line_without_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text('{"role": "user", "content": "' + "a" * BIG + "\n")
    with pytest.raises(UserError) as info:
        load_transcript(path)
    assert str(info.value).startswith(f"{path}:1: not valid JSON")
    assert len(str(info.value)) < 300


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bad_inputs") / "run"
    run_grid(load_grid(TINY, ["trials=2"]), out, jobs=1, progress=False)
    return out


def corrupt_copy(run: Path, dst: Path, name: str, edit: Any) -> Path:
    shutil.copytree(run, dst, ignore=shutil.ignore_patterns(".lock"))
    target = dst / name
    target.write_bytes(edit(target.read_bytes()))
    return dst


def _mid_file_garbage(data: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    return b"".join([lines[0], b"#garbage#\n", *lines[1:]])


def _future_row(data: bytes) -> bytes:
    row = json.loads(data.splitlines()[0])
    return json.dumps({**row, "v": 99}).encode() + b"\n" + data


def _not_a_row(data: bytes) -> bytes:
    return b"[1, 2, 3]\n" + data


def _older_store(data: bytes) -> bytes:
    return data.replace(b'"version": 1', b'"version": 0', 1)


def _nested_row(data: bytes) -> bytes:
    return b"[" * 20000 + b"]" * 20000 + b"\n" + data


RUN_CASES = [
    ("report", TRIALS, _mid_file_garbage, "trials.jsonl: line 2: not valid JSON (file corrupted)"),
    ("report", TRIALS, _future_row, "trials.jsonl: line 1: v: row version 99 is newer"),
    ("report", TRIALS, _not_a_row, "trials.jsonl: line 1: not a row of a run (file corrupted)"),
    ("report", TRIALS, _nested_row, "trials.jsonl: line 1: not valid JSON (file corrupted)"),
    ("report", TRACES, _mid_file_garbage, "traces.jsonl: line 2: not valid JSON (file corrupted)"),
    ("resume", TRIALS, _mid_file_garbage, "trials.jsonl: line 2: corrupted mid-file"),
    ("resume", TRIALS, _not_a_row, "trials.jsonl: line 1: corrupted mid-file"),
    ("resume", MANIFEST, _older_store, "manifest.json: version: unknown store version 0"),
]


@pytest.mark.parametrize(
    ("command", "name", "edit", "expected"),
    RUN_CASES,
    ids=[f"{c}-{n}-{e.__name__}" for c, n, e, _ in RUN_CASES],
)
def test_a_corrupted_run_is_one_line_and_left_as_it_was(
    tiny_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    name: str,
    edit: Any,
    expected: str,
) -> None:
    run = corrupt_copy(tiny_run, tmp_path / "run", name, edit)
    before = _snapshot(run)
    argv = ["report", str(run)] if command == "report" else ["run", "--resume", str(run)]
    code, out, err = run_cli([*argv, "--no-progress"] if command == "resume" else argv, capsys)
    check_one_line(code, out, err, expected)
    after = _snapshot(run)
    after.pop(".lock", None)
    before.pop(".lock", None)
    assert after == before, "a refused command changed the run"


def test_a_torn_summary_is_a_one_line_error_for_notebooks(tiny_run: Path, tmp_path: Path) -> None:
    run = corrupt_copy(tiny_run, tmp_path / "run", SUMMARY_JSON, lambda d: d[: len(d) // 2])
    with pytest.raises(UserError, match=r"summary\.json: unreadable summary") as info:
        _ = load_run(run).summary
    assert "\n" not in str(info.value)


def test_resuming_with_a_scenario_of_another_run_is_refused(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = corrupt_copy(tiny_run, tmp_path / "run", SUMMARY_JSON, lambda d: d)
    argv = ["run", str(TINY), "--trials", "3", "--resume", str(run), "--no-progress"]
    code, out, err = run_cli(argv, capsys)
    check_one_line(code, out, err, "the scenario and flags given describe a different run")


def test_out_holding_this_run_or_foreign_files_is_refused_and_left_alone(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = corrupt_copy(tiny_run, tmp_path / "run", SUMMARY_JSON, lambda d: d)
    before = _snapshot(run)
    argv = ["run", str(TINY), "--trials", "2", "--out", str(run), "--jobs", "1", "--no-progress"]
    code, out, err = run_cli(argv, capsys)
    check_one_line(code, out, err, f"--out {run}: already holds this run; use --resume")
    assert {k: v for k, v in _snapshot(run).items() if k != ".lock"} == {
        k: v for k, v in before.items() if k != ".lock"
    }
    stranger = tmp_path / "notes"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("keep me")
    argv = ["run", str(TINY), "--out", str(stranger), "--force", "--jobs", "1", "--no-progress"]
    code, out, err = run_cli(argv, capsys)
    check_one_line(code, out, err, "not empty and not a run directory (even --force")
    assert [p.name for p in stranger.iterdir()] == ["notes.txt"]
    assert (stranger / "notes.txt").read_text() == "keep me"
