"""The grader corpus's loaders (benchmarks/grader_agreement.py), for the tests that read the
hand-labelled corpus or its declared rules: one module, loaded once."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from sim.types import Polarity

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO / "tests" / "fixtures" / "grader_corpus"
_spec = importlib.util.spec_from_file_location(
    "grader_agreement", REPO / "benchmarks" / "grader_agreement.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def heldout_rules() -> set[str]:
    """The declared rules held out of the corpus's training split: the template guards leave
    them out, as the held-out cases are, so nothing is tuned to them."""
    return {
        c.fact
        for path in sorted(CORPUS.glob("declared*.jsonl"))
        for c in bench.load_cases(path)
        if c.split == "heldout"
    }


@cache
def _facts():  # type: ignore[no-untyped-def]
    return bench.corpus_facts()


def orders_its_act(rule: dict) -> bool:  # type: ignore[type-arg]
    """A declared conditional that orders its act ("If dissolved oxygen drops below 6 mg/L,
    switch on the aerators"): the templates that permit or do a forbidden act restate it."""
    return rule["class"] == "conditional" and _facts()[rule["id"]].polarity is Polarity.REQUIRE
