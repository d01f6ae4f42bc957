"""paul2014.repro.synthetic: the derived lower bound on the recipe's test error (the information limit behind
the finding ``synthetic-error``), against Monte Carlo simulations of the oracle it describes and of learners."""

import math

import numpy as np
import pytest

from rpcheck.errors import RpcheckError
from rpcheck.papers.paul2014.repro_synthetic import largest_training_size, oracle_error_bound


def _oracle_and_learners(n, d, draws, rng):
    """Per draw: a uniform teacher w, n Gaussian training points, one Gaussian test point. Returns the error
    indicators of the oracle told P w (P: projection onto the training span), of the Hebbian learner
    sum_i y_i x_i and of the minimum-norm interpolator of the labels."""
    err = np.zeros((3, draws), dtype=bool)
    for k in range(draws):
        w = rng.standard_normal(d)
        X = rng.standard_normal((n, d))
        y = np.sign(X @ w)
        x = rng.standard_normal(d)
        Q, _ = np.linalg.qr(X.T)          # orthonormal basis of the training span
        pw = Q @ (Q.T @ w)
        truth = np.sign(w @ x)
        hebb = y @ X
        mn = X.T @ np.linalg.solve(X @ X.T, y)
        err[:, k] = [np.sign(pw @ x) != truth, np.sign(hebb @ x) != truth, np.sign(mn @ x) != truth]
    return err.mean(axis=1)


def test_bound_matches_the_oracle_it_describes():
    """The oracle's error rate equals E[arccos(sqrt(B))]/pi (two-sided 99.9% normal band, seed fixed)."""
    n, d, draws = 12, 150, 6000
    oracle, _, _ = _oracle_and_learners(n, d, draws, np.random.default_rng(20240))
    p = oracle_error_bound(n, d)
    half = 3.29 * math.sqrt(p * (1 - p) / draws)
    assert abs(oracle - p) <= half, (oracle, p, half)


def test_learners_do_no_better_than_the_bound():
    """Learners that see only the data err at least as often as the oracle: one-sided, 99.9% (seed fixed)."""
    n, d, draws = 12, 150, 6000
    _, hebb, mn = _oracle_and_learners(n, d, draws, np.random.default_rng(31))
    p = oracle_error_bound(n, d)
    for rate in (hebb, mn):
        assert rate >= p - 3.09 * math.sqrt(p * (1 - p) / draws), (rate, p)


def test_bound_values_at_the_papers_sizes_and_its_limits():
    # D1-D3 with the paper's 10 folds (n_train = 180, 225, 270)
    assert [round(oracle_error_bound(n, d), 3) for n, d in ((180, 5000), (225, 10000), (270, 20000))] == [
        0.439,
        0.452,
        0.463,
    ]
    # about arccos(sqrt(n/d))/pi, and -> 1/2 as n/d -> 0
    assert abs(oracle_error_bound(180, 5000) - math.acos(math.sqrt(0.036)) / math.pi) < 1e-3
    assert oracle_error_bound(1, 10**6) > 0.499
    assert abs(oracle_error_bound(1, 2) - 0.25) < 1e-9          # B ~ arcsine: E[arccos(sqrt B)] = pi/4
    b = np.random.default_rng(5).beta(6, 69, size=400_000)      # n = 12, d = 150 by sampling B itself
    assert abs(oracle_error_bound(12, 150) - np.mean(np.arccos(np.sqrt(b))) / math.pi) < 5e-4
    # far below the paper's 15.10%
    assert oracle_error_bound(180, 5000) > 0.4
    assert largest_training_size(200, 10) == 180 and largest_training_size(200, 3) == 134


@pytest.mark.parametrize(("n", "d"), [(0, 10), (10, 10), (11, 10)])
def test_bound_rejects_sizes_outside_its_domain(n, d):
    with pytest.raises(RpcheckError, match="n_train"):
        oracle_error_bound(n, d)
