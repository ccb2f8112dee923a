"""One comparison of a metric between baseline and candidate, with the test that fits it.

Rates on paired trials (same seeds, same histories): the exact McNemar test and the interval
it inverts, conditional on the discordant pairs (Clopper-Pearson on worse / discordant, scaled
by the discordant share); concordant pairs carry no evidence of change, so identical runs give
[0, 0]. Unpaired rates: Newcombe's hybrid score interval. Counts (tokens, calls, retries): the
plain difference of means, since they are deterministic for fixed seeds.

Verdicts from the (1 - alpha) interval of the change against the threshold: REGRESSED when it
lies wholly above (the worsening exceeds the threshold, significantly); PASS when it lies at or
below; INCONCLUSIVE when it straddles the threshold, with the number of trials that would
decide it at the observed rates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sim.runs.stats import mcnemar_exact, mcnemar_interval, newcombe, z_for

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


def _verdict(lo: float, hi: float, threshold: float) -> Verdict:
    if lo > threshold + EPS:
        return Verdict.REGRESSED
    if hi <= threshold + EPS:
        return Verdict.PASS
    return Verdict.INCONCLUSIVE


def _decide(
    interval: Callable[[float], tuple[float, float]], diff: float, threshold: float, n: int
) -> tuple[Verdict, int | None]:
    """The verdict, and for an undecided one the trials that would decide it: counts scaled
    by k keep the observed rates. A change sitting exactly on the threshold never decides."""
    verdict = _verdict(*interval(1.0), threshold)
    if verdict is not Verdict.INCONCLUSIVE or abs(diff - threshold) <= EPS or not n:
        return verdict, None
    return verdict, _needed(lambda k: _verdict(*interval(k), threshold) is not verdict, n)


def compare_rates(sample: Sample, threshold: float, alpha: float) -> Outcome:
    if sample.paired:
        return _paired(sample, threshold, alpha)
    z = z_for(alpha)
    xb, nb = round(sum(sample.base)), len(sample.base)
    xc, nc = round(sum(sample.cand)), len(sample.cand)
    if not nb or not nc:
        return Outcome("Newcombe", nb, nc, 0.0, 0.0, None, None, None, Verdict.INCONCLUSIVE)

    def interval(k: float) -> tuple[float, float]:
        return newcombe(round(xc * k), round(nc * k), round(xb * k), round(nb * k), z)

    pb, pc = xb / nb, xc / nc
    verdict, needed = _decide(interval, pc - pb, threshold, max(nb, nc))
    lo, hi = interval(1.0)
    return Outcome("Newcombe", nb, nc, pb, pc, lo, hi, None, verdict, needed)


def _paired(sample: Sample, threshold: float, alpha: float) -> Outcome:
    n = len(sample.base)
    if not n:
        return Outcome("McNemar exact", 0, 0, 0.0, 0.0, None, None, None, Verdict.INCONCLUSIVE)
    both = worse = better = 0
    for b, c in zip(sample.base, sample.cand, strict=True):
        both += bool(b) and bool(c)
        worse += bool(c) and not b
        better += bool(b) and not c

    def interval(k: float) -> tuple[float, float]:
        return mcnemar_interval(round(worse * k), round(better * k), round(n * k), alpha)

    verdict, needed = _decide(interval, (worse - better) / n, threshold, n)
    lo, hi = interval(1.0)
    p = mcnemar_exact(worse, better) if abs(threshold) <= EPS else None
    pb, pc = (both + better) / n, (both + worse) / n
    return Outcome("McNemar exact", n, n, pb, pc, lo, hi, p, verdict, needed)
