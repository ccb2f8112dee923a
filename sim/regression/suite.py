"""The regression suite definition (benchmarks/suite.toml): named, versioned cases, each a
scenario file that pins its seed, run with the suite's strategies under test and always with
the reference baselines beside them.

A case file is a scenario without `strategies` (it may list its own); the suite adds the
strategies under test and then `empty`, `head`, `tail` and `keep_all` unless already listed,
so a regression can always be read against "do nothing" and "keep everything". A `file:`
prompt reference resolves next to the file that names it: the suite's strategies next to the
suite file, everything in a case file next to the case file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sim.errors import ScenarioError
from sim.files import read_toml
from sim.grading.outcomes import REFERENCES, base_name
from sim.runs.grid import Grid, grid_from_data
from sim.runs.scenario import format_validation_error, read_scenario_data

DEFAULT_SUITE = Path("benchmarks/suite.toml")
_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"  # a directory name: no leading dot, so never ".."


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class CaseRef(_Model):
    name: str = Field(min_length=1, max_length=64, pattern=_NAME)
    """The case's name: its run directory inside a suite run, and its key in a baseline."""
    file: str = Field(min_length=1)
    """The case's scenario file, relative to the suite file."""
    version: int = Field(ge=1)
    """Bump when the case changes meaning; a baseline from another version warns."""
    description: str = ""
    """What the case exercises, for the reader of a gate's output."""


class SuiteFile(_Model):
    name: str = Field(min_length=1, max_length=64, pattern=_NAME)
    """The suite's name, recorded in every run and baseline made from it."""
    version: int = Field(ge=1)
    """The suite's version: bump it when cases are added, removed or changed."""
    description: str = ""
    """What the suite is for."""
    strategies: list[str | dict[str, Any]] = Field(min_length=1)
    """Strategies under test, as in a scenario: names or {name = ..., <args>} tables."""
    cases: list[CaseRef] = Field(min_length=1)
    """The cases, run in this order."""

    @model_validator(mode="after")
    def _unique(self) -> SuiteFile:
        names = [c.name for c in self.cases]
        for n in names:
            if names.count(n) > 1:
                raise ValueError(f"case name {n!r} is used twice")
        return self


@dataclass(frozen=True, slots=True)
class SuiteCase:
    name: str
    version: int
    description: str
    path: Path
    data: dict[str, Any]
    named_by: tuple[tuple[str, Path], ...] = ()
    """Top-level fields the suite file wrote (its `strategies`), for `file:` references."""

    def grid(self, overrides: tuple[str, ...] = ()) -> Grid:
        """The case's scenario (with any -S overrides) expanded into its cells."""
        return grid_from_data(self.data, str(self.path), overrides, dict(self.named_by))


@dataclass(frozen=True, slots=True)
class Suite:
    name: str
    version: int
    description: str
    path: Path
    cases: tuple[SuiteCase, ...]


def with_references(strategies: list[Any]) -> list[Any]:
    """The strategies plus every reference baseline not already among them."""
    names = {base_name(s if isinstance(s, str) else str(s.get("name", ""))) for s in strategies}
    return [*strategies, *(r for r in REFERENCES if r not in names)]


def load_suite(path: str | Path = DEFAULT_SUITE, strategies: list[Any] | None = None) -> Suite:
    """Read and validate a suite and its case files; problems are one-line ScenarioErrors.
    `strategies` (e.g. `compsim bench --compactor REF`) replace every case's under test."""
    p = Path(path)
    data = read_toml(p, "suite", ScenarioError)
    try:
        spec = SuiteFile.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{p}: {format_validation_error(exc)}") from None
    cases = []
    for ref in spec.cases:
        case_path = p.parent / ref.file
        raw = read_scenario_data(case_path)
        raw.setdefault("name", ref.name)
        named_by: tuple[tuple[str, Path], ...] = ()
        if strategies is not None:
            raw["strategies"] = list(strategies)
        elif "strategies" not in raw:
            raw["strategies"] = list(spec.strategies)
            named_by = (("strategies", p),)
        raw["strategies"] = with_references(list(raw["strategies"]))
        case = SuiteCase(ref.name, ref.version, ref.description, case_path, raw, named_by)
        case.grid()  # validate now: a broken case fails before anything runs
        cases.append(case)
    return Suite(spec.name, spec.version, spec.description, p, tuple(cases))
