"""What `sim.test_compactor` returns: one run of a user's compactor, read for a verdict.

The tables are the report's own (sim.report.aggregate) cut to what a compactor's owner asks
first: did it lose a rule without anyone noticing, of which class, at which level, and how.
`assert_no_silent_collapse()` fails with the diagnosis rows; `check(baseline, fail=...)` is
`compsim check` against a committed baseline; `write_report(path)` the same HTML report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from sim.regression.check import GateReport, run_gate
from sim.regression.expr import parse_expr
from sim.regression.suite_run import load_outcomes
from sim.regression.verdicts import references, render_text
from sim.report.aggregate import Aggregates
from sim.report.html import write_report
from sim.report.rates import pct
from sim.report.runview import aggregate_run
from sim.report.tables import format_table
from sim.runs.results import Run, load_run
from sim.runs.summary import summary_frame

SILENT_GATE = ("silent_collapse_rate:+0.00",)


@dataclass(frozen=True, slots=True)
class Collapse:
    """One compactor's silent collapses: trials with a rule lost unnoticed, of `trials`."""

    strategy: str
    silent: int
    trials: int
    errors: int
    over_budget: int = 0
    """Trials where a level emitted more than its budget (the note's other counter)."""

    def line(self) -> str:
        if self.trials == 0:
            return f"{self.strategy}: no trial finished ({self.errors} raised)"
        share = self.silent / self.trials
        verdict = "SILENT COLLAPSE" if self.silent else "no silent collapse"
        return (
            f"{self.strategy}: {verdict} in {self.silent} of {self.trials} trials ({pct(share)})"
            + (f"; over budget in {self.over_budget}" if self.over_budget else "")
            + (f"; {self.errors} trials raised" if self.errors else "")
        )


class CompactorReport:
    """One run directory, the compactors under test in it, and the numbers about them."""

    def __init__(self, run: Run, strategies: Sequence[str]) -> None:
        self.run = run
        self.path: Path = run.path
        self.strategies = tuple(strategies)

    @classmethod
    def load(cls, path: str | Path, strategies: Sequence[str]) -> CompactorReport:
        return cls(load_run(path), strategies)

    @cached_property
    def _summary_doc(self) -> dict[str, Any]:
        import json

        doc: dict[str, Any] = json.loads((self.path / "summary.json").read_bytes())
        return doc

    @cached_property
    def aggregates(self) -> Aggregates:
        """Every table of the run (sim.aggregate_run)."""
        return aggregate_run(self.run.rows(), self.run.manifest)

    @property
    def summary(self) -> pd.DataFrame:
        """Per strategy: collapse, silent and loud rates with 95% intervals, retries, tokens."""
        return summary_frame(self._summary_doc)

    @property
    def class_rates(self) -> pd.DataFrame:
        """Per constraint class: per-fact collapse, silent and loud rates at the leaf."""
        return self.aggregates.by_class

    @property
    def diagnosis(self) -> pd.DataFrame:
        """Lost facts by class, blamed level, grade there, anchors missing, silent or loud."""
        return self.aggregates.diagnosis

    def collapses(self) -> list[Collapse]:
        """Silent collapses of each compactor under test (the reference baselines aside)."""
        out = []
        for g in self._summary_doc["groups"]:
            if g["strategy"] in self.strategies:
                n = int(g["trials"])
                silent = round(float(g["silent_rate"] or 0.0) * n)
                over = round(float(g["over_budget_rate"] or 0.0) * n)
                out.append(Collapse(g["strategy"], silent, n, int(g["errors"]), over))
        return out

    def verdict(self) -> str:
        return "\n".join(c.line() for c in self.collapses())

    def silent_diagnosis(self) -> pd.DataFrame:
        d = self.diagnosis
        if d.empty:
            return d
        return d[(d["how"] == "silent") & d["strategy"].isin(self.strategies)]

    def assert_no_silent_collapse(self) -> None:
        """AssertionError naming each compactor that lost a rule silently, with the rows of
        the diagnosis table that say which class, level, grade and missing anchors."""
        bad = [c for c in self.collapses() if c.silent or c.trials == 0]
        if not bad:
            return
        rows = self.silent_diagnosis().head(10)
        lines = [c.line() for c in bad]
        for r in rows.to_dict("records"):
            missing = f", missing {r['missing']}" if r["missing"] else ""
            lines.append(
                f"  {r['strategy']}: {r['facts']} x {r['cls']} lost at {r['blame_level']} "
                f"({r['grade']}{missing}, silent)"
            )
        lines.append(f"  run: {self.path} (compsim report {self.path})")
        raise AssertionError("\n".join(lines))

    def check(
        self, baseline: str | Path, fail: Sequence[str] = SILENT_GATE, alpha: float = 0.05
    ) -> GateReport:
        """`compsim check RUN --baseline FILE --fail ...` on this run (exit_code, verdicts)."""
        exprs = [parse_expr(e) for e in fail]
        return run_gate(load_outcomes(baseline), load_outcomes(self.path), exprs, alpha)

    def check_text(self, gate: GateReport, baseline: str | Path) -> str:
        base, cand = load_outcomes(baseline), load_outcomes(self.path)
        return render_text(gate, references(base, cand), f"{self.path} vs baseline {baseline}")

    def write_report(self, path: str | Path, *, plots: bool = True) -> Path:
        """The run's HTML report (the same as `compsim report`)."""
        return write_report(self.run, path, plots=plots)

    def __str__(self) -> str:
        return f"{format_table(self.summary)}\n\n{self.verdict()}\nrun: {self.path}"

    def __repr__(self) -> str:
        return f"CompactorReport({str(self.path)!r}, strategies={list(self.strategies)!r})"
