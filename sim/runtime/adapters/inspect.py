"""The floor gate as an Inspect compaction strategy (inspect-ai >= 0.3.285, < 0.4).

`FloorGatedCompaction(facts, inner=CompactionSummary())` runs Inspect's own strategy and checks
what it returns (the input the model will see next) against every declared fact the history
held at its floor, before Inspect replaces the history with it. On a loss it compacts again with
the lost rules pinned: through the strategy's `instructions` when it has them (the summary
strategy puts them in its prompt), else as a user message beside the compacted input (trim and
edit strategies do not rewrite text). If the result still loses a rule, the history is returned
uncompacted and the violation logged and kept in `.floor.outcomes` (or raised, with
`on_violation="raise"`).

    from inspect_ai.model import CompactionSummary
    from sim.runtime.adapters.inspect import FloorGatedCompaction

    compaction = FloorGatedCompaction(registry.facts, inner=CompactionSummary(threshold=0.8))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageUser, CompactionStrategy, CompactionSummary

from sim.runtime.adapters.retry import (
    CARRIED_HEADING,
    FloorCheck,
    OnViolation,
    pin_instruction,
)
from sim.tokens import Tokenizer
from sim.types import Fact

LEVEL = "compaction"


def messages_text(messages: Iterable[ChatMessage]) -> str:
    return "".join(m.text.strip() + "\n" for m in messages if m.text.strip())


class FloorGatedCompaction(CompactionStrategy):  # type: ignore[misc]
    """An Inspect compaction strategy with the floor check before the history is replaced."""

    def __init__(
        self,
        facts: Iterable[Fact],
        *,
        inner: CompactionStrategy | None = None,
        max_retries: int = 2,
        on_violation: OnViolation = "keep",
        counter: Tokenizer | None = None,
    ) -> None:
        self.inner = inner if inner is not None else CompactionSummary()
        super().__init__(
            type=self.inner.type, threshold=self.inner.threshold, memory=self.inner.memory
        )
        self.floor = FloorCheck(
            facts, max_retries=max_retries, on_violation=on_violation, counter=counter
        )

    @property
    def preserve_prefix(self) -> bool:
        return bool(self.inner.preserve_prefix)

    async def _attempt(
        self, model: Any, messages: list[ChatMessage], tools: list[Any], pins: Sequence[Fact]
    ) -> tuple[list[ChatMessage], ChatMessageUser | None]:
        if not pins:
            result: tuple[list[ChatMessage], ChatMessageUser | None]
            result = await self.inner.compact(model, messages, tools)
            return result
        note = pin_instruction(pins)
        if hasattr(self.inner, "instructions"):
            own = self.inner.instructions
            self.inner.instructions = f"{own}\n\n{note}" if own else note
            try:
                return await self.inner.compact(model, messages, tools)  # type: ignore[no-any-return]
            finally:
                self.inner.instructions = own
        compacted, message = await self.inner.compact(model, messages, tools)
        carried = ChatMessageUser(content=pin_instruction(pins, CARRIED_HEADING))
        return [*compacted, carried], message

    async def compact(
        self, model: Any, messages: list[ChatMessage], tools: list[Any]
    ) -> tuple[list[ChatMessage], ChatMessageUser | None]:
        last: list[tuple[list[ChatMessage], ChatMessageUser | None]] = []

        async def produce(pins: tuple[Fact, ...]) -> str:
            last.append(await self._attempt(model, messages, tools, pins))
            return messages_text(last[-1][0])

        outcome = await self.floor.arun(LEVEL, messages_text(messages), produce)
        if outcome.summary is None:
            return list(messages), None  # uncompacted: the loss was logged, never silent
        return last[-1]
