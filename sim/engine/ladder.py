"""Runs one trial: one history through every level of a ladder with one strategy.

Per level it shares the budget between call groups in proportion to their input, collects the
strategy's results, grades every planted fact against L0's declared facts from the level's text
alone, and runs the checks (sim.grading.invariants). A loud failure (RecallFloorViolation, an
infeasible budget) ends the trial at that level, as a runtime would stop compacting and keep its
context.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.call_groups import calls
from sim.engine.memo import trial_memo
from sim.errors import CompactionFailure, RecallFloorViolation
from sim.grading.invariants import level_record, outcomes
from sim.summarizers.base import Summarizer
from sim.tokens import MemoCounter
from sim.types import (
    FactGrade,
    History,
    Ladder,
    LevelRecord,
    PieceResult,
    TrialRecord,
    Violation,
)
from strategies.base import CallContext, Strategy


def run_trial(
    history: History,
    ladder: Ladder,
    strategy: Strategy,
    summarizer: Summarizer,
    counter: MemoCounter,
    *,
    trial_id: str,
    seed: int,
    keep_text: bool = True,
    label: str | None = None,
) -> TrialRecord:
    facts = history.facts
    memo = trial_memo(history, counter)
    grade = memo.grade
    pieces: Sequence[str] = memo.pieces
    l0_text = memo.l0_text
    prev = grade(l0_text, facts)
    trail: list[tuple[FactGrade, ...]] = [prev]
    levels: list[LevelRecord] = []
    violations: list[Violation] = []
    aborted: str | None = None
    failure: str | None = None
    failed: tuple[Violation, ...] = ()
    for spec in ladder.levels:
        ctx = CallContext(spec.name, spec.instruction, summarizer, counter, grade, memo.declared)
        if pieces is memo.pieces:  # the first level: every strategy splits L0 the same way
            groups, shares = memo.first_calls(spec.group_size, spec.budget_tokens)
        else:
            groups, shares = calls(pieces, spec.group_size, spec.budget_tokens, counter)
        results: list[PieceResult] = []
        try:
            for text, share in zip(groups, shares, strict=True):
                results.append(strategy.compact(text, share, ctx))
        except RecallFloorViolation as exc:
            violations.extend(v for r in results for v in r.violations)
            failed = exc.violations or (
                Violation(spec.name, exc.fact_id, exc.reason, trail[-1][0].grade),
            )
            violations.extend(failed)
            failure = str(exc)
            aborted = spec.name
            break
        except CompactionFailure as exc:  # e.g. pins that cannot fit: loud, nothing lost yet
            violations.extend(v for r in results for v in r.violations)
            failure = exc.reason
            aborted = spec.name
            break
        record = level_record(spec, results, prev, facts, counter, keep_text, grade)
        violations.extend(v for r in results for v in r.violations)
        levels.append(record)
        prev = record.grades
        trail.append(prev)
        pieces = [r.text for r in results]
    return TrialRecord(
        trial_id=trial_id,
        strategy=label or str(getattr(strategy, "name", type(strategy).__name__)),
        seed=seed,
        levels=tuple(levels),
        outcomes=outcomes(facts, trail[0], levels, failed, aborted),
        violations=tuple(violations),
        aborted_at=aborted,
        failure=failure,
        l0_tokens=memo.l0_tokens,
        l0_text=l0_text if keep_text else "",
        facts=facts,
        l0_grades=trail[0],
    )
