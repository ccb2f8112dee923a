"""An order stated by a plan: numbered steps and checklists put their items in sequence.

"1. run the DB migration / 2. deploy the API" states "migrate before deploying" as plainly as
the sentence does, and "1. change the schema / 2. back up the user table" reverses "back up
before changing the schema". Only ordered lists count (numbers, "step N:", checkboxes): plain
bullets list things, they do not sequence them.
"""

from __future__ import annotations

import re

_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|step \d{1,2}\s*[:.)-]|[-*]?\s*\[[ xX]\])\s+(\S.*)$", re.I)


def plan_items(text: str) -> list[list[str]]:
    """The text's ordered lists, each as its items' raw text in order (a list ends at the
    first line that is neither an item nor indented under one)."""
    plans: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        m = _ITEM.match(line)
        if m is not None:
            current.append(m.group(1).strip())
        elif current and line.startswith((" ", "\t")) and line.strip():
            current[-1] += " " + line.strip()  # a sub-bullet belongs to its item
        else:
            if len(current) >= 2:
                plans.append(current)
            current = []
    if len(current) >= 2:
        plans.append(current)
    return plans


_MAY_OPEN = re.compile(r"(?m)^\s*(?:\d{1,2}[.)]|step \d|[-*]?\s*\[[ xX]\])", re.I)


def may_hold_plan(text: str) -> bool:
    """A cheap test before `plan_items`: a line opening with a digit, "step" or a checkbox
    (true of a text exactly when it is true of one of its lines)."""
    return _MAY_OPEN.search(text) is not None
