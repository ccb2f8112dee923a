"""Text from a run, a baseline or a scenario on its way into a terminal table or markdown.

Strategy keys, cell ids, prompt names and fact ids come from files a user (or a pull request)
controls, and `compsim check --format markdown` is appended to a CI job summary, where a
`|` ends a cell, a newline ends the table and `<img onerror=...>` or `[x](javascript:...)` is
markup. So every cell and every line of free text is escaped where it is rendered: control
characters shown as escapes (sim.errors.one_line), and in markdown also pipes, HTML and the
characters that start links and code spans.
"""

from __future__ import annotations

import html
import re

from sim.errors import one_line

_MD_SPECIAL = re.compile(r"([\\`|\[\]])")  # code spans, cells, links; emphasis is harmless
_LONG = 10_000  # a cell longer than this is cut: a table is for reading


def term(text: object) -> str:
    """One cell or line for a terminal: no control character reaches the terminal."""
    return one_line(str(text), _LONG)


def md(text: object) -> str:
    """Markdown-safe text (a table cell or a list item): `& < >` as entities, pipes, code
    spans and link brackets backslash-escaped, and no line break."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(term(text), quote=False))
