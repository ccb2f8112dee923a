"""Per-trial outcomes, the compact shape a paired gate needs: what a baseline file keeps and
what a candidate run is reduced to before the two are compared.

One trial is kept per (case, strategy, trial index); trial index i of a case sees the same L0
history on both sides when the case's history spec is unchanged, which is what makes the
comparison paired. Superseded facts are left out: they may vanish without loss, so no metric
counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

REFERENCES = ("empty", "head", "tail", "keep_all")
"""Strategies every suite case runs beside the ones under test (never gated): "do nothing",
the two truncations, and "keep everything"."""

INVERTED = "inverted"
HISTORY_KEYS = ("seed", "tokenizer", "history", "constraints")
"""The scenario keys that decide trial i's L0 history; equal on both sides means paired."""


@dataclass(frozen=True, slots=True)
class FactState:
    """A live fact's fate at the leaf, and the first level that inverted it (a rule reversed at
    L1 and dropped at L2 ends `dropped`, but a level handed the agent the reversed rule)."""

    fact_id: str
    cls: str
    leaf: str
    lost: bool
    loud: bool
    blame_level: str | None
    inverted_at: str | None = None


@dataclass(frozen=True, slots=True)
class TrialOutcome:
    """One strategy on one trial index: the rates' inputs and the deterministic counts.
    `silent` and `loud` split `collapsed`; `stopped` is a loud stop that lost nothing."""

    trial: int
    collapsed: bool
    silent: bool
    loud: bool
    error: bool
    tokens_read: int
    tokens_emitted: int
    tokens_unread: int
    pin_tokens: int
    calls: int
    floor_retries: int
    budget_retries: int
    blame_level: str | None
    facts: tuple[FactState, ...] = ()
    over_budget: bool = False
    stopped: bool = False

    @property
    def inverted(self) -> bool:
        """A level (any, not only the leaf) held a live rule reversed."""
        return any(f.inverted_at for f in self.facts)

    @property
    def retries(self) -> int:
        return self.floor_retries + self.budget_retries


@dataclass(frozen=True, slots=True)
class CaseOutcomes:
    """One suite case (or one run cell): its resolved scenario and every strategy's trials,
    sorted by trial index."""

    name: str
    version: int
    spec: Mapping[str, Any]
    trials: Mapping[str, tuple[TrialOutcome, ...]]
    references: tuple[str, ...] = REFERENCES
    summary: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    @property
    def gated(self) -> list[str]:
        """Strategy keys under test: everything but the reference baselines."""
        return [k for k in self.trials if base_name(k) not in self.references]

    def summaries(self) -> dict[str, dict[str, float]]:
        """Per strategy summary, in the stored order: computed from trials where present, else
        as stored (a baseline keeps only the summary of its reference strategies)."""
        out = {k: dict(v) for k, v in self.summary.items()}
        out.update({k: summarize_trials(v) for k, v in self.trials.items()})
        return out

    def history_spec(self) -> dict[str, Any]:
        return {k: self.spec.get(k) for k in HISTORY_KEYS}


@dataclass(frozen=True, slots=True)
class SuiteOutcomes:
    """Everything a gate compares: a suite run, a single run, or a baseline file."""

    name: str
    version: int
    harness_version: str
    cases: Mapping[str, CaseOutcomes]
    source: Mapping[str, Any] = field(default_factory=dict)


SUMMARY_FIELDS = (
    "trials",
    "errors",
    "collapse_rate",
    "silent_collapse_rate",
    "loud_failure_rate",
    "stopped_rate",
    "over_budget_rate",
    "retries_per_trial",
    "tokens_read",
    "tokens_emitted",
)


def summarize_trials(trials: Iterable[TrialOutcome]) -> dict[str, float]:
    """The headline numbers of one strategy, rounded so that files diff cleanly."""
    all_ = list(trials)
    ok = [t for t in all_ if not t.error]
    n = len(ok)

    def mean(xs: Iterable[float]) -> float:
        return round(sum(xs) / n, 6) if n else 0.0

    return {
        "trials": n,
        "errors": len(all_) - n,
        "collapse_rate": mean(t.collapsed for t in ok),
        "silent_collapse_rate": mean(t.silent for t in ok),
        "loud_failure_rate": mean(t.loud for t in ok),
        "stopped_rate": mean(t.stopped for t in ok),
        "over_budget_rate": mean(t.over_budget for t in ok),
        "retries_per_trial": mean(t.retries for t in ok),
        "tokens_read": mean(t.tokens_read for t in ok),
        "tokens_emitted": mean(t.tokens_emitted for t in ok),
    }


def base_name(key: str) -> str:
    """`floor_gated(max_retries=1)` -> `floor_gated`."""
    return key.split("(", 1)[0]


def trial_outcome(row: Mapping[str, Any]) -> TrialOutcome:
    """Reduce one trials.jsonl row (sim.runs.records.trial_row) to what the gate needs."""
    names = [str(lv.get("name")) for lv in row.get("levels") or ()]
    facts = tuple(
        FactState(
            str(f["fact_id"]),
            str(f["cls"]),
            str(f["leaf"]),
            bool(f["lost"]),
            bool(f["loud"]),
            f.get("blame_level"),
            next(
                (n for n, g in zip(names, f.get("grades") or (), strict=False) if g == INVERTED),
                None,
            ),
        )
        for f in row.get("facts") or ()
        if not f.get("superseded")
    )
    return TrialOutcome(
        trial=int(row["trial"]),
        collapsed=bool(row.get("collapsed")),
        silent=bool(row.get("silent")),
        loud=bool(row.get("loud")),
        error=bool(row.get("error")),
        tokens_read=int(row.get("tokens_read") or 0),
        tokens_emitted=int(row.get("tokens_emitted") or 0),
        tokens_unread=int(row.get("tokens_unread") or 0),
        pin_tokens=int(row.get("pin_tokens") or 0),
        calls=int(row.get("calls") or 0),
        floor_retries=int(row.get("floor_retries") or 0),
        budget_retries=int(row.get("budget_retries") or 0),
        blame_level=row.get("blame_level"),
        facts=facts,
        over_budget=bool(row.get("over_budget")),
        stopped=bool(row.get("stopped")),
    )


def group_rows(rows: Iterable[Mapping[str, Any]]) -> dict[str, tuple[TrialOutcome, ...]]:
    """Rows of one case -> per strategy key, trials sorted by index (file order is completion
    order, which depends on the worker count). Loaders refuse a file that repeats a trial
    (sim.runs.unit_check), so one row per key is what arrives here."""
    by: dict[str, dict[int, TrialOutcome]] = {}
    for row in rows:
        out = trial_outcome(row)
        by.setdefault(str(row["strategy"]), {})[out.trial] = out
    return {k: tuple(v[i] for i in sorted(v)) for k, v in by.items()}
