"""Terminal tables that fit a terminal: at most `WIDTH` (100) columns, whatever the names.

A table too wide has its value columns wrapped into blocks that repeat the label columns
(strategy, cell). Only when the labels leave no room for even one value column are the long
label cells (strategy keys with arguments, cell ids) cut, each cut cell marked `…1`, `…2` and
written out in full under the table, so nothing is hidden. Every cell is escaped for the
terminal (sim.report.escape.term).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from sim.report.escape import term

WIDTH = 100
GAP = "  "
MIN_LABEL = 16
"""A label is never cut shorter than this: below it a name stops being recognisable."""


def _widths(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]


def _render(head: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[str]:
    widths = _widths(head, rows)
    fmt = GAP.join(f"{{:<{w}}}" if i < left else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*r) for r in rows]
    return [line.rstrip() for line in lines]


def _total(widths: Sequence[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1)


def _note(tag: str, full: str, width: int) -> list[str]:
    return textwrap.wrap(f"{tag} {full}", width, initial_indent="  ", subsequent_indent="    ")


def _cut_heads(
    head: list[str], rows: Sequence[Sequence[str]], left: int, width: int
) -> tuple[list[str], list[str]]:
    """Value-column headers (a strategy key over a column of rates) cut to their column's
    widest cell, never under MIN_LABEL, each marked and written out in full."""
    notes: list[str] = []
    out = list(head)
    for i in range(left, len(head)):
        cap = max(MIN_LABEL, *(len(r[i]) for r in rows)) if rows else MIN_LABEL
        if len(head[i]) > cap:
            tag = f"…h{len(notes) + 1}"
            out[i] = head[i][: cap - len(tag)] + tag
            notes += _note(tag, head[i], width)
    return out, notes


def _cut(
    head: Sequence[str], rows: list[list[str]], left: int, width: int, note_width: int
) -> tuple[list[list[str]], list[str]]:
    """Shorten the widest label columns until they take at most `width` columns together
    (or each reaches MIN_LABEL)."""
    widths = _widths(head, rows)
    caps = list(widths[:left])
    excess = _total(caps) - width
    while excess > 0:
        i = max(range(left), key=lambda k: caps[k], default=None)
        if i is None or caps[i] <= max(MIN_LABEL, len(head[i])):
            break
        step = min(excess, caps[i] - max(MIN_LABEL, len(head[i])))
        caps[i] -= step
        excess -= step
    notes: list[str] = []
    cut: dict[str, str] = {}
    out = []
    for r in rows:
        new = list(r)
        for i in range(left):
            if len(r[i]) > caps[i]:
                if r[i] not in cut:
                    tag = f"…{len(cut) + 1}"
                    cut[r[i]] = r[i][: caps[i] - len(tag)] + tag
                    notes += _note(tag, r[i], note_width)
                new[i] = cut[r[i]]
        out.append(new)
    return out, notes


def fit(
    head: Sequence[str],
    rows: Sequence[Sequence[object]],
    left: int = 1,
    width: int = WIDTH,
) -> str:
    """The table as text, every line at most `width` columns (value columns wrapped into
    blocks; labels cut, with a note, only when that is not enough); `left` label columns are
    left-aligned."""
    head = [term(h) for h in head]
    cells = [[term(c) for c in r] for r in rows]
    if _total(_widths(head, cells)) <= width:
        return "\n".join(_render(head, cells, left))
    head, notes = _cut_heads(head, cells, left, width)
    widths = _widths(head, cells)
    widest = max(widths[left:], default=0) + len(GAP)
    if _total(widths[:left]) + widest > width:  # labels too long for even one value column
        cells, more = _cut(head, cells, left, width - widest, width)
        notes += more
    widths = _widths(head, cells)
    blocks: list[list[int]] = []
    room = width - _total(widths[:left]) if left else width + len(GAP)
    used = room
    for i in range(left, len(head)):
        need = widths[i] + len(GAP)
        if not blocks or used + need > room:
            blocks.append([])
            used = 0
        blocks[-1].append(i)
        used += need
    parts = []
    for cols in blocks:
        keep = [*range(left), *cols]
        sub_head = [head[i] for i in keep]
        parts.append("\n".join(_render(sub_head, [[r[i] for i in keep] for r in cells], left)))
    text = "\n\n".join(parts)
    if notes:
        text += "\n" + "\n".join(["names cut to fit (--wide shows them whole):", *notes])
    return text


def too_wide(text: str, width: int = WIDTH) -> list[str]:
    """The lines of `text` wider than `width` (what the width tests assert is empty)."""
    return [line for line in text.splitlines() if len(line) > width]
