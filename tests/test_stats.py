"""Exact binomial statistics, Holm's procedure and the verdict rules (rpcheck.stats).

Everything here is deterministic (no random sampling), except the hypothesis property tests, which run
derandomized (tests/conftest.py), so no test here has a false-alarm probability.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom, binomtest

from rpcheck.engine import Verdict
from rpcheck.errors import RpcheckError
from rpcheck.stats import (
    BinomialCount,
    ConfidenceInterval,
    bound_verdict,
    central_pvalue,
    deterministic_verdict,
    exact_verdict,
    holm,
    search_verdict,
    sequential_looks,
)


def test_binomial_count_matches_scipy_clopper_pearson():
    for k, n in [(0, 1), (0, 50), (3, 100), (50, 50), (17, 1000)]:
        c = BinomialCount(k, n)
        ref = binomtest(k, n).proportion_ci(0.99, method="exact")
        ci = c.proportion_ci(0.99)
        assert isinstance(ci, ConfidenceInterval)
        assert (ci.low, ci.high) == (ref.low, ref.high)
        assert c.failure_rate == k / n


def test_one_sided_bounds_are_scipy_one_sided():
    c = BinomialCount(4, 200)
    up = c.proportion_ci(0.95, alternative="less")
    lo = c.proportion_ci(0.95, alternative="greater")
    assert up.low == 0.0 and lo.high == 1.0
    # defining property of the exact one-sided bounds: the tail probability equals 1 - level at the bound
    assert binom.cdf(4, 200, up.high) == pytest.approx(0.05, rel=1e-8)
    assert binom.sf(3, 200, lo.low) == pytest.approx(0.05, rel=1e-8)


def test_binomial_count_is_frozen_and_validated():
    c = BinomialCount(1, 10)
    with pytest.raises(AttributeError):
        c.failures = 2
    with pytest.raises(RpcheckError, match="`failures` \\(11\\) must be an integer in the range \\[0, 10\\]"):
        BinomialCount(11, 10)
    with pytest.raises(RpcheckError, match="`trials`"):
        BinomialCount(0, 0)
    with pytest.raises(RpcheckError, match="`alternative`"):
        c.proportion_ci(0.9, alternative="both")
    with pytest.raises(RpcheckError, match="`confidence_level`"):
        c.proportion_ci(1.0)


def test_bound_verdict_equals_confidence_bound_rule_exhaustively():
    """HOLDS iff the one-sided upper CP bound at 1 - a <= delta; VIOLATED iff the lower bound > delta."""
    a = 0.05
    for n in (1, 7, 30):
        for k in range(n + 1):
            for delta in (0.0, 0.01, 0.1, 0.33, 0.5):
                d = bound_verdict(k, n, delta)
                v = d.verdict(a, a)
                ci = d.interval(a, a)
                c = BinomialCount(k, n)
                assert ci.high == c.proportion_ci(1 - a, alternative="less").high
                assert ci.low == c.proportion_ci(1 - a, alternative="greater").low
                assert (v is Verdict.VIOLATED) == (ci.low > delta or (delta == 0 and k > 0))
                if delta > 0:
                    assert (v is Verdict.HOLDS) == (ci.high <= delta + 1e-12 and not ci.low > delta)


def test_bound_verdict_false_violated_rate_is_at_most_alpha_exactly():
    """Exact (not simulated) size of the refutation test at the boundary p = delta."""
    a = 0.01
    for n, delta in [(100, 0.05), (1000, 0.01), (500, 0.2)]:
        ks = np.arange(n + 1)
        rej = np.array([bound_verdict(int(k), n, delta).verdict(a, a) is Verdict.VIOLATED for k in ks])
        size = binom.pmf(ks, n, delta)[rej].sum()
        assert size <= a
        # and the false-HOLDS rate at the boundary
        acc = np.array([bound_verdict(int(k), n, delta).verdict(a, a) is Verdict.HOLDS for k in ks])
        assert binom.pmf(ks, n, delta)[acc].sum() <= a


def test_central_pvalue_is_dual_to_two_sided_cp_interval():
    for n, k in itertools.product((10, 60), (0, 1, 5, 10)):
        c = BinomialCount(k, n)
        for a in (0.01, 0.1):
            ci = c.proportion_ci(1 - a)
            for p in np.linspace(0.001, 0.999, 37):
                inside = ci.low < p < ci.high
                assert (central_pvalue(k, n, p) > a) == inside or abs(p - ci.low) < 1e-9 or abs(p - ci.high) < 1e-9


def test_exact_verdict():
    v, pv = exact_verdict(50, 100, 0.5, 0.01)
    assert v is Verdict.HOLDS and pv == 1.0
    v, pv = exact_verdict(80, 100, 0.5, 0.01)
    assert v is Verdict.VIOLATED and pv < 1e-8


def test_deterministic_and_search_verdicts():
    assert deterministic_verdict(1, 10, 0) is Verdict.VIOLATED
    assert deterministic_verdict(0, 10, 5) is Verdict.HOLDS
    assert deterministic_verdict(0, 0, 5) is Verdict.VACUOUS
    assert deterministic_verdict(0, 0, 0) is Verdict.INCONCLUSIVE
    assert search_verdict(2, 10) is Verdict.VIOLATED
    assert search_verdict(0, 10) is Verdict.HOLDS
    assert search_verdict(0, 0) is Verdict.INCONCLUSIVE


def _holm_bruteforce(p, alpha):
    m = len(p)
    order = np.argsort(p, kind="stable")
    rej = np.zeros(m, bool)
    for j, i in enumerate(order):
        if p[i] <= alpha / (m - j):
            rej[i] = True
        else:
            break
    return rej


@given(st.lists(st.floats(0, 1), min_size=0, max_size=12), st.sampled_from([0.01, 0.05, 0.2]))
def test_holm_matches_definition(p, alpha):
    p = np.asarray(p, float)
    r = holm(p, alpha)
    assert np.array_equal(r.reject, _holm_bruteforce(p, alpha))
    assert np.array_equal(r.reject, p <= r.levels)
    assert np.array_equal(r.reject, r.adjusted <= alpha + 1e-15 * (r.adjusted > 0))
    if p.size:
        assert np.all(r.levels >= alpha / p.size - 1e-18) and np.all(r.levels <= alpha)


def test_holm_example_and_validation():
    r = holm([0.001, 0.015, 0.04, 0.5], 0.05)
    assert r.reject.tolist() == [True, True, False, False]
    assert r.levels.tolist() == [0.0125, 0.05 / 3, 0.025, 0.025]
    with pytest.raises(RpcheckError, match="`pvalues`"):
        holm([0.1, 1.5], 0.05)
    with pytest.raises(RpcheckError, match="`alpha`"):
        holm([0.1], 1.0)


def test_sequential_looks():
    assert sequential_looks(10, 5) == (2, 4, 6, 8, 10)
    assert sequential_looks(7, 3) == (3, 5, 7)
    assert sequential_looks(2, 5) == (1, 2)
