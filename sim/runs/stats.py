"""Interval estimates and exact tests for rates; pure Python so the gate path needs no scipy.

The gate compares a candidate with a baseline on the same seeds, so most comparisons are
paired (the exact McNemar test and the interval it inverts); unpaired ones fall back to
Newcombe's hybrid score interval. Each is checked against published values in
tests/sim/runs/test_stats.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from statistics import NormalDist

Z95 = 1.959963984540054


def z_for(alpha: float) -> float:
    """The two-sided normal quantile for confidence 1 - alpha (1.96 for alpha = 0.05)."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha} must be between 0 and 1")
    return NormalDist().inv_cdf(1 - alpha / 2)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Chosen over the normal approximation because collapse rates sit near 0 and 1, where the
    normal interval leaves [0, 1] and under-covers. The bounds always hold the rate itself and
    are exact at the ends: in floating point, `centre - half` for 0 of n comes out a hair
    above 0 (3.5e-18 for n = 100), which made error bars negative and plots raise.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes >= n else max(p, min(1.0, centre + half))
    return (lo, hi)


def newcombe(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Interval for p1 - p2 from two independent samples: Newcombe's hybrid score method
    (1998, method 10), built from the two Wilson intervals.

    Used when candidate and baseline trials cannot be paired (different seeds or histories);
    unlike the Wald interval it stays inside [-1, 1] and keeps its coverage at rates near 0.
    """
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    lower = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    upper = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (max(-1.0, lower), min(1.0, upper))


_EXACT_UP_TO = 2000
"""Pairs up to which the binomial tail is summed in exact integers; beyond, in log space."""


def binom_half_cdf(k: int, m: int) -> float:
    """P(X <= k) for X ~ Binomial(m, 1/2): exact integers for small m; for large m (the
    gate's "how many trials would decide it" search) terms summed downward from k in log space
    until they stop mattering, which keeps the search fast at millions of pairs."""
    if k < 0:
        return 0.0
    if k >= m:
        return 1.0
    if m <= _EXACT_UP_TO:
        return float(Fraction(sum(math.comb(m, i) for i in range(k + 1)), 1 << m))
    log_norm = math.lgamma(m + 1) - m * math.log(2)
    total = 0.0
    for i in range(k, -1, -1):
        term = math.exp(log_norm - math.lgamma(i + 1) - math.lgamma(m - i + 1))
        total += term
        if term < 1e-17 * total:
            break
    return min(1.0, total)


def mcnemar_exact(worse: int, better: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs of a paired comparison.

    Conditional on the `worse + better` discordant pairs, `worse` is Binomial(m, 1/2) under
    "no change"; the p-value doubles the smaller tail (capped at 1), as in the textbook test.
    """
    m = worse + better
    if m == 0:
        return 1.0
    return min(1.0, 2 * binom_half_cdf(min(worse, better), m))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed in log space."""
    if k < 0 or p >= 1.0:
        return 0.0 if k < n else 1.0
    if k >= n or p <= 0.0:
        return 1.0
    lp, lq, top = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    logs = [
        top - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq
        for i in range(k + 1)
    ]
    peak = max(logs)
    return min(1.0, math.exp(peak) * sum(math.exp(t - peak) for t in logs))


def _solve(f: Callable[[float], float], target: float, rising: bool) -> float:
    """The p in (0, 1) where the monotone f(p) crosses `target`, by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if (f(mid) < target) == rising:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for a binomial proportion: the inversion of two
    one-sided exact tests at alpha / 2 each."""
    if n <= 0:
        return (0.0, 1.0)
    lo = 0.0 if k <= 0 else _solve(lambda p: 1 - binom_cdf(k - 1, n, p), alpha / 2, True)
    hi = 1.0 if k >= n else _solve(lambda p: binom_cdf(k, n, p), alpha / 2, False)
    return (lo, hi)


def mcnemar_interval(worse: int, better: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Interval for the paired difference that the exact McNemar test inverts: Clopper-Pearson
    on worse / (worse + better), scaled by the discordant share (worse + better) / n.

    Conditional on the discordant pairs, so it excludes 0 exactly when the two-sided exact
    McNemar p-value is below alpha; with no discordant pair it is [0, 0].
    """
    m = worse + better
    if m == 0 or n <= 0:
        return (0.0, 0.0)
    lo, hi = clopper_pearson(worse, m, alpha)
    share = m / n
    return ((2 * lo - 1) * share, (2 * hi - 1) * share)


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Kendall's tau-b between two rankings of the same items (ties allowed): 1 the same
    order, -1 reversed; None when either side has no order at all (every value tied)."""
    if len(a) != len(b):
        raise ValueError(f"kendall_tau: {len(a)} against {len(b)} values")
    concordant = discordant = tied_a = tied_b = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                tied_a += 1
            elif db == 0:
                tied_b += 1
            elif (da > 0) == (db > 0):
                concordant += 1
            else:
                discordant += 1
    n_a = concordant + discordant + tied_b  # pairs that a orders
    n_b = concordant + discordant + tied_a
    if n_a == 0 or n_b == 0:
        return None
    return (concordant - discordant) / math.sqrt(n_a * n_b)
