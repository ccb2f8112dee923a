"""Summarizer prompts: templates and `file:` references, the note's rule on instructions
(compression or re-ranking, read from a prompt's features), and the behavioural probe. Imports
only grading and the root modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.prompts.features import Feature as Feature
    from sim.prompts.features import PromptFeatures as PromptFeatures
    from sim.prompts.features import prompt_features as prompt_features
    from sim.prompts.instructions import classify as classify
    from sim.prompts.probe import probe_leaf as probe_leaf
    from sim.prompts.templates import Prompt as Prompt
    from sim.prompts.templates import PromptError as PromptError
    from sim.prompts.templates import check_template as check_template
    from sim.prompts.templates import load_prompt as load_prompt
    from sim.prompts.templates import render as render

_EXPORTS = {
    "Feature": "sim.prompts.features",
    "Prompt": "sim.prompts.templates",
    "PromptFeatures": "sim.prompts.features",
    "prompt_features": "sim.prompts.features",
    "PromptError": "sim.prompts.templates",
    "check_template": "sim.prompts.templates",
    "classify": "sim.prompts.instructions",
    "load_prompt": "sim.prompts.templates",
    "probe_leaf": "sim.prompts.probe",
    "render": "sim.prompts.templates",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
