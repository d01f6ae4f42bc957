"""solve_svc / SVCProblem: closed forms, identities (Paul et al. 2014, eq. (3)), cross-checks, certificates.

Every tolerance below is derived from a KKT certificate or from float rounding (see _svm_data.py);
no test is statistical, so the false-alarm probability of each is 0 for a correct implementation.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import (
    EPS,
    RTOL_CERT,
    SEEDS,
    SOLVER,
    identity_bound,
    rounding,
    separable_data,
    soft_data,
    sparse_soft_data,
    w_distance_bound,
)
from sklearn.svm import SVC

from rpcheck.errors import NotSeparableError, SolverError
from rpcheck.svm import SVCProblem, solve_svc
from rpcheck.svm.kkt import check_svc_result, svc_kkt_residuals

# (n, d, C, kind): separable with C large (zero-slack regime), separable with small C (bounded SVs),
# non-separable soft margin, d > n (QR factor path), hard margin.
CASES = [
    (40, 5, 1e3, "separable"),
    (40, 5, 0.05, "separable"),
    (80, 4, 1.0, "soft"),
    (60, 10, 10.0, "soft"),
    (20, 60, 1.0, "soft"),
    (30, 6, np.inf, "separable"),
    (15, 40, np.inf, "soft"),  # n < d: separable almost surely even with noisy labels
]


def _wdist(r1, r2):
    """Certified bound on ||w1 - w2|| for two SVC results (w_distance_bound with the best dual value)."""
    D = max(r1.objective, r2.objective)
    fp = rounding(r1.alpha.size, r1.alpha_sum + r1.w_norm_sq + r1.primal_objective)
    return w_distance_bound(r1.primal_objective - D, r2.primal_objective - D, fp)


def _data(n, d, kind, seed):
    return separable_data(n, d, seed=seed) if kind == "separable" else soft_data(n, d, seed=seed)


# ---------------------------------------------------------------- closed forms


@pytest.mark.parametrize("C", [np.inf, 1e3])
def test_two_points_closed_form(C):
    """Two points: w = 2 (x+ - x-)/||x+ - x-||^2, b = -w^T (x+ + x-)/2, alpha_i = 2/||x+ - x-||^2."""
    rng = np.random.default_rng(3)
    xp, xm = rng.standard_normal(4), rng.standard_normal(4)
    X, y = np.vstack([xp, xm]), np.array([1, -1])
    res = solve_svc(X, y, C, solver=SOLVER)
    delta = xp - xm
    w = 2 * delta / (delta @ delta)
    np.testing.assert_allclose(res.w, w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.b, -w @ (xp + xm) / 2, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.alpha, 2 / (delta @ delta), rtol=1e-9)
    np.testing.assert_allclose(res.margin, np.linalg.norm(delta) / 2, rtol=1e-9)
    assert res.zero_slack


def test_two_points_bounded():
    """With C below 2/||delta||^2 both multipliers sit at C and w = C (x+ - x-) (non-zero slack)."""
    xp, xm = np.array([1.0, 0.0]), np.array([-1.0, 0.0])  # 2/||delta||^2 = 0.5
    res = solve_svc(np.vstack([xp, xm]), [1, -1], 0.2, solver=SOLVER)
    np.testing.assert_allclose(res.alpha, [0.2, 0.2], rtol=1e-9)
    np.testing.assert_allclose(res.w, [0.4, 0.0], rtol=1e-9, atol=1e-12)
    assert not res.zero_slack
    # xi = 1 - 0.4 for both (b = 0 by symmetry is the unique hinge minimiser here)
    np.testing.assert_allclose(res.slack, [0.6, 0.6], rtol=1e-9)
    np.testing.assert_allclose(res.alpha_sum, res.w_norm_sq + 0.2 * res.slack.sum(), rtol=1e-12)


def test_symmetric_square():
    """(+-1, +-1) labelled by the first coordinate: w = (1, 0), b = 0, margin 1, alpha_i = 1/4."""
    X = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    y = np.array([1, 1, -1, -1])
    res = solve_svc(X, y, np.inf, solver=SOLVER)
    np.testing.assert_allclose(res.w, [1.0, 0.0], atol=1e-10)
    assert abs(res.b) < 1e-10
    np.testing.assert_allclose(res.alpha, 0.25, atol=1e-10)
    np.testing.assert_allclose(res.margin, 1.0, rtol=1e-10)


def test_no_bias_closed_form():
    """bias=False on one class through the origin: points (1, 0) and (2, 1), both +1.

    The hard-margin no-bias problem min ||u||^2/2 s.t. u^T x_i >= 1 has u = (1, -1)?? No: the minimum
    norm u with u1 >= 1 and 2 u1 + u2 >= 1 is u = (1, 0) (second constraint slack), margin 1.
    """
    X = np.array([[1.0, 0.0], [2.0, 1.0]])
    res = solve_svc(X, [1, 1], np.inf, bias=False, solver=SOLVER)
    np.testing.assert_allclose(res.w, [1.0, 0.0], atol=1e-10)
    np.testing.assert_allclose(res.alpha, [1.0, 0.0], atol=1e-10)
    assert res.b == 0.0 and res.bias_method == "none"


# ---------------------------------------------------------------- certificates and identities


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,d,C,kind", CASES)
def test_certificate_and_identities(n, d, C, kind, seed):
    X, y = _data(n, d, kind, seed)
    res = solve_svc(X, y, C, solver=SOLVER)
    check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
    assert res.kkt.max_relative <= RTOL_CERT
    # the returned fields are recomputed from alpha
    atol_w = rounding(n, np.abs(X).max() * res.alpha.max())
    np.testing.assert_allclose(res.w, X.T @ (y * res.alpha), rtol=0, atol=atol_w)
    assert res.w_norm_sq == pytest.approx(res.w @ res.w, rel=4 * EPS)
    assert res.objective == pytest.approx(res.alpha.sum() - res.w_norm_sq / 2, rel=1e-12, abs=1e-300)
    # Paul eq. 3 norm identity and strong duality, tolerance derived in identity_bound
    C_xi = 0.0 if np.isinf(C) else C * res.slack.sum()
    tol = identity_bound(res)
    assert abs(res.alpha_sum - (res.w_norm_sq + C_xi)) <= tol
    assert abs(res.objective - (res.w_norm_sq / 2 + C_xi)) <= tol
    if res.zero_slack:
        assert abs(res.alpha_sum - res.w_norm_sq) <= tol + C_xi


@pytest.mark.parametrize("seed", SEEDS)
def test_regime_detector(seed):
    """Separable data with large C: zero slack and sum(alpha) = ||w||^2; overlapping data with n >> d:
    bounded SVs and sum(alpha) - ||w||^2 = C ||xi||_1 > 0 (the gap the paper's eq. 18 ignores)."""
    X, y = separable_data(60, 4, seed=seed)
    hard = solve_svc(X, y, 1e4, solver=SOLVER)
    assert hard.zero_slack and hard.alpha.max() < 1e4 * (1 - 1e-6)
    assert abs(hard.alpha_sum - hard.w_norm_sq) <= identity_bound(hard)
    X, y = soft_data(100, 3, seed=seed)
    soft = solve_svc(X, y, 1.0, solver=SOLVER)
    assert not soft.zero_slack and soft.n_bounded > 0
    gap = soft.alpha_sum - soft.w_norm_sq
    assert gap > 10 * identity_bound(soft)
    assert gap == pytest.approx(soft.C * soft.slack.sum(), abs=identity_bound(soft))


@pytest.mark.parametrize("seed", SEEDS)
def test_polishing_reaches_1e9(seed):
    """On well-conditioned instances the polished certificate is <= 1e-9 relative, and polishing never
    makes it worse than the interior-point point it started from."""
    for X, y, C in [(*soft_data(120, 8, seed=seed), 1.0), (*separable_data(50, 5, seed=seed), np.inf)]:
        res = solve_svc(X, y, C, solver=SOLVER)
        assert res.kkt.max_relative <= 1e-9, res.kkt
        assert res.kkt.max_relative <= res.kkt_unpolished.max_relative
        raw = solve_svc(X, y, C, solver=SOLVER, polish=False)
        assert not raw.polished and raw.kkt == raw.kkt_unpolished


def test_sparse_matches_dense():
    X, y = sparse_soft_data(80, 30, seed=4)
    rs = solve_svc(X, y, 1.0, solver=SOLVER)
    rd = solve_svc(X.toarray(), y, 1.0, solver=SOLVER)
    check_svc_result(rs, X, y, atol=0.0, rtol=RTOL_CERT)
    assert np.linalg.norm(rs.w - rd.w) <= _wdist(rs, rd) + 1e-12


def test_wide_data_uses_factor():
    """d > n: the dual is posed on the thin-QR factor (n x n); w must still be X^T Y alpha in R^d."""
    X, y = soft_data(12, 300, seed=5)
    res = solve_svc(X, y, 0.5, solver=SOLVER)
    assert res.w.shape == (300,)
    check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)


# ---------------------------------------------------------------- cross-checks


def _sklearn_point(X, y, C):
    """sklearn's libsvm solution as (alpha, w, b) plus our KKT residuals of it."""
    clf = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
    alpha = np.zeros(len(y))
    dual_coef = clf.dual_coef_.toarray() if sp.issparse(clf.dual_coef_) else clf.dual_coef_
    alpha[clf.support_] = np.abs(dual_coef.ravel())
    alpha = np.clip(alpha, 0, C)
    w = np.asarray(X.T @ (y * alpha)).ravel()
    b = float(clf.intercept_[0])
    kkt, xi, P, D = svc_kkt_residuals(X, y, alpha, w, b, C)
    return alpha, w, b, kkt, P, D, clf


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("kind,C", [("separable", 100.0), ("soft", 1.0), ("soft", 0.1)])
def test_against_sklearn(kind, C, seed, sparse):
    X, y = (separable_data if kind == "separable" else soft_data)(70, 6, seed=seed)
    if sparse:
        X = sp.csr_matrix(X * (np.abs(X) > 0.5))
    res = solve_svc(X, y, C, solver=SOLVER)
    alpha_sk, w_sk, b_sk, kkt_sk, P_sk, D_sk, clf = _sklearn_point(X, y, C)
    coef = clf.coef_.toarray() if sp.issparse(clf.coef_) else clf.coef_
    np.testing.assert_allclose(coef.ravel(), w_sk, rtol=1e-10, atol=1e-10)
    # weak duality across solvers: each dual value is below the other's primal value
    slack_eq = (abs(res.b) + abs(b_sk)) * max(res.kkt.dual_abs, kkt_sk.dual_abs)
    assert res.objective <= P_sk + slack_eq + rounding(70, P_sk)
    assert D_sk <= res.primal_objective + slack_eq + rounding(70, P_sk)
    D_best = max(res.objective, D_sk)
    # objective: both dual values lie in [D_best - own gap, min(P)]
    assert abs(res.objective - D_sk) <= (res.primal_objective - res.objective) + (P_sk - D_sk) + slack_eq
    # w: 1-strong convexity of the primal in w (w_distance_bound)
    dw = np.linalg.norm(res.w - w_sk)
    fp = rounding(70, res.alpha_sum + res.w_norm_sq + res.primal_objective)
    assert dw <= w_distance_bound(res.primal_objective - D_best, P_sk - D_best, fp) + slack_eq
    # b: libsvm stops when the spread of the KKT-consistent biases is <= tol (1e-8) (Fan, Chen & Lin
    # 2005); a b error of ours moves free-SV margins by |db| <= max||x_i|| * ||dw|| + that spread.
    if res.n_free > 0:
        R = float(np.sqrt(np.max(np.asarray(X.multiply(X).sum(1)) if sparse else np.sum(X * X, 1))))
        assert abs(res.b - b_sk) <= R * dw + 2e-8 + 1e-8 * abs(b_sk)


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("kind,C", [("separable", np.inf), ("soft", 1.0)])
def test_second_backend(kind, C, seed):
    """A second QP backend (OSQP at eps 1e-9, or Clarabel when OSQP is the solver under test)."""
    other = "OSQP" if SOLVER != "OSQP" else "CLARABEL"
    X, y = (separable_data if kind == "separable" else soft_data)(50, 5, seed=seed)
    r1 = solve_svc(X, y, C, solver=SOLVER)
    r2 = solve_svc(X, y, C, solver=other)
    check_svc_result(r2, X, y, atol=0.0, rtol=RTOL_CERT)
    D = max(r1.objective, r2.objective)
    slack_eq = (abs(r1.b) + abs(r2.b)) * max(r1.kkt.dual_abs, r2.kkt.dual_abs)
    assert np.linalg.norm(r1.w - r2.w) <= _wdist(r1, r2) + slack_eq
    assert abs(r1.objective - r2.objective) <= (r1.primal_objective - r1.objective) + (
        r2.primal_objective - r2.objective
    ) + slack_eq + rounding(50, abs(D))


# ---------------------------------------------------------------- hard margin and solver failures


@pytest.mark.parametrize("solver", ["CLARABEL", "OSQP", "SCS", "IPM"])
def test_not_separable_raises(solver):
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])  # XOR
    y = np.array([1, 1, -1, -1])
    with pytest.raises(NotSeparableError, match="not linearly separable") as info:
        solve_svc(X, y, np.inf, solver=solver)
    assert info.value.solver == solver


def test_not_separable_through_origin():
    """Separable with a bias but not through the origin: (1,0) -> +1, (2,0) -> -1."""
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([1, -1])
    assert solve_svc(X, y, np.inf, bias=True, solver=SOLVER).margin == pytest.approx(0.5, rel=1e-9)
    with pytest.raises(NotSeparableError, match="through the origin"):
        solve_svc(X, y, np.inf, bias=False, solver=SOLVER)


def test_solver_failure_carries_status():
    """An iteration limit that leaves an uncertified point raises SolverError with the status."""
    X, y = soft_data(60, 5, seed=0)
    with pytest.raises(SolverError) as info:
        solve_svc(X, y, 1.0, solver="OSQP", polish=False, solver_options={"max_iter": 2})
    assert info.value.solver == "OSQP"
    assert info.value.status in ("user_limit", "optimal_inaccurate")


# ---------------------------------------------------------------- SVCProblem (DPP reuse)


@pytest.mark.parametrize("C,bias", [(1.0, True), (np.inf, True), (2.0, False)])
def test_svcproblem_matches_solve_svc(C, bias):
    prob = SVCProblem(40, 6, C=C, bias=bias, solver=SOLVER)
    for seed in SEEDS:
        X, y = separable_data(40, 6, seed=seed) if np.isinf(C) else soft_data(40, 6, seed=seed)
        r1 = prob.solve(X, y)
        r2 = solve_svc(X, y, C, bias=bias, solver=SOLVER)
        check_svc_result(r1, X, y, atol=0.0, rtol=RTOL_CERT)
        assert np.linalg.norm(r1.w - r2.w) <= _wdist(r1, r2) + 1e-12


def test_svcproblem_shape_mismatch():
    prob = SVCProblem(10, 3, C=1.0)
    X, y = soft_data(12, 3, seed=0)
    with pytest.raises(ValueError, match=r"`X` has shape \(12, 3\)"):
        prob.solve(X, y)


# ---------------------------------------------------------------- rpcheck's dense IPM


@pytest.mark.parametrize(
    "make,C",
    [
        (lambda: soft_data(150, 8, seed=0), 1.0),
        (lambda: separable_data(80, 6, seed=1), np.inf),
        (lambda: soft_data(20, 120, seed=2), 0.3),  # d > n: thin-QR factor
        (lambda: sparse_soft_data(40, 200, seed=3), 1.0),  # sparse, d > n: eigh factor of X X^T
        (lambda: sparse_soft_data(90, 20, seed=4), 5.0),  # sparse, d < n: densified
    ],
)
def test_ipm_matches_clarabel(make, C):
    X, y = make()
    r1 = solve_svc(X, y, C, solver="IPM")
    r2 = solve_svc(X, y, C, solver="CLARABEL")
    check_svc_result(r1, X, y, atol=0.0, rtol=RTOL_CERT)
    assert r1.solver == "IPM" and r1.iterations > 0
    assert np.linalg.norm(r1.w - r2.w) <= _wdist(r1, r2) + 1e-12


def test_ipm_svcproblem():
    prob = SVCProblem(50, 5, C=2.0, solver="IPM")
    assert prob.problem is None
    X, y = soft_data(50, 5, seed=9)
    res = prob.solve(X, y)
    check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)


@pytest.mark.parametrize("factor", [1e-3, 1e3])
def test_scale_covariance(factor):
    """(s X, C / s^2) has the solution alpha / s^2, w / s, the same b: the solvers work on unit-scale
    data internally, so badly scaled inputs are certified like well-scaled ones."""
    X, y = soft_data(60, 5, seed=11)
    r0 = solve_svc(X, y, 2.0, solver=SOLVER)
    r1 = solve_svc(factor * X, y, 2.0 / factor**2, solver=SOLVER)
    check_svc_result(r1, factor * X, y, atol=0.0, rtol=RTOL_CERT)
    # certified closeness of w (w_distance_bound) transported through the exact scaling w -> w / s
    bound = _wdist(r0, r0) + factor * _wdist(r1, r1)
    assert np.linalg.norm(r0.w - factor * r1.w) <= bound + 1e-12
