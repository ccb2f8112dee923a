"""Sweep grids: dotted paths into scenario data, `-S key=value` overrides, and cells.

Overrides and axis values are applied to the raw TOML data *before* validation, so every value
goes through the same checks as one written in the file, and an error names the `-S` key or
the sweep axis that caused it. Paths are TOML keys (`history.target_tokens`,
`sweep."constraints.depths"`); a list element is addressed by index or, for lists of tables,
by `name` (`ladder.L3.instruction`). A cell is the cartesian product's point: a fully resolved,
validated Scenario (named ladder resolved, no sweep) with a stable, readable id.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sim.errors import ScenarioError, UserError
from sim.files import DataError, parse_toml
from sim.prompts.templates import check_prompt_refs
from sim.runs.scenario import Scenario, format_validation_error, read_scenario_data
from sim.summarizers.params_file import inline_params_file
from strategies import create_strategy

_MAX_SHOWN = 32


@dataclass(frozen=True, slots=True)
class Override:
    """One `-S key=value`: the key split into TOML path parts and the parsed value."""

    text: str
    parts: tuple[str, ...]
    value: Any


@dataclass(frozen=True, slots=True)
class Cell:
    id: str
    index: int
    axes: tuple[tuple[str, Any], ...]
    scenario: Scenario


@dataclass(frozen=True, slots=True)
class Grid:
    """A scenario after overrides (`base`, still holding its sweep) and its cells."""

    source: str
    base: Scenario
    cells: tuple[Cell, ...]
    overrides: tuple[str, ...] = ()


def _shown(text: str) -> str:
    """An override as an error shows it: a 3,000-character value would bury the message."""
    return text if len(text) <= 80 else f"{text[:60]}...({len(text)} characters)"


def _key_parts(key: str) -> tuple[str, ...]:
    try:
        node: Any = parse_toml(f"{key} = 0")
    except DataError:
        raise ScenarioError(f"-S {key}: not a valid key (use dotted TOML keys)") from None
    if len(node) != 1:  # `a = 1\nb`: more than one key
        raise ScenarioError(f"-S {key}: not a valid key (use dotted TOML keys)")
    parts = []
    while isinstance(node, dict):
        (name, node), *_ = node.items()
        parts.append(name)
    return tuple(parts)


def parse_override(text: str) -> Override:
    """`key=value`, the value parsed as TOML; a bare word that is not TOML is a string."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key:
        raise ScenarioError(f"-S {text!r}: expected key=value")
    parts = _key_parts(key)
    try:
        parsed = parse_toml(f"v = {raw}")
    except DataError as exc:
        if exc.position is None:  # nested too deeply, an integer of 5,000 digits
            raise ScenarioError(f"-S {key}: {str(exc).removeprefix('invalid TOML: ')}") from None
        if any(c in raw for c in "\n\r\x00"):  # a bare word is one line of text
            raise ScenarioError(
                f"-S {key}: the value {_shown(raw)!r} is not one TOML value"
            ) from None
        return Override(text, parts, raw)
    if set(parsed) != {"v"}:  # `trials=1\nseed=5`: the rest would be ignored silently
        raise ScenarioError(f"-S {key}: the value {_shown(raw)!r} is not one TOML value")
    return Override(text, parts, parsed["v"])


def _index(node: list[Any], part: str, where: str) -> int:
    if part.isdigit() and int(part) < len(node):
        return int(part)
    names = [item.get("name") for item in node if isinstance(item, dict)]
    if part in names:
        return names.index(part)
    valid = ", ".join(str(n) for n in names if n) or f"0..{len(node) - 1}"
    raise ScenarioError(f"{where}: no element {part!r} (valid: {valid})")


def _materialize_ladder(data: dict[str, Any], where: str) -> None:
    """Replace a named ladder by a copy of its levels, so paths can reach into it."""
    name = data.get("ladder")
    if isinstance(name, str):
        named = data.get("ladders") or {}
        if name not in named:
            valid = ", ".join(named) or "none defined"
            raise ScenarioError(f"{where}: ladder={name!r}: unknown ladder; [ladders]: {valid}")
        data["ladder"] = copy.deepcopy(named[name])


def set_path(data: dict[str, Any], parts: Sequence[str], value: Any, where: str) -> tuple[str, ...]:
    """Set `value` at `parts` in raw scenario data (creating missing tables); returns the path
    with list elements as indices, which is how validation errors locate fields."""
    node: Any = data
    canonical: list[str] = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, list):
            idx = _index(node, part, where)
            canonical.append(str(idx))
            if last:
                node[idx] = value
            else:
                node = node[idx]
        elif isinstance(node, dict):
            if node is data and part == "ladder" and not last:
                _materialize_ladder(data, where)
            canonical.append(part)
            if last:
                node[part] = value
                if node is data and part == "ladder":
                    _materialize_ladder(data, where)
            else:
                node = node.setdefault(part, {})
        else:
            raise ScenarioError(f"{where}: {'.'.join(canonical)} is not a table or a list")
    return tuple(canonical)


def _blame(exc: ValidationError, paths: dict[tuple[str, ...], str], default: str) -> str:
    """The first error, prefixed with the override or axis whose path it falls under."""
    err = exc.errors()[0]
    loc = tuple(str(x) for x in err.get("loc", ()))
    for path, label in paths.items():
        if loc[: len(path)] == path or path[: len(loc)] == loc:
            return f"{label}: {format_validation_error(exc)}"
    return f"{default}: {format_validation_error(exc)}"


def _show(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    if len(text) > _MAX_SHOWN:
        digest = hashlib.sha256(text.encode()).hexdigest()[:6]
        text = f"{text[:20]}~{digest}"
    return text


def cell_id(axes: Sequence[tuple[str, Any]]) -> str:
    """`depths=[0.5],ladder=tight`: last path part unless two axes share it; "" without axes."""
    last = [key.split(".")[-1] for key, _ in axes]
    shown = [k.split(".")[-1] if last.count(k.split(".")[-1]) == 1 else k for k, _ in axes]
    return ",".join(f"{k}={_show(v)}" for k, (_, v) in zip(shown, axes, strict=True))


def _validate(
    data: dict[str, Any],
    paths: dict[tuple[str, ...], str],
    default: str,
    source: Path,
    named_by: Mapping[str, Path],
) -> Scenario:
    """Validate like a scenario file: `file:` prompt references resolve next to `source`, or
    next to the file that wrote their top-level field (`named_by`)."""
    data = inline_params_file(data, source)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        more = len(exc.errors()) - 1
        tail = f" (and {more} more)" if more else ""
        raise ScenarioError(_blame(exc, paths, default) + tail) from None
    scenario._base_dir = source.parent
    scenario._ref_dirs = {k: v.parent for k, v in named_by.items()}
    check_prompt_refs(data, source, named_by)
    _check_strategies(scenario, paths, default)
    return scenario


def _check_strategies(scenario: Scenario, paths: dict[tuple[str, ...], str], default: str) -> None:
    """Build each strategy once, so an unknown name (the registry lists the valid ones) or a
    bad argument fails at load time, not in every trial."""
    label = next((v for k, v in paths.items() if k[:1] == ("strategies",)), default)
    for i, (name, args) in enumerate(scenario.strategy_specs()):
        try:
            create_strategy(name, **args)
        except UserError as exc:
            raise ScenarioError(f"{label}: strategies.{i}: {exc}") from None


def _outer_first(items: Sequence[tuple[Sequence[str], Any]]) -> list[int]:
    """Apply whole values before edits inside them (`ladder` before `ladder.L3.instruction`),
    whatever order they were written in."""
    return sorted(range(len(items)), key=lambda i: len(items[i][0]))


def _under(parts: Sequence[str], axes: Sequence[str]) -> bool:
    return any(tuple(parts[: len(a.split("."))]) == tuple(a.split(".")) for a in axes)


def grid_from_data(
    data: dict[str, Any],
    source: str,
    overrides: Sequence[str | Override] = (),
    named_by: Mapping[str, Path] | None = None,
) -> Grid:
    """-S overrides first (an override of a whole axis fixes it: the axis is dropped; one inside
    an axis's value is re-applied in every cell), then one validated Scenario per cell.
    `named_by`: top-level fields another file wrote (a suite's strategies), whose `file:`
    references resolve next to that file."""
    named_by = dict(named_by or {})
    data = copy.deepcopy(data)
    parsed = [o if isinstance(o, Override) else parse_override(o) for o in overrides]
    sweep = Scenario._flatten_sweep(data.get("sweep", {}))
    if isinstance(sweep, dict):
        for o in parsed:
            sweep.pop(".".join(o.parts), None)
        data["sweep"] = sweep
    labels: dict[tuple[str, ...], str] = {}
    for i in _outer_first([(o.parts, o) for o in parsed]):
        o = parsed[i]
        label = f"-S {_shown(o.text)}"
        labels[set_path(data, o.parts, o.value, label)] = label
    base = _validate(data, labels, source, Path(source), named_by)
    axes = list(base.sweep.items())
    inner = [o for o in parsed if _under(o.parts, [k for k, _ in axes])]
    cell_data = copy.deepcopy(data)
    cell_data.pop("sweep", None)
    cells = []
    seen: set[str] = set()
    for index, values in enumerate(itertools.product(*(v for _, v in axes))):
        chosen = list(zip((k for k, _ in axes), values, strict=True))
        one = copy.deepcopy(cell_data)
        paths: dict[tuple[str, ...], str] = {}
        cid = cell_id(chosen)
        edits = [(k.split("."), v, f"{source}: sweep.{k}={_show(v)}") for k, v in chosen]
        edits += [(list(o.parts), o.value, f"-S {_shown(o.text)}") for o in inner]
        for i in _outer_first([(e[0], e) for e in edits]):
            parts, value, where = edits[i]
            paths[set_path(one, parts, copy.deepcopy(value), where)] = where
        _materialize_ladder(one, f"{source}: cell {cid}")
        one.pop("ladders", None)
        scenario = _validate(one, paths, f"{source}: cell {cid}", Path(source), named_by)
        if cid in seen:
            cid = f"{cid}#{index}"
        seen.add(cid)
        cells.append(Cell(cid, index, tuple(chosen), scenario))
    return Grid(source, base, tuple(cells), tuple(o.text for o in parsed))


def load_grid(path: str | Path, overrides: Sequence[str | Override] = ()) -> Grid:
    """Read a scenario file, apply `-S` overrides, validate, and expand its sweep."""
    return grid_from_data(read_scenario_data(Path(path)), str(path), overrides)
