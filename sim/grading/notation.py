"""Config-style notes read as the sentences they abbreviate.

Summarizers write rules as state: nested keys (YAML, inline JSON), `key=value` pairs, booleans.
A careful reader takes "ocr:\\n  dpi: 300  # required" as "the OCR pass: dpi 300, required",
and "rules: {snapshots: {delete_after_step: 5, allowed: false}}" as "deleting snapshots after
step 5 is not allowed". Here each leaf becomes one line that carries its parents' names, so
the object named by a parent key and the rule in a child share a sentence, as they share a
meaning. Prose passes through untouched (and costs one scan for `=`, `{` and indentation).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache, reduce
from operator import or_

_KEY_LINE = re.compile(r"^(\s*)(-\s+)?([A-Za-z_][\w .\-/]{0,48}?)\s*:(?:\s+(.*?))?\s*$")
_PAIR = re.compile(r"(?<![\w.])([A-Za-z_][\w.\-]*)=(\([^)]*\)|[^\s;,|()]+(?:\([^)]*\))?)")
_NAMES = frozenset(("id", "name", "key", "item", "target", "resource"))
# a record's field that names it, its siblings' subject ("task: fine-tune")
_RECORD_KEYS = _NAMES | frozenset(("task", "job", "service", "app", "tool", "model", "program"))
_TRUE = frozenset(("true", "yes", "on", "y"))
_FALSE = frozenset(("false", "no", "off", "n", "none", "null"))
_MODAL_KEYS = re.compile(
    r"^(?:allow|allowed|permit|permitted|forbid|forbidden|prohibited|banned|blocked|required|"
    r"requires?_.*|needs?_.*|enabled|disabled|locked|frozen|pinned|mandatory|optional)$"
)


def _words(key: str) -> str:
    return key.replace("_", " ").replace(".", " ").strip()


# a key's unit, written as its last word ("timeout_s", "slot_minutes", "retention_days")
_UNITS = {
    "s": "seconds", "sec": "seconds", "secs": "seconds", "seconds": "seconds",
    "ms": "milliseconds", "min": "minutes", "mins": "minutes", "minutes": "minutes",
    "h": "hours", "hr": "hours", "hrs": "hours", "hours": "hours", "days": "days",
    "d": "days", "pct": "percent", "percent": "percent", "mb": "MB", "gb": "GB", "kb": "KB",
    "c": "°C", "degc": "°C", "f": "°F", "degf": "°F", "km": "km", "kg": "kg", "mm": "mm",
    "cm": "cm", "kw": "kW", "mw": "MW", "rpm": "rpm", "dpi": "DPI", "fps": "fps",
}  # fmt: skip
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")


# a key that names what the act waits on: "gate: rosalind_confirmation" is "gated until it"
_GATE_KEYS = frozenset(("gate", "gated_on", "gated_by", "blocked_on", "blocked_by", "waits_on"))


def _leaf(key: str, value: str) -> str:
    """One key and its value as words: a boolean says whether the key holds, a number takes
    the unit its key ends in ("upload_interval_s: 300" reads "upload interval: 300 seconds")."""
    bare = value.strip().strip("\"'").lower()
    if bare in _TRUE:
        return _words(key)
    if bare in _FALSE:
        return "not " + _words(key)
    if key.lower() in _GATE_KEYS and bare not in _FALSE:
        return f"gated until {value.strip()}"  # "gate: general_counsel_confirmation"
    words = _words(key).split()
    if len(words) > 1 and words[-1].lower() in _UNITS and _NUMBER.match(bare):
        return f"{' '.join(words[:-1])}: {bare} {_UNITS[words[-1].lower()]}"
    return f"{_words(key)}: {value.strip()}"


def _pairs(line: str) -> str | None:
    """A line of `key=value` pairs as clauses, each led by the text before the first pair
    ("ft run: lr=2e-5 dropout=0.1" -> "ft run: lr: 2e-5; ft run: dropout: 0.1"); None when
    the line holds no pair."""
    found = list(_PAIR.finditer(line))
    if not found:
        return None
    lead = line[: found[0].start()].strip().rstrip(":|-").strip()
    out = []
    carry = ""  # words after a ";" lead the pair after them: "ok; rule: vent after_step=4"
    for i, m in enumerate(found):
        said = (f"{lead}: " if lead else "") + (f"{carry} " if carry else "")
        said += _leaf(m.group(1), m.group(2))
        end = found[i + 1].start() if i + 1 < len(found) else len(line)
        rest = line[m.end() : end]
        carry = ""
        if i + 1 < len(found) and ";" in rest:
            rest, carry = rest.rsplit(";", 1)
            carry = carry.strip(" ,|")
        rest = rest.strip(" ;,|")  # "dropout=? (user specified, check notes)"
        out.append(f"{said} {rest}" if rest else said)
        if not lead and i == 0 and len(found) > 1:
            lead = _record_name(m.group(1), f"{m.group(2)} {rest}".strip())
    return "; ".join(out)


def _names_item(key: str) -> bool:
    """Whether a list item's key (lower case) names the item: "id", "name", "job_name",
    "task", "model_id"."""
    return key in _RECORD_KEYS or key.endswith(("_name", "_id", "-name", "-id"))


def _record_name(key: str, value: str) -> str:
    """What a record's first field names it by, for the fields after it ("pan=A-strike vacuum
    pan; abs_pressure=150mbar": the pan's pressure); "" when the field is a setting's value (a
    number, a boolean, a value with no word in it), which names nothing."""
    bare = value.strip().strip("\"'")
    if bare.lower() in _TRUE or bare.lower() in _FALSE or not _NAME_WORD.search(bare):
        return ""
    return f"{_words(key)} {bare}" if bare[:1].isdigit() else bare


_NAME_WORD = re.compile(r"[A-Za-z]{2,}")  # "A-strike vacuum pan", "24-117 Halloran"
# an identifier, not a word or a number: "static-assets", "web_blue", "etch-03"
_SLUG = re.compile(r"[A-Za-z][A-Za-z\d]*(?:[-_][A-Za-z\d]+)+")


def _inline_json(line: str) -> list[str] | None:
    """`prefix {a: {b: 5, c: false}}` as nested lines, or None if the braces do not parse."""
    start = line.find("{")
    body = re.sub(r"'([^'\"\\]*)'", r'"\1"', line[start:])  # YAML's 'single quotes'
    quoted = re.sub(r"([{,]\s*)([A-Za-z_][\w.\-]*)\s*:", r'\1"\2":', body)
    quoted = re.sub(r":\s*([A-Za-z_][\w.\-/@]*)\s*(?=[,}])", r': "\1"', quoted)
    try:
        data = json.loads(quoted)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    lead = line[:start].strip().rstrip(":=").strip()
    out: list[str] = []
    _flatten(data, [lead] if lead else [], out)
    return out


def _flatten(data: dict[str, object], path: list[str], out: list[str]) -> None:
    leaves = []
    for key, value in data.items():
        if isinstance(value, dict):
            _flatten(value, [*path, _words(str(key))], out)
        else:
            said = str(value).lower() if isinstance(value, bool) else str(value)
            leaves.append(_leaf(str(key), said))
    if leaves:
        # siblings describe one thing: a rule's step and its "allowed: false" belong together
        out.append((" ".join(path) + ": " if path else "") + ", ".join(leaves))


_PAIR_HINT = re.compile(r"\w=[^\s=]")
_OBJECT_HINT = re.compile(r"\{\s*[\"']?\w+[\"']?\s*:")
_NESTED_HINT = re.compile(r":[ \t]*(?:#[^\n]*)?\n[ \t]+\S")


def structured(text: str) -> bool:
    """Whether `text` may hold notation worth rewriting: a `key=value`, an inline object, or a
    key line with an indented line under it (substring tests first: prose has none)."""
    return bool(
        ("=" in text and _PAIR_HINT.search(text))
        or ("{" in text and _OBJECT_HINT.search(text))
        or (("\n " in text or "\n\t" in text) and _NESTED_HINT.search(text))
        or (("|-" in text or "|:-" in text or "| -" in text) and _TABLE_RULE.search(text))
    )


# the rule under a markdown table's header row: "|---|:---:|", "| --- | --- |"
_TABLE_RULE = re.compile(r"(?m)^[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+(?:[ \t]*:?-{2,}:?[ \t]*)?$")
_EMPTY_CELL = frozenset(("", "-", "--", "—", "–", "n/a", "none"))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


_SETTING_HEADS = frozenset(("setting", "parameter", "param", "key", "field", "property"))
_VALUE_HEADS = frozenset(("value", "target", "setpoint", "set point", "set value"))


def _setting_value(head: list[str]) -> tuple[int, int] | None:
    """The columns of a table that names settings in one and their values in the next."""
    for k in range(1, len(head) - 1):
        if head[k].lower() in _SETTING_HEADS and head[k + 1].lower() in _VALUE_HEADS:
            return k, k + 1
    return None


def _tables(text: str) -> str:
    """Markdown tables as sentences: each cell of a row a line of its own, led by the row's
    name (its first cell; a number by its column: "Step 1") and the cell's column, so a cell
    is read with what it is about and apart from its neighbours, as a sub-bullet is.
    "| accrual JEs | posted | no repost after step 7 |" under "| item | status | rule |"
    reads "accrual JEs: status posted" and "accrual JEs: rule no repost after step 7"."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and "|" in lines[i] and _TABLE_RULE.match(lines[i + 1]):
            head = _cells(lines[i])
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                cells = _cells(lines[i])
                name = cells[0]
                if (not name or name.isdigit()) and head[0]:
                    name = f"{head[0]} {name}".strip()
                heads = [*head, *[""] * len(cells)]
                pair = _setting_value(head)
                if pair is not None and pair[1] < len(cells):
                    # "| Furnace | Peak temperature | 1530°C |" under "| Unit | Setting |
                    # Value |": the setting and its value one cell, as a pin states them
                    k, v = pair
                    value = "" if cells[v].lower() in _EMPTY_CELL else f" {cells[v]}"
                    cells = [*cells[:k], cells[k] + value, *cells[v + 1 :]]
                    heads = [*heads[:k], "", *heads[v + 1 :]]
                said = [
                    f"{h} {c}" if h else c
                    for h, c in zip(heads[1:], cells[1:], strict=False)
                    if c.lower() not in _EMPTY_CELL
                ]
                out.extend([f"{name}: {cell}" for cell in said] if said else [name])
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


# a line that opens a nesting: a key with no value ("rules:"), or a list item named by its id
_OPENS = re.compile(
    r"(?m)^[ \t]*(?:-[ \t]+)?[A-Za-z_][\w .\-/]{0,48}?[ \t]*:[ \t]*(?:#.*)?$"
    r"|^[ \t]*-[ \t]+(?:id|name|key|item|target|resource)[ \t]*:[ \t]*\S"
)


def as_prose(text: str) -> str:
    """The text as both graders read it (sim.grading.sentences, sim.grading.grade_lines):
    config notation as sentences, anything else unchanged.

    A sweep reads thousands of long texts with a `key=value` in their tool output and no key
    above any line: those are read line by line from marks kept per line (`_kinds`), which
    give `structured` and `_prose`'s result exactly; a text with a line that may open a
    nesting, or a table, is read whole."""
    lines = text.split("\n")
    kinds = reduce(or_, map(_kinds, lines), 0)
    if kinds & _WHOLE:
        return read_whole(text)
    if (
        not kinds & _PAIR_LINE
        and not (kinds & _BRACE_LINE and _OBJECT_HINT.search(text))
        and not (
            kinds & _KEY_END_LINE
            and ("\n " in text or "\n\t" in text)
            and _NESTED_HINT.search(text)
        )
    ):
        return text  # not structured
    return "\n".join("\n".join(_alone(line)) if _kinds(line) & _MARKED else line for line in lines)


def read_whole(text: str) -> str:
    """`as_prose` by the whole text's scans: what the marks per line stand in for."""
    return "\n".join(_prose(text)) if structured(text) else text


_WHOLE, _PAIR_LINE, _KEY_END_LINE, _MARKED, _BRACE_LINE = 1, 2, 4, 8, 16
_KEY_END = re.compile(r":[ \t]*(?:#[^\n]*)?$")  # where _NESTED_HINT starts, on one line


@lru_cache(maxsize=32_768)  # a sweep meets the same tool-output lines in trial after trial
def _kinds(line: str) -> int:
    """A line's part in `structured` and `_prose`: it may open a nesting or is a table's rule
    (`_WHOLE`: the text is read whole), holds a pair, ends as a key, holds a brace, holds a
    `_MARK`.
    `_OPENS` and `_PAIR_HINT` never cross a line, so a text has them where a line does. A
    brace does not make the text read whole: where no line opens a nesting, `_prose` reads
    each line with a brace alone, as the JSON lines of tool output are (only `_OBJECT_HINT`,
    which may cross a line, is asked of the whole text)."""
    kind = 0
    if _OPENS.match(line) or ("-" in line and _TABLE_RULE.match(line)):
        kind |= _WHOLE
    if "{" in line:
        kind |= _BRACE_LINE | _MARKED
    if "=" in line and _PAIR_HINT.search(line):
        kind |= _PAIR_LINE
    if ":" in line and _KEY_END.search(line):
        kind |= _KEY_END_LINE
    if "=" in line or " #" in line:
        kind |= _MARKED
    return kind


def prose_lines(text: str) -> list[str]:
    """The text's lines with config notation read as sentences; other lines as they are.
    A text where no line opens a nesting is read line by line, each line once per process
    (a sweep meets the same tool-output lines in trial after trial)."""
    return list(_prose(text))


@lru_cache(maxsize=2_048)  # a level's text is graded once per set of facts asked about
def _prose(text: str) -> tuple[str, ...]:
    if "|" in text and _TABLE_RULE.search(text):
        text = _tables(text)
    if _may_open(text):
        return tuple(_nested(text))
    # no key above any line: only lines with notation of their own change, found in C
    parts, pos = [], 0
    for hit in _MARK.finditer(text):
        if hit.start() < pos:
            continue  # a line already read
        start = text.rfind("\n", 0, hit.start()) + 1
        end = text.find("\n", hit.end())
        end = len(text) if end < 0 else end
        parts += [text[pos:start], "\n".join(_alone(text[start:end]))]
        pos = end
    parts.append(text[pos:])
    return tuple("".join(parts).split("\n"))


_MARK = re.compile(r"=|\{| #")


def _may_open(text: str) -> bool:
    """Whether a line may open a nesting (`_OPENS`), by substring tests before the regex."""
    ends = ":\n" in text or ": \n" in text or ":\t" in text or text.rstrip().endswith(":")
    named = "- " in text and any(f"- {n}:" in text for n in _NAMES)
    return (ends or named or " #" in text) and _OPENS.search(text) is not None


@lru_cache(maxsize=16_384)
def _alone(line: str) -> tuple[str, ...]:
    """One line as `_nested` reads it with no key above it."""
    return tuple(_nested(line))


def _nested(text: str) -> list[str]:
    """Every line read with the keys above it (YAML nesting, list items named by their id)."""
    out: list[str] = []
    parents: list[tuple[int, str]] = []  # (indent, name) of the keys above this line
    section = ""  # the markdown header over a block ("## Ingest service" / "Logging:" / "- level")
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#") and not stripped.startswith("#!"):
            section = stripped.strip("#").strip()
            parents.clear()
            out.append(line)
            continue
        if "{" in stripped and stripped.endswith("}"):
            nested = _inline_json(stripped)
            if nested is not None:
                out.extend(nested)
                continue
        m = _KEY_LINE.match(line.split(" #", 1)[0]) if stripped else None
        if m is None:
            if stripped and not stripped.startswith("#"):
                parents.clear()
            pairs = _pairs(line) if "=" in line else None
            out.append(pairs if pairs is not None else line)
            continue
        indent = len(m.group(1)) + (len(m.group(2)) if m.group(2) else 0)
        item = bool(m.group(2))
        while parents and parents[-1][0] >= indent and not (item and parents[-1][0] == indent):
            parents.pop()
        key, value = m.group(3), (m.group(4) or "")
        comment = line.split(" #", 1)[1].strip() if " #" in line else ""
        if m.group(2) and value and _names_item(key.lower()):
            # "- id: payment-worker", "- job_name: node-exporter": the item's name stands for
            # it in its keys below
            dash = len(m.group(1))
            while parents and parents[-1][0] >= dash:
                parents.pop()
            parents.append((dash, value))
            continue
        if not value:
            parents.append((indent, _words(key)))
            out.append(line)
            continue
        path = " ".join([section] * bool(section and parents) + [name for _, name in parents])
        leaf = _leaf(key, value.split(" #", 1)[0])
        if "=" in value:
            leaf = _pairs(f"{_words(key)}: {value}") or leaf
        said = (f"{path} {leaf}" if path else leaf) + (f" ({comment})" if comment else "")
        if parents and _MODAL_KEYS.match(key.lower()) and out and out[-1].startswith(path):
            out[-1] += ", " + leaf  # "delete_after_step: 5" then "allowed: false": one rule
            continue
        first_leaf = bool(out) and out[-1].rstrip().endswith(":")
        out.append(said if parents else (line if not comment and "=" not in value else said))
        bare = value.split(" #", 1)[0].strip()
        if parents and not item and first_leaf and _SLUG.fullmatch(bare):
            # "cdn:\n  distribution: static-assets\n  cache_ttl: 3600s": a first field whose
            # value is a slug names the record ("cdn distribution static-assets cache ttl")
            parents[-1] = (parents[-1][0], f"{parents[-1][1]} {_words(key)} {bare}")
        elif parents and not item and key.lower() in _RECORD_KEYS:
            # "run_config:\n  task: fine-tune\n  dropout: 0.1": the task names the record,
            # and so the keys after it ("run config fine-tune dropout: 0.1")
            name = _record_name(key, value.split(" #", 1)[0].split(" (", 1)[0])
            if name:
                parents[-1] = (parents[-1][0], f"{parents[-1][1]} {name}")
    return out
