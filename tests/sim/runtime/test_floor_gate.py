"""The runtime floor gate: retries with pins, the exact retry sequence, the exception's fields,
budget closure and the never-truncate rule, on scripted summarizer callables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from sim.errors import (
    BudgetClosureViolation,
    BudgetInfeasible,
    CompactionFailure,
    RecallFloorViolation,
    UserError,
)
from sim.runtime.call import pin_block
from sim.runtime.floor_gate import CONTRADICTS_PIN, FloorGate
from sim.runtime.floor_registry import declare_fact
from sim.summarizers.base import SummaryResult
from sim.types import Fact, Grade
from tests.helpers import counter, lines

RULE = "Do not rotate the credential after step 4."
DROPPED = lines("The open subgoal is the billing export.")
ABSTRACTED = lines("Credential rotation deferred.", "The open subgoal is the billing export.")
INVERTED = lines("Rotate the credential at step 4.", "The open subgoal is the billing export.")
RECOVERED = lines("No credential rotation after step 4.", "Billing export is the open subgoal.")
L1_TEXT = lines("Fixed the flaky login test.", RULE, "The open subgoal is the billing export.")


def rule_fact(fact_id: str = "f1") -> Fact:
    return declare_fact(
        RULE,
        {
            "action": ["rotate", "rotating", "rotation"],
            "object": ["credential"],
            "condition": ["after step 4", "past step 4"],
        },
        opposites={"condition": ["before step 4", "at step 4"]},
        fact_id=fact_id,
        min_span_tokens=4,
    )


@dataclass
class PinAware:
    """Replies from a script, one per call, and records (budget, pinned ids) of each call."""

    replies: list[str]
    calls: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)

    def __call__(self, text: str, budget_tokens: int, pinned: tuple[Fact, ...]) -> str:
        self.calls.append((budget_tokens, tuple(f.fact_id for f in pinned)))
        return self.replies[min(len(self.calls), len(self.replies)) - 1]


@dataclass
class Plain:
    """A plain `fn(text, budget_tokens)`: cannot be told what to keep."""

    replies: list[Any]
    budgets: list[int] = field(default_factory=list)

    def __call__(self, text: str, budget_tokens: int) -> Any:
        self.budgets.append(budget_tokens)
        return self.replies[min(len(self.budgets), len(self.replies)) - 1]


SCRIPT = [DROPPED, ABSTRACTED, INVERTED, RECOVERED]


def test_drop_abstract_invert_then_recover_is_the_exact_retry_sequence() -> None:
    fn = PinAware(list(SCRIPT))
    result = FloorGate([rule_fact()], max_retries=3).compact(
        level="L2", text=L1_TEXT, budget_tokens=64, summarize=fn
    )
    assert fn.calls == [(64, ()), (64, ("f1",)), (64, ("f1",)), (64, ("f1",))]
    assert result.text == RECOVERED
    assert [(v.attempt, v.grade, v.recovered) for v in result.violations] == [
        (0, Grade.DROPPED, True),
        (1, Grade.DEGRADED, True),
        (2, Grade.INVERTED, True),
    ]
    assert [v.reason for v in result.violations] == [
        "dropped",
        "abstracted past actionability (missing condition)",
        "polarity inverted",
    ]
    assert [a.pinned for a in result.attempts] == [(), ("f1",), ("f1",), ("f1",)]
    assert [len(a.lost) for a in result.attempts] == [1, 1, 1, 0]
    assert (result.floor_retries, result.calls, result.budget_retries) == (3, 4, 0)
    assert (result.pinned, result.inlined, result.exhausted) == (("f1",), (), False)
    assert result.grades[0].grade is Grade.ACTIONABLE
    assert result.tokens_out == counter().count(RECOVERED) <= 64


def test_exhausted_retries_raise_with_level_fact_grade_and_both_texts() -> None:
    fact = rule_fact()
    fn = PinAware(list(SCRIPT))
    with pytest.raises(RecallFloorViolation) as info:
        FloorGate([fact], max_retries=2).compact(
            level="L2", text=L1_TEXT, budget_tokens=64, summarize=fn
        )
    exc = info.value
    assert len(fn.calls) == 3
    assert (exc.level, exc.fact_id, exc.fact) == ("L2", "f1", fact)
    assert exc.grade is not None and exc.grade.grade is Grade.INVERTED
    assert exc.grade.sentence == "Rotate the credential at step 4."
    assert (exc.text_before, exc.text_after) == (L1_TEXT, INVERTED)
    assert str(exc) == "L2: fact 'f1': polarity inverted"
    assert [(v.attempt, v.grade, v.recovered) for v in exc.violations] == [
        (0, Grade.DROPPED, False),
        (1, Grade.DEGRADED, False),
        (2, Grade.INVERTED, False),
    ]


def test_pin_mode_never_inlines_beside_a_contradiction_it_asks_once_more() -> None:
    fn = PinAware(list(SCRIPT))
    result = FloorGate([rule_fact()], max_retries=2, on_exhausted="pin").compact(
        level="L2", text=L1_TEXT, budget_tokens=64, summarize=fn
    )
    block = pin_block([rule_fact()])
    cost = counter().count(block)
    # three floor attempts, then one call for the room left beside the pin block
    assert fn.calls[3] == (64 - cost, ())
    assert result.text == block + RECOVERED
    assert (result.inlined, result.exhausted, result.pin_tokens) == (("f1",), True, cost)
    assert result.calls == 4 and result.tokens_out <= 64


def test_pin_mode_keeps_the_last_reply_when_it_fits_beside_the_block() -> None:
    fn = PinAware([DROPPED, ABSTRACTED, ABSTRACTED])
    result = FloorGate([rule_fact()], max_retries=2, on_exhausted="pin").compact(
        level="L2", text=L1_TEXT, budget_tokens=64, summarize=fn
    )
    assert len(fn.calls) == 3
    assert result.text == RULE + "\n" + ABSTRACTED
    assert result.inlined == ("f1",) and result.exhausted
    assert all(v.recovered for v in result.violations)


def test_plain_callable_gets_the_budget_left_after_the_pin_block() -> None:
    fn = Plain([DROPPED])
    result = FloorGate([rule_fact()]).compact(
        level="L1", text=L1_TEXT, budget_tokens=64, summarize=fn
    )
    cost = counter().count(RULE + "\n")
    assert fn.budgets == [64, 64 - cost]
    assert result.text == RULE + "\n" + DROPPED
    assert (result.pin_tokens, result.inlined, result.exhausted) == (cost, ("f1",), False)
    assert [a.budget_tokens for a in result.attempts] == [64, 64 - cost]


def test_a_reply_that_inverts_a_pinned_fact_is_a_violation_not_a_pass() -> None:
    fn = Plain([DROPPED, INVERTED])
    with pytest.raises(RecallFloorViolation) as info:
        FloorGate([rule_fact()], max_retries=1).compact(
            level="L1", text=L1_TEXT, budget_tokens=64, summarize=fn
        )
    assert info.value.violations[-1].reason == CONTRADICTS_PIN
    assert info.value.text_after.startswith(RULE)  # the pin was there; the reply contradicts it


def test_over_budget_output_is_re_asked_tighter_never_cut() -> None:
    long = lines(*(f"Line {i} of a summary that ignores its budget." for i in range(30)))
    fn = Plain([long, L1_TEXT])
    result = FloorGate([rule_fact()]).compact(
        level="L1", text=L1_TEXT, budget_tokens=40, summarize=fn
    )
    assert result.text == L1_TEXT and result.budget_retries == 1 and result.calls == 2
    assert fn.budgets[1] < fn.budgets[0] == 40
    with pytest.raises(CompactionFailure, match="refusing to truncate"):
        FloorGate([rule_fact()]).compact(
            level="L1", text=L1_TEXT, budget_tokens=40, summarize=Plain([long])
        )


def test_budget_closure_is_checked_when_the_callable_reports_consumption() -> None:
    declared = counter().count(L1_TEXT)
    ok = FloorGate([rule_fact()]).compact(
        level="L1", text=L1_TEXT, budget_tokens=64, summarize=Plain([(L1_TEXT, declared)])
    )
    assert ok.consumed_input_tokens == declared and ok.closure_verified
    plain = FloorGate([rule_fact()]).compact(
        level="L1", text=L1_TEXT, budget_tokens=64, summarize=Plain([L1_TEXT])
    )
    assert plain.consumed_input_tokens is None and not plain.closure_verified
    with pytest.raises(BudgetClosureViolation) as info:
        FloorGate([rule_fact()]).compact(
            level="L1",
            text=L1_TEXT,
            budget_tokens=64,
            summarize=Plain([SummaryResult(L1_TEXT, declared - 5)]),
        )
    assert (info.value.consumed, info.value.declared) == (declared - 5, declared)


def test_a_reply_cut_at_the_output_cap_is_re_asked() -> None:
    declared = counter().count(L1_TEXT)
    fn = Plain([SummaryResult(L1_TEXT, declared, cut=True), SummaryResult(L1_TEXT, declared)])
    result = FloorGate([rule_fact()]).compact(
        level="L1", text=L1_TEXT, budget_tokens=64, summarize=fn
    )
    assert result.budget_retries == 1 and len(fn.budgets) == 2


def test_facts_below_floor_in_the_input_are_not_this_levels_to_keep() -> None:
    other = declare_fact(
        "Never force-push to the main branch.",
        {"action": ["force-push"], "object": ["main branch"]},
        fact_id="f2",
    )
    fn = Plain([DROPPED])
    result = FloorGate([other]).compact(level="L1", text=L1_TEXT, budget_tokens=64, summarize=fn)
    assert result.unguarded == ("f2",) and result.calls == 1 and not result.violations


def test_pins_that_leave_no_room_fail_loudly() -> None:
    with pytest.raises(BudgetInfeasible, match="refusing to truncate"):
        FloorGate([rule_fact()]).compact(
            level="L3", text=L1_TEXT, budget_tokens=8, summarize=Plain(["Done.\n"])
        )


def test_a_reply_of_the_wrong_shape_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected str"):
        FloorGate([rule_fact()]).compact(
            level="L1", text=L1_TEXT, budget_tokens=64, summarize=Plain([42])
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_retries": -1}, "max_retries=-1"),
        ({"on_exhausted": "flag"}, "on_exhausted='flag'"),
    ],
)
def test_bad_gate_arguments_name_the_argument(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError, match=message):
        FloorGate([rule_fact()], **kwargs)


def test_duplicate_fact_ids_are_rejected() -> None:
    with pytest.raises(UserError, match="declared twice"):
        FloorGate([rule_fact(), rule_fact()])


def _harness_and_runtime(seed: int, budget: int) -> tuple[Any, Any]:
    """The floor_gated strategy and the runtime gate on one text, each with a simulated
    summarizer seeded alike: outcome (result or raised violation) of each."""
    from sim.prompts.instructions import resolve
    from sim.seeds import rng_for
    from sim.summarizers.base import SummaryRequest
    from sim.summarizers.simulated import SimulatedSummarizer
    from strategies import create_strategy
    from tests.helpers import context, small_history

    history = small_history(seed)
    text = history.text

    def outcome(run: Any) -> Any:
        try:
            return run()
        except RecallFloorViolation as exc:
            return exc

    harness_sim = SimulatedSummarizer(history, rng_for(seed, 0, "parity"), counter())
    ctx = context(harness_sim, history.declared_facts, level="L2")
    harness = outcome(lambda: create_strategy("floor_gated").compact(text, budget, ctx))

    runtime_sim = SimulatedSummarizer(history, rng_for(seed, 0, "parity"), counter())
    instruction = resolve("continuity")

    def summarize(text: str, budget_tokens: int, pinned: tuple[Fact, ...]) -> SummaryResult:
        return runtime_sim.summarize(SummaryRequest(text, budget_tokens, instruction, pinned, "L2"))

    gate = FloorGate(history.declared_facts, max_retries=2)
    runtime = outcome(
        lambda: gate.compact(level="L2", text=text, budget_tokens=budget, summarize=summarize)
    )
    return harness, runtime


def test_runtime_gate_decides_like_the_floor_gated_strategy() -> None:
    retried = 0
    for seed in range(8):
        harness, runtime = _harness_and_runtime(seed, budget=150)
        if isinstance(harness, RecallFloorViolation):
            assert isinstance(runtime, RecallFloorViolation)
            assert (runtime.fact_id, runtime.violations) == (harness.fact_id, harness.violations)
            retried += 1
            continue
        assert not isinstance(runtime, RecallFloorViolation), runtime
        assert runtime.text == harness.text
        assert runtime.violations == harness.violations
        assert runtime.floor_retries == harness.floor_retries
        retried += runtime.floor_retries > 0
    assert retried  # the comparison covered the retry path, not only first-call passes
