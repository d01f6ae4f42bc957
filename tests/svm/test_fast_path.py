"""The default solver ("AUTO": rpcheck's IPM, Clarabel only when the IPM's point is not certified)
against independent solvers: Clarabel and OSQP through cvxpy, and sklearn's libsvm.

Every comparison is a certified inequality, not a tolerance guess: for two certified SVC points,
``D_k <= P* <= P_k``, so the dual values agree up to the larger of the two duality gaps, and the primal
w's agree within ``w_distance_bound`` (1-strong convexity of the primal in w). For sklearn (not certified,
default tol 1e-3) only weak duality is asserted: our dual value ``D <= P* <= P_sklearn``. No test is
statistical (false-alarm probability 0); the seeds only pick instances.
"""

import warnings

import miniball
import numpy as np
import pytest
from _svm_data import RTOL_CERT, assert_svc_agree, rounding, separable_data, soft_data
from sklearn.svm import SVC

from rpcheck.svm import min_enclosing_ball, normalized_margin, solve_svc, solve_svr
from rpcheck.svm.kkt import check_svc_result

SCALES = (1e-6, 1.0, 1e6)


def _instances():
    out = []
    for seed in range(3):
        for kind, n, d in (("separable", 40, 5), ("soft", 60, 4), ("soft", 20, 50), ("separable", 30, 60)):
            for C in (0.1, 10.0, np.inf):
                if C == np.inf and kind == "soft" and n > d:
                    continue  # not separable: covered by the NotSeparableError tests
                for scale in SCALES:
                    out.append((kind, n, d, C, scale, seed))
    return out


INSTANCES = _instances()


def _data(kind, n, d, seed, dup):
    X, y = separable_data(n, d, seed=seed) if kind == "separable" else soft_data(n, d, seed=seed)
    if dup:  # duplicated points (same label): degenerate free sets
        X = np.vstack([X, X[:5]])
        y = np.concatenate([y, y[:5]])
    return X, y


@pytest.mark.parametrize("dup", [False, True])
@pytest.mark.parametrize("kind,n,d,C,scale,seed", INSTANCES)
def test_auto_vs_clarabel_svc(kind, n, d, C, scale, seed, dup):
    X, y = _data(kind, n, d, seed, dup)
    X = X * scale
    Cs = C / scale**2  # the same problem in the units of X (alpha scales like 1/scale^2)
    for bias in (True, False):
        try:
            ref = solve_svc(X, y, Cs, bias=bias, solver="CLARABEL")
        except Exception as exc:  # the reference refuses: the default must refuse the same way
            with pytest.raises(type(exc)):
                solve_svc(X, y, Cs, bias=bias)
            continue
        res = solve_svc(X, y, Cs, bias=bias)
        assert res.solver in ("IPM", "CLARABEL")
        check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
        assert res.kkt.max_relative <= RTOL_CERT
        assert_svc_agree(res, ref, X.shape[0])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind,C", [("separable", np.inf), ("soft", 1.0), ("separable", 5.0)])
def test_auto_vs_osqp_svc(kind, C, seed):
    X, y = _data(kind, 50, 6, seed, False)
    ref = solve_svc(X, y, C, solver="OSQP")
    res = solve_svc(X, y, C)
    check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
    assert_svc_agree(res, ref, X.shape[0])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind,C", [("separable", 1e6), ("soft", 1.0), ("soft", 0.05)])
def test_auto_vs_sklearn_svc(kind, C, seed):
    """Weak duality against libsvm's primal point: D_ours <= P* <= P(w_sk, b_sk)."""
    X, y = _data(kind, 80, 8, seed, False)
    res = solve_svc(X, y, C)
    clf = SVC(kernel="linear", C=C).fit(X, y)
    w_sk = clf.coef_.ravel()
    xi = np.maximum(0.0, 1 - y * (X @ w_sk + clf.intercept_[0]))
    P_sk = 0.5 * w_sk @ w_sk + C * xi.sum()
    assert res.objective <= P_sk + rounding(80, P_sk)
    assert res.kkt.max_relative <= RTOL_CERT


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("form", ["correct", "as_printed"])
@pytest.mark.parametrize("scale", SCALES)
def test_auto_vs_clarabel_svr(seed, form, scale):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 5)) * scale
    y = X @ rng.standard_normal(5) + 0.3 * rng.standard_normal(40) * scale
    C, eps = 1.0 / scale, 0.1 * scale  # the same problem in the units of X and y
    ref = solve_svr(X, y, C, eps, form=form, solver="CLARABEL")
    res = solve_svr(X, y, C, eps, form=form)
    assert res.kkt.max_relative <= RTOL_CERT
    D1, D2 = res.primal_objective - (res.primal_objective - res.objective), ref.objective
    g = max(res.primal_objective - res.objective, ref.primal_objective - ref.objective, 0.0)
    if form == "correct":  # the "as_printed" objective differs from the certified dual by eps 1^T alpha
        assert abs(D1 - D2) <= g + rounding(40, abs(res.primal_objective) + abs(ref.primal_objective))
    assert abs(res.primal_objective - ref.primal_objective) <= 2 * g + rounding(
        40, abs(res.primal_objective) + abs(ref.primal_objective) + res.w_norm_sq)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scale", SCALES)
def test_auto_vs_clarabel_and_miniball_meb(seed, scale):
    rng = np.random.default_rng(seed)
    X = (rng.standard_normal((60, 4)) + 2.0) * scale
    X = np.vstack([X, X[:6]])  # duplicates
    res = min_enclosing_ball(X)
    ref = min_enclosing_ball(X, solver="CLARABEL")
    assert res.gap_rel <= RTOL_CERT
    fp = rounding(X.size, res.radius_sq)
    # both brackets [dual_value, radius_sq] contain B^2
    assert res.dual_value <= ref.radius_sq + fp and ref.dual_value <= res.radius_sq + fp
    # miniball (the external oracle) raises LinAlgError("Singular matrix") on duplicated points; the
    # ball of the distinct points is the same ball
    _, r2_mb = miniball.get_bounding_ball(np.unique(X, axis=0), epsilon=1e-10, rng=np.random.default_rng(seed))
    assert res.dual_value - fp <= r2_mb <= res.radius_sq + fp + 1e-9 * r2_mb


@pytest.mark.parametrize("seed", range(3))
def test_auto_vs_clarabel_normalized_margin(seed):
    X, y = separable_data(30, 4, seed=seed)
    a, b = normalized_margin(X, y, solver="CLARABEL"), normalized_margin(X, y)
    assert a.separable == b.separable
    assert max(a.margin_lower, b.margin_lower) <= min(a.margin_upper, b.margin_upper) + 1e-12


def test_meb_osqp_reproducer_converges():
    """Issue "Reliability": at OSQP eps 1e-9 this hit 400k iterations (user_limit); at 1e-7 (+ polish)
    it stops in ~125 iterations with a relative gap ~1e-16."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = min_enclosing_ball(np.random.default_rng(0).standard_normal((320, 60)), solver="OSQP")
    assert res.solver == "OSQP" and res.gap_rel <= RTOL_CERT


@pytest.mark.parametrize("n,d,seed", [(290, 20, 1), (300, 60, 2), (350, 10, 3), (400, 40, 4), (330, 100, 5)])
def test_meb_osqp_large_n(n, d, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        X = np.random.default_rng(seed).standard_normal((n, d))
        res = min_enclosing_ball(X, solver="OSQP")
        ref = min_enclosing_ball(X)
    assert res.gap_rel <= RTOL_CERT
    fp = rounding(X.size, res.radius_sq)
    assert res.dual_value <= ref.radius_sq + fp and ref.dual_value <= res.radius_sq + fp


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("degenerate", [False, True])
def test_lowrank_free_set_solve_is_the_minimum_norm_solution(bias, degenerate):
    """The factored free-set solve of the polish (m free points in k << m dimensions) against the
    pseudoinverse oracle ``z0 + pinv(M) (r - M z0)`` of the full (m+1)-square KKT system, on full-rank and
    rank-deficient (duplicated feature) data: equal to 1e-12 relative. (LAPACK's gelsy on the full singular
    system, the former path, is off by up to 1e13 relative here: its rank cut keeps round-off directions.)"""
    from rpcheck.svm.svc import _solve_free_lowrank

    rng = np.random.default_rng(7 + 2 * bias + degenerate)
    for _ in range(40):
        m, k = int(rng.integers(30, 300)), int(rng.integers(2, 12))
        A = rng.standard_normal((m, k))
        if degenerate:
            A[:, -1] = A[:, 0]
        yF = np.where(rng.random(m) < 0.5, -1.0, 1.0)
        rhs, z0 = rng.standard_normal(m + bias), rng.random(m + bias)
        M = A @ A.T
        if bias:
            M = np.block([[M, yF[:, None]], [yF[None, :], np.zeros((1, 1))]])
        ref = z0 + np.linalg.pinv(M) @ (rhs - M @ z0)
        got = _solve_free_lowrank(A, yF, bias, rhs, z0)
        assert np.linalg.norm(got - ref) <= 1e-12 * max(1.0, np.linalg.norm(ref))
