"""The simulated summarizer's knobs kept in a file of their own, as `compsim calibrate` writes
them: `summarizer = {name = "simulated", params = "file:params.toml"}`.

The file is read when the scenario is loaded and its knobs are inlined into the scenario, so
the run's manifest (and its spec hash) holds the values used, not a path whose file may change
later. Layout:

    [params]          # every level's knobs (any SimParams field)
    fill = 0.7
    [levels.L2]       # a level's own knobs, over [params]
    rule_drop = 0.4
    [calibration]     # what the fit saw and reached; informational, never read back
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.errors import ScenarioError, UserError
from sim.files import read_toml
from sim.prompts.templates import FILE_PREFIX, find_file
from sim.summarizers.simulated_params import check_knobs

MAX_PARAMS_BYTES = 256 * 1024
SECTIONS = ("params", "levels", "calibration")
Knobs = dict[str, float | int]


def _knobs(where: str, table: object) -> Knobs:
    """A table of SimParams knobs, each a number within its range."""
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: must be a table of knobs")
    try:
        check_knobs(table)
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    return dict(table)


def read_params_file(path: Path) -> tuple[Knobs, dict[str, Knobs]]:
    """The file's `[params]` and `[levels.*]` tables, checked; every problem one line naming
    the file and the key."""
    data = read_toml(path, "simulated summarizer params", ScenarioError, MAX_PARAMS_BYTES)
    for key in data:
        if key not in SECTIONS:
            raise ScenarioError(f"{path}: unknown section [{key}]; valid: {', '.join(SECTIONS)}")
    params = _knobs(f"{path}: [params]", data.get("params", {}))
    levels_raw = data.get("levels", {})
    if not isinstance(levels_raw, dict):
        raise ScenarioError(f"{path}: [levels] must hold one table per level name")
    levels = {
        str(name): _knobs(f"{path}: [levels.{name}]", {**params, **_table(path, name, table)})
        for name, table in levels_raw.items()
    }
    return params, levels


def _table(path: Path, name: str, table: object) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ScenarioError(f"{path}: [levels.{name}] must be a table of knobs")
    return table


def inline_params_file(data: dict[str, Any], source: Path) -> dict[str, Any]:
    """`data` with a `summarizer.params = "file:..."` reference replaced by the file's knobs
    (resolved next to `source`, the scenario file); any other `data` is returned as is."""
    summ = data.get("summarizer")
    if not isinstance(summ, dict) or not isinstance(summ.get("params"), str):
        return data
    ref = summ["params"]
    where = f"{source}: summarizer.params={ref!r}"
    if not ref.startswith(FILE_PREFIX):
        raise ScenarioError(f"{where}: a table of knobs, or 'file:params.toml'")
    if summ.get("level_params"):
        raise ScenarioError(f"{where}: give level_params in the file, not beside it")
    try:
        path = find_file(ref, source.parent)
    except UserError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    if not path.is_file():
        raise ScenarioError(f"{where}: no such file {path}")
    params, levels = read_params_file(path)
    return {**data, "summarizer": {**summ, "params": params, "level_params": levels}}


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    return json.dumps(str(v), ensure_ascii=False)  # a TOML basic string, escapes and all


def _key(k: object) -> str:
    s = str(k)
    return s if s and all(c.isascii() and (c.isalnum() or c in "-_") for c in s) else _value(s)


def params_text(
    params: Knobs, levels: dict[str, Knobs], calibration: dict[str, object], header: str
) -> str:
    """A params file `read_params_file` reads back: `[params]`, `[levels.*]`, then the
    informational `[calibration]` table (scalars first, then one table per level)."""
    out = [f"# {line}" if line else "#" for line in header.splitlines()]
    out += ["[params]", *(f"{_key(k)} = {_value(v)}" for k, v in params.items())]
    for name, knobs in levels.items():
        out += [
            "",
            f"[levels.{_key(name)}]",
            *(f"{_key(k)} = {_value(v)}" for k, v in knobs.items()),
        ]
    scalars = {k: v for k, v in calibration.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in calibration.items() if isinstance(v, dict)}
    out += ["", "[calibration]", *(f"{_key(k)} = {_value(v)}" for k, v in scalars.items())]
    for name, table in tables.items():
        assert isinstance(table, dict)
        out += ["", f"[calibration.{_key(name)}]"]
        out += [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    return "\n".join(out) + "\n"
