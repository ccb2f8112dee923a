"""Prompt files: summarizer instructions as templates with named placeholders.

A prompt is filled by `string.Template` substitution only (no format strings, no attribute
access), so `{x.__class__}` stays literal text and `${__import__}` is an unknown placeholder.
Placeholders: `$input` (required: the text to summarize), `$budget_tokens`, `$pinned_facts`,
`$level`; `$$` is a literal dollar sign. Unknown, missing or malformed placeholders are errors
that name the file and the placeholder.

An instruction anywhere in a scenario (a level's `instruction`, a strategy's `instruction`
argument, a sweep axis value) is a preset name (`compress`, `continuity`), a literal prompt,
or `file:PATH`: a prompt file, relative to the folder of the file that names it (the scenario
file; for a suite's strategies under test, the suite file), or the working folder for a scenario
built in code.
Pins reach the model even when a template has no `$pinned_facts`: they are appended.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Template

from sim.errors import UserError
from sim.files import read_capped
from sim.types import Fact

PLACEHOLDERS = ("input", "budget_tokens", "pinned_facts", "level")
REQUIRED = ("input",)
FILE_PREFIX = "file:"
MAX_PROMPT_BYTES = 256 * 1024

PIN_HEADER = "Keep these facts verbatim in your output:"


class PromptError(UserError):
    """A prompt file that cannot be used: unreadable, or a bad placeholder."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """A checked template. `source` is where it came from (a path, or `<inline>`)."""

    source: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def has_pins(self) -> bool:
        return "pinned_facts" in Template(self.text).get_identifiers()


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line}, column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


def check_template(text: str, source: str, require_input: bool = True) -> Prompt:
    """Validate placeholders; every problem names `source` and where the placeholder is, but
    never echoes the text: a `file:` reference may name a file nobody meant to show."""
    tpl = Template(text)
    for m in tpl.pattern.finditer(text):
        if m.group("invalid") is not None:
            raise PromptError(
                f"{source}: {_where(text, m.start())}: malformed placeholder, a $ that starts "
                "no name (write $$ for a literal dollar sign)"
            )
        name = m.group("named") or m.group("braced")
        if name is not None and name not in PLACEHOLDERS:
            raise PromptError(
                f"{source}: {_where(text, m.start())}: unknown placeholder "
                f"(valid: {', '.join('$' + p for p in PLACEHOLDERS)})"
            )
    found = set(tpl.get_identifiers())
    for name in REQUIRED if require_input else ():
        if name not in found:
            raise PromptError(f"{source}: missing placeholder ${name} (the text to summarize)")
    return Prompt(source, text)


@lru_cache(maxsize=256)
def _load(path: Path) -> Prompt:
    raw = read_capped(
        path,
        "prompt file",
        PromptError,
        MAX_PROMPT_BYTES,
        "{path}: prompt file is {size} bytes (limit {limit})",
    )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PromptError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return check_template(text, str(path))


def load_prompt(path: str | Path) -> Prompt:
    """Read and check one prompt file (memoized per process)."""
    return _load(Path(path))


ANYWHERE_ENV = "COMPSIM_PROMPT_FILES_ANYWHERE"
"""Set to 1 (`--prompt-files-anywhere` does) to let `file:` references leave the scenario's
folder; the opt-in lives outside the scenario, so a scenario cannot grant it to itself."""


def find_file(ref: str, base_dir: Path | None) -> Path:
    """The file a `file:` reference names, relative to `base_dir` (the scenario's folder) and
    inside it: an absolute path, `../` or a link out of the folder is refused unless the user
    opted in (ANYWHERE_ENV). A scenario built in code (no folder) resolves against the
    working folder."""
    if "\x00" in ref:
        raise PromptError(f"{ref!r}: a file: reference cannot contain a NUL byte")
    rel = Path(ref.removeprefix(FILE_PREFIX).strip())
    if not str(rel) or str(rel) == ".":
        raise PromptError(f"{ref!r}: a file: reference needs a path")
    if base_dir is None:
        return rel
    target = rel if rel.is_absolute() else base_dir / rel
    if os.environ.get(ANYWHERE_ENV) == "1":
        return target
    root = base_dir.resolve()
    try:
        real = target.resolve()
    except (OSError, RuntimeError):  # a link loop
        raise PromptError(f"{ref}: cannot resolve the path") from None
    if real != root and root not in real.parents:
        raise PromptError(
            f"{ref}: outside the scenario's folder {root}; move the prompt there, or allow it "
            f"with --prompt-files-anywhere ({ANYWHERE_ENV}=1)"
        )
    return target


def is_file_ref(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FILE_PREFIX)


def expand(value: str | None, base_dir: Path | None) -> str | None:
    """A `file:` reference becomes its checked template text; anything else is unchanged."""
    if value is None or not is_file_ref(value):
        return value
    return load_prompt(find_file(value, base_dir)).text


def prompt_label(value: str | None) -> str:
    """A short name for tables: the file's stem, a preset's name, or 'inline'."""
    if value is None:
        return "default"
    if is_file_ref(value):
        return Path(value.removeprefix(FILE_PREFIX)).stem
    return value if re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", value) else "inline"


def pinned_block(pinned: Sequence[Fact]) -> str:
    return "".join(f"- {f.text.strip()}\n" for f in pinned)


def render(
    template: str,
    *,
    text: str,
    budget_tokens: int,
    level: str,
    pinned: Sequence[Fact] = (),
    source: str = "<instruction>",
) -> str:
    """Fill a template. A template without `$pinned_facts` still carries the pins (appended),
    because a pin that never reaches the model is a silent loss; an inline instruction without
    `$input` (files must have one) is followed by the input."""
    prompt = check_template(template, source, require_input=False)
    body = prompt.text
    if "input" not in Template(body).get_identifiers():
        body = f"{body.rstrip()}\n\n$input"
    pins = pinned_block(pinned)
    out = Template(body).substitute(
        input=text, budget_tokens=str(budget_tokens), pinned_facts=pins or "(none)", level=level
    )
    if pins and not prompt.has_pins:
        out = f"{out.rstrip()}\n\n{PIN_HEADER}\n{pins}"
    return out


def _refs(node: object, where: str) -> list[tuple[str, str]]:
    """Every `file:` string inside a scenario's data, with its dotted location."""
    if is_file_ref(node):
        return [(where, str(node))]
    if isinstance(node, dict):
        return [r for k, v in node.items() for r in _refs(v, f"{where}.{k}" if where else k)]
    if isinstance(node, list):
        return [r for i, v in enumerate(node) for r in _refs(v, f"{where}.{i}")]
    return []


def check_prompt_refs(
    data: dict[str, object], scenario_path: Path, named_by: Mapping[str, Path] | None = None
) -> None:
    """Load and check every prompt file a scenario names, so a bad one fails at load time
    with the file that names it, the field, the reference and the prompt file's own problem.
    `named_by` maps a top-level field to the file that wrote it when that is not the scenario
    (a suite's `strategies`): its references resolve, and are reported, next to that file."""
    from sim.errors import ScenarioError

    named_by = named_by or {}
    for where, ref in _refs(data, ""):
        naming = named_by.get(where.split(".", 1)[0], scenario_path)
        try:
            load_prompt(find_file(ref, naming.parent))
        except PromptError as exc:
            why = str(exc)
            if not why.startswith(ref):
                why = f"{ref}: {why}"
            raise ScenarioError(f"{naming}: {where}: {why}") from None


def base_dir(scenario: object, field: str | None = None) -> Path | None:
    """The folder `file:` references in `field` resolve against: that of the file that named
    the field (a suite's strategies), else that of the scenario file (None for a scenario
    built in code)."""
    dirs = getattr(scenario, "_ref_dirs", None)
    named = dirs.get(field) if field is not None and isinstance(dirs, dict) else None
    if isinstance(named, Path):
        return named
    value = getattr(scenario, "_base_dir", None)
    return value if isinstance(value, Path) else None
