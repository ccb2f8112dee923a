"""TrialRecord -> plain JSON rows: the one serialized shape shared by the run store, the
aggregates, the report and the gate. Rows hold no wall-clock values, so two runs of one seed
are byte-identical."""

from __future__ import annotations

from typing import Any

from sim.types import FactGrade, LevelRecord, TrialRecord

ROW_VERSION = 1

RATES = ("collapsed", "silent", "loud")
"""The trial outcomes every rate is taken of (row fields, one boolean each): collapsed is
silent + loud, never both (sim.types.trial_outcome)."""
PLAIN_RATES = ("over_budget", "stopped")
"""Row booleans shown as plain shares beside the rates (absent in older rows: False)."""
TOKEN_COLUMNS = ("tokens_read", "tokens_emitted", "tokens_unread", "pin_tokens", "calls")
"""The per-trial token and call totals every summary averages (row fields)."""


def retry_tokens(row: dict[str, Any]) -> float:
    """Tokens spent on retries, estimated: rows count retried calls, not their tokens, so each
    retry is charged one average fresh call of its level (its share of input plus output)."""
    total = 0.0
    for lv in row.get("levels", ()):
        retries = int(lv.get("floor_retries", 0)) + int(lv.get("budget_retries", 0))
        if retries:
            fresh = max(int(lv.get("calls", 0)) - retries, 1)
            total += retries * (int(lv["tokens_in"]) + int(lv["tokens_out"])) / fresh
    return total


def _level(lv: LevelRecord) -> dict[str, Any]:
    return {
        "name": lv.name,
        "budget_tokens": lv.budget_tokens,
        "tokens_in": lv.tokens_in,
        "tokens_read": lv.tokens_read,
        "tokens_unread": lv.tokens_unread,
        "tokens_out": lv.tokens_out,
        "calls": lv.calls,
        "floor_retries": lv.floor_retries,
        "budget_retries": lv.budget_retries,
        "pin_tokens": lv.pin_tokens,
        "closure_ok": lv.closure_ok,
        "budget_ok": lv.budget_ok,
        "floored_present": lv.floored_present,
        "floored_retained": lv.floored_retained,
        "passed": lv.passed,
        "monotonicity_breaks": list(lv.monotonicity_breaks),
        "never_read": list(lv.never_read),
        "flagged": list(lv.flagged),
    }


def trial_row(rec: TrialRecord, trial: int, cell: str = "") -> dict[str, Any]:
    """One line of trials.jsonl."""
    facts = []
    for i, (fact, out) in enumerate(zip(rec.facts, rec.outcomes, strict=True)):
        facts.append(
            {
                "fact_id": fact.fact_id,
                "cls": fact.cls,
                "declared": fact.declared,
                "superseded": fact.superseded,
                "turn": fact.turn,
                "depth": fact.depth,
                "l0_grade": rec.l0_grades[i].grade.label if rec.l0_grades else None,
                "grades": [lv.grades[i].grade.label for lv in rec.levels],
                "missing": [list(lv.grades[i].missing) for lv in rec.levels],
                "span_tokens": [lv.grades[i].span_tokens for lv in rec.levels],
                "leaf": out.leaf_grade.label,
                "lost": out.lost,
                "loud": out.loud,
                "blame_level": out.blame_level,
                "exposure": out.exposure,
            }
        )
    return {
        "v": ROW_VERSION,
        "trial_id": rec.trial_id,
        "trial": trial,
        "cell": cell,
        "strategy": rec.strategy,
        "seed": rec.seed,
        "collapsed": rec.collapsed,
        "silent": rec.silent,
        "loud": rec.loud,
        "stopped": rec.stopped,
        # a level emitted more than its budget (keep_all, an overflowing budget-open call): the
        # first counter failed, whatever the facts did
        "over_budget": any(not lv.budget_ok for lv in rec.levels),
        "blame_level": rec.blame_level,
        "aborted_at": rec.aborted_at,
        "failure": rec.failure,
        "error": rec.error,
        "l0_tokens": rec.l0_tokens,
        "tokens_read": sum(lv.tokens_read for lv in rec.levels),
        "tokens_emitted": sum(lv.tokens_out for lv in rec.levels),
        "tokens_unread": sum(lv.tokens_unread for lv in rec.levels),
        "pin_tokens": sum(lv.pin_tokens for lv in rec.levels),
        "calls": sum(lv.calls for lv in rec.levels),
        "floor_retries": sum(lv.floor_retries for lv in rec.levels),
        "budget_retries": sum(lv.budget_retries for lv in rec.levels),
        "transient_retries": rec.transient_retries,
        "levels": [_level(lv) for lv in rec.levels],
        "facts": facts,
        "violations": [
            {
                "level": v.level,
                "fact_id": v.fact_id,
                "reason": v.reason,
                "grade": v.grade.label,
                "attempt": v.attempt,
                "recovered": v.recovered,
            }
            for v in rec.violations
        ],
        **_probes(rec),
        **({"faults": dict(rec.faults)} if rec.faults else {}),
    }


def _probes(rec: TrialRecord) -> dict[str, Any]:
    """Only when the scenario asked for the behavioural probe, so other rows are unchanged."""
    if not rec.probes:
        return {}
    return {
        "probes": [
            {"fact_id": p.fact_id, "answer": p.answer, "violates": p.violates} for p in rec.probes
        ]
    }


def _grades(grades: tuple[FactGrade, ...]) -> dict[str, dict[str, Any]]:
    return {
        g.fact_id: {
            "grade": g.grade.label,
            "sentence": g.sentence,
            "span_tokens": g.span_tokens,
            "missing": list(g.missing),
        }
        for g in grades
    }


def trace_row(rec: TrialRecord, trial: int) -> dict[str, Any]:
    """The texts behind a trial, for the trace viewer (kept for a sample of trials only): each
    level's text with every fact's grade and the sentence that carries it, so the viewer shows
    the grader's evidence rather than re-deriving it."""
    return {
        "trial_id": rec.trial_id,
        "trial": trial,
        "strategy": rec.strategy,
        "aborted_at": rec.aborted_at,
        "failure": rec.failure,
        "levels": [
            {
                "name": "L0",
                "text": rec.l0_text,
                "budget_tokens": None,
                "tokens_in": None,
                "tokens_out": rec.l0_tokens,
                "grades": _grades(rec.l0_grades),
            }
        ]
        + [
            {
                "name": lv.name,
                "text": lv.text,
                "budget_tokens": lv.budget_tokens,
                "tokens_in": lv.tokens_in,
                "tokens_out": lv.tokens_out,
                "grades": _grades(lv.grades),
                "flagged": list(lv.flagged),
                "never_read": list(lv.never_read),
            }
            for lv in rec.levels
        ],
        "facts": [
            {"fact_id": f.fact_id, "text": f.text, "cls": f.cls, "superseded": f.superseded}
            for f in rec.facts
        ],
    }
