"""Structural validity of compacted message lists, and head/tail that respect it.

When a level keeps messages instead of prose (drop old messages, keep the tail verbatim), the
floor check is not enough: the list must still be one the target API accepts and the agent can
read. A tool call without its result (or a result without its call) is rejected by the OpenAI
and Anthropic APIs, a made-up role ("summary") is rejected, and a system rule that fell out of
the list binds nobody. `check_messages` reports each such break as a `StructureViolation`;
`check_levels` does it per level, next to the floor checks.

Messages are the runtime's own dicts: OpenAI chat format (`tool_calls` on assistant messages,
`role: "tool"` results with `tool_call_id`) or Anthropic format (`tool_use` blocks in assistant
content, `tool_result` blocks in the next user message). `head_messages` / `tail_messages` keep
whole *blocks* (a tool-calling message with all its results is one block), so the truncation
baselines never split a tool-call pair.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sim.errors import BudgetInfeasible, UserError
from sim.grading.grade import grade_text
from sim.tokens import Tokenizer, get_counter
from sim.types import Fact

Api = Literal["openai", "anthropic"]
Message = Mapping[str, Any]
ROLES: dict[str, frozenset[str]] = {
    "openai": frozenset({"system", "developer", "user", "assistant", "tool"}),
    "anthropic": frozenset({"user", "assistant"}),
}
SYSTEM_ROLES = frozenset({"system", "developer"})


@dataclass(frozen=True, slots=True)
class StructureViolation:
    """One structural break: `rule` is a stable name, `index` the message it is about."""

    level: str
    rule: str
    """malformed, invalid_role, role_order, orphan_tool_call, orphan_tool_result or
    missing_invariant."""
    index: int | None
    detail: str


@dataclass(frozen=True, slots=True)
class _Shape:
    role: str
    calls: tuple[str, ...]
    results: tuple[str, ...]
    text: str


def _blocks_of(content: object) -> list[Mapping[str, Any]]:
    if isinstance(content, list):
        return [b for b in content if isinstance(b, Mapping)]
    return []


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for b in _blocks_of(content):
        kind = b.get("type")
        if kind == "text":
            parts.append(str(b.get("text", "")))
        elif kind == "tool_use":
            parts.append(f"{b.get('name', '')}({json.dumps(b.get('input', {}), sort_keys=True)})")
        elif kind == "tool_result":
            parts.append(_content_text(b.get("content", "")))
    return "\n".join(p for p in parts if p)


def _shape(msg: Message) -> _Shape:
    role = str(msg.get("role", ""))
    content = msg.get("content")
    calls = [str(c.get("id", "")) for c in msg.get("tool_calls") or () if isinstance(c, Mapping)]
    calls += [str(b.get("id", "")) for b in _blocks_of(content) if b.get("type") == "tool_use"]
    results = [str(msg["tool_call_id"])] if "tool_call_id" in msg else []
    results += [
        str(b.get("tool_use_id", "")) for b in _blocks_of(content) if b.get("type") == "tool_result"
    ]
    text = _content_text(content)
    for c in msg.get("tool_calls") or ():
        if isinstance(c, Mapping):
            fn = c.get("function") or {}
            text += f"\n{fn.get('name', '')}({fn.get('arguments', '')})"
    return _Shape(role, tuple(calls), tuple(results), text.strip())


def message_text(msg: Message) -> str:
    """The words of a message, tool calls and results included: what the grader reads."""
    return _shape(msg).text


def _pairing_openai(shapes: Sequence[_Shape], level: str) -> list[StructureViolation]:
    out: list[StructureViolation] = []
    pending: dict[str, int] = {}  # call id -> index of the calling message
    answered: set[str] = set()
    for i, s in enumerate(shapes):
        if s.role != "tool":
            out += [
                StructureViolation(level, "orphan_tool_call", at, f"call {cid!r} has no result")
                for cid, at in pending.items()
            ]
            pending, answered = {cid: i for cid in s.calls}, set()
            continue
        for rid in s.results or ("",):
            if rid in pending:
                del pending[rid]
                answered.add(rid)
            else:
                why = "answered twice" if rid in answered else "answers no preceding call"
                out.append(StructureViolation(level, "orphan_tool_result", i, f"{rid!r} {why}"))
    out += [
        StructureViolation(level, "orphan_tool_call", at, f"call {cid!r} has no result")
        for cid, at in pending.items()
    ]
    return out


def _pairing_anthropic(shapes: Sequence[_Shape], level: str) -> list[StructureViolation]:
    out: list[StructureViolation] = []
    if shapes and shapes[0].role != "user":
        out.append(StructureViolation(level, "role_order", 0, "the first message must be user"))
    for i, s in enumerate(shapes):
        nxt = shapes[i + 1] if i + 1 < len(shapes) else None
        for cid in s.calls:
            if nxt is None or nxt.role != "user" or cid not in nxt.results:
                detail = f"tool_use {cid!r} has no tool_result in the next user message"
                out.append(StructureViolation(level, "orphan_tool_call", i, detail))
        prev = shapes[i - 1] if i else None
        for rid in s.results:
            if prev is None or prev.role != "assistant" or rid not in prev.calls:
                detail = f"tool_result {rid!r} answers no tool_use in the previous message"
                out.append(StructureViolation(level, "orphan_tool_result", i, detail))
    return out


def check_messages(
    messages: Sequence[object],
    *,
    api: Api = "openai",
    invariants: Sequence[Fact | str] = (),
    level: str = "",
    counter: Tokenizer | None = None,
) -> tuple[StructureViolation, ...]:
    """Every structural break in one list. Invariants are declared facts (graded at their
    floor over the whole list) or exact strings a kept message must contain (a system rule)."""
    if api not in ROLES:
        raise UserError(f"check_messages: api={api!r} must be one of {sorted(ROLES)}")
    out: list[StructureViolation] = []
    shapes: list[_Shape] = []
    for i, msg in enumerate(messages):
        if not isinstance(msg, Mapping) or not isinstance(msg.get("role"), str):
            out.append(StructureViolation(level, "malformed", i, "not a message with a role"))
            shapes.append(_Shape("", (), (), ""))
            continue
        s = _shape(msg)
        if s.role not in ROLES[api]:
            valid = ", ".join(sorted(ROLES[api]))
            detail = f"role {s.role!r} is not valid for {api} (valid: {valid})"
            out.append(StructureViolation(level, "invalid_role", i, detail))
        shapes.append(s)
    pairing = _pairing_openai if api == "openai" else _pairing_anthropic
    out += pairing(shapes, level)
    text = "\n".join(s.text for s in shapes)
    facts = [inv for inv in invariants if isinstance(inv, Fact)]
    if facts:
        for g in grade_text(text + "\n", facts, counter or get_counter()):
            if not g.grade.at_floor:
                detail = f"fact {g.fact_id!r} is {g.grade.label}"
                out.append(StructureViolation(level, "missing_invariant", None, detail))
    for inv in invariants:
        if isinstance(inv, str) and not any(inv.strip() in s.text for s in shapes):
            detail = f"rule {inv.strip()[:60]!r} is in no kept message"
            out.append(StructureViolation(level, "missing_invariant", None, detail))
    return tuple(sorted(out, key=lambda v: (v.index is None, v.index or 0, v.rule)))


def check_levels(
    levels: Mapping[str, Sequence[object]],
    *,
    api: Api = "openai",
    invariants: Sequence[Fact | str] = (),
    counter: Tokenizer | None = None,
) -> dict[str, tuple[StructureViolation, ...]]:
    """`check_messages` for each level's kept list; a level with no break maps to ()."""
    return {
        name: check_messages(msgs, api=api, invariants=invariants, level=name, counter=counter)
        for name, msgs in levels.items()
    }


def blocks(messages: Sequence[Message], api: Api = "openai") -> list[range]:
    """The list cut into atomic spans: a tool-calling message with its results is one span."""
    spans: list[range] = []
    i = 0
    while i < len(messages):
        s = _shape(messages[i])
        end = i + 1
        if s.calls and api == "openai":
            while end < len(messages) and _shape(messages[end]).role == "tool":
                end += 1
        elif s.calls and end < len(messages):
            nxt = _shape(messages[end])
            if nxt.role == "user" and set(s.calls) & set(nxt.results):
                end += 1
        spans.append(range(i, end))
        i = end
    return spans


def _keep(
    messages: Sequence[Message],
    budget_tokens: int,
    api: Api,
    counter: Tokenizer | None,
    keep_system: bool,
    from_end: bool,
) -> list[Message]:
    count = (counter or get_counter()).count
    pinned = {i for i, m in enumerate(messages) if keep_system and _shape(m).role in SYSTEM_ROLES}
    used = sum(count(message_text(messages[i]) + "\n") for i in pinned)
    if used > budget_tokens:
        raise BudgetInfeasible(
            "head/tail", f"system messages need {used} tokens > budget {budget_tokens}"
        )
    spans = [b for b in blocks(messages, api) if not set(b) <= pinned]
    kept: list[range] = []
    for span in reversed(spans) if from_end else spans:
        cost = sum(count(message_text(messages[i]) + "\n") for i in span if i not in pinned)
        if used + cost > budget_tokens:
            break
        kept.append(span)
        used += cost
    if from_end and api == "anthropic":  # the list must open with a user message
        while kept and _shape(messages[kept[-1][0]]).role != "user":
            kept.pop()
    chosen = pinned | {i for span in kept for i in span}
    return [m for i, m in enumerate(messages) if i in chosen]


def head_messages(
    messages: Sequence[Message],
    budget_tokens: int,
    *,
    api: Api = "openai",
    counter: Tokenizer | None = None,
    keep_system: bool = True,
) -> list[Message]:
    """The longest prefix of whole blocks that fits (system messages kept and charged first)."""
    return _keep(messages, budget_tokens, api, counter, keep_system, from_end=False)


def tail_messages(
    messages: Sequence[Message],
    budget_tokens: int,
    *,
    api: Api = "openai",
    counter: Tokenizer | None = None,
    keep_system: bool = True,
) -> list[Message]:
    """The longest suffix of whole blocks that fits (system messages kept and charged first)."""
    return _keep(messages, budget_tokens, api, counter, keep_system, from_end=True)
