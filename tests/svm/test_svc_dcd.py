"""``solve_svc(..., solver="DCD")`` (dual coordinate descent inside a method of multipliers, dense and CSR X)
against the IPM and against Clarabel through cvxpy, plus its certificate, warm start and validation.

Every comparison is a certified inequality. For a certified point ``(alpha, w, b)`` with primal value
``P = P(w, b)`` (an upper bound on ``P*`` for any ``(w, b)``: the slacks are the hinge) and dual value
``D = D(alpha)``: ``D <= P* + |b*| |y^T alpha|`` (the Lagrangian at ``(w*, b*, xi*)``, alpha in the box), so
with ``delta_k = P_k - D_k + |b| |y^T alpha_k|`` (``|b|`` of either result, the larger, stands in for
``|b*|``; both are certified near it) the dual values of two results agree within ``max(delta_1, delta_2)``
and, by 1-strong convexity of the primal in w (``P(w, b) - P* >= ||w - w*||^2 / 2``),
``||w_1 - w_2|| <= sqrt(2 delta_1) + sqrt(2 delta_2)``; plus the float64 rounding of the objective sums
(``64 n eps scale``). Decision values then differ by at most ``||x|| ||w_1 - w_2|| + |b_1 - b_2|``; the
predictions are compared where both decision values are farther from 0 than that bound with the bias
difference. No test is statistical; the seeds only pick instances.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import rounding, separable_data, soft_data

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import solve_svc
from rpcheck.svm._common import SOLVERS
from rpcheck.svm.kkt import check_svc_result
from rpcheck.svm.svc import DCD_OPTIONS, SVC_SOLVERS

ACCEPT = 1e-5  # rpcheck.svm.svc._ACCEPT_REL: every returned result is certified at this level


def _delta(r, y, bmax):
    return max(r.primal_objective - r.objective, 0.0) + bmax * abs(float(np.dot(y, r.alpha)))


def assert_same_optimum(r1, r2, X, y):
    n = y.size
    bmax = max(abs(r1.b), abs(r2.b))
    fp = rounding(n, r1.alpha_sum + r2.alpha_sum + r1.w_norm_sq + abs(r1.primal_objective)
                  + abs(r2.primal_objective))
    d1, d2 = _delta(r1, y, bmax) + fp, _delta(r2, y, bmax) + fp
    assert abs(r1.objective - r2.objective) <= max(d1, d2)
    wb = np.sqrt(2 * d1) + np.sqrt(2 * d2)
    assert np.linalg.norm(r1.w - r2.w) <= wb + 1e-12 * np.linalg.norm(r1.w)
    # predictions away from 0
    f1 = np.asarray(X @ r1.w).ravel() + r1.b
    f2 = np.asarray(X @ r2.w).ravel() + r2.b
    xn = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel()) if sp.issparse(X) else np.linalg.norm(X, axis=1)
    far = (np.abs(f1) > xn * wb + abs(r1.b - r2.b) + 1e-9) & (np.abs(f2) > 1e-9)
    assert np.array_equal(np.sign(f1[far]), np.sign(f2[far]))
    assert far.mean() > 0.5  # the comparison is not vacuous


def _unbalanced(n, d, seed):
    """About 10% positives, overlapping classes."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w + 1.3 * np.sqrt(d) + 0.5 * np.sqrt(d) * rng.standard_normal(n) < 0, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    return X, y


def _sparse(n, d, seed, density=0.05):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=seed, format="csr", data_rvs=rng.standard_normal)
    w = rng.standard_normal(d)
    y = np.where(np.asarray(X @ w).ravel() + 0.2 * rng.standard_normal(n) >= 0, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    return X, y


def _data(kind, n, d, seed):
    if kind == "separable":
        return separable_data(n, d, seed=seed)
    if kind == "soft":
        return soft_data(n, d, seed=seed)
    if kind == "unbalanced":
        return _unbalanced(n, d, seed)
    return _sparse(n, d, seed)


CASES = [
    ("separable", 60, 5, 0), ("soft", 200, 10, 1), ("soft", 120, 40, 2), ("unbalanced", 300, 20, 3),
    ("soft", 40, 500, 4), ("sparse", 250, 400, 5), ("sparse", 150, 60, 6), ("separable", 20, 30, 7),
]


@pytest.mark.parametrize("kind,n,d,seed", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_dcd_matches_ipm_dense_and_csr(kind, n, d, seed, bias):
    X, y = _data(kind, n, d, seed)
    Xd = X.toarray() if sp.issparse(X) else X
    Xs = sp.csr_matrix(X)
    for C in (2.0**-5, 1.0, 2.0**5):
        ref = solve_svc(Xd, y, C, bias=bias, solver="IPM")
        rd = solve_svc(Xd, y, C, bias=bias, solver="DCD")
        rs = solve_svc(Xs, y, C, bias=bias, solver="DCD")
        for r, XX in ((rd, Xd), (rs, Xs)):
            assert r.solver == "DCD" and r.C == C and r.bias == bias
            assert r.kkt.max_relative <= ACCEPT
            check_svc_result(r, XX, y, atol=1e-9, rtol=1e-6)
            assert_same_optimum(r, ref, Xd, y)
        assert_same_optimum(rd, rs, Xd, y)  # sparse and dense of the same matrix: same certified optimum


@pytest.mark.parametrize("kind,n,d,seed", [("soft", 100, 8, 11), ("sparse", 120, 200, 12), ("unbalanced", 150, 6, 13)])
def test_dcd_matches_clarabel(kind, n, d, seed):
    pytest.importorskip("cvxpy")
    X, y = _data(kind, n, d, seed)
    for C in (2.0**-5, 1.0, 2.0**5):
        for bias in (True, False):
            ref = solve_svc(X, y, C, bias=bias, solver="CLARABEL")
            r = solve_svc(X, y, C, bias=bias, solver="DCD")
            assert_same_optimum(r, ref, X.toarray() if sp.issparse(X) else X, y)


def test_certificate_is_checked():
    """One epoch without the polish on a non-separable problem is far from the optimum: SolverError."""
    X, y = soft_data(200, 30, seed=0)
    with pytest.raises(SolverError, match="KKT certificate fails") as ei:
        solve_svc(X, y, 1.0, solver="DCD", polish=False, solver_options={"max_iter": 1})
    assert ei.value.solver == "DCD" and "solver='DCD'" in str(ei.value)
    with pytest.raises(SolverError):
        solve_svc(sp.csr_matrix(X), y, 1.0, bias=False, solver="DCD", polish=False, solver_options={"max_iter": 1})


def test_slow_case_finished_by_active_set():
    """The unbalanced 300 x 20 instance without the bias at C = 32 (181 of 300 alphas at C, offset data fitted
    through the origin): coordinate descent alone (polish=False) is still at relative KKT residual ~1e-4 after
    20,000 epochs, so the certificate refuses it (SolverError); with the checkpoints' primal active-set method
    (polish=True, the default) the certified optimum is found early."""
    X, y = _unbalanced(300, 20, 3)
    ref = solve_svc(X, y, 32.0, bias=False)
    with pytest.raises(SolverError, match="KKT certificate fails"):
        solve_svc(X, y, 32.0, bias=False, solver="DCD", polish=False, solver_options={"max_iter": 20_000})
    r = solve_svc(X, y, 32.0, bias=False, solver="DCD")
    assert r.iterations <= 10_000 and r.kkt.max_relative <= 1e-9
    assert_same_optimum(r, ref, X, y)


def test_without_polish_still_certified():
    X, y = soft_data(150, 10, seed=3)
    r = solve_svc(X, y, 1.0, solver="DCD", polish=False)
    assert not r.polished and r.kkt.max_relative <= ACCEPT
    assert_same_optimum(r, solve_svc(X, y, 1.0), X, y)


@pytest.mark.parametrize("kind,n,d,seed", [("soft", 150, 12, 21), ("sparse", 200, 300, 22)])
def test_warm_start_along_c_grid(kind, n, d, seed):
    X, y = _data(kind, n, d, seed)
    Xd = X.toarray() if sp.issparse(X) else X
    prev = None
    for C in 2.0 ** np.arange(-5, 6):
        cold = solve_svc(X, y, C, solver="DCD")
        warm = solve_svc(X, y, C, solver="DCD", warm_start=prev)
        assert warm.solver == "DCD" and warm.kkt.max_relative <= ACCEPT
        assert_same_optimum(warm, cold, Xd, y)
        prev = warm
    # a warm start from the IPM, and downwards along the grid
    ipm = solve_svc(X, y, 4.0)
    r = solve_svc(X, y, 0.25, solver="DCD", warm_start=ipm)
    assert_same_optimum(r, solve_svc(X, y, 0.25), Xd, y)


def test_warm_start_on_other_data_is_only_a_start():
    X, y = soft_data(100, 6, seed=31)
    other = solve_svc(*soft_data(100, 6, seed=32), 1.0)
    r = solve_svc(X, y, 1.0, solver="DCD", warm_start=other)
    assert_same_optimum(r, solve_svc(X, y, 1.0), X, y)
    with pytest.raises(RpcheckError, match="warm_start"):
        solve_svc(X[:50], y[:50], 1.0, solver="DCD", warm_start=other)


def test_sparse_input_is_never_densified(monkeypatch):
    """No n x d (or k x d) dense copy of a CSR X: only the |F| x |F| Gram matrix of the polish is dense."""
    d = 50_000
    X, y = _sparse(120, d, 41, density=0.001)
    X = X + sp.csr_matrix((np.ones(120), (np.arange(120), np.arange(120) % 7)), shape=(120, d))
    real = sp.csr_matrix.toarray

    def guarded(self, *a, **k):
        assert self.shape[1] < d, "densified a matrix with d columns"
        return real(self, *a, **k)

    monkeypatch.setattr(sp.csr_matrix, "toarray", guarded)
    monkeypatch.setattr(sp.csr_matrix, "todense", guarded)
    r = solve_svc(X, y, 1.0, solver="DCD")
    assert r.kkt.max_relative <= ACCEPT and r.w.shape == (d,)


def test_validation():
    X, y = soft_data(40, 4, seed=51)
    with pytest.raises(RpcheckError, match=r"keys \['eps', 'foo'\].*solver='DCD'.*tol, max_iter"):
        solve_svc(X, y, 1.0, solver="DCD", solver_options={"foo": 1, "eps": 2})
    with pytest.raises(RpcheckError, match=r"solver_options\['tol'\]"):
        solve_svc(X, y, 1.0, solver="DCD", solver_options={"tol": 0.5})
    with pytest.raises(RpcheckError, match=r"solver_options\['max_iter'\]"):
        solve_svc(X, y, 1.0, solver="DCD", solver_options={"max_iter": 0})
    with pytest.raises(RpcheckError, match="must be a dict"):
        solve_svc(X, y, 1.0, solver="DCD", solver_options=[1])
    with pytest.raises(RpcheckError, match=r"solver='DCD'.*C=inf"):
        solve_svc(X, y, np.inf, solver="DCD")
    with pytest.raises(RpcheckError, match="solver"):
        solve_svc(X, y, 1.0, solver="dcd2")
    assert solve_svc(X, y, 1.0, solver="dcd").solver == "DCD"  # case-insensitive, like the others
    assert set(DCD_OPTIONS) == {"tol", "max_iter"}


def test_auto_never_chooses_dcd():
    assert "DCD" not in SOLVERS and "DCD" in SVC_SOLVERS
    X, y = soft_data(80, 5, seed=61)
    assert solve_svc(X, y, 1.0).solver in ("IPM", "CLARABEL")
    assert solve_svc(sp.csr_matrix(X), y, 1.0).solver in ("IPM", "CLARABEL")


def test_many_free_points_sparse():
    """More free points than the checkpoints' limit (500): the tolerance path with the polish certifies."""
    X, y = _sparse(700, 5000, 71, density=0.004)
    r = solve_svc(X, y, 1.0, solver="DCD")
    assert r.n_free > 500 and r.kkt.max_relative <= ACCEPT
    assert_same_optimum(r, solve_svc(X, y, 1.0), X.toarray(), y)
