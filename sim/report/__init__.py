"""What a run shows a reader: aggregates, terminal tables, plots, the HTML report and trace
viewer, the prompt-comparison rows. Imports runs and below, never regression or commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.report.aggregate import Aggregates as Aggregates
    from sim.report.aggregate import aggregate as aggregate
    from sim.report.html import render_report as render_report
    from sim.report.html import write_report as write_report
    from sim.report.plots import write_plots as write_plots
    from sim.report.prompt_table import PromptRow as PromptRow
    from sim.report.prompt_table import compare as compare
    from sim.report.runview import aggregate_run as aggregate_run
    from sim.report.tables import format_all as format_all
    from sim.report.tables import write_csv as write_csv

_EXPORTS = {
    "Aggregates": "sim.report.aggregate",
    "PromptRow": "sim.report.prompt_table",
    "aggregate": "sim.report.aggregate",
    "aggregate_run": "sim.report.runview",
    "compare": "sim.report.prompt_table",
    "format_all": "sim.report.tables",
    "render_report": "sim.report.html",
    "write_csv": "sim.report.tables",
    "write_plots": "sim.report.plots",
    "write_report": "sim.report.html",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
