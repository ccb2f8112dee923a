"""Strategies never see the answer key (a compactor that can find the planted facts would
measure nothing): no strategy module imports the ground truth, and at run time a strategy's
context holds only the facts declared to the floor gate."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

import sim
from sim.history.generate import Placement
from strategies.base import CallContext
from tests.helpers import Scripted, history_with, note_fact, planted, run_scripted

STRATEGIES = Path(__file__).resolve().parents[2] / "strategies"
GROUND_TRUTH = {
    "sim.history",  # the generator, its constraint pools and filler, the planted facts
    "sim.engine",  # the trial loop holds the history and its facts
    "sim.runs",  # scenarios and trials build the history
    "sim.summarizers.simulated",  # reads the planted facts' renderings
}


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports, resolving `from sim import x` (a submodule or a lazy
    re-export of sim/__init__.py) to the module that defines it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            for alias in node.names:
                found.add(f"{node.module}.{alias.name}")
                if node.module == "sim" and alias.name in sim._EXPORTS:
                    found.add(sim._EXPORTS[alias.name])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            found.update(a.value for a in node.args if isinstance(a, ast.Constant))
    return found


def _forbidden(modules: set[str]) -> set[str]:
    return {m for m in modules if any(m == g or m.startswith(g + ".") for g in GROUND_TRUTH)}


MODULES = sorted(STRATEGIES.glob("*.py"))


def test_the_scan_sees_the_strategy_modules() -> None:
    names = {p.name for p in MODULES}
    assert {"base.py", "registry.py", "floor_gated.py", "budget_open.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_strategy_module_imports_the_ground_truth(path: Path) -> None:
    assert _forbidden(_imported_modules(path)) == set()


@pytest.mark.parametrize(
    "source",
    [
        "import sim.history.generate",
        "from sim.history.constraints import CLASSES",
        "from sim import generate_history",
        "from sim import engine",
        "from sim.summarizers.simulated import SimulatedSummarizer",
        "def f():\n    import sim.history.filler\n",
        "import importlib\nimportlib.import_module('sim.runs.trial')",
    ],
)
def test_the_scan_would_catch_an_import(tmp_path: Path, source: str) -> None:
    path = tmp_path / "leaky.py"
    path.write_text(source, encoding="utf-8")
    assert _forbidden(_imported_modules(path))


def test_context_registry_holds_only_declared_live_facts() -> None:
    declared = note_fact("f1")
    ordering = planted("ordering", 1, "f2")
    undeclared = replace(ordering, fact=replace(ordering.fact, declared=False))
    history = history_with(Placement(declared, turn=2), Placement(undeclared, turn=3))
    assert [f.declared for f in history.facts] == [True, False]
    texts = {"L1": history.text, "L2": history.text, "L3": ""}
    strategy = Scripted(texts)
    run_scripted(history, strategy)
    assert strategy.seen_registry, "the strategy was called"
    for registry in strategy.seen_registry:
        assert [f.fact_id for f in registry] == ["f1"]
    # the context type itself offers nothing else that carries facts
    assert [f for f in CallContext.__dataclass_fields__ if "fact" in f.lower()] == []
