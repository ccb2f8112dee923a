"""LangChain's own summarization middleware as a strategy and as a compactor, through the real
installed package (the `integrations` extra), with stand-in models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("langchain", reason="needs the integrations extra (make test has it)")

import sim
from strategies.langchain_summarization import (
    LANGCHAIN_PROMPT,
    langchain_compactor,
    langchain_summarization,
    to_messages,
    to_text,
)
from tests.helpers import EchoSummarizer, context, counter, examples, small_history

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"


def test_turns_become_messages_and_back() -> None:
    text = small_history(seed=2).text
    messages = to_messages(text)
    assert sum(m.type == "ai" for m in messages) > 0
    assert all(m.text.startswith("### turn ") for m in messages)
    assert to_text(messages) == text
    lines = "one\ntwo\n"
    assert [m.text for m in to_messages(lines)] == ["one", "two"]


def _compact(strategy: Any, text: str, budget: int) -> tuple[Any, EchoSummarizer]:
    echo = EchoSummarizer(counter())
    return strategy.compact(text, budget, context(echo)), echo


def test_the_middleware_decides_and_the_harness_summarizer_writes() -> None:
    text = small_history(seed=2).text
    messages = to_messages(text)
    piece, echo = _compact(langchain_summarization(keep_messages=3), text, 200)
    (request,) = echo.requests
    assert request.instruction == LANGCHAIN_PROMPT and "$input" in LANGCHAIN_PROMPT
    assert piece.text.startswith("Here is a summary of the conversation to date:")
    assert piece.text.endswith(to_text(messages[-3:]))  # LangChain kept the last three verbatim
    assert piece.consumed_input_tokens == piece.declared_input_tokens and not piece.unread_text


def test_the_trimmed_part_is_never_read() -> None:
    text = small_history(seed=2).text
    piece, echo = _compact(langchain_summarization(2, trim_tokens_to_summarize=200), text, 200)
    shown = echo.requests[0].text
    assert piece.unread_text and piece.unread_text.splitlines()[0] not in shown
    assert piece.consumed_input_tokens < piece.declared_input_tokens  # budget-open, reported


def test_under_its_trigger_it_leaves_the_text_alone() -> None:
    text = "Do not rotate the credential after step 4.\n"
    piece, echo = _compact(langchain_summarization(), text, 500)
    assert piece.text == text and not echo.requests


def test_a_compactor_over_your_own_chat_model(tmp_path: Path) -> None:
    from itertools import cycle

    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    model = GenericFakeChatModel(messages=cycle([AIMessage(content="Work continues.")]))
    fn = langchain_compactor(model, keep=("messages", 2))
    out, consumed = fn(small_history(seed=2).text, 100)
    assert out.startswith("Here is a summary of the conversation to date:\nWork continues.\n")
    assert consumed > 0
    report = sim.test_compactor(
        fn, TINY, trials=2, overrides=("ladder=small", "constraints.depths=[0.5]"),
        name="langchain", out=tmp_path / "r",
    )  # fmt: skip
    (c,) = report.collapses()
    assert c.strategy == "langchain" and c.trials == 2 and c.silent == 2  # the canned reply


_LINE = (
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1)
    .map(str.strip)
    .filter(bool)
)


@given(
    st.lists(
        st.one_of(_LINE, st.sampled_from(["### turn 3 · user", "### turn 4 · assistant"])),
        min_size=1,
        max_size=12,
    )
)
@settings(max_examples=examples(1.0))
def test_no_line_is_lost_or_added_between_text_and_messages(lines: list[str]) -> None:
    text = "".join(ln + "\n" for ln in lines)
    assert to_text(to_messages(text)) == text
