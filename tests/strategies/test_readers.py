"""Reading disciplines: budget_open reads a prefix and reports the unread tail; budget_closed
(and re_ranking) consume everything, map-reducing past the summarizer's window, and make the
output fit by re-asking, never by cutting it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from sim.errors import CompactionFailure
from sim.summarizers.base import SummaryRequest, SummaryResult
from strategies import create_strategy
from strategies.base import MAX_BUDGET_RETRIES, split_lines, summarize_fitting
from tests.helpers import EchoSummarizer, context, counter, raw_count, small_history

TEXT = small_history(seed=4).text
LINES = TEXT.splitlines(keepends=True)


@pytest.mark.parametrize(("budget", "factor"), [(50, 2.0), (120, 2.0), (100, 1.0), (300, 3.5)])
def test_budget_open_reads_a_prefix_and_reports_the_tail(budget: int, factor: float) -> None:
    summarizer = EchoSummarizer(counter())
    r = create_strategy("budget_open", read_window_factor=factor).compact(
        TEXT, budget, context(summarizer)
    )
    window = int(budget * factor)
    head, size = [], 0
    for line in LINES:
        if size + raw_count(line) > window:
            break
        head.append(line)
        size += raw_count(line)
    (request,) = summarizer.requests
    assert request.text == "".join(head)
    assert r.unread_text == "".join(LINES[len(head) :])
    assert r.unread_text, "the window is smaller than the input"
    assert r.declared_input_tokens == raw_count(TEXT)
    assert r.consumed_input_tokens == raw_count(request.text) <= window
    assert r.consumed_input_tokens + raw_count(r.unread_text) == r.declared_input_tokens
    assert raw_count(r.text) <= budget


def test_budget_open_with_a_wide_window_reads_everything() -> None:
    r = create_strategy("budget_open", read_window_factor=100.0).compact(TEXT, 100, context())
    assert r.unread_text == ""
    assert r.consumed_input_tokens == r.declared_input_tokens


@pytest.mark.parametrize("name", ["budget_closed", "re_ranking"])
def test_closed_readers_consume_everything_within_the_window(name: str) -> None:
    summarizer = EchoSummarizer(counter())
    r = create_strategy(name).compact(TEXT, 200, context(summarizer))
    (request,) = summarizer.requests
    assert request.text == TEXT
    assert r.consumed_input_tokens == r.declared_input_tokens == raw_count(TEXT)
    assert r.unread_text == ""
    assert r.calls == 1
    assert raw_count(r.text) <= 200


def test_instructions_of_the_readers() -> None:
    """As the strategies table says (docs/strategies.md): budget_closed compresses and
    re_ranking asks for task continuity whatever the level says; budget_open uses the level's
    instruction, else compression; a strategy's own `instruction` argument wins."""

    def first_instruction(name: str, level: str | None = None, **args: str) -> str:
        summarizer = EchoSummarizer(counter())
        ctx = context(summarizer, instruction=level)
        create_strategy(name, **args).compact(TEXT, 200, ctx)
        return summarizer.requests[0].instruction

    assert first_instruction("budget_closed", "Focus on X.").startswith("Compress")
    assert first_instruction("re_ranking", "Mine.").startswith("Summarize for task continuity")
    assert first_instruction("budget_open", "Mine.") == "Mine."
    assert first_instruction("budget_open").startswith("Compress")
    assert first_instruction("budget_closed", instruction="Own.") == "Own."


@pytest.mark.parametrize("window", [150, 400, 900])
def test_budget_closed_map_reduces_past_the_window(window: int) -> None:
    summarizer = EchoSummarizer(counter(), max_input_tokens=window)
    r = create_strategy("budget_closed").compact(TEXT, 100, context(summarizer))
    assert raw_count(TEXT) > window
    assert r.consumed_input_tokens == r.declared_input_tokens == raw_count(TEXT)
    assert len(summarizer.requests) == r.calls > 1
    assert all(raw_count(q.text) <= window for q in summarizer.requests)
    first_pass = [q for q in summarizer.requests if q.text in TEXT]
    assert "".join(q.text for q in first_pass[: len(split_lines(TEXT, window, counter()))]) == TEXT
    assert raw_count(r.text) <= 100


def test_split_lines_keeps_whole_lines_within_the_limit() -> None:
    chunks = split_lines(TEXT, 200, counter())
    assert "".join(chunks) == TEXT
    assert all(raw_count(c) <= 200 for c in chunks)
    long_line = "word " * 300
    assert split_lines(long_line, 50, counter()) == [long_line.strip() + "\n"]


@dataclass
class Overflowing:
    """Emits `sizes[i]` words on its i-th call, whatever the budget."""

    sizes: list[int]
    name: str = "overflowing"
    max_input_tokens: int = 1_000_000
    asks: list[int] = field(default_factory=list)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        n = self.sizes[min(len(self.asks), len(self.sizes) - 1)]
        self.asks.append(request.budget_tokens)
        return SummaryResult(" ".join(["word"] * n) + "\n", counter().count(request.text))


def test_overflow_is_re_asked_tighter_never_cut() -> None:
    s = Overflowing([80, 10])
    read = summarize_fitting(TEXT, 40, context(s), "Compress.")
    assert read.budget_retries == 1 and read.calls == 2
    assert s.asks[0] == 40 and s.asks[1] < 40
    assert read.text == " ".join(["word"] * 10) + "\n"


def test_persistent_overflow_fails_loudly() -> None:
    s = Overflowing([80])
    with pytest.raises(CompactionFailure, match="refusing to truncate") as info:
        summarize_fitting(TEXT, 40, context(s, level="L2"), "Compress.")
    assert info.value.level == "L2"
    assert len(s.asks) == MAX_BUDGET_RETRIES + 1
