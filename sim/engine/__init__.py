"""One trial through the ladder: call groups, the budget shares, grading and checks per level,
the per-trial memo. Imports strategies, summarizers, grading and the root modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.engine.call_groups import calls as calls
    from sim.engine.ladder import run_trial as run_trial
    from sim.engine.memo import TrialMemo as TrialMemo
    from sim.engine.memo import trial_memo as trial_memo

_EXPORTS = {
    "TrialMemo": "sim.engine.memo",
    "calls": "sim.engine.call_groups",
    "run_trial": "sim.engine.ladder",
    "trial_memo": "sim.engine.memo",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
