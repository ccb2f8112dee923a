"""Aggregates from trial rows (sim.records): the numbers every table, plot, report and gate is
built from.

Rows group by `cell` (one point of the sweep grid) and `strategy`. Trial rates (collapse,
silent, loud) come with 95% Wilson intervals; fact counts are taken per level against L0's
planted facts, so a chain that loses a fact a little at each level still shows. Errored trials
are counted apart and never enter a rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim.stats import wilson
from sim.tables import format_table

__all__ = ["Aggregates", "aggregate", "facts_frame", "format_table", "summarize", "trials_frame"]

KEYS = ("cell", "strategy")
RATES = ("collapsed", "silent", "loud")
AT_FLOOR = frozenset({"actionable", "verbatim"})
DEPTH_BINS = 5
TOKEN_COLUMNS = ("tokens_read", "tokens_emitted", "tokens_unread", "pin_tokens", "calls")
_NESTED = ("levels", "facts", "violations")


def ordered(
    rows: Iterable[dict[str, Any]], strategies: Sequence[str] = (), cells: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Rows in a canonical order: trials.jsonl is appended as trials finish, so its order
    depends on the worker count, and the aggregates (down to float sums) must not. Cells and
    strategies keep the manifest's order when given, else cells sort by name and strategies
    keep the order one trial's rows were written in."""
    s_rank = {s: i for i, s in enumerate(strategies)}
    c_rank = {c: i for i, c in enumerate(cells)}

    def key(r: dict[str, Any]) -> tuple[int, int, str, int]:
        cell = str(r.get("cell") or "")
        return (
            int(r.get("trial") or 0),
            c_rank.get(cell, len(c_rank)),
            cell,
            s_rank.get(r["strategy"], len(s_rank)),
        )

    return sorted(rows, key=key)


def _ok(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if not r.get("error")]


def retry_tokens(row: dict[str, Any]) -> float:
    """Tokens spent on retries, estimated: rows count retried calls, not their tokens, so each
    retry is charged one average fresh call of its level (its share of input plus output)."""
    total = 0.0
    for lv in row.get("levels", ()):
        retries = int(lv.get("floor_retries", 0)) + int(lv.get("budget_retries", 0))
        if retries:
            fresh = max(int(lv.get("calls", 0)) - retries, 1)
            total += retries * (int(lv["tokens_in"]) + int(lv["tokens_out"])) / fresh
    return total


def trials_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """One row per trial, the nested levels/facts left out; adds retries and their tokens."""
    flat = []
    for r in rows:
        rec = {k: v for k, v in r.items() if k not in _NESTED}
        rec.setdefault("cell", "")
        rec["retries"] = int(r.get("floor_retries") or 0) + int(r.get("budget_retries") or 0)
        rec["retry_tokens"] = retry_tokens(r)
        flat.append(rec)
    return pd.DataFrame(flat)


def level_order(rows: Iterable[dict[str, Any]]) -> list[str]:
    """The ladder's level names, L0 first, in ladder order (an aborted trial holds only the
    levels it finished, so the names are merged from every row)."""
    pos: dict[str, int] = {"L0": 0}
    for r in rows:
        levels = r.get("levels") or []
        for i, lv in enumerate(levels):
            pos.setdefault(lv["name"], i + 1)
        if r.get("aborted_at"):
            pos.setdefault(r["aborted_at"], len(levels) + 1)
    return sorted(pos, key=lambda n: (pos[n], n))


def _l0_grade(fact: dict[str, Any]) -> tuple[str | None, bool]:
    """L0's grade and whether it is at floor. Rows written before `l0_grade` existed give no
    grade; a fact below its floor at L0 is then exactly one lost with L0 to blame (a summary
    cannot bring back what L0 did not hold)."""
    grade = fact.get("l0_grade")
    if grade:
        return str(grade), grade in AT_FLOOR
    below = bool(fact.get("lost")) and fact.get("blame_level") == "L0"
    return None, not below


def facts_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Long frame, one row per fact per level reached (L0 included)."""
    out = []
    for r in _ok(rows):
        names = ["L0", *(lv["name"] for lv in r.get("levels", ()))]
        for f in r.get("facts", ()):
            base = (r.get("cell", ""), r["strategy"], r.get("trial", 0), r["trial_id"])
            info = (f["fact_id"], f["cls"], float(f["depth"]), bool(f["superseded"]))
            fate = (bool(f["lost"]), bool(f["loud"]), f.get("blame_level"))
            l0, l0_at = _l0_grade(f)
            out.append((*base, *info, *fate, 0, "L0", l0, l0_at))
            for i, grade in enumerate(f["grades"], start=1):
                out.append((*base, *info, *fate, i, names[i], grade, grade in AT_FLOOR))
    cols = [*KEYS, "trial", "trial_id", "fact_id", "cls", "depth", "superseded"]
    cols += ["lost", "loud", "blame_level", "level_index", "level", "grade", "at_floor"]
    return pd.DataFrame(out, columns=cols)


def depth_bin(depth: float, bins: int = DEPTH_BINS) -> str:
    """Equal-width bins of relative depth in the history (0 = first turn, 1 = last)."""
    i = min(max(int(depth * bins), 0), bins - 1)
    return f"{i / bins:.1f}-{(i + 1) / bins:.1f}"


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


def _sorted(df: pd.DataFrame, col: str) -> pd.DataFrame:
    """Stable sort by `col` within each cell × strategy, keeping their first-seen order."""
    if df.empty:
        return df
    pairs = list(zip(df["cell"], df["strategy"], strict=True))
    first = {k: i for i, k in enumerate(dict.fromkeys(pairs))}
    order = [first[k] for k in pairs]
    return (
        df.assign(_o=order).sort_values(["_o", col], kind="stable").drop(columns="_o")
    ).reset_index(drop=True)


def fact_rates(facts: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per-fact collapse / silent / loud rates at the leaf, by a fact column (class, depth)."""
    leaf = _live(facts).drop_duplicates(["trial_id", "fact_id"], keep="last")
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


def blame(trials: pd.DataFrame, levels: Sequence[str]) -> pd.DataFrame:
    """Trials blamed on each level (the first that let a lost fact fall below its floor, or
    that raised), every level listed so bars line up; `share` is of all trials."""
    out = []
    ok = trials[~_errored(trials)]
    for key, g in ok.groupby(list(KEYS), sort=False):
        collapsed = int(g["collapsed"].sum())
        for level in levels:
            k = int((g["blame_level"] == level).sum())
            rec: dict[str, Any] = dict(zip(KEYS, key, strict=True))
            rec.update(blame_level=level, trials_blamed=k, share=k / len(g))
            rec["share_of_collapsed"] = k / collapsed if collapsed else 0.0
            out.append(rec)
    return pd.DataFrame(out)


@dataclass(frozen=True)
class Aggregates:
    """Every table of a run; plots and the report draw from these only."""

    summary: pd.DataFrame
    survival: pd.DataFrame
    blame: pd.DataFrame
    by_class: pd.DataFrame
    by_depth: pd.DataFrame
    depth_level: pd.DataFrame
    trials: pd.DataFrame
    levels: tuple[str, ...]


def aggregate(
    rows: Iterable[dict[str, Any]],
    depth_bins: int = DEPTH_BINS,
    strategies: Sequence[str] = (),
    cells: Sequence[str] = (),
) -> Aggregates:
    """All tables from trial rows, grouped by cell × strategy (in the given orders, if any)."""
    rows = ordered(rows, strategies, cells)
    trials = trials_frame(rows)
    facts = facts_frame(rows)
    facts["depth_bin"] = [depth_bin(d, depth_bins) for d in facts["depth"]]
    levels = tuple(level_order(rows))
    return Aggregates(
        summary=_summary(trials.copy(), list(KEYS)),
        survival=survival(facts),
        blame=blame(trials, levels) if not trials.empty else pd.DataFrame(),
        by_class=fact_rates(facts, "cls"),
        by_depth=fact_rates(facts, "depth_bin"),
        depth_level=depth_level(facts),
        trials=trials,
        levels=levels,
    )
