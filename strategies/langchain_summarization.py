"""LangChain's own summarization middleware run through the ladder, so what is measured is its
real behaviour, not a copy of it (langchain >= 1.5, < 1.6; the `integrations` extra).

At every call the level's text becomes messages (one per `### turn` block, else per line), and
LangChain's `SummarizationMiddleware.before_model` decides, exactly as in an agent: whether to
summarize (trigger: the call's budget), which recent messages to keep verbatim (`keep`, without
splitting a tool call from its result), which older messages the summary model is shown (its
`trim_tokens_to_summarize`, 4000 by default: the oldest part of a long history is never read,
which the ladder reports as budget-open, `never read`), and the summary message that replaces
them. Two ways to supply the model that writes the summary:

- `--strategy strategies.langchain_summarization:langchain_summarization`: the harness's own
  summarizer (simulated by default, or `--summarizer http|local|REF`) is asked with LangChain's
  default summary prompt; arguments `keep_messages`, `trim_tokens_to_summarize`.
- `langchain_compactor(chat_model, **middleware_args)`: a compactor `fn(text, budget_tokens)`
  over your own LangChain chat model, for `--compactor mymodule:fn` or `sim.test_compactor`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain.agents.middleware import SummarizationMiddleware
from langchain.agents.middleware.summarization import DEFAULT_SUMMARY_PROMPT
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from sim.summarizers.base import SummaryRequest
from sim.tokens import Tokenizer, get_counter
from sim.types import PieceResult
from strategies.base import CallContext

TURN = re.compile(r"^### turn \d+ · (\w+)$")
LANGCHAIN_PROMPT = DEFAULT_SUMMARY_PROMPT.replace("$", "$$").replace("{messages}", "$input")
"""LangChain's default summary prompt as a harness template (`{messages}` -> `$input`)."""


def to_messages(text: str) -> list[BaseMessage]:
    """A level's text as chat messages: each `### turn N · role` block one message (the
    assistant's as AIMessage), or each line one HumanMessage when the text has no turns."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not any(TURN.match(ln) for ln in lines):
        return [HumanMessage(content=ln) for ln in lines]
    out: list[BaseMessage] = []
    block: list[str] = []
    for ln in [*lines, "### turn 0 · end"]:
        if TURN.match(ln) and block:
            role = TURN.match(block[0])
            kind = AIMessage if role and role[1] == "assistant" else HumanMessage
            out.append(kind(content="\n".join(block)))
            block = []
        block.append(ln)
    return out


def to_text(messages: Sequence[BaseMessage]) -> str:
    return "".join(ln + "\n" for m in messages for ln in m.text.splitlines() if ln.strip())


@dataclass
class _Seen:
    """What the summary model was shown, for budget closure."""

    shown: list[BaseMessage] = field(default_factory=list)


def _run(
    text: str,
    budget: int,
    counter: Tokenizer,
    write: Callable[[list[BaseMessage], int], str] | None,
    model: Any,
    **middleware: Any,
) -> tuple[str, int, str, int]:
    """(new text, consumed tokens, never-read text, summary calls) of one call."""
    messages = to_messages(text)
    declared = counter.count(text)
    seen = _Seen()

    def count(msgs: Iterable[Any]) -> int:
        return sum(counter.count(m.text) for m in msgs)

    if write is not None:
        kept_budget: list[int] = []

        def summarize(shown: list[BaseMessage]) -> str:
            seen.shown = list(shown)
            return write(shown, max(1, budget - sum(kept_budget)))

        middleware["summarizer"] = summarize
    mw: Any = SummarizationMiddleware(  # Any: its private steps are called as an agent would
        model, trigger=("tokens", budget), token_counter=count, **middleware
    )
    if write is not None:  # the summary's room is what the kept messages leave of the budget
        split = mw._determine_cutoff_index(messages)
        kept_budget.append(count(messages[split:]))
    update = mw.before_model({"messages": messages}, None)
    if update is None:
        return text, declared, "", 0
    new = update["messages"][1:]
    out = to_text(new)
    cutoff = len(messages) - (len(new) - 1)
    older = messages[:cutoff]
    shown_ids = {m.id for m in seen.shown} if write is not None else {m.id for m in older}
    unread = to_text([m for m in older if m.id not in shown_ids])
    return out, declared - counter.count(unread), unread, 1


class LangChainSummarization:
    """The middleware with the harness's summarizer writing its summaries."""

    name: str
    args: dict[str, Any]

    def __init__(self, keep_messages: int, trim_tokens_to_summarize: int | None) -> None:
        self.middleware = {
            "keep": ("messages", keep_messages),
            "trim_tokens_to_summarize": trim_tokens_to_summarize,
        }

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        def write(shown: list[BaseMessage], room: int) -> str:
            request = SummaryRequest(to_text(shown), room, LANGCHAIN_PROMPT, (), ctx.level)
            return ctx.summarizer.summarize(request).text

        model = GenericFakeChatModel(messages=iter(()))  # counts nothing, writes nothing
        out, consumed, unread, calls = _run(
            text, budget, ctx.counter, write, model, **self.middleware
        )
        return PieceResult(
            text=out,
            declared_input_tokens=ctx.counter.count(text),
            consumed_input_tokens=consumed,
            unread_text=unread,
            calls=calls,
        )


def langchain_summarization(
    keep_messages: int = 20, trim_tokens_to_summarize: int = 4000
) -> LangChainSummarization:
    """LangChain's defaults: keep the last 20 messages, show the summarizer at most 4000
    tokens of the rest (`trim_tokens_to_summarize = 0` shows it everything)."""
    return LangChainSummarization(keep_messages, trim_tokens_to_summarize or None)


def langchain_compactor(
    model: Any, counter: Tokenizer | None = None, **middleware: Any
) -> Callable[[str, int], tuple[str, int]]:
    """`fn(text, budget_tokens) -> (text, consumed_input_tokens)`: LangChain's middleware with
    your chat model writing the summaries through its own prompt, for `--compactor`."""
    counter = counter or get_counter()

    def compactor(text: str, budget_tokens: int) -> tuple[str, int]:
        out, consumed, _, _ = _run(text, budget_tokens, counter, None, model, **middleware)
        return out, consumed

    return compactor
