"""solve_crammer_singer (Crammer-Singer multiclass SVM, LIBLINEAR -s 4, no bias): closed form, cvxpy (Clarabel)
on the primal, sklearn LinearSVC(multi_class="crammer_singer"), the K = 2 reduction, certificate, validation.

Every tolerance is derived: the primal P(W) = ||W||_F^2/2 + C sum_i xi_i(W) (exact slacks) is 1-strongly
convex in W, so for ANY W' and our certified dual point alpha, ``1/2 ||W' - W*||_F^2 <= P(W') - D(alpha)``.
An external solver's W' is compared with ours at ``sqrt(2 (P(W') - D + fp)) + res.w_error_bound``, and the
test also requires P(W') - D to be small (the external solver converged, so the comparison means something)
and P(W') >= D - fp (weak duality: our dual bound is never beaten). No test is statistical.
"""

import math

import numpy as np
import pytest

from rpcheck.errors import RpcheckError
from rpcheck.svm import MulticlassResult, cs_primal_objective, solve_crammer_singer, solve_svc

EPS = np.finfo(float).eps


def _data(seed, n=40, d=5, K=3, sep=1.0):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((K, d)) * 2 * sep
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)
    X = centres[y] + rng.standard_normal((n, d))
    return X, y


def _fp(res, X):
    return 8 * (X.shape[0] + X.shape[1] + 10) * EPS * (abs(res.primal) + abs(res.dual) + 1.0)


def _distance_bound(res, X, y, W2):
    P2 = cs_primal_objective(W2, X, y, res.C, classes=res.classes)
    fp = _fp(res, X)
    assert P2 >= res.dual - fp - res.fp_allowance          # weak duality
    return math.sqrt(2.0 * max(P2 - res.dual + fp, 0.0)) + res.w_error_bound, P2


def _certified(res):
    assert isinstance(res, MulticlassResult)
    assert res.gap <= 1e-9 * res.primal + res.fp_allowance
    assert res.gap >= -res.fp_allowance
    a = res.alpha
    assert np.allclose(a.sum(axis=1), 0.0, atol=1e-12 * max(1.0, res.C))
    assert a.max() <= res.C


def test_two_points_closed_form():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    res = solve_crammer_singer(X, np.array([0, 1]), 10.0)
    # K = 2 reduction: binary SVM at C' = 20 gives v = (-1, 0) (hard margin, xi = 0); W = [-v/2; v/2]
    np.testing.assert_allclose(res.W, [[0.5, 0.0], [-0.5, 0.0]], atol=1e-12)
    assert res.primal == pytest.approx(0.25, abs=1e-12)
    _certified(res)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_against_cvxpy_clarabel_primal(seed, C):
    cp = pytest.importorskip("cvxpy")
    X, y = _data(seed)
    res = solve_crammer_singer(X, y, C)
    _certified(res)
    n, d = X.shape
    K = res.classes.size
    Y = np.zeros((n, K))
    Y[np.arange(n), y] = 1.0
    W = cp.Variable((K, d))
    xi = cp.Variable(n)
    S = X @ W.T
    sy = cp.sum(cp.multiply(S, Y), axis=1)
    cons = [S + (1.0 - Y) - cp.reshape(sy, (n, 1), order="C") @ np.ones((1, K))
            <= cp.reshape(xi, (n, 1), order="C") @ np.ones((1, K))]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(W) + C * cp.sum(xi)), cons)
    prob.solve(solver="CLARABEL")
    assert prob.status == "optimal"
    bound, P2 = _distance_bound(res, X, y, W.value)
    assert P2 - res.dual <= 1e-6 * res.primal             # Clarabel converged (its default gap tol is 1e-8)
    assert np.linalg.norm(W.value - res.W) <= bound
    assert abs(prob.value - res.primal) <= 1e-6 * res.primal


@pytest.mark.parametrize("seed", [0, 3])
def test_against_sklearn_linearsvc_crammer_singer(seed):
    svm = pytest.importorskip("sklearn.svm")
    X, y = _data(seed, n=60, d=6, K=4)
    C = 1.0
    res = solve_crammer_singer(X, y, C)
    _certified(res)
    clf = svm.LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=C, tol=1e-12, max_iter=200_000)
    clf.fit(X, y)
    W2 = clf.coef_
    bound, P2 = _distance_bound(res, X, y, W2)
    assert P2 - res.dual <= 1e-4 * res.primal            # liblinear's stopping rule reached a near-optimum
    assert np.linalg.norm(W2 - res.W) <= bound


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.05, 1.0])
def test_two_class_reduction_to_binary_svm(seed, C):
    """Derived in rpcheck.svm.multiclass: P_CS(C) = P_bin(2C) / 2, W* = [-v*/2; v*/2], v* = w_bin(2C)."""
    X, y01 = _data(seed, n=30, d=4, K=2, sep=0.4)
    res = solve_crammer_singer(X, y01, C)
    _certified(res)
    ypm = np.where(y01 == 1, 1.0, -1.0)
    b = solve_svc(X, ypm, 2.0 * C, bias=False)
    v = np.asarray(b.w)
    W_from_bin = np.vstack([-v / 2, v / 2])
    bound, P2 = _distance_bound(res, X, y01, W_from_bin)
    assert np.linalg.norm(W_from_bin - res.W) <= bound
    tol_obj = 1e-6 * max(1.0, abs(b.primal_objective))       # solve_svc's certificate is KKT at <= 1e-6 relative
    assert abs(res.primal - 0.5 * b.primal_objective) <= tol_obj
    assert abs(P2 - res.primal) <= tol_obj


def test_labels_any_integers_and_predict():
    X, y = _data(5, n=30, d=3, K=3, sep=3.0)
    res = solve_crammer_singer(X, y * 7 - 2, 1.0)
    np.testing.assert_array_equal(res.classes, [-2, 5, 12])
    res0 = solve_crammer_singer(X, y, 1.0)
    np.testing.assert_allclose(res.W, res0.W, atol=res.w_error_bound + res0.w_error_bound)
    assert set(np.unique(res.predict(X))) <= {-2, 5, 12}
    assert not res.W.flags.writeable


def test_not_certified_raises_solver_error():
    from rpcheck.errors import SolverError

    X, y = _data(1, n=60, d=5, K=3, sep=0.2)
    with pytest.raises(SolverError, match="no certified point"):
        solve_crammer_singer(X, y, 100.0, tol=1e-15, max_iter=1)


@pytest.mark.parametrize("kw, name", [
    (dict(C=0.0), "C"), (dict(C=-1.0), "C"), (dict(C=math.inf), "C"), (dict(C=float("nan")), "C"),
    (dict(tol=0.0), "tol"), (dict(tol=1.0), "tol"), (dict(max_iter=0), "max_iter"),
])
def test_bad_parameters_name_the_argument(kw, name):
    X, y = _data(0, n=10)
    args = dict(C=1.0)
    args.update(kw)
    with pytest.raises(RpcheckError, match=f"`{name}`"):
        solve_crammer_singer(X, y, **args)


@pytest.mark.parametrize("X, y, name", [
    (np.ones((3, 2)), np.array([0, 0, 0]), "y"),                 # one class
    (np.ones((3, 2)), np.array([0, 1]), "y"),                    # length mismatch
    (np.ones((3, 2)), np.array([0.5, 1.0, 2.0]), "y"),           # non-integer labels
    (np.ones((3, 2)), np.array(["a", "b", "c"]), "y"),           # non-numeric labels
    (np.array([[1.0, np.nan], [0.0, 1.0]]), np.array([0, 1]), "X"),
    (np.ones(3), np.array([0, 1, 2]), "X"),
])
def test_bad_inputs_name_the_argument(X, y, name):
    with pytest.raises(RpcheckError, match=f"`{name}`"):
        solve_crammer_singer(X, y, 1.0)


def test_each_path_certifies_the_same_optimum(monkeypatch):
    """SDM alone, the active-set polish and the Clarabel dual point reach the same certified optimum."""
    from rpcheck.svm import multiclass as mc

    X, y = _data(0, n=60, d=6, K=4)
    ref = solve_crammer_singer(X, y, 1.0)
    assert ref.solver == "SDM+polish"            # SDM alone crawls near 1e-5 here (module docstring)
    monkeypatch.setattr(mc, "_POLISH_FROM", -1.0)   # never polish
    monkeypatch.setattr(mc, "_IPM_AFTER", 10)
    ipm = solve_crammer_singer(X, y, 1.0)
    assert ipm.solver == "SDM+Clarabel"
    for r in (ref, ipm):
        _certified(r)
    assert np.linalg.norm(ref.W - ipm.W) <= ref.w_error_bound + ipm.w_error_bound
    X2, y2 = _data(4, n=30, d=3, K=3, sep=3.0)
    monkeypatch.setattr(mc, "MAX_IPM_CELLS", 0)     # no IPM: plain SDM on easy data
    plain = solve_crammer_singer(X2, y2, 0.1)
    _certified(plain)


def _cvxpy_cs(X, y, C, K):
    """The primal as a cvxpy QP in z = [vec(W) (row-major); xi] with one sparse row per margin constraint
    w_m^T x_i - w_{y_i}^T x_i - xi_i <= -1 (m != y_i) and xi >= 0, solved by Clarabel."""
    cp = pytest.importorskip("cvxpy")
    import scipy.sparse as sp

    n, d = X.shape
    ii, mm = np.nonzero(np.arange(K)[None, :] != y[:, None])
    r = ii.size
    rows = np.repeat(np.arange(r), d)
    cm = (mm[:, None] * d + np.arange(d)[None, :]).ravel()
    cy = (y[ii][:, None] * d + np.arange(d)[None, :]).ravel()
    v = X[ii].ravel()
    A = sp.csr_matrix((np.concatenate([v, -v, -np.ones(r)]),
                       (np.concatenate([rows, rows, np.arange(r)]), np.concatenate([cm, cy, K * d + ii]))),
                      shape=(r, K * d + n))
    z = cp.Variable(K * d + n)
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(z[: K * d]) + C * cp.sum(z[K * d:])),
                      [A @ z <= -np.ones(r), z[K * d:] >= 0])
    prob.solve(solver="CLARABEL")
    assert prob.status == "optimal"
    return z.value[: K * d].reshape(K, d), prob.value


def _wide_separable():
    rng = np.random.default_rng(1)
    return rng.standard_normal((360, 500)), rng.integers(0, 5, 360)


def test_polish_above_800_active_pairs(monkeypatch):
    """A separable 5-class problem at C = 1000 whose polish system has more than 800 active pairs: the
    polish certifies it (25 epochs); SDM alone (certified after 130 epochs) reaches the same optimum within
    the two certified distance bounds."""
    from rpcheck.svm import multiclass as mc

    X, y = _wide_separable()
    sizes = []
    orig = mc._kkt_solve

    def spy(X_, yk, C_, n, ii, mm, bound):
        sizes.append(ii.size)
        return orig(X_, yk, C_, n, ii, mm, bound)

    monkeypatch.setattr(mc, "_kkt_solve", spy)
    res = solve_crammer_singer(X, y, 1000.0)
    _certified(res)
    assert res.solver == "SDM+polish" and max(sizes) > 800
    monkeypatch.setattr(mc, "MAX_POLISH", 800)
    old = solve_crammer_singer(X, y, 1000.0)
    _certified(old)
    assert np.linalg.norm(old.W - res.W) <= old.w_error_bound + res.w_error_bound


@pytest.mark.heavy
def test_polish_above_800_active_pairs_against_cvxpy():
    """The same problem by Clarabel on the primal (cvxpy; about 15-20 CPU s): the same optimum within the
    certified distance bound (measured 1.3e-5 against a bound of 3.6e-3)."""
    X, y = _wide_separable()
    res = solve_crammer_singer(X, y, 1000.0)
    W2, val = _cvxpy_cs(X, y, 1000.0, 5)
    bound, P2 = _distance_bound(res, X, y, W2)
    assert P2 - res.dual <= 1e-6 * res.primal
    assert np.linalg.norm(W2 - res.W) <= bound
    assert abs(val - res.primal) <= 1e-6 * res.primal


@pytest.mark.parametrize("seed, n, d, K", [(0, 60, 6, 4), (2, 400, 400, 6)])
def test_polish_record_changes_nothing(monkeypatch, seed, n, d, K):
    """The record of solved polish systems only skips repeats: the result is bit-identical without it."""
    from rpcheck.svm import multiclass as mc

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.integers(0, K, n)
    C = 1.0 if n == 60 else 1000.0
    ref = solve_crammer_singer(X, y, C)
    orig = mc._polish_alpha
    monkeypatch.setattr(mc, "_polish_alpha", lambda X_, yk, a, C_, K_, W, tried=None: orig(X_, yk, a, C_, K_, W))
    plain = solve_crammer_singer(X, y, C)
    assert plain.solver == ref.solver and plain.iterations == ref.iterations
    assert np.array_equal(plain.W, ref.W) and plain.gap == ref.gap
