"""A trial's one outcome (sim.types.trial_outcome): silent and loud split the collapsed trials,
a loud stop that lost nothing is `stopped`, and rows, summaries and the gate's metrics agree."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sim.commands.main import main
from sim.errors import BudgetInfeasible
from sim.grading.outcomes import FactState, TrialOutcome, summarize_trials
from sim.history.generate import Placement
from sim.regression.expr import METRICS
from sim.types import FactOutcome, Grade, PieceResult, trial_outcome
from strategies.base import CallContext
from tests.helpers import (
    Scripted,
    history_with,
    lines,
    note_fact,
    planted,
    run_scripted,
    write_scenario,
)

NOTE = note_fact("f1")
ORDER = planted("ordering", 0, "f2")
HISTORY = history_with(Placement(NOTE, turn=2), Placement(ORDER, turn=3))
F1, F2 = HISTORY.facts


@dataclass
class StopsAtL2(Scripted):
    """Loses f1 at L1 without a word, then refuses L2 ("refusing to truncate")."""

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        if ctx.level == "L2":
            raise BudgetInfeasible(ctx.level, "refusing to truncate")
        return super().compact(text, budget, ctx)


def test_a_silent_loss_then_a_loud_stop_is_silent_and_not_loud() -> None:
    """The trial the issue saw counted twice: f1 lost silently at L1, then a loud stop at L2
    about something else. Nobody ever raised or flagged f1's loss, so it is silent only."""
    rec = run_scripted(HISTORY, StopsAtL2({"L1": lines(F2.text), "L2": "", "L3": ""}))
    assert rec.aborted_at == "L2"
    assert rec.collapsed and rec.silent
    assert not rec.loud and not rec.stopped


def test_one_flagged_loss_does_not_hide_an_unflagged_one() -> None:
    """f1 flagged, f2 lost without a flag: the runtime never heard of f2's loss."""
    texts = {"L1": lines("Open: orders CSV export."), "L2": "", "L3": ""}
    rec = run_scripted(HISTORY, Scripted(texts, flags={"L1": ("f1",)}))
    lost = {o.fact_id: o.loud for o in rec.outcomes if o.lost}
    assert lost == {"f1": True, "f2": False}
    assert rec.silent and not rec.loud
    both = run_scripted(HISTORY, Scripted(texts, flags={"L1": ("f1", "f2")}))
    assert both.loud and not both.silent and both.collapsed


def _fact(lost: bool, loud: bool) -> FactOutcome:
    return FactOutcome("f", "prohibition", True, False, 0.0, Grade.DROPPED, lost, loud, None, "")


FATES = st.lists(st.tuples(st.booleans(), st.booleans()), max_size=6)
ABORTED = st.sampled_from([None, "L1", "L2"])


@given(FATES, ABORTED)
def test_every_trial_has_exactly_one_outcome(
    fates: list[tuple[bool, bool]], aborted: str | None
) -> None:
    outcomes = [_fact(lost, lost and loud) for lost, loud in fates]
    outcome = trial_outcome(outcomes, aborted)
    collapsed = any(o.lost for o in outcomes)
    assert (outcome in ("silent", "loud")) == collapsed  # silent + loud == collapsed
    if any(o.lost and not o.loud for o in outcomes):
        assert outcome == "silent"
    elif collapsed:
        assert outcome == "loud"
    else:
        assert outcome == ("kept" if aborted is None else "stopped")


def _trial(i: int, fates: list[tuple[str, bool, bool]]) -> TrialOutcome:
    facts = tuple(
        FactState(f"f{j}", cls, "dropped" if lost else "verbatim", lost, lost and loud, None)
        for j, (cls, lost, loud) in enumerate(fates)
    )
    kind = trial_outcome(
        [_fact(f.lost, f.loud) for f in facts], None
    )  # the classification the engine writes into the row
    return TrialOutcome(
        i, kind in ("silent", "loud"), kind == "silent", kind == "loud", False,
        0, 0, 0, 0, 0, 0, 0, None, facts,
    )  # fmt: skip


TRIALS = st.lists(
    st.lists(st.tuples(st.sampled_from(["prohibition", "ordering"]), st.booleans(), st.booleans()),
             max_size=5),
    min_size=1,
    max_size=12,
)  # fmt: skip


@given(TRIALS)
def test_the_gate_metrics_partition_collapse_overall_and_per_class(
    trials: list[list[tuple[str, bool, bool]]],
) -> None:
    outs = [_trial(i, f) for i, f in enumerate(trials)]
    collapse, silent, loud = (
        METRICS[m] for m in ("collapse_rate", "silent_collapse_rate", "loud_failure_rate")
    )
    for cls in (None, "prohibition", "ordering"):
        for t in outs:
            c, s, lo = (m.value(t, cls) for m in (collapse, silent, loud))
            if c is None:
                assert s is None and lo is None  # no fact of that class in the trial
                continue
            assert s is not None and lo is not None
            assert s + lo == c and s * lo == 0  # never both
    summary = summarize_trials(outs)
    n = summary["trials"]
    assert round(summary["silent_collapse_rate"] * n) + round(
        summary["loud_failure_rate"] * n
    ) == round(summary["collapse_rate"] * n)


def test_rows_and_summary_of_a_real_run_agree(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    scenario = write_scenario(tmp_path)
    argv = ["run", str(scenario), "--out", str(out), "--no-progress", "-S", "trials=6"]
    assert main([*argv, "-S", "strategies=['budget_closed','floor_gated','pinned','tail']"]) in (
        0,
        1,
    )
    capsys.readouterr()
    rows = [json.loads(ln) for ln in (out / "trials.jsonl").read_text().splitlines()]
    assert rows and any(r["collapsed"] for r in rows)
    for r in rows:
        assert r["collapsed"] == (r["silent"] or r["loud"]) and not (r["silent"] and r["loud"])
        assert not (r["stopped"] and r["collapsed"])
    for g in json.loads((out / "summary.json").read_text())["groups"]:
        n = g["trials"]
        assert round(g["collapsed_rate"] * n) == round(g["silent_rate"] * n) + round(
            g["loud_rate"] * n
        )
