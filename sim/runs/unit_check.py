"""The one check of trials.jsonl against its run's plan, shared by `--resume` (which cuts the
file back to its last whole unit) and every reader (`sim.load_run`, `compsim report`,
`compsim check`), so a copied, foreign or interleaved row is refused the same way everywhere
instead of being counted twice or counted at all.

A trial unit is one trial index of one cell: one row per strategy of the cell, written by one
append, so a valid file holds each unit's rows together, each strategy once, each unit once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from sim.errors import RunStoreError
from sim.runs.unit_set import UnitSet


class _Strategy(Protocol):
    @property
    def key(self) -> str: ...


class _Cell(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def strategies(self) -> Sequence[_Strategy]: ...


class Plan(Protocol):
    """What the check reads of a manifest (sim.runs.results.Manifest)."""

    @property
    def trials(self) -> int: ...
    @property
    def cells(self) -> Sequence[_Cell]: ...


class UnitCheck:
    """Feed it the file's rows in order; it names the first line the plan does not hold."""

    def __init__(self, manifest: Plan, path: Path) -> None:
        self.path = path
        self.trials = manifest.trials
        self.strategies = {c.id: frozenset(s.key for s in c.strategies) for c in manifest.cells}
        self.done = UnitSet()
        self._unit: tuple[str, int] = ("", -1)
        self._seen: dict[str, int] = {}  # strategy -> line, within the current unit

    def _fail(self, lineno: int, why: str) -> RunStoreError:
        return RunStoreError(f"{self.path}: line {lineno}: {why}")

    def add(self, lineno: int, row: dict[str, Any]) -> tuple[str, int] | None:
        """The unit this row completes, or None; raises for a row that is not the plan's."""
        cell, trial = str(row.get("cell") or ""), row.get("trial")
        strategy = str(row.get("strategy"))
        where = f"trial {trial}" + (f" of cell {cell!r}" if cell else "")
        if cell not in self.strategies:
            raise self._fail(lineno, f"cell {cell!r} not in run")
        if type(trial) is not int or not 0 <= trial < self.trials:
            raise self._fail(
                lineno, f"trial {trial!r} is outside the plan (0..{self.trials - 1}): a foreign row"
            )
        if strategy not in self.strategies[cell]:
            raise self._fail(lineno, f"strategy {strategy!r} is not in the run ({where})")
        unit = (cell, trial)
        if unit in self.done:
            raise self._fail(lineno, f"duplicate row: {where}, {strategy} is already in the file")
        if unit != self._unit:
            if self._seen:
                first = min(self._seen.values())
                raise self._fail(
                    lineno, f"trial units interleaved: the unit begun at line {first} is cut short"
                )
            self._unit = unit
        if strategy in self._seen:
            raise self._fail(
                lineno, f"duplicate row: {where}, {strategy} repeats line {self._seen[strategy]}"
            )
        self._seen[strategy] = lineno
        if len(self._seen) < len(self.strategies[cell]):
            return None
        self.done.add(unit)
        self._seen = {}
        return unit

    @property
    def pending(self) -> bool:
        """A unit begun but not finished: the torn tail of a crash (resume cuts it)."""
        return bool(self._seen)
