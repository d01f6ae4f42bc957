"""Unit tests of the Lei & Lan (2020) oracles (rpcheck.papers.lei2020._common) and bounds
(rpcheck.papers.lei2020.bounds): exact enumeration vs closed forms, the paper's printed numbers, bad input.

Everything here is deterministic (exact enumeration or fixed seeds with exact identities): no false alarm."""

import doctest
import itertools
import math

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st

import rpcheck.papers.lei2020.bounds as B
from rpcheck.errors import RpcheckError
from rpcheck.papers.lei2020 import _common as c
from rpcheck.papers.lei2020.prop1 import _unsq
from rpcheck.sketches import make_sketch, supervised_scores


def test_bounds_doctests():
    res = doctest.testmod(B, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted >= 10


@pytest.mark.parametrize("d,r", [(2, 1), (3, 2), (4, 3), (5, 2)])
def test_compositions_are_all_multisets(d, r):
    M = c.compositions(r, d)
    assert M.shape == (math.comb(r + d - 1, r), d)
    assert (M.sum(axis=1) == r).all() and (M >= 0).all()
    assert len({tuple(m) for m in M}) == len(M)


def test_with_replacement_probabilities_match_brute_force_sequences():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    r = 3
    W, q = c.with_replacement_outcomes(p, r)
    brute = {}
    for seq in itertools.product(range(4), repeat=r):
        m = tuple(np.bincount(seq, minlength=4))
        brute[m] = brute.get(m, 0.0) + float(np.prod(p[list(seq)]))
    got = {tuple(np.round(w * r * p).astype(int)): qq for w, qq in zip(W, q)}
    assert got.keys() == brute.keys()
    for k in got:
        assert got[k] == pytest.approx(brute[k], rel=1e-12)


def test_zero_probability_outcomes_dropped():
    W, q = c.with_replacement_outcomes(np.array([0.5, 0.0, 0.5]), 2)
    assert q.sum() == pytest.approx(1.0) and (W[:, 1] == 0).all()


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4), logd=st.integers(1, 3), r=st.integers(1, 3))
def test_closed_forms_equal_enumeration(seed, n, logd, r):
    """DKM Lemma 4 (any p), nps minimum, D5 (without replacement): exact enumeration equals the formula."""
    rng = np.random.default_rng(seed)
    d = 2**logd
    r = min(r, d)
    X = rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-1, 1, d)
    Xr = c.rotate_dense(X, c.signs(d, rng))
    K = X @ X.T
    en = c.energies(Xr)
    Kf2 = float(np.sum(K**2))
    tol = 1e-9 * float(en.sum()) ** 2
    for p in (en / en.sum(), rng.dirichlet(np.ones(d))):
        W, q = c.with_replacement_outcomes(p, r)
        e = float(q @ np.sum((c.grams(Xr, W) - K) ** 2, axis=(1, 2)))
        assert abs(e - B.sampled_sq_error(en, Kf2, p, r)) <= tol
    assert abs(B.sampled_sq_error(en, Kf2, en / en.sum(), r) - B.nps_sq_error(float(en.sum()), Kf2, r)) <= tol
    W, q = c.without_replacement_outcomes(d, r)
    e = float(q @ np.sum((c.grams(Xr, W) - K) ** 2, axis=(1, 2)))
    assert abs(e - B.uniform_without_replacement_sq_error(en, Kf2, r)) <= tol


def test_printed_prop1_counterexample_numbers():
    """Proposition 1: X_r = diag(1, sqrt 2), r = 1: E||.||_F = 1.8856 (nps) vs 1.7889 (p = (0.2, 0.8))."""
    Xr = np.diag([1.0, math.sqrt(2.0)])
    K = Xr @ Xr.T
    assert _unsq(Xr, K, np.array([1 / 3, 2 / 3]), 1) == pytest.approx(2 * math.sqrt(8 / 9), rel=1e-12)
    assert _unsq(Xr, K, np.array([0.2, 0.8]), 1) == pytest.approx(2 * math.sqrt(0.8), rel=1e-12)
    assert round(2 * math.sqrt(8 / 9), 4) == 1.8856 and round(2 * math.sqrt(0.8), 4) == 1.7889


def test_printed_topr_counterexample_numbers():
    from rpcheck.papers.lei2020._common import selection_error as _sel_err
    from rpcheck.papers.lei2020.topr import PRINTED_TOPR_XR

    K = PRINTED_TOPR_XR @ PRINTED_TOPR_XR.T
    assert _sel_err(PRINTED_TOPR_XR, K, [0]) == pytest.approx(1.62)
    assert _sel_err(PRINTED_TOPR_XR, K, [1]) == pytest.approx(1.287, abs=5e-4)
    assert B.prop2_bound(c.energies(PRINTED_TOPR_XR), [False, True, False]) == pytest.approx(1.81)


def test_rotate_dense_matches_library_and_hadamard():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((5, 6))
    sk = make_sketch("srht-topr", 6, 2, rng=2).fit(X)
    np.testing.assert_allclose(c.rotate_dense(X, sk.signs_), sk.rotate(X), atol=1e-12)
    H = scipy.linalg.hadamard(8) / math.sqrt(8)
    np.testing.assert_allclose(H @ H.T, np.eye(8), atol=1e-15)


def test_score_forms_agree_and_factor_two():
    rng = np.random.default_rng(3)
    for a in (1.0, 0.5, 2.0):
        Xr = rng.standard_normal((7, 8))
        y = c.labels(7, rng)
        b = c.scores_laplacian(Xr, y, a)
        np.testing.assert_allclose(c.scores_class_stats(Xr, y, a), b, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(supervised_scores(Xr, y, a), b, rtol=1e-10, atol=1e-10)
        Z = Xr[:, :3]
        tr = float(np.trace(Z.T @ c.laplacian(y, a) @ Z))
        assert c.pairwise_objective(Z, y, a) == pytest.approx(2 * tr, rel=1e-10)
    # a = 1, balanced: b_k = -(n^2/4)(m+ - m-)^2
    y = c.labels(8, rng, balanced=True)
    Xr = rng.standard_normal((8, 4))
    m = Xr[y > 0].mean(0) - Xr[y < 0].mean(0)
    np.testing.assert_allclose(c.scores_laplacian(Xr, y, 1.0), -16 * m**2, rtol=1e-10, atol=1e-10)


def test_toy_data_rejects_paper_covariance():
    with pytest.raises(RpcheckError, match=r"not positive semidefinite \(eigenvalues \[-0\.75, 2\.75\]\)"):
        c.toy_data(10, c.PAPER_TOY_COV, rng=0)
    with pytest.raises(RpcheckError, match="symmetric 2 x 2"):
        c.toy_data(10, [[1, 0.5], [0.2, 1]], rng=0)
    X, y = c.toy_data(4000, rng=0)
    assert X.shape == (8000, 2) and (y[:4000] == 1).all()
    cov = np.cov(X[:4000].T)
    # sample covariance of 4000 Gaussian points: entries within 5 standard errors (~5 * sqrt(2/4000))
    np.testing.assert_allclose(cov, np.array(c.VALID_TOY_COV), atol=5 * math.sqrt(2 / 4000) * 1.75)
    # a singular PSD covariance is valid (rank one), never "repaired"
    X1, _ = c.toy_data(50, [[1, 1], [1, 1]], rng=0)
    np.testing.assert_allclose(X1[:50, 0] - 3, X1[:50, 1] - 3, atol=1e-12)


def test_bounds_bad_input():
    with pytest.raises(RpcheckError, match="`p` is 0 on a column"):
        B.sampled_sq_error([1.0, 2.0], 5.0, [1.0, 0.0], 1)
    with pytest.raises(RpcheckError, match="probability vector"):
        B.sampled_sq_error([1.0, 2.0], 5.0, [0.7, 0.7], 1)
    with pytest.raises(RpcheckError, match="power of two"):
        B.rotated_energy_moments(np.ones((2, 3)))
    with pytest.raises(RpcheckError, match=r"`delta` \(1.5\)"):
        B.flattening_bound(10, 8, 1.5)
    with pytest.raises(RpcheckError, match=r"`beta`"):
        B.dkm_frobenius_bound(1.0, 4, 0.1, beta=0.0)
    with pytest.raises(RpcheckError, match=r"`kind` \('x'\)"):
        c.make_data("x", 2, 2, 0)
