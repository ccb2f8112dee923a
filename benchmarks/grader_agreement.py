"""How often the text grader agrees with a careful reader, on the labelled corpus.

    .venv/bin/python benchmarks/grader_agreement.py [--split train|heldout|all] [--show N]
    .venv/bin/python benchmarks/grader_agreement.py --split heldout --by-source

The corpus (tests/fixtures/grader_corpus/) holds hand-labelled (fact, text) cases: written in
the styles real summarizers use, and cut from real model outputs. Prints agreement per class and
per failure kind, the confusion matrix (expected x got), the false-kept rate and the disagreeing
cases. The held-out split is for the final measurement only: tune nothing on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from sim.grading.agreement import Agreement, format_agreement, load_cases, score
from sim.history.constraint_pools import PROHIBITION
from sim.history.constraints import build_fact, prohibition_for
from sim.runtime.floor_registry import load_floor_registry
from sim.tokens import get_counter
from sim.types import AnchorGroup, Fact, Polarity, RecallFloor

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "grader_corpus"


def frozen_fact(data: dict[str, Any]) -> Fact:
    """A fact as a frozen history file writes it (real_facts.json: the planted rules of the
    sessions a real model summarized for the committed cassette)."""
    anchors = tuple(
        AnchorGroup(a["role"], tuple(a["forms"]), tuple(a.get("opposites", ())))
        for a in data["anchors"]
    )
    floor = RecallFloor(tuple(data["floor"]), int(data["min_span_tokens"]))
    return Fact(
        data["fact_id"], data["cls"], data["text"], anchors, Polarity(data["polarity"]), floor
    )


def corpus_facts(path: Path = CORPUS / "facts.toml") -> dict[str, Fact]:
    """The facts the corpus is labelled against: the generator's (facts.toml), the real
    sessions' (real_facts.json, keyed `history:fact`), and rules declared the way a user
    declares their own (declared*.toml, floor registries read by `load_floor_registry`)."""
    facts: dict[str, Fact] = {}
    for registry in sorted(path.parent.glob("declared*.toml")):
        for fact in load_floor_registry(registry).facts:
            facts[fact.fact_id] = fact
    real = path.parent / "real_facts.json"
    if real.is_file():
        for key, data in json.loads(real.read_text(encoding="utf-8")).items():
            facts[key] = frozen_fact(data)
    for fact_id, spec in tomllib.loads(path.read_text(encoding="utf-8")).items():
        if spec["class"] == "prohibition":
            verb, obj = PROHIBITION[spec["variant"]][0], PROHIBITION[spec["variant"]][3]
            fact = prohibition_for(verb, obj, spec["step"], fact_id).fact
        else:
            rng = np.random.default_rng(0)
            fact = build_fact(spec["class"], spec["variant"], rng, fact_id).fact
        facts[fact_id] = replace(fact, text=spec["text"])
    return facts


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.jsonl"))


def measure(split: str | None) -> Agreement:
    facts = corpus_facts()
    counter = get_counter()
    result = Agreement()
    for path in corpus_files():
        result.graded += score(load_cases(path), facts, counter, split).graded
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("train", "heldout", "all"), default="train")
    ap.add_argument("--show", type=int, default=40, help="disagreeing cases to print")
    ap.add_argument(
        "--by-source", action="store_true", help="one table row per source (the docs' table)"
    )
    args = ap.parse_args(argv)
    split = None if args.split == "all" else args.split
    if args.by_source:
        print(source_rows(split, args.split))
        return 0
    result = measure(split)
    print(format_agreement(result, f"grader corpus, {args.split} split", args.show))
    return 0


CLASSES = ("prohibition", "ordering", "value_pin", "conditional", "confirmation")


def source_rows(split: str | None, name: str) -> str:
    """Markdown rows: written cases, cases for user-declared rules (declared*.jsonl), real-model
    cases (real.jsonl), all; agreement, false kept and agreement per class."""
    facts, counter = corpus_facts(), get_counter()
    rows = {"written": Agreement(), "declared": Agreement(), "real model": Agreement()}
    for path in corpus_files():
        source = (
            "real model"
            if path.name == "real.jsonl"
            else "declared"
            if path.name.startswith("declared")
            else "written"
        )
        rows[source].graded += score(load_cases(path), facts, counter, split).graded
    rows["all"] = Agreement([g for a in rows.values() for g in a.graded])
    out = []
    for source, a in rows.items():
        k, n = a.rate()
        if not n:
            continue
        fk = len(a.false_kept)
        by = a.by(lambda g: g.cls)
        cells = " | ".join(
            f"{100 * by[c][0] / by[c][1]:.0f}%" if by.get(c, (0, 0))[1] else "-" for c in CLASSES
        )
        out.append(
            f"| {name} | {source} | {n} | {100 * k / n:.1f}% ({k}/{n}) | "
            f"{100 * fk / n:.1f}% ({fk}/{n}) | {cells} |"
        )
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
