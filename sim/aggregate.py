"""Per-strategy aggregates from trial rows (sim.records): the numbers every table, plot and
gate is built from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from sim.stats import wilson

RATES = ("collapsed", "silent", "loud")


def trials_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """One row per trial, the nested levels/facts left out."""
    flat = [
        {k: v for k, v in r.items() if k not in ("levels", "facts", "violations")} for r in rows
    ]
    return pd.DataFrame(flat)


def summarize(rows: list[dict[str, Any]], by: str = "strategy") -> pd.DataFrame:
    """Rates with 95% Wilson intervals, retries, tokens per trial and the usual blame level."""
    df = trials_frame(rows)
    if df.empty:
        return pd.DataFrame()
    out = []
    for key, g in df.groupby(by, sort=False):
        n = len(g)
        rec: dict[str, Any] = {by: key, "trials": n}
        for rate in RATES:
            k = int(g[rate].sum())
            lo, hi = wilson(k, n)
            rec[f"{rate}_rate"] = k / n
            rec[f"{rate}_lo"], rec[f"{rate}_hi"] = lo, hi
        rec["retries_per_trial"] = float((g["floor_retries"] + g["budget_retries"]).mean())
        for col in ("tokens_read", "tokens_emitted", "tokens_unread", "pin_tokens", "calls"):
            rec[col] = float(g[col].mean())
        blame = g["blame_level"].dropna()
        rec["blame_level"] = str(blame.mode().iloc[0]) if len(blame) else "-"
        out.append(rec)
    return pd.DataFrame(out)


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def format_table(summary: pd.DataFrame, by: str = "strategy") -> str:
    """Aligned terminal table: rates with their 95% interval, then cost."""
    if summary.empty:
        return "(no trials)"
    head = [
        by,
        "trials",
        "collapse [95% CI]",
        "silent [95% CI]",
        "loud [95% CI]",
        "retries/trial",
        "read",
        "emitted",
        "never read",
        "blame",
    ]
    lines = []
    for _, r in summary.iterrows():
        lines.append(
            [
                str(r[by]),
                str(int(r["trials"])),
                *(
                    f"{_pct(r[f'{x}_rate'])} [{_pct(r[f'{x}_lo'])},{_pct(r[f'{x}_hi'])}]"
                    for x in RATES
                ),
                f"{r['retries_per_trial']:.2f}",
                f"{r['tokens_read']:.0f}",
                f"{r['tokens_emitted']:.0f}",
                f"{r['tokens_unread']:.0f}",
                str(r["blame_level"]),
            ]
        )
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return "\n".join(
        [
            fmt.format(*head),
            fmt.format(*("-" * w for w in widths)),
            *(fmt.format(*row) for row in lines),
        ]
    )
