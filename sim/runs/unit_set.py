"""The set of finished trial units of a run, one bit per unit.

A sweep of 100,000 trial units would otherwise hold 100,000 (cell, trial) tuples in a set for
the whole run (~10 MB) just to count them and to skip them on resume; a bitmap per cell holds
the same in 12.5 KB, so the driver's memory stays flat with the number of trials.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSet


class UnitSet(MutableSet[tuple[str, int]]):
    """(cell, trial index) pairs; trial indices are small non-negative integers."""

    __slots__ = ("_bits", "_count")

    def __init__(self, units: Iterable[tuple[str, int]] = ()) -> None:
        self._bits: dict[str, bytearray] = {}
        self._count = 0
        for unit in units:
            self.add(unit)

    def __contains__(self, unit: object) -> bool:
        if not isinstance(unit, tuple) or len(unit) != 2:
            return False
        cell, trial = unit
        bits = self._bits.get(cell)
        if bits is None or not isinstance(trial, int) or not 0 <= trial < 8 * len(bits):
            return False
        return bool(bits[trial >> 3] & (1 << (trial & 7)))

    def add(self, unit: tuple[str, int]) -> None:
        cell, trial = unit
        if trial < 0:
            raise ValueError(f"trial index {trial} < 0")
        bits = self._bits.setdefault(cell, bytearray())
        if trial >> 3 >= len(bits):
            bits.extend(bytes((trial >> 3) + 1 - len(bits)))
        mask = 1 << (trial & 7)
        if not bits[trial >> 3] & mask:
            bits[trial >> 3] |= mask
            self._count += 1

    def discard(self, unit: tuple[str, int]) -> None:
        if unit in self:
            cell, trial = unit
            self._bits[cell][trial >> 3] &= ~(1 << (trial & 7)) & 0xFF
            self._count -= 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[tuple[str, int]]:
        for cell, bits in self._bits.items():
            for byte_index, byte in enumerate(bits):
                if byte:
                    for bit in range(8):
                        if byte & (1 << bit):
                            yield (cell, 8 * byte_index + bit)

    def __repr__(self) -> str:
        return f"UnitSet({sorted(self)!r})"
