"""Scenario files, sweep grids, executors (local processes, Ray), the run store, manifests and
the streamed summary. Imports the engine and everything below it, never report or regression.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
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
    from sim.runs.scenario import parse_scenario as parse_scenario
    from sim.runs.stats import wilson as wilson
    from sim.runs.sweep import Executor as Executor
    from sim.runs.sweep import InProcessExecutor as InProcessExecutor
    from sim.runs.sweep import LocalExecutor as LocalExecutor
    from sim.runs.sweep import TrialSpec as TrialSpec
    from sim.runs.sweep import UnitResult as UnitResult
    from sim.runs.threaded import ThreadedExecutor as ThreadedExecutor
    from sim.runs.trial import run_scenario_trial as run_scenario_trial

_EXPORTS = {
    "TraceRow": "sim.runs.row_schema",
    "TrialRow": "sim.runs.row_schema",
    "Cell": "sim.runs.grid",
    "Executor": "sim.runs.sweep",
    "Grid": "sim.runs.grid",
    "InProcessExecutor": "sim.runs.sweep",
    "LocalExecutor": "sim.runs.sweep",
    "Run": "sim.runs.results",
    "RunIncompleteWarning": "sim.runs.results",
    "RunResult": "sim.runs.runner",
    "Scenario": "sim.runs.scenario",
    "TrialSpec": "sim.runs.sweep",
    "ThreadedExecutor": "sim.runs.threaded",
    "UnitResult": "sim.runs.sweep",
    "load_grid": "sim.runs.grid",
    "load_run": "sim.runs.results",
    "Fit": "sim.runs.calibration",
    "Moments": "sim.runs.moments",
    "read_moments": "sim.runs.moments",
    "calibrate": "sim.runs.calibration",
    "load_scenario": "sim.runs.scenario",
    "parse_scenario": "sim.runs.scenario",
    "run_grid": "sim.runs.runner",
    "run_scenario_trial": "sim.runs.trial",
    "wilson": "sim.runs.stats",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
