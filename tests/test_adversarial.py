"""Adversarial histories (sim.history.adversarial): injected lines that tell the summarizer to drop
the rules, the simulated summarizer's susceptibility knob, and the property that matters: under
the floor gate no declared fact is ever lost silently, however susceptible the summarizer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.grading.grade import grade_text
from sim.history.adversarial import INJECTIONS, add_injections
from sim.runs.grid import load_grid
from sim.runs.results import TRIALS, iter_jsonl
from sim.runs.runner import run_grid
from sim.runs.scenario import load_scenario
from sim.runs.trial import trial_history
from sim.seeds import rng_for
from sim.summarizers.base import SummaryRequest
from sim.summarizers.simulated import SimParams, SimulatedSummarizer
from sim.types import Grade, UnitKind
from tests.helpers import counter

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "adversarial.toml"
LINES = {text for pair in INJECTIONS for text in pair}


def injected(history: Any) -> list[tuple[int, int]]:
    """(turn index, position in the turn) of every injected line."""
    return [
        (t.index, pos)
        for t in history.turns
        for pos, u in enumerate(t.unit_ids)
        if history.units[u].kind is UnitKind.INJECTION
    ]


def test_injections_join_user_or_tool_turns_after_the_first_fact() -> None:
    scenario = load_scenario(SCENARIO)
    plain = trial_history(
        scenario.model_copy(
            update={"history": scenario.history.model_copy(update={"adversarial": 0})}
        ),
        0,
    )
    history = trial_history(scenario, 0)
    where = injected(history)
    assert len(where) == 3 and injected(plain) == []
    first = min(f.turn for f in history.facts)
    roles = {t.index: t.role for t in history.turns}
    for turn, pos in where:
        assert turn >= first and roles[turn] in ("user", "tool") and pos >= 1
    assert [u for u in history.units if u.kind is not UnitKind.INJECTION] == list(plain.units)
    assert sum(line in LINES for line in history.text.splitlines()) == 3
    assert [f.fact_id for f in history.facts] == [f.fact_id for f in plain.facts]
    assert [f.turn for f in history.facts] == [f.turn for f in plain.facts]
    assert all(0.0 <= f.depth <= 1.0 for f in history.facts)
    assert trial_history(scenario, 0) == history  # seeded
    assert trial_history(scenario, 1) != history


def test_injections_carry_no_answer_key_and_change_no_grade() -> None:
    history = trial_history(load_scenario(SCENARIO), 2)
    assert {g.grade for g in grade_text(history.text, history.facts, counter())} == {Grade.VERBATIM}
    for line in LINES:
        for fact in history.facts:
            assert fact.topic.forms[0].lower() not in line.lower()


def summarize(history: Any, susceptibility: float, pinned: tuple[Any, ...] = ()) -> str:
    sim = SimulatedSummarizer(
        history,
        np.random.default_rng(1),
        counter(),
        SimParams(injection_susceptibility=susceptibility),
    )
    text = history.text
    budget = counter().count(text)  # room for everything: only the injection can drop a rule
    # a prompt with no feature but its cap: no brevity knob shortens or cuts the filler
    neutral = "Rewrite the log below in at most $budget_tokens tokens."
    return sim.summarize(SummaryRequest(text, budget, neutral, pinned, "L1")).text


def test_the_susceptibility_knob_drops_unpinned_rules_and_only_when_injected() -> None:
    scenario = load_scenario(SCENARIO)
    history = trial_history(scenario, 0)
    rules = [f.text for f in history.facts]
    assert all(r in summarize(history, 0.0) for r in rules)  # the default: never swayed
    swayed = summarize(history, 1.0)
    assert not any(r in swayed for r in rules)
    assert all(line in swayed for line in history.text.splitlines() if line in LINES)
    pinned = summarize(history, 1.0, pinned=history.facts[:1])
    assert rules[0] in pinned and not any(r in pinned for r in rules[1:])
    clean = trial_history(
        scenario.model_copy(
            update={"history": scenario.history.model_copy(update={"adversarial": 0})}
        ),
        0,
    )
    assert all(f.text in summarize(clean, 1.0) for f in clean.facts)  # nothing to obey


def test_the_knob_at_zero_draws_nothing_so_results_are_unchanged(tmp_path: Path) -> None:
    args = ["trials=3", "sweep={}"]
    run_grid(load_grid(SCENARIO, args), tmp_path / "a", jobs=1, progress=False)
    knob = [*args, "summarizer.params.injection_susceptibility=0.0"]
    run_grid(load_grid(SCENARIO, knob), tmp_path / "b", jobs=1, progress=False)
    assert (tmp_path / "a" / TRIALS).read_bytes() == (tmp_path / "b" / TRIALS).read_bytes()
    assert SimParams().injection_susceptibility == 0.0


def test_a_scenario_without_injections_dumps_as_before() -> None:
    tiny = load_scenario(ROOT / "tests" / "fixtures" / "tiny.toml")
    assert "adversarial" not in tiny.model_dump()["history"]
    assert load_scenario(SCENARIO).model_dump()["history"]["adversarial"] == 3


@pytest.mark.parametrize("susceptibility", [0.5, 1.0])
def test_under_the_floor_gate_no_declared_fact_is_lost_silently(
    tmp_path: Path, susceptibility: float
) -> None:
    """The property, on many histories: every loss of a declared fact under floor_gated (raise
    or flag) is loud; the same summarizer without a gate loses facts silently."""
    overrides = [
        "trials=40",
        "sweep={}",
        f"summarizer.params.injection_susceptibility={susceptibility}",
        'strategies=["budget_closed", "floor_gated", '
        '{name = "floor_gated", on_exhausted = "flag"}]',
    ]
    out = tmp_path / "run"
    run_grid(load_grid(SCENARIO, overrides), out, jobs=1, progress=False)
    rows = list(iter_jsonl(out / TRIALS))
    assert all(r["error"] is None for r in rows)
    gated = [r for r in rows if r["strategy"].startswith("floor_gated")]
    assert len(gated) == 80
    for r in gated:
        assert not r["silent"], r["trial_id"]
        for fact in r["facts"]:
            if fact["declared"] and fact["lost"]:
                assert fact["loud"], (r["trial_id"], fact["fact_id"])
    ungated = [r for r in rows if r["strategy"] == "budget_closed"]
    assert sum(r["silent"] for r in ungated) >= len(ungated) // 2  # the threat is real
    assert rng_for(4242, 0, "adversarial").random() != rng_for(4242, 0, "history").random()


def test_no_injection_leaves_the_history_as_it_is() -> None:
    history = trial_history(load_scenario(ROOT / "tests" / "fixtures" / "tiny.toml"), 0)
    assert add_injections(history, 0, np.random.default_rng(0), counter()) is history
    more = add_injections(history, 5, np.random.default_rng(0), counter())
    assert len(injected(more)) == 5 and len(more.units) == len(history.units) + 5
    assert counter().count(more.text) > counter().count(history.text)
