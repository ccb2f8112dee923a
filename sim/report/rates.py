"""The one way a rate is written, wherever it is shown: terminal tables, markdown, HTML, the
gate's verdicts, `compsim bench`.

A rate is a percentage with one decimal (`12.5%`), its interval the two bounds in the same
unit (`12.5% [8.1, 18.7]`), and a change between two rates is in percentage points
(`+2.0 pp`), so a reader never has to guess whether `0.125` and `12.5%` are the same number
or whether `+10%` is relative. Machine outputs (CSV, JSON) keep fractions.
"""

from __future__ import annotations

import math

NONE = "-"


def _missing(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: float | None) -> str:
    """A rate (a fraction in [0, 1]) as `12.5%`; None or NaN as `-`."""
    if _missing(x):
        return NONE
    return f"{100 * float(x):.1f}%"  # type: ignore[arg-type]


def _bound(x: float | None) -> str:
    return NONE if _missing(x) else f"{100 * float(x):.1f}"  # type: ignore[arg-type]


def pct_ci(rate: float | None, lo: float | None, hi: float | None) -> str:
    """A rate and its interval, `12.5% [8.1, 18.7]` (both bounds in percent)."""
    if _missing(rate):
        return NONE
    return f"{pct(rate)} [{_bound(lo)}, {_bound(hi)}]"


def pp(diff: float | None, sign: bool = True) -> str:
    """A change between two rates in percentage points, `+2.0 pp`."""
    if _missing(diff):
        return NONE
    v = 100 * float(diff)  # type: ignore[arg-type]
    if abs(v) < 0.05:
        v = 0.0  # -0.0 reads as a change
    return f"{v:+.1f} pp" if sign else f"{v:.1f} pp"


def pp_ci(lo: float | None, hi: float | None) -> str:
    """An interval of a change, `[-1.2, +3.4] pp`."""
    if _missing(lo) or _missing(hi):
        return NONE
    return f"[{pp(lo)[:-3]}, {pp(hi)[:-3]}] pp"
