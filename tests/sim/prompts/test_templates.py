"""Prompt files: safe substitution, placeholder errors that name file and placeholder, pins
that always reach the model, `file:` references in scenarios, and the shipped prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import ScenarioError
from sim.history.constraints import prohibition_for
from sim.prompts.instructions import Mode, classify
from sim.prompts.templates import (
    PIN_HEADER,
    PromptError,
    check_template,
    expand,
    find_file,
    load_prompt,
    prompt_label,
    render,
)
from sim.runs.scenario import load_scenario

REPO = Path(__file__).resolve().parents[3]
PROMPTS = REPO / "scenarios" / "prompts"
FACT = prohibition_for("rotate", "credential", 4, "f1").fact


def fill(template: str, **kw: object) -> str:
    args: dict[str, object] = {"text": "THE LOG", "budget_tokens": 128, "level": "L3"}
    args.update(kw)
    return render(template, **args)  # type: ignore[arg-type]


def test_every_placeholder_is_filled() -> None:
    out = fill(
        "$level: at most ${budget_tokens} tokens.\n$input\nKeep:\n$pinned_facts", pinned=(FACT,)
    )
    assert out == f"L3: at most 128 tokens.\nTHE LOG\nKeep:\n- {FACT.text}\n"


def test_substitution_is_not_code() -> None:
    out = fill("{x.__class__} {0} costs $$5\n$input", text="${budget_tokens} $level {input}")
    assert out == "{x.__class__} {0} costs $5\n${budget_tokens} $level {input}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Summarize ${__import__}\n$input", r"line 1, column 11: unknown placeholder \(valid"),
        ("ok\n$input\nfor $user", r"line 3, column 5: unknown placeholder \(valid"),
        ("costs $5\n$input", r"line 1, column 7: malformed placeholder, a \$ that starts no"),
        ("Summarize the log.", r"missing placeholder \$input"),
    ],
)
def test_bad_templates_name_source_and_placeholder(text: str, message: str) -> None:
    with pytest.raises(PromptError, match=r"^prompts/x\.txt: " + message):
        check_template(text, "prompts/x.txt")


def test_prompt_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Summarize $inputs\n")
    with pytest.raises(PromptError, match=rf"{bad}: line 1, column 11: unknown placeholder"):
        load_prompt(bad)
    with pytest.raises(PromptError, match="cannot read prompt file"):
        load_prompt(tmp_path / "missing.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"caf\xe9 $input")
    with pytest.raises(PromptError, match="not UTF-8"):
        load_prompt(latin)


def test_pins_reach_the_model_without_a_placeholder() -> None:
    out = fill("Compress.\n$input", pinned=(FACT,))
    assert out.endswith(f"{PIN_HEADER}\n- {FACT.text}\n")
    assert fill("Compress.\n$input\n$pinned_facts") == "Compress.\nTHE LOG\n(none)"


def test_inline_instruction_without_input_is_followed_by_it() -> None:
    assert fill("Summarize for task continuity.") == "Summarize for task continuity.\n\nTHE LOG"


def test_file_references_resolve_against_the_scenario_folder(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "mine.txt").write_text("Mine: $input")
    assert expand("file:p/mine.txt", tmp_path) == "Mine: $input"
    assert expand("compress", tmp_path) == "compress"
    assert expand(None, tmp_path) is None
    assert find_file("file:/abs/x.txt", None) == Path("/abs/x.txt")  # built in code
    assert prompt_label("file:prompts/continuity.txt") == "continuity"
    assert prompt_label("Summarize this, please!") == "inline"


def _scenario(tmp_path: Path, instruction: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(
        f"""
name = "s"
strategies = [{{name = "budget_closed", instruction = "{instruction}"}}]
[[ladder]]
name = "L1"
budget_tokens = 100
"""
    )
    return path


def test_scenario_with_a_bad_prompt_file_fails_at_load(tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text("Summarize for $who:\n$input\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(_scenario(tmp_path, "file:p.txt"))
    msg = str(err.value)
    assert msg.startswith(f"{tmp_path / 's.toml'}: strategies.0.instruction: ")
    assert "p.txt: line 1, column 15: unknown placeholder (valid:" in msg and "who" not in msg
    with pytest.raises(ScenarioError, match="cannot read prompt file"):
        load_scenario(_scenario(tmp_path, "file:nope.txt"))


def test_scenario_with_a_good_prompt_file_loads(tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text("Compress:\n$input\n")
    assert load_scenario(_scenario(tmp_path, "file:p.txt")).strategies


@pytest.mark.parametrize(
    ("name", "mode"),
    [
        ("compress", Mode.COMPRESS),
        ("continuity", Mode.RERANK),
        ("structured", Mode.COMPRESS),
        ("lossless", Mode.COMPRESS),
    ],
)
def test_shipped_prompts(name: str, mode: Mode) -> None:
    prompt = load_prompt(PROMPTS / f"{name}.txt")
    assert classify(prompt.text).mode is mode
    assert "$input" in prompt.text and "$budget_tokens" in prompt.text
