"""The filler's draws (sim.history.draws) and positional templates must equal the one-by-one numpy
draws and named slots they replaced: a sweep's results (and every pinned golden file) depend on the
generator stream and the lines it yields staying the same."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.history.draws import drawing
from sim.history.filler import _SLOTS, _TEMPLATES, filler_line
from sim.types import UnitKind


def scalar_filler_line(kind: UnitKind, rng: np.random.Generator) -> tuple[str, str]:
    """The reference: one scalar draw per slot, then five numbers 1..9, by slot name."""
    templates = _TEMPLATES[kind]
    full, short = templates[int(rng.integers(len(templates)))]
    values = {k: v[int(rng.integers(len(v)))] for k, v in _SLOTS.items()}
    values.update({f"n{i}" if i else "n": str(int(rng.integers(1, 10))) for i in range(5)})
    return full.format(**values), short.format(**values)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1), kinds=st.lists(st.sampled_from(list(_TEMPLATES)), max_size=30)
)
def test_vector_draw_matches_scalar_draws(seed: int, kinds: list[UnitKind]) -> None:
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    with drawing(fast) as draws:
        made = [filler_line(kind, draws) for kind in kinds]
    assert made == [scalar_filler_line(kind, slow) for kind in kinds]
    assert fast.random() == slow.random()  # the stream continues in step


def test_every_template_fills_every_slot() -> None:
    with drawing(np.random.default_rng(0)) as draws:
        for kind in _TEMPLATES:
            for _ in range(50):
                full, short = filler_line(kind, draws)
                unfilled = re.sub(r'^\{"|"\}$|\{"\w+"|\d\}$', "", full)  # JSON braces are text
                assert not re.search(r"\{\w*\}", unfilled + short) and full and short
