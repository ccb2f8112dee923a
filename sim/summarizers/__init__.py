"""Summarizer backends behind one protocol: the simulated model (default) and real ones.

Re-exports are lazy (PEP 562): strategies import `sim.summarizers.base` for the protocol alone,
which must not load the simulated summarizer and the generator's world with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.summarizers.base import Summarizer as Summarizer
    from sim.summarizers.base import SummaryRequest as SummaryRequest
    from sim.summarizers.base import SummaryResult as SummaryResult
    from sim.summarizers.cassette import CassetteCache as CassetteCache
    from sim.summarizers.cassette import export_jsonl as export_jsonl
    from sim.summarizers.cassette import import_jsonl as import_jsonl
    from sim.summarizers.llama import LlamaChatModel as LlamaChatModel
    from sim.summarizers.preflight import check_endpoint as check_endpoint
    from sim.summarizers.prompt_knobs import knobs_for as knobs_for
    from sim.summarizers.redact import Redactor as Redactor
    from sim.summarizers.simulated import SimParams as SimParams
    from sim.summarizers.simulated import SimulatedSummarizer as SimulatedSummarizer


_EXPORTS = {
    "CassetteCache": "sim.summarizers.cassette",
    "export_jsonl": "sim.summarizers.cassette",
    "import_jsonl": "sim.summarizers.cassette",
    "LlamaChatModel": "sim.summarizers.llama",
    "check_endpoint": "sim.summarizers.preflight",
    "Redactor": "sim.summarizers.redact",
    "SimParams": "sim.summarizers.simulated",
    "knobs_for": "sim.summarizers.prompt_knobs",
    "SimulatedSummarizer": "sim.summarizers.simulated",
    "Summarizer": "sim.summarizers.base",
    "SummaryRequest": "sim.summarizers.base",
    "SummaryResult": "sim.summarizers.base",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy(__name__, _EXPORTS)
