"""The note's decision boundary (sim/prompts/instructions.py): a prompt with "prioritize", "focus
on" or "summarize for X" makes the level re-ranking; plain compression prompts do not."""

from __future__ import annotations

import pytest

from sim.prompts.instructions import PRESETS, Mode, classify, resolve

RERANK = [
    ("Prioritize open subgoals.", "prioritize"),
    ("prioritise what the agent needs next", "prioritize"),
    ("Keep the summary short, prioritizing recent decisions.", "prioritize"),
    ("Give priority to open tasks.", "prioritize"),
    ("Focus on the open subgoal.", "focus on"),
    ("Focus mainly on unresolved errors.", "focus on"),
    ("focusing on what changed", "focus on"),
    ("Summarize for task continuity.", "summarize for"),
    ("Summarise the session for the next agent.", "summarize for"),
    ("Write a summary for the downstream planner.", "summarize for"),
    ("Summarize this log for planning the next step.", "summarize for"),
    ("Keep only the most important points.", "most important"),
    ("Only keep what is relevant to the task.", "keep only what matters"),
    ("Emphasize decisions.", "emphasize"),
    ("Include details relevant to the current goal.", "relevant to"),
]

COMPRESS = [
    "Compress the log below to at most 128 tokens.",
    "Summarize the following log.",
    "Summarize the following log in at most 200 tokens.",
    "Keep the focus narrow: shorten wording, never drop a rule.",
    "Run the focused tests and report failures.",
    "The focus of this session was the export.",
    "Summarize the conversation for at most 100 tokens.",
    "Shorten every line; keep every rule, decision and open task.",
    "",
]


@pytest.mark.parametrize(("prompt", "phrase"), RERANK)
def test_rerank_phrases(prompt: str, phrase: str) -> None:
    c = classify(prompt)
    assert c.mode is Mode.RERANK
    assert c.phrase == phrase
    assert c.line_no == 1 and c.line == prompt
    assert repr(phrase) in c.why


@pytest.mark.parametrize("prompt", COMPRESS)
def test_compression_prompts_are_not_rerank(prompt: str) -> None:
    c = classify(prompt)
    assert c.mode is Mode.COMPRESS
    assert c.why == "no re-ranking phrase"


def test_first_matching_line_is_the_reason() -> None:
    prompt = "You compact agent logs.\nKeep every rule.\nThen focus on open tasks.\nPrioritize.\n"
    c = classify(prompt)
    assert c.mode is Mode.RERANK
    assert (c.line_no, c.phrase) == (3, "focus on")
    assert "line 3" in c.why


def test_presets() -> None:
    assert classify(resolve("continuity")).mode is Mode.RERANK
    assert classify(resolve("compress")).mode is Mode.COMPRESS
    assert set(PRESETS) >= {"continuity", "compress"}
    assert resolve("Focus on risks.") == "Focus on risks."
