"""One colour (and marker) per strategy, the same in every plot of every run.

The colour comes from the strategy's name, never from its position in a run: the strategies
that ship have fixed slots (`floor_gated` is always green, `re_ranking` red, the reference
baselines in neutral tones: `keep_all` grey, `empty` black), a strategy with arguments
(`floor_gated(max_retries=1)`) takes its registry name's colour with its own marker and a
dashed line, and any other name (your `--compactor`) gets a colour and marker picked by a hash
of the name from a pool the fixed slots do not use. Two unknown names may share a colour; their
markers then usually differ, and the legend names each line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import matplotlib

_TAB10 = [matplotlib.colormaps["tab10"](i) for i in range(10)]

FIXED: dict[str, Any] = {
    "budget_closed": _TAB10[0],  # blue
    "budget_open": _TAB10[1],  # orange
    "floor_gated": _TAB10[2],  # green
    "re_ranking": _TAB10[3],  # red
    "pinned": _TAB10[4],  # purple
    "head": _TAB10[5],  # brown
    "keep_all": _TAB10[7],  # grey
    "tail": _TAB10[8],  # olive
    "empty": (0.1, 0.1, 0.1, 1.0),  # black
}
"""The shipped strategies' colours (README "Plots" documents them)."""

_POOL = [_TAB10[6], _TAB10[9], *(matplotlib.colormaps["tab20b"](i) for i in range(0, 20, 2))]
MARKERS = "osD^v<>Ph*X"


@dataclass(frozen=True, slots=True)
class Style:
    color: Any
    marker: str
    linestyle: str = "-"


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def style(key: str) -> Style:
    """The strategy key's colour, marker and line style: a function of the key alone."""
    base = key.split("(", 1)[0]
    if key in FIXED:
        return Style(FIXED[key], "o")
    h = _hash(key)
    marker = MARKERS[1 + h % (len(MARKERS) - 1)]
    if base in FIXED:
        return Style(FIXED[base], marker, "--")
    return Style(_POOL[h % len(_POOL)], marker)
