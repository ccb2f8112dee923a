"""Baseline files: compact, one line per trial, lossless for the gate, refused when broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.regression.baseline import (
    BASELINE_VERSION,
    BaselineError,
    read_baseline,
    render,
    to_document,
    write_baseline,
)
from sim.regression.suite_run import load_outcomes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gate"


def test_round_trip_keeps_every_outcome_the_gate_reads(tmp_path: Path) -> None:
    run = load_outcomes(FIXTURES / "forget_prohibition")
    path = tmp_path / "b.json"
    write_baseline(run, path)
    back = read_baseline(path)
    (key,) = run.cases["mini"].trials
    assert back.cases["mini"].trials[key] == run.cases["mini"].trials[key]
    assert back.cases["mini"].history_spec() == run.cases["mini"].history_spec()
    assert (back.name, back.version, back.harness_version) == ("mini", 0, run.harness_version)
    assert render(to_document(back)) == path.read_text()  # re-writing changes nothing


def test_layout_is_compact_and_diffs_by_trial(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    size = write_baseline(load_outcomes(FIXTURES / "continuity"), path)
    text = path.read_text()
    assert size == len(text.encode()) and size < 12_000
    assert text.startswith('{\n "version": 2,\n "harness_version": ')  # version first
    lines = [ln.strip().rstrip(",") for ln in text.splitlines()]
    collapsed = [json.loads(ln) for ln in lines if "/silent@" in ln]
    assert len(collapsed) == 20  # one line per trial: all 20 collapsed silently
    assert all(len(row) == 16 and row[2] == 1 and row[3] == 0 for row in collapsed)
    case = json.loads(text)["cases"]["mini"]
    assert case["facts"][0][1][:2] == [["f1", "prohibition"], ["f2", "ordering"]]


def test_reference_strategies_keep_only_their_summary(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    bench = ["bench", "--suite", str(FIXTURES / "suite" / "suite.toml"), "--out", str(suite)]
    assert main([*bench, "--jobs", "1", "--no-progress", "--case", "short"]) == 0
    path = tmp_path / "b.json"
    write_baseline(load_outcomes(suite), path)
    case = json.loads(path.read_text())["cases"]["short"]
    assert list(case["trials"]) == ["budget_closed"]
    assert list(case["summary"]) == ["budget_closed", "empty", "head", "tail", "keep_all"]
    assert case["summary"]["empty"]["silent_collapse_rate"] == 1.0


def test_update_command_writes_atomically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["baseline", "update", str(FIXTURES / "compress"), "--dir", str(tmp_path)]
    assert main([*args, "--name", "nightly"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote {tmp_path / 'nightly.json'}: mini v0, 1 cases, 20 trials")
    assert [p.name for p in tmp_path.iterdir()] == ["nightly.json"]  # no temporary left
    assert main([*args, "--name", "../escape"]) == 2
    assert "--name '../escape'" in capsys.readouterr().err


def test_missing_and_versionless_files(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read baseline"):
        read_baseline(tmp_path / "none.json")
    (tmp_path / "v.json").write_text('{"cases": {}}')
    with pytest.raises(BaselineError, match=r"version: missing or not an integer \(got None\)"):
        read_baseline(tmp_path / "v.json")
    (tmp_path / "old.json").write_text('{"version": 0}')
    with pytest.raises(BaselineError, match="unknown baseline schema 0"):
        read_baseline(tmp_path / "old.json")
    assert BASELINE_VERSION == 2
    (tmp_path / "v1.json").write_text('{"version": 1, "cases": {}}')
    with pytest.raises(
        BaselineError,
        match=r"schema 1 counted a trial both silent and loud.*"
        r"`compsim baseline update RUN --name NAME`$",
    ):
        read_baseline(tmp_path / "v1.json")


def test_fact_states_must_match_the_fact_table(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    write_baseline(load_outcomes(FIXTURES / "compress"), path)
    text = path.read_text().replace('"verbatim","verbatim","verbatim"]', '"verbatim"]', 1)
    path.write_text(text)
    with pytest.raises(BaselineError, match=r"trial 0 has 2 fact states, the fact table lists 4$"):
        read_baseline(path)
