"""The unit of work a sweep distributes: one trial index of one scenario cell.

The L0 history is generated once per trial and shared by every strategy, so strategies are
compared on identical histories (paired), and each strategy's summarizer draws from its own
stream seeded by (run seed, trial index, strategy): adding a strategy changes no other result.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from sim.engine.ladder import run_trial
from sim.history.adversarial import add_injections
from sim.history.frozen import read_history
from sim.history.generate import generate_history
from sim.prompts.probe import attach_probes
from sim.prompts.templates import base_dir, expand
from sim.runs.scenario import Scenario
from sim.seeds import rng_for
from sim.summarizers.registry import TrialContext, build_summarizer, counter_for
from sim.types import History, Ladder, TrialRecord
from strategies import create_strategy
from strategies.from_callable import REFERENCE_KEYS


def strategy_key(name: str, args: dict[str, Any]) -> str:
    """A stable label for one strategy configuration, e.g. `floor_gated(max_retries=1)`."""
    shown = {k: v for k, v in args.items() if k not in REFERENCE_KEYS}  # `name` says which
    if not shown:
        return name
    inner = ",".join(f"{k}={shown[k]!r}" for k in sorted(shown))
    return f"{name}({inner})"


@lru_cache(maxsize=64)
def _frozen(path: Path, mtime_ns: int) -> History:
    return read_history(path)


def trial_history(scenario: Scenario, trial: int) -> History:
    counter = counter_for(scenario.summarizer, scenario.tokenizer)
    if scenario.history.files:  # frozen L0: a recording stays valid whatever the generator does
        name = scenario.history.files[trial % len(scenario.history.files)]
        path = ((base_dir(scenario) or Path.cwd()) / name).resolve()
        return _frozen(path, path.stat().st_mtime_ns if path.is_file() else 0)
    history = generate_history(
        scenario.history_spec(), rng_for(scenario.seed, trial, "history"), counter
    )
    if scenario.history.adversarial:
        rng = rng_for(scenario.seed, trial, "adversarial")
        history = add_injections(history, scenario.history.adversarial, rng, counter)
    return history


def trial_id(trial: int, key: str, cell: str = "") -> str:
    """`000007:floor_gated`, prefixed with the sweep cell when there is one."""
    return f"{cell}/{trial:06d}:{key}" if cell else f"{trial:06d}:{key}"


def run_strategy(
    scenario: Scenario,
    history: History,
    trial: int,
    name: str,
    args: dict[str, Any],
    *,
    keep_text: bool = False,
    cell: str = "",
) -> TrialRecord:
    """One strategy on trial `trial`'s history, with its own summarizer stream (a sweep runs
    strategies one by one, so one that raises costs only its own row)."""
    counter = counter_for(scenario.summarizer, scenario.tokenizer)
    where = base_dir(scenario)
    named = base_dir(scenario, "strategies")  # a suite's strategies: next to the suite
    ladder = Ladder(
        tuple(
            replace(lv, instruction=expand(lv.instruction, where))
            for lv in scenario.ladder_value().levels
        )
    )
    key = strategy_key(name, args)  # labels keep `file:` references, not prompt texts
    strategy = create_strategy(
        name, **{k: expand(v, named) if isinstance(v, str) else v for k, v in args.items()}
    )
    summarizer = build_summarizer(
        scenario.summarizer, TrialContext(history, counter, scenario.seed, trial, key)
    )
    probe = scenario.summarizer.probe
    record = run_trial(
        history,
        ladder,
        strategy,
        summarizer,
        counter,
        trial_id=trial_id(trial, key, cell),
        seed=scenario.seed,
        keep_text=keep_text or probe,
        label=key,
    )
    if probe:
        rng = rng_for(scenario.seed, trial, f"{key}:probe")
        record = attach_probes(record, summarizer, counter, rng, keep_text)
    injected = getattr(summarizer.inner, "injected", None)  # sim.summarizers.faulty
    return replace(
        record,
        transient_retries=summarizer.transient_retries,
        faults=tuple(sorted(injected.items())) if injected else (),
    )


def run_scenario_trial(
    scenario: Scenario, trial: int, keep_text: bool = False, cell: str = ""
) -> list[TrialRecord]:
    """Every strategy of the scenario on trial `trial`'s history."""
    history = trial_history(scenario, trial)
    return [
        run_strategy(scenario, history, trial, name, args, keep_text=keep_text, cell=cell)
        for name, args in scenario.strategy_specs()
    ]
