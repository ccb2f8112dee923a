"""`--compactor REF`, `--strategy REF` and `--summarizer REF`: your own code in a run or a
bench, named by reference (`pkg.module:fn` or `path/to/file.py:fn`, sim.runtime.reference).

The flags become `-S strategies=[...]` (and `-S summarizer...`) overrides, so they go through
the scenario's own validation and land in the run manifest like any other setting. The
strategies given replace the scenario's, and the reference baselines (`empty`, `head`, `tail`,
`keep_all`) run beside them so every number can be read against "do nothing" and "keep
everything". Each reference is imported (and its signature checked) before any trial runs.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.grading.outcomes import REFERENCES
from sim.runtime.reference import split_reference
from strategies.registry import create_strategy


def add_user_code_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("your code, by reference (pkg.module:fn or path/to/file.py:fn)")
    g.add_argument(
        "--compactor",
        action="append",
        default=[],
        metavar="REF",
        help="fn(text, budget_tokens) -> str | (text, consumed) | obj with .text, run at every "
        "level as a strategy named after fn; repeatable (NAME=REF to name it)",
    )
    g.add_argument(
        "--strategy",
        dest="strategy_factory",
        action="append",
        default=[],
        metavar="REF",
        help="a factory returning a strategy (compact(text, budget, ctx) -> PieceResult); "
        "repeatable (NAME=REF to name it)",
    )


def entries(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The scenario's strategy entries for the --compactor and --strategy flags."""
    out: list[dict[str, Any]] = []
    for key, flag in (("callable", "compactor"), ("factory", "strategy_factory")):
        for value in getattr(args, flag, []) or []:
            name, ref = _named(value)
            flagname = "--strategy" if key == "factory" else "--compactor"
            entry = {"name": name, key: ref} if name else {key: ref}
            try:
                split_reference(ref)
                create_strategy(name or _default_name(ref), **{key: ref})
            except UserError as exc:
                why = str(exc).removeprefix(f"{ref!r}: ")
                raise UserError(f"{flagname} {value}: {why}") from None
            out.append(entry)
    labels = [str(e.get("name") or _default_name(e.get("callable") or e["factory"])) for e in out]
    for label in labels:
        if labels.count(label) > 1:
            raise UserError(f"two strategies are named {label!r}; name one with NAME=REF")
    return out


def _default_name(ref: str) -> str:
    return ref.rpartition(":")[2].rpartition(".")[2]


def _named(value: str) -> tuple[str | None, str]:
    head, sep, rest = value.partition("=")
    if sep and head and ":" not in head and "/" not in head:
        return head, rest
    return None, value


def strategy_overrides(args: argparse.Namespace, given: Sequence[str]) -> list[str]:
    """`-S strategies=[...]` for the flags, with the reference baselines; empty without flags."""
    mine = entries(args)
    if not mine:
        return []
    if any(o.split("=", 1)[0].strip().strip('"') == "strategies" for o in given):
        raise UserError("--compactor/--strategy and -S strategies=... contradict; choose one")
    tables = ["{" + ", ".join(f"{k} = {_toml(v)}" for k, v in e.items()) + "}" for e in mine]
    return ["strategies=[" + ", ".join([*tables, *map(_toml, REFERENCES)]) + "]"]


def _toml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def user_labels(args: argparse.Namespace) -> list[str]:
    """The strategy labels the flags produce (as the run's rows name them)."""
    labels = []
    for e in entries(args):
        ref = e.get("callable") or e.get("factory") or ""
        labels.append(e.get("name") or _default_name(ref))
    return labels


def print_verdicts(path: Path, labels: Sequence[str]) -> bool:
    """One line per compactor under test; True when one of them collapsed silently (the run
    then exits 1, like a failed check)."""
    if not labels:
        return False
    from sim.regression.compactor_report import CompactorReport

    collapses = CompactorReport.load(path, labels).collapses()
    print()
    for c in collapses:
        print(c.line())
    return any(c.silent for c in collapses)
