"""`compsim lint-prompt`: every re-ranking phrase (and close variants) is flagged with its line,
near misses are not, and a scenario pairing a re-ranking prompt with an ungated strategy warns."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.commands.main import main
from sim.prompts.instructions import Mode, classify, matches

REPO = Path(__file__).resolve().parents[3]

RERANKING = [
    ("Prioritize the open subgoals.", "prioritize"),
    ("Deprioritise chatter and tool noise.", "prioritize"),
    ("Focus on what the agent is doing now.", "focus on"),
    ("Concentrate on unresolved errors.", "focus on"),
    ("Summarize for task continuity.", "summarize for"),
    ("Write a short summary for the next agent.", "summarize for"),
    ("Keep only the most relevant lines.", "most important"),
    ("Highlight the key decisions.", "emphasize"),
    ("List events by importance.", "by importance"),
    ("Keep what matters most.", "by importance"),
]

NEAR_MISSES = [
    "The focus of this session was the export job.",
    "Run the focused unit tests first.",
    "Keep the wording in focus: shorter, never fewer rules.",
    "Summarize the following log in at most 64 tokens.",
    "Summarize the conversation for at most 100 tokens.",
    "Compress every line; the priority queue job finished.",
    "Keep every rule verbatim, including its step.",
]


@pytest.mark.parametrize(("line", "phrase"), RERANKING)
def test_reranking_phrases_are_flagged(line: str, phrase: str) -> None:
    prompt = f"You compact agent logs.\n{line}\n$input\n"
    (found,) = matches(prompt)
    assert (found.phrase, found.line_no, found.line) == (phrase, 2, line)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_misses_are_compression(line: str) -> None:
    assert classify(f"{line}\n$input\n").mode is Mode.COMPRESS


def test_prompt_files_report_every_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("Compress to $budget_tokens tokens; keep every rule.\n$input\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("Summarize for the user.\n$input\nThen prioritize open tasks.\n")
    assert main(["lint-prompt", str(good), str(bad)]) == 0
    out = capsys.readouterr().out.splitlines()
    good_line = "'Compress to $budget_tokens tokens; keep every rule.'"
    assert out == [
        f"{good}: compression (no re-ranking phrase)",
        "  features: keep_rules, length_cap, exhaustive",
        f"    keep_rules: line 1 'keep the rules' in {good_line}",
        f"    length_cap: line 1 'at most N' in {good_line}",
        f"    exhaustive: line 1 'all / every' in {good_line}",
        "  knobs: mode compress; abstraction_max x0.5 (keep_rules); rule_boost +0.15 "
        "(keep_rules); shorten_share x0.5 (exhaustive)",
        f"{bad}: re-ranking",
        "  line 1: 'summarize for' in 'Summarize for the user.'",
        "  line 3: 'prioritize' in 'Then prioritize open tasks.'",
        "  features: purpose_directed, ranking",
        "    purpose_directed: line 1 'summarize for' in 'Summarize for the user.'",
        "    ranking: line 3 'prioritize' in 'Then prioritize open tasks.'",
        "  knobs: mode re-rank; rank_noise x0.75 (ranking)",
    ]


def test_shipped_prompts(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (REPO / "scenarios" / "prompts").glob("*.txt"))
    assert main(["lint-prompt", *files]) == 0
    out = capsys.readouterr().out
    assert "continuity.txt: re-ranking" in out
    for name in ("compress", "structured", "lossless"):
        assert f"{name}.txt: compression" in out


def test_scenario_warns_on_ungated_reranking(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(REPO / "scenarios" / "prompt_comparison.toml")
    assert main(["lint-prompt", scenario]) == 0
    (warning,) = capsys.readouterr().out.splitlines()
    assert warning.startswith(f"{scenario}: warning: budget_closed(instruction='file:prompts/")
    assert "(continuity: line 2: 'summarize for'" in warning
    assert "at L1, L2, L3 with no floor gate" in warning
    assert main(["lint-prompt", "--strict", scenario]) == 1


def test_level_instructions_and_defaults_are_linted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "p.txt").write_text("Focus on the open subgoal.\n$input\n")
    path = tmp_path / "s.toml"
    path.write_text(
        """
name = "s"
strategies = ["budget_open", "floor_gated", "keep_all", "budget_closed"]
[[ladder]]
name = "L1"
budget_tokens = 100
[[ladder]]
name = "L2"
budget_tokens = 50
instruction = "file:p.txt"
"""
    )
    assert main(["lint-prompt", str(path)]) == 0
    (warning,) = capsys.readouterr().out.splitlines()
    # budget_open takes the level's prompt; floor_gated is gated; keep_all sends nothing;
    # budget_closed keeps its own compression default
    assert warning.startswith(f"{path}: warning: budget_open sends a re-ranking prompt (p: ")
    assert warning.endswith("at L2 with no floor gate; use floor_gated or a compression prompt")


def test_bad_prompt_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Summarize $text\n")
    assert main(["lint-prompt", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"compsim: error: {bad}: line 1, column 11: unknown placeholder "
        "(valid: $input, $budget_tokens, $pinned_facts, $level)"
    ]
