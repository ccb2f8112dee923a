"""compaction-sim: finds where hierarchical context compaction silently loses task-critical
constraints, before you deploy it.

The public API is re-exported here; see README.md for the tour.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.adversarial import add_injections as add_injections
    from sim.aggregate import Aggregates as Aggregates
    from sim.baseline import read_baseline as read_baseline
    from sim.baseline import write_baseline as write_baseline
    from sim.engine import rng_for as rng_for
    from sim.engine import run_trial as run_trial
    from sim.errors import BudgetClosureViolation as BudgetClosureViolation
    from sim.errors import BudgetInfeasible as BudgetInfeasible
    from sim.errors import CallTimeout as CallTimeout
    from sim.errors import CompactionFailure as CompactionFailure
    from sim.errors import CompactionSimError as CompactionSimError
    from sim.errors import RecallFloorViolation as RecallFloorViolation
    from sim.errors import RegistryError as RegistryError
    from sim.errors import ScenarioError as ScenarioError
    from sim.errors import SummarizerUnavailable as SummarizerUnavailable
    from sim.errors import TransientError as TransientError
    from sim.errors import UserError as UserError
    from sim.floor_registry import FloorRegistry as FloorRegistry
    from sim.floor_registry import FloorRegistryError as FloorRegistryError
    from sim.floor_registry import declare_fact as declare_fact
    from sim.floor_registry import load_floor_registry as load_floor_registry
    from sim.gate import GateReport as GateReport
    from sim.gate import run_gate as run_gate
    from sim.gate_expr import GateError as GateError
    from sim.gate_expr import parse_expr as parse_expr
    from sim.gate_runtime import FloorGate as FloorGate
    from sim.gate_runtime import GateResult as GateResult
    from sim.gate_stats import Verdict as Verdict
    from sim.generate import HistorySpec as HistorySpec
    from sim.generate import Placement as Placement
    from sim.generate import generate_history as generate_history
    from sim.grade import grade_text as grade_text
    from sim.grid import Cell as Cell
    from sim.grid import Grid as Grid
    from sim.grid import load_grid as load_grid
    from sim.plots import write_plots as write_plots
    from sim.probe import probe_leaf as probe_leaf
    from sim.prompts import check_template as check_template
    from sim.prompts import load_prompt as load_prompt
    from sim.report import render_report as render_report
    from sim.report import write_report as write_report
    from sim.results import Run as Run
    from sim.results import load_run as load_run
    from sim.runner import RunResult as RunResult
    from sim.runner import run_grid as run_grid
    from sim.runview import aggregate_run as aggregate_run
    from sim.scenario import Scenario as Scenario
    from sim.scenario import load_scenario as load_scenario
    from sim.suite import Suite as Suite
    from sim.suite import load_suite as load_suite
    from sim.suite_run import load_outcomes as load_outcomes
    from sim.summarizers import SimParams as SimParams
    from sim.summarizers import SimulatedSummarizer as SimulatedSummarizer
    from sim.summarizers import Summarizer as Summarizer
    from sim.summarizers import SummaryRequest as SummaryRequest
    from sim.summarizers import SummaryResult as SummaryResult
    from sim.summarizers.cache import CallCache as CallCache
    from sim.summarizers.config import SummarizerConfig as SummarizerConfig
    from sim.summarizers.faulty import FaultConfig as FaultConfig
    from sim.summarizers.faulty import FaultySummarizer as FaultySummarizer
    from sim.summarizers.model import ModelSummarizer as ModelSummarizer
    from sim.summarizers.registry import build_summarizer as build_summarizer
    from sim.summarizers.registry import summarizer as summarizer
    from sim.summarizers.retry import GuardedSummarizer as GuardedSummarizer
    from sim.summarizers.scripted import ScriptedModel as ScriptedModel
    from sim.sweep import Executor as Executor
    from sim.sweep import InProcessExecutor as InProcessExecutor
    from sim.sweep import LocalExecutor as LocalExecutor
    from sim.sweep import TrialSpec as TrialSpec
    from sim.sweep import UnitResult as UnitResult
    from sim.tables import format_all as format_all
    from sim.tables import write_csv as write_csv
    from sim.tokens import Tokenizer as Tokenizer
    from sim.tokens import get_counter as get_counter
    from sim.transcript_history import transcript_history as transcript_history
    from sim.transcripts import Transcript as Transcript
    from sim.transcripts import TranscriptError as TranscriptError
    from sim.transcripts import load_transcript as load_transcript
    from sim.trial import run_scenario_trial as run_scenario_trial
    from sim.types import AnchorGroup as AnchorGroup
    from sim.types import Fact as Fact
    from sim.types import FactGrade as FactGrade
    from sim.types import Grade as Grade
    from sim.types import History as History
    from sim.types import Ladder as Ladder
    from sim.types import LevelRecord as LevelRecord
    from sim.types import LevelSpec as LevelSpec
    from sim.types import Polarity as Polarity
    from sim.types import RecallFloor as RecallFloor
    from sim.types import TrialRecord as TrialRecord
    from sim.types import Violation as Violation
    from sim.validity import StructureViolation as StructureViolation
    from sim.validity import check_levels as check_levels
    from sim.validity import check_messages as check_messages
    from sim.validity import head_messages as head_messages
    from sim.validity import tail_messages as tail_messages

__version__ = "0.1.0"

# Lazy re-exports (PEP 562): `import sim` stays cheap, so a runtime that only needs the floor
# gate does not pay for numpy, pandas or pydantic.
_EXPORTS: dict[str, str] = {
    "CallCache": "sim.summarizers.cache",
    "ModelSummarizer": "sim.summarizers.model",
    "ScriptedModel": "sim.summarizers.scripted",
    "SummarizerConfig": "sim.summarizers.config",
    "build_summarizer": "sim.summarizers.registry",
    "check_template": "sim.prompts",
    "load_prompt": "sim.prompts",
    "probe_leaf": "sim.probe",
    "summarizer": "sim.summarizers.registry",
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
    "CallTimeout": "sim.errors",
    "add_injections": "sim.adversarial",
    "FaultConfig": "sim.summarizers.faulty",
    "FaultySummarizer": "sim.summarizers.faulty",
    "GuardedSummarizer": "sim.summarizers.retry",
    "SummarizerUnavailable": "sim.errors",
    "TransientError": "sim.errors",
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
    "RunResult": "sim.runner",
    "Cell": "sim.grid",
    "Grid": "sim.grid",
    "Executor": "sim.sweep",
    "InProcessExecutor": "sim.sweep",
    "LocalExecutor": "sim.sweep",
    "TrialSpec": "sim.sweep",
    "UnitResult": "sim.sweep",
    "load_grid": "sim.grid",
    "run_grid": "sim.runner",
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
    "aggregate_run": "sim.runview",
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
