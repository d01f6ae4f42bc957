"""Lei & Lan (2020) exact identities of the rotation and of the data-dependent selections."""

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import labels, score_order_bound
from scipy.linalg import hadamard

from rpcheck.sketches import make_sketch, supervised_scores

KINDS = ["srht", "srht-nps", "srht-topr", "srht-supervised"]


def _data(n=30, d=50, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.gamma(0.5, size=d)  # unequal column scales
    return X, labels(n, seed)


def _fitted(kind, d, r, X, y, seed=1, **params):
    S = make_sketch(kind, d, r, rng=seed, **params)
    return S.fit(X, y) if S.data_dependent else S


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_rotation_identities(kind, fmt, backend_any):
    """X X^T = X_r X_r^T and sum_j c_j = ||X||_F^2 (Lei & Lan 2020, Sec. "Subsampled Randomized Hadamard Transform
    (SRHT)", Alg. 1 step 2), and X_r = pad(X) D H."""
    X, y = _data()
    S = _fitted(kind, 50, 8, X, y)
    Xr = S.rotate(X if fmt == "dense" else sp.csr_matrix(X))
    assert Xr.shape == (30, 64)
    Dpad = np.concatenate([S.signs_, np.ones(14)])
    oracle = np.hstack([X, np.zeros((30, 14))]) @ (Dpad[:, None] * hadamard(64) / 8.0)
    np.testing.assert_allclose(Xr, oracle, rtol=0, atol=1e-12 * np.abs(X).sum(axis=1).max())
    np.testing.assert_allclose(Xr @ Xr.T, X @ X.T, rtol=0, atol=1e-12 * (X * X).sum())
    energies = (Xr * Xr).sum(axis=0)
    np.testing.assert_allclose(energies.sum(), (X * X).sum(), rtol=1e-13)
    if S.data_dependent:
        np.testing.assert_allclose(S.column_energies_, energies, rtol=1e-13, atol=1e-13 * energies.max())


def test_nps_trace_identity_every_draw():
    """trace(X~ X~^T) = ||X||_F^2 for every draw (each sampled column has squared norm ||X||_F^2 / r)."""
    X, _ = _data()
    fro2 = (X * X).sum()
    for seed in range(50):
        S = make_sketch("srht-nps", 50, 7, rng=seed).fit(X)
        Xt = S.apply(X)
        np.testing.assert_allclose((Xt * Xt).sum(axis=0), fro2 / 7, rtol=1e-12)
        np.testing.assert_allclose(np.trace(Xt @ Xt.T), fro2, rtol=1e-12)
        p = S.probabilities_
        np.testing.assert_allclose(p, S.column_energies_ / S.column_energies_.sum(), rtol=1e-15)
        np.testing.assert_allclose(S.weights_, 1 / np.sqrt(7 * p[S.indices_]), rtol=1e-15)


def test_nps_unbiased_gram():
    """E[X~ X~^T | D] = X X^T over the nps draws (fixed D).

    Entry (i, j) of X~ X~^T is the mean of r i.i.d. terms Xr[i,k] Xr[j,k] / p_k, k ~ p; its variance is
    computed exactly by enumeration over k. Averaging N=4000 sketches (r=5) and using Chebyshev per entry
    with a union bound over the m = n(n+1)/2 = 21 entries at alpha=1e-3 (tolerance sqrt(m var/(N alpha)))
    gives a rigorous test with false-alarm probability <= 1e-3.
    """
    X, _ = _data(n=6, d=12, seed=3)
    S0 = make_sketch("srht-nps", 12, 5, rng=11).fit(X)
    Xr = S0.rotate(X)
    p = S0.probabilities_
    keep = p > 0
    T = np.einsum("ik,jk->ijk", Xr[:, keep], Xr[:, keep]) / p[keep]  # per-draw term for column k
    mean = (T * p[keep]).sum(axis=2)
    var_term = ((T - mean[:, :, None]) ** 2 * p[keep]).sum(axis=2)
    np.testing.assert_allclose(mean, X @ X.T, rtol=1e-12, atol=1e-12)  # exact unbiasedness by enumeration
    n_sk, r, m, alpha = 4000, 5, 21, 1e-3
    rng = np.random.default_rng(5)
    acc = np.zeros((6, 6))
    for _ in range(n_sk):
        idx = rng.choice(Xr.shape[1], size=r, p=p)
        Xt = Xr[:, idx] / np.sqrt(r * p[idx])
        acc += Xt @ Xt.T
    tol = np.sqrt(m * var_term / r / (n_sk * alpha))
    assert np.all(np.abs(acc / n_sk - X @ X.T) <= tol + 1e-12)
    # the library's sampling uses exactly this estimator: columns are Xr[:, i_t] / sqrt(r p_{i_t})
    Xt = S0.apply(X)
    np.testing.assert_allclose(Xt, Xr[:, S0.indices_] / np.sqrt(5 * p[S0.indices_]), rtol=0, atol=1e-12)


def test_topr_selects_largest_energies_without_rescaling():
    X, _ = _data()
    S = make_sketch("srht-topr", 50, 9, rng=2).fit(X)
    c = S.column_energies_
    assert np.all(np.diff(S.indices_) > 0)
    assert c[S.indices_].min() >= np.delete(c, S.indices_).max()
    np.testing.assert_allclose(S.apply(X), S.rotate(X)[:, S.indices_], rtol=0, atol=0)
    # ties: all-equal energies pick the first r columns
    Xtie = np.zeros((1, 8))
    Xtie[0, 0] = 1.0  # rotated row is +-1/sqrt(8) everywhere: all energies equal
    T = make_sketch("srht-topr", 8, 3, rng=0).fit(Xtie)
    np.testing.assert_array_equal(T.indices_, [0, 1, 2])


@pytest.mark.parametrize("a", [1.0, 0.0, 0.3, 2.5])
def test_supervised_score_formula_matches_dense_laplacian(a):
    """O(nd) formula == diag(X_r^T L X_r) with L = Deg - A, A_ij = 1 if y_i = y_j else -a (eqs. 8-9)."""
    X, y = _data(n=25, d=40, seed=4)
    y[:7] = 1.0  # unbalanced classes
    S = make_sketch("srht-supervised", 40, 6, rng=3, a=a).fit(X, y)
    Xr = S.rotate(X)
    A = np.where(y[:, None] == y[None, :], 1.0, -a)
    L = np.diag(A.sum(axis=1)) - A
    dense_scores = np.einsum("ik,ij,jk->k", Xr, L, Xr)
    scale = np.abs(Xr).sum(axis=0) ** 2 * np.abs(L).max()
    np.testing.assert_allclose(S.scores_, dense_scores, rtol=0, atol=1e-12 * scale.max())
    # fit accumulates the same three row sums row by row (compiled) or block by block: only their order differs
    assert np.all(np.abs(supervised_scores(Xr, y, a) - S.scores_) <= score_order_bound(Xr, y, a))
    # the binary-label form (a = 1: the paper's L = D - y y^T, Sec. "Algorithm Implementation and Analysis"):
    # Deg_ii = (1-a)/2 n + (1+a)/2 y_i (n+ - n-)
    deg = (1 - a) / 2 * 25 + (1 + a) / 2 * y * y.sum()
    binary = deg @ Xr**2 - (1 - a) / 2 * Xr.sum(0) ** 2 - (1 + a) / 2 * (y @ Xr) ** 2
    np.testing.assert_allclose(S.scores_, binary, rtol=0, atol=1e-12 * scale.max())


@pytest.mark.parametrize("a", [1.0, 0.4])
def test_supervised_scores_multiclass_and_string_labels(a):
    """Eq. (8) defines A_ij from y_i == y_j only; the generalisation to any labels matches the dense L."""
    X, _ = _data(n=21, d=30, seed=9)
    y = np.array(["a", "b", "c"] * 7)
    S = make_sketch("srht-supervised", 30, 5, rng=3, a=a).fit(X, y)
    Xr = S.rotate(X)
    A = np.where(y[:, None] == y[None, :], 1.0, -a)
    L = np.diag(A.sum(axis=1)) - A
    dense_scores = np.einsum("ik,ij,jk->k", Xr, L, Xr)
    scale = (np.abs(Xr).sum(axis=0) ** 2 * np.abs(L).max()).max()
    np.testing.assert_allclose(S.scores_, dense_scores, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("rule", ["smallest", "largest"])
def test_supervised_rule_and_no_rescaling(rule):
    X, y = _data(seed=6)
    S = make_sketch("srht-supervised", 50, 10, rng=4, rule=rule).fit(X, y)
    b = S.scores_
    chosen, rest = b[S.indices_], np.delete(b, S.indices_)
    if rule == "smallest":  # minimiser of objective (10): min b^T p over |p| = r
        assert chosen.max() <= rest.min()
    else:  # as printed: "select the largest r elements in b"
        assert chosen.min() >= rest.max()
    np.testing.assert_allclose(S.apply(X), S.rotate(X)[:, S.indices_], rtol=0, atol=0)
    assert S.params == {"rule": rule, "a": 1.0}
    np.testing.assert_array_equal(S.weights_, 1.0)


def test_supervised_balanced_a1_is_class_mean_difference():
    """a = 1 and balanced classes: b_k = -(n^2/4)(m_+ - m_-)^2 = -(y^T x_k)^2 (from eq. 9 with L = D - y y^T)."""
    X, _ = _data(n=20, seed=8)
    y = np.repeat([1.0, -1.0], 10)
    S = make_sketch("srht-supervised", 50, 5, rng=0).fit(X, y)
    Xr = S.rotate(X)
    np.testing.assert_allclose(S.scores_, -((y @ Xr) ** 2), rtol=1e-12, atol=1e-10)
