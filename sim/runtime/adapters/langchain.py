"""The floor gate inside LangChain's agent summarization middleware (langchain >= 1.5, < 1.6).

`FloorGatedSummarization` is LangChain's own `SummarizationMiddleware` (same trigger, keep,
cutoff that never splits a tool call from its result, trimming, prompt and summary message),
with the floor check put where LangChain has a summary and is about to replace the history
with it: the summary, beside the messages kept verbatim, is graded against every declared fact
the replaced messages held at its floor. On a loss it summarizes again with the lost rules
pinned (a last message telling the summarizer to keep them word for word); if the summary still
loses one, the history stays uncompacted this turn and the violation is logged and kept in
`.floor.outcomes` (or raised, with `on_violation="raise"`).

    from langchain.agents import create_agent
    from sim import load_floor_registry
    from sim.runtime.adapters.langchain import FloorGatedSummarization

    registry = load_floor_registry("floors.toml")
    agent = create_agent(model, tools, middleware=[
        FloorGatedSummarization(model, facts=registry.facts, trigger=("tokens", 4000))])

It reaches into the middleware's private steps (`_should_summarize`, `_determine_cutoff_index`,
`_partition_messages`, `_create_summary`, `_build_new_messages`), read from langchain 1.5.2;
the version range in the `integrations` extra is the one tested.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

from langchain.agents.middleware import SummarizationMiddleware
from langchain_core.messages import BaseMessage, HumanMessage, RemoveMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from sim.runtime.adapters.retry import FloorCheck, OnViolation, pin_instruction
from sim.tokens import Tokenizer
from sim.types import Fact

LEVEL = "summary"


def messages_text(messages: Iterable[BaseMessage]) -> str:
    """The text the floor check reads: each message's text on its own lines."""
    return "".join(m.text.strip() + "\n" for m in messages if m.text.strip())


class FloorGatedSummarization(SummarizationMiddleware):  # type: ignore[misc]
    """LangChain's summarization middleware with the floor check before the history is
    replaced; every argument but the four below is LangChain's own."""

    def __init__(
        self,
        model: Any,
        *,
        facts: Iterable[Fact],
        max_retries: int = 2,
        on_violation: OnViolation = "keep",
        counter: Tokenizer | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, **kwargs)
        self.floor = FloorCheck(
            facts, max_retries=max_retries, on_violation=on_violation, counter=counter
        )

    def _split(self, state: Any) -> tuple[list[Any], list[Any]] | None:
        """LangChain's own decision: (messages to summarize, messages kept), or None."""
        messages = state["messages"]
        self._ensure_message_ids(messages)
        if not self._should_summarize(messages, self.token_counter(messages)):
            return None
        cutoff = self._determine_cutoff_index(messages)
        if cutoff <= 0:
            return None
        old, kept = self._partition_messages(messages, cutoff)
        return list(old), list(kept)

    def _produce(self, old: Sequence[Any], pins: tuple[Fact, ...]) -> str:
        asked = [*old, HumanMessage(content=pin_instruction(pins))] if pins else list(old)
        return str(self._create_summary(asked))

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        split = self._split(state)
        if split is None:
            return None
        old, kept = split
        outcome = self.floor.run(
            LEVEL, messages_text(old), lambda pins: self._produce(old, pins), messages_text(kept)
        )
        if outcome.summary is None:
            return None  # keep the uncompacted history: the loss was logged, never silent
        new = self._build_new_messages(outcome.summary)
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *new, *kept]}

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """The same check; the summary call runs in a worker thread."""
        return await asyncio.to_thread(self.before_model, state, runtime)
