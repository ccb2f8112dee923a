"""floor_gated (strategies/floor_gated.py): a floor check on every declared fact after every
call, retries with the violated facts pinned (charged to the budget), then a loud
RecallFloorViolation attributed to the level — or, with on_exhausted="flag", a flag."""

from __future__ import annotations

import pytest

from sim.errors import RecallFloorViolation
from sim.types import Grade
from strategies import create_strategy
from tests.helpers import EchoSummarizer, context, counter, grade_one, lines, note_fact, planted

NOTE = note_fact("f1").fact
ORDER = planted("ordering", 0, "f2").fact
TEXT = lines(
    "Tests in test_orders passed.",
    NOTE.text,
    "Open task: finish the CSV export for invoices before the Friday demo.",
    ORDER.text,
    "Next I will profile the gateway endpoint because p95 latency doubled.",
)


def test_no_violation_no_retry() -> None:
    summarizer = EchoSummarizer(counter())
    r = create_strategy("floor_gated").compact(TEXT, 500, context(summarizer, [NOTE, ORDER]))
    assert r.violations == () and r.flagged == ()
    assert r.floor_retries == 0 and r.calls == 1 and r.pin_tokens == 0
    assert r.consumed_input_tokens == r.declared_input_tokens
    assert summarizer.requests[0].pinned == ()


def test_violation_is_retried_with_the_fact_pinned_and_recovered() -> None:
    summarizer = EchoSummarizer(counter(), drop=("credential",))
    r = create_strategy("floor_gated").compact(
        TEXT, 500, context(summarizer, [NOTE, ORDER], level="L2")
    )
    assert [q.pinned for q in summarizer.requests] == [(), (NOTE,)]
    assert r.floor_retries == 1 and r.calls == 2
    assert grade_one(r.text, NOTE).grade is Grade.VERBATIM
    (v,) = r.violations
    assert (v.level, v.fact_id, v.grade, v.attempt, v.recovered) == (
        "L2",
        "f1",
        Grade.DROPPED,
        0,
        True,
    )
    assert v.reason == "dropped"
    assert r.flagged == ()
    assert r.pin_tokens == counter().count_line(NOTE.text)


def test_unrecoverable_violation_raises_after_max_retries() -> None:
    summarizer = EchoSummarizer(counter(), drop=("credential",), ignore_pins=True)
    gate = create_strategy("floor_gated", max_retries=2)
    with pytest.raises(RecallFloorViolation) as info:
        gate.compact(TEXT, 500, context(summarizer, [NOTE, ORDER], level="L3"))
    exc = info.value
    assert (exc.level, exc.fact_id) == ("L3", "f1")
    assert len(summarizer.requests) == 3
    assert [v.attempt for v in exc.violations] == [0, 1, 2]
    assert not any(v.recovered for v in exc.violations)


def test_flag_mode_keeps_the_output_and_flags_the_fact() -> None:
    summarizer = EchoSummarizer(counter(), drop=("credential",), ignore_pins=True)
    gate = create_strategy("floor_gated", max_retries=1, on_exhausted="flag")
    r = gate.compact(TEXT, 500, context(summarizer, [NOTE, ORDER]))
    assert r.flagged == ("f1",)
    assert len(r.violations) == 2 and not any(v.recovered for v in r.violations)
    assert grade_one(r.text, ORDER).grade is Grade.VERBATIM


def test_degraded_reason_names_the_missing_anchor() -> None:
    degrading = lines("Credential rotation deferred.", ORDER.text)

    class Abstracting(EchoSummarizer):
        def summarize(self, request):  # type: ignore[no-untyped-def]
            result = super().summarize(request)
            if request.pinned:
                return result
            return type(result)(degrading, result.consumed_input_tokens)

    summarizer = Abstracting(counter())
    r = create_strategy("floor_gated").compact(TEXT, 500, context(summarizer, [NOTE, ORDER]))
    (v,) = r.violations
    assert v.grade is Grade.DEGRADED and v.recovered
    assert v.reason == "abstracted past actionability (missing condition)"


def test_only_facts_at_their_floor_in_the_input_are_guarded() -> None:
    """A fact the input already lost is not this level's violation (locality of blame)."""
    text = lines("Credential rotation deferred.", ORDER.text)
    summarizer = EchoSummarizer(counter(), drop=("credential",))
    r = create_strategy("floor_gated").compact(text, 500, context(summarizer, [NOTE, ORDER]))
    assert r.violations == () and r.floor_retries == 0


def test_undeclared_facts_are_not_guarded() -> None:
    summarizer = EchoSummarizer(counter(), drop=("credential",))
    r = create_strategy("floor_gated").compact(TEXT, 500, context(summarizer, [ORDER]))
    assert r.violations == ()
    assert grade_one(r.text, NOTE).grade is Grade.DROPPED


@pytest.mark.parametrize("sticky", [True, False])
def test_sticky_pins_carry_to_later_calls(sticky: bool) -> None:
    summarizer = EchoSummarizer(counter(), drop=("credential",))
    gate = create_strategy("floor_gated", sticky=sticky)
    ctx = context(summarizer, [NOTE, ORDER])
    gate.compact(TEXT, 500, ctx)
    summarizer.requests.clear()
    second = gate.compact(TEXT, 500, ctx)
    if sticky:
        assert summarizer.requests[0].pinned == (NOTE,)
        assert second.violations == () and second.calls == 1
    else:
        assert summarizer.requests[0].pinned == ()
        assert second.floor_retries == 1


def test_default_instruction_is_the_levels_else_re_ranking() -> None:
    summarizer = EchoSummarizer(counter())
    create_strategy("floor_gated").compact(TEXT, 500, context(summarizer, [NOTE]))
    create_strategy("floor_gated").compact(
        TEXT, 500, context(summarizer, [NOTE], instruction="Compress it.")
    )
    first, second = (q.instruction for q in summarizer.requests)
    assert first.startswith("Summarize for task continuity")
    assert second == "Compress it."
