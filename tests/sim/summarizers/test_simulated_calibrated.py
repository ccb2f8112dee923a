"""The knobs a calibration fits (sim/summarizers/simulated_params.py: `rule_drop`, `overflow`),
a level's own knobs (`level_params`), and the params file a scenario names
(sim/summarizers/params_file.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.errors import ScenarioError
from sim.runs.scenario import load_scenario
from sim.summarizers.base import SummaryRequest
from sim.summarizers.simulated import SimParams, SimulatedSummarizer
from tests.helpers import counter, raw_count
from tests.sim.summarizers.test_simulated import NEUTRAL, NOTE, ORDER, world

FACTS = ("f1", "f2")


def run(params: SimParams, level: str = "L1", seeds: int = 200, **levels: SimParams) -> list[str]:
    h = world(subgoals=4, facts=FACTS)
    out = []
    for seed in range(seeds):
        s = SimulatedSummarizer(h, np.random.default_rng(seed), counter(), params, levels)
        req = SummaryRequest(h.text, 10 * raw_count(h.text), NEUTRAL, (), level)
        out.append(s.summarize(req).text)
    return out


def test_zero_knobs_draw_nothing_and_change_nothing() -> None:
    assert run(SimParams(), seeds=20) == run(SimParams(rule_drop=0.0, overflow=0.0), seeds=20)


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_rule_drop_leaves_rules_out_at_its_rate_though_they_fit(p: float) -> None:
    texts = run(SimParams(rule_drop=p))
    kept = sum(NOTE.fact.text in t for t in texts) / len(texts)
    assert abs(kept - (1 - p)) < 0.1
    # filler is never dropped by it: every subgoal line is in every output
    h = world(subgoals=4, facts=FACTS)
    filler = [u.renderings[0] for u in h.units if not u.fact_id]
    assert all(line in t for t in texts for line in filler)


def test_rule_drop_spares_pinned_facts() -> None:
    h = world(subgoals=4, facts=FACTS)
    s = SimulatedSummarizer(h, np.random.default_rng(0), counter(), SimParams(rule_drop=1.0))
    req = SummaryRequest(h.text, 10 * raw_count(h.text), NEUTRAL, (NOTE.fact,), "L1")
    text = s.summarize(req).text
    assert NOTE.fact.text in text
    assert ORDER.fact.text not in text


def test_overflow_returns_the_input_whole_over_its_budget() -> None:
    h = world(subgoals=12, facts=FACTS)
    budget = raw_count(h.text) // 3
    s = SimulatedSummarizer(h, np.random.default_rng(0), counter(), SimParams(overflow=1.0))
    result = s.summarize(SummaryRequest(h.text, budget, NEUTRAL, (), "L1"))
    assert raw_count(result.text) > budget
    assert result.text == h.text
    calm = SimulatedSummarizer(h, np.random.default_rng(0), counter(), SimParams())
    assert raw_count(calm.summarize(SummaryRequest(h.text, budget, NEUTRAL, (), "L1")).text) <= (
        budget
    )


def test_a_level_listed_in_level_params_uses_its_own_knobs() -> None:
    base, own = SimParams(), SimParams(rule_drop=1.0)
    at_l1 = run(base, "L1", seeds=5, L2=own)
    at_l2 = run(base, "L2", seeds=5, L2=own)
    assert all(NOTE.fact.text in t for t in at_l1)
    assert not any(NOTE.fact.text in t for t in at_l2)


SCENARIO = """
name = "calibrated"
trials = 2
strategies = ["budget_closed"]
[[ladder]]
name = "L1"
budget_tokens = 200
[summarizer]
name = "simulated"
params = "{ref}"
"""


def _scenario(tmp_path: Path, params: str, ref: str = "file:params.toml") -> Path:
    (tmp_path / "params.toml").write_text(params, encoding="utf-8")
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO.format(ref=ref), encoding="utf-8")
    return path


def test_a_params_file_is_inlined_with_its_levels_over_its_base(tmp_path: Path) -> None:
    path = _scenario(
        tmp_path,
        "[params]\nfill = 0.7\nrule_drop = 0.1\n[levels.L2]\nrule_drop = 0.4\n"
        "[calibration]\nsource = 'a run'\n",
    )
    summ = load_scenario(path).summarizer
    assert summ.params == {"fill": 0.7, "rule_drop": 0.1}
    assert summ.level_params == {"L2": {"fill": 0.7, "rule_drop": 0.4}}
    # the manifest holds the values, so a run never depends on the file again
    dumped = summ.model_dump()
    assert dumped["params"]["fill"] == 0.7 and dumped["level_params"]["L2"]["rule_drop"] == 0.4


def test_a_scenario_without_level_params_dumps_as_before(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.replace('params = "{ref}"', "params = {fill = 0.5}"), "utf-8")
    assert "level_params" not in load_scenario(path).summarizer.model_dump()


@pytest.mark.parametrize(
    ("body", "ref", "message"),
    [
        ("[params]\nfil = 0.7\n", "file:params.toml", "[params]: unknown parameter 'fil'"),
        ("[params]\nfill = 7.0\n", "file:params.toml", "fill=7.0: must be within"),
        ("[params]\nfill = 'x'\n", "file:params.toml", "fill='x': must be a number"),
        ("[levels.L2]\noverflow = -1\n", "file:params.toml", "[levels.L2]: overflow=-1"),
        ("[knobs]\nfill = 0.7\n", "file:params.toml", "unknown section [knobs]"),
        ("[params]\n", "file:missing.toml", "no such file"),
        ("[params]\n", "params.toml", "a table of knobs, or 'file:params.toml'"),
        ("[params\n", "file:params.toml", "params.toml"),
    ],
)
def test_a_bad_params_file_is_one_line_naming_file_and_key(
    tmp_path: Path, body: str, ref: str, message: str
) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(_scenario(tmp_path, body, ref))
    assert message in str(err.value)
    assert "\n" not in str(err.value)
