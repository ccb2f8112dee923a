"""Frozen L0 histories: a generated history survives the file byte for byte, bad files are one
line naming the file and the field, and a scenario that lists them runs trial i on file i."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.history.frozen import HistoryFileError, generate_files, read_history, to_json
from sim.runs.scenario import load_scenario
from sim.runs.trial import trial_history

REPO = Path(__file__).resolve().parents[3]


def test_round_trip_is_exact(tmp_path: Path) -> None:
    (path,) = generate_files(tmp_path, 1, seed=5, target_tokens=300, facts=3)
    history = read_history(path)
    assert to_json(history) == path.read_text(encoding="utf-8")
    assert {f.cls for f in history.facts} == {"prohibition", "ordering", "value_pin"}


def test_classes_rotate_so_every_class_is_planted(tmp_path: Path) -> None:
    paths = generate_files(tmp_path, 2, seed=5, target_tokens=300, facts=3)
    classes = {f.cls for p in paths for f in read_history(p).facts}
    assert classes == {"prohibition", "ordering", "value_pin", "conditional", "confirmation"}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("turns"), r"turns: Field required"),
        (lambda d: d.update(version=9), r"version 1"),
        (lambda d: d["turns"][0]["units"].append(10_000), r"turns\.0\.units: no unit 10000"),
        (lambda d: d["facts"][0].update(floor=["nope"]), r"facts\.0\.floor"),
        (lambda d: d["units"][0].update(kind="poem"), r"units\.0\.kind"),
    ],
)
def test_bad_files_are_one_line(tmp_path: Path, edit: object, message: str) -> None:
    (path,) = generate_files(tmp_path, 1, seed=5, target_tokens=300, facts=2)
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HistoryFileError, match=message) as info:
        read_history(path)
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)


def test_missing_and_oversized_files(tmp_path: Path) -> None:
    with pytest.raises(HistoryFileError, match="does not exist"):
        read_history(tmp_path / "none.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    with pytest.raises(HistoryFileError, match="larger than"):
        read_history(big)


def test_scenario_runs_trial_i_on_file_i_mod_n() -> None:
    scenario = load_scenario(REPO / "scenarios" / "real_cassette.toml")
    files = scenario.history.files
    for trial in (0, 1, len(files)):
        expected = read_history(REPO / "scenarios" / files[trial % len(files)])
        assert trial_history(scenario, trial) == expected
