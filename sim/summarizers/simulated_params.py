"""The simulated summarizer's knobs and their ranges (a scenario's `params` are checked at
load time against these)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SimParams:
    """Every knob of the simulated summarizer. The defaults are calibrated so that the note's
    scenario reproduces the note's trace (tests/test_note_trace.py). They are the knobs for a
    prompt that asks nothing in particular; the prompt's features move them from there
    (sim.summarizers.prompt_knobs)."""

    abstraction_max: float = 0.3
    """Ceiling of the chance that compression abstracts a fact it did not need to touch."""
    abstraction_mid: float = 0.12
    """Budget/input ratio at which that chance is half its ceiling."""
    abstraction_width: float = 0.04
    """How sharply the chance rises as the ratio falls below `abstraction_mid`."""
    inversion_rate: float = 0.02
    """Chance that an abstraction comes out with its polarity flipped."""
    rank_noise: float = 0.08
    """Standard deviation of the noise added to salience when re-ranking."""
    gist_reserve: float = 0.15
    """Share of the budget a re-ranker keeps for gists of units below its cut."""
    max_input_tokens: int = 16_384
    """Context window: input past it is never read (and reported as not consumed)."""
    injection_susceptibility: float = 0.0
    """Chance that a rule-like line is dropped from a call whose input holds a line telling the
    summarizer to skip the rules (sim.history.adversarial); pinned facts are immune. 0: never
    swayed."""
    rule_boost: float = 0.0
    """Added to the salience of rule-like lines when re-ranking (a prompt that asks to keep the
    rules, or gives them a section, lifts them: sim.summarizers.prompt_knobs)."""
    recency_weight: float = 0.0
    """Salience added in proportion to a line's position in the input (0 first, this last):
    a prompt that weights recent turns pushes older lines below the cut."""
    fill: float = 1.0
    """Share of the budget a compression aims at: a prompt that asks for brevity, or states no
    length, gets a summary shorter than its budget (re-ranking fills its cut as before)."""
    shorten_share: float = 0.0
    """Chance that a filler line is written in its short form even when the input fits (a
    prompt that asks for brevity shortens more than the budget needs)."""
    rule_drop: float = 0.0
    """Chance that an unpinned rule-like line is left out of a summary even where it would fit:
    real models drop rules they had room for (fitted from a recording by `compsim calibrate`).
    0: never, and no draw is made."""
    overflow: float = 0.0
    """Chance that a call ignores its budget and returns its input whole, as a small model that
    copies its input until its output cap does. The strategy sees the overflow (and re-asks or
    fails loudly); 0: never, and no draw is made."""

    def __post_init__(self) -> None:
        """Every knob within its range (a scenario's `params` are checked at load time)."""
        for name, (lo, hi) in RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not lo <= value <= hi:  # also rejects NaN
                raise ValueError(f"{name}={value!r}: must be within {lo}..{hi}")
        if not isinstance(self.max_input_tokens, int):
            raise ValueError(f"max_input_tokens={self.max_input_tokens!r}: must be an integer")

    def p_abstract(self, ratio: float) -> float:
        """The documented curve: logistic in budget/input, `abstraction_max` at ratio 0."""
        z = (ratio - self.abstraction_mid) / self.abstraction_width
        return self.abstraction_max / (1.0 + math.exp(min(z, 50.0)))


def check_knobs(knobs: Mapping[str, object]) -> None:
    """Every key a knob, every value a number within its range; ValueError names the first
    that is not (a scenario's `params`, a level's, a params file's)."""
    valid = set(SimParams.__dataclass_fields__)
    for key, value in knobs.items():
        if key not in valid:
            raise ValueError(f"unknown parameter {key!r}; valid: {', '.join(sorted(valid))}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{key}={value!r}: must be a number")
    SimParams(**knobs)  # type: ignore[arg-type]  # each knob's range: ValueError names it


RANGES: dict[str, tuple[float, float]] = {
    "abstraction_max": (0.0, 1.0),
    "abstraction_mid": (0.0, 1e6),
    "abstraction_width": (1e-6, 1.0),
    "inversion_rate": (0.0, 1.0),
    "rank_noise": (0.0, 10.0),
    "gist_reserve": (0.0, 1.0),
    "max_input_tokens": (1, 10_000_000),
    "injection_susceptibility": (0.0, 1.0),
    "rule_boost": (0.0, 1.0),
    "recency_weight": (0.0, 1.0),
    "shorten_share": (0.0, 1.0),
    "fill": (0.05, 1.0),
    "rule_drop": (0.0, 1.0),
    "overflow": (0.0, 1.0),
}
