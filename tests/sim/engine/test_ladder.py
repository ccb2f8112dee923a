"""The engine (sim/engine/ladder.py) drives a history through a ladder; here with hand-written level
texts (a scripted strategy), so every expectation follows from the texts alone: the two
counters, monotonicity breaks, the blame level, superseded facts, never-read tails, loud
aborts, and facts the floor registry does not know about."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.engine.ladder import run_trial
from sim.history.generate import Placement
from sim.seeds import rng_for
from sim.types import Grade, History, Ladder, LevelSpec, PieceResult, TrialRecord
from strategies import create_strategy
from strategies.base import CallContext
from tests.helpers import (
    EchoSummarizer,
    Scripted,
    counter,
    history_with,
    lines,
    note_fact,
    planted,
    raw_count,
    run_scripted,
    small_history,
)

NOTE = note_fact("f1")
ORDER = planted("ordering", 0, "f2")
HISTORY = history_with(Placement(NOTE, turn=2), Placement(ORDER, turn=3))
F1, F2 = HISTORY.facts
SUBGOAL = "Open: orders CSV export."


def _grade(rec: TrialRecord, level: str, fact_id: str) -> Grade:
    lv = next(lv for lv in rec.levels if lv.name == level)
    return next(g.grade for g in lv.grades if g.fact_id == fact_id)


def _outcome(rec: TrialRecord, fact_id: str):  # type: ignore[no-untyped-def]
    return next(o for o in rec.outcomes if o.fact_id == fact_id)


def the_notes_trace(flags: dict[str, tuple[str, ...]] | None = None) -> TrialRecord:
    """L1 verbatim, L2 "Credential rotation deferred.", L3 gone; the other fact kept."""
    return run_scripted(
        HISTORY,
        Scripted(
            {
                "L1": lines(F1.text, F2.text, SUBGOAL),
                "L2": lines("Credential rotation deferred.", F2.text),
                "L3": lines(F2.text),
            },
            flags=flags or {},
        ),
    )


def test_history_fixture() -> None:
    assert (F1.fact_id, F1.turn, F2.fact_id, F2.turn) == ("f1", 2, "f2", 3)
    assert F1.declared and F2.declared


def test_silent_collapse_is_blamed_on_the_first_level_below_the_floor() -> None:
    rec = the_notes_trace()
    assert [_grade(rec, lv, "f1") for lv in ("L1", "L2", "L3")] == [
        Grade.VERBATIM,
        Grade.DEGRADED,
        Grade.DROPPED,
    ]
    f1 = _outcome(rec, "f1")
    assert f1.lost and not f1.loud
    assert f1.blame_level == "L2"
    assert f1.leaf_grade is Grade.DROPPED
    assert f1.exposure not in ("kept", "never_read", "superseded")  # it was read, then lost
    assert not _outcome(rec, "f2").lost
    assert rec.collapsed and rec.silent and not rec.loud
    assert rec.blame_level == "L2"
    assert rec.violations == () and rec.aborted_at is None


def test_every_level_fits_its_budget_and_still_the_chain_collapsed() -> None:
    """The note: no level exceeded its budget, no level reported a drop."""
    rec = the_notes_trace()
    assert all(lv.budget_ok for lv in rec.levels)
    assert all(lv.closure_ok for lv in rec.levels)
    assert all(lv.flagged == () for lv in rec.levels)


def test_the_two_counters() -> None:
    rec = the_notes_trace()
    l1, l2, l3 = rec.levels
    assert (l1.floored_present, l1.floored_retained, l1.passed) == (2, 2, True)
    # tokens emitted pass, floored facts retained do not: the level fails
    assert l2.budget_ok and not l2.floor_ok and not l2.passed
    assert (l2.floored_present, l2.floored_retained) == (2, 1)
    # a fact already below its floor in the input is not counted again
    assert (l3.floored_present, l3.floored_retained) == (1, 1)
    for lv in rec.levels:
        assert lv.tokens_out == raw_count(lv.text)
        assert lv.budget_ok == (lv.tokens_out <= lv.budget_tokens)


def test_over_budget_with_every_fact_kept_fails_the_first_counter() -> None:
    ladder = Ladder((LevelSpec("L1", 20, 0),))
    rec = run_scripted(HISTORY, Scripted({"L1": lines(F1.text, F2.text, SUBGOAL)}), ladder)
    (l1,) = rec.levels
    assert not l1.budget_ok and l1.floor_ok and not l1.passed
    assert l1.tokens_out > 20
    assert not rec.collapsed


def test_monotonicity_breaks_are_recorded_unless_flagged() -> None:
    rec = the_notes_trace()
    assert [lv.monotonicity_breaks for lv in rec.levels] == [(), ("f1",), ("f1",)]
    flagged = the_notes_trace({"L2": ("f1",), "L3": ("f1",)})
    assert [lv.monotonicity_breaks for lv in flagged.levels] == [(), (), ()]
    f1 = _outcome(flagged, "f1")
    assert f1.lost and f1.loud and f1.blame_level == "L2"
    assert flagged.loud and not flagged.silent


def test_verbatim_to_paraphrase_is_not_a_break() -> None:
    rec = run_scripted(
        HISTORY,
        Scripted(
            {
                "L1": lines(F1.text, F2.text),
                "L2": lines("No credential rotation after step 4.", F2.text),
                "L3": lines("No credential rotation past step four.", F2.text),
            }
        ),
    )
    assert [_grade(rec, lv, "f1") for lv in ("L1", "L2", "L3")] == [
        Grade.VERBATIM,
        Grade.ACTIONABLE,
        Grade.ACTIONABLE,
    ]
    assert all(lv.monotonicity_breaks == () for lv in rec.levels)
    assert not rec.collapsed and rec.blame_level is None


def test_an_inverted_rule_is_lost() -> None:
    rec = run_scripted(
        HISTORY,
        Scripted({"L1": lines(F1.text, F2.text), "L2": lines(F2.text), "L3": lines(NOTE.inverted)}),
    )
    f1 = _outcome(rec, "f1")
    assert f1.lost and f1.leaf_grade is Grade.INVERTED and f1.blame_level == "L2"


def test_a_fact_in_the_unread_tail_is_never_read() -> None:
    head = "".join(HISTORY.pieces[:1])
    tail = "".join(HISTORY.pieces[1:])
    assert F1.text in tail
    rec = run_scripted(
        HISTORY,
        Scripted(
            {"L1": lines(SUBGOAL), "L2": lines(SUBGOAL), "L3": lines(SUBGOAL)},
            unread={"L1": tail},
        ),
    )
    l1 = rec.levels[0]
    assert l1.never_read == ("f1", "f2")
    assert not l1.closure_ok
    assert l1.tokens_unread == raw_count(tail)
    assert l1.tokens_read == raw_count(head)
    assert l1.tokens_in == raw_count(HISTORY.text)
    assert _outcome(rec, "f1").exposure == "never_read"
    assert _outcome(rec, "f1").blame_level == "L1"
    assert all(lv.closure_ok for lv in rec.levels[1:])


def test_a_superseded_constraint_that_is_absent_is_not_a_loss() -> None:
    history = small_history(seed=2, constraints=2, superseded=1, near_misses=0)
    gone, live = sorted(history.facts, key=lambda f: not f.superseded)
    assert gone.superseded and not live.superseded
    keep_live = {"L1": lines(live.text), "L2": lines(live.text), "L3": lines(live.text)}
    rec = run_scripted(history, Scripted(keep_live))
    out = _outcome(rec, gone.fact_id)
    assert not out.lost and out.exposure == "superseded"
    assert out.leaf_grade is Grade.DROPPED
    assert not rec.collapsed
    # the same absence of a live fact is a loss
    keep_gone = {"L1": lines(gone.text), "L2": lines(gone.text), "L3": lines(gone.text)}
    assert _outcome(run_scripted(history, Scripted(keep_gone)), live.fact_id).lost


def _undeclared(history: History, fact_id: str) -> History:
    facts = tuple(replace(f, declared=False) if f.fact_id == fact_id else f for f in history.facts)
    return replace(history, facts=facts)


def test_floor_gate_recovers_a_declared_fact_and_misses_an_undeclared_one() -> None:
    """Facts not declared to the gate are still graded: losing one under floor_gated is a
    silent collapse, which is how a user sees what an incomplete floor registry misses."""
    history = _undeclared(HISTORY, "f2")
    ladder = Ladder((LevelSpec("L1", 600, 0), LevelSpec("L2", 150, 0)))
    summarizer = EchoSummarizer(counter(), drop=("credential", "database migration"))
    rec = run_trial(
        history,
        ladder,
        create_strategy("floor_gated"),
        summarizer,
        counter(),
        trial_id="t",
        seed=0,
    )
    f1, f2 = _outcome(rec, "f1"), _outcome(rec, "f2")
    assert not f1.lost
    assert [(v.level, v.fact_id, v.recovered) for v in rec.violations] == [("L1", "f1", True)]
    assert f2.lost and not f2.loud and not f2.declared
    assert f2.blame_level == "L1"
    assert rec.silent and rec.aborted_at is None
    l1 = rec.levels[0]
    assert (l1.floored_present, l1.floored_retained) == (1, 1)  # the registry's view
    assert _grade(rec, "L1", "f2") is Grade.DROPPED  # the harness's view


def test_an_unrecovered_violation_aborts_loudly_at_its_level() -> None:
    ladder = Ladder((LevelSpec("L1", 600, 0), LevelSpec("L2", 150, 0)))
    summarizer = EchoSummarizer(counter(), ignore_pins=True)

    class DropAtL2(EchoSummarizer):
        def summarize(self, request):  # type: ignore[no-untyped-def]
            self.drop = ("credential",) if request.level == "L2" else ()
            return super().summarize(request)

    summarizer = DropAtL2(counter(), ignore_pins=True)
    rec = run_trial(
        HISTORY,
        ladder,
        create_strategy("floor_gated", max_retries=1),
        summarizer,
        counter(),
        trial_id="t",
        seed=0,
    )
    assert rec.aborted_at == "L2"
    assert [lv.name for lv in rec.levels] == ["L1"]
    assert rec.failure and "f1" in rec.failure
    f1 = _outcome(rec, "f1")
    assert f1.lost and f1.loud and f1.blame_level == "L2"
    assert rec.loud and not rec.silent and rec.blame_level == "L2"
    assert [(v.level, v.attempt, v.recovered) for v in rec.violations] == [
        ("L2", 0, False),
        ("L2", 1, False),
    ]


def test_pins_that_cannot_fit_abort_loudly_without_a_loss() -> None:
    ladder = Ladder((LevelSpec("L1", 600, 0), LevelSpec("L2", 5, 0)))
    rec = run_trial(
        HISTORY,
        ladder,
        create_strategy("pinned"),
        EchoSummarizer(counter()),
        counter(),
        trial_id="t",
        seed=0,
    )
    assert rec.aborted_at == "L2" and rec.stopped  # it said so, and lost nothing: no collapse
    assert not (rec.collapsed or rec.loud or rec.silent)
    assert "pin block" in (rec.failure or "")
    assert not any(o.lost for o in rec.outcomes)  # the runtime keeps its uncompacted context


def test_budget_is_shared_between_calls_in_proportion_to_their_input() -> None:
    seen: list[tuple[int, int]] = []

    class Recording:
        name = "recording"

        def __init__(self) -> None:
            self.args: dict[str, object] = {}

        def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
            seen.append((ctx.counter.count(text), budget))
            n = ctx.counter.count(text)
            return PieceResult(text, n, n)

    history = small_history(seed=1)
    ladder = Ladder((LevelSpec("L1", 600, 3),))
    run_trial(
        history, ladder, Recording(), EchoSummarizer(counter()), counter(), trial_id="t", seed=0
    )
    assert len(seen) == -(-len(history.turns) // 3)
    total_in = sum(n for n, _ in seen)
    assert total_in == raw_count(history.text)
    assert sum(b for _, b in seen) <= 600
    for n, b in seen:
        assert b == max(1, 600 * n // total_in)


def test_rng_streams_are_independent_and_reproducible() -> None:
    a = rng_for(1, 2, "history").integers(1 << 30, size=4).tolist()
    assert a == rng_for(1, 2, "history").integers(1 << 30, size=4).tolist()
    assert a != rng_for(1, 3, "history").integers(1 << 30, size=4).tolist()
    assert a != rng_for(1, 2, "floor_gated").integers(1 << 30, size=4).tolist()
    assert a != rng_for(2, 2, "history").integers(1 << 30, size=4).tolist()


@pytest.mark.parametrize("keep_text", [True, False])
def test_keep_text(keep_text: bool) -> None:
    rec = run_trial(
        HISTORY,
        Ladder((LevelSpec("L1", 600, 0),)),
        create_strategy("keep_all"),
        EchoSummarizer(counter()),
        counter(),
        trial_id="t",
        seed=0,
        keep_text=keep_text,
    )
    assert (rec.levels[0].text == HISTORY.text) is keep_text
    assert (rec.l0_text == HISTORY.text) is keep_text
    assert rec.l0_tokens == raw_count(HISTORY.text)
    assert rec.strategy == "keep_all"
