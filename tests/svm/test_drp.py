"""Tests of rpcheck.svm.drp (Zhang et al. 2013, dual random projection).

Oracles: the ridge closed forms (14)-(15) for the square loss (agreement to 1e-10 relative, far above the
~1e-13 rounding error of the SVD/Cholesky solves at these sizes and condition numbers <= 1e3); for the hinge
loss the certificate (Frank-Wolfe gap) is checked against an independently computed primal-dual gap, against
rpcheck.svm's named KKT checks (C-form), and against a second solver (OSQP).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rpcheck.errors import RpcheckError
from rpcheck.svm.drp import (
    certified_recovery_bound,
    drp,
    hinge_dual_gap,
    iterative_drp,
    naive_solution,
    ridge_drp_closed_form,
    ridge_solution,
    solve_hinge_dual,
)

#: Closed-form agreement tolerance (relative); rounding error of the solves here is ~1e-13.
RTOL_CLOSED = 1e-10
#: Certificate level the polished hinge duals must reach on these well-conditioned instances.
GAP_REL_MAX = 1e-9


def _instance(n=60, d=80, r=5, m=30, seed=0, noise=0.1):
    """Exact-rank data X = U diag(s) V^T (rows are examples), noisy labels, Gaussian R (E[R R^T] = I)."""
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.standard_normal((n, r)))[0]
    V = np.linalg.qr(rng.standard_normal((d, r)))[0]
    s = np.geomspace(10.0, 1.0, r)
    X = (U * s) @ V.T
    y = np.sign(X @ rng.standard_normal(d) + noise * rng.standard_normal(n))
    y[y == 0] = 1.0
    R = rng.standard_normal((d, m)) / np.sqrt(m)
    return X, y, R, V


def _eps(V, R):
    M = V.T @ R
    return float(np.linalg.norm(M @ M.T - np.eye(V.shape[1]), 2))


def _primal_hinge(F, y, lam, w):
    return 0.5 * lam * w @ w + np.sum(np.maximum(0.0, 1.0 - y * (F @ w)))


# ------------------------------------------------------------------------------------------- square
@pytest.mark.parametrize("n,d", [(40, 90), (90, 40)])
def test_ridge_two_forms_agree_and_are_stationary(n, d):
    X, y, _, _ = _instance(n=n, d=d)
    wp = ridge_solution(X, y, 0.7, form="primal")
    wd = ridge_solution(X, y, 0.7, form="dual")
    assert np.linalg.norm(wp - wd) <= RTOL_CLOSED * np.linalg.norm(wp)
    grad = 0.7 * wp - X.T @ (y - X @ wp)  # gradient of (lam/2)||w||^2 + (1/2)||y - X w||^2
    assert np.linalg.norm(grad) <= RTOL_CLOSED * np.linalg.norm(X.T @ y)


@pytest.mark.parametrize("m", [10, 30, 120])  # r = 5 < m, m < n = 60 and m > n
def test_algorithm1_square_matches_eq15(m):
    X, y, R, _ = _instance(m=m)
    res = drp(X, y, 0.5, R, loss="square")
    ref = ridge_drp_closed_form(X, y, 0.5, R)
    assert np.linalg.norm(res.w_tilde - ref) <= RTOL_CLOSED * np.linalg.norm(ref)
    # Prop. 2: z = R^T wtilde ; naive solution (10) = R z ; paper's alpha = y Xhat z - 1
    assert np.linalg.norm(res.z - R.T @ res.w_tilde) <= RTOL_CLOSED * np.linalg.norm(res.z)
    assert np.allclose(res.w_naive, naive_solution(R, res.z))
    assert np.allclose(res.alpha, y * (X @ R @ res.z) - 1.0)
    assert np.allclose(res.w_tilde, -(X.T @ (y * res.alpha)) / 0.5)


def test_algorithm1_square_with_identity_projection_is_exact():
    X, y, _, _ = _instance(d=40)
    res = drp(X, y, 2.0, np.eye(40))
    ref = ridge_solution(X, y, 2.0)
    assert np.linalg.norm(res.w_tilde - ref) <= RTOL_CLOSED * np.linalg.norm(ref)
    assert np.allclose(res.w_naive, ref, rtol=1e-10)


def test_algorithm1_square_sparse_projection_and_regression_targets():
    import scipy.sparse as sp

    X, _, R, _ = _instance()
    t = np.random.default_rng(5).standard_normal(X.shape[0])  # real targets (Theorem 6 setting)
    Rs = sp.csr_matrix(np.where(np.abs(R) > 0.2, R, 0.0))
    res = drp(X, t, 0.3, Rs)
    ref = ridge_drp_closed_form(X, t, 0.3, Rs.toarray())
    assert np.linalg.norm(res.w_tilde - ref) <= RTOL_CLOSED * np.linalg.norm(ref)


def test_algorithm2_square_first_step_is_algorithm1_and_contracts():
    X, y, R, V = _instance(d=400, m=200)  # eps_R ~ 2 sqrt(r/m) + r/m ~ 0.34 < 1/2
    lam = 1.0
    it = iterative_drp(X, y, lam, R, 8)
    one = drp(X, y, lam, R)
    assert np.allclose(it.w_path[0], 0.0)
    assert np.linalg.norm(it.w_path[1] - one.w_tilde) <= RTOL_CLOSED * np.linalg.norm(one.w_tilde)
    ws = ridge_solution(X, y, lam)
    eps = _eps(V, R)
    assert eps < 0.5
    rho = eps / (1 - eps)
    for t in range(1, 9):  # Theorem 5, deterministic form; closed forms, so only rounding (1e-10) slack
        err = np.linalg.norm(it.w_path[t] - ws)
        assert err <= rho**t * np.linalg.norm(ws) + RTOL_CLOSED * np.linalg.norm(ws)


def test_algorithm2_square_fixed_point():
    # with R = I the first step is already exact and w* is a fixed point afterwards
    X, y, _, _ = _instance(d=40)
    it = iterative_drp(X, y, 1.0, np.eye(40), 3)
    ws = ridge_solution(X, y, 1.0)
    for t in (1, 2, 3):
        assert np.linalg.norm(it.w_path[t] - ws) <= RTOL_CLOSED * np.linalg.norm(ws)


# -------------------------------------------------------------------------------------------- hinge
def test_hinge_dual_certificate_equals_independent_primal_dual_gap():
    X, y, R, _ = _instance()
    lam = 0.5
    Xh = X @ R
    res = solve_hinge_dual(Xh, y, lam)
    z = Xh.T @ (y * res.beta) / lam
    P = _primal_hinge(Xh, y, lam, z)
    D = res.beta.sum() - 0.5 * lam * z @ z
    assert res.objective == pytest.approx(D, rel=1e-12)
    assert res.gap == pytest.approx(P - D, rel=1e-6, abs=1e-12)
    assert res.gap_rel <= GAP_REL_MAX
    assert np.all((res.beta >= 0) & (res.beta <= 1))
    assert hinge_dual_gap(Xh, y, lam, res.beta) == pytest.approx(res.gap)


def test_hinge_dual_passes_named_kkt_checks_in_C_form():
    from rpcheck.svm import kkt

    X, y, R, _ = _instance(seed=3)
    lam = 2.0
    res = solve_hinge_dual(X, y, lam)
    C = 1.0 / lam
    alpha = res.beta / lam
    w = X.T @ (y * alpha)
    resid, xi, P, D = kkt.svc_kkt_residuals(X, y, alpha, w, 0.0, C, bias=False)
    kkt.check_dual_feasibility(alpha, y, C, bias=False, atol=1e-12)
    kkt.check_complementarity(X, y, alpha, w, 0.0, xi, C, atol=1e-9, rtol=1e-9)
    kkt.check_duality_gap(P, D, atol=1e-9, rtol=1e-9)
    assert resid.max_relative <= 1e-9


def test_hinge_dual_agrees_with_solve_svc_without_bias():
    from rpcheck.svm import solve_svc

    X, y, _, _ = _instance(seed=4)
    lam = 1.0
    ours = solve_hinge_dual(X, y, lam)
    ref = solve_svc(X, y, 1.0 / lam, bias=False)
    # objectives: ours is the lambda-form dual; Z_svc (C-form) = ours / lam
    assert ours.objective / lam == pytest.approx(ref.objective, rel=1e-7)
    # lam * alpha_svc is feasible for our dual; its certificate is small too
    b = np.clip(lam * np.asarray(ref.alpha), 0.0, 1.0)
    assert hinge_dual_gap(X, y, lam, b) <= 1e-6 * max(1.0, abs(ours.objective))


def test_hinge_dual_second_solver_agrees():
    X, y, R, _ = _instance(seed=6)
    Xh = X @ R
    a = solve_hinge_dual(Xh, y, 1.0, solver="CLARABEL")
    b = solve_hinge_dual(Xh, y, 1.0, solver="OSQP")
    # both objectives are within their certified gaps of the optimum
    assert abs(a.objective - b.objective) <= a.gap + b.gap + 1e-12


def test_algorithm1_hinge_identities():
    X, y, R, _ = _instance()
    res = drp(X, y, 0.5, R, loss="hinge")
    assert res.dual.gap_rel <= GAP_REL_MAX
    assert np.allclose(res.w_tilde, (X.T @ (y * res.beta)) / 0.5)
    assert np.linalg.norm(res.z - R.T @ res.w_tilde) <= RTOL_CLOSED * np.linalg.norm(res.z)  # Prop. 2
    assert np.array_equal(res.alpha, -res.beta)


def test_algorithm2_hinge_step_is_dual_of_eq13():
    """Strong duality between the reconstructed step primal (13) and its dual (Zhang et al. 2013, Sec. 5.2)."""
    X, y, R, _ = _instance(seed=2)
    lam = 0.5
    it = iterative_drp(X, y, lam, R, 3, loss="hinge")
    Xh = X @ R
    Gh = lambda v: y * (Xh @ (Xh.T @ (y * v)))  # noqa: E731
    for t in (1, 2, 3):
        wp = it.w_path[t - 1]
        b_prev = it.dual_coef_path[t - 1] * y
        b = it.dual_coef_path[t] * y
        c = y * (X @ wp)
        q = R.T @ wp
        z = -q + Xh.T @ (y * b) / lam
        P = 0.5 * lam * np.sum((z + q) ** 2) + np.sum(np.maximum(0.0, 1.0 - y * (Xh @ z) - c))
        D = b @ (1 - c) - b @ Gh(b) / (2 * lam) + b @ Gh(b_prev) / lam
        assert P - D == pytest.approx(it.gaps[t - 1], rel=1e-5, abs=1e-9)
        assert it.gaps[t - 1] <= GAP_REL_MAX * max(1.0, abs(D))


def test_algorithm2_hinge_first_step_matches_algorithm1():
    X, y, R, _ = _instance(seed=7)
    it = iterative_drp(X, y, 1.0, R, 1, loss="hinge")
    one = drp(X, y, 1.0, R, loss="hinge")
    assert it.steps[0].objective == pytest.approx(one.dual.objective, rel=1e-9, abs=it.gaps[0] + one.dual.gap)


# ------------------------------------------------------------------------- deterministic Theorem 2
@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32 - 1),
    r=st.integers(1, 6),
    m_over_r=st.integers(3, 12),
    log_lam=st.floats(-2, 2),
    loss=st.sampled_from(["square", "hinge"]),
)
def test_certified_theorem2_per_draw(seed, r, m_over_r, log_lam, loss):
    """||wtilde - w*|| <= certified_recovery_bound(eps_R, ||w*||, gaps, lam) for every draw with eps_R < 1."""
    m = r * m_over_r
    X, y, R, V = _instance(n=40, d=3 * m, r=r, m=m, seed=seed)
    lam = 10.0**log_lam
    eps = _eps(V, R)
    if eps >= 1:
        return  # bound undefined (vacuous); property only claimed for eps_R < 1
    if loss == "square":
        ws, gap = ridge_solution(X, y, lam), 0.0
    else:
        full = solve_hinge_dual(X, y, lam)
        ws, gap = X.T @ (y * full.beta) / lam, full.gap
    res = drp(X, y, lam, R, loss=loss)
    if loss == "hinge":
        gap += res.dual.gap
    bound = certified_recovery_bound(eps, np.linalg.norm(ws), gap, lam)
    # 1e-9 relative: float64 rounding of the O(n d) sums, n d <= 1e5
    assert np.linalg.norm(res.w_tilde - ws) <= bound + 1e-9 * np.linalg.norm(ws)


def test_certified_bound_reduces_to_theorem2():
    assert certified_recovery_bound(0.25, 3.0, 0.0, 1.0) == pytest.approx(0.25 / 0.75 * 3.0)
    assert certified_recovery_bound(0.25, 3.0, 1e-6, 1.0) > 1.0


# -------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"lam": 0.0}, "`lam`"),
        ({"lam": -1.0}, "`lam`"),
        ({"loss": "huber"}, "`loss`"),  # "logistic" is a drp() loss since rpcheck.svm.erm
        ({"R": np.ones((7, 3))}, "`R`"),
        ({"y": np.ones(5)}, "`y` has length"),
        ({"X": np.full((60, 80), np.nan)}, "`X`"),
    ],
)
def test_drp_bad_input(kwargs, match):
    X, y, R, _ = _instance()
    args = {"X": X, "y": y, "lam": 1.0, "R": R, "loss": "square"} | kwargs
    with pytest.raises(RpcheckError, match=match):
        drp(args["X"], args["y"], args["lam"], args["R"], loss=args["loss"])


def test_hinge_requires_labels_and_feasible_beta():
    X, y, R, _ = _instance()
    with pytest.raises(RpcheckError, match="labels -1 and \\+1"):
        drp(X, 0.5 * y, 1.0, R, loss="hinge")
    with pytest.raises(RpcheckError, match=r"\[0, 1\]\^n"):
        hinge_dual_gap(X, y, 1.0, np.full(X.shape[0], 1.5))
    with pytest.raises(RpcheckError, match="`n_iter`"):
        iterative_drp(X, y, 1.0, R, 0)
    with pytest.raises(RpcheckError, match="`eps`"):
        certified_recovery_bound(1.0, 1.0, 0.0, 1.0)
    with pytest.raises(RpcheckError, match="`form`"):
        ridge_solution(X, y, 1.0, form="qr")


def _cvxpy_hinge_dual(F, y, lam, c, b0):
    """The hinge dual posed through cvxpy (Clarabel), as solve_hinge_dual did before it called Clarabel directly."""
    import cvxpy as cp

    from rpcheck.svm._common import solver_options
    from rpcheck.svm.drp import _CLARABEL_TIGHT, _thin_factor

    n = F.shape[0]
    M = _thin_factor(F, y)
    beta = cp.Variable(n)
    obj = cp.Maximize((1.0 - c) @ beta - cp.sum_squares(M @ beta - M @ b0) / (2.0 * lam))
    prob = cp.Problem(obj, [beta >= 0, beta <= 1])
    prob.solve(solver="CLARABEL", **{**_CLARABEL_TIGHT, **solver_options("CLARABEL")})
    assert prob.status == "optimal"
    return np.clip(np.asarray(beta.value), 0.0, 1.0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("step", [False, True])
def test_direct_clarabel_hinge_dual_agrees_with_cvxpy_within_certificates(seed, step):
    """Oracle for the direct Clarabel path: the same dual through cvxpy. Both points are certified by their
    Frank-Wolfe gaps eta (computed from F, not from the solver), so their objectives lie within eta_a + eta_b
    of each other, and the primal points w(beta) = F^T (y (beta - beta0)) / lam (lam-strongly convex primal)
    within sqrt(2 eta_a / lam) + sqrt(2 eta_b / lam)."""
    from rpcheck.svm.drp import _objective

    X, y, R, _ = _instance(seed=20 + seed, n=50 + 5 * seed)
    F = X @ R
    n = F.shape[0]
    lam = (0.05, 1.0, 10.0)[seed % 3]
    rng = np.random.default_rng(seed)
    c = 0.3 * rng.standard_normal(n) if step else np.zeros(n)
    b0 = rng.uniform(0.0, 1.0, n) if step else np.zeros(n)
    a = solve_hinge_dual(F, y, lam, c=c if step else None, beta0=b0 if step else None)
    bb = _cvxpy_hinge_dual(F, y, lam, c, b0)
    gap_b = hinge_dual_gap(F, y, lam, bb, c=c, beta0=b0)
    obj_b = _objective(F, y, lam, bb, 1.0 - c, b0)
    assert abs(a.objective - obj_b) <= a.gap + gap_b + 1e-12 * max(1.0, abs(obj_b))
    wa = F.T @ (y * (a.beta - b0)) / lam
    wb = F.T @ (y * (bb - b0)) / lam
    tol = np.sqrt(2.0 * a.gap / lam) + np.sqrt(2.0 * gap_b / lam)
    assert np.linalg.norm(wa - wb) <= tol + 1e-12 * max(1.0, np.linalg.norm(wb))
    assert a.solver == "CLARABEL" and a.status == "optimal" and a.gap_rel <= GAP_REL_MAX


def test_direct_clarabel_hinge_dual_raises_solver_error_on_iteration_limit():
    from rpcheck.errors import SolverError

    X, y, R, _ = _instance(seed=3)
    with pytest.raises(SolverError) as info:
        solve_hinge_dual(X @ R, y, 1.0, solver_options_={"max_iter": 1})
    assert info.value.status == "user_limit" and info.value.solver == "CLARABEL"
    with pytest.raises(RpcheckError, match="no setting 'no_such_option'"):
        solve_hinge_dual(X @ R, y, 1.0, solver_options_={"no_such_option": 1})
