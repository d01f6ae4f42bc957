"""Unit tests of alpcan2016.baselines: the dimensions, the exact laws behind the derivations, the data."""

import math

import numpy as np
import pytest
from scipy.stats import chi2

from rpcheck.papers.alpcan2016 import baselines as T


def test_av_min_dim_is_the_least_k():
    for m, l, d in ((50, 0.5, 0.1), (100, 0.6, 0.05)):
        k = T.av_min_dim(m, l, d)
        c = l / 2

        fail = [4 * m * math.exp(-(c * c - c**3) * kk / 4) for kk in (k, k - 1)]
        assert fail[0] <= d < fail[1]


def test_imported_av_inequality_is_implied_by_dasgupta_gupta():
    """4 exp(-(c^2 - c^3)k/4) >= 2 * 2 exp(-k(c^2/2 - c^3/3)/2) (the polarisation proof in the docstring)."""
    for c in np.linspace(0.01, 0.99, 50):
        for k in (10, 100, 1000):
            assert 4 * math.exp(-(c * c - c**3) * k / 4) >= 4 * math.exp(-k * (c * c / 2 - c**3 / 3) / 2)


def test_chi2_two_sided_against_scipy():
    assert T.chi2_two_sided(100, 0.3) == pytest.approx(chi2.cdf(70, 100) + chi2.sf(130, 100), rel=1e-12)


def test_no_loss_failure_against_monte_carlo():
    rng = np.random.default_rng(5)
    k, l, N = 200, 0.5, 400_000
    A, B = rng.chisquare(k, N) / k, rng.chisquare(k, N) / k
    mc = np.mean(((1 + l) * A - (1 - l) * B) / 2 < l)
    assert abs(mc - T.no_loss_failure(k, l)) < 5 * math.sqrt(0.25 / N)


def test_projected_inner_product_law_matches_the_polarisation():
    """w'.x' = ((1 + l) A - (1 - l) B)/2 with A, B ~ chi2_k/k: the mean and variance of w'.x' in the trial's draw."""
    rng = np.random.default_rng(2)
    d, k, l = 16, 40, 0.5
    w, X, y = T._margin_data(5, d, l, rng)
    x1 = y[0] * X[0]
    assert w @ x1 == pytest.approx(l, abs=1e-12)
    vals = [(w @ R) @ (x1 @ R) for R in (rng.standard_normal((d, k)) / math.sqrt(k) for _ in range(20000))]
    # E = l, Var = ((1+l)^2 + (1-l)^2) * 2k / (4 k^2) = (1 + l^2)/k
    assert np.mean(vals) == pytest.approx(l, abs=5 * math.sqrt((1 + l * l) / k / 20000))
    assert np.var(vals) == pytest.approx((1 + l * l) / k, rel=0.05)


def test_margin_data_has_margin_exactly_l():
    w, X, y = T._margin_data(30, 20, 0.4, np.random.default_rng(0))
    assert np.allclose(np.linalg.norm(X, axis=1), 1)
    m = y * (X @ w)
    assert m.min() == pytest.approx(0.4, abs=1e-12) and np.all(m >= 0.4 - 1e-12)


def test_every_profile_cell_has_expectations():
    for c in T.PROFILES["quick"].cells + T.PROFILES["ci"].cells:
        assert [str(v.expected(c).value) for v in T.THEOREM.variants] == ["HOLDS", "HOLDS", "VIOLATED", "VIOLATED"]
