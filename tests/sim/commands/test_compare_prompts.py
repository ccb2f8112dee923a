"""`compsim compare-prompts`: a real (scripted-backend) run through the CLI, then the table,
the CSV and the plot per prompt, with the run's model calls and cache hits."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from sim.commands.main import main
from sim.report.prompt_table import prompt_of

REPO = Path(__file__).resolve().parents[3]


def test_prompt_of() -> None:
    assert prompt_of({"instruction": "file:prompts/continuity.txt"}, []) == "continuity"
    assert prompt_of({"instruction": "compress"}, []) == "compress"
    levels: list[dict[str, Any]] = [
        {"instruction": None},
        {"instruction": "file:p/structured.txt"},
    ]
    assert prompt_of({"instruction": None}, levels) == "structured"
    assert prompt_of({}, [{}]) == "default"


def test_compare_prompts_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    cache = tmp_path / "cache.sqlite"
    args = [
        "run", str(REPO / "scenarios" / "prompt_comparison.toml"), "--trials", "2",
        "--jobs", "1", "--no-progress", "--out", str(out), "--summarizer", "scripted",
        "--cache", str(cache), "--probe", "-S", "history.target_tokens=700",
    ]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    assert main(["compare-prompts", str(out)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "prompt_comparison: 2 trials per cell"
    assert lines[1].split()[:4] == ["prompt", "strategy", "trials", "collapse"]
    assert "probe viol" in lines[1] and "silent [95% CI]" in lines[1]
    table = lines[1 : next(i for i, ln in enumerate(lines) if ln.startswith("tokens counted"))]
    assert max(len(ln) for ln in table) <= 100  # fits a terminal; --wide shows every column
    body = [ln.split()[:3] for ln in lines[3:10]]
    assert body == [
        ["compress", "budget_closed", "2"],
        ["continuity", "budget_closed", "2"],
        ["structured", "budget_closed", "2"],
        ["lossless", "budget_closed", "2"],
        ["continuity", "floor_gated", "2"],
        ["default", "keep_all", "2"],
        ["default", "empty", "2"],
    ]
    usage = next(ln for ln in lines if ln.startswith("model calls:"))
    assert "cache hits" in usage and "misses" in usage
    with (out / "prompt_comparison.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["prompt"] for r in rows][:2] == ["compress", "continuity"]
    assert {"silent_lo", "silent_hi", "tokens_per_trial", "probe_violation"} <= set(rows[0])
    assert (out / "plots" / "prompt_comparison.png").stat().st_size > 1000
    assert (out / "plots" / "prompt_comparison.svg").exists()
    # the replay: zero model calls, the same table
    replay = tmp_path / "replay"
    args[args.index(str(out))] = str(replay)
    assert main([*args, "--cache-mode", "read-only"]) == 0
    capsys.readouterr()
    assert main(["compare-prompts", str(replay), "--no-plot"]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[:10] == lines[:10]
    assert next(ln for ln in again if ln.startswith("model calls:")).startswith("model calls: 0 ")
    assert (replay / "trials.jsonl").read_bytes() == (out / "trials.jsonl").read_bytes()
    assert (replay / "summary.json").read_bytes() == (out / "summary.json").read_bytes()


def test_not_a_run_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare-prompts", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("compsim: error: ")


def test_rank_puts_fewest_collapses_first() -> None:
    from sim.commands.compare_prompts import ranked
    from sim.report.prompt_table import PromptRow

    rows = [
        PromptRow("", "a", "budget_closed", "a", trials=4, collapsed=3, silent=3),
        PromptRow("", "b", "budget_closed", "b", trials=4, collapsed=1, silent=1),
        PromptRow("", "c", "floor_gated", "c", trials=4, collapsed=1, silent=0),
        PromptRow("", "d", "budget_closed", "d", trials=4, collapsed=1, silent=0, probes=4,
                  probe_violations=2),
    ]  # fmt: skip
    assert [r.prompt for r in ranked(rows)] == ["c", "d", "b", "a"]


def test_a_prompt_whose_ladder_always_stops_ranks_below_one_that_compacts() -> None:
    from sim.commands.compare_prompts import ranked
    from sim.report.prompt_table import PromptRow, format_rows

    stops = PromptRow("", "copies", "budget_closed", "a", trials=4, stopped=4)
    keeps = PromptRow("", "keeps", "budget_closed", "b", trials=4, collapsed=1, loud=1)
    loses = PromptRow("", "loses", "budget_closed", "c", trials=4, collapsed=4, silent=4)
    assert [r.prompt for r in ranked([stops, loses, keeps])] == ["keeps", "copies", "loses"]
    table = format_rows([stops, keeps])
    assert "stopped" in table.splitlines()[0]
    assert "100.0%" in table.splitlines()[2]
