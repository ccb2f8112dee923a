"""Fuzzing every loader beside the scenario's (tests/test_fuzz_scenario.py): trial rows,
traces, manifests, baselines, transcripts, floor registries, prompt files and `-S` values.
Each takes a valid file, edits it at random depths (replace, delete or add a value: the
inputs most likely to get past the first checks) or writes random bytes, and runs what a user
would run on it; only the project's one-line errors (UserError) may escape.
"""

from __future__ import annotations

import contextlib
import copy
import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.commands.main import main
from sim.errors import UserError
from sim.history.transcripts import load_transcript
from sim.prompts.templates import _load, load_prompt
from sim.regression.baseline import write_baseline
from sim.regression.suite_run import load_outcomes
from sim.report.html import write_report
from sim.report.runview import aggregate_run
from sim.report.tables import format_all
from sim.runs.grid import load_grid, parse_override
from sim.runs.results import MANIFEST, TRACES, TRIALS, load_run
from sim.runs.runner import run_grid
from sim.runtime.floor_registry import load_floor_registry, parse_registry
from tests.helpers import examples
from tests.test_fuzz_scenario import paths, values

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
GATE = ROOT / "tests" / "fixtures" / "gate"
FUZZ = settings(
    max_examples=examples(1.0),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
    deadline=None,
)
HOSTILE = st.sampled_from(
    [10**19, -(10**19), 10**400, 2**63, -1, 0, 5, 1.5, float("nan"), float("inf"), True, None,
     "", "x" * 500, "a\nb", "|<img onerror=alert(1)>", "\x1b[2J", [], {}, [[[]]], {"v": 99}]
)  # fmt: skip
EDIT_VALUES = st.one_of(values, HOSTILE.map(copy.deepcopy))  # never share a mutable value


def edit(draw: st.DrawFn, data: Any, most: int = 4) -> Any:
    """`data` with one to `most` random edits: replace, delete or add a value anywhere."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, most))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            continue
        parent: Any = data
        for part in where[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[where[-1]] = draw(EDIT_VALUES)
        elif action == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(EDIT_VALUES)
        else:
            parent.append(draw(EDIT_VALUES))
    return data


def json_text(data: Any) -> str:
    """JSON as a hostile writer would write it: NaN and 400-digit integers included."""
    return json.dumps(data, allow_nan=True)


# --- run directories: trial rows, traces, manifests ---------------------------------------
@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz_run") / "run"
    run_grid(load_grid(TINY, ["trials=2"]), out, jobs=1, progress=False)
    return out


def read_like_report(run_dir: Path, html: bool) -> None:
    """What `compsim report` reads and renders, short of the plots."""
    with contextlib.suppress(UserError):
        run = load_run(run_dir)
        format_all(aggregate_run(run.rows(), run.manifest))
        _ = run.trials, run.facts, run.summary
        if html:
            write_report(run, run_dir / "report.html", plots=False)


def edited_copy(src: Path, dst: Path, name: str, text: bytes) -> Path:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock", "plots", "report.html"))
    (dst / name).write_bytes(text)
    return dst


@st.composite
def edited_lines(draw: st.DrawFn, lines: list[bytes]) -> bytes:
    """One row of a JSONL file edited, the others kept."""
    i = draw(st.integers(0, len(lines) - 1))
    row = edit(draw, json.loads(lines[i]))
    return b"".join([*lines[:i], json_text(row).encode() + b"\n", *lines[i + 1 :]])


@FUZZ
@given(data=st.data())
def test_edited_trial_rows_raise_only_user_errors(
    tiny_run: Path, tmp_path: Path, data: st.DataObject
) -> None:
    lines = (tiny_run / TRIALS).read_bytes().splitlines(keepends=True)
    text = data.draw(edited_lines(lines))
    run = edited_copy(tiny_run, tmp_path / "run", TRIALS, text)
    read_like_report(run, html=data.draw(st.booleans()))


@pytest.mark.parametrize("depth", [float("inf"), float("nan"), 1.5])
def test_a_fact_depth_out_of_range_is_a_one_line_error(
    tiny_run: Path, tmp_path: Path, depth: float
) -> None:
    # found by the fuzz test above: a row with "depth": Infinity or NaN passed the row check
    # and crashed the report in int(depth * bins)
    lines = (tiny_run / TRIALS).read_bytes().splitlines(keepends=True)
    row = json.loads(lines[0])
    row["facts"][0]["depth"] = depth
    text = b"".join([json_text(row).encode() + b"\n", *lines[1:]])
    run = edited_copy(tiny_run, tmp_path / "run", TRIALS, text)
    with pytest.raises(UserError, match="depth") as raised:
        list(load_run(run).rows())
    assert "\n" not in str(raised.value) and TRIALS in str(raised.value)


@FUZZ
@given(data=st.data())
def test_edited_traces_raise_only_user_errors(
    tiny_run: Path, tmp_path: Path, data: st.DataObject
) -> None:
    lines = (tiny_run / TRACES).read_bytes().splitlines(keepends=True)
    text = data.draw(edited_lines(lines))
    read_like_report(edited_copy(tiny_run, tmp_path / "run", TRACES, text), html=True)


@FUZZ
@given(data=st.data())
def test_edited_manifests_raise_only_user_errors(
    tiny_run: Path, tmp_path: Path, data: st.DataObject
) -> None:
    manifest = json.loads((tiny_run / MANIFEST).read_bytes())
    text = json_text(edit(data.draw, manifest)).encode()
    run = edited_copy(tiny_run, tmp_path / "run", MANIFEST, text)
    read_like_report(run, html=False)


@FUZZ
@given(raw=st.binary(max_size=200), name=st.sampled_from([TRIALS, TRACES, MANIFEST]))
def test_random_bytes_in_a_run_raise_only_user_errors(
    tiny_run: Path, tmp_path: Path, raw: bytes, name: str
) -> None:
    read_like_report(edited_copy(tiny_run, tmp_path / "run", name, raw), html=False)


# --- baselines, through the gate ----------------------------------------------------------
@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("fuzz_baseline") / "b.json"
    write_baseline(load_outcomes(GATE / "compress"), path)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@FUZZ
@given(data=st.data())
def test_edited_baselines_through_check_exit_with_a_code(
    baseline: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
) -> None:
    path = tmp_path / "b.json"
    path.write_text(json_text(edit(data.draw, baseline)))
    fmt = data.draw(st.sampled_from(["text", "markdown", "json"]))
    try:
        code = main(["check", str(GATE / "continuity"), "--baseline", str(path), "--format", fmt])
    except SystemExit as exc:  # argparse only
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code in (0, 1, 2, 3) and "Traceback" not in err


# --- transcripts --------------------------------------------------------------------------
TRANSCRIPT = [
    {"role": "system", "content": "You are a careful operator."},
    {"role": "user", "content": "Rotate keys. Do not rotate the credential after step 4."},
    {"role": "assistant", "content": [{"type": "text", "text": "Step 1 done."}],
     "tool_calls": [{"id": "c1", "type": "function",
                     "function": {"name": "sh", "arguments": "{\"cmd\": \"ls\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "README.md"},
]  # fmt: skip


@FUZZ
@given(data=st.data(), suffix=st.sampled_from([".jsonl", ".json", ".txt"]))
def test_edited_transcripts_raise_only_user_errors(
    tmp_path: Path, data: st.DataObject, suffix: str
) -> None:
    messages = edit(data.draw, TRANSCRIPT)
    path = tmp_path / f"t{suffix}"
    if suffix == ".json":
        path.write_text(json_text(messages))
    else:
        path.write_text("\n".join(json_text(m) for m in messages))
    with contextlib.suppress(UserError):
        load_transcript(path)


@FUZZ
@given(raw=st.binary(max_size=300), suffix=st.sampled_from([".jsonl", ".json", ".txt"]))
def test_random_transcript_files_raise_only_user_errors(
    tmp_path: Path, raw: bytes, suffix: str
) -> None:
    path = tmp_path / f"t{suffix}"
    path.write_bytes(raw)
    with contextlib.suppress(UserError):
        load_transcript(path)


# --- floor registries ---------------------------------------------------------------------
REGISTRY = tomllib.loads((ROOT / "examples" / "floors.toml").read_text())


@FUZZ
@given(data=st.data())
def test_edited_floor_registries_raise_only_user_errors(data: st.DataObject) -> None:
    with contextlib.suppress(UserError):
        parse_registry(edit(data.draw, REGISTRY), "floors.toml")


@FUZZ
@given(raw=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_registry_files_raise_only_user_errors(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "floors.toml"
    path.write_bytes(raw)
    with contextlib.suppress(UserError):
        load_floor_registry(path)


# --- prompt files -------------------------------------------------------------------------
PROMPT_TEXT = st.lists(
    st.sampled_from([*"${}_ab \n\x00\x1b", "$input", "${level}", "$$", "$x", "é"]), max_size=30
).map("".join)


@FUZZ
@given(raw=st.binary(max_size=200) | PROMPT_TEXT.map(str.encode))
def test_random_prompt_files_raise_only_user_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    path = tmp_path / "p.txt"
    path.write_bytes(raw)
    _load.cache_clear()
    with contextlib.suppress(UserError):
        load_prompt(path)
    code = main(["lint-prompt", str(path)])
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and len([ln for ln in err.splitlines() if ln]) <= 1


# --- -S -----------------------------------------------------------------------------------
OVERRIDE_KEYS = st.sampled_from(
    ["trials", "seed", "name", "ladder.L1.budget_tokens", "history.target_tokens",
     "strategies", "summarizer.params.rank_noise", "sweep.ladder", "a b", "x.\n", "", "é"]
)  # fmt: skip
OVERRIDE_VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["1\nseed=5", "[" * 3000 + "]" * 3000, "1" * 5000, "9" * 400, '"\x1b[2J"',
                     "{a = 1}", "[1, 2", "inf", "nan", "true", "'''x\n'''"]),
)  # fmt: skip


@FUZZ
@given(key=OVERRIDE_KEYS, value=OVERRIDE_VALUES)
def test_random_overrides_raise_only_user_errors(key: str, value: str) -> None:
    text = f"{key}={value}"
    with contextlib.suppress(UserError):
        parse_override(text)
        load_grid(TINY, [text])
