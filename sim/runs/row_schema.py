"""The shape of a trials.jsonl and a traces.jsonl row, checked as each line is read.

Rows are plain dicts everywhere inside (sim.runs.records writes them, the frames, aggregates,
gate and viewer read them), so a hand-edited or foreign row with `"levels": 5` used to pass
the JSON check and fail as a TypeError deep in pandas. These models are the file boundary:
strict types for every field a reader touches (integers are 64-bit already: sim.files),
extra fields allowed (an older harness may add one), and the error names the line and the
field. The dict itself is what callers keep.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class LevelRow(_Strict):
    name: str
    budget_tokens: int | None
    tokens_in: int
    tokens_read: int
    tokens_unread: int
    tokens_out: int
    calls: int
    floor_retries: int
    budget_retries: int
    pin_tokens: int
    closure_ok: bool
    budget_ok: bool
    floored_present: int
    floored_retained: int
    passed: bool
    monotonicity_breaks: list[str]
    never_read: list[str]
    flagged: list[str]


class FactRow(_Strict):
    fact_id: str
    cls: str
    declared: bool
    superseded: bool
    turn: int
    depth: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)  # Infinity or NaN broke the report
    l0_grade: str | None = None
    grades: list[str]
    missing: list[list[str]]
    span_tokens: list[int]
    leaf: str
    lost: bool
    loud: bool
    blame_level: str | None
    exposure: str | None = None


class ViolationRow(_Strict):
    level: str
    fact_id: str
    reason: str
    grade: str
    attempt: int
    recovered: bool


class TrialRow(_Strict):
    v: int = 1
    trial_id: str
    trial: int
    cell: str = ""
    strategy: str
    seed: int
    collapsed: bool
    silent: bool
    loud: bool
    stopped: bool = False
    over_budget: bool = False
    blame_level: str | None
    aborted_at: str | None = None
    failure: str | None = None
    error: str | None = None
    l0_tokens: int
    tokens_read: int
    tokens_emitted: int
    tokens_unread: int
    pin_tokens: int
    calls: int
    floor_retries: int
    budget_retries: int
    transient_retries: int = 0
    levels: list[LevelRow]
    facts: list[FactRow]
    violations: list[ViolationRow]
    probes: list[dict[str, Any]] = []
    faults: dict[str, int] = {}

    @model_validator(mode="after")
    def _per_level_lists_match(self) -> TrialRow:
        """Each fact holds one grade, span and missing list per level the row reached."""
        n = len(self.levels)
        for i, f in enumerate(self.facts):
            for name in ("grades", "missing", "span_tokens"):
                if len(getattr(f, name)) != n:
                    raise ValueError(
                        f"facts.{i}.{name}: {len(getattr(f, name))} entries for {n} levels"
                    )
        return self


class TraceGrade(_Strict):
    grade: str
    sentence: str
    span_tokens: int
    missing: list[str]


class TraceLevel(_Strict):
    name: str
    text: str
    budget_tokens: int | None
    tokens_in: int | None
    tokens_out: int
    grades: dict[str, TraceGrade]
    flagged: list[str] = []
    never_read: list[str] = []


class TraceFact(_Strict):
    fact_id: str
    text: str
    cls: str
    superseded: bool


class TraceRow(_Strict):
    trial_id: str
    trial: int
    strategy: str
    aborted_at: str | None = None
    failure: str | None = None
    levels: list[TraceLevel]
    facts: list[TraceFact]


def row_problem(model: type[BaseModel], row: dict[str, Any]) -> str | None:
    """None when `row` has the model's shape, else `field.path: what is wrong (got value)`."""
    try:
        model.model_validate(row)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "<row>"
        value = err.get("input")
        shown = "" if isinstance(value, dict | list) else f" (got {repr(value)[:40]})"
        msg = str(err["msg"]).removeprefix("Value error, ")
        return msg if not err["loc"] else f"{loc}: {msg}{shown}"  # a row-wide check names its own
    return None
