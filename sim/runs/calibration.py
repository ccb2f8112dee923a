"""Fit the simulated summarizer to a recorded real run, by simulated moments.

For one strategy (one prompt) of a recorded run, each level's knobs are moved until a simulated
run of the same histories, ladder and strategy shows the level's recorded shares
(sim.runs.moments): calls over budget (`overflow`), facts entering at floor that come out
dropped (`rule_drop`), abstracted or inverted (`abstraction_max`, with the curve held flat:
a level's budget/input ratio barely varies, so one rate per level is what the data can say),
the inverted share of those (`inversion_rate`), and output length against budget (`fill`).

The knobs fitted are the base knobs the prompt's features then move (sim.summarizers.
prompt_knobs), so a fit made under one prompt can also be read under another. Simulated draws
are seeded by (seed + replica, trial, strategy): the same run and options fit the same values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.runs.moments import LevelMoments, Moments, read_moments
from sim.runs.records import trial_row
from sim.runs.scenario import Scenario
from sim.runs.trial import run_strategy, trial_history
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.simulated_params import RANGES

FITTED = ("overflow", "rule_drop", "abstraction_max", "inversion_rate", "fill")
FLAT = {"abstraction_mid": 1e6, "abstraction_width": 1.0}
"""The abstraction curve held flat at `abstraction_max`, whatever the budget/input ratio."""
FACT_KNOBS = frozenset({"rule_drop", "abstraction_max", "inversion_rate"})
Knobs = dict[str, float]


def targets(lm: LevelMoments) -> Knobs:
    """The share each fitted knob is matched to at one level."""
    return {
        "overflow": lm.overflow,
        "rule_drop": lm.share("dropped"),
        "abstraction_max": lm.share("degraded") + lm.share("inverted"),
        "inversion_rate": lm.inverted_of_lost,
        "fill": lm.fill,
    }


def _clamp(knob: str, value: float) -> float:
    lo, hi = RANGES[knob]
    return round(min(max(value, lo), hi), 4)


def _observable(lm: LevelMoments) -> set[str]:
    """The knobs one level's data can say anything about."""
    seen = set()
    if lm.calls:
        seen.add("overflow")
    if lm.entered > lm.aborted:
        seen.add("fill")
    if lm.facts:
        seen |= FACT_KNOBS
    return seen


@dataclass(frozen=True, slots=True)
class Fit:
    strategy: str
    trials: tuple[int, ...]
    levels: dict[str, Knobs]
    observed: Moments
    simulated: Moments
    loss: float
    rounds: int


def simulated_config(levels: dict[str, Knobs]) -> SummarizerConfig:
    return SummarizerConfig(name="simulated", params=dict(FLAT), level_params=levels)


def simulate(
    scenario: Scenario,
    strategy: tuple[str, dict[str, Any]],
    trials: Sequence[int],
    summarizer: SummarizerConfig,
    replicas: int,
) -> Moments:
    """The strategy's moments under `summarizer` on the recorded trials' histories, each trial
    run `replicas` times with its own seed."""
    ladder = tuple(lv.name for lv in scenario.ladder_value().levels)
    rows = []
    for r in range(replicas):
        sim = scenario.model_copy(update={"summarizer": summarizer, "seed": scenario.seed + r})
        sim._base_dir = scenario._base_dir
        for t in trials:
            rec = run_strategy(sim, trial_history(sim, t), t, *strategy)
            rows.append(trial_row(rec, t))
    return read_moments(rows, ladder)


def _step(value: float, want: float, got: float) -> float:
    """Each share grows about in proportion to its knob (the prompt's moves scale it, other
    losses shrink it), so the knob is scaled by the share's miss; from zero it steps."""
    if value > 0 and got > 0.01:
        return value * min(max(want / got, 1 / 3), 3.0)
    return value + (want - got)


def _loss(obs: Moments, sim: Moments) -> float:
    total = 0.0
    for name, lm in obs.levels.items():
        want, got = targets(lm), targets(sim.level(name))
        total += sum((want[k] - got[k]) ** 2 for k in _observable(lm))
    return round(total, 6)


def calibrate(
    scenario: Scenario,
    strategy: tuple[str, dict[str, Any]],
    label: str,
    rows: Iterable[dict[str, Any]],
    trials: Sequence[int],
    *,
    rounds: int = 10,
    replicas: int = 8,
) -> Fit:
    """Each level's knobs moved, round by round, by what the simulated share misses of the
    recorded one; the round with the smallest squared miss is kept."""
    ladder = tuple(lv.name for lv in scenario.ladder_value().levels)
    obs = read_moments(rows, ladder)
    knobs = {
        name: {k: _clamp(k, v) for k, v in targets(lm).items() if k in _observable(lm)}
        for name, lm in obs.levels.items()
    }
    best: Fit | None = None
    for n in range(1, rounds + 1):
        sim = simulate(scenario, strategy, trials, simulated_config(knobs), replicas)
        loss = _loss(obs, sim)
        if best is None or loss < best.loss:
            best = Fit(label, tuple(trials), knobs, obs, sim, loss, n)
        if loss == 0:
            break
        moved: dict[str, Knobs] = {}
        for name, lm in obs.levels.items():
            want, got = targets(lm), targets(sim.level(name))
            reached = sim.level(name)
            seen = _observable(lm) & _observable(reached)
            moved[name] = {
                k: _clamp(k, _step(v, want[k], got[k])) if k in seen else v
                for k, v in knobs[name].items()
            }
        knobs = moved
    assert best is not None
    return best
