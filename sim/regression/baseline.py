"""Committed baselines (results/baselines/<name>.json): a suite run reduced to what a paired
gate needs, plus the spec and harness version it came from.

Compact and reviewable: per case, the resolved scenario and every strategy's summary; for
strategies under test, one line per trial (trial index, outcomes, token counts, and per live
fact its leaf grade, loss and blame level), columns named once at the top; each trial's facts
and their classes are listed once per case, since every strategy saw the same history. Updating a
baseline is a deliberate change that shows up line by line in review.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from sim.errors import UserError
from sim.files import DataError, parse_json, read_capped
from sim.grading.outcomes import CaseOutcomes, FactState, SuiteOutcomes, TrialOutcome
from sim.runs.store import atomic_write

BASELINE_VERSION = 2
"""2: `over_budget` and `stopped` columns, the level that inverted a fact, and silent / loud
as a partition of collapsed (sim.types.trial_outcome). A version-1 file counted both for one
trial, so it is refused with the command that rebuilds it rather than compared."""
MAX_BASELINE_BYTES = 64 * 1024 * 1024
TRIAL_COLUMNS = (
    "trial",
    "collapsed",
    "silent",
    "loud",
    "error",
    "over_budget",
    "stopped",
    "tokens_read",
    "tokens_emitted",
    "tokens_unread",
    "pin_tokens",
    "calls",
    "floor_retries",
    "budget_retries",
    "blame_level",
    "facts",
)
GRADES = ("verbatim", "actionable", "degraded", "dropped", "inverted")
_STATE = re.compile(rf"^({'|'.join(GRADES)})(?:/(silent|loud)@([^~]*))?(?:~inverted@(.+))?$")
_MARK = re.compile(r'"\\u0000(\d+)\\u0000"')

FactState_ = Annotated[str, StringConstraints(pattern=_STATE.pattern)]
TrialRow = tuple[
    int,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    str | None,
    list[FactState_],
]
FactRow = tuple[int, list[tuple[str, str]]]


class BaselineError(UserError):
    """A baseline file that cannot be read or written."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class SuiteInfo(_Model):
    name: str
    """The suite (or single scenario) the baseline was made from."""
    version: int = Field(ge=0)
    """The suite's version (0 for a single run); a candidate of another version warns."""


class Source(_Model):
    run: str
    """The run directory's name the baseline was made from."""
    commit: str | None = None
    """The git commit that run was made at, when known."""


class CaseBaseline(_Model):
    version: int = Field(ge=0)
    """The case's version from the suite file."""
    spec: dict[str, Any]
    """The case's fully resolved scenario: what a candidate is compared against."""
    references: list[str]
    """Reference strategies (run beside, never gated): only their summary is kept."""
    summary: dict[str, dict[str, int | float]]
    """Per strategy key: trials, errors, rates and mean token counts."""
    facts: list[FactRow]
    """Per trial index: its live facts as [fact_id, class], shared by every strategy (one
    history per trial). Superseded facts are left out: they may vanish without loss."""
    trials: dict[str, list[TrialRow]]
    """Per strategy under test: one row per trial index, columns as in `trial_columns`; the
    last column holds one state per fact of the trial, in fact-table order: the leaf grade,
    then for a lost fact `/silent@LEVEL` or `/loud@LEVEL` (the level to blame), then for a
    fact some level inverted `~inverted@LEVEL` (the first such level)."""

    @model_validator(mode="after")
    def _aligned(self) -> CaseBaseline:
        """One row per trial of the plan (0 <= trial < spec.trials) per strategy, nothing
        else: an emptied, repeated or foreign row would change what the gate compares."""
        if not self.trials:
            raise ValueError("trials: no strategy under test (an empty baseline gates nothing)")
        plan = self.spec.get("trials")
        if type(plan) is not int or plan < 1:
            raise ValueError(f"spec.trials: not a positive trial count (got {plan!r})")
        counts: dict[int, int] = {}
        for i, (t, f) in enumerate(self.facts):
            if not 0 <= t < plan:
                raise ValueError(f"facts.{i}: trial {t} is outside the plan (0..{plan - 1})")
            if t in counts:
                raise ValueError(f"facts.{i}: trial {t} listed twice")
            counts[t] = len(f)
        for key, rows in self.trials.items():
            if not rows:
                raise ValueError(f"trials.{key}: no trial rows")
            seen: dict[int, int] = {}
            for i, r in enumerate(rows):
                where = f"trials.{key}.{i}"
                if not 0 <= r[0] < plan:
                    raise ValueError(f"{where}: trial {r[0]} is outside the plan (0..{plan - 1})")
                if r[0] in seen:
                    raise ValueError(f"{where}: trial {r[0]} repeats row {seen[r[0]]}")
                seen[r[0]] = i
                if not r[4] and len(r[-1]) != counts.get(r[0], 0):
                    raise ValueError(
                        f"{where}: trial {r[0]} has {len(r[-1])} fact states, the fact "
                        f"table lists {counts.get(r[0], 0)}"
                    )
        return self


class BaselineFile(_Model):
    version: int = BASELINE_VERSION
    """Baseline schema version; always first. Newer versions are refused, not guessed at."""
    harness_version: str
    """compaction-sim version that produced the run."""
    suite: SuiteInfo
    """Which suite, and which version of it."""
    source: Source
    """Where the numbers came from."""
    trial_columns: list[str]
    """Names of the columns of every trial row."""
    cases: dict[str, CaseBaseline]
    """Per case name."""

    @model_validator(mode="after")
    def _columns(self) -> BaselineFile:
        if tuple(self.trial_columns) != TRIAL_COLUMNS:
            raise ValueError(f"trial_columns must be {list(TRIAL_COLUMNS)}")
        if not self.cases:
            raise ValueError("cases: none (an empty baseline gates nothing)")
        return self


def _state(f: FactState) -> str:
    state = f.leaf
    if f.lost:
        state += f"/{'loud' if f.loud else 'silent'}@{f.blame_level or ''}"
    return state + (f"~inverted@{f.inverted_at}" if f.inverted_at else "")


def _row(t: TrialOutcome) -> list[Any]:
    flags = [int(t.collapsed), int(t.silent), int(t.loud), int(t.error)]
    flags += [int(t.over_budget), int(t.stopped)]
    counts = [t.tokens_read, t.tokens_emitted, t.tokens_unread, t.pin_tokens, t.calls]
    states = [_state(f) for f in t.facts]
    return [t.trial, *flags, *counts, t.floor_retries, t.budget_retries, t.blame_level, states]


def _outcome(r: TrialRow, facts: list[tuple[str, str]]) -> TrialOutcome:
    states = []
    for (fact_id, cls), state in zip(facts, r[-1], strict=False):
        m = _STATE.match(state)
        assert m is not None  # validated by the model
        lost, loud, blame, inverted = bool(m[2]), m[2] == "loud", m[3] or None, m[4] or None
        states.append(FactState(fact_id, cls, m[1], lost, loud, blame, inverted))
    return TrialOutcome(
        trial=r[0],
        collapsed=r[1],
        silent=r[2],
        loud=r[3],
        error=r[4],
        over_budget=r[5],
        stopped=r[6],
        tokens_read=r[7],
        tokens_emitted=r[8],
        tokens_unread=r[9],
        pin_tokens=r[10],
        calls=r[11],
        floor_retries=r[12],
        budget_retries=r[13],
        blame_level=r[14],
        facts=tuple(states),
    )


def _fact_table(case: CaseOutcomes) -> list[list[Any]]:
    table: dict[int, list[list[str]]] = {}
    for trials in case.trials.values():
        for t in trials:
            if not t.error:
                table.setdefault(t.trial, [[f.fact_id, f.cls] for f in t.facts])
    return [[i, table[i]] for i in sorted(table)]


def to_document(outcomes: SuiteOutcomes) -> dict[str, Any]:
    """The baseline as plain JSON data (validated by BaselineFile on the way out)."""
    cases = {}
    for name, case in outcomes.cases.items():
        cases[name] = {
            "version": case.version,
            "spec": dict(case.spec),
            "references": list(case.references),
            "summary": case.summaries(),
            "facts": _fact_table(case),
            "trials": {k: [_row(t) for t in case.trials[k]] for k in case.gated},
        }
    doc = {
        "version": BASELINE_VERSION,
        "harness_version": outcomes.harness_version,
        "suite": {"name": outcomes.name, "version": outcomes.version},
        "source": {
            "run": str(outcomes.source.get("run", "")),
            "commit": outcomes.source.get("commit"),
        },
        "trial_columns": list(TRIAL_COLUMNS),
        "cases": cases,
    }
    BaselineFile.model_validate(doc)
    return doc


def render(doc: dict[str, Any]) -> str:
    """Indented JSON with each trial row on one line: compact, and diffable by trial."""
    rows: list[str] = []

    def mark(row: Any) -> str:
        rows.append(json.dumps(row, separators=(",", ":"), ensure_ascii=False))
        return f"\x00{len(rows) - 1}\x00"

    for case in doc["cases"].values():
        case["facts"] = [mark(r) for r in case["facts"]]
        for key, trials in case["trials"].items():
            case["trials"][key] = [mark(r) for r in trials]
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    return _MARK.sub(lambda m: rows[int(m[1])], text) + "\n"


def write_baseline(outcomes: SuiteOutcomes, path: Path) -> int:
    """Write atomically; returns the size in bytes."""
    text = render(to_document(outcomes))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"))
    return len(text.encode("utf-8"))


def read_baseline(path: str | Path) -> SuiteOutcomes:
    """Read and validate a baseline; every problem is a one-line BaselineError."""
    p = Path(path)
    raw = read_capped(p, "baseline", BaselineError, MAX_BASELINE_BYTES)
    try:
        data = parse_json(raw)
    except DataError as exc:
        if exc.position is None:  # nested too deeply, an integer out of range
            why = "not valid JSON: nested too deeply" if "nested" in str(exc) else str(exc)
            raise BaselineError(f"{p}: {why}") from None
        where = f" at line {exc.position[0]} column {exc.position[1]}" if exc.position[0] else ""
        raise BaselineError(
            f"{p}: not valid JSON{where}: the baseline is truncated or corrupted; restore it "
            "from version control or write it again with `compsim baseline update`"
        ) from None
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise BaselineError(f"{p}: version: missing or not an integer (got {version!r})")
    if version > BASELINE_VERSION:
        raise BaselineError(
            f"{p}: version: baseline schema {version} is newer than this compaction-sim reads "
            f"(up to {BASELINE_VERSION}); upgrade compaction-sim"
        )
    if version == 1:
        raise BaselineError(
            f"{p}: version: baseline schema 1 counted a trial both silent and loud and has no "
            "over_budget column, so it cannot be compared; rebuild it from a run with "
            "`compsim baseline update RUN --name NAME`"
        )
    if version < 1:
        raise BaselineError(f"{p}: version: unknown baseline schema {version}")
    try:
        doc = BaselineFile.model_validate(data)
    except ValidationError as exc:
        errs = exc.errors()
        err = errs[0]
        loc = ".".join(str(x) for x in err["loc"])
        value = err.get("input")
        shown = "" if isinstance(value, dict | list) else f" (got {repr(value)[:60]})"
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        msg = str(err["msg"]).removeprefix("Value error, ")
        where = f"{loc}: " if loc else ""  # a file-wide check names its own field
        raise BaselineError(f"{p}: {where}{msg}{shown}{more}") from None
    cases = {}
    for name, c in doc.cases.items():
        table = {t: facts for t, facts in c.facts}
        trials = {
            k: tuple(_outcome(r, table.get(r[0], [])) for r in rows) for k, rows in c.trials.items()
        }
        refs = tuple(c.references)
        cases[name] = CaseOutcomes(name, c.version, c.spec, trials, refs, c.summary)
    source = doc.source.model_dump()
    return SuiteOutcomes(doc.suite.name, doc.suite.version, doc.harness_version, cases, source)
