"""The regression gate: a candidate suite run against a committed baseline, one check per
gate expression x strategy under test (x class for `[*]`), every failure listed.

Trials pair by (case, trial index) when the case's history spec is unchanged, so trial i saw
the same L0 on both sides; otherwise the comparison is unpaired, and says so. Strategies pair
by key, or by registry name when a changed argument changed the key. A case or strategy the
baseline gates but the candidate lacks, one under test that the baseline does not hold (a new
or renamed strategy would otherwise skip the gate), or a gate with no check at all cannot
pass: the gate is then inconclusive.
Exit codes: 0 pass, 1 regressed, 3 inconclusive (regressed beats inconclusive).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sim.grading.outcomes import SuiteOutcomes, base_name
from sim.regression.expr import ALL_CLASSES, GateError, GateExpr
from sim.regression.paired import Outcome, Sample, Verdict, compare_counts, compare_rates
from sim.regression.specdiff import spec_warnings
from sim.types import level_order


@dataclass(frozen=True, slots=True)
class Check:
    """One row of the gate's table."""

    expr: GateExpr
    cls: str | None
    strategy: str
    baseline_strategy: str
    cases: tuple[str, ...]
    paired: bool
    threshold: float
    outcome: Outcome
    by_level: tuple[tuple[str, int, int], ...] = ()
    """inverted_rate only: per level, the trials (baseline, candidate) whose first inversion
    of a rule (of the class, when one is named) happened there."""

    @property
    def label(self) -> str:
        return f"{self.expr.metric.name}[{self.cls}]" if self.cls else self.expr.metric.name

    @property
    def verdict(self) -> Verdict:
        return self.outcome.verdict


@dataclass(frozen=True, slots=True)
class GateReport:
    checks: tuple[Check, ...]
    alpha: float
    warnings: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = field(default=())
    ungated: tuple[str, ...] = ()
    """What the candidate runs under test that the baseline does not hold: never a pass."""

    @property
    def undecided(self) -> tuple[str, ...]:
        """Why the gate cannot pass apart from its checks, one line each."""
        empty = () if self.checks else ("no check was evaluated: nothing was compared",)
        return (*self.missing, *self.ungated, *empty)

    @property
    def verdict(self) -> Verdict:
        if any(c.verdict is Verdict.REGRESSED for c in self.checks):
            return Verdict.REGRESSED
        if self.undecided or any(c.verdict is Verdict.INCONCLUSIVE for c in self.checks):
            return Verdict.INCONCLUSIVE
        return Verdict.PASS

    @property
    def exit_code(self) -> int:
        return {Verdict.PASS: 0, Verdict.REGRESSED: 1, Verdict.INCONCLUSIVE: 3}[self.verdict]


def match_strategies(
    base: SuiteOutcomes, cand: SuiteOutcomes
) -> tuple[list[tuple[str, str]], list[str], list[str], list[str]]:
    """(candidate key, baseline key) pairs, warnings, baseline keys with no candidate, and
    candidate keys with no baseline."""
    bkeys = list(dict.fromkeys(k for c in base.cases.values() for k in c.gated))
    ckeys = list(dict.fromkeys(k for c in cand.cases.values() for k in c.gated))
    pairs = [(k, k) for k in ckeys if k in bkeys]
    left_b = [k for k in bkeys if k not in ckeys]
    left_c = [k for k in ckeys if k not in bkeys]
    warnings: list[str] = []
    for ck in list(left_c):
        same = [bk for bk in left_b if base_name(bk) == base_name(ck)]
        rivals = [k for k in left_c if base_name(k) == base_name(ck)]
        if len(same) == 1 and len(rivals) == 1:
            pairs.append((ck, same[0]))
            left_b.remove(same[0])
            left_c.remove(ck)
            warnings.append(f"strategy {ck} is compared with baseline strategy {same[0]}")
    pairs.sort(key=lambda p: ckeys.index(p[0]))  # the candidate's order, as in its tables
    return pairs, warnings, left_b, left_c


def _sample(
    base: SuiteOutcomes,
    cand: SuiteOutcomes,
    cases: Sequence[str],
    keys: tuple[str, str],
    expr: GateExpr,
    cls: str | None,
) -> Sample:
    ckey, bkey = keys
    paired = all(base.cases[c].history_spec() == cand.cases[c].history_spec() for c in cases)
    metric = expr.metric
    if paired:
        pairs = []
        for c in cases:
            bt = {t.trial: t for t in base.cases[c].trials.get(bkey, ())}
            for t in cand.cases[c].trials.get(ckey, ()):
                b = bt.get(t.trial)
                if b is None or (metric.name != "error_rate" and (b.error or t.error)):
                    continue
                vb, vc = metric.value(b, cls), metric.value(t, cls)
                if vb is not None and vc is not None:
                    pairs.append((vb, vc))
        return Sample.from_pairs(pairs)

    def values(side: SuiteOutcomes, key: str) -> tuple[float, ...]:
        out = []
        for c in cases:
            for t in side.cases[c].trials.get(key, ()):
                if t.error and metric.name != "error_rate":
                    continue
                v = metric.value(t, cls)
                if v is not None:
                    out.append(v)
        return tuple(out)

    return Sample(False, values(base, bkey), values(cand, ckey))


def _inversions(
    side: SuiteOutcomes, cases: Sequence[str], key: str, cls: str | None
) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in cases:
        for t in side.cases[c].trials.get(key, ()):
            if t.error:
                continue
            levels = {f.inverted_at for f in t.facts if f.inverted_at and cls in (None, f.cls)}
            for level in levels:
                counts[level] = counts.get(level, 0) + 1
    return counts


def _by_level(
    base: SuiteOutcomes,
    cand: SuiteOutcomes,
    cases: Sequence[str],
    keys: tuple[str, str],
    cls: str | None,
) -> tuple[tuple[str, int, int], ...]:
    b, c = _inversions(base, cases, keys[1], cls), _inversions(cand, cases, keys[0], cls)
    levels = sorted(set(b) | set(c), key=level_order)
    return tuple((lv, b.get(lv, 0), c.get(lv, 0)) for lv in levels)


def _classes(side: SuiteOutcomes, cases: Sequence[str], key: str) -> set[str]:
    return {f.cls for c in cases for t in side.cases[c].trials.get(key, ()) for f in t.facts}


def _check(
    base: SuiteOutcomes,
    cand: SuiteOutcomes,
    expr: GateExpr,
    cls: str | None,
    keys: tuple[str, str],
    cases: tuple[str, ...],
    alpha: float,
) -> Check:
    sample = _sample(base, cand, cases, keys, expr, cls)
    threshold = expr.threshold
    if expr.percent:
        ref = sum(sample.base) / len(sample.base) if sample.base else 0.0
        if ref == 0:
            label = f"{expr.metric.name}[{cls}]" if cls else expr.metric.name
            raise GateError(
                f"--fail {expr.text!r}: the baseline {label} of {keys[1]} is 0, so a "
                f"percentage threshold is undefined; use an absolute one, e.g. {label}:+0.02"
            )
        threshold = ref * expr.threshold / 100
    if expr.metric.kind == "count":
        outcome = compare_counts(sample, threshold)
    else:
        outcome = compare_rates(sample, threshold, alpha)
    by_level = (
        _by_level(base, cand, cases, keys, cls) if expr.metric.name == "inverted_rate" else ()
    )
    return Check(expr, cls, keys[0], keys[1], cases, sample.paired, threshold, outcome, by_level)


def run_gate(
    base: SuiteOutcomes, cand: SuiteOutcomes, exprs: Sequence[GateExpr], alpha: float = 0.05
) -> GateReport:
    """Evaluate every expression for every strategy under test; never stops at a failure."""
    pairs, warnings, lost, new = match_strategies(base, cand)
    warnings = spec_warnings(base, cand) + warnings
    shared = [c for c in base.cases if c in cand.cases]
    missing = [
        f"case {c} is in the baseline but not in the candidate run"
        for c in base.cases
        if c not in cand.cases
    ]
    missing += [f"strategy {k} is in the baseline but not in the candidate run" for k in lost]
    to_cand = {b: c for c, b in pairs}
    missing += [
        f"strategy {k} of case {c} is in the baseline but not in the candidate run"
        for c in shared
        for k in base.cases[c].gated
        if k in to_cand and to_cand[k] not in cand.cases[c].trials
    ]
    update = "record it with `compsim baseline update RUN --name NAME` once reviewed"
    ungated = [f"strategy {k} has no baseline, so it is not gated; {update}" for k in new]
    ungated += [
        f"case {c} has no baseline, so it is not gated; {update}"
        for c in cand.cases
        if c not in base.cases and cand.cases[c].gated
    ]
    checks: list[Check] = []
    for expr in exprs:
        cases = tuple(shared)
        if expr.case is not None:
            if expr.case not in shared:
                raise GateError(
                    f"--fail {expr.text!r}: no case {expr.case!r} in both runs; "
                    f"cases: {', '.join(shared) or '(none)'}"
                )
            cases = (expr.case,)
        chosen = pairs
        if expr.strategy is not None:
            chosen = [p for p in pairs if expr.strategy in (p[0], p[1], base_name(p[0]))]
            if not chosen:
                valid = ", ".join(p[0] for p in pairs) or "(none)"
                raise GateError(
                    f"--fail {expr.text!r}: no strategy {expr.strategy!r} under test in both "
                    f"runs; strategies: {valid}"
                )
        for keys in chosen:
            present = sorted(_classes(base, cases, keys[1]) | _classes(cand, cases, keys[0]))
            classes: list[str | None] = [expr.cls]
            if expr.cls == ALL_CLASSES:
                classes = list(present)
            elif expr.cls is not None and expr.cls not in present:
                raise GateError(
                    f"--fail {expr.text!r}: no constraint of class {expr.cls!r} in these runs; "
                    f"classes: {', '.join(present) or '(none)'}"
                )
            for cls in classes:
                checks.append(_check(base, cand, expr, cls, keys, cases, alpha))
    return GateReport(
        tuple(checks), alpha, tuple(warnings), tuple(missing), tuple(pairs), tuple(ungated)
    )
