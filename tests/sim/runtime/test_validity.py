"""Structural validity of compacted message lists, on hand-written broken lists, and head/tail
on message lists that never split a tool-call pair (property-based)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.errors import BudgetInfeasible, UserError
from sim.runtime.floor_registry import declare_fact
from sim.runtime.validity import (
    Api,
    Message,
    blocks,
    check_levels,
    check_messages,
    head_messages,
    message_text,
    tail_messages,
)
from sim.tokens import whitespace_counter

Msg = dict[str, Any]
SYSTEM_RULE = "Never force-push to the main branch."
WS = whitespace_counter()


def call(*ids: str) -> Msg:
    fns = [
        {"id": i, "type": "function", "function": {"name": "run", "arguments": "{}"}} for i in ids
    ]
    return {"role": "assistant", "content": None, "tool_calls": fns}


def result(call_id: str, text: str = "ok") -> Msg:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def say(role: str, text: str = "hello there") -> Msg:
    return {"role": role, "content": text}


def use(*ids: str) -> Msg:
    content = [{"type": "tool_use", "id": i, "name": "Bash", "input": {"cmd": "ls"}} for i in ids]
    return {"role": "assistant", "content": content}


def answer(*ids: str) -> Msg:
    content = [{"type": "tool_result", "tool_use_id": i, "content": "done"} for i in ids]
    return {"role": "user", "content": content}


def rules(messages: list[Any], api: Api = "openai", **kwargs: Any) -> list[tuple[str, int | None]]:
    return [(v.rule, v.index) for v in check_messages(messages, api=api, counter=WS, **kwargs)]


VALID_OPENAI = [
    say("system", SYSTEM_RULE),
    say("user"),
    call("c1", "c2"),
    result("c1"),
    result("c2"),
    say("assistant"),
]


def test_a_valid_openai_list_has_no_violation() -> None:
    assert rules(VALID_OPENAI, invariants=[SYSTEM_RULE]) == []


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([say("user"), call("c1"), say("assistant")], [("orphan_tool_call", 1)]),
        ([say("user"), call("c1")], [("orphan_tool_call", 1)]),
        ([say("user"), result("c1")], [("orphan_tool_result", 1)]),
        (
            [call("c1"), say("user"), result("c1")],
            [("orphan_tool_call", 0), ("orphan_tool_result", 2)],
        ),
        ([call("c1", "c2"), result("c1")], [("orphan_tool_call", 0)]),
        ([call("c1"), result("c1"), result("c1")], [("orphan_tool_result", 2)]),
        ([say("user"), say("summary")], [("invalid_role", 1)]),
        ([say("user"), {"content": "no role"}, "text"], [("malformed", 1), ("malformed", 2)]),
        ([say("user"), {"role": "tool", "content": "x"}], [("orphan_tool_result", 1)]),
    ],
)
def test_broken_openai_lists(messages: list[Any], expected: list[tuple[str, int]]) -> None:
    assert rules(messages) == expected


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([say("user"), use("t1"), answer("t1"), say("assistant")], []),
        ([say("assistant")], [("role_order", 0)]),
        ([say("system"), say("user")], [("invalid_role", 0), ("role_order", 0)]),
        ([say("user"), use("t1"), say("user")], [("orphan_tool_call", 1)]),
        ([say("user"), use("t1")], [("orphan_tool_call", 1)]),
        ([say("user"), say("assistant"), answer("t1")], [("orphan_tool_result", 2)]),
        (
            [say("user"), use("t1", "t2"), answer("t2")],
            [("orphan_tool_call", 1)],
        ),
    ],
)
def test_anthropic_lists(messages: list[Msg], expected: list[tuple[str, int]]) -> None:
    assert rules(messages, "anthropic") == expected


def test_declared_invariants_must_stay_present() -> None:
    fact = declare_fact(
        SYSTEM_RULE,
        {"action": ["force-push", "force-pushing"], "object": ["main branch"]},
        fact_id="no-force-push",
    )
    kept = [say("user"), say("assistant", "Force-pushing the main branch is fine now.")]
    found = check_messages(kept, invariants=[fact, SYSTEM_RULE], level="L1", counter=WS)
    assert [(v.rule, v.detail) for v in found] == [
        ("missing_invariant", "fact 'no-force-push' is inverted"),
        ("missing_invariant", "rule 'Never force-push to the main branch.' is in no kept message"),
    ]
    assert all(v.level == "L1" for v in found)


def test_check_levels_reports_per_level() -> None:
    report = check_levels(
        {"L1": VALID_OPENAI, "L2": [say("user"), call("c9")]},
        invariants=[SYSTEM_RULE],
        counter=WS,
    )
    assert report["L1"] == ()
    assert sorted(v.rule for v in report["L2"]) == ["missing_invariant", "orphan_tool_call"]
    assert {v.level for v in report["L2"]} == {"L2"}


def test_blocks_keep_a_tool_call_with_all_its_results() -> None:
    assert [list(b) for b in blocks(VALID_OPENAI)] == [[0], [1], [2, 3, 4], [5]]
    anthropic = [say("user"), use("t1"), answer("t1"), say("assistant")]
    assert [list(b) for b in blocks(anthropic, "anthropic")] == [[0], [1, 2], [3]]


def test_message_text_includes_tool_calls_and_results() -> None:
    assert message_text(call("c1")) == "run({})"
    assert message_text(answer("t1")) == "done"
    assert message_text(use("t1")) == 'Bash({"cmd": "ls"})'


def test_head_and_tail_drop_a_pair_whole_rather_than_split_it() -> None:
    cost = {id(m): WS.count(message_text(m) + "\n") for m in VALID_OPENAI}
    # room for the system rule, the user line and one message of the three-message block
    budget = cost[id(VALID_OPENAI[0])] + cost[id(VALID_OPENAI[1])] + cost[id(VALID_OPENAI[2])]
    assert head_messages(VALID_OPENAI, budget, counter=WS) == VALID_OPENAI[:2]
    tail = tail_messages(VALID_OPENAI, budget, counter=WS)
    assert tail == [VALID_OPENAI[0], VALID_OPENAI[5]]  # the system rule is kept and charged


def test_system_messages_that_do_not_fit_fail_loudly() -> None:
    with pytest.raises(BudgetInfeasible, match="system messages need"):
        tail_messages(VALID_OPENAI, 2, counter=WS)
    assert tail_messages(VALID_OPENAI, 2, counter=WS, keep_system=False) == [VALID_OPENAI[5]]


# --- properties --------------------------------------------------------------------------

_words = st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta"]), min_size=1, max_size=6)
_text = _words.map(" ".join)


@st.composite
def openai_lists(draw: st.DrawFn) -> list[Msg]:
    messages: list[Msg] = [say("system", draw(_text))] if draw(st.booleans()) else []
    n = 0
    for kind in draw(st.lists(st.sampled_from(["user", "assistant", "tools"]), max_size=10)):
        if kind != "tools":
            messages.append(say(kind, draw(_text)))
            continue
        ids = [f"call_{n + i}" for i in range(draw(st.integers(1, 3)))]
        n += len(ids)
        messages.append(call(*ids))
        messages += [result(i, draw(_text)) for i in ids]
    return messages


@st.composite
def anthropic_lists(draw: st.DrawFn) -> list[Msg]:
    messages: list[Msg] = [say("user", draw(_text))]
    n = 0
    for kind in draw(st.lists(st.sampled_from(["text", "tools"]), max_size=8)):
        if kind == "text":
            messages += [say("assistant", draw(_text)), say("user", draw(_text))]
            continue
        ids = [f"toolu_{n + i}" for i in range(draw(st.integers(1, 3)))]
        n += len(ids)
        messages += [use(*ids), answer(*ids)]
    return messages


def _pairs(messages: list[Msg]) -> list[tuple[int, int]]:
    """(calling message, answering message) index pairs that the input itself matches."""
    found = []
    for i, m in enumerate(messages):
        ids = {c["id"] for c in m.get("tool_calls") or ()}
        ids |= {b["id"] for b in m["content"] or () if isinstance(b, dict) and "id" in b}
        for j, later in enumerate(messages[i + 1 :], start=i + 1):
            answers = {later.get("tool_call_id")} | {
                b.get("tool_use_id") for b in later["content"] or () if isinstance(b, dict)
            }
            if ids & answers:
                found.append((i, j))
    return found


def _check_keep(messages: list[Msg], kept: Sequence[Message], api: Api, budget: int) -> None:
    index = {id(m): i for i, m in enumerate(messages)}
    positions = [index[id(m)] for m in kept]
    assert positions == sorted(positions)  # a sub-list in the original order
    for a, b in _pairs(messages):
        assert (a in positions) == (b in positions), f"pair {a}-{b} split"
    structural = {"orphan_tool_call", "orphan_tool_result", "role_order"}
    assert not [v for v in check_messages(kept, api=api, counter=WS) if v.rule in structural]
    assert sum(WS.count(message_text(m) + "\n") for m in kept) <= budget


@given(openai_lists(), st.integers(0, 60))
def test_openai_head_and_tail_never_split_a_tool_call_pair(
    messages: list[Msg], budget: int
) -> None:
    assert check_messages(messages, counter=WS) == ()
    for keep in (head_messages, tail_messages):
        try:
            kept = keep(messages, budget, counter=WS)
        except BudgetInfeasible:
            continue  # only when the system message alone exceeds the budget
        _check_keep(messages, kept, "openai", budget)


@given(anthropic_lists(), st.integers(0, 60))
def test_anthropic_head_and_tail_never_split_a_tool_use_pair(
    messages: list[Msg], budget: int
) -> None:
    assert check_messages(messages, api="anthropic", counter=WS) == ()
    for keep in (head_messages, tail_messages):
        _check_keep(
            messages, keep(messages, budget, api="anthropic", counter=WS), "anthropic", budget
        )


def test_an_unknown_api_is_a_user_error() -> None:
    with pytest.raises(UserError, match="api='gemini'"):
        check_messages([], api="gemini")  # type: ignore[arg-type]
