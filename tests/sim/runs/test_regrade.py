"""`compsim regrade RUN --grader judge`: the judge's verdicts beside the text grader's, through
the cache, written into the run and listed by the report (scripted backend, no network)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.runs.regrade import JUDGE_ROWS, JUDGE_SUMMARY

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "tiny.toml"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("judged") / "run"
    args = ["run", str(TINY), "--trials", "2", "--jobs", "1", "--no-progress", "--out", str(out),
            "-S", "sweep={}", "--summarizer", "scripted"]  # fmt: skip
    assert main(args) == 0
    return out


def test_regrade_writes_both_verdicts_and_replays_from_the_cache(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = run_dir.parent / "judge.sqlite"
    assert main(["regrade", str(run_dir), "--cache", str(cache)]) == 0
    first = (run_dir / JUDGE_ROWS).read_bytes()
    summary = json.loads((run_dir / JUDGE_SUMMARY).read_text())
    rows = [json.loads(line) for line in first.decode().splitlines()]
    assert rows and summary["cases"] == len(rows) and summary["model_calls"] > 0
    assert {r["text_grade"] for r in rows} <= {"kept", "degraded", "dropped", "inverted"}
    assert all(r["judge_grade"] in {"kept", "degraded", "dropped", "inverted"} for r in rows)
    agree = sum(r["text_grade"] == r["judge_grade"] for r in rows)
    assert summary["overall"]["agree"] == agree
    assert set(summary["by_class"]) == {r["cls"] for r in rows}
    out = capsys.readouterr().out
    assert "agreement with the text grader" in out
    # a replay makes no model call and writes the same rows
    args = ["regrade", str(run_dir), "--cache", str(cache), "--cache-mode", "read-only"]
    assert main(args) == 0
    assert (run_dir / JUDGE_ROWS).read_bytes() == first
    assert json.loads((run_dir / JUDGE_SUMMARY).read_text())["model_calls"] == 0


def test_the_report_lists_the_disagreements(run_dir: Path) -> None:
    assert main(["regrade", str(run_dir)]) == 0
    assert main(["report", str(run_dir), "--no-tables"]) == 0
    html = (run_dir / "report.html").read_text()
    assert "Text grader against the judge model" in html
    rows = [json.loads(x) for x in (run_dir / JUDGE_ROWS).read_text().splitlines()]
    wrong = [r for r in rows if r["text_grade"] != r["judge_grade"]]
    assert f"Disagreements ({len(wrong)};" in html


def test_a_simulated_judge_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim"
    args = ["run", str(TINY), "--trials", "1", "--jobs", "1", "--no-progress", "--out", str(out),
            "-S", "sweep={}"]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    assert main(["regrade", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the simulated summarizer is no model" in err[0]


def test_a_directory_that_is_no_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["regrade", str(tmp_path), "--summarizer", "scripted"]) == 2
    assert "not a run directory" in capsys.readouterr().err


def test_the_scenario_grading_table_names_the_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    args = ["run", str(TINY), "--trials", "1", "--jobs", "1", "--no-progress", "--out", str(out),
            "-S", "sweep={}", "-S", 'grading={judge={name="scripted"}}']  # fmt: skip
    assert main(args) == 0
    assert main(["regrade", str(out)]) == 0
    assert "judge scripted" in capsys.readouterr().out
    bad = ["run", str(TINY), "--out", str(tmp_path / "bad"), "-S", 'grading={judge={name="gpt9"}}']
    assert main(bad) == 2
    assert "unknown summarizer 'gpt9'" in capsys.readouterr().err


def test_a_judge_missing_its_settings_is_one_line(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["regrade", str(run_dir), "--summarizer", "http"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("compsim: error: judge: ") and "base_url" in err[0]
