"""A slice of the committed cassette replayed: real Qwen2.5-Coder-1.5B outputs (llama.cpp,
recorded once) through the cassette scenario with zero model calls and no model, no
llama-cpp-python. The expected outcomes are fixed from the recording; a change to the
harness that changes a prompt, a key or a grade shows here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sim.commands.main import main

REPO = Path(__file__).resolve().parents[3]
CASSETTE = REPO / "benchmarks" / "cassettes" / "qwen2.5-coder-1.5b.jsonl"
SCENARIO = REPO / "scenarios" / "real_cassette.toml"

# trial 0 (h01.json): (collapsed, silent, loud, stopped, aborted_at) per strategy, as recorded
# (the rows the recording run wrote agree on collapse, the level that stopped and every leaf
# grade); most prompts make the 1.5B copy its input, so the level refuses at L1: stopped
EXPECTED = {
    "budget_closed:compress": (False, False, False, True, "L1"),
    "budget_closed:continuity": (True, True, False, False, "L2"),
    "budget_closed:structured": (False, False, False, True, "L1"),
    "budget_closed:lossless": (False, False, False, True, "L1"),
    "budget_closed:handoff": (False, False, False, True, "L2"),
    "budget_closed:progressive": (False, False, False, True, "L1"),
    "budget_closed:priorities": (False, False, False, True, "L1"),
    "budget_closed:constraints_section": (False, False, False, True, "L2"),
    "budget_closed:five_sentences": (True, True, False, False, "L3"),
    "floor_gated:compress": (False, False, False, True, "L1"),
    "floor_gated:continuity": (True, False, True, False, "L1"),
    "floor_gated:structured": (False, False, False, True, "L1"),
    "floor_gated:lossless": (False, False, False, True, "L1"),
    "floor_gated:handoff": (False, False, False, True, "L2"),
    "floor_gated:progressive": (False, False, False, True, "L1"),
    "floor_gated:priorities": (False, False, False, True, "L1"),
    "floor_gated:constraints_section": (False, False, False, True, "L2"),
    "floor_gated:five_sentences": (True, False, True, False, "L1"),
}


def _short(strategy: str) -> str:
    name, _, rest = strategy.partition("(instruction='file:prompts/")
    return f"{name}:{rest.split('.txt')[0]}"


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cassette") / "run"
    args = ["run", str(SCENARIO), "--trials", "1", "--jobs", "1", "--no-progress",
            "--cache", str(CASSETTE), "--cache-mode", "read-only", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    return out


def test_replay_makes_no_model_call(replay: Path) -> None:
    usage = json.loads((replay / "manifest.json").read_text())["model_usage"]
    assert usage["model_calls"] == 0
    assert usage["calls"] == usage["cache_hits"] > 0


def test_outcomes_are_the_recorded_ones(replay: Path) -> None:
    rows = [json.loads(line) for line in (replay / "trials.jsonl").read_text().splitlines()]
    fields = ("collapsed", "silent", "loud", "stopped", "aborted_at")
    got = {_short(r["strategy"]): tuple(r[f] for f in fields) for r in rows}
    assert got == EXPECTED
    assert all(len(r["probes"]) == 3 for r in rows)  # every declared rule asked at the leaf


def test_compare_prompts_on_the_replay(replay: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["compare-prompts", str(replay), "--no-plot"]) == 0
    out = capsys.readouterr().out
    for prompt in ("handoff", "progressive", "priorities", "constraints_section"):
        assert prompt in out
    assert "model calls: 0 " in out


JUDGE_CASSETTE = REPO / "benchmarks" / "cassettes" / "judge-qwen2.5-coder-1.5b.jsonl"
_spec = importlib.util.spec_from_file_location(
    "judge_agreement", REPO / "benchmarks" / "judge_agreement.py"
)
assert _spec is not None and _spec.loader is not None
judge_agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(judge_agreement)


def test_the_judge_replays_on_the_recorded_run(replay: Path) -> None:
    """`compsim regrade` with the same 1.5B model as judge, replayed from its cassette: every
    verdict answered from the recording, none asked of a model."""
    args = ["regrade", str(replay), "--cache", str(JUDGE_CASSETTE), "--cache-mode", "read-only"]
    assert main(args) == 0
    summary = json.loads((replay / "judge_summary.json").read_text())
    assert summary["model_calls"] == 0 and summary["cases"] == summary["cache_hits"] > 0
    assert summary["judge"] == {"name": "llama", "model": "qwen2.5-coder-1.5b"}


def test_the_judge_against_the_hand_labels_replays(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/judge_agreement.py on its committed sample: the judge's answers are the
    recording's (its agreement with the labels is fixed by it, 76 of 200); the text grader's
    side moves with the grader and is only checked to be a count."""
    cache = ["--cache", str(JUDGE_CASSETTE), "--cache-mode", "read-only"]
    assert judge_agreement.main(cache) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["calls"]["model_calls"] == 0 and figures["calls"]["cache_hits"] == 200
    assert figures["all"]["cases"] == 200 and figures["all"]["judge"] == 76
    assert figures["all"]["judge_false_kept"] == 82
    assert 0 <= figures["all"]["text"] <= 200


def test_a_sample_naming_no_case_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("D01-01\nNOPE-99\n")
    assert judge_agreement.main(["--ids", str(ids), "--cache-mode", "off"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "ids.txt:2" in err and "NOPE-99" in err
