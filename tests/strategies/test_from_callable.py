"""User code as strategies: a plain compactor's three reply shapes, a factory's strategy, and the
errors that stop a run before (or at) its first trial."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.engine.ladder import run_trial
from sim.errors import RegistryError, UserError
from sim.runs.trial import strategy_key
from strategies import create_strategy
from tests.helpers import SMALL_LADDER, counter, small_history

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "compactors.py"


class _NoModel:
    name = "none"
    max_input_tokens = 1 << 20

    def summarize(self, request: object) -> object:
        raise AssertionError("a user compactor makes its own model call")


def _trial(name: str, **args: object):  # type: ignore[no-untyped-def]
    strategy = create_strategy(name, **args)
    history = small_history(seed=3)
    return run_trial(history, SMALL_LADDER, strategy, _NoModel(), counter(), trial_id="t", seed=3)  # type: ignore[arg-type]


def test_a_compactor_runs_at_every_level_under_its_own_name() -> None:
    rec = _trial("mine", callable=f"{FIXTURE}:keep_everything")
    assert rec.strategy == "mine"
    assert [lv.name for lv in rec.levels] == ["L1", "L2", "L3"]
    assert not rec.collapsed and not rec.levels[-1].budget_ok  # kept everything, over budget
    assert all(lv.closure_ok for lv in rec.levels)


def test_a_compactor_that_drops_rules_collapses_silently() -> None:
    rec = _trial("dropper", callable=f"{FIXTURE}:drop_rules")
    assert rec.collapsed and rec.silent and not rec.loud


def test_reported_consumption_is_checked_for_budget_closure() -> None:
    rec = _trial("half", callable=f"{FIXTURE}:reads_half")
    assert not any(lv.closure_ok for lv in rec.levels)


def test_a_cut_reply_fails_the_level_loudly() -> None:
    rec = _trial("cut", callable=f"{FIXTURE}:cut_reply")
    assert rec.aborted_at == "L1" and "output cap" in (rec.failure or "")


def test_a_reply_of_the_wrong_shape_is_bad_input() -> None:
    with pytest.raises(UserError, match=r"returned int; expected str"):
        _trial("bad", callable=f"{FIXTURE}:returns_int")


def test_a_factory_builds_a_full_strategy_with_its_arguments() -> None:
    s = create_strategy("firsts", factory=f"{FIXTURE}:first_lines", lines=1)
    assert s.name == "firsts" and s.args == {"factory": f"{FIXTURE}:first_lines", "lines": 1}
    rec = _trial("firsts", factory=f"{FIXTURE}:first_lines", lines=1)
    assert rec.levels[0].tokens_out < rec.levels[0].tokens_in
    assert strategy_key("firsts", dict(s.args)) == "firsts(lines=1)"
    assert strategy_key("mine", {"callable": "x.py:f"}) == "mine"


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("budget_closed", {"callable": f"{FIXTURE}:drop_rules"}, "is a registered strategy"),
        ("../x", {"callable": f"{FIXTURE}:drop_rules"}, "letters, digits"),
        ("m", {"callable": f"{FIXTURE}:one_arg"}, "2 positional arguments"),
        ("m", {"callable": f"{FIXTURE}:drop_rules", "x": 1}, "a `callable` takes no arguments"),
        ("m", {"factory": f"{FIXTURE}:not_a_strategy"}, "has no compact(text, budget, ctx)"),
        ("m", {"factory": f"{FIXTURE}:first_lines", "nope": 1}, "unexpected keyword"),
        ("m", {"callable": 3}, "a reference must be a string"),
    ],
)
def test_bad_user_strategies_are_one_line(name: str, args: dict[str, object], message: str) -> None:
    with pytest.raises((UserError, RegistryError)) as info:
        create_strategy(name, **args)
    assert message in str(info.value) and "\n" not in str(info.value)
