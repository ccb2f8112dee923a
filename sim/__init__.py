"""compaction-sim: finds where hierarchical context compaction silently loses task-critical
constraints, before you deploy it.

The public API is re-exported here; see README.md for the tour.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.aggregate import Aggregates
    from sim.baseline import read_baseline, write_baseline
    from sim.engine import rng_for, run_trial
    from sim.errors import (
        BudgetClosureViolation,
        BudgetInfeasible,
        CompactionFailure,
        CompactionSimError,
        RecallFloorViolation,
        RegistryError,
        ScenarioError,
        UserError,
    )
    from sim.floor_registry import (
        FloorRegistry,
        FloorRegistryError,
        declare_fact,
        load_floor_registry,
    )
    from sim.gate import GateReport, run_gate
    from sim.gate_expr import GateError, parse_expr
    from sim.gate_runtime import FloorGate, GateResult
    from sim.gate_stats import Verdict
    from sim.generate import HistorySpec, Placement, generate_history
    from sim.grade import grade_text
    from sim.plots import write_plots
    from sim.report import render_report, write_report
    from sim.results import Run, load_run
    from sim.scenario import Scenario, load_scenario
    from sim.suite import Suite, load_suite
    from sim.suite_run import load_outcomes
    from sim.summarizers import (
        SimParams,
        SimulatedSummarizer,
        Summarizer,
        SummaryRequest,
        SummaryResult,
    )
    from sim.tables import format_all, write_csv
    from sim.tokens import Tokenizer, get_counter
    from sim.transcript_history import transcript_history
    from sim.transcripts import Transcript, TranscriptError, load_transcript
    from sim.trial import run_scenario_trial
    from sim.types import (
        AnchorGroup,
        Fact,
        FactGrade,
        Grade,
        History,
        Ladder,
        LevelRecord,
        LevelSpec,
        Polarity,
        RecallFloor,
        TrialRecord,
        Violation,
    )
    from sim.validity import (
        StructureViolation,
        check_levels,
        check_messages,
        head_messages,
        tail_messages,
    )

__version__ = "0.1.0"

# Lazy re-exports (PEP 562): `import sim` stays cheap, so a runtime that only needs the floor
# gate does not pay for numpy, pandas or pydantic.
_EXPORTS: dict[str, str] = {
    "GateError": "sim.gate_expr",
    "GateReport": "sim.gate",
    "Suite": "sim.suite",
    "Verdict": "sim.gate_stats",
    "load_outcomes": "sim.suite_run",
    "load_suite": "sim.suite",
    "parse_expr": "sim.gate_expr",
    "read_baseline": "sim.baseline",
    "run_gate": "sim.gate",
    "write_baseline": "sim.baseline",
    "Aggregates": "sim.aggregate",
    "AnchorGroup": "sim.types",
    "BudgetClosureViolation": "sim.errors",
    "FloorGate": "sim.gate_runtime",
    "FloorRegistry": "sim.floor_registry",
    "FloorRegistryError": "sim.floor_registry",
    "GateResult": "sim.gate_runtime",
    "StructureViolation": "sim.validity",
    "Transcript": "sim.transcripts",
    "TranscriptError": "sim.transcripts",
    "check_levels": "sim.validity",
    "check_messages": "sim.validity",
    "declare_fact": "sim.floor_registry",
    "head_messages": "sim.validity",
    "load_floor_registry": "sim.floor_registry",
    "load_transcript": "sim.transcripts",
    "tail_messages": "sim.validity",
    "transcript_history": "sim.transcript_history",
    "BudgetInfeasible": "sim.errors",
    "CompactionFailure": "sim.errors",
    "CompactionSimError": "sim.errors",
    "Fact": "sim.types",
    "FactGrade": "sim.types",
    "Grade": "sim.types",
    "History": "sim.types",
    "HistorySpec": "sim.generate",
    "Ladder": "sim.types",
    "LevelRecord": "sim.types",
    "LevelSpec": "sim.types",
    "Placement": "sim.generate",
    "Polarity": "sim.types",
    "RecallFloor": "sim.types",
    "RecallFloorViolation": "sim.errors",
    "RegistryError": "sim.errors",
    "Run": "sim.results",
    "Scenario": "sim.scenario",
    "ScenarioError": "sim.errors",
    "SimParams": "sim.summarizers",
    "SimulatedSummarizer": "sim.summarizers",
    "Summarizer": "sim.summarizers",
    "SummaryRequest": "sim.summarizers",
    "SummaryResult": "sim.summarizers",
    "Tokenizer": "sim.tokens",
    "TrialRecord": "sim.types",
    "UserError": "sim.errors",
    "Violation": "sim.types",
    "format_all": "sim.tables",
    "generate_history": "sim.generate",
    "get_counter": "sim.tokens",
    "grade_text": "sim.grade",
    "load_run": "sim.results",
    "load_scenario": "sim.scenario",
    "render_report": "sim.report",
    "rng_for": "sim.engine",
    "run_scenario_trial": "sim.trial",
    "run_trial": "sim.engine",
    "write_csv": "sim.tables",
    "write_plots": "sim.plots",
    "write_report": "sim.report",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
