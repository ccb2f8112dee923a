"""The regression check for CI: the standard suite, baselines, check expressions, paired
statistics and verdicts. Imports runs and below; only commands import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
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

_EXPORTS = {
    "CompactorReport": "sim.regression.compactor_report",
    "test_compactor": "sim.regression.compactor",
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
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
