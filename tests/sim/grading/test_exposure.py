"""Exposure accounting: for every lost fact, whether the blamed level never read it (a
budget-open tail), was the first to read it and dropped it, or lost it after earlier levels
had kept it at its floor."""

from __future__ import annotations

from sim.grading.invariants import outcomes
from sim.history.generate import Placement
from sim.types import FactOutcome, Grade, TrialRecord, Violation
from tests.helpers import Scripted, history_with, lines, note_fact, run_scripted

HISTORY = history_with(Placement(note_fact("f1"), turn=2))
(F1,) = HISTORY.facts
OTHER = "Open: orders CSV export."


def _f1(rec: TrialRecord) -> FactOutcome:
    (out,) = rec.outcomes
    return out


def test_dropped_by_the_first_level_that_read_it() -> None:
    rec = run_scripted(HISTORY, Scripted({"L1": lines(OTHER), "L2": lines(OTHER), "L3": ""}))
    out = _f1(rec)
    assert (out.lost, out.blame_level, out.exposure) == (True, "L1", "dropped_when_read")


def test_kept_at_a_level_then_lost_later() -> None:
    texts = {"L1": lines(F1.text, OTHER), "L2": lines(F1.text), "L3": lines(OTHER)}
    out = _f1(run_scripted(HISTORY, Scripted(texts)))
    assert (out.lost, out.blame_level, out.exposure) == (True, "L3", "kept_then_lost")


def test_never_read_names_the_mechanism_even_after_earlier_levels_kept_it() -> None:
    texts = {"L1": lines(F1.text, OTHER), "L2": lines(OTHER), "L3": lines(OTHER)}
    rec = run_scripted(HISTORY, Scripted(texts, unread={"L2": lines(F1.text)}))
    out = _f1(rec)
    assert (out.lost, out.blame_level, out.exposure) == (True, "L2", "never_read")


def test_a_loud_failure_after_kept_levels_is_kept_then_lost() -> None:
    rec = run_scripted(HISTORY, Scripted({"L1": lines(F1.text), "L2": "", "L3": ""}))
    l0 = rec.l0_grades
    failed = (Violation("L2", "f1", "dropped", Grade.DROPPED, 2, False),)
    (late,) = outcomes(HISTORY.facts, l0, rec.levels[:1], failed, "L2")
    assert (late.loud, late.blame_level, late.exposure) == (True, "L2", "kept_then_lost")
    first = (Violation("L1", "f1", "dropped", Grade.DROPPED, 2, False),)
    (early,) = outcomes(HISTORY.facts, l0, (), first, "L1")
    assert (early.loud, early.blame_level, early.exposure) == (True, "L1", "dropped_when_read")


def test_a_kept_fact_has_no_loss_exposure() -> None:
    texts = {"L1": lines(F1.text), "L2": lines(F1.text), "L3": lines(F1.text)}
    out = _f1(run_scripted(HISTORY, Scripted(texts)))
    assert (out.lost, out.blame_level, out.exposure) == (False, None, "kept")
