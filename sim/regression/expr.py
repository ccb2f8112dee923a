"""Gate expressions and the metrics they name.

    metric[selector,...]:+threshold      an absolute worsening allowed, e.g. collapse_rate:+0.02
    metric[selector,...]:+threshold%     relative to the baseline value, e.g. tokens_emitted:+5%

Selectors narrow the comparison: a constraint class (`prohibition`, or `*` for one check per
class present), `strategy=NAME` (a key or a registry name) and `case=NAME`. Every metric is
"higher is worse", so a threshold is the worsening the gate tolerates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from sim.errors import UserError
from sim.grading.outcomes import FactState, TrialOutcome


class GateError(UserError):
    """A gate expression, or a comparison, that cannot be evaluated as asked."""


Kind = Literal["rate", "count"]


@dataclass(frozen=True, slots=True)
class Metric:
    """A per-trial quantity. Rates are tested for significance (McNemar, Newcombe); counts are
    deterministic for fixed seeds, so their mean difference is compared as it is."""

    name: str
    kind: Kind
    doc: str
    trial: Callable[[TrialOutcome], float]
    fact: Callable[[TrialOutcome, str], float | None] | None = None

    def value(self, t: TrialOutcome, cls: str | None) -> float | None:
        """The trial's value, or None when the trial has no live fact of class `cls`."""
        if cls is None:
            return self.trial(t)
        assert self.fact is not None
        return self.fact(t, cls)


def _per_class(
    test: Callable[[list[FactState]], bool],
) -> Callable[[TrialOutcome, str], float | None]:
    """The trial's value over its live facts of one class (None when it has none)."""

    def value(t: TrialOutcome, cls: str) -> float | None:
        facts = [f for f in t.facts if f.cls == cls]
        if not facts:
            return None
        return float(test(facts))

    return value


def _lost(facts: list[FactState]) -> list[FactState]:
    return [f for f in facts if f.lost]


def _silent(facts: list[FactState]) -> bool:
    return any(not f.loud for f in _lost(facts))


def _loud(facts: list[FactState]) -> bool:
    lost = _lost(facts)
    return bool(lost) and all(f.loud for f in lost)


def _count(attr: str, doc: str) -> Metric:
    return Metric(attr, "count", doc, lambda t: float(getattr(t, attr)))


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "collapse_rate",
            "rate",
            "trials where a live constraint ends below its recall floor at the leaf "
            "(= silent + loud)",
            lambda t: float(t.collapsed),
            _per_class(lambda fs: bool(_lost(fs))),
        ),
        Metric(
            "silent_collapse_rate",
            "rate",
            "collapsed, and the loss of some lost constraint was never raised or flagged",
            lambda t: float(t.silent),
            _per_class(_silent),
        ),
        Metric(
            "loud_failure_rate",
            "rate",
            "collapsed, and every lost constraint's loss was raised or flagged by a level",
            lambda t: float(t.loud),
            _per_class(_loud),
        ),
        Metric(
            "stopped_rate",
            "rate",
            "a level raised and the ladder stopped with nothing lost (not a collapse)",
            lambda t: float(t.stopped),
        ),
        Metric(
            "inverted_rate",
            "rate",
            "some level (any, not only the leaf) held a live constraint with its polarity flipped",
            lambda t: float(t.inverted),
            _per_class(lambda fs: any(f.inverted_at for f in fs)),
        ),
        Metric(
            "over_budget_rate",
            "rate",
            "trials where some level emitted more tokens than its budget",
            lambda t: float(t.over_budget),
        ),
        Metric(
            "error_rate",
            "rate",
            "trials that raised (left out of every other metric)",
            lambda t: float(t.error),
        ),
        _count("tokens_emitted", "tokens emitted over all levels, per trial"),
        _count("tokens_read", "tokens read over all levels, per trial"),
        _count("tokens_unread", "tokens never read (budget-open tails), per trial"),
        _count("pin_tokens", "tokens spent on pinned facts, per trial"),
        _count("calls", "summarizer calls per trial"),
        Metric(
            "retries_per_trial",
            "count",
            "floor and budget retries per trial",
            lambda t: float(t.retries),
        ),
    )
}

ALL_CLASSES = "*"
_EXPR = re.compile(r"^(?P<metric>[A-Za-z0-9_]+)(?:\[(?P<sel>[^\]]*)\])?:(?P<thr>.*)$")
_NUMBER = re.compile(r"^(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+))(?P<pct>%?)$")
_HINT = "expected metric:+0.02, metric:+5% or metric[class]:+0.00"


@dataclass(frozen=True, slots=True)
class GateExpr:
    """One parsed `--fail` expression."""

    text: str
    metric: Metric
    threshold: float
    percent: bool
    cls: str | None = None
    strategy: str | None = None
    case: str | None = None

    @property
    def label(self) -> str:
        """The metric with its class, as shown in every output row."""
        return f"{self.metric.name}[{self.cls}]" if self.cls else self.metric.name

    @property
    def threshold_text(self) -> str:
        return f"{self.threshold:+g}%" if self.percent else f"{self.threshold:+.3f}"


def _selectors(sel: str) -> list[str]:
    """Split on commas outside parentheses: `strategy=floor_gated(max_retries=1,sticky=False)`."""
    parts, depth, cur = [], 0, ""
    for ch in sel:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return [p for p in parts if p]


def parse_expr(text: str) -> GateExpr:
    """Parse one expression; every problem is a one-line GateError naming the expression."""
    where = f"--fail {text!r}"
    m = _EXPR.match(text.strip())
    if m is None:
        raise GateError(f"{where}: does not parse ({_HINT})")
    num = _NUMBER.match(m["thr"].strip())
    if num is None:
        raise GateError(f"{where}: threshold {m['thr']!r} is not a number ({_HINT})")
    name = m["metric"]
    metric = METRICS.get(name)
    if metric is None:
        raise GateError(f"{where}: unknown metric {name!r}; valid: {', '.join(METRICS)}")
    fields: dict[str, str | None] = {"cls": None, "strategy": None, "case": None}
    for part in _selectors(m["sel"] or ""):
        key, _, value = part.partition("=")
        key, value = (key.strip(), value.strip()) if value else ("class", key.strip())
        slot = {"class": "cls", "strategy": "strategy", "case": "case"}.get(key)
        if slot is None or not value:
            raise GateError(
                f"{where}: selector {part!r} is not a class, strategy=NAME or case=NAME"
            )
        if fields[slot] is not None:
            raise GateError(f"{where}: selector {key!r} given twice")
        fields[slot] = value
    if fields["cls"] is not None and metric.fact is None:
        raise GateError(
            f"{where}: metric {name!r} has no per-class breakdown; per class: "
            + ", ".join(k for k, v in METRICS.items() if v.fact is not None)
        )
    threshold = float(num["num"])
    return GateExpr(text.strip(), metric, threshold, bool(num["pct"]), **fields)


DEFAULT_GATE = (
    "silent_collapse_rate:+0.00",
    "silent_collapse_rate[*]:+0.00",
    "collapse_rate:+0.02",
    "over_budget_rate:+0.00",
    "tokens_emitted:+5%",
)
"""What `compsim check` gates on when no --fail is given."""
