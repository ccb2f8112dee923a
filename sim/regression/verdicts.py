"""The gate's output: a terminal table, Markdown for a CI job summary, or JSON. Each lists
every check, then one sentence per failing or undecided check, then the reference baselines
(not gated) so a regression can be read against "do nothing" and "keep everything"."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import Any

from sim.grading.outcomes import SuiteOutcomes, base_name
from sim.regression.check import Check, GateReport
from sim.regression.paired import EPS, MAX_TRIALS, Verdict
from sim.report.escape import md, term
from sim.report.fit import WIDTH, fit
from sim.report.rates import pct, pp, pp_ci

HEAD = ("verdict", "check", "strategy", "baseline", "candidate", "change", "CI")
HEAD_TAIL = ("threshold", "p", "test", "trials")
REFERENCE_FIELDS = ("collapse_rate", "silent_collapse_rate", "tokens_emitted")


def _num(check: Check, v: float, sign: bool = False) -> str:
    """A rate as a percentage, a change of a rate in percentage points (sim.report.rates);
    a count (tokens, retries) with one decimal."""
    if check.expr.metric.kind == "rate":
        return pp(v) if sign else pct(v)
    return f"{v:+.1f}" if sign else f"{v:.1f}"


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def threshold_text(check: Check) -> str:
    if check.expr.percent:
        return f"{check.expr.threshold:+g}% ({_num(check, check.threshold, True)})"
    return _num(check, check.threshold, True)


def trials_text(check: Check) -> str:
    o = check.outcome
    if check.expr.metric.kind == "count" or check.paired:
        return f"{o.n_cand} paired" if check.paired else str(o.n_cand)
    return f"{o.n_base} vs {o.n_cand}"


def interval(check: Check) -> str:
    o = check.outcome
    if o.lo is None or o.hi is None:
        return "-"
    if check.expr.metric.kind == "rate":
        return pp_ci(o.lo, o.hi)
    return f"[{_num(check, o.lo, True)}, {_num(check, o.hi, True)}]"


def evidence(check: Check, alpha: float) -> str:
    """The test behind a verdict, in words."""
    o = check.outcome
    scope = ""
    if check.cls:
        scope = f" with {'an' if check.cls[0] in 'aeiou' else 'a'} {check.cls} constraint"
    if o.test == "difference":
        return f"difference of means over {trials_text(check)} trials"
    if o.p is not None:
        p = _p(o.p)
        p = p if p.startswith("<") else f"={p}"
        return f"p{p}, {o.test} on {trials_text(check)} trials{scope}"
    level = f"{100 * (1 - alpha):g}%"
    return f"{level} CI {interval(check)}, {o.test} on {trials_text(check)} trials{scope}"


def levels_text(check: Check) -> str:
    """inverted_rate's diagnosis: where the rules were first reversed, per level."""
    if not check.by_level:
        return ""
    cand = ", ".join(f"{lv} in {c}" for lv, _, c in check.by_level)
    base = ", ".join(f"{lv} in {b}" for lv, b, _ in check.by_level)
    return f"; first inverted at {cand} trials (baseline: {base})"


def message(check: Check, alpha: float) -> str:
    """One sentence for a failing or undecided check (what the exact-message tests read)."""
    return _message(check, alpha) + levels_text(check)


def _message(check: Check, alpha: float) -> str:
    o = check.outcome
    who = f"{check.label} for {check.strategy}"
    if check.strategy != check.baseline_strategy:
        who += f" (baseline {check.baseline_strategy})"
    if not o.n_cand or not o.n_base:
        return f"{who}: no trials to compare"
    above = o.diff > check.threshold + EPS
    head = (
        f"{who}: {_num(check, o.base)} -> {_num(check, o.cand)} "
        f"({_num(check, o.diff, True)} {'>' if above else '<='} {threshold_text(check)}"
    )
    if o.verdict is not Verdict.INCONCLUSIVE:
        return f"{head}; {evidence(check, alpha)})"
    why = "but not significant" if above else "but the interval reaches over it"
    if o.needed is not None:
        more = f"≈{o.needed - o.n_cand} more trials would decide it ({o.needed} in all)"
    elif abs(o.diff - check.threshold) <= EPS:
        more = "the change sits on the threshold: no number of trials decides it at these rates"
    else:
        more = f"more than {MAX_TRIALS:,} trials would be needed to decide it"
    return f"{head} {why}: {evidence(check, alpha)}); {more}"


def _row(check: Check) -> list[str]:
    o = check.outcome
    return [
        o.verdict.value,
        check.label,
        check.strategy,
        _num(check, o.base),
        _num(check, o.cand),
        _num(check, o.diff, True),
        interval(check),
        threshold_text(check),
        _p(o.p),
        o.test,
        trials_text(check),
    ]


def references(base: SuiteOutcomes, cand: SuiteOutcomes) -> list[dict[str, Any]]:
    """Each reference strategy's headline numbers over all cases, candidate and baseline."""

    def pooled(side: SuiteOutcomes, name: str, f: str) -> float | None:
        pairs = [
            (s["trials"], s[f])
            for case in side.cases.values()
            for k, s in case.summaries().items()
            if base_name(k) == name and s.get("trials")
        ]
        total = sum(n for n, _ in pairs)
        return round(sum(n * v for n, v in pairs) / total, 6) if total else None

    names = dict.fromkeys(r for c in cand.cases.values() for r in c.references)
    rows = [
        {"strategy": n}
        | {f: pooled(cand, n, f) for f in REFERENCE_FIELDS}
        | {f"baseline_{f}": pooled(base, n, f) for f in REFERENCE_FIELDS}
        for n in names
    ]
    return [r for r in rows if any(v is not None for k, v in r.items() if k != "strategy")]


def _ref_rows(refs: Sequence[dict[str, Any]]) -> list[list[str]]:
    def cell(r: dict[str, Any], f: str) -> str:
        c, b = r[f], r[f"baseline_{f}"]
        if f == "tokens_emitted":
            show = [("-" if v is None else f"{v:.1f}") for v in (c, b)]
        else:
            show = [pct(v) for v in (c, b)]
        return f"{show[0]} (baseline {show[1]})"

    return [[r["strategy"], *(cell(r, f) for f in REFERENCE_FIELDS)] for r in refs]


def _head(report: GateReport) -> list[str]:
    return [*HEAD[:-1], f"{100 * (1 - report.alpha):g}% CI", *HEAD_TAIL]


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    rows = [[term(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    return [*(s.rstrip() for s in lines), *(fmt.format(*r).rstrip() for r in rows)]


def summary_line(report: GateReport) -> str:
    n = len(report.checks)
    bad = sum(c.verdict is Verdict.REGRESSED for c in report.checks)
    open_ = sum(c.verdict is Verdict.INCONCLUSIVE for c in report.checks)
    parts = [f"{bad} of {n} checks regressed", f"{open_} inconclusive"]
    if report.missing:
        parts.append(f"{len(report.missing)} missing from the candidate")
    if report.ungated:
        parts.append(f"{len(report.ungated)} without a baseline")
    if not report.checks:
        parts.append("nothing compared")
    return f"gate: {report.verdict.value}: {', '.join(parts)} (exit {report.exit_code})"


def findings(report: GateReport) -> list[str]:
    out = [
        f"{c.verdict.value}: {message(c, report.alpha)}"
        for c in report.checks
        if c.verdict is not Verdict.PASS
    ]
    return out + [f"INCONCLUSIVE: {m}" for m in report.undecided]


_WIDE_ONLY = ("p", "test")
"""Columns the terminal table shows only with --wide (the findings' sentences give both for
every check that did not pass)."""


def _strategy_heading(checks: Sequence[Check]) -> str:
    c = checks[0]
    other = f" (baseline {c.baseline_strategy})" if c.baseline_strategy != c.strategy else ""
    return f"strategy {c.strategy}{other}:"


def render_text(
    report: GateReport, refs: Sequence[dict[str, Any]], title: str, *, wide: bool = False
) -> str:
    """The gate for a terminal: per strategy under test, its checks as a table fitted to 100
    columns (sim.report.fit; `wide`: every column, however wide), then the sentences."""
    head = _head(report)
    width = None if wide else WIDTH
    drop = {head.index("strategy"), *(() if wide else (head.index(h) for h in _WIDE_ONLY))}
    keep = [i for i in range(len(head)) if i not in drop]
    lines = [*textwrap.wrap(term(title), width or 10**9, subsequent_indent="  "), ""]
    groups: dict[str, list[Check]] = {}
    for c in report.checks:
        groups.setdefault(c.strategy, []).append(c)
    for k, checks in enumerate(groups.values()):
        if k:
            lines.append("")
        lines += textwrap.wrap(term(_strategy_heading(checks)), width or 10**9)
        rows = [[r[i] for i in keep] for r in map(_row, checks)]
        lines += fit([head[i] for i in keep], rows, 2, width or 10**9).splitlines()
    if not report.checks:
        lines.append("(no checks)")
    if found := findings(report):
        lines += ["", *(term(f) for f in found)]
    if refs:
        lines += ["", "references (not gated; pooled over cases):"]
        ref_head = ["strategy", "collapse", "silent", "tokens emitted"]
        lines += fit(ref_head, _ref_rows(refs), 1, width or 10**9).splitlines()
    return "\n".join([*lines, "", summary_line(report)])


def render_markdown(report: GateReport, refs: Sequence[dict[str, Any]], title: str) -> str:
    head = _head(report)

    def md_table(h: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
        out = ["| " + " | ".join(md(c) for c in h) + " |", "|" + "---|" * len(h)]
        return out + ["| " + " | ".join(md(c) for c in r) + " |" for r in rows]

    lines = [f"### compaction-sim gate: {report.verdict.value}", "", md(title), ""]
    lines += md_table(head, [_row(c) for c in report.checks])
    if found := findings(report):
        lines += ["", *(f"- **{f.split(':', 1)[0]}**:{md(f.split(':', 1)[1])}" for f in found)]
    if report.warnings:
        lines += ["", "Warnings:", "", *(f"- {md(w)}" for w in report.warnings)]
    if refs:
        lines += ["", "References (not gated; pooled over cases):", ""]
        lines += md_table(["strategy", "collapse", "silent", "tokens emitted"], _ref_rows(refs))
    return "\n".join([*lines, "", summary_line(report)])


def render_json(report: GateReport, refs: Sequence[dict[str, Any]], title: str) -> str:
    checks = []
    for c in report.checks:
        o = c.outcome
        checks.append(
            {
                "expr": c.expr.text,
                "check": c.label,
                "strategy": c.strategy,
                "baseline_strategy": c.baseline_strategy,
                "verdict": o.verdict.value,
                "baseline": o.base,
                "candidate": o.cand,
                "change": o.diff,
                "ci": None if o.lo is None else [o.lo, o.hi],
                "threshold": c.threshold,
                "p": o.p,
                "test": o.test,
                "paired": c.paired,
                "trials_baseline": o.n_base,
                "trials_candidate": o.n_cand,
                "trials_needed": o.needed,
                "cases": list(c.cases),
                "message": None if o.verdict is Verdict.PASS else message(c, report.alpha),
            }
        )
    doc = {
        "verdict": report.verdict.value,
        "exit_code": report.exit_code,
        "title": title,
        "alpha": report.alpha,
        "checks": checks,
        "missing": list(report.missing),
        "ungated": list(report.ungated),
        "warnings": list(report.warnings),
        "references": list(refs),
    }
    return json.dumps(doc, indent=2)
