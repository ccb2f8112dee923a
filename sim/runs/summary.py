"""summary.json / summary.csv: per cell x strategy aggregates, computed by streaming.

The driver never holds a run's rows: it re-reads trials.jsonl once and folds every row into
exact accumulators (integer counts, `Fraction` sums), so the result does not depend on the
order rows were appended in — byte-identical across --jobs and after a resume — and memory
stays flat however many trials ran. Columns match sim.report.aggregate.summarize, so the terminal
table (sim.report.tables.format_table) prints either.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pandas as pd

from sim.runs.records import PLAIN_RATES, RATES, TOKEN_COLUMNS, retry_tokens
from sim.runs.stats import wilson

SUMMARY_VERSION = 1


@dataclass(slots=True)
class _Group:
    trials: int = 0
    errors: int = 0
    rates: Counter[str] = field(default_factory=Counter)
    retries: int = 0
    tokens: Counter[str] = field(default_factory=Counter)
    retry_tokens: Fraction = Fraction(0)
    blame: Counter[str] = field(default_factory=Counter)

    def add(self, row: dict[str, Any]) -> None:
        if row.get("error"):
            self.errors += 1
            return
        self.trials += 1
        for rate in RATES:
            self.rates[rate] += bool(row[rate])
        for plain in PLAIN_RATES:
            self.rates[plain] += bool(row.get(plain))  # absent in older rows
        self.retries += int(row["floor_retries"]) + int(row["budget_retries"])
        for col in TOKEN_COLUMNS:
            self.tokens[col] += int(row[col])
        self.retry_tokens += Fraction(retry_tokens(row))
        if row.get("blame_level"):
            self.blame[str(row["blame_level"])] += 1

    def record(self, cell: str, strategy: str, levels: Sequence[str]) -> dict[str, Any]:
        n = self.trials
        rec: dict[str, Any] = {"cell": cell, "strategy": strategy, "trials": n}
        rec["errors"] = self.errors
        for rate in RATES:
            k = self.rates[rate]
            lo, hi = wilson(k, n)
            rec[f"{rate}_rate"] = k / n if n else None
            rec[f"{rate}_lo"], rec[f"{rate}_hi"] = lo, hi
        for plain in PLAIN_RATES:
            rec[f"{plain}_rate"] = self.rates[plain] / n if n else None
        rec["retries_per_trial"] = self.retries / n if n else 0.0
        for col in TOKEN_COLUMNS:
            rec[col] = self.tokens[col] / n if n else 0.0
        rec["retry_tokens"] = float(self.retry_tokens / n) if n else 0.0
        rec["token_cost"] = rec["tokens_emitted"] + rec["retry_tokens"]
        order = {name: i for i, name in enumerate(levels)}
        ranked = sorted(self.blame, key=lambda b: (-self.blame[b], order.get(b, len(order)), b))
        rec["blame_level"] = ranked[0] if ranked else "-"
        rec["blame"] = {b: self.blame[b] for b in sorted(self.blame, key=lambda b: order.get(b, 0))}
        return rec


def summarize_stream(
    rows: Iterable[dict[str, Any]],
    groups: Sequence[tuple[str, str]],
    levels: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """One record per (cell, strategy) in `groups` order (the manifest's); rows of a pair
    not listed there are a different run's and raise."""
    acc = {g: _Group() for g in groups}
    for row in rows:
        key = (str(row.get("cell") or ""), str(row["strategy"]))
        group = acc.get(key)
        if group is None:
            raise ValueError(f"row {row.get('trial_id')!r}: cell/strategy {key} not in this run")
        group.add(row)
    return [acc[g].record(*g, levels) for g in groups]


def summary_document(records: list[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    """summary.json: `version` first, run identity (no wall clock), totals, then the groups."""
    return {
        "version": SUMMARY_VERSION,
        **meta,
        "trials": sum(r["trials"] for r in records),
        "errors": sum(r["errors"] for r in records),
        "groups": records,
    }


def summary_json(doc: dict[str, Any]) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def summary_csv(records: list[dict[str, Any]]) -> bytes:
    """The same groups flattened, blame counts as `blame_<level>` columns."""
    blame_cols = sorted({b for r in records for b in r["blame"]})
    head = [k for k in records[0] if k != "blame"] if records else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*head, *(f"blame_{b}" for b in blame_cols)])
    for r in records:
        writer.writerow([*(r[k] for k in head), *(r["blame"].get(b, 0) for b in blame_cols)])
    return out.getvalue().encode("utf-8")


def summary_frame(doc: dict[str, Any]) -> pd.DataFrame:
    """The groups of a summary document as the frame sim.report.tables.format_table prints."""
    df = pd.DataFrame([{k: v for k, v in r.items() if k != "blame"} for r in doc["groups"]])
    for rate in RATES:
        if f"{rate}_rate" in df:
            df[f"{rate}_rate"] = df[f"{rate}_rate"].astype(float).fillna(0.0)
    return df
