"""The aggregates as aligned terminal tables and CSV files.

Terminal tables put each rate beside its 95% interval, because at a few hundred trials the
interval is as wide as the differences a reviewer is tempted to read into the rate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from sim.errors import ReportError
from sim.report.escape import term
from sim.runs.store import atomic_write

if TYPE_CHECKING:
    from sim.report.aggregate import Aggregates

KEYS = ("cell", "strategy")
_RATES = (("collapsed", "collapse"), ("silent", "silent"), ("loud", "loud"))
_PLAIN = (("over budget", "over_budget_rate"), ("stopped", "stopped_rate"))


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def rate_ci(r: Any, name: str) -> str:
    """A rate and its 95% Wilson interval, e.g. ` 12.5% [ 8.1%, 18.7%]`."""
    return f"{pct(r[f'{name}_rate'])} [{pct(r[f'{name}_lo'])},{pct(r[f'{name}_hi'])}]"


def align(head: Sequence[str], lines: Sequence[Sequence[str]], left: int = 1) -> str:
    """Columns padded to their widest cell; the first `left` columns are left-aligned."""
    head = [term(h) for h in head]  # cells come from user files: no control characters
    lines = [[term(c) for c in row] for row in lines]
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" if i < left else f"{{:>{w}}}" for i, w in enumerate(widths))
    return "\n".join(
        [
            fmt.format(*head),
            fmt.format(*("-" * w for w in widths)),
            *(fmt.format(*row) for row in lines),
        ]
    )


def _label_cols(df: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """Leave out the cell column when the run has a single, unnamed cell."""
    return [c for c in by if not (c == "cell" and set(df[c].astype(str)) <= {""})]


_COST: tuple[tuple[str, str, str], ...] = (
    ("retries/trial", "retries_per_trial", "{:.2f}"),
    ("read", "tokens_read", "{:.0f}"),
    ("emitted", "tokens_emitted", "{:.0f}"),
    ("never read", "tokens_unread", "{:.0f}"),
    ("retry tok", "retry_tokens", "{:.0f}"),
    ("pins", "pin_tokens", "{:.0f}"),
    ("cost", "token_cost", "{:.0f}"),
)


def format_table(summary: pd.DataFrame, by: str | Sequence[str] = "strategy") -> str:
    """Rates with their 95% interval, then retries and tokens per trial (cost = emitted,
    pins included, plus the estimated retry tokens)."""
    if summary.empty:
        return "(no trials)"
    keys = _label_cols(summary, [by] if isinstance(by, str) else list(by))
    counts = [c for c in ("trials", "errors") if c in summary]
    cost = [spec for spec in _COST if spec[1] in summary]
    # the first counter, and trials whose ladder stopped with nothing lost (not a collapse)
    plain = [(h, c) for h, c in _PLAIN if c in summary]
    head = [*keys, *counts, *(f"{h} [95% CI]" for _, h in _RATES), *(h for h, _ in plain)]
    head += [h for h, _, _ in cost]
    lines = []
    for _, r in summary.iterrows():
        row = [str(r[k]) for k in keys] + [str(int(r[c])) for c in counts]
        row += [rate_ci(r, name) for name, _ in _RATES]
        for _, col in plain:
            rate = r[col]
            row.append("-" if rate is None or rate != rate else pct(float(rate)))
        row += [fmt.format(r[col]) for _, col, fmt in cost]
        lines.append([*row, str(r["blame_level"])])
    return align([*head, "blame"], lines, left=len(keys))


def _wide(
    df: pd.DataFrame, col: str, order: Sequence[str], cell: Callable[[Any], str], empty: str
) -> str:
    """One line per cell × strategy, one column per value of `col` (levels, say)."""
    if df.empty:
        return empty
    keys = _label_cols(df, ["cell", "strategy"])
    groups: dict[tuple[str, ...], dict[str, str]] = {}
    for _, r in df.iterrows():
        groups.setdefault(tuple(str(r[k]) for k in keys), {})[str(r[col])] = cell(r)
    present = [c for c in order if any(c in g for g in groups.values())]
    lines = [[*k, *(g.get(c, "-") for c in present)] for k, g in groups.items()]
    return align([*keys, *present], lines, left=len(keys))


def format_survival(agg: Aggregates) -> str:
    """Share of floored facts at or above floor per level, with its 95% interval."""
    return _wide(
        agg.survival,
        "level",
        agg.levels,
        lambda r: f"{rate_ci(r, 'survival')} n={int(r['facts'])}",
        "(no facts)",
    )


def format_blame(agg: Aggregates) -> str:
    """Trials blamed on each level: count and share of all trials."""
    return _wide(
        agg.blame,
        "blame_level",
        agg.levels,
        lambda r: f"{int(r['trials_blamed'])} ({pct(r['share']).strip()})",
        "(no trials)",
    )


def format_fact_rates(df: pd.DataFrame, by: str, title: str) -> str:
    """Per-fact leaf rates by class or depth bin."""
    if df.empty:
        return "(no facts)"
    keys = _label_cols(df, ["cell", "strategy"])
    head = [*keys, title, "facts", *(f"{h} [95% CI]" for _, h in _RATES)]
    lines = [
        [*(str(r[k]) for k in keys), str(r[by]), str(int(r["facts"]))]
        + [rate_ci(r, name) for name, _ in _RATES]
        for _, r in df.iterrows()
    ]
    return align(head, lines, left=len(keys) + 1)


def format_all(agg: Aggregates) -> str:
    """Every table, titled, for `compsim report` to print."""
    sections = [
        ("Rates per trial, retries and tokens per trial", format_table(agg.summary, KEYS)),
        ("Survival per level (floored facts at or above floor)", format_survival(agg)),
        ("Blame level (trials)", format_blame(agg)),
        (
            "By constraint class (facts at the leaf)",
            format_fact_rates(agg.by_class, "cls", "class"),
        ),
        ("By depth (facts at the leaf)", format_fact_rates(agg.by_depth, "depth_bin", "depth")),
    ]
    return "\n\n".join(f"## {title}\n{body}" for title, body in sections)


CSV_TABLES = ("summary", "survival", "blame", "by_class", "by_depth", "depth_level", "diagnosis")


def write_file(path: Path, data: bytes) -> Path:
    """Write a whole output file atomically (the old file or the new, never half); a directory
    that cannot be written is a one-line ReportError naming it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        raise ReportError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return path


def write_csv(agg: Aggregates, out_dir: str | Path) -> list[Path]:
    """One CSV per table; floats to 6 significant digits so equal data gives equal bytes."""
    paths = []
    for name in CSV_TABLES:
        df: pd.DataFrame = getattr(agg, name)
        text = df.to_csv(index=False, float_format="%.6g", lineterminator="\n")
        paths.append(write_file(Path(out_dir) / f"{name}.csv", text.encode("utf-8")))
    return paths
