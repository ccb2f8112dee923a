"""What a reader is told first: the worst cells, ranked, and nothing that is not a finding.

A finding is a cell × strategy whose trials collapsed silently. The reference baselines
(`empty`, `head`, `tail`, `keep_all`: "do nothing", the truncations, "keep everything") are
there to read the others against, so they are never listed as findings. Ranked by silent
rate, then by the interval's lower bound (more trials behind the same rate rank higher), then
by collapse rate; a sweep's headline shows the first few and says how many more there are.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import pandas as pd

from sim.grading.outcomes import REFERENCES, base_name
from sim.report.fit import WIDTH
from sim.report.rates import pct_ci

SHOWN = 5
"""Findings a headline lists; the rest are counted."""


def is_reference(strategy: str) -> bool:
    return base_name(str(strategy)) in REFERENCES


@dataclass(frozen=True, slots=True)
class Finding:
    cell: str
    strategy: str
    silent_rate: float
    silent_lo: float
    silent_hi: float
    collapsed_rate: float
    trials: int

    def text(self) -> str:
        where = f" at {self.cell}" if self.cell else ""
        ci = pct_ci(self.silent_rate, self.silent_lo, self.silent_hi)
        return f"{self.strategy}{where}: silent {ci} of {self.trials} trials"


def findings(summary: pd.DataFrame) -> list[Finding]:
    """Every cell × strategy (baselines aside) with a silent collapse, worst first."""
    if summary.empty:
        return []
    out = []
    for order, r in enumerate(summary.to_dict("records")):
        rate = float(r.get("silent_rate") or 0.0)
        if rate > 0 and not is_reference(r["strategy"]) and int(r.get("trials") or 0):
            f = Finding(
                str(r.get("cell") or ""),
                str(r["strategy"]),
                rate,
                float(r.get("silent_lo") or 0.0),
                float(r.get("silent_hi") or 0.0),
                float(r.get("collapsed_rate") or 0.0),
                int(r["trials"]),
            )
            out.append((-f.silent_rate, -f.silent_lo, -f.collapsed_rate, order, f))
    return [f for *_, f in sorted(out, key=lambda t: t[:4])]


def references_seen(summary: pd.DataFrame) -> list[str]:
    if summary.empty:
        return []
    return [str(s) for s in dict.fromkeys(summary["strategy"]) if is_reference(str(s))]


def headline_lines(summary: pd.DataFrame, shown: int = SHOWN) -> list[str]:
    """The headline as plain lines (the terminal's; the HTML report builds the same list)."""
    if summary.empty:
        return ["No trials."]
    found = findings(summary)
    refs = references_seen(summary)
    note = f" (baselines {', '.join(refs)} are not ranked)" if refs else ""
    if not found:
        return [f"No silent collapse{' outside the baselines' if refs else ''}.{note}"]
    lines = textwrap.wrap(f"Worst silent collapse, ranked{note}:", WIDTH)
    for i, f in enumerate(found[:shown], 1):
        lines += textwrap.wrap(f"{i:>2}. {f.text()}", WIDTH, subsequent_indent="    ")
    if len(found) > shown:
        lines.append(f"    and {len(found) - shown} more with silent collapse (--only-failures)")
    return lines


def failing(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows `--only-failures` keeps: a strategy under test (not a baseline) that
    collapsed, silently or loudly, or whose trials raised."""
    if summary.empty:
        return summary
    bad = (summary["collapsed_rate"].fillna(0) > 0) | (summary["errors"].fillna(0) > 0)
    keep = bad & ~summary["strategy"].map(is_reference)
    return summary[keep].reset_index(drop=True)


def pairs(df: pd.DataFrame) -> set[tuple[str, str]]:
    return set(zip(df["cell"].astype(str), df["strategy"].astype(str), strict=True))


def keep_pairs(df: pd.DataFrame, keep: set[tuple[str, str]]) -> pd.DataFrame:
    if df.empty:
        return df
    mask = [(str(c), str(s)) in keep for c, s in zip(df["cell"], df["strategy"], strict=True)]
    return df[mask].reset_index(drop=True)


__all__ = [
    "Finding",
    "failing",
    "findings",
    "headline_lines",
    "is_reference",
    "keep_pairs",
    "pairs",
]
