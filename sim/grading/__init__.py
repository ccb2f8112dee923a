"""Reading a level's text: normalization, the text-only grader, the per-level checks and the
trial outcomes (silent / loud / blame). Imports only the root modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.grading.grade import at_floor as at_floor
    from sim.grading.grade import grade_fact as grade_fact
    from sim.grading.grade import grade_text as grade_text
    from sim.grading.grade_lines import LineGrader as LineGrader
    from sim.grading.invariants import level_record as level_record
    from sim.grading.outcomes import TrialOutcome as TrialOutcome
    from sim.grading.outcomes import summarize_trials as summarize_trials
    from sim.grading.outcomes import trial_outcome as trial_outcome
    from sim.grading.text import normalize as normalize
    from sim.grading.text import split_sentences as split_sentences

_EXPORTS = {
    "LineGrader": "sim.grading.grade_lines",
    "TrialOutcome": "sim.grading.outcomes",
    "at_floor": "sim.grading.grade",
    "grade_fact": "sim.grading.grade",
    "grade_text": "sim.grading.grade",
    "level_record": "sim.grading.invariants",
    "normalize": "sim.grading.text",
    "split_sentences": "sim.grading.text",
    "summarize_trials": "sim.grading.outcomes",
    "trial_outcome": "sim.grading.outcomes",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
