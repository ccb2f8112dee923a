"""The floor gate where LangChain and Inspect compact, against the real installed packages (the
`integrations` extra) with stand-in models: no network, no key."""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
from typing import Any

import pytest

from sim.errors import RecallFloorViolation
from sim.runtime.floor_registry import declare_fact

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect_ai")

RULE = "Do not rotate the credential after step 4."
FACT = declare_fact(
    RULE,
    {"action": ["rotate"], "object": ["credential"], "condition": ["after step 4"]},
    fact_id="f1",
)
PINNED = "must appear in the summary word for word"


def _obeys_pins(prompt: str) -> str:
    """A stand-in summarizer that keeps a rule only when told to (as the note's models do)."""
    if PINNED in prompt:
        return f"{RULE} The CSV export is half done."
    return "Credential rotation deferred. The CSV export is half done."


def test_importing_the_floor_gate_loads_no_framework() -> None:
    code = (
        "import sys, sim.runtime.floor_gate, sim.runtime.adapters, sim.runtime.adapters.retry;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('langchain', 'langchain_core', 'langgraph', 'inspect_ai')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _needs(module: str) -> pytest.MarkDecorator:
    missing = importlib.util.find_spec(module) is None
    return pytest.mark.skipif(missing, reason=f"{module}: needs the integrations extra (make test)")


@_needs("langchain")
class TestLangChain:
    def _model(self, replies: list[str] | None = None) -> Any:
        from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
        from langchain_core.messages import AIMessage
        from langchain_core.runnables import RunnableLambda

        if replies is not None:
            return GenericFakeChatModel(messages=iter([AIMessage(content=r) for r in replies]))
        return RunnableLambda(lambda msgs: _obeys_pins("\n".join(m.text for m in msgs)))

    def _history(self) -> list[Any]:
        from langchain_core.messages import AIMessage, HumanMessage

        return [
            HumanMessage(content="Finish the CSV export for invoices."),
            HumanMessage(content=RULE),
            AIMessage(content="Working on it. " * 30),
            HumanMessage(content="Keep going. " * 30),
            AIMessage(content="Done with the header row."),
            HumanMessage(content="Next: the totals."),
        ]

    def _middleware(self, **kwargs: Any) -> Any:
        from sim.runtime.adapters.langchain import FloorGatedSummarization

        return FloorGatedSummarization(
            self._model(["unused"]),
            facts=[FACT],
            trigger=("tokens", 80),
            keep=("messages", 2),
            **kwargs,
        )

    def test_a_lost_rule_is_pinned_and_the_summary_keeps_it(self) -> None:
        mw = self._middleware(summarizer=self._model())
        update = mw.before_model({"messages": self._history()}, None)
        assert update is not None
        summary = update["messages"][1].text
        assert summary.startswith("Here is a summary of the conversation to date:")
        assert RULE in summary
        (outcome,) = mw.floor.outcomes
        assert outcome.attempts == 2 and outcome.pinned == ("f1",)
        assert [(v.fact_id, v.recovered) for v in outcome.violations] == [("f1", True)]
        assert [m.text for m in update["messages"][2:]] == [
            "Done with the header row.",
            "Next: the totals.",
        ]

    def test_a_summary_that_keeps_losing_leaves_the_history_uncompacted(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        lossy = ["Credential rotation deferred."] * 3
        mw = self._middleware(summarizer=self._model(lossy))
        assert mw.before_model({"messages": self._history()}, None) is None
        (outcome,) = mw.floor.outcomes
        assert outcome.kept_uncompacted and outcome.attempts == 3
        assert "kept the uncompacted history" in caplog.text
        raising = self._middleware(summarizer=self._model(lossy), on_violation="raise")
        with pytest.raises(RecallFloorViolation, match="fact 'f1'"):
            raising.before_model({"messages": self._history()}, None)

    def test_inside_a_real_agent(self) -> None:
        from langchain.agents import create_agent

        mw = self._middleware(summarizer=self._model())
        agent = create_agent(self._model(["On to the totals."]), tools=[], middleware=[mw])
        out = agent.invoke({"messages": self._history()})
        texts = [m.text for m in out["messages"]]
        assert RULE in texts[0] and texts[-1] == "On to the totals."
        assert len(out["messages"]) == 4  # summary, two kept, the reply

    def test_the_async_path(self) -> None:
        mw = self._middleware(summarizer=self._model())
        update = asyncio.run(mw.abefore_model({"messages": self._history()}, None))
        assert update is not None and RULE in update["messages"][1].text


@_needs("inspect_ai")
class TestInspect:
    def _model(self) -> Any:
        from inspect_ai.model import ModelOutput, get_model

        from sim.tokens import get_counter

        def reply(messages: list[Any], *_: Any) -> Any:
            text = "\n".join(m.text for m in messages)
            return ModelOutput.from_content("mockllm/model", _obeys_pins(text))

        model = get_model("mockllm/model", custom_outputs=reply)
        counter = get_counter()

        async def count(text: str) -> int:  # Inspect's own count fetches o200k: offline here
            return counter.count(text)

        model.api.count_text_tokens = count
        return model

    def _history(self) -> list[Any]:
        from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

        return [
            ChatMessageSystem(content="You are a coding agent."),
            ChatMessageUser(content="Finish the CSV export for invoices."),
            ChatMessageAssistant(content="On it."),
            ChatMessageUser(content=RULE),
            ChatMessageAssistant(content="Noted. " * 20),
        ]

    def test_the_summary_strategy_gets_the_rule_pinned_in_its_prompt(self) -> None:
        from sim.runtime.adapters.inspect import FloorGatedCompaction

        strategy = FloorGatedCompaction([FACT])
        compacted, summary = asyncio.run(strategy.compact(self._model(), self._history(), []))
        assert summary is not None and RULE in summary.text
        assert compacted[-1] is summary and strategy.inner.instructions is None
        (outcome,) = strategy.floor.outcomes
        assert outcome.pinned == ("f1",) and outcome.attempts == 2

    def test_a_trim_strategy_carries_the_rule_beside_its_input(self) -> None:
        from inspect_ai.model import CompactionTrim

        from sim.runtime.adapters.inspect import FloorGatedCompaction

        strategy = FloorGatedCompaction([FACT], inner=CompactionTrim(preserve=0.1))
        compacted, _ = asyncio.run(strategy.compact(self._model(), self._history(), []))
        assert compacted[-1].text == f"These rules still apply:\n- {RULE}\n"

    def test_no_retry_left_keeps_the_history(self) -> None:
        from inspect_ai.model import CompactionTrim

        from sim.runtime.adapters.inspect import FloorGatedCompaction

        history = self._history()
        strategy = FloorGatedCompaction([FACT], inner=CompactionTrim(preserve=0.1), max_retries=0)
        compacted, message = asyncio.run(strategy.compact(self._model(), history, []))
        assert compacted == history and message is None
        assert strategy.floor.outcomes[0].kept_uncompacted
