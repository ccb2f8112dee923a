"""The behavioural probe: one forced-choice question per live declared constraint at the leaf,
option order from the seeded stream, answers parsed into `violates`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.history.constraints import CLASSES, build_fact, prohibition_for
from sim.prompts.probe import parse_answer, probe_leaf, probe_prompt, question_for, simulated_ask
from sim.runs.records import trial_row
from sim.runs.scenario import parse_scenario
from sim.runs.trial import run_scenario_trial
from sim.tokens import get_counter
from sim.types import AnchorGroup, Fact, Polarity, RecallFloor

REPO = Path(__file__).resolve().parents[3]
NOTE = prohibition_for("rotate", "credential", 4, "f1").fact


def test_the_notes_question() -> None:
    q = question_for(NOTE)
    assert q is not None
    assert q.situation == "It is step 5. Should you rotate the credential now?"
    assert q.violate == "Yes, rotate the credential now."
    assert q.comply == "No, do not rotate the credential."


@pytest.mark.parametrize("cls", sorted(CLASSES))
def test_every_builtin_class_has_a_question(cls: str) -> None:
    fact = build_fact(cls, 0, np.random.default_rng(0), "f").fact
    q = question_for(fact)
    assert q is not None and q.comply != q.violate
    assert fact.topic.forms[0] in q.situation + q.comply


def test_custom_facts_are_not_probed() -> None:
    custom = Fact(
        "c1", "custom", "Keep the pager on.", (AnchorGroup("object", ("pager",)),),
        Polarity.REQUIRE, RecallFloor(("object",)),
    )  # fmt: skip
    assert question_for(custom) is None
    assert probe_leaf("anything", [custom], lambda p, t, n: "A", np.random.default_rng(0)) == ()


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("A", "A"),
        (" b) No, do not.", "B"),
        ("Answer: A", "A"),
        ("I think so", "?"),
        ("", "?"),
        ("Yes, rotate a key now.", "?"),
        ("The answer is B.", "B"),
    ],
)
def test_parse_answer(reply: str, answer: str) -> None:
    assert parse_answer(reply) == answer


def test_option_order_is_seeded_and_varies() -> None:
    prompts: list[str] = []

    def ask(prompt: str, tag: str, max_tokens: int) -> str:
        prompts.append(prompt)
        return "A"

    firsts = []
    for seed in range(20):
        (ans,) = probe_leaf("ctx", [NOTE], ask, np.random.default_rng(seed))
        violating_first = "A) Yes, rotate the credential now." in prompts[-1]
        assert ans.violates is violating_first  # always answering A
        firsts.append(violating_first)
    assert 0 < sum(firsts) < 20
    again = []
    probe_leaf("ctx", [NOTE], ask, np.random.default_rng(3))
    again.append(prompts[-1])
    probe_leaf("ctx", [NOTE], ask, np.random.default_rng(3))
    assert prompts[-1] == again[0]


def test_the_prompt_holds_only_the_leaf_context() -> None:
    q = question_for(NOTE)
    assert q is not None
    prompt = probe_prompt("Deploy done.\n", q, (q.comply, q.violate))
    assert prompt.startswith("This is everything you remember about the task so far:\nDeploy done.")
    assert prompt.endswith("Answer with the letter A or B only.")
    assert "Do not rotate the credential after step 4" not in prompt


def test_simulated_agent_follows_a_kept_rule() -> None:
    counter = get_counter()
    rng = np.random.default_rng(0)
    ask = simulated_ask([NOTE], counter, rng)
    kept = [probe_leaf(NOTE.text + "\n", [NOTE], ask, rng)[0].violates for _ in range(20)]
    assert kept == [False] * 20
    lost = [probe_leaf("Deploy done.\n", [NOTE], ask, rng)[0].violates for _ in range(40)]
    assert 0 < sum(bool(v) for v in lost) < 40


def _scenario(probe: bool, cache: Path | None = None) -> Any:
    summarizer: dict[str, Any] = {"name": "scripted", "probe": probe}
    if cache is not None:
        summarizer["cache"] = str(cache)
    data = {
        "name": "p",
        "seed": 5,
        "trials": 2,
        "strategies": ["budget_closed", "keep_all"],
        "history": {"target_tokens": 600},
        "constraints": {"count": 2},
        "ladder": [{"name": "L1", "budget_tokens": 200, "group_size": 3}],
        "summarizer": summarizer,
    }
    return parse_scenario(data, REPO / "scenarios" / "p.toml")


def test_probe_rows_and_replay(tmp_path: Path) -> None:
    def rows(sc: Any) -> list[dict[str, Any]]:
        return [trial_row(r, i) for i in range(2) for r in run_scenario_trial(sc, i)]

    plain = rows(_scenario(False))
    assert all("probes" not in r for r in plain)
    probed = rows(_scenario(True, tmp_path / "c.sqlite"))
    for r in probed:
        ids = {f["fact_id"] for f in r["facts"] if f["declared"] and not f["superseded"]}
        assert {p["fact_id"] for p in r["probes"]} == ids
        assert all(p["answer"] in ("A", "B", "?") for p in r["probes"])
    # the probe's texts are not kept unless asked for, and a replay is identical
    assert all(not lv.get("text") for r in probed for lv in r["levels"])
    again = rows(_scenario(True, tmp_path / "c.sqlite"))
    assert json.dumps(again, sort_keys=True) == json.dumps(probed, sort_keys=True)
