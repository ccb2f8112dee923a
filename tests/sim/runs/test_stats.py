"""Intervals and exact tests against published values and scipy/statsmodels output (hard-coded
here: neither is a dependency)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.runs.stats import (
    Z95,
    binom_cdf,
    binom_half_cdf,
    clopper_pearson,
    mcnemar_exact,
    mcnemar_interval,
    newcombe,
    wilson,
    z_for,
)


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # statsmodels proportion_confint(method="wilson")
        (0, 10, 0.0, 0.27753279986288926),
        (1, 10, 0.017876213095072924, 0.40415002679523854),
        (5, 10, 0.23659309051256394, 0.7634069094874361),
        (81, 263, 0.2552885198782742, 0.36620957698280004),
        (15, 148, 0.06238639953073628, 0.16048724172330803),
    ],
)
def test_wilson_matches_reference(k: int, n: int, lo: float, hi: float) -> None:
    assert wilson(k, n) == pytest.approx((lo, hi), abs=1e-12)


def test_wilson_without_trials_is_uninformative() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2", "lo", "hi"),
    [
        # Newcombe (1998) Table II, method 10, to 4 places; full digits from statsmodels
        # confint_proportions_2indep(method="newcomb")
        (56, 70, 48, 80, 0.05243147240236498, 0.33387265403690614),
        (9, 10, 3, 10, 0.1705227239345029, 0.809017973535488),
        (6, 7, 2, 7, 0.05822792748231209, 0.8062496375242278),
        (5, 56, 0, 29, -0.038137147903536936, 0.19256001385511165),
        (0, 10, 0, 20, -0.1611251580528194, 0.27753279986288926),
        (10, 10, 0, 20, 0.6790860371419145, 1.0),
        (3, 40, 1, 40, -0.06486678596189274, 0.17534226073590484),
    ],
)
def test_newcombe_unpaired(x1: int, n1: int, x2: int, n2: int, lo: float, hi: float) -> None:
    assert newcombe(x1, n1, x2, n2) == pytest.approx((lo, hi), abs=1e-12)


@pytest.mark.parametrize(
    ("worse", "better", "p"),
    [
        # scipy.stats.binomtest(worse, worse + better, 0.5).pvalue
        (12, 2, 0.012939453125),
        (0, 5, 0.0625),
        (1, 9, 0.021484375),
        (3, 3, 1.0),
        (7, 0, 0.015625),
        (40, 22, 0.030015864349067285),
        (0, 0, 1.0),
    ],
)
def test_mcnemar_exact(worse: int, better: int, p: float) -> None:
    assert mcnemar_exact(worse, better) == pytest.approx(p, rel=1e-12)
    assert mcnemar_exact(better, worse) == pytest.approx(p, rel=1e-12)


def test_binomial_tail_exact_and_large() -> None:
    assert binom_half_cdf(2, 14) == 106 / 16384
    assert binom_half_cdf(-1, 5) == 0.0
    assert binom_half_cdf(5, 5) == 1.0
    # symmetric at the median of an odd count, and finite for thousands of pairs
    assert binom_half_cdf(1000, 2001) == pytest.approx(0.5)
    # past the exact range, against scipy.stats.binom.cdf(k, m, 0.5)
    assert binom_half_cdf(4900, 10000) == pytest.approx(0.023292763852473225, rel=1e-9)
    assert binom_half_cdf(1000, 2500) == pytest.approx(6.662935824188383e-24, rel=1e-9)
    assert binom_half_cdf(499000, 1000000) == pytest.approx(0.0228041499326948, rel=1e-9)


def test_z_for_alpha() -> None:
    assert z_for(0.05) == pytest.approx(Z95, abs=1e-9)
    assert z_for(0.01) == pytest.approx(2.5758293035489, abs=1e-9)
    with pytest.raises(ValueError, match=r"alpha=1\.5"):
        z_for(1.5)
    assert math.isfinite(z_for(0.001))


def test_binom_cdf_matches_scipy() -> None:
    # scipy.stats.binom.cdf
    assert binom_cdf(3, 10, 0.3) == pytest.approx(0.6496107184000001, rel=1e-12)
    assert binom_cdf(0, 5, 0.9) == pytest.approx(1e-05, rel=1e-9)
    assert binom_cdf(120, 400, 0.35) == pytest.approx(0.019564497229028734, rel=1e-9)
    assert binom_cdf(10, 10, 0.5) == 1.0
    assert binom_cdf(-1, 10, 0.5) == 0.0


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # statsmodels proportion_confint(method="beta")
        (0, 10, 0.0, 0.30849710781876083),
        (4, 4, 0.3976353643835253, 1.0),
        (3, 10, 0.06673951117773447, 0.6524528500599973),
        (12, 14, 0.5718708390903011, 0.9822054845168084),
        (130, 400, 0.279293949297174, 0.3733191421695883),
    ],
)
def test_clopper_pearson(k: int, n: int, lo: float, hi: float) -> None:
    assert clopper_pearson(k, n) == pytest.approx((lo, hi), abs=1e-10)


@pytest.mark.parametrize(("worse", "better"), [(4, 0), (5, 0), (6, 0), (12, 2), (9, 3), (40, 22)])
def test_mcnemar_interval_excludes_zero_exactly_when_the_test_rejects(
    worse: int, better: int
) -> None:
    lo, hi = mcnemar_interval(worse, better, 100)
    assert (lo > 0) == (mcnemar_exact(worse, better) < 0.05)
    assert lo < (worse - better) / 100 <= hi


def test_mcnemar_interval_without_discordant_pairs() -> None:
    assert mcnemar_interval(0, 0, 50) == (0.0, 0.0)


@given(n=st.integers(1, 100_000), data=st.data())
def test_wilson_bounds_hold_the_rate_and_stay_in_unit_interval(n: int, data: st.DataObject) -> None:
    """0 <= lo <= k/n <= hi <= 1, exactly 0 at no successes and 1 at all: float error once put
    the lower bound a hair above a 0% rate, and matplotlib refused the negative error bar."""
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    if k == 0:
        assert lo == 0.0
    if k == n:
        assert hi == 1.0


@pytest.mark.parametrize("n", [3, 6, 7, 12, 100, 1000])
def test_wilson_at_the_ends_is_exact(n: int) -> None:
    assert wilson(0, n)[0] == 0.0  # was 5.6e-17, 2.8e-17, ..., 3.5e-18, 2.2e-19
    assert wilson(n, n)[1] == 1.0


def test_kendall_tau_against_published_values() -> None:
    from sim.runs.stats import kendall_tau

    assert kendall_tau([1, 2, 3, 4], [1, 2, 3, 4]) == 1.0
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    # scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) -> tau-b -0.4714045207910316
    tau = kendall_tau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])
    assert tau is not None and abs(tau - -0.4714045207910316) < 1e-12
    assert kendall_tau([1, 1, 1], [1, 2, 3]) is None
    with pytest.raises(ValueError):
        kendall_tau([1], [1, 2])
