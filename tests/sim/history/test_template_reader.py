"""Generated histories do not give the answer key away: a template reader that knows the
generator's own filler forms (every line opening its filler templates write) and keeps
whatever does not open like one must not beat `budget_closed` on collapse at equal or lower
tokens. Real sessions are not that regular; a compactor tuned to the generator's phrasing
would otherwise look better here than it is."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from sim.engine.ladder import run_trial
from sim.history.filler import filler_forms_pattern
from sim.history.generate import HistorySpec, generate_history
from sim.seeds import rng_for
from sim.summarizers.simulated import SimulatedSummarizer
from sim.types import Ladder, LevelSpec, PieceResult, TrialRecord
from strategies import create_strategy
from strategies.base import CallContext
from tests.helpers import counter

LADDER = Ladder((LevelSpec("L1", 1024, 3), LevelSpec("L2", 256, 4), LevelSpec("L3", 96, 0)))
SPEC = HistorySpec(target_tokens=3000, constraints=4, near_misses=2)
TRIALS = 40


@dataclass
class TemplateReader:
    """Keeps the lines that do not open like one of the generator's filler forms (and no turn
    headers), then as many of them as fit, first to last."""

    name: str = "template_reader"
    args: dict[str, Any] = field(default_factory=dict)
    openings: re.Pattern[str] = field(default_factory=lambda: _openings())

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        kept, size = [], 0
        for line in (ln.strip() for ln in text.splitlines()):
            if not line or line.startswith("###") or self.openings.match(line):
                continue
            cost = ctx.counter.count_line(line)
            if size + cost > budget:
                break
            kept.append(line + "\n")
            size += cost
        return PieceResult("".join(kept), ctx.counter.count(text), size)


def _openings() -> re.Pattern[str]:
    return filler_forms_pattern()


def _trial(seed: int, strategy: Any, name: str) -> TrialRecord:
    history = generate_history(SPEC, rng_for(seed, 0, "history"), counter())
    summarizer = SimulatedSummarizer(history, rng_for(seed, 0, name), counter())
    return run_trial(
        history, LADDER, strategy, summarizer, counter(), trial_id=f"{seed}:{name}", seed=seed
    )


def _rates(strategy_of: Any, name: str) -> tuple[float, float]:
    records = [_trial(seed, strategy_of(), name) for seed in range(TRIALS)]
    collapse = float(np.mean([r.collapsed for r in records]))
    tokens = float(np.mean([sum(lv.tokens_out for lv in r.levels) for r in records]))
    return collapse, tokens


def test_the_reader_knows_every_filler_line() -> None:
    reader = _openings()
    history = generate_history(SPEC, rng_for(0, 0, "history"), counter())
    filler = [
        u.renderings[0]
        for u in history.units
        if not u.kind.constraint_like and u.kind.value != "header"
    ]
    assert filler and all(reader.match(line) for line in filler)


@pytest.mark.slow
def test_a_template_reader_does_not_beat_budget_closed() -> None:
    reader_collapse, reader_tokens = _rates(TemplateReader, "template_reader")
    closed_collapse, closed_tokens = _rates(lambda: create_strategy("budget_closed"), "closed")
    print(
        f"template_reader {reader_collapse:.1%} at {reader_tokens:.0f} tokens/trial; "
        f"budget_closed {closed_collapse:.1%} at {closed_tokens:.0f}"
    )
    beats = reader_collapse < closed_collapse and reader_tokens <= closed_tokens
    assert not beats
