"""Baselines (strategies/baselines.py) behave as documented: keep_all keeps everything, head
and tail keep the whole lines that fit and report the rest unread, empty emits nothing, pinned
carries declared facts verbatim inside the budget."""

from __future__ import annotations

import pytest

from sim.errors import BudgetInfeasible
from strategies import create_strategy
from tests.helpers import (
    EchoSummarizer,
    context,
    counter,
    grade_one,
    lines,
    note_fact,
    planted,
    raw_count,
    small_history,
)

HISTORY = small_history(seed=9)
TEXT = HISTORY.text
LINES = TEXT.splitlines(keepends=True)


def _fit(seq: list[str], budget: int) -> list[str]:
    out, size = [], 0
    for line in seq:
        if size + raw_count(line) > budget:
            break
        out.append(line)
        size += raw_count(line)
    return out


def test_keep_all_is_the_identity() -> None:
    r = create_strategy("keep_all").compact(TEXT, 10, context())
    assert r.text == TEXT
    assert r.declared_input_tokens == r.consumed_input_tokens == raw_count(TEXT)
    assert r.unread_text == ""


@pytest.mark.parametrize("budget", [0, 1, 37, 200, 10_000])
def test_head_keeps_the_first_lines_that_fit(budget: int) -> None:
    r = create_strategy("head").compact(TEXT, budget, context())
    kept = _fit(LINES, budget)
    assert r.text == "".join(kept)
    assert r.unread_text == "".join(LINES[len(kept) :])
    assert raw_count(r.text) <= budget
    assert r.consumed_input_tokens == raw_count(r.text)
    assert r.declared_input_tokens == raw_count(TEXT)
    assert (r.consumed_input_tokens == r.declared_input_tokens) == (r.unread_text == "")


@pytest.mark.parametrize("budget", [0, 1, 37, 200, 10_000])
def test_tail_keeps_the_last_lines_that_fit(budget: int) -> None:
    r = create_strategy("tail").compact(TEXT, budget, context())
    kept = _fit(LINES[::-1], budget)[::-1]
    assert r.text == "".join(kept)
    assert r.unread_text == "".join(LINES[: len(LINES) - len(kept)])
    assert raw_count(r.text) <= budget
    assert r.consumed_input_tokens == raw_count(r.text)


def test_empty_emits_nothing_and_reads_nothing() -> None:
    r = create_strategy("empty").compact(TEXT, 500, context())
    assert r.text == ""
    assert r.consumed_input_tokens == 0
    assert r.declared_input_tokens == raw_count(TEXT)
    assert r.unread_text == TEXT


NOTE = note_fact("f1").fact
ORDER = planted("ordering", 0, "f2").fact
FILLER = [
    "Tests in test_orders passed.",
    "Next I will update the orders handler and rerun the test_orders tests.",
    "Open task: finish the CSV export for invoices before the Friday demo.",
    "HTTP 200 from GET /api/orders?page=2 in 31 ms, 4 items returned.",
]


def test_pinned_carries_declared_facts_verbatim_inside_the_budget() -> None:
    text = lines(FILLER[0], NOTE.text, FILLER[1], ORDER.text, FILLER[2], FILLER[3])
    block = lines(NOTE.text, ORDER.text)
    budget = raw_count(block) + 20
    summarizer = EchoSummarizer(counter())
    r = create_strategy("pinned").compact(text, budget, context(summarizer, [NOTE, ORDER]))
    assert r.text.startswith(block)
    assert grade_one(r.text, NOTE).grade.label == "verbatim"
    assert grade_one(r.text, ORDER).grade.label == "verbatim"
    assert raw_count(r.text) <= budget
    assert r.pin_tokens == raw_count(block)
    # the summarizer got the rest, with the pinned lines taken out, and the rest of the budget
    (request,) = summarizer.requests
    assert NOTE.text not in request.text and FILLER[0] in request.text
    assert request.budget_tokens == budget - raw_count(block)
    assert r.consumed_input_tokens == r.declared_input_tokens == raw_count(text)


def test_pinned_only_pins_declared_facts_present_at_their_floor() -> None:
    text = lines(FILLER[0], "Credential rotation deferred.", ORDER.text)
    summarizer = EchoSummarizer(counter())
    r = create_strategy("pinned").compact(text, 200, context(summarizer, [NOTE, ORDER]))
    assert r.pin_tokens == raw_count(lines(ORDER.text))
    assert r.text.startswith(lines(ORDER.text))
    assert NOTE.text not in r.text  # a pin restores nothing that was already lost


def test_pinned_keeps_only_the_pins_when_they_fill_the_budget_exactly() -> None:
    """Pins that fit exactly are kept; the rest was read and none of it fits (no refusal)."""
    text = lines(FILLER[0], NOTE.text, ORDER.text)
    budget = raw_count(lines(NOTE.text, ORDER.text))
    ctx = context(None, [NOTE, ORDER])
    result = create_strategy("pinned").compact(text, budget, ctx)
    assert result.text == lines(NOTE.text, ORDER.text)
    assert ctx.counter.count(result.text) == budget
    assert result.consumed_input_tokens == result.declared_input_tokens
    with pytest.raises(BudgetInfeasible, match="pin block needs"):
        create_strategy("pinned").compact(text, budget - 1, ctx)


def test_pinned_refuses_pins_over_the_budget_even_with_nothing_else_to_read() -> None:
    """Pins are charged to the budget: a block that cannot fit fails loudly, whatever else
    the input holds: pins re-injected after the budget cut would pass a check of the
    summary alone while the level overflows."""
    text = lines(NOTE.text, ORDER.text)
    with pytest.raises(BudgetInfeasible):
        create_strategy("pinned").compact(text, 5, context(None, [NOTE, ORDER]))
