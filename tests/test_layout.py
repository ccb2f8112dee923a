"""The tree is the map: `sim/` in wings whose imports run one way, with no cycles.

Parses every import of `sim/` and `strategies/` (function-level and TYPE_CHECKING ones too: a
cycle that only the type checker sees is still a cycle) and fails on an import against the
direction, on a cycle between files or between wings, on a wing without its short docstring
and re-exports, and on a public name of `sim` that went missing.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable
from pathlib import Path

import pytest

import sim

REPO = Path(__file__).resolve().parents[1]

# Imports run from a higher rank to a lower one (or stay inside one wing); the four wings that
# share rank 2 may import each other as long as the wing graph stays acyclic.
RANK = {
    "api": 10,  # sim/__init__.py: the public API re-exports everything
    "commands": 9,
    "regression": 8,
    "report": 7,
    "runs": 6,
    "engine": 5,
    "strategies": 4,
    "summarizers": 3,
    "history": 2,
    "grading": 2,
    "prompts": 2,
    "runtime": 2,
    "root": 1,  # sim/types.py, tokens.py, errors.py, seeds.py, files.py, exports.py
}
WINGS = {w for w in RANK if w not in ("api", "root", "strategies")}
ROOT_MODULES = {"types", "tokens", "errors", "seeds", "files", "exports"}


def _modules() -> dict[str, Path]:
    found = {}
    for path in [*REPO.glob("sim/**/*.py"), *REPO.glob("strategies/**/*.py")]:
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The modules of this repository that `name` imports (a `from a import b` counts as an
    import of `a.b` when that is a module, else of `a`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
            targets = subs if len(subs) == len(node.names) else [base, *subs]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            targets = [a.value for a in node.args if isinstance(a, ast.Constant)]
        out.update(t for t in targets if t in MODULES and t != name)
    return out


EDGES = {name: _imports(name, path) for name, path in MODULES.items()}


def wing_of(module: str) -> str:
    if module == "sim":
        return "api"
    if module.split(".")[0] == "strategies":
        return "strategies"
    second = module.split(".")[1]
    return second if second in WINGS else "root"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _wing_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            if wing_of(a) != wing_of(b):
                graph.setdefault(wing_of(a), set()).add(wing_of(b))
    return graph


def _upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{a} -> {b}"
        for a, targets in edges.items()
        for b in targets
        if RANK[wing_of(a)] < RANK[wing_of(b)]
    )


def test_the_scan_sees_every_wing() -> None:
    assert {wing_of(m) for m in MODULES} == set(RANK)
    assert len(EDGES["sim.runs.runner"]) > 3  # the parser finds imports at all


def test_imports_run_one_way() -> None:
    assert _upward(EDGES) == []


def test_no_cycle_between_files() -> None:
    assert _cycles(EDGES) == []


def test_no_cycle_between_wings() -> None:
    assert _cycles(_wing_graph(EDGES)) == []


@pytest.mark.parametrize(
    "edges",
    [
        {"sim.grading.grade": {"sim.runs.scenario"}},  # upward
        {"sim.runtime.validity": {"sim.history.transcripts"}},  # closes history -> runtime
    ],
)
def test_the_checks_catch_a_bad_import(edges: dict[str, set[str]]) -> None:
    merged = {k: set(v) for k, v in EDGES.items()}
    for a, targets in edges.items():
        merged[a] |= targets
    assert _upward(merged) or _cycles(_wing_graph(merged))


def test_the_cycle_finder_finds_a_file_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_root_holds_only_the_shared_vocabulary() -> None:
    root = {p.stem for p in (REPO / "sim").glob("*.py") if p.name != "__init__.py"}
    assert root == ROOT_MODULES


def _wing_inits() -> Iterable[str]:
    return sorted(f"sim.{w}" for w in WINGS)


@pytest.mark.parametrize("wing", _wing_inits())
def test_each_wing_says_what_it_is_for_and_reexports(wing: str) -> None:
    module = importlib.import_module(wing)
    doc = (module.__doc__ or "").strip().splitlines()
    assert 2 <= len(doc) <= 4, f"{wing}: the docstring says in 2-4 lines what the wing is for"
    assert "import" in " ".join(doc).lower(), f"{wing}: the docstring says what it may import"
    assert module.__all__
    for name in module.__all__:
        value = getattr(module, name)
        assert getattr(value, "__module__", wing).startswith(wing), (wing, name)


def test_tests_mirror_the_wings() -> None:
    for wing in WINGS:
        assert (REPO / "tests" / "sim" / wing / "__init__.py").is_file(), wing
    stray = sorted(p.name for p in (REPO / "tests" / "sim").glob("test_*.py"))
    assert stray == ["test_files.py", "test_tokens.py"]  # the root modules' own tests


# Every public name `sim` exported before the wings: user code and the README keep working.
PUBLIC = [
    "Aggregates",
    "AnchorGroup",
    "BudgetClosureViolation",
    "BudgetInfeasible",
    "CallCache",
    "CallTimeout",
    "Cell",
    "CompactionFailure",
    "CompactionSimError",
    "Executor",
    "Fact",
    "FactGrade",
    "FaultConfig",
    "FaultySummarizer",
    "FloorGate",
    "FloorRegistry",
    "FloorRegistryError",
    "GateError",
    "GateReport",
    "GateResult",
    "Grade",
    "Grid",
    "GuardedSummarizer",
    "History",
    "HistorySpec",
    "InProcessExecutor",
    "Ladder",
    "LevelRecord",
    "LevelSpec",
    "LocalExecutor",
    "ModelSummarizer",
    "Placement",
    "Polarity",
    "RecallFloor",
    "RecallFloorViolation",
    "RegistryError",
    "Run",
    "RunResult",
    "Scenario",
    "ScenarioError",
    "ScriptedModel",
    "SimParams",
    "SimulatedSummarizer",
    "StructureViolation",
    "Suite",
    "Summarizer",
    "SummarizerConfig",
    "SummarizerUnavailable",
    "SummaryRequest",
    "SummaryResult",
    "Tokenizer",
    "Transcript",
    "TranscriptError",
    "TransientError",
    "TrialRecord",
    "TrialSpec",
    "UnitResult",
    "UserError",
    "Verdict",
    "Violation",
    "add_injections",
    "aggregate_run",
    "build_summarizer",
    "check_levels",
    "check_messages",
    "check_template",
    "declare_fact",
    "format_all",
    "generate_history",
    "get_counter",
    "grade_text",
    "head_messages",
    "load_floor_registry",
    "load_grid",
    "load_outcomes",
    "load_prompt",
    "load_run",
    "load_scenario",
    "load_suite",
    "load_transcript",
    "parse_expr",
    "probe_leaf",
    "read_baseline",
    "render_report",
    "rng_for",
    "run_gate",
    "run_grid",
    "run_scenario_trial",
    "run_trial",
    "summarizer",
    "tail_messages",
    "transcript_history",
    "write_baseline",
    "write_csv",
    "write_plots",
    "write_report",
]


def test_the_public_api_keeps_every_name() -> None:
    missing = [n for n in PUBLIC if n not in sim.__all__]
    assert missing == []
    for name in PUBLIC:
        assert getattr(sim, name) is not None, name


def test_the_version_is_the_distributions() -> None:
    from sim.runs.manifest import harness_version

    assert sim.__version__ == harness_version()
