"""Synthetic agent sessions with planted constraints, and transcripts read as L0.

The ground truth lives here: strategies never import this wing (a test checks). Imports only
grading, runtime (message-list validity) and the root modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.history.adversarial import add_injections as add_injections
    from sim.history.constraints import build_fact as build_fact
    from sim.history.frozen import generate_files as generate_files
    from sim.history.frozen import read_history as read_history
    from sim.history.generate import HistorySpec as HistorySpec
    from sim.history.generate import Placement as Placement
    from sim.history.generate import generate_history as generate_history
    from sim.history.transcript_history import transcript_history as transcript_history
    from sim.history.transcripts import Transcript as Transcript
    from sim.history.transcripts import TranscriptError as TranscriptError
    from sim.history.transcripts import load_transcript as load_transcript
    from sim.history.transcripts import parse_transcript as parse_transcript


_EXPORTS = {
    "read_history": "sim.history.frozen",
    "generate_files": "sim.history.frozen",
    "HistorySpec": "sim.history.generate",
    "Placement": "sim.history.generate",
    "Transcript": "sim.history.transcripts",
    "TranscriptError": "sim.history.transcripts",
    "add_injections": "sim.history.adversarial",
    "build_fact": "sim.history.constraints",
    "generate_history": "sim.history.generate",
    "load_transcript": "sim.history.transcripts",
    "parse_transcript": "sim.history.transcripts",
    "transcript_history": "sim.history.transcript_history",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
