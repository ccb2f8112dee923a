"""Summarizer backends behind one protocol: the simulated model (default) and real ones."""

from sim.summarizers.base import Summarizer, SummaryRequest, SummaryResult
from sim.summarizers.simulated import SimParams, SimulatedSummarizer

__all__ = ["SimParams", "SimulatedSummarizer", "Summarizer", "SummaryRequest", "SummaryResult"]
