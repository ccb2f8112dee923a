"""Aggregates from trial rows (sim.runs.records): the numbers every table, plot, report and gate is
built from.

Rows group by `cell` (one point of the sweep grid) and `strategy`. Trial rates (collapse,
silent, loud) come with 95% Wilson intervals; fact counts are taken per level against L0's
planted facts, so a chain that loses a fact a little at each level still shows. Errored trials
are counted apart and never enter a rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim.report.frames import (
    DEPTH_BINS,
    KEYS,
    checked,
    depth_bin,
    facts_frame,
    level_order,
    ok_rows,
    ordered,
    trials_frame,
)
from sim.runs.records import PLAIN_RATES, RATES, TOKEN_COLUMNS
from sim.runs.stats import wilson

__all__ = [
    "Aggregates",
    "aggregate",
    "facts_frame",
    "ordered",
    "summarize",
    "trials_frame",
]


def _errored(trials: pd.DataFrame) -> pd.Series:
    if "error" not in trials:
        return pd.Series(False, index=trials.index)
    return trials["error"].fillna("").astype(str) != ""


def _rate(rec: dict[str, Any], name: str, k: int, n: int) -> None:
    lo, hi = wilson(k, n)
    rec[f"{name}_rate"] = k / n if n else float("nan")
    rec[f"{name}_lo"], rec[f"{name}_hi"] = lo, hi


def _keys(by: str | Sequence[str]) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def summarize(rows: list[dict[str, Any]], by: str | Sequence[str] = "strategy") -> pd.DataFrame:
    """Rates with 95% Wilson intervals, retries and tokens per trial, the usual blame level."""
    return _summary(trials_frame(ordered(rows)), _keys(by))


def _summary(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    if df.empty:
        return pd.DataFrame()
    df["_err"] = _errored(df)
    out = []
    for key, all_ in df.groupby(keys, sort=False):
        rec: dict[str, Any] = dict(zip(keys, key, strict=True))
        g = all_[~all_["_err"]]
        n = len(g)
        rec["trials"], rec["errors"] = n, len(all_) - n
        for rate in RATES:
            _rate(rec, rate, int(g[rate].sum()) if n else 0, n)
        for plain in PLAIN_RATES:
            flag = g[plain].fillna(False).astype(bool) if plain in g else None
            rec[f"{plain}_rate"] = float(flag.mean()) if n and flag is not None else float("nan")
        rec["retries_per_trial"] = float(g["retries"].mean()) if n else 0.0
        for col in (*TOKEN_COLUMNS, "retry_tokens"):
            rec[col] = float(g[col].mean()) if n else 0.0
        rec["token_cost"] = rec["tokens_emitted"] + rec["retry_tokens"]
        blame = g["blame_level"].dropna() if n else pd.Series(dtype=object)
        rec["blame_level"] = str(blame.mode().iloc[0]) if len(blame) else "-"
        out.append(rec)
    return pd.DataFrame(out)


def _live(facts: pd.DataFrame) -> pd.DataFrame:
    """Floored facts: a superseded fact may vanish without loss."""
    return facts[~facts["superseded"].astype(bool)]


def survival(facts: pd.DataFrame) -> pd.DataFrame:
    """Share of floored (not superseded) facts at or above floor per level, with Wilson CI,
    over the trials that reached the level (a loud abort ends a trial's ladder)."""
    live = _live(facts)
    out = []
    for key, g in live.groupby([*KEYS, "level_index", "level"], sort=False):
        rec: dict[str, Any] = dict(zip([*KEYS, "level_index", "level"], key, strict=True))
        rec["trials"], rec["facts"] = g["trial_id"].nunique(), len(g)
        rec["at_floor"] = int(g["at_floor"].sum())
        _rate(rec, "survival", rec["at_floor"], rec["facts"])
        out.append(rec)
    return _sorted(pd.DataFrame(out), "level_index")


def _sorted(
    df: pd.DataFrame, col: str, order: Sequence[tuple[Any, Any]] | None = None
) -> pd.DataFrame:
    """Stable sort by `col` within each cell × strategy, keeping their first-seen order (or
    `order`)."""
    if df.empty:
        return df
    pairs = list(zip(df["cell"], df["strategy"], strict=True))
    first = {k: i for i, k in enumerate(dict.fromkeys([*(order or ()), *pairs]))}
    return (
        df.assign(_o=[first[k] for k in pairs])
        .sort_values(["_o", col], kind="stable")
        .drop(columns="_o")
        .reset_index(drop=True)
    )


def leaves(facts: pd.DataFrame) -> pd.DataFrame:
    """Each live fact's last level reached: where its fate (lost, loud) is read."""
    return _live(facts).drop_duplicates(["cell", "trial_id", "fact_id"], keep="last")


def fact_rates(leaf: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per-fact collapse / silent / loud rates at the leaf, by a fact column (class, depth)."""
    out = []
    for key, g in leaf.groupby([*KEYS, by], sort=False):
        rec: dict[str, Any] = dict(zip([*KEYS, by], key, strict=True))
        n = rec["facts"] = len(g)
        _rate(rec, "collapsed", int(g["lost"].sum()), n)
        _rate(rec, "silent", int((g["lost"] & ~g["loud"]).sum()), n)
        _rate(rec, "loud", int((g["lost"] & g["loud"]).sum()), n)
        out.append(rec)
    return _sorted(pd.DataFrame(out), by)


def depth_level(facts: pd.DataFrame) -> pd.DataFrame:
    """Survival per depth bin × level: the needle-in-a-haystack picture, for compaction."""
    live = _live(facts)
    out = []
    for key, g in live.groupby([*KEYS, "depth_bin", "level_index", "level"], sort=False):
        rec: dict[str, Any] = dict(
            zip([*KEYS, "depth_bin", "level_index", "level"], key, strict=True)
        )
        rec["facts"], rec["at_floor"] = len(g), int(g["at_floor"].sum())
        rec["survival"] = rec["at_floor"] / rec["facts"]
        out.append(rec)
    df = pd.DataFrame(out)
    return df if df.empty else _sorted(df.sort_values(["depth_bin", "level_index"]), "depth_bin")


NO_LOSS = "no loss"
"""The blame table's last column: trials no level is blamed for (nothing lost, no stop)."""


def blame(trials: pd.DataFrame, levels: Sequence[str]) -> pd.DataFrame:
    """Trials blamed on each level (the first that let a lost fact fall below its floor, or
    that raised), every level listed so bars line up, then `no loss`: the trials no level is
    blamed for, so the shares of a cell × strategy add up to 1; `share` is of all trials."""
    out = []
    ok = trials[~_errored(trials)]
    for key, g in ok.groupby(list(KEYS), sort=False):
        collapsed = int(g["collapsed"].sum())
        blamed = g["blame_level"].fillna("").astype(str)
        for level in [*levels, NO_LOSS]:
            k = int((blamed == "").sum()) if level == NO_LOSS else int((blamed == level).sum())
            rec: dict[str, Any] = dict(zip(KEYS, key, strict=True))
            rec.update(blame_level=level, trials_blamed=k, share=k / len(g))
            lost = level != NO_LOSS and collapsed
            rec["share_of_collapsed"] = k / collapsed if lost else 0.0
            out.append(rec)
    return pd.DataFrame(out)


def diagnosis(
    rows: Iterable[dict[str, Any]], order: Sequence[tuple[Any, Any]] = ()
) -> pd.DataFrame:
    """Lost facts by where and how: class, blamed level, the grade and the anchor groups
    missing there, silent or loud; the table that says what to fix."""
    counts: dict[tuple[Any, ...], int] = {}
    for r in ok_rows(rows):
        names = [lv["name"] for lv in r.get("levels", ())]
        for f in r.get("facts", ()):
            if not f.get("lost"):
                continue
            level = f.get("blame_level") or "-"
            k = names.index(level) if level in names else None
            grade = f["grades"][k] if k is not None else f["leaf"]
            missing = ", ".join(f["missing"][k]) if k is not None and "missing" in f else ""
            how = "loud" if f.get("loud") else "silent"
            key = (r.get("cell", ""), r["strategy"], f["cls"], level, grade, missing, how)
            counts[key] = counts.get(key, 0) + 1
    cols = [*KEYS, "cls", "blame_level", "grade", "missing", "how", "facts"]
    df = pd.DataFrame([(*k, n) for k, n in counts.items()], columns=cols)
    return _sorted(df.assign(_n=-df["facts"]), "_n", order).drop(columns="_n") if len(df) else df


@dataclass(frozen=True)
class Aggregates:
    """Every table of a run; plots and the report draw from these only."""

    summary: pd.DataFrame
    survival: pd.DataFrame
    blame: pd.DataFrame
    by_class: pd.DataFrame
    by_depth: pd.DataFrame
    depth_level: pd.DataFrame
    diagnosis: pd.DataFrame
    trials: pd.DataFrame
    levels: tuple[str, ...]
    budgets: dict[tuple[str, str], int]
    """(cell, level) -> the level's token budget, for axis labels."""


def _pool(df: pd.DataFrame, groups: Mapping[str, str]) -> pd.DataFrame:
    return df.assign(cell=[groups.get(c, c) for c in df["cell"]]) if groups else df


def aggregate(
    rows: Iterable[dict[str, Any]],
    depth_bins: int = DEPTH_BINS,
    strategies: Sequence[str] = (),
    cells: Sequence[str] = (),
    depth_groups: Mapping[str, str] | None = None,
) -> Aggregates:
    """All tables from trial rows, grouped by cell × strategy (in the given orders, if any).
    `depth_groups` (cell -> group, sim.report.runview) pools the cells of a depth sweep in the depth
    tables, whose `cell` column then holds the group."""
    rows = ordered(checked(rows), strategies, cells)
    trials = trials_frame(rows)
    facts = facts_frame(rows)
    facts["depth_bin"] = [depth_bin(d, depth_bins) for d in facts["depth"]]
    leaf, groups = leaves(facts), depth_groups or {}
    levels = tuple(level_order(rows))
    summary = _summary(trials.copy(), list(KEYS))
    order = [] if summary.empty else list(zip(summary["cell"], summary["strategy"], strict=True))
    return Aggregates(
        summary=summary,
        survival=survival(facts),
        blame=blame(trials, levels) if not trials.empty else pd.DataFrame(),
        by_class=fact_rates(leaf, "cls"),
        by_depth=fact_rates(_pool(leaf, groups), "depth_bin"),
        depth_level=depth_level(_pool(facts, groups)),
        diagnosis=diagnosis(rows, order),
        trials=trials,
        levels=levels,
        budgets={
            (str(r.get("cell") or ""), lv["name"]): int(lv["budget_tokens"])
            for r in rows
            for lv in r.get("levels") or ()
        },
    )
