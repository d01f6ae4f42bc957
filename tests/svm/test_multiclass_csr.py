"""solve_crammer_singer on a sparse X kept CSR end to end (epochs ``_cs.cs_epochs_csr``, certificate, polish):
the CSR kernel against the dense one bit for bit, the CSR solve against the dense solve and against Clarabel
(cvxpy) on the primal, empty rows and columns, the sparse domain, and the caller's matrix left untouched.

Tolerances as in test_multiclass.py: P is 1-strongly convex in W, so two certified results are within the sum of
their ``w_error_bound`` and their primal values within the sum of their allowances ``gap + fp`` (each primal
lies in ``[P*, P* + gap + fp]``, since ``D <= P* <= P``). No test is statistical.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from test_multiclass import _certified, _cvxpy_cs, _distance_bound

from rpcheck.errors import RpcheckError
from rpcheck.svm import multiclass as mc
from rpcheck.svm import solve_crammer_singer


def _sparse(seed, n=120, d=300, density=0.03, K=4, empty_rows=0, empty_cols=0):
    """Random sparse rows with labels tied to a few class words (learnable, not separable at small C)."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, format="lil", random_state=rng)
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)
    for i in range(n):
        X[i, 3 * y[i]] = 1.0 + rng.random()
    X = X.tocsr()
    if empty_cols:
        X = sp.hstack([X, sp.csr_matrix((n, empty_cols))], format="csr")
    if empty_rows:
        X = sp.vstack([X, sp.csr_matrix((empty_rows, X.shape[1]))], format="csr")
        y = np.concatenate([y, rng.integers(0, K, empty_rows)])
    return X, y


def _agree(a, b):
    assert np.linalg.norm(a.W - b.W) <= a.w_error_bound + b.w_error_bound
    assert abs(a.primal - b.primal) <= max(a.gap, 0.0) + a.fp_allowance + max(b.gap, 0.0) + b.fp_allowance
    np.testing.assert_array_equal(a.classes, b.classes)


def test_csr_epochs_bit_identical_to_dense():
    """The same visits and arithmetic (module docstring of rpcheck.svm._cs): alpha and W equal bit for bit."""
    from rpcheck.svm._cs import cs_epochs, cs_epochs_csr

    X, y = _sparse(0, empty_rows=3, empty_cols=5)
    X.sort_indices()
    n, d = X.shape
    K = 4
    Xd = X.toarray()
    sq = mc._sq_norms(X)
    np.testing.assert_allclose(sq, np.einsum("ij,ij->i", Xd, Xd), rtol=1e-15)
    res = []
    for dense in (True, False):
        alpha, W = np.zeros((n, K)), np.zeros((K, d))
        if dense:
            out = cs_epochs(Xd, y, 10.0, sq, alpha, W, 7, 0.0, 12345)
        else:
            out = cs_epochs_csr(X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data, y, 10.0, sq,
                                alpha, W, 7, 0.0, 12345)
        res.append((out, alpha, W))
    assert res[0][0] == res[1][0]
    assert np.array_equal(res[0][1], res[1][1]) and np.array_equal(res[0][2], res[1][2])
    assert np.any(res[0][1] != 0.0)


@pytest.mark.parametrize("seed, C, K", [(0, 1.0, 4), (1, 10.0, 5), (2, 1000.0, 3)])
def test_csr_solve_equals_dense_solve(seed, C, K):
    X, y = _sparse(seed, K=K)
    rs = solve_crammer_singer(X, y, C)
    rd = solve_crammer_singer(X.toarray(), y, C)
    _certified(rs)
    _certified(rd)
    _agree(rs, rd)
    np.testing.assert_array_equal(rs.predict(X), rs.predict(X.toarray()))


@pytest.mark.parametrize("seed, C", [(0, 1.0), (3, 10.0)])
def test_csr_against_cvxpy_clarabel(seed, C):
    X, y = _sparse(seed, n=60, d=40, density=0.1, K=3)
    res = solve_crammer_singer(X, y, C)
    _certified(res)
    W2, val = _cvxpy_cs(X.toarray(), y, C, 3)
    bound, P2 = _distance_bound(res, X.toarray(), y, W2)
    assert P2 - res.dual <= 1e-6 * res.primal
    assert np.linalg.norm(W2 - res.W) <= bound
    assert abs(val - res.primal) <= 1e-6 * res.primal


def test_empty_rows_and_columns():
    """Empty rows have xi_i = 1 at W's scores 0 whatever W (their margins are e_i^m + 0), alpha_i free in the
    dual objective only through e: the optimum puts alpha_i^{k_i} = C. Empty columns have w_j = 0."""
    X, y = _sparse(4, empty_rows=4, empty_cols=7)
    C = 10.0
    rs = solve_crammer_singer(X, y, C)
    _certified(rs)
    _agree(rs, solve_crammer_singer(X.toarray(), y, C))
    assert np.all(rs.W[:, -7:] == 0.0)
    np.testing.assert_array_equal(rs.slack[-4:], 1.0)


def test_unsorted_duplicates_and_caller_matrix_untouched():
    X, y = _sparse(5)
    Xc = X.tocoo()
    # the same matrix with each stored value split into two duplicates, in reversed order (unsorted CSR)
    rows = np.concatenate([Xc.row, Xc.row])[::-1]
    cols = np.concatenate([Xc.col, Xc.col])[::-1]
    vals = np.concatenate([Xc.data * 0.25, Xc.data * 0.75])[::-1]
    order = np.argsort(rows, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=X.shape[0]))])
    Xu = sp.csr_matrix((vals[order], cols[order], indptr), shape=X.shape)
    assert not Xu.has_sorted_indices and Xu.nnz == 2 * X.nnz
    before = (Xu.data.copy(), Xu.indices.copy(), Xu.indptr.copy())
    ru = solve_crammer_singer(Xu, y, 1.0)
    assert all(np.array_equal(a, b) for a, b in zip(before, (Xu.data, Xu.indices, Xu.indptr)))
    _agree(ru, solve_crammer_singer(X, y, 1.0))
    # other sparse formats are accepted and converted
    _agree(solve_crammer_singer(X.tocsc(), y, 1.0), ru)


def test_sparse_domain_error_names_argument_value_and_limit(monkeypatch):
    X, y = _sparse(6)
    n, d = X.shape
    cells = n * 4 + 4 * d + X.nnz
    monkeypatch.setattr(mc, "MAX_SPARSE_CELLS", cells - 1)
    with pytest.raises(RpcheckError, match=rf"`X` \(sparse\).*{X.nnz} non-zeros.*= {cells} cells.*"
                                           rf"MAX_SPARSE_CELLS = {cells - 1}"):
        solve_crammer_singer(X, y, 1.0)
    monkeypatch.setattr(mc, "MAX_SPARSE_CELLS", cells)
    _certified(solve_crammer_singer(X, y, 1.0))
    # the dense cap still governs dense input: n K (d + 1) = 480 * 301 > this limit
    monkeypatch.setattr(mc, "MAX_CELLS", n * 4 * (d + 1) - 1)
    with pytest.raises(RpcheckError, match=r"n K \(d \+ 1\)"):
        solve_crammer_singer(X.toarray(), y, 1.0)
    _certified(solve_crammer_singer(X, y, 1.0))     # the sparse input is not bound by the dense cap


def test_sparse_beyond_dense_cap():
    """A sparse problem the dense cap refuses (n K (d + 1) = 6.0e7 > 2.5e7) is solved and certified."""
    X, y = _sparse(7, n=600, d=20_000, density=0.002, K=5)
    assert X.shape[0] * 5 * (X.shape[1] + 1) > mc.MAX_CELLS
    res = solve_crammer_singer(X, y, 10.0)
    _certified(res)
    assert res.W.shape == (5, 20_000)


def test_ipm_fallback_on_sparse_input(monkeypatch):
    """The Clarabel fallback densifies a small sparse X and certifies the same optimum."""
    X, y = _sparse(8, n=40, d=20, density=0.2, K=3)
    ref = solve_crammer_singer(X, y, 1.0)
    monkeypatch.setattr(mc, "_POLISH_FROM", -1.0)
    monkeypatch.setattr(mc, "_IPM_AFTER", 10)
    monkeypatch.setattr(mc, "_V_STOP", -1.0)
    ipm = solve_crammer_singer(X, y, 1.0, max_iter=30)
    _certified(ipm)
    assert ipm.solver in ("SDM+Clarabel", "SDM")
    _agree(ref, ipm)


# ------------------------------------------------------------- w_error_bound's rounding bound (rigorous)

def _true_gap_longdouble(X, y, res):
    """P(W^) - D(alpha) evaluated in extended precision (x87 long double where available): the quantity the
    rounding bound E must dominate, ``gap^ + E >= P(W^) - D(alpha)``."""
    L = np.longdouble
    Xl = (X.toarray() if sp.issparse(X) else np.asarray(X)).astype(L)
    W, a = res.W.astype(L), res.alpha.astype(L)
    yk = np.searchsorted(res.classes, y)
    n = Xl.shape[0]
    S = Xl @ W.T
    h = S - S[np.arange(n), yk][:, None] + L(1)
    h[np.arange(n), yk] = L(0)
    xi = np.maximum(h.max(axis=1), L(0))
    Wa = a.T @ Xl
    E = np.ones_like(a)
    E[np.arange(n), yk] = 0
    return (L(0.5) * np.sum(W * W) + L(res.C) * xi.sum()) - (-L(0.5) * np.sum(Wa * Wa) - np.sum(E * a))


@pytest.mark.parametrize("case", ["dense_c1", "dense_sep_c1000", "sparse_c10", "sparse_sep_c1000"])
def test_w_error_bound_dominates_the_true_gap(case):
    """sqrt(2 (gap + E)) with E the rigorous rounding bound: the extended-precision gap never exceeds gap + E,
    and E is at most the acceptance allowance fp when it is derived from the same magnitudes."""
    if np.finfo(np.longdouble).eps >= np.finfo(float).eps:
        pytest.skip("no extended precision on this platform")
    rng = np.random.default_rng(3)
    if case.startswith("dense"):
        X = rng.standard_normal((200, 300)) * (3.0 if "sep" in case else 1.0)
        y = rng.integers(0, 4, 200)
    else:
        X, y = _sparse(9, n=200, d=800, density=0.02, K=4)
    C = 1000.0 if "c1000" in case else (1.0 if case == "dense_c1" else 10.0)
    res = solve_crammer_singer(X, y, C)
    _certified(res)
    E = 0.5 * res.w_error_bound ** 2 - max(res.gap, 0.0)
    assert E > 0
    G = _true_gap_longdouble(X, y, res)
    assert float(G) <= res.gap + E
    # the bound is never looser than sqrt(2 (gap + fp)) by more than its inflation here
    assert res.w_error_bound <= math.sqrt(2.0 * (max(res.gap, 0.0) + res.fp_allowance)) * (1 + 1e-5)


def test_w_error_bound_tighter_at_c1000_and_still_holds_against_another_optimum(monkeypatch):
    """On the separable 5-class C = 1000 problem of test_multiclass (polish vs SDM alone), the two certified W
    are within the sum of the new bounds, which are much smaller than sqrt(2 (gap + fp))."""
    from test_multiclass import _wide_separable

    X, y = _wide_separable()
    res = solve_crammer_singer(X, y, 1000.0)
    old_style = math.sqrt(2.0 * (max(res.gap, 0.0) + res.fp_allowance))
    assert res.w_error_bound < 0.5 * old_style
    monkeypatch.setattr(mc, "MAX_POLISH", 800)
    other = solve_crammer_singer(X, y, 1000.0)
    assert np.linalg.norm(other.W - res.W) <= other.w_error_bound + res.w_error_bound
