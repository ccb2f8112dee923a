"""Fuzzing the scenario loader: whatever data a scenario file (or a library caller) hands it,
`parse_scenario` and the grid loader either accept it or raise a UserError, never anything
else (a TypeError, KeyError, RecursionError... would reach the user as a traceback).

Three sources of input: random nested structures, a valid scenario with random edits at
random depths (the inputs most likely to get past the first checks), and random bytes read as
a scenario file."""

from __future__ import annotations

import contextlib
import copy
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.errors import UserError
from sim.runs.grid import grid_from_data
from sim.runs.scenario import parse_scenario, read_scenario_data
from tests.helpers import examples

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
BASE: dict[str, Any] = {
    **tomllib.loads(TINY.read_text()),
    # a strategy with arguments, planted facts and simulated-summarizer knobs: edits of these
    # reach the deepest checks
    "strategies": ["re_ranking", {"name": "floor_gated", "max_retries": 1}, "empty"],
    "constraints": {
        "count": 1,
        "planted": [
            {"class": "prohibition", "verb": "rotate", "object": "credential", "step": 4},
            {
                "text": "Never purge the nightly archive before noon.",
                "anchors": {"action": ["purge"], "object": ["nightly archive"]},
                "turn": 2,
            },
        ],
    },
    "summarizer": {"params": {"rank_noise": 0.1}},
}
SOURCE = ROOT / "tests" / "fixtures" / "fuzz.toml"  # never read: `file:` refs resolve next to it

KEYS = [
    "name", "seed", "trials", "strategies", "history", "constraints", "ladder", "ladders",
    "summarizer", "sweep", "tokenizer", "budget_tokens", "group_size", "instruction", "planted",
    "text", "anchors", "object", "action", "floor", "depths", "count", "classes", "params",
    "rank_noise", "max_retries", "verb", "step", "turn", "depth", "polarity", "class",
    "target_tokens", "near_misses", "cache", "cache_mode", "api_key_env", "base_url", "model",
]  # fmt: skip
leaves = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["L1", "tiny", "small", "file:", "file:nope.txt", "$input", "compress",
                     "prohibition", "floor_gated", "simulated", "http", "..", "/", "\x00"]),
)  # fmt: skip
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=8))
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=24,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in `node` a value sits (dict keys and list indices)."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def edited_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """The tiny scenario with one to four random edits: replace, delete or add a key."""
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            continue
        parent: Any = data
        for part in where[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[where[-1]] = draw(values)
        elif action == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(keys)] = draw(values)
        else:
            parent.append(draw(values))
    return data


def load_both(data: dict[str, Any]) -> None:
    """Both loaders; only UserError may escape."""
    with contextlib.suppress(UserError):
        parse_scenario(copy.deepcopy(data), SOURCE)
    with contextlib.suppress(UserError):
        grid_from_data(data, str(SOURCE))


FUZZ = settings(
    max_examples=examples(1.5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    deadline=None,
)


@FUZZ
@given(st.dictionaries(keys, values, max_size=8))
def test_random_structures_raise_only_user_errors(data: dict[str, Any]) -> None:
    load_both(data)


@FUZZ
@given(edited_scenarios())
def test_edited_scenarios_raise_only_user_errors(data: dict[str, Any]) -> None:
    load_both(data)


@FUZZ
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_files_raise_only_scenario_errors(tmp_path_factory: Any, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "s.toml"
    path.write_bytes(raw)
    try:
        data = read_scenario_data(path)
    except UserError:
        return
    load_both(data)


def test_the_base_scenario_loads() -> None:
    """The edits start from a valid scenario, so surviving edits exercise the deep checks."""
    parse_scenario(copy.deepcopy(BASE), SOURCE)
    assert len(grid_from_data(BASE, str(SOURCE)).cells) == 4
