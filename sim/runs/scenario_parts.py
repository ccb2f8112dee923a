"""The parts of a scenario file below its top level: history, constraints (with explicit
facts), levels and strategy entries, each a pydantic model that rejects unknown keys and says
which field and value is wrong. sim.runs.scenario assembles them into a Scenario.
"""

from __future__ import annotations

import itertools
import re
import warnings
from dataclasses import replace
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from sim.errors import ScenarioError
from sim.grading.text import normalize
from sim.history.constraints import CLASSES, PlantedText, prohibition_for
from sim.history.generate import Placement
from sim.summarizers.config import SummarizerConfig
from sim.types import AnchorGroup, Fact, Polarity, RecallFloor


class StrictModel(BaseModel):
    """Frozen, unknown keys rejected, and no boolean accepted where a number is expected."""

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


class HistoryConfig(StrictModel):
    target_tokens: int = Field(7800, gt=0, le=2_000_000, description="L0 length, within 2%.")
    near_misses: int = Field(2, ge=0, le=1000, description="Near-miss distractor sentences.")
    superseded: int = Field(0, ge=0, le=1000, description="Random facts revoked later.")
    adversarial: int = Field(
        0, ge=0, le=1000, description="Lines telling the summarizer to drop the rules."
    )
    files: list[str] = Field(
        default_factory=list,
        max_length=10_000,
        description="Frozen L0 histories (sim.history.frozen), next to the scenario; trial i "
        "runs on file i mod N and the generator settings above are not used.",
    )

    @model_serializer(mode="wrap")
    def _without_unset_adversarial(self, handler: SerializerFunctionWrapHandler) -> Any:
        # absent unless set, so other scenarios dump (and hash) as they always did
        data = handler(self)
        if isinstance(data, dict):
            if not self.adversarial:
                data.pop("adversarial", None)
            if not self.files:
                data.pop("files", None)
        return data


class PlantedConfig(StrictModel):
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


class ConstraintsConfig(StrictModel):
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


class LevelConfig(StrictModel):
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


class GradingConfig(StrictModel):
    """`[grading]`: a second grader beside the text grader. `judge` is the model asked (the
    summarizer table's fields); `compsim regrade RUN --grader judge` uses it."""

    judge: SummarizerConfig | None = None


class StrategyConfig(StrictModel):
    """A registered strategy with its arguments, or user code by reference: `callable =
    "pkg.mod:fn"` (a compactor) or `factory = "pkg.mod:make"` (a full strategy), named after
    the function unless `name` says otherwise (strategies.from_callable)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    name: str

    @model_validator(mode="before")
    @classmethod
    def _name_from_reference(cls, data: Any) -> Any:
        if isinstance(data, dict) and "name" not in data:
            ref = data.get("callable", data.get("factory"))
            if isinstance(ref, str) and ":" in ref:
                return {"name": ref.rpartition(":")[2].rpartition(".")[2], **data}
        return data


def check_levels(where: str, levels: list[LevelConfig], warn: bool = True) -> None:
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


def placement_of(p: PlantedConfig, fact_id: str) -> Placement:
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
