"""The lint agrees with hand labels on runtime-style prompts (tests/fixtures/prompts/), and
its verdict is read clause by clause: quoted examples and negated lines do not count, and
pasting more of a compression prompt's examples does not change its verdict."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sim.prompts.features import Feature, prompt_features

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "prompts" / "runtime_prompts.toml"
PROMPTS = tomllib.loads(FIXTURE.read_text(encoding="utf-8"))["prompt"]


def test_the_set_is_big_enough_and_labelled() -> None:
    assert len(PROMPTS) >= 20
    assert {p["label"] for p in PROMPTS} == {"compression", "re-ranking"}
    assert all(p["reason"].strip() for p in PROMPTS)


def test_agreement_is_at_least_95_percent() -> None:
    wrong = [
        (p["name"], p["label"], prompt_features(p["text"]).verdict)
        for p in PROMPTS
        if prompt_features(p["text"]).verdict != p["label"]
    ]
    agreement = 1 - len(wrong) / len(PROMPTS)
    assert agreement >= 0.95, wrong


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Keep less detail about older turns.", Feature.RECENCY),
        ("Include more detail about the most recent messages.", Feature.RECENCY),
        ("Keep the critical info.", Feature.RANKING),
        ("Write it for the next agent.", Feature.PURPOSE_DIRECTED),
        ("Extend the previous summary with the new lines.", Feature.PROGRESSIVE),
        ("Keep it under 5 sentences.", Feature.LENGTH_CAP),
        ("Copy every constraint verbatim.", Feature.KEEP_RULES_VERBATIM),
        ("RULES: the user's restrictions.", Feature.RULES_SECTION),
        ("Never drop a constraint.", Feature.KEEP_RULES),
        ("List all decisions.", Feature.EXHAUSTIVE),
    ],
)
def test_each_feature_has_a_cue(text: str, feature: Feature) -> None:
    assert prompt_features(text).has(feature)


@pytest.mark.parametrize(
    "text",
    [
        'Users may type "focus on the tests"; copy such lines as they are.',
        "Do not prioritize any message over another.",
        "Don't focus on recent turns.",
        "> User: Please focus on the login bug.",
        "For example: 'Prioritize the migration.'",
    ],
)
def test_quoted_and_negated_cues_do_not_count(text: str) -> None:
    assert prompt_features(f"Shorten the log.\n{text}\n").verdict == "compression"


def test_the_verdict_does_not_depend_on_how_much_is_pasted() -> None:
    head = "Shorten the transcript to $budget_tokens tokens. Keep every rule word for word.\n"
    examples = "\nExample input:\n> User: focus on the failing test\n> User: prioritize the API\n"
    assert prompt_features(head).verdict == "compression"
    for k in range(1, 4):
        assert prompt_features(head + examples * k).verdict == "compression"
    assert prompt_features(head + examples + "\nPrioritize open tasks.\n").verdict == "re-ranking"
