"""The aggregates as aligned terminal tables and CSV files.

Terminal tables fit 100 columns by default (sim.report.fit): the silent rate, the one a
reviewer acts on, stands beside its 95% interval, because at a few hundred trials the interval
is as wide as the differences a reviewer is tempted to read into the rate; `--wide` puts every
rate beside its interval and shows every token column. Rates are written as sim.report.rates
writes them everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from sim.errors import ReportError
from sim.report.aggregate import NO_LOSS
from sim.report.fit import WIDTH, fit
from sim.report.headline import failing, headline_lines, keep_pairs, pairs
from sim.report.rates import pct, pct_ci
from sim.runs.store import atomic_write

if TYPE_CHECKING:
    from sim.report.aggregate import Aggregates

KEYS = ("cell", "strategy")
_RATES = (("collapsed", "collapse"), ("silent", "silent"), ("loud", "loud"))
_PLAIN = (("over budget", "over_budget_rate"), ("stopped", "stopped_rate"))


def rate_ci(r: Any, name: str) -> str:
    """A rate and its 95% Wilson interval, e.g. `12.5% [8.1, 18.7]` (sim.report.rates)."""
    return pct_ci(r[f"{name}_rate"], r[f"{name}_lo"], r[f"{name}_hi"])


def align(
    head: Sequence[str], lines: Sequence[Sequence[str]], left: int = 1, width: int | None = WIDTH
) -> str:
    """Columns padded to their widest cell; the first `left` columns are left-aligned. With a
    `width` (100 by default) the table is fitted to it (sim.report.fit); None: as wide as it
    is (`--wide`)."""
    return fit(head, lines, left, width if width is not None else 10**9)


def _shown(summary: pd.DataFrame, col: str) -> bool:
    """Over budget always (the note's first counter); `stopped` only when a ladder stopped,
    as errors only when a trial raised: a column of zeros would push the table past 100."""
    return col != "stopped_rate" or bool((summary[col].fillna(0) > 0).any())


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
_COST_DEFAULT = (("retries", "retries_per_trial", "{:.2f}"), ("cost", "token_cost", "{:.0f}"))


def _width(wide: bool) -> int | None:
    return None if wide else WIDTH


def format_table(
    summary: pd.DataFrame, by: str | Sequence[str] = "strategy", *, wide: bool = False
) -> str:
    """Rates per trial, then retries and token cost per trial (cost = emitted, pins included,
    plus the estimated retry tokens). By default the columns a reader needs, fitted to 100
    columns: collapse, silent with its 95% interval, loud, over budget, retries, cost, the
    usual blame level (errors when any trial raised); `wide`: every rate with its interval and
    every token column."""
    if summary.empty:
        return "(no trials)"
    keys = _label_cols(summary, [by] if isinstance(by, str) else list(by))
    errors = "errors" in summary and (wide or bool((summary["errors"].fillna(0) > 0).any()))
    counts = [c for c in ("trials", "errors") if c in summary and (c == "trials" or errors)]
    cost = [spec for spec in (_COST if wide else _COST_DEFAULT) if spec[1] in summary]
    # the first counter, and trials whose ladder stopped with nothing lost (not a collapse)
    plain = [(h, c) for h, c in _PLAIN if c in summary and (wide or _shown(summary, c))]
    rates = [f"{h} [95% CI]" if wide or h == "silent" else h for _, h in _RATES]
    head = [*keys, *counts, *rates, *(h for h, _ in plain), *(h for h, _, _ in cost), "blame"]
    lines = []
    for _, r in summary.iterrows():
        row = [str(r[k]) for k in keys] + [str(int(r[c])) for c in counts]
        row += [
            rate_ci(r, name) if wide or name == "silent" else pct(r[f"{name}_rate"])
            for name, _ in _RATES
        ]
        for _, col in plain:
            rate = r[col]
            row.append("-" if rate is None or rate != rate else pct(float(rate)))
        row += [fmt.format(r[col]) for _, col, fmt in cost]
        lines.append([*row, str(r["blame_level"])])
    return align(head, lines, left=len(keys), width=_width(wide))


def _wide(
    df: pd.DataFrame,
    col: str,
    order: Sequence[str],
    cell: Callable[[Any], str],
    empty: str,
    wide: bool = False,
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
    return align([*keys, *present], lines, left=len(keys), width=_width(wide))


def format_survival(agg: Aggregates, *, wide: bool = False) -> str:
    """Share of live planted facts at or above their floor per level (with its 95% interval
    and the number of facts counted, `wide`)."""
    if wide:
        text: Callable[[Any], str] = lambda r: f"{rate_ci(r, 'survival')} n={int(r['facts'])}"  # noqa: E731
    else:
        text = lambda r: pct(r["survival_rate"])  # noqa: E731
    return _wide(agg.survival, "level", agg.levels, text, "(no facts)", wide)


def format_blame(agg: Aggregates, *, wide: bool = False) -> str:
    """Trials blamed on each level, and those that lost nothing: count and share of all
    trials."""
    return _wide(
        agg.blame,
        "blame_level",
        [*agg.levels, NO_LOSS],
        lambda r: f"{int(r['trials_blamed'])} ({pct(r['share'])})",
        "(no trials)",
        wide,
    )


def format_fact_rates(df: pd.DataFrame, by: str, title: str, *, wide: bool = False) -> str:
    """Per-fact leaf rates by class or depth bin."""
    if df.empty:
        return "(no facts)"
    keys = _label_cols(df, ["cell", "strategy"])
    rates = [f"{h} [95% CI]" if wide or h == "silent" else h for _, h in _RATES]
    head = [*keys, title, "facts", *rates]
    lines = [
        [*(str(r[k]) for k in keys), str(r[by]), str(int(r["facts"]))]
        + [
            rate_ci(r, name) if wide or name == "silent" else pct(r[f"{name}_rate"])
            for name, _ in _RATES
        ]
        for _, r in df.iterrows()
    ]
    return align(head, lines, left=len(keys) + 1, width=_width(wide))


def format_pivot(summary: pd.DataFrame, rate: str) -> str:
    """One line per cell, one column per strategy: a rate across a sweep at a glance."""
    if summary.empty:
        return "(no trials)"
    strategies = [str(s) for s in dict.fromkeys(summary["strategy"])]
    by_cell: dict[str, dict[str, str]] = {}
    for r in summary.to_dict("records"):
        by_cell.setdefault(str(r["cell"]), {})[str(r["strategy"])] = pct(r[f"{rate}_rate"])
    lines = [[c, *(g.get(s, "-") for s in strategies)] for c, g in by_cell.items()]
    return align(["cell", *strategies], lines, left=1)


def format_summary(summary: pd.DataFrame, *, wide: bool = False) -> str:
    """What `compsim run` prints when a run ends: the headline, then the rates table (one
    cell) or the silent and collapse rates as one line per cell (a sweep; `wide`: every
    cell's table)."""
    head = "\n".join(headline_lines(summary))
    cells = [] if summary.empty else list(dict.fromkeys(summary["cell"]))
    if len(cells) <= 1:
        return f"{head}\n\n{format_table(summary, KEYS, wide=wide)}"
    if wide:
        return f"{head}\n\n{format_table(summary, KEYS, wide=True)}"
    silent, collapse = format_pivot(summary, "silent"), format_pivot(summary, "collapsed")
    parts = [head, f"silent collapse per cell (% of trials)\n{silent}"]
    if collapse != silent:
        parts.append(f"collapse per cell, silent or loud (% of trials)\n{collapse}")
    return "\n\n".join(parts)


TITLES = {
    "rates": "Rates per trial (retries and token cost are means per trial)",
    "survival": "Survival: planted rules still usable at each level (at or above their floor)",
    "blame": "Blame: where each trial first lost a rule (or stopped loudly), of all trials",
    "classes": "By constraint class (rules at the last level)",
    "depth": "By depth in the history (0 = oldest turn; rules at the last level)",
}


def _only(agg: Aggregates) -> Aggregates:
    """The aggregates cut to the cell × strategy pairs that failed (--only-failures)."""
    keep = pairs(failing(agg.summary))
    return replace(
        agg,
        summary=keep_pairs(agg.summary, keep),
        survival=keep_pairs(agg.survival, keep),
        blame=keep_pairs(agg.blame, keep),
        by_class=keep_pairs(agg.by_class, keep),
        by_depth=keep_pairs(agg.by_depth, keep),
    )


def format_all(agg: Aggregates, *, wide: bool = False, only_failures: bool = False) -> str:
    """Every table, titled, for `compsim report` to print. First the headline (the worst
    cells, baselines never among them). A sweep (several cells) then shows the silent and
    collapse rates as one line per cell; its per-cell tables come with `wide`. Every table
    fits 100 columns unless `wide`; `only_failures` keeps the strategies under test that
    collapsed or raised."""
    head = "\n".join(headline_lines(agg.summary))
    cells = 0 if agg.summary.empty else agg.summary["cell"].nunique()
    shown = _only(agg) if only_failures else agg
    sections = [("Headline", head)]
    if cells > 1 and not wide:
        silent = format_pivot(agg.summary, "silent")
        collapse = format_pivot(agg.summary, "collapsed")
        if silent == collapse:  # no loud collapse anywhere: one table says both
            sections.append(
                ("Silent collapse per cell (% of trials; all collapse was silent)", silent)
            )
        else:
            sections += [
                ("Silent collapse per cell (% of trials)", silent),
                ("Collapse per cell, silent or loud (% of trials)", collapse),
            ]
        if only_failures:
            sections.append((TITLES["rates"], format_table(shown.summary, KEYS)))
        more = "per-cell tables: --wide (or report.html)"
        return "\n\n".join(f"## {t}\n{b}" for t, b in sections) + f"\n\n({more})"
    sections += [
        (TITLES["rates"], format_table(shown.summary, KEYS, wide=wide)),
        (TITLES["survival"], format_survival(shown, wide=wide)),
        (TITLES["blame"], format_blame(shown, wide=wide)),
        (TITLES["classes"], format_fact_rates(shown.by_class, "cls", "class", wide=wide)),
        (TITLES["depth"], format_fact_rates(shown.by_depth, "depth_bin", "depth", wide=wide)),
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
