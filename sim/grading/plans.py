"""An order stated by a plan: numbered steps and checklists put their items in sequence.

"1. run the DB migration / 2. deploy the API" states "migrate before deploying" as plainly as
the sentence does, and "1. change the schema / 2. back up the user table" reverses "back up
before changing the schema". Only ordered lists count (numbers, "step N:", checkboxes): plain
bullets list things, they do not sequence them.
"""

from __future__ import annotations

import re

_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|step \d{1,2}\s*[:.)-]|[-*]?\s*\[[ xX]\])\s+(\S.*)$", re.I)


# "(1) Teodora confirms, (2) release to the ward", "1) send it, 2) confirm": numbered items
# inside one line (never "1." inline, which decimals and versions write)
_INLINE = re.compile(r"(?<![\w(])\(?([1-9])\)\s+")
LATER_STEP = r"\(?[2-9]\)\s"
"""An inline step's mark after the first ("(2) ", "3) "): where sim.grading.clauses splits."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
# "Step 1: checkpoint the weights. Step 2: prune the heads.": steps named inside one line, each
# opening the line or a sentence ("after step 2: ..." is no mark)
_INLINE_STEP = re.compile(r"(?:^|(?<=[.;:!]\s))\s*step ([1-9])\s*[:.)-]\s+", re.IGNORECASE)


def inline_items(line: str) -> list[str] | None:
    """A line's inline numbered items, numbered 1, 2, ... in order, each led by the line's
    text before the first ("Sequence for the platelet units: (1) ..., (2) ...": the lead names
    what the steps act on), or None."""
    marks = list(_INLINE.finditer(line))
    if len(marks) < 2 and "step" in line.lower():
        marks = list(_INLINE_STEP.finditer(line))
    if len(marks) < 2 or [int(m.group(1)) for m in marks] != list(range(1, len(marks) + 1)):
        return None
    lead = line[: marks[0].start()].strip()
    ends = [m.start() for m in marks[1:]] + [len(line)]
    items = [
        line[m.end() : end].strip().rstrip(",;.").strip()
        for m, end in zip(marks, ends, strict=True)
    ]
    items[-1] = _SENTENCE_END.split(items[-1], maxsplit=1)[0]  # the list ends with its sentence
    return [f"{lead} {item}".strip() for item in items]


def plan_items(text: str) -> list[list[str]]:
    """The text's ordered lists, each as its items' raw text in order (a list ends at the
    first line that is neither an item nor indented under one); a line of inline numbered
    items is a list of its own."""
    plans: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        m = _ITEM.match(line)
        if m is not None and len(_INLINE_STEP.findall(line)) >= 2:
            m = None  # "Step 1: ... Step 2: ...": a list of its own, in one line
        if m is None and (inline := inline_items(line)) is not None:
            plans.append(inline)
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
    """A cheap test before `plan_items`: a line opening with a digit, "step" or a checkbox,
    or holding an inline "(1)" or "1)" (true of a text exactly when it is true of one of its
    lines)."""
    return _MAY_OPEN.search(text) is not None or (
        "1)" in text and any(m.group(1) == "1" for m in _INLINE.finditer(text))
    )
