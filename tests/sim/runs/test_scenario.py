"""Scenario files and ladder validation (sim/runs/scenario.py): bad input is rejected before
anything runs, with one line that names the file, the field and the value; the CLI turns it
into exit code 2 without a traceback. Tested through `load_scenario` and the CLI only."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from sim.errors import ScenarioError, UserError
from sim.runs.scenario import load_scenario
from tests.helpers import SMALL_SCENARIO, write_scenario

REPO = Path(__file__).resolve().parents[3]
BAD = REPO / "tests" / "bad_scenarios"

# file -> fragments the one-line message must contain (the field, and the value)
EXPECTED = {
    "unknown_key.toml": ["seeds", "Extra inputs are not permitted", "3"],
    "wrong_type.toml": ["trials", "integer", "'many'"],
    "zero_budget.toml": ["ladder.1", "level L2: budget_tokens=0 must be > 0"],
    "negative_budget.toml": ["ladder.0", "level L1: budget_tokens=-5 must be > 0"],
    "anchors_not_in_text.toml": ["constraints.planted.0", "anchors.object", "'credential'"],
    "depth_out_of_range.toml": ["constraints.depths", "1.5", "0..1"],
    "planted_depth_out_of_range.toml": ["constraints.planted.0.depth", "-0.1"],
    "invalid_toml.toml": ["invalid TOML", "line 9"],
}


def test_every_bad_scenario_file_is_covered() -> None:
    assert sorted(p.name for p in BAD.glob("*.toml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_scenario_is_one_line_naming_file_and_field(name: str) -> None:
    path = BAD / name
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    for fragment in EXPECTED[name]:
        assert fragment in message, (fragment, message)
    assert isinstance(info.value, UserError)


def test_small_scenario_is_valid(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scenario = load_scenario(write_scenario(tmp_path))
    ladder = scenario.ladder_value()
    assert [(lv.name, lv.budget_tokens, lv.group_size) for lv in ladder.levels] == [
        ("L1", 600, 3),
        ("L2", 150, 4),
        ("L3", 48, 0),
    ]
    spec = scenario.history_spec()
    assert spec.target_tokens == 1500 and spec.constraints == 2
    assert spec.placements[0].turn == 3
    assert spec.placements[0].planted.fact.text == "Do not rotate the credential after step 4."


def test_the_notes_scenario_is_valid() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scenario = load_scenario(REPO / "scenarios" / "credential_rotation.toml")
    assert [lv.budget_tokens for lv in scenario.ladder_value().levels] == [2048, 512, 128]
    placement = scenario.history_spec().placements[0]
    assert placement.turn == 7
    assert placement.planted.fact.text == "Do not rotate the credential after step 4."


def test_growing_budget_is_a_warning_not_an_error(tmp_path: Path) -> None:
    text = SMALL_SCENARIO.replace("budget_tokens = 150", "budget_tokens = 700")
    with pytest.warns(UserWarning, match="budget_tokens must shrink: L2=700 >= L1=600"):
        scenario = load_scenario(write_scenario(tmp_path, text))
    assert [lv.budget_tokens for lv in scenario.ladder_value().levels] == [600, 700, 48]


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(SMALL_SCENARIO.replace('"small"', '"sm\xe9ll"').encode("latin-1"))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "UTF-8" in message and "\n" not in message


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(ScenarioError, match=r"absent\.toml"):
        load_scenario(path)


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ("count = 2", "count = -1", "constraints.count"),
        ('name = "small"', 'name = "has spaces"', "name"),
        ("group_size = 3", "group_size = -2", "group_size"),
        ("step = 4", "step = 4\nverb2 = 1", "verb2"),
        ('strategies = ["budget_closed", "floor_gated"]', "strategies = []", "strategies"),
    ],
)
def test_more_field_errors(tmp_path: Path, old: str, new: str, fragment: str) -> None:
    assert old in SMALL_SCENARIO
    path = write_scenario(tmp_path, SMALL_SCENARIO.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and fragment in message and "\n" not in message


def _compsim() -> list[str]:
    script = Path(sys.executable).parent / "compsim"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sim.commands.main"]


@pytest.mark.parametrize("name", ["zero_budget.toml", "unknown_key.toml", "invalid_toml.toml"])
def test_cli_on_a_bad_scenario_exits_2_with_one_line(name: str) -> None:
    done = subprocess.run(
        [*_compsim(), "demo", f"tests/bad_scenarios/{name}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    err = done.stderr.strip().splitlines()
    assert len(err) == 1, done.stderr
    assert err[0].startswith(f"compsim: error: tests/bad_scenarios/{name}: ")
    assert "Traceback" not in done.stderr
