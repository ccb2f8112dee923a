"""Interval estimates and exact tests for rates; pure Python so the gate path needs no scipy.

The gate compares a candidate with a baseline on the same seeds, so most comparisons are
paired (exact McNemar, Newcombe's paired interval); unpaired ones fall back to Newcombe's
hybrid score interval. Each is checked against published values in tests/sim/test_stats.py.
"""

from __future__ import annotations

import math
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
    normal interval leaves [0, 1] and under-covers.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def newcombe_paired(
    both: int, only1: int, only2: int, neither: int, z: float = Z95
) -> tuple[float, float]:
    """Interval for p1 - p2 on paired binary outcomes (Newcombe 1998, paired method 10).

    `both` pairs are positive on both sides, `only1` only on side 1, `only2` only on side 2.
    The Wilson intervals of the two margins are combined with the phi correlation of the
    2x2 table, so concordant pairs narrow the interval as they should.
    """
    n = both + only1 + only2 + neither
    if n <= 0:
        return (-1.0, 1.0)
    p1, p2 = (both + only1) / n, (both + only2) / n
    l1, u1 = wilson(both + only1, n, z)
    l2, u2 = wilson(both + only2, n, z)
    margins = (both + only1) * (only2 + neither) * (both + only2) * (only1 + neither)
    phi = (both * neither - only1 * only2) / math.sqrt(margins) if margins else 0.0
    d = p1 - p2
    dl = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    du = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return (max(-1.0, d - math.sqrt(max(dl, 0.0))), min(1.0, d + math.sqrt(max(du, 0.0))))


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
