"""Sweep axes, named ladders and -S overrides (sim.runs.grid, sim.runs.scenario)."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.errors import ScenarioError
from sim.runs.grid import cell_id, grid_from_data, load_grid, parse_override
from sim.runs.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
NOTE = ROOT / "scenarios" / "credential_rotation.toml"


def tiny_data() -> dict[str, Any]:
    return tomllib.loads(TINY.read_text())


def test_a_scenario_without_sweep_is_one_unnamed_cell_equal_to_the_file() -> None:
    grid = load_grid(NOTE)
    assert [c.id for c in grid.cells] == [""]
    assert grid.cells[0].scenario == load_scenario(NOTE)


def test_cells_are_the_product_of_axes_in_file_order() -> None:
    grid = load_grid(TINY)
    assert [c.id for c in grid.cells] == [
        "depths=[0.2],ladder=small",
        "depths=[0.2],ladder=tiny",
        "depths=[0.8],ladder=small",
        "depths=[0.8],ladder=tiny",
    ]
    cell = grid.cells[1].scenario
    assert cell.constraints.depths == [0.2]
    assert [lv.budget_tokens for lv in cell.ladder] == [240, 60]
    assert cell.sweep == {} and cell.ladders == {}  # fully resolved
    assert grid.base.sweep  # the base keeps its axes (the manifest records them)


def test_cell_ids_are_stable_and_use_full_paths_only_when_needed() -> None:
    assert cell_id([]) == ""
    assert cell_id([("history.target_tokens", 4000)]) == "target_tokens=4000"
    both = cell_id([("ladder.L1.instruction", "compress"), ("ladder.L2.instruction", "x")])
    assert both == "ladder.L1.instruction=compress,ladder.L2.instruction=x"
    long = cell_id([("ladder.L1.instruction", "Summarize for the task. " * 4)])
    assert long.startswith("instruction=Summarize for the ") and len(long) < 50
    assert long == cell_id([("ladder.L1.instruction", "Summarize for the task. " * 4)])
    assert long != cell_id([("ladder.L1.instruction", "Summarize for the task! " * 4)])


def test_unquoted_dotted_sweep_keys_are_flattened() -> None:
    data = tiny_data()
    data["sweep"] = {"history": {"target_tokens": [1000, 1100]}}
    grid = grid_from_data(data, str(TINY))
    assert [c.scenario.history.target_tokens for c in grid.cells] == [1000, 1100]
    assert [c.id for c in grid.cells] == ["target_tokens=1000", "target_tokens=1100"]


def test_axes_inside_a_swept_ladder_apply_after_it_is_chosen() -> None:
    data = tiny_data()
    data["sweep"] = {"ladder.L2.instruction": ["compress", "continuity"], "ladder": ["tiny"]}
    grid = grid_from_data(data, str(TINY))
    assert [c.scenario.ladder[1].instruction for c in grid.cells] == ["compress", "continuity"]
    assert all(c.scenario.ladder[1].budget_tokens == 60 for c in grid.cells)


def test_overrides_parse_values_as_toml() -> None:
    assert parse_override("trials=50").value == 50
    assert parse_override("constraints.depths=[0.1, 0.5]").value == [0.1, 0.5]
    assert parse_override("ladder=tiny").value == "tiny"  # a bare word is a string
    assert parse_override('sweep."history.target_tokens"=[1]').parts == (
        "sweep",
        "history.target_tokens",
    )


def test_overrides_reach_tables_lists_and_axes() -> None:
    grid = load_grid(
        TINY,
        [
            "trials=9",
            "summarizer.params.rank_noise=0.2",
            "ladder.L1.budget_tokens=200",  # inside the swept ladder: applied in every cell
            "constraints.depths=[0.5]",  # a whole axis: fixed, and dropped from the grid
        ],
    )
    assert grid.base.trials == 9
    assert [c.id for c in grid.cells] == ["ladder=small", "ladder=tiny"]
    for cell in grid.cells:
        assert cell.scenario.constraints.depths == [0.5]
        assert cell.scenario.ladder[0].budget_tokens == 200
        assert cell.scenario.summarizer.params == {"rank_noise": 0.2}


def test_overriding_the_sweep_table_itself_shrinks_the_grid() -> None:
    grid = load_grid(TINY, ['sweep={ ladder = ["tiny"] }'])
    assert [c.id for c in grid.cells] == ["ladder=tiny"]


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("histroy.target_tokens=3", "-S histroy.target_tokens=3: histroy: Extra inputs"),
        ("trials=-1", "-S trials=-1: trials: Input should be greater than 0 (got -1)"),
        ("trials=many", "-S trials=many: trials: Input should be a valid integer"),
        ("ladder.L9.budget_tokens=3", "no element 'L9' (valid: L1, L2, L3)"),
        ("trials.x=3", "-S trials.x=3: trials is not a table or a list"),
        ("ladder=nope", "unknown ladder; [ladders]: small, tiny"),
        ("summarizer.params.nope=1", "unknown parameter 'nope'; valid: abstraction_max"),
        ("strategies=['nope']", "-S strategies=['nope']: strategies.0: unknown strategy 'nope'"),
        ("strategies=[{name='floor_gated', max_retries=-1}]", "max_retries=-1 must be >= 0"),
        ("=3", "expected key=value"),
        ("a b=3", "-S a b: not a valid key"),
    ],
)
def test_a_bad_override_is_one_line_naming_it(override: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_grid(TINY, [override])
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def test_unknown_strategy_names_the_valid_ones() -> None:
    data = tiny_data()
    data["strategies"] = ["floor_gated", "nope"]
    with pytest.raises(ScenarioError, match=r"tiny.toml: strategies.1: unknown strategy 'nope'; "):
        grid_from_data(data, str(TINY))


@pytest.mark.parametrize(
    ("sweep", "message"),
    [
        ({"history.target_tokens": [1000, -5]}, "sweep.history.target_tokens=-5: history."),
        ({"ladder": ["tiny", "huge"]}, "sweep.ladder=huge: ladder='huge': unknown ladder"),
        ({"seed": [1, 2]}, "axis 'seed': seed applies to the whole run"),
        ({"history.target_tokens": []}, "needs at least one value"),
        ({"history.nope": [1]}, "sweep.history.nope=1: history.nope: Extra inputs"),
    ],
)
def test_a_bad_axis_is_one_line_naming_it(sweep: dict[str, Any], message: str) -> None:
    data = tiny_data()
    data["sweep"] = sweep
    with pytest.raises(ScenarioError) as info:
        grid_from_data(data, str(TINY))
    assert message in str(info.value)
    assert str(TINY) in str(info.value) or "axis" in str(info.value)


def test_a_named_ladder_is_selected_by_name_and_checked() -> None:
    data = tiny_data()
    del data["sweep"]
    grid = grid_from_data(data, str(TINY))
    assert [lv.name for lv in grid.cells[0].scenario.ladder] == ["L1", "L2", "L3"]
    data["ladders"]["tiny"].append(dict(data["ladders"]["tiny"][0]))
    with pytest.raises(ScenarioError, match=r"ladders\.tiny: level name 'L1' is used twice"):
        grid_from_data(data, str(TINY))


@given(st.lists(st.integers(1, 3), min_size=0, max_size=3))
def test_cell_count_is_the_product_and_ids_are_unique(lengths: list[int]) -> None:
    data = tiny_data()
    paths = ["history.target_tokens", "history.near_misses", "constraints.count"]
    data["sweep"] = {
        path: [1000 + 10 * i if path.endswith("tokens") else i for i in range(n)]
        for path, n in zip(paths, lengths, strict=False)
    }
    grid = grid_from_data(data, str(TINY))
    assert len(grid.cells) == math.prod(lengths)
    assert len({c.id for c in grid.cells}) == len(grid.cells)
