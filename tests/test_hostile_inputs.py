"""Hostile inputs and faults, round two (issue 21), one section per class: unbounded reads,
hangs, huge numbers, silently ignored input, injection into CI output, tracebacks, forged or
endless error lines, paths out of the scenario's folder, SIGTERM and --jobs. Class 1 (a key
echoed in any encoding) lives in tests/sim/summarizers/test_redact.py, test_http_hostile.py
and the secrets scan in test_security.py; the per-loader fuzz in test_fuzz_loaders.py.

Every case goes through the real CLI in process (or a real subprocess where a signal or a
closed pipe is the point) and must end in one `compsim: error:` line with its exit code,
no traceback, and its input left as it was. Test names carry their class (`c02_` ...).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sim.commands.run
from sim.commands.main import main
from sim.errors import MAX_MESSAGE_CHARS, UserError, one_line
from sim.files import read_capped
from sim.regression.baseline import write_baseline
from sim.regression.suite_run import load_outcomes
from sim.report.escape import md, term
from sim.runs.grid import load_grid
from sim.runs.results import MANIFEST, SUMMARY_JSON, TRACES, TRIALS
from sim.runs.runner import run_grid

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
GATE = ROOT / "tests" / "fixtures" / "gate"
HUGE = "1" * 5000  # past Python's 4,300-digit int conversion limit
BIG = "9" * 401  # converts, but overflows a float and any int64


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_error(code: int, out: str, err: str, expected: str, want: int = 2) -> str:
    """Exit `want`, no traceback, exactly one `compsim: error:` line holding `expected`."""
    assert "Traceback" not in out + err, err
    errors = [ln for ln in err.splitlines() if ln.startswith("compsim: error:")]
    assert len(errors) == 1, err
    assert expected in errors[0], (expected, errors[0])
    assert len(errors[0]) <= MAX_MESSAGE_CHARS + 60, len(errors[0])
    assert code == want, (code, err)
    return errors[0]


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """A read that blocks (a FIFO) fails the test instead of hanging the suite."""

    def hung(*_: object) -> None:
        raise TimeoutError("the command blocked for 60 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "run"
    run_grid(load_grid(TINY, ["trials=2"]), out, jobs=1, progress=False)
    return out


def copy_run(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock"))
    return dst


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and p.name != ".lock"
    }


def scenario_with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(
        'name = "s"\nstrategies = ["budget_closed"]\n[history]\ntarget_tokens = 300\n'
        f'[[ladder]]\nname = "L1"\nbudget_tokens = 100\n{extra}'
    )
    return path


@pytest.fixture(scope="module")
def baseline_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("hostile_baseline") / "b.json"
    write_baseline(load_outcomes(GATE / "compress"), path)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


# --- class 2: unbounded reads ---------------------------------------------------------------
def test_c02_a_prompt_file_instruction_on_dev_zero_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = scenario_with(tmp_path, 'instruction = "file:/dev/zero"\n')
    argv = ["run", str(scenario), "--out", str(tmp_path / "out"), "--no-progress"]
    code, out, err = cli([*argv, "--prompt-files-anywhere"], capsys)
    one_error(code, out, err, "/dev/zero: a character device, not a regular file")
    assert not (tmp_path / "out").exists()


def test_c02_lint_prompt_on_dev_zero_is_refused_unread(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["lint-prompt", "/dev/zero"], capsys)
    one_error(code, out, err, "/dev/zero: a character device, not a regular file")


@pytest.mark.parametrize(
    ("name", "command", "expected"),
    [
        (MANIFEST, "report", "manifest.json: a character device"),
        (MANIFEST, "resume", "manifest.json: a character device"),
        (TRIALS, "report", "trials.jsonl: a character device"),
        (TRIALS, "resume", "trials.jsonl: not a regular file of this run"),
        (TRACES, "report", "traces.jsonl: a character device"),
        (TRACES, "resume", "traces.jsonl: not a regular file of this run"),
    ],
)
def test_c02_a_run_file_linked_to_dev_zero_is_one_line(
    tiny_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    command: str,
    expected: str,
) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    (run / name).unlink()
    (run / name).symlink_to("/dev/zero")
    before = snapshot(run)
    argv = {
        "report": ["report", str(run), "--no-tables"],
        "resume": ["run", "--resume", str(run), "--no-progress", "--jobs", "1"],
    }[command]
    code, out, err = cli(argv, capsys)
    one_error(code, out, err, expected)
    assert snapshot(run) == before and (run / name).is_symlink()


def test_c02_a_summary_linked_to_dev_zero_is_one_line(tiny_run: Path, tmp_path: Path) -> None:
    from sim.runs.results import load_run

    run = copy_run(tiny_run, tmp_path / "run")
    (run / SUMMARY_JSON).unlink()
    (run / SUMMARY_JSON).symlink_to("/dev/zero")
    with pytest.raises(UserError, match=r"summary\.json: a character device, not a regular file"):
        _ = load_run(run).summary


def test_c02_a_run_file_linked_elsewhere_is_never_truncated_by_resume(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """resume cuts trials.jsonl back to its last whole unit: through a link it would cut
    somebody else's file."""
    run = copy_run(tiny_run, tmp_path / "run")
    precious = tmp_path / "precious.jsonl"
    precious.write_bytes((run / TRIALS).read_bytes() + b'{"torn": ')
    (run / TRIALS).unlink()
    (run / TRIALS).symlink_to(precious)
    kept = precious.read_bytes()
    code, out, err = cli(["run", "--resume", str(run), "--no-progress", "--jobs", "1"], capsys)
    one_error(code, out, err, "trials.jsonl: not a regular file of this run")
    assert precious.read_bytes() == kept


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["run", "/dev/zero"], "/dev/zero: a character device"),
        (["check", str(GATE / "compress"), "--baseline", "/dev/zero"], "/dev/zero: a character"),
        (["lint-prompt", "/dev/zero", str(TINY)], "/dev/zero: a character device"),
        (["run", str(TINY), "--cache", "/dev/zero", "--summarizer", "scripted"], "/dev/zero"),
    ],
)
def test_c02_devices_given_as_inputs_are_refused(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = cli(
        [*argv, "--out", str(tmp_path / "o")] if argv[0] == "run" else argv, capsys
    )
    one_error(code, out, err, expected)


def test_c02_transcripts_and_registries_on_devices_are_refused() -> None:
    from sim.history.transcripts import load_transcript
    from sim.runtime.floor_registry import load_floor_registry

    for loader in (load_transcript, load_floor_registry):
        with pytest.raises(UserError, match="a character device, not a regular file"):
            loader("/dev/zero")


def test_c02_an_oversized_file_is_refused_by_its_size_before_a_byte_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 4 GiB sparse prompt file: reading it whole would take 4 GiB; refused from its size."""
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:
        fh.truncate(4 << 30)
    code, out, err = cli(["lint-prompt", str(path)], capsys)
    one_error(code, out, err, f"prompt file is {4 << 30} bytes (limit 262144)")


@pytest.mark.parametrize("size", [0, 10, 99, 100, 101, 5000])
def test_c02_the_capped_reader_reads_at_most_cap_bytes(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    if size <= 100:
        assert read_capped(path, "test file", UserError, 100) == b"x" * size
    else:
        with pytest.raises(UserError, match="larger than 100 bytes; not a test file file"):
            read_capped(path, "test file", UserError, 100)


def test_c02_list_with_a_scenario_linked_to_dev_zero_says_unreadable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    shutil.copy(TINY, tmp_path / "tiny.toml")
    code, out, err = cli(["list", "scenarios", "--dir", str(tmp_path)], capsys)
    assert code == 0 and "Traceback" not in err
    assert "(unreadable: a character device, not a regular file" in out
    assert "Four-cell test sweep" in out


# --- class 3: hangs ---------------------------------------------------------------------------
@pytest.mark.parametrize("what", ["prompt", "scenario", "baseline", "trials", "cache"])
def test_c03_a_fifo_is_refused_without_waiting_for_a_writer(
    what: str, tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    if what == "prompt":
        argv, expected = ["lint-prompt", str(fifo)], "fifo: a FIFO, not a regular file"
    elif what == "scenario":
        argv, expected = ["run", str(fifo), "--out", str(tmp_path / "o")], "a FIFO, not a regular"
    elif what == "baseline":
        argv = ["check", str(GATE / "compress"), "--baseline", str(fifo)]
        expected = "fifo: a FIFO, not a regular file"
    elif what == "trials":
        run = copy_run(tiny_run, tmp_path / "run")
        (run / TRIALS).unlink()
        os.mkfifo(run / TRIALS)
        argv, expected = ["report", str(run), "--no-tables"], "trials.jsonl: a FIFO"
    else:
        argv = ["run", str(TINY), "--summarizer", "scripted", "--cache", str(fifo)]
        argv += ["--out", str(tmp_path / "o"), "--no-progress", "--jobs", "1"]
        expected = "fifo: not a regular file; not used as a cache"
    code, out, err = cli(argv, capsys)
    one_error(code, out, err, expected)


# --- class 4: huge numbers --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (f"seed = {HUGE}\n", "invalid TOML: an integer of more than 4300 digits"),
        (f"trials = {BIG}\n", "trials: Input should be less than or equal to"),
    ],
)
def test_c04_huge_integers_in_a_scenario(
    extra: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.toml"
    path.write_text(TINY.read_text().replace("seed = 7\ntrials = 4\n", extra))
    code, out, err = cli(["run", str(path), "--out", str(tmp_path / "o")], capsys)
    one_error(code, out, err, expected)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (f"trials={HUGE}", "-S trials: an integer of more than 4300 digits"),
        (f"seed={BIG}", "seed: Input should be less than 9223372036854775808"),
        (f"history.target_tokens={BIG}", "history.target_tokens"),
    ],
)
def test_c04_huge_integers_in_overrides(
    value: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(["run", str(TINY), "-S", value, "--out", str(tmp_path / "o")], capsys)
    one_error(code, out, err, expected)


@pytest.mark.parametrize(
    ("digits", "expected"),
    [(HUGE, "b.json: an integer of 5000 digits"), (BIG, "b.json: an integer of 401 digits")],
)
def test_c04_huge_token_counts_in_a_baseline(
    digits: str,
    expected: str,
    baseline_doc: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = json.dumps(baseline_doc).replace('"version": 2', f'"version": 2, "x": {digits}', 1)
    path = tmp_path / "b.json"
    path.write_text(text)
    code, out, err = cli(["check", str(GATE / "compress"), "--baseline", str(path)], capsys)
    one_error(code, out, err, expected)


@pytest.mark.parametrize("name", [TRIALS, TRACES, MANIFEST, SUMMARY_JSON])
@pytest.mark.parametrize("digits", [HUGE, BIG], ids=["5000", "401"])
def test_c04_huge_integers_in_run_files(
    name: str, digits: str, tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    data = (run / name).read_bytes()
    key = b'"trial":' if name in (TRIALS, TRACES) else b'"version":'
    (run / name).write_bytes(data.replace(key, key + digits.encode() + b', "was":', 1))
    if name == SUMMARY_JSON:  # read by notebooks and the suite runner, not by a command
        from sim.runs.results import load_run

        with pytest.raises(UserError, match=f"summary.json: unreadable summary .*{len(digits)}"):
            _ = load_run(run).summary
        return
    code, out, err = cli(["report", str(run), "--no-tables"], capsys)
    one_error(code, out, err, f"{name}: ")
    assert f"an integer of {len(digits)} digits" in err


@pytest.mark.parametrize("digits", [HUGE, BIG], ids=["5000", "401"])
def test_c04_huge_integers_in_transcripts_and_registries(tmp_path: Path, digits: str) -> None:
    from sim.history.transcripts import load_transcript
    from sim.runtime.floor_registry import load_floor_registry

    transcript = tmp_path / "t.jsonl"
    transcript.write_text(f'{{"role": "user", "content": "hi", "n": {digits}}}\n')
    registry = tmp_path / "floors.toml"
    registry.write_text(
        (ROOT / "examples" / "floors.toml").read_text().replace("L1 = 60", f"L1 = {digits}")
    )
    for loader, path in ((load_transcript, transcript), (load_floor_registry, registry)):
        with pytest.raises(UserError, match=r"digits|at most") as info:
            loader(path)
        assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_c04_huge_integers_in_tool_arguments_stay_text(tmp_path: Path) -> None:
    """Tool-call arguments are shown compact when they parse; a 5,000-digit integer or 3,000
    levels of nesting inside them leave them as the text they were."""
    from sim.history.transcripts import load_transcript

    deep = "[" * 3000 + "]" * 3000
    for args in (f'{{"n": {HUGE}}}', deep):
        call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": args}}
        msg = {"role": "assistant", "content": "ok", "tool_calls": [call]}
        path = tmp_path / "t.jsonl"
        path.write_text(json.dumps(msg) + "\n")
        assert load_transcript(path).turns


# --- class 5: silently ignored input ----------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("trials=1\nseed=5", "-S trials: the value '1\\nseed=5' is not one TOML value"),
        ('name="a"\n[x]\ny=1', "is not one TOML value"),
        ("trials=1\n\nseed = 5\n", "is not one TOML value"),
        ("trials\nseed=5", "not a valid key"),
        ("trials=abc\nseed=5", "is not one TOML value"),
        ("trials=1\x00", "a NUL byte"),
    ],
)
def test_c05_an_override_that_does_not_parse_whole_is_refused(
    value: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(["run", str(TINY), "-S", value, "--out", str(tmp_path / "o")], capsys)
    one_error(code, out, err, expected)
    assert not (tmp_path / "o").exists()


def test_c05_multi_line_toml_values_are_still_one_value() -> None:
    grid = load_grid(TINY, ["trials=2", 'description="""two\nlines"""'])
    assert grid.base.trials == 2 and grid.base.description == "two\nlines"


# --- class 6: injection into CI output --------------------------------------------------------
EVIL = "x|<img src=x onerror=alert(1)>\n# pwned [click](javascript:alert(2)) `code`\x1b[2J"


def _evil_baseline(doc: dict[str, Any], path: Path) -> Path:
    doc = json.loads(json.dumps(doc))
    for case in doc["cases"].values():
        case["trials"][EVIL] = case["trials"].pop("budget_closed")
        case["summary"][EVIL] = case["summary"].pop("budget_closed")
    path.write_text(json.dumps(doc))
    return path


def test_c06_a_hostile_strategy_name_stays_inside_its_markdown_line(
    baseline_doc: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _evil_baseline(baseline_doc, tmp_path / "b.json")
    argv = ["check", str(GATE / "compress"), "--baseline", str(path), "--format", "markdown"]
    code, out, err = cli(argv, capsys)
    assert code == 3 and "Traceback" not in err
    assert "<img" not in out and "\x1b" not in out + err
    assert not any(ln.lstrip().startswith("# pwned") for ln in out.splitlines())
    assert "[click](" not in out and "`code`" not in out
    (line,) = [ln for ln in out.splitlines() if "pwned" in ln]
    assert line.startswith("- **INCONCLUSIVE**:") and "&lt;img" in line and "\\|" in line


def test_c06_a_hostile_strategy_name_stays_inside_its_terminal_line(
    baseline_doc: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _evil_baseline(baseline_doc, tmp_path / "b.json")
    code, out, err = cli(["check", str(GATE / "compress"), "--baseline", str(path)], capsys)
    assert code == 3 and "\x1b" not in out + err
    assert not any(ln.startswith("# pwned") for ln in out.splitlines())
    assert "\\x1b[2J" in out


def test_c06_markdown_table_cells_from_a_run_are_escaped(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A candidate run whose strategy key holds a pipe and markup: each table row keeps its
    eleven cells."""
    run = copy_run(tiny_run, tmp_path / "run")
    for name in (TRIALS, SUMMARY_JSON, MANIFEST):
        data = (run / name).read_text().replace("floor_gated", "fg|<b>x</b>")
        (run / name).write_text(data)
    code, out, err = cli(
        ["check", str(run), "--baseline", str(run), "--format", "markdown"], capsys
    )
    assert code in (0, 1, 3) and "Traceback" not in err
    rows = [ln for ln in out.splitlines() if ln.startswith("| ") and "fg" in ln]
    assert rows
    for row in rows:
        assert row.replace("\\|", "").count("|") == 12, row
        assert "<b>" not in row


@given(st.text(max_size=60))
def test_c06_md_and_term_never_let_markup_or_control_characters_through(text: str) -> None:
    for out in (md(text), term(text)):
        assert "\n" not in out and "\r" not in out and "\x1b" not in out
        assert not any(ord(c) < 32 for c in out)
    escaped = md(text)
    assert "<" not in escaped and ">" not in escaped
    assert escaped.replace("\\\\", "").replace("\\|", "").count("|") == 0


# --- class 7: tracebacks ----------------------------------------------------------------------
def test_c07_an_override_nested_3000_deep_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "[" * 3000 + "]" * 3000
    argv = ["run", str(TINY), "-S", f"strategies={deep}", "--out", str(tmp_path / "o")]
    code, out, err = cli(argv, capsys)
    one_error(code, out, err, "-S strategies: nested too deeply")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("levels", 5, "levels: Input should be a valid list (got 5)"),
        ("facts", {"a": 1}, "facts: Input should be a valid list"),
        ("collapsed", "yes", "collapsed: Input should be a valid boolean (got 'yes')"),
        ("tokens_emitted", 1.5, "tokens_emitted: Input should be a valid integer"),
        ("strategy", None, "strategy: Input should be a valid string"),
    ],
)
def test_c07_a_valid_json_row_of_the_wrong_shape_is_one_line(
    field: str,
    value: Any,
    expected: str,
    tiny_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    lines = (run / TRIALS).read_text().splitlines(keepends=True)
    row = json.loads(lines[1])
    row[field] = value
    lines[1] = json.dumps(row) + "\n"
    (run / TRIALS).write_text("".join(lines))
    code, out, err = cli(["report", str(run), "--no-tables"], capsys)
    one_error(code, out, err, f"trials.jsonl: line 2: {expected}")


def test_c07_a_trace_of_the_wrong_shape_is_one_line(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(tiny_run, tmp_path / "run")
    lines = (run / TRACES).read_text().splitlines(keepends=True)
    row = json.loads(lines[0])
    row["levels"][1]["grades"] = {"f1": 5}
    lines[0] = json.dumps(row) + "\n"
    (run / TRACES).write_text("".join(lines))
    code, out, err = cli(["report", str(run), "--no-tables"], capsys)
    one_error(code, out, err, "traces.jsonl: line 1: levels.1.grades.f1")


@pytest.mark.parametrize("flag", ["--out", "--resume"])
def test_c07_an_output_path_that_is_not_utf8_is_one_line(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = os.fsdecode(os.fsencode(str(tmp_path)) + b"/run-\xff")
    argv = ["run", str(TINY), "--out", bad] if flag == "--out" else ["run", "--resume", bad]
    code, out, err = cli([*argv, "--no-progress"], capsys)
    one_error(code, out, err, "not UTF-8 text; name it in UTF-8")
    assert list(tmp_path.iterdir()) == []


# --- class 8: error lines ---------------------------------------------------------------------
def test_c08_a_closed_pipe_exits_0_quietly() -> None:
    """The reader is gone before compsim writes a byte (`compsim list | true`)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sim.commands.main", "list", "strategies"],
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""


@pytest.mark.parametrize(
    "name", ["a\ncompsim: error: forged", "b\rforged", "c\x1b[31mred", "d\u202eevil", "e\x85f"]
)
def test_c08_a_path_with_control_characters_is_one_escaped_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(["run", str(tmp_path / name)], capsys)
    line = one_error(code, out, err, "cannot read scenario")
    assert err.count("\n") == 1 and "\r" not in err and "\x1b" not in err
    assert "\u202e" not in err and "\x85" not in err
    assert "\\n" in line or "\\r" in line or "\\x1b" in line or "\\u202e" in line or "\\x85" in line


def test_c08_a_3000_character_value_makes_a_short_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", str(TINY), "-S", "name=" + "n" * 3000, "--out", str(tmp_path / "o")]
    code, out, err = cli(argv, capsys)
    line = one_error(code, out, err, "name")
    assert len(line) < 300 and "(3005 characters)" in line


@given(st.text(max_size=3000))
def test_c08_one_line_is_one_short_printable_line(text: str) -> None:
    out = one_line(text)
    assert "\n" not in out and "\r" not in out and len(out) <= MAX_MESSAGE_CHARS + 40
    assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in out)
    out.encode("utf-8")  # no lone surrogate left to crash the terminal's encoder


def test_c08_a_warning_is_one_escaped_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fake_run_grid(*_: object, **__: object) -> None:
        import warnings

        warnings.warn("two\ncompsim: error: forged", stacklevel=1)
        raise UserError("stop here")

    monkeypatch.setattr(sim.commands.run, "run_grid", fake_run_grid)
    code, out, err = cli(["run", str(TINY), "--out", str(tmp_path / "o")], capsys)
    one_error(code, out, err, "stop here")
    assert err.splitlines()[0] == "compsim: warning: two\\ncompsim: error: forged"


# --- class 9: paths ---------------------------------------------------------------------------
SECRET_WORDS = "tr0ub4dor-horse-battery"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A prompt file outside the scenario's folder, holding words nobody meant to show and a
    placeholder error (so a read would fail and could echo them)."""
    path = tmp_path / "elsewhere" / "secret.txt"
    path.parent.mkdir()
    path.write_text(f"password {SECRET_WORDS} costs $5 and ${SECRET_WORDS}\n$input\n")
    return path


@pytest.mark.parametrize("how", ["absolute", "dotdot", "link", "link-dir"])
def test_c09_file_references_cannot_leave_the_scenario_folder(
    how: str, outside: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    ref = {"absolute": str(outside), "dotdot": "../elsewhere/secret.txt"}.get(how)
    if how == "link":
        (folder / "p.txt").symlink_to(outside)
        ref = "p.txt"
    elif how == "link-dir":
        (folder / "prompts").symlink_to(outside.parent)
        ref = "prompts/secret.txt"
    scenario = scenario_with(folder, f'instruction = "file:{ref}"\n')
    argv = ["run", str(scenario), "--out", str(tmp_path / "o"), "--no-progress", "--jobs", "1"]
    code, out, err = cli(argv, capsys)
    one_error(code, out, err, "outside the scenario's folder")
    assert SECRET_WORDS not in out + err and "password" not in out + err
    assert not (tmp_path / "o").exists()
    # with the user's opt-in the file is read, and its own error still shows none of it
    code, out, err = cli([*argv, "--prompt-files-anywhere"], capsys)
    one_error(code, out, err, "malformed placeholder")
    assert SECRET_WORDS not in out + err and "password" not in out + err
    assert os.environ.get("COMPSIM_PROMPT_FILES_ANYWHERE") is None  # not left set


def test_c09_a_scenario_cannot_opt_in_for_itself(
    outside: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    extra = f'instruction = "file:{outside}"\n'
    scenario = scenario_with(folder, extra).read_text()
    (folder / "s.toml").write_text("prompt_files_anywhere = true\n" + scenario)
    code, out, err = cli(["run", str(folder / "s.toml"), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and SECRET_WORDS not in out + err


def test_c09_references_inside_the_folder_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "mine.txt").write_text("Compress the log, keep every rule.\n$input\n")
    scenario = scenario_with(tmp_path, 'instruction = "file:prompts/mine.txt"\n')
    out = tmp_path / "o"
    code, _, err = cli(
        ["run", str(scenario), "--out", str(out), "--no-progress", "--jobs", "1"], capsys
    )
    assert code == 0, err


@pytest.mark.parametrize(
    ("content", "hidden"),
    [("a $5 b\n$input", "a $5 b"), ("${credentials}\n$input", "credentials"), ("$api_key", "api")],
)
def test_c09_prompt_errors_give_a_position_never_the_text(
    content: str, hidden: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(content)
    code, out, err = cli(["lint-prompt", str(path)], capsys)
    line = one_error(code, out, err, "line 1, column")
    assert hidden not in line.replace(str(path), "")


# --- class 10: signals ------------------------------------------------------------------------
def test_c10_sigterm_is_handled_as_ctrl_c_with_its_own_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def terminated_mid_run(*_: object, **__: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises before this ends
        raise AssertionError("SIGTERM was not handled")

    monkeypatch.setattr(sim.commands.run, "run_grid", terminated_mid_run)
    code, out, err = cli(["run", str(TINY), "--out", str(tmp_path / "o")], capsys)
    assert code == 143 and err.strip().splitlines()[-1] == "compsim: terminated (SIGTERM)"
    assert out == ""
    assert signal.getsignal(signal.SIGTERM) is not None
    assert "Traceback" not in err


@pytest.mark.slow
def test_c10_sigterm_mid_run_keeps_every_unit_and_resume_finishes_it(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run_grid(load_grid(TINY, ["trials=12"]), whole, jobs=1, progress=False)
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "sim.commands.main", "run", str(TINY), "-S", "trials=12"]
    proc = subprocess.Popen(
        [*argv, "--out", str(out), "--jobs", "2", "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if (out / TRIALS).exists() and (out / TRIALS).read_bytes().count(b"\n") >= 6:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    said = err.decode()
    if proc.returncode == 0:
        pytest.skip("the run finished before SIGTERM arrived")
    assert proc.returncode == 143, said
    assert "continue with: compsim run --resume" in said and "Traceback" not in said
    assert said.strip().splitlines()[-1] == "compsim: terminated (SIGTERM)"
    assert (out / TRIALS).read_bytes().endswith(b"\n")
    done = subprocess.run(
        [sys.executable, "-m", "sim.commands.main", "run", "--resume", str(out), "--jobs", "1",
         "--no-progress"],
        cwd=ROOT, capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (out / SUMMARY_JSON).read_bytes() == (whole / SUMMARY_JSON).read_bytes()


# --- class 11: processes ----------------------------------------------------------------------
@pytest.mark.parametrize("jobs", [10_000, 10**12])
def test_c11_jobs_far_above_the_cores_are_capped_with_a_warning(
    jobs: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def capture(*_: object, **kw: Any) -> None:
        seen.update(kw)
        raise UserError("captured")

    monkeypatch.setattr(sim.commands.run, "run_grid", capture)
    argv = ["run", str(TINY), "--jobs", str(jobs), "--out", str(tmp_path / "o")]
    code, out, err = cli(argv, capsys)
    cap = 4 * (os.cpu_count() or 1)
    assert code == 2 and out == "" and seen["jobs"] == cap
    assert f"compsim: warning: --jobs={jobs}: more than 4x this machine's" in err
    assert f"running {cap} processes" in err


def test_c11_jobs_within_the_cap_are_kept_and_ray_is_not_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []

    def capture(*_: object, **kw: Any) -> None:
        seen.append(kw["jobs"])
        raise UserError("captured")

    monkeypatch.setattr(sim.commands.run, "run_grid", capture)
    monkeypatch.setattr(sim.commands.run, "executor_factory", lambda args: None)
    cores = os.cpu_count() or 1
    for argv in (["--jobs", str(4 * cores)], ["--jobs", "5000", "--executor", "ray"]):
        code, out, err = cli(["run", str(TINY), *argv, "--out", str(tmp_path / "o")], capsys)
        assert code == 2 and out == "" and "warning" not in err
    assert seen == [4 * cores, 5000]
