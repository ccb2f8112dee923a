"""The simulated summarizer's knobs as a documented function of what its prompt asks.

A scenario's `SimParams` are the knobs for a prompt that asks nothing in particular; each
feature the prompt shows (sim.prompts.features) moves named knobs from there, in the order of
`MOVES`, and the note's rule picks the mode. So two compression prompts that ask different
things give different numbers, and every difference traces back to a feature and a knob:

| feature | knob | move | why |
|---|---|---|---|
| ranking / purpose_directed / recency | mode | re-rank | the note's rule |
| `keep_rules` | `abstraction_max` | x0.5 | told to keep rules, it abstracts them half as often |
| `keep_rules` | `rule_boost` | +0.15 | rules rank higher when it re-ranks |
| `keep_rules_verbatim` | `abstraction_max` | x0.4 | told to copy them, it rarely paraphrases |
| `keep_rules_verbatim` | `inversion_rate` | x0.5 | a copy is rarely flipped |
| `rules_section` | `rule_boost` | +0.25 | a section of their own lifts rules above the subgoals |
| `rules_section` | `abstraction_max` | x0.8 | |
| `ranking` | `rank_noise` | x0.75 | an explicit ranking instruction ranks more decisively |
| `recency` | `recency_weight` | +0.3 | later lines score higher, older ones fall below the cut |
| `progressive` | `abstraction_mid` | x1.5 | re-summarizing a running summary abstracts sooner |
| `brevity` | `shorten_share` | +0.6 | shortens filler lines even when the input fits |
| `brevity` | `fill` | x0.85 | a concise summary stops short of its budget |
| `rules_section` | `fill` | x0.9 | sections of one-line items are shorter than prose |
| `exhaustive` | `shorten_share` | x0.5 | "keep every ..." leaves more lines whole |
| no `length_cap` | `shorten_share` | +0.2 | with no stated length it writes its own, shorter one |
| no `length_cap` | `fill` | x0.85 | |

`fill` and `shorten_share` act in compression only; re-ranking fills its cut as before.

`compsim lint-prompt` prints a prompt's moves (`knob_line`).
"""

from __future__ import annotations

from dataclasses import fields, replace
from functools import lru_cache

from sim.prompts.features import Feature, PromptFeatures, prompt_features
from sim.prompts.instructions import Mode
from sim.summarizers.simulated_params import RANGES, SimParams

ABSENT = "no "
"""A move keyed `no <feature>` applies when the feature is absent."""

MOVES: tuple[tuple[str, str, str, float], ...] = (
    (Feature.KEEP_RULES, "abstraction_max", "x", 0.5),
    (Feature.KEEP_RULES, "rule_boost", "+", 0.15),
    (Feature.KEEP_RULES_VERBATIM, "abstraction_max", "x", 0.4),
    (Feature.KEEP_RULES_VERBATIM, "inversion_rate", "x", 0.5),
    (Feature.RULES_SECTION, "rule_boost", "+", 0.25),
    (Feature.RULES_SECTION, "abstraction_max", "x", 0.8),
    (Feature.RANKING, "rank_noise", "x", 0.75),
    (Feature.RECENCY, "recency_weight", "+", 0.3),
    (Feature.PROGRESSIVE, "abstraction_mid", "x", 1.5),
    (Feature.BREVITY, "shorten_share", "+", 0.6),
    (Feature.BREVITY, "fill", "x", 0.85),
    (Feature.RULES_SECTION, "fill", "x", 0.9),
    (Feature.EXHAUSTIVE, "shorten_share", "x", 0.5),
    (ABSENT + Feature.LENGTH_CAP, "shorten_share", "+", 0.2),
    (ABSENT + Feature.LENGTH_CAP, "fill", "x", 0.85),
)
"""(feature, knob, operation, amount), applied in this order."""


def _applies(key: str, feats: PromptFeatures) -> bool:
    if key.startswith(ABSENT):
        return not feats.has(Feature(key.removeprefix(ABSENT)))
    return feats.has(Feature(key))


def moves_of(feats: PromptFeatures) -> list[tuple[str, str, str, float]]:
    return [m for m in MOVES if _applies(m[0], feats)]


def apply(base: SimParams, feats: PromptFeatures) -> SimParams:
    """`base` with every move of the prompt's features applied, each knob kept in its range."""
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    for _key, knob, op, amount in moves_of(feats):
        lo, hi = RANGES[knob]
        moved = values[knob] * amount if op == "x" else values[knob] + amount
        values[knob] = min(max(moved, lo), hi)
    return replace(base, **values)


@lru_cache(maxsize=1024)
def knobs_for(instruction: str, base: SimParams) -> tuple[Mode, SimParams]:
    """The mode and knobs one instruction gets; memoized, a sweep sends few prompts."""
    feats = prompt_features(instruction)
    return (Mode.RERANK if feats.reranking else Mode.COMPRESS), apply(base, feats)


COMPRESSION_ONLY = frozenset({"fill", "shorten_share"})


def knob_line(feats: PromptFeatures) -> str:
    """The mode and every knob a prompt moves that acts in that mode, with its feature."""
    mode = "re-rank" if feats.reranking else "compress"
    moved = [
        f"{knob} {op}{amount:g} ({key})"
        for key, knob, op, amount in moves_of(feats)
        if not (feats.reranking and knob in COMPRESSION_ONLY)
    ]
    return "; ".join([f"mode {mode}", *moved])
