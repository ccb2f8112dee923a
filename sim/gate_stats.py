"""One comparison of a metric between baseline and candidate, with the test that fits it.

Rates on paired trials (same seeds, same histories): at a +0 threshold the exact McNemar test,
shown with the interval it inverts (exact, conditional on the discordant pairs); at any other
threshold Newcombe's paired interval. Unpaired rates: Newcombe's hybrid score interval.
Counts (tokens, calls, retries): the plain difference of means, since they are deterministic
for fixed seeds.

The verdict answers "did it get worse by more than the threshold?":
PASS when the observed change is within the threshold; REGRESSED when it exceeds it and the
test says so at level alpha; INCONCLUSIVE when it exceeds it but the interval still reaches
back over the threshold, with the number of trials that would decide it at the same rates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sim.stats import mcnemar_exact, mcnemar_interval, newcombe, newcombe_paired, z_for

EPS = 1e-12
MAX_TRIALS = 10_000_000


class Verdict(StrEnum):
    PASS = "PASS"
    REGRESSED = "REGRESSED"
    INCONCLUSIVE = "INCONCLUSIVE"


@dataclass(frozen=True, slots=True)
class Sample:
    """Per-unit values of one metric: `pairs` (baseline, candidate) when paired, else the two
    sides apart."""

    paired: bool
    base: tuple[float, ...]
    cand: tuple[float, ...]

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[float, float]]) -> Sample:
        return cls(True, tuple(b for b, _ in pairs), tuple(c for _, c in pairs))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The statistics of one comparison; `needed` is the trial count that would decide an
    inconclusive one (None when undecidable within MAX_TRIALS)."""

    test: str
    n_base: int
    n_cand: int
    base: float
    cand: float
    lo: float | None
    hi: float | None
    p: float | None
    verdict: Verdict
    needed: int | None = None

    @property
    def diff(self) -> float:
        return self.cand - self.base


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _needed(decides: Callable[[float], bool], n: int) -> int | None:
    """Smallest unit count N > n at which the observed rates, scaled to N, decide the test."""
    lo, hi = n, n
    while not decides(hi / n):
        lo, hi = hi, hi * 2
        if hi > MAX_TRIALS:
            return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if decides(mid / n) else (mid, hi)
    return hi


def compare_counts(sample: Sample, threshold: float) -> Outcome:
    base, cand = _mean(sample.base), _mean(sample.cand)
    verdict = Verdict.REGRESSED if cand - base > threshold + EPS else Verdict.PASS
    return Outcome(
        "difference", len(sample.base), len(sample.cand), base, cand, None, None, None, verdict
    )


def compare_rates(sample: Sample, threshold: float, alpha: float) -> Outcome:
    z = z_for(alpha)
    if sample.paired:
        return _paired(sample, threshold, alpha, z)
    xb, nb = round(sum(sample.base)), len(sample.base)
    xc, nc = round(sum(sample.cand)), len(sample.cand)
    if not nb or not nc:
        return Outcome("Newcombe", nb, nc, 0.0, 0.0, None, None, None, Verdict.INCONCLUSIVE)
    lo, hi = newcombe(xc, nc, xb, nb, z)
    pb, pc = xb / nb, xc / nc
    verdict = _verdict(pc - pb, threshold, lo > threshold + EPS)
    needed = None
    if verdict is Verdict.INCONCLUSIVE:

        def decides(k: float) -> bool:
            n1, n2 = round(nc * k), round(nb * k)
            return newcombe(round(xc * k), n1, round(xb * k), n2, z)[0] > threshold + EPS

        needed = _needed(decides, max(nb, nc))
    return Outcome("Newcombe", nb, nc, pb, pc, lo, hi, None, verdict, needed)


def _paired(sample: Sample, threshold: float, alpha: float, z: float) -> Outcome:
    n = len(sample.base)
    both = worse = better = 0
    for b, c in zip(sample.base, sample.cand, strict=True):
        both += bool(b) and bool(c)
        worse += bool(c) and not b
        better += bool(b) and not c
    neither = n - both - worse - better
    if not n:
        return Outcome("McNemar exact", 0, 0, 0.0, 0.0, None, None, None, Verdict.INCONCLUSIVE)
    p = mcnemar_exact(worse, better)
    at_zero = abs(threshold) <= EPS
    if at_zero:
        test, (lo, hi) = "McNemar exact", mcnemar_interval(worse, better, n, alpha)
    else:
        test, (lo, hi) = "Newcombe paired", newcombe_paired(both, worse, better, neither, z)

    def significant(w: int, b: int, bo: int, ne: int) -> bool:
        if at_zero:
            return mcnemar_exact(w, b) < alpha
        return newcombe_paired(bo, w, b, ne, z)[0] > threshold + EPS

    diff = (worse - better) / n
    verdict = _verdict(diff, threshold, significant(worse, better, both, neither))
    needed = None
    if verdict is Verdict.INCONCLUSIVE:
        needed = _needed(
            lambda k: significant(
                round(worse * k), round(better * k), round(both * k), round(neither * k)
            ),
            n,
        )
    pb, pc = (both + better) / n, (both + worse) / n
    return Outcome(test, n, n, pb, pc, lo, hi, p, verdict, needed)


def _verdict(diff: float, threshold: float, significant: bool) -> Verdict:
    if diff <= threshold + EPS:
        return Verdict.PASS
    return Verdict.REGRESSED if significant else Verdict.INCONCLUSIVE
