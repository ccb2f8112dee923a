"""compaction-sim: finds where hierarchical context compaction silently loses task-critical
constraints, before you deploy it.

The public API is re-exported here; see README.md for the tour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.engine.ladder import run_trial as run_trial
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
    from sim.errors import one_line as one_line
    from sim.files import DataError as DataError
    from sim.files import read_capped as read_capped
    from sim.grading.grade import grade_text as grade_text
    from sim.history.adversarial import add_injections as add_injections
    from sim.history.frozen import read_history as read_history
    from sim.history.generate import HistorySpec as HistorySpec
    from sim.history.generate import Placement as Placement
    from sim.history.generate import generate_history as generate_history
    from sim.history.transcript_history import transcript_history as transcript_history
    from sim.history.transcripts import Transcript as Transcript
    from sim.history.transcripts import TranscriptError as TranscriptError
    from sim.history.transcripts import load_transcript as load_transcript
    from sim.prompts import PromptFeatures as PromptFeatures
    from sim.prompts import prompt_features as prompt_features
    from sim.prompts.probe import probe_leaf as probe_leaf
    from sim.prompts.templates import check_template as check_template
    from sim.prompts.templates import load_prompt as load_prompt
    from sim.regression.baseline import read_baseline as read_baseline
    from sim.regression.baseline import write_baseline as write_baseline
    from sim.regression.check import GateReport as GateReport
    from sim.regression.check import run_gate as run_gate
    from sim.regression.compactor import test_compactor as test_compactor
    from sim.regression.compactor_report import CompactorReport as CompactorReport
    from sim.regression.expr import GateError as GateError
    from sim.regression.expr import parse_expr as parse_expr
    from sim.regression.paired import Verdict as Verdict
    from sim.regression.suite import Suite as Suite
    from sim.regression.suite import load_suite as load_suite
    from sim.regression.suite_run import load_outcomes as load_outcomes
    from sim.report.aggregate import Aggregates as Aggregates
    from sim.report.html import render_report as render_report
    from sim.report.html import write_report as write_report
    from sim.report.plots import write_plots as write_plots
    from sim.report.runview import aggregate_run as aggregate_run
    from sim.report.tables import format_all as format_all
    from sim.report.tables import write_csv as write_csv
    from sim.runs.calibration import Fit as Fit
    from sim.runs.calibration import calibrate as calibrate
    from sim.runs.grid import Cell as Cell
    from sim.runs.grid import Grid as Grid
    from sim.runs.grid import load_grid as load_grid
    from sim.runs.moments import Moments as Moments
    from sim.runs.moments import read_moments as read_moments
    from sim.runs.results import Run as Run
    from sim.runs.results import RunIncompleteWarning as RunIncompleteWarning
    from sim.runs.results import load_run as load_run
    from sim.runs.row_schema import TraceRow as TraceRow
    from sim.runs.row_schema import TrialRow as TrialRow
    from sim.runs.runner import RunResult as RunResult
    from sim.runs.runner import run_grid as run_grid
    from sim.runs.scenario import Scenario as Scenario
    from sim.runs.scenario import load_scenario as load_scenario
    from sim.runs.sweep import Executor as Executor
    from sim.runs.sweep import InProcessExecutor as InProcessExecutor
    from sim.runs.sweep import LocalExecutor as LocalExecutor
    from sim.runs.sweep import TrialSpec as TrialSpec
    from sim.runs.sweep import UnitResult as UnitResult
    from sim.runs.threaded import ThreadedExecutor as ThreadedExecutor
    from sim.runs.trial import run_scenario_trial as run_scenario_trial
    from sim.runtime.floor_gate import FloorGate as FloorGate
    from sim.runtime.floor_gate import GateResult as GateResult
    from sim.runtime.floor_registry import FloorRegistry as FloorRegistry
    from sim.runtime.floor_registry import FloorRegistryError as FloorRegistryError
    from sim.runtime.floor_registry import declare_fact as declare_fact
    from sim.runtime.floor_registry import load_floor_registry as load_floor_registry
    from sim.runtime.reference import ReferenceLoadError as ReferenceLoadError
    from sim.runtime.reference import load_reference as load_reference
    from sim.runtime.validity import StructureViolation as StructureViolation
    from sim.runtime.validity import check_levels as check_levels
    from sim.runtime.validity import check_messages as check_messages
    from sim.runtime.validity import head_messages as head_messages
    from sim.runtime.validity import tail_messages as tail_messages
    from sim.seeds import rng_for as rng_for
    from sim.summarizers import SimParams as SimParams
    from sim.summarizers import SimulatedSummarizer as SimulatedSummarizer
    from sim.summarizers import Summarizer as Summarizer
    from sim.summarizers import SummaryRequest as SummaryRequest
    from sim.summarizers import SummaryResult as SummaryResult
    from sim.summarizers import knobs_for as knobs_for
    from sim.summarizers.cache import CallCache as CallCache
    from sim.summarizers.cassette import CassetteCache as CassetteCache
    from sim.summarizers.cassette import export_jsonl as export_jsonl
    from sim.summarizers.cassette import import_jsonl as import_jsonl
    from sim.summarizers.config import SummarizerConfig as SummarizerConfig
    from sim.summarizers.faulty import FaultConfig as FaultConfig
    from sim.summarizers.faulty import FaultySummarizer as FaultySummarizer
    from sim.summarizers.llama import LlamaChatModel as LlamaChatModel
    from sim.summarizers.model import ModelSummarizer as ModelSummarizer
    from sim.summarizers.preflight import check_endpoint as check_endpoint
    from sim.summarizers.redact import Redactor as Redactor
    from sim.summarizers.registry import build_summarizer as build_summarizer
    from sim.summarizers.registry import summarizer as summarizer
    from sim.summarizers.retry import GuardedSummarizer as GuardedSummarizer
    from sim.summarizers.scripted import ScriptedModel as ScriptedModel
    from sim.tokens import Tokenizer as Tokenizer
    from sim.tokens import get_counter as get_counter
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


__version__ = "0.1.0"

# Lazy re-exports (PEP 562): `import sim` stays cheap, so a runtime that only needs the floor
# gate does not pay for numpy, pandas or pydantic.
_EXPORTS: dict[str, str] = {
    "CassetteCache": "sim.summarizers.cassette",
    "export_jsonl": "sim.summarizers.cassette",
    "import_jsonl": "sim.summarizers.cassette",
    "LlamaChatModel": "sim.summarizers.llama",
    "check_endpoint": "sim.summarizers.preflight",
    "read_history": "sim.history.frozen",
    "ThreadedExecutor": "sim.runs.threaded",
    "CallCache": "sim.summarizers.cache",
    "DataError": "sim.files",
    "Redactor": "sim.summarizers.redact",
    "TraceRow": "sim.runs.row_schema",
    "TrialRow": "sim.runs.row_schema",
    "one_line": "sim.errors",
    "read_capped": "sim.files",
    "ModelSummarizer": "sim.summarizers.model",
    "ScriptedModel": "sim.summarizers.scripted",
    "SummarizerConfig": "sim.summarizers.config",
    "build_summarizer": "sim.summarizers.registry",
    "check_template": "sim.prompts.templates",
    "load_prompt": "sim.prompts.templates",
    "probe_leaf": "sim.prompts.probe",
    "summarizer": "sim.summarizers.registry",
    "GateError": "sim.regression.expr",
    "GateReport": "sim.regression.check",
    "Suite": "sim.regression.suite",
    "Verdict": "sim.regression.paired",
    "load_outcomes": "sim.regression.suite_run",
    "load_suite": "sim.regression.suite",
    "parse_expr": "sim.regression.expr",
    "read_baseline": "sim.regression.baseline",
    "run_gate": "sim.regression.check",
    "write_baseline": "sim.regression.baseline",
    "Aggregates": "sim.report.aggregate",
    "AnchorGroup": "sim.types",
    "BudgetClosureViolation": "sim.errors",
    "FloorGate": "sim.runtime.floor_gate",
    "FloorRegistry": "sim.runtime.floor_registry",
    "FloorRegistryError": "sim.runtime.floor_registry",
    "GateResult": "sim.runtime.floor_gate",
    "StructureViolation": "sim.runtime.validity",
    "Transcript": "sim.history.transcripts",
    "TranscriptError": "sim.history.transcripts",
    "check_levels": "sim.runtime.validity",
    "check_messages": "sim.runtime.validity",
    "declare_fact": "sim.runtime.floor_registry",
    "head_messages": "sim.runtime.validity",
    "load_floor_registry": "sim.runtime.floor_registry",
    "load_transcript": "sim.history.transcripts",
    "tail_messages": "sim.runtime.validity",
    "transcript_history": "sim.history.transcript_history",
    "BudgetInfeasible": "sim.errors",
    "CallTimeout": "sim.errors",
    "add_injections": "sim.history.adversarial",
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
    "HistorySpec": "sim.history.generate",
    "Ladder": "sim.types",
    "LevelRecord": "sim.types",
    "LevelSpec": "sim.types",
    "Placement": "sim.history.generate",
    "Polarity": "sim.types",
    "RecallFloor": "sim.types",
    "RecallFloorViolation": "sim.errors",
    "RegistryError": "sim.errors",
    "Run": "sim.runs.results",
    "RunIncompleteWarning": "sim.runs.results",
    "RunResult": "sim.runs.runner",
    "Cell": "sim.runs.grid",
    "Grid": "sim.runs.grid",
    "Executor": "sim.runs.sweep",
    "InProcessExecutor": "sim.runs.sweep",
    "LocalExecutor": "sim.runs.sweep",
    "TrialSpec": "sim.runs.sweep",
    "UnitResult": "sim.runs.sweep",
    "load_grid": "sim.runs.grid",
    "run_grid": "sim.runs.runner",
    "Scenario": "sim.runs.scenario",
    "ScenarioError": "sim.errors",
    "SimParams": "sim.summarizers",
    "PromptFeatures": "sim.prompts",
    "prompt_features": "sim.prompts",
    "knobs_for": "sim.summarizers",
    "SimulatedSummarizer": "sim.summarizers",
    "Summarizer": "sim.summarizers",
    "SummaryRequest": "sim.summarizers",
    "SummaryResult": "sim.summarizers",
    "Tokenizer": "sim.tokens",
    "TrialRecord": "sim.types",
    "UserError": "sim.errors",
    "Violation": "sim.types",
    "aggregate_run": "sim.report.runview",
    "format_all": "sim.report.tables",
    "generate_history": "sim.history.generate",
    "get_counter": "sim.tokens",
    "grade_text": "sim.grading.grade",
    "load_run": "sim.runs.results",
    "Fit": "sim.runs.calibration",
    "Moments": "sim.runs.moments",
    "read_moments": "sim.runs.moments",
    "calibrate": "sim.runs.calibration",
    "load_scenario": "sim.runs.scenario",
    "render_report": "sim.report.html",
    "rng_for": "sim.seeds",
    "run_scenario_trial": "sim.runs.trial",
    "run_trial": "sim.engine.ladder",
    "write_csv": "sim.report.tables",
    "write_plots": "sim.report.plots",
    "write_report": "sim.report.html",
    "test_compactor": "sim.regression.compactor",
    "CompactorReport": "sim.regression.compactor_report",
    "ReferenceLoadError": "sim.runtime.reference",
    "load_reference": "sim.runtime.reference",
}

__all__ = ["__version__", *sorted(_EXPORTS)]

__getattr__ = lazy(__name__, _EXPORTS)
