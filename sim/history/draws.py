"""numpy's own draws for the history generator's hot stretch, made in Python from raw words.

A history of the note's size takes ~6,000 small draws (a template, seven slot values, five
numbers and a salience jitter per filler line, two or three per turn). Through numpy each call
costs 1–6 µs of argument handling, more than the rest of the line. `Draws` makes the very values
numpy's `Generator` would, from the bit generator's raw 64-bit outputs fetched in blocks:
32-bit words are the low half of an output, then its high half (PCG64 keeps the other half for
the next word), bounded integers use Lemire's method on one word (drawing another when one falls
in the biased zone), and doubles are 53 bits of an output. Leaving the block puts the generator
exactly where numpy's calls would have left it. tests/sim/history/test_draws.py checks values and
final state against numpy for arbitrary sequences of calls; any other bit generator is used through
numpy itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

import numpy as np

_WORD = 1 << 32
_LOW32 = _WORD - 1
_BLOCK = 1024  # raw outputs per fetch: a history of the note's size takes about four
_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53


class Draws(Protocol):
    """The draws the history generator makes: numpy's `Generator` methods of the same name."""

    def random(self) -> float: ...

    def integers(self, low: int, high: int | None = None) -> int: ...

    def uniform(self, low: float, high: float) -> float: ...

    def below(self, spans: Sequence[int]) -> list[int]:
        """`[integers(span) for span in spans]`."""
        ...


class _Raw:
    """Draws from PCG64's raw outputs (see the module docstring)."""

    def __init__(self, bit_generator: np.random.PCG64) -> None:
        self._bg = bit_generator
        self._start = bit_generator.state
        # PCG64's kept half word, and whether it is still to be used (the value stays after)
        self._half: int = self._start["uinteger"]
        self._has_half = bool(self._start["has_uint32"])
        self._raw: list[int] = []
        self._pos = 0
        self._blocks = 0  # blocks fetched: the outputs used are the earlier blocks' and _pos

    def _next64(self) -> int:
        if self._pos == len(self._raw):
            self._raw = self._bg.random_raw(_BLOCK).tolist()
            self._pos = 0
            self._blocks += 1
        self._pos += 1
        return self._raw[self._pos - 1]

    def _next32(self) -> int:
        if self._has_half:
            self._has_half = False
            return self._half
        raw = self._next64()
        self._half, self._has_half = raw >> 32, True
        return raw & _LOW32

    def _below(self, span: int) -> int:
        if span == 1:  # numpy draws nothing for a single value
            return 0
        if not 1 < span <= _WORD:
            raise ValueError(f"span {span}: only spans within 1..2**32 are drawn here")
        while True:
            m = self._next32() * span
            low = m & _LOW32
            # numpy's cheap test first, then the exact biased zone; a word in it is redrawn
            if low >= span or low >= (_WORD - span) % span:
                return m >> 32

    def random(self) -> float:
        return (self._next64() >> 11) * _DOUBLE

    def integers(self, low: int, high: int | None = None) -> int:
        if high is None:
            low, high = 0, low
        return low + self._below(high - low)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.random()

    def below(self, spans: Sequence[int]) -> list[int]:
        return [self._below(span) for span in spans]

    def close(self) -> None:
        """The generator as numpy's own calls would have left it: the outputs used, no more,
        and the half word kept or not."""
        self._bg.state = self._start
        self._bg.advance(max(0, self._blocks - 1) * _BLOCK + self._pos)
        state = self._bg.state
        state["has_uint32"] = int(self._has_half)
        state["uinteger"] = self._half
        self._bg.state = state


class _Numpy:
    """The same draws through numpy itself, for bit generators other than PCG64."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng

    def random(self) -> float:
        return float(self._rng.random())

    def integers(self, low: int, high: int | None = None) -> int:
        return int(self._rng.integers(low, high))

    def uniform(self, low: float, high: float) -> float:
        return float(self._rng.uniform(low, high))

    def below(self, spans: Sequence[int]) -> list[int]:
        return [int(self._rng.integers(span)) for span in spans]


@contextmanager
def drawing(rng: np.random.Generator) -> Iterator[Draws]:
    """Draws for a stretch of code that makes only these calls on `rng` meanwhile."""
    if type(rng.bit_generator) is not np.random.PCG64:
        yield _Numpy(rng)
        return
    raw = _Raw(rng.bit_generator)
    try:
        yield raw
    finally:
        raw.close()
