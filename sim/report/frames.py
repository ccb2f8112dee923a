"""Trial rows (sim.runs.records) as pandas frames: one row per trial, and one row per fact per
level (L0 included). Everything here reads rows only; the aggregates are built on top."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from sim.errors import ReportError
from sim.runs.records import retry_tokens
from sim.types import AT_FLOOR_LABELS as AT_FLOOR

KEYS = ("cell", "strategy")
DEPTH_BINS = 5
_NESTED = ("levels", "facts", "violations")


ROW_FIELDS = ("trial_id", "strategy", "collapsed", "silent", "loud", "levels", "facts")
FACT_FIELDS = ("fact_id", "cls", "depth", "superseded", "grades", "lost", "loud")


def checked(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows, after checking each has what the aggregates read: a hand-edited or foreign
    trials.jsonl fails here in one line, not deep inside pandas."""
    out = list(rows)
    for i, r in enumerate(out, 1):
        if not isinstance(r, dict):
            raise ReportError(f"trial row {i}: not an object (got {type(r).__name__})")
        need = ("trial_id", "strategy") if r.get("error") else ROW_FIELDS
        for key in need:
            if key not in r:
                raise ReportError(f"trial row {i} ({r.get('trial_id', '?')}): no field {key!r}")
        levels = r.get("levels") or []
        for f in r.get("facts") or []:
            missing = [k for k in FACT_FIELDS if k not in f]
            if missing or len(f["grades"]) != len(levels):
                what = f"no field {missing[0]!r}" if missing else "grades do not match levels"
                raise ReportError(
                    f"trial row {i} ({r['trial_id']}): fact {f.get('fact_id', '?')}: {what}"
                )
    return out


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


def ok_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if not r.get("error")]


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
    for r in ok_rows(rows):
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
