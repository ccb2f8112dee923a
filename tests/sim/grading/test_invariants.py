"""The note's three conditions as checks (sim/grading/invariants.py), on hand-made call results:
budget closure per call, the two counters, monotonicity against the previous level, never-read
tails, and each fact's fate (lost, loud, blame level)."""

from __future__ import annotations

from dataclasses import replace

from sim.grading.grade import grade_text
from sim.grading.invariants import level_record, outcomes
from sim.history.generate import Placement
from sim.types import FactGrade, Grade, LevelSpec, PieceResult, Violation
from tests.helpers import counter, history_with, lines, note_fact, planted, raw_count

HISTORY = history_with(
    Placement(note_fact("f1"), turn=2), Placement(planted("value_pin", 0, "f2"), turn=3)
)
F1, F2 = HISTORY.facts
FACTS = HISTORY.facts
L0 = grade_text(HISTORY.text, FACTS, counter())
SPEC = LevelSpec("L1", 60, 0)


def _piece(text: str, consumed: int | None = None, **kw: object) -> PieceResult:
    declared = raw_count(HISTORY.text)
    return PieceResult(
        text,
        declared,
        declared if consumed is None else consumed,
        **kw,  # type: ignore[arg-type]
    )


def _record(*results: PieceResult, prev: tuple[FactGrade, ...] = L0, spec: LevelSpec = SPEC):
    return level_record(spec, results, prev, FACTS, counter(), True)


def test_l0_holds_both_facts_verbatim() -> None:
    assert [g.grade for g in L0] == [Grade.VERBATIM, Grade.VERBATIM]


def test_closure_is_per_call() -> None:
    full = _record(_piece(lines(F1.text)), _piece(lines(F2.text)))
    assert full.closure_ok
    one_short = _record(_piece(lines(F1.text)), _piece(lines(F2.text), consumed=5))
    assert not one_short.closure_ok
    assert one_short.tokens_unread == raw_count(HISTORY.text) - 5
    assert one_short.tokens_read == raw_count(HISTORY.text) + 5
    assert one_short.tokens_in == 2 * raw_count(HISTORY.text)


def test_budget_is_checked_on_the_whole_level() -> None:
    text = lines(F1.text, F2.text)
    fits = _record(_piece(text), spec=LevelSpec("L1", raw_count(text), 0))
    assert fits.budget_ok and fits.tokens_out == raw_count(text)
    over = _record(_piece(text), spec=LevelSpec("L1", raw_count(text) - 1, 0))
    assert not over.budget_ok and not over.passed and over.floor_ok
    # two calls that each fit their share still have to fit the level together
    split = _record(
        _piece(lines(F1.text)), _piece(lines(F2.text)), spec=LevelSpec("L1", raw_count(text) - 1, 0)
    )
    assert not split.budget_ok


def test_floor_counter_counts_declared_live_facts_present_in_the_input() -> None:
    rec = _record(_piece(lines(F1.text)))
    assert (rec.floored_present, rec.floored_retained) == (2, 1)
    assert not rec.floor_ok and not rec.passed
    undeclared = tuple(replace(f, declared=False) if f is F2 else f for f in FACTS)
    rec2 = level_record(SPEC, [_piece(lines(F1.text))], L0, undeclared, counter(), True)
    assert (rec2.floored_present, rec2.floored_retained) == (1, 1)
    assert rec2.floor_ok
    # the undeclared fact is still graded
    assert rec2.grades[1].grade is Grade.DROPPED
    superseded = tuple(replace(f, superseded=True) if f is F2 else f for f in FACTS)
    rec3 = level_record(SPEC, [_piece(lines(F1.text))], L0, superseded, counter(), True)
    assert (rec3.floored_present, rec3.floored_retained) == (1, 1)


def test_a_fact_below_its_floor_in_the_input_is_not_counted() -> None:
    prev = _record(_piece(lines("Credential rotation deferred.", F2.text))).grades
    rec = _record(_piece(lines(F2.text)), prev=prev)
    assert (rec.floored_present, rec.floored_retained) == (1, 1)


def test_monotonicity() -> None:
    paraphrase = _record(_piece(lines("No credential rotation after step 4.", F2.text)))
    assert paraphrase.grades[0].grade is Grade.ACTIONABLE
    assert paraphrase.monotonicity_breaks == ()  # verbatim -> actionable is compression
    abstracted = _record(_piece(lines("Credential rotation deferred.", F2.text)))
    assert abstracted.monotonicity_breaks == ("f1",)
    flagged = _record(_piece(lines("Credential rotation deferred.", F2.text), flagged=("f1",)))
    assert flagged.monotonicity_breaks == () and flagged.flagged == ("f1",)
    # degraded -> dropped is a further fall
    again = _record(_piece(lines(F2.text)), prev=abstracted.grades)
    assert again.monotonicity_breaks == ("f1",)
    # a rise is not a break
    back = _record(_piece(lines(F1.text, F2.text)), prev=abstracted.grades)
    assert back.monotonicity_breaks == ()


def test_never_read_needs_the_fact_in_the_unread_tail() -> None:
    tail = lines(F1.text)
    rec = _record(_piece(lines(F2.text), consumed=10, unread_text=tail))
    assert rec.never_read == ("f1",)
    not_there = _record(_piece(lines(F2.text), consumed=10, unread_text=lines("Build ok.")))
    assert not_there.never_read == ()
    kept_anyway = _record(_piece(lines(F1.text, F2.text), consumed=10, unread_text=tail))
    assert kept_anyway.never_read == ()


def test_outcomes_blame_the_first_level_below_the_floor() -> None:
    l1 = _record(_piece(lines(F1.text, F2.text)))
    l2 = _record(_piece(lines("Credential rotation deferred.", F2.text)), prev=l1.grades)
    l2 = replace(l2, name="L2")
    l3 = replace(_record(_piece(lines(F2.text)), prev=l2.grades), name="L3")
    f1, f2 = outcomes(FACTS, L0, [l1, l2, l3], (), None)
    assert f1.lost and not f1.loud and f1.blame_level == "L2" and f1.leaf_grade is Grade.DROPPED
    assert not f2.lost and f2.blame_level is None and f2.exposure == "kept"
    flagged_l3 = replace(l3, flagged=("f1",))
    f1_loud, _ = outcomes(FACTS, L0, [l1, l2, flagged_l3], (), None)
    assert f1_loud.lost and f1_loud.loud and f1_loud.blame_level == "L2"


def test_outcomes_of_an_aborted_ladder() -> None:
    l1 = _record(_piece(lines(F1.text, F2.text)))
    failed = (Violation("L2", "f1", "dropped", Grade.DROPPED, 2, False),)
    f1, f2 = outcomes(FACTS, L0, [l1], failed, "L2")
    assert f1.lost and f1.loud and f1.blame_level == "L2" and f1.leaf_grade is Grade.DROPPED
    assert not f2.lost
    recovered = (Violation("L2", "f1", "dropped", Grade.DROPPED, 0, True),)
    f1_ok, _ = outcomes(FACTS, L0, [l1], recovered, None)
    assert not f1_ok.lost


def test_superseded_fact_is_never_lost() -> None:
    facts = tuple(replace(f, superseded=True) if f is F1 else f for f in FACTS)
    l1 = level_record(SPEC, [_piece(lines(F2.text))], L0, facts, counter(), True)
    f1, f2 = outcomes(facts, L0, [l1], (), None)
    assert not f1.lost and f1.exposure == "superseded" and f1.blame_level is None
    assert not f2.lost
