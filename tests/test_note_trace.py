"""The note's trace, reproduced and pinned.

The source note (shared/reference) describes one observed failure: a ladder L0 raw turns ->
L1 turn summaries -> L2 session summaries -> L3 task summary with budgets 8k / 2k / 512 / 128.
"Do not rotate the credential after step 4" appeared in L0 turn 7. L1 kept it verbatim; L2
kept only "credential rotation deferred" (the step-4 anchor gone: abstracted past
actionability); L3 dropped it, because the L3 prompt said "summarize for task continuity" and
the summarizer ranked the deferral below the open subgoal. No level exceeded its budget and no
level reported anything: a *silent truncation collapse*. The note's remedy is a declared
recall floor checked at every level, which turns the loss into a loud, recoverable
`RecallFloorViolation` at the level where it happened (L2), and its other danger is the
budget-open call that reads only a prefix and silently never reads the tail.

`scenarios/credential_rotation.toml` is that case. This test runs one pinned trial of it and
checks, under `re_ranking`, exactly the note's trace; under `floor_gated`, the violation at L2,
its recovery by a pinned retry and the fact kept at L3; under `budget_open`, a fact in the
unread tail reported never read and the closure check failing there. The per-level texts and
the credential fact's grades are compared with tests/golden/note_trace.json;
`UPDATE_GOLDEN=1 pytest tests/test_note_trace.py` rewrites it (review the diff: the trace
assertions above still have to hold).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from sim.runs.scenario import load_scenario
from sim.runs.trial import run_scenario_trial
from sim.types import Grade, TrialRecord

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "scenarios" / "credential_rotation.toml"
GOLDEN = REPO / "tests" / "golden" / "note_trace.json"
TRIAL = 8
"""The first trial index of the scenario whose re_ranking run is the note's trace (8 since the
histories gained varied filler and rules stated inside requests; it was 1 before)."""
FACT = "f1"
TEXT = "Do not rotate the credential after step 4."
GOLDEN_STRATEGIES = ("re_ranking", "floor_gated", "budget_open")


@pytest.fixture(scope="module")
def records() -> dict[str, TrialRecord]:
    scenario = load_scenario(SCENARIO)
    return {r.strategy: r for r in run_scenario_trial(scenario, TRIAL, keep_text=True)}


def _i(rec: TrialRecord) -> int:
    return [f.fact_id for f in rec.facts].index(FACT)


def _grades(rec: TrialRecord) -> list[Grade]:
    return [lv.grades[_i(rec)].grade for lv in rec.levels]


def _outcome(rec: TrialRecord) -> Any:
    return rec.outcomes[_i(rec)]


def test_the_constraint_is_planted_in_turn_7(records: dict[str, TrialRecord]) -> None:
    rec = records["re_ranking"]
    fact = rec.facts[_i(rec)]
    assert (fact.text, fact.turn, fact.declared) == (TEXT, 7, True)
    assert [lv.name for lv in rec.levels] == ["L1", "L2", "L3"]
    assert [lv.budget_tokens for lv in rec.levels] == [2048, 512, 128]
    assert abs(rec.l0_tokens - 7800) <= 0.02 * 7800
    assert rec.l0_grades[_i(rec)].grade is Grade.VERBATIM


def test_re_ranking_collapses_silently(records: dict[str, TrialRecord]) -> None:
    rec = records["re_ranking"]
    assert _grades(rec) == [Grade.VERBATIM, Grade.DEGRADED, Grade.DROPPED]
    l1, l2, l3 = rec.levels
    assert TEXT in l1.text
    assert "credential rotation deferred" in l2.text.lower()
    assert l2.grades[_i(rec)].sentence == "Credential rotation deferred."
    assert l2.grades[_i(rec)].missing == ("condition",)  # the step-4 anchor
    assert "credential" not in l3.text.lower()
    # no level over budget, every call read all of its input, nothing raised or flagged
    assert all(lv.budget_ok and lv.closure_ok for lv in rec.levels)
    assert l3.tokens_in <= 512 and l3.tokens_out <= 128
    assert rec.violations == () and rec.aborted_at is None
    assert all(lv.flagged == () for lv in rec.levels)
    outcome = _outcome(rec)
    assert outcome.lost and not outcome.loud and outcome.blame_level == "L2"
    assert rec.silent and rec.collapsed and not rec.loud
    # only the second counter sees it
    assert not l2.floor_ok and not l2.passed
    assert FACT in l2.monotonicity_breaks


def test_floor_gated_catches_it_at_l2_and_recovers(records: dict[str, TrialRecord]) -> None:
    rec = records["floor_gated"]
    mine = [v for v in rec.violations if v.fact_id == FACT]
    assert mine, "the floor check fired for the credential fact"
    assert {v.level for v in mine} == {"L2"}  # locality of blame: L2, not L3
    assert mine[0].grade < Grade.ACTIONABLE
    assert mine[-1].recovered
    assert rec.aborted_at is None
    assert rec.levels[1].floor_retries >= 1 and rec.levels[1].pin_tokens > 0
    assert _grades(rec)[0] is Grade.VERBATIM
    assert _grades(rec)[2] in (Grade.ACTIONABLE, Grade.VERBATIM)
    assert not _outcome(rec).lost and _outcome(rec).blame_level is None
    assert all(lv.budget_ok and lv.closure_ok and lv.floor_ok for lv in rec.levels)
    assert not rec.silent


def test_budget_open_never_reads_the_tail(records: dict[str, TrialRecord]) -> None:
    rec = records["budget_open"]
    short = [lv for lv in rec.levels if lv.tokens_unread > 0]
    assert short, "the read window is smaller than the input"
    for lv in short:
        assert not lv.closure_ok
        assert lv.tokens_read + lv.tokens_unread == lv.tokens_in
    unread_facts = [(lv.name, f) for lv in rec.levels for f in lv.never_read]
    assert unread_facts, "a fact in the unread tail is reported never read"
    for name, fact_id in unread_facts:
        lv = next(lv for lv in rec.levels if lv.name == name)
        assert not lv.closure_ok
        outcome = next(o for o in rec.outcomes if o.fact_id == fact_id)
        if outcome.blame_level == name:
            assert outcome.exposure == "never_read"
    assert any(o.exposure == "never_read" for o in rec.outcomes)


def _snapshot(records: dict[str, TrialRecord]) -> dict[str, Any]:
    first = records["re_ranking"]
    out: dict[str, Any] = {
        "scenario": "scenarios/credential_rotation.toml",
        "trial": TRIAL,
        "fact": {"fact_id": FACT, "text": TEXT, "turn": first.facts[_i(first)].turn},
        "l0_tokens": first.l0_tokens,
        "l0_sha256": hashlib.sha256(first.l0_text.encode()).hexdigest(),
        "strategies": {},
    }
    for name in GOLDEN_STRATEGIES:
        rec = records[name]
        i = _i(rec)
        out["strategies"][name] = {
            "levels": [
                {
                    "name": lv.name,
                    "budget_tokens": lv.budget_tokens,
                    "tokens_in": lv.tokens_in,
                    "tokens_read": lv.tokens_read,
                    "tokens_out": lv.tokens_out,
                    "closure_ok": lv.closure_ok,
                    "budget_ok": lv.budget_ok,
                    "never_read": list(lv.never_read),
                    "grade": lv.grades[i].grade.label,
                    "sentence": lv.grades[i].sentence,
                    "missing": list(lv.grades[i].missing),
                    "text": lv.text,
                }
                for lv in rec.levels
            ],
            "violations": [
                [v.level, v.fact_id, v.grade.label, v.attempt, v.recovered] for v in rec.violations
            ],
            "outcome": {
                "lost": rec.outcomes[i].lost,
                "loud": rec.outcomes[i].loud,
                "blame_level": rec.outcomes[i].blame_level,
                "leaf": rec.outcomes[i].leaf_grade.label,
            },
        }
    return out


def test_trace_matches_the_golden_file(records: dict[str, TrialRecord]) -> None:
    snapshot = _snapshot(records)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(snapshot, indent=1, ensure_ascii=False) + "\n", "utf-8")
    golden = json.loads(GOLDEN.read_text("utf-8"))
    assert snapshot["fact"] == golden["fact"]
    for name in GOLDEN_STRATEGIES:
        got, want = snapshot["strategies"][name], golden["strategies"][name]
        assert [lv["grade"] for lv in got["levels"]] == [lv["grade"] for lv in want["levels"]]
        for g, w in zip(got["levels"], want["levels"], strict=True):
            assert g == w, f"{name} {g['name']} differs from {GOLDEN.name}"
        assert got == want
    assert snapshot == golden
