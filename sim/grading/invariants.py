"""The note's three conditions as checks, and the fate of every fact.

1. Budget closure, per call: consumed input tokens == declared input tokens.
2. Declared recall floor, at every level (not only at the leaf): the second counter,
   floored facts retained, next to the first, tokens emitted vs budget.
3. Monotonicity: a fact may not become less actionable from one level to the next unless the
   level flagged it degraded. Every level is graded against L0's facts, so a chain that loses a
   fact a little at each level is still seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from sim.grading.grade import grade_text
from sim.tokens import MemoCounter
from sim.types import (
    Fact,
    FactGrade,
    FactOutcome,
    Grade,
    Grader,
    LevelRecord,
    LevelSpec,
    PieceResult,
    Violation,
)


def _actionability(grade: Grade) -> int:
    """Verbatim -> actionable is compression, not a loss of actionability."""
    return min(int(grade), int(Grade.ACTIONABLE))


def level_record(
    spec: LevelSpec,
    results: Sequence[PieceResult],
    prev: Sequence[FactGrade],
    facts: Sequence[Fact],
    counter: MemoCounter,
    keep_text: bool,
    grade: Grader | None = None,
) -> LevelRecord:
    """The level's figures and checks; `grade` is the trial's memoized grader when given."""
    if grade is None:
        grade = partial(grade_text, counter=counter)
    text = "".join(r.text for r in results)
    grades = grade(text, facts)
    unread = "".join(r.unread_text for r in results)
    flagged = tuple(sorted({f for r in results for f in r.flagged}))
    never_read: tuple[str, ...] = ()
    lost = [
        f
        for f, p, g in zip(facts, prev, grades, strict=True)
        if p.grade.at_floor and not g.grade.at_floor
    ]
    if unread and lost:  # only a fact lost here can have been lost unread
        tail = grade(unread, lost)
        never_read = tuple(f.fact_id for f, t in zip(lost, tail, strict=True) if t.grade.at_floor)
    breaks = tuple(
        f.fact_id
        for f, p, g in zip(facts, prev, grades, strict=True)
        if _actionability(g.grade) < _actionability(p.grade) and f.fact_id not in flagged
    )
    declared = [i for i, f in enumerate(facts) if f.declared and f.floored]
    present = [i for i in declared if prev[i].grade.at_floor]
    return LevelRecord(
        name=spec.name,
        budget_tokens=spec.budget_tokens,
        tokens_in=sum(r.declared_input_tokens for r in results),
        tokens_read=sum(r.consumed_input_tokens for r in results),
        tokens_unread=sum(r.declared_input_tokens - r.consumed_input_tokens for r in results),
        tokens_out=counter.count(text),
        calls=sum(r.calls for r in results),
        floor_retries=sum(r.floor_retries for r in results),
        budget_retries=sum(r.budget_retries for r in results),
        pin_tokens=sum(r.pin_tokens for r in results),
        closure_ok=all(r.consumed_input_tokens == r.declared_input_tokens for r in results),
        budget_ok=counter.count(text) <= spec.budget_tokens,
        floored_present=len(present),
        floored_retained=sum(1 for i in present if grades[i].grade.at_floor),
        monotonicity_breaks=breaks,
        grades=grades,
        never_read=never_read,
        flagged=flagged,
        text=text if keep_text else "",
    )


def outcomes(
    facts: Sequence[Fact],
    l0: Sequence[FactGrade],
    levels: Sequence[LevelRecord],
    failed: Sequence[Violation],
    aborted: str | None,
) -> tuple[FactOutcome, ...]:
    """Each fact's leaf grade, whether it was lost, whether anything said so, and the level
    to blame: the first whose output held it below its floor while its input did not.

    A lost fact's exposure says how the blamed level lost it: `never_read` (a budget-open tail),
    `dropped_when_read` (the first compaction level read it and dropped it) or `kept_then_lost`
    (earlier levels kept it at its floor; the blamed, later level read it and lost it)."""
    failed_at = {v.fact_id: v for v in failed if not v.recovered}
    trail = [tuple(l0), *(lv.grades for lv in levels)]
    names = ["L0", *(lv.name for lv in levels)]
    result = []
    for i, fact in enumerate(facts):
        leaf = trail[-1][i].grade
        blame: str | None = None
        exposure = "kept"
        if fact.fact_id in failed_at:
            leaf, lost, loud, blame = failed_at[fact.fact_id].grade, True, True, aborted
            exposure = "kept_then_lost" if levels else "dropped_when_read"
        else:
            lost = fact.floored and not leaf.at_floor
            loud = lost and any(fact.fact_id in lv.flagged for lv in levels)
            if lost:
                for k in range(len(trail)):
                    if not trail[k][i].grade.at_floor:
                        blame = names[k]
                        level = levels[k - 1] if k else None
                        read = level is None or fact.fact_id not in level.never_read
                        exposure = "dropped_when_read" if read else "never_read"
                        if read and k >= 2:
                            exposure = "kept_then_lost"
                        break
        if fact.superseded:
            exposure = "superseded"
        result.append(
            FactOutcome(
                fact.fact_id,
                fact.cls,
                fact.declared,
                fact.superseded,
                fact.depth,
                leaf,
                lost,
                loud,
                blame,
                exposure,
            )
        )
    return tuple(result)
