"""Runs one trial: one history through every level of a ladder with one strategy.

Per level it shares the budget between call groups in proportion to their input, collects the
strategy's results, grades every planted fact against L0's declared facts from the level's text
alone, and runs the checks (sim.invariants). A loud failure (RecallFloorViolation, an infeasible
budget) ends the trial at that level, as a runtime would stop compacting and keep its context.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from sim.errors import CompactionFailure, RecallFloorViolation
from sim.grade import grade_text
from sim.invariants import level_record, outcomes
from sim.summarizers.base import Summarizer
from sim.tokens import MemoCounter
from sim.types import (
    Fact,
    FactGrade,
    History,
    Ladder,
    LevelRecord,
    PieceResult,
    TrialRecord,
    Violation,
)
from strategies.base import CallContext, Strategy


def rng_for(seed: int, trial: int, stream: str) -> np.random.Generator:
    """Every random draw comes from (run seed, trial index, named stream): never global state,
    so results do not depend on worker count or on the order trials finish in."""
    return np.random.default_rng(np.random.SeedSequence([seed, trial, zlib.crc32(stream.encode())]))


def _groups(pieces: Sequence[str], size: int) -> list[str]:
    if size <= 0:
        return ["".join(pieces)]
    return ["".join(pieces[i : i + size]) for i in range(0, len(pieces), size)]


def _shares(budget: int, sizes: Sequence[int]) -> list[int]:
    """Each call's share of the level budget, in proportion to its input; never above it."""
    total = max(sum(sizes), 1)
    return [max(1, budget * s // total) for s in sizes]


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

    def grade(text: str, subset: Sequence[Fact]) -> tuple[FactGrade, ...]:
        return grade_text(text, subset, counter)

    pieces = history.pieces
    l0_text = "".join(pieces)
    prev = grade(l0_text, facts)
    trail: list[tuple[FactGrade, ...]] = [prev]
    levels: list[LevelRecord] = []
    violations: list[Violation] = []
    aborted: str | None = None
    failure: str | None = None
    failed: tuple[Violation, ...] = ()
    for spec in ladder.levels:
        ctx = CallContext(
            spec.name, spec.instruction, summarizer, counter, grade, history.declared_facts
        )
        groups = _groups(pieces, spec.group_size)
        shares = _shares(spec.budget_tokens, [counter.count(g) for g in groups])
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
        record = level_record(spec, results, prev, facts, counter, keep_text)
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
        l0_tokens=counter.count(l0_text),
        l0_text=l0_text if keep_text else "",
        facts=facts,
        l0_grades=trail[0],
    )
