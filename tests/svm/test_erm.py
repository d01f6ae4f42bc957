"""Tests of rpcheck.svm.erm (L2-regularised ERM without bias, Zhang et al. 2013 eq. (1), summed losses).

Independent solvers: cvxpy/Clarabel (logistic via cp.logistic, squared hinge via cp.pos()**2, smoothed hinge
via cp.huber of cp.pos) and sklearn (LogisticRegression, LinearSVC with the squared hinge). The tolerance of
every comparison comes from the certificates: our ``radius = sqrt(2 gap/lambda)`` bounds ``||w - w*||``, and
``||w_other - w*|| <= sqrt(2 (P(w_other) - D(alpha_ours))/lambda)`` (weak duality and lambda-strong
convexity), so ``||w_ours - w_other||`` must be below the sum of the two radii.
"""

import math

import cvxpy as cp
import numpy as np
import pytest

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import ERM_LOSSES, erm_duality_gap, solve_erm
from rpcheck.svm.drp import drp
from rpcheck.svm.erm import (
    erm_dual_objective,
    erm_primal_objective,
    loss_conjugate,
    loss_derivative,
    loss_smoothness,
    loss_value,
)

MU = 0.5


def _data(n=40, p=8, seed=0, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = np.sign(X @ rng.standard_normal(p) + noise * rng.standard_normal(n))
    y[y == 0] = 1.0
    return X, y


def _cvxpy_solution(X, y, lam, loss, mu=MU):
    w = cp.Variable(X.shape[1])
    z = cp.multiply(y, X @ w)
    if loss == "logistic":
        L = cp.sum(cp.logistic(-z))
    elif loss == "squared_hinge":
        L = 0.5 * cp.sum(cp.pos(1 - z) ** 2)
    else:  # l = huber(pos(1 - z), mu) / (2 mu): t^2/(2mu) for 0 <= t <= mu, t - mu/2 above
        L = cp.sum(cp.huber(cp.pos(1 - z), mu)) / (2 * mu)
    prob = cp.Problem(cp.Minimize(0.5 * lam * cp.sum_squares(w) + L))
    prob.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert prob.status == "optimal"
    return np.asarray(w.value)


def _other_radius(X, y, lam, loss, w_other, res, mu=MU):
    """Certified ||w_other - w*|| from our dual point (weak duality + strong convexity), with
    P(w') - D(a) = sum_i FY(z'_i, a_i) + (lam/2)||w' - w(a)||^2 evaluated without cancellation (plus a
    generous 1e-12 relative allowance for the rounding of the margins)."""
    from rpcheck.svm.erm import _fenchel_young

    z = y * (X @ w_other)
    slack = float(np.sum(_fenchel_young(loss, z, res.alpha, mu))) + 0.5 * lam * float(np.sum((w_other - res.w) ** 2))
    slack += 1e-12 * float(np.sum(np.abs(loss_derivative(loss, z, mu) - res.alpha) * np.abs(z)))
    return math.sqrt(2.0 * max(slack, 0.0) / lam)


@pytest.mark.parametrize("loss", ERM_LOSSES)
@pytest.mark.parametrize("lam", [0.1, 1.0, 10.0])
def test_against_cvxpy(loss, lam):
    X, y = _data()
    res = solve_erm(X, y, lam, loss, mu=MU)
    w_cvx = _cvxpy_solution(X, y, lam, loss)
    diff = float(np.linalg.norm(res.w - w_cvx))
    assert diff <= res.radius + _other_radius(X, y, lam, loss, w_cvx, res) + 1e-12
    # and Clarabel itself is accurate to ~1e-6 relative here
    assert diff <= 1e-5 * np.linalg.norm(res.w)
    # ours is at least as good as Clarabel's (up to rounding of the objective)
    assert res.objective <= erm_primal_objective(X, y, lam, w_cvx, loss, mu=MU) + 1e-10 * abs(res.objective)


@pytest.mark.parametrize("lam", [0.05, 1.0, 20.0])
def test_logistic_against_sklearn(lam):
    from sklearn.linear_model import LogisticRegression

    X, y = _data(n=60, p=6, seed=3)
    res = solve_erm(X, y, lam, "logistic")
    # sklearn: (1/2)||w||^2 + C sum log(1 + exp(-y x^T w)) = (1/lam) P(w) at C = 1/lam (summed losses;
    # C = 1/(lam' n) for an averaged objective with lam = n lam')
    clf = LogisticRegression(C=1.0 / lam, fit_intercept=False, tol=1e-12, max_iter=100000, solver="newton-cg")
    clf.fit(X, y)
    w_sk = clf.coef_.ravel()
    diff = float(np.linalg.norm(res.w - w_sk))
    assert diff <= res.radius + _other_radius(X, y, lam, "logistic", w_sk, res) + 1e-12
    assert diff <= 1e-6 * np.linalg.norm(res.w)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # tol 1e-12; accuracy asserted below
def test_squared_hinge_against_sklearn_linearsvc():
    from sklearn.svm import LinearSVC

    X, y = _data(n=50, p=5, seed=4)
    lam = 0.7
    res = solve_erm(X, y, lam, "squared_hinge")
    # LinearSVC: (1/2)||w||^2 + C sum max(0, 1 - z)^2 = (1/lam) P(w) at C = 1/(2 lam)
    clf = LinearSVC(
        C=1.0 / (2 * lam), loss="squared_hinge", fit_intercept=False, tol=1e-12, max_iter=1000000, dual=True
    )
    clf.fit(X, y)
    w_sk = clf.coef_.ravel()
    diff = float(np.linalg.norm(res.w - w_sk))
    assert diff <= res.radius + _other_radius(X, y, lam, "squared_hinge", w_sk, res) + 1e-12
    assert diff <= 1e-5 * np.linalg.norm(res.w)


@pytest.mark.parametrize("loss", ERM_LOSSES)
@pytest.mark.parametrize("shape", [(40, 8), (30, 120), (25, 25)])
def test_primal_dual_consistency(loss, shape):
    n, p = shape
    X, y = _data(n=n, p=p, seed=n + p)
    lam = 0.3
    res = solve_erm(X, y, lam, loss, mu=MU)
    # Prop. 1, eq. (4): w* = -(1/lam) X^T (y * alpha*), alpha*_i = l'(y_i x_i^T w*)
    assert np.allclose(res.w, -(X.T @ (y * res.alpha)) / lam, rtol=0, atol=1e-14 * (1 + np.abs(res.w).max()))
    a_from_w = loss_derivative(loss, y * (X @ res.w), MU)
    gam = loss_smoothness(loss, MU)
    # alpha = l'(z_newton), w = w(alpha); both within `radius` of w*: |l'(z) - l'(z')| <= gamma ||x_i|| 2 radius,
    # plus the rounding of the margins (1e-14 relative)
    tol = gam * np.linalg.norm(X, axis=1) * (2 * res.radius + 1e-14 * np.linalg.norm(res.w)) + 1e-15
    assert np.all(np.abs(a_from_w - res.alpha) <= tol)
    # alpha in Omega
    assert np.all(res.alpha <= 0)
    if loss != "squared_hinge":
        assert np.all(res.alpha >= -1)
    # the gap certificate dominates P - D as computed naively (which suffers cancellation)
    naive = erm_primal_objective(X, y, lam, res.w, loss, mu=MU) - erm_dual_objective(X, y, lam, res.alpha, loss, mu=MU)
    assert naive <= res.gap + 64 * np.finfo(float).eps * abs(res.objective)
    assert res.gap <= res.gap_threshold
    assert res.radius <= 1e-6 * np.linalg.norm(res.w)
    # weak duality and strong duality at the certified pair
    assert res.dual_objective <= res.objective + 1e-13 * abs(res.objective)
    # erm_duality_gap on the returned dual point reproduces the certificate
    g, w = erm_duality_gap(X, y, lam, res.alpha, loss, mu=MU)
    assert np.allclose(w, res.w, rtol=0, atol=1e-15 * (1 + np.abs(res.w).max()))
    assert g == pytest.approx(res.gap, rel=1e-6, abs=1e-300)


@pytest.mark.parametrize("loss", ERM_LOSSES)
def test_conjugates_numerically(loss):
    """l*(a) = sup_z a z - l(z), on a fine grid of z (the sup is attained inside it for these a)."""
    zs = np.linspace(-40, 40, 400001)
    for a in [-0.95, -0.6, -0.3, -0.05]:
        sup = float(np.max(a * zs - loss_value(loss, zs, MU)))
        assert float(loss_conjugate(loss, a, MU)) == pytest.approx(sup, abs=1e-6)
    assert np.isinf(loss_conjugate(loss, 0.1, MU))


@pytest.mark.parametrize("loss", ERM_LOSSES)
def test_derivative_and_smoothness(loss):
    z = np.linspace(-6, 6, 2001)
    h = 1e-6
    num = (loss_value(loss, z + h, MU) - loss_value(loss, z - h, MU)) / (2 * h)
    assert np.allclose(loss_derivative(loss, z, MU), num, atol=1e-5)
    g = loss_derivative(loss, z, MU)
    slopes = np.abs(np.diff(g) / np.diff(z))
    assert slopes.max() <= loss_smoothness(loss, MU) * (1 + 1e-9)


def test_smoothed_hinge_tends_to_hinge():
    """As mu -> 0 the smoothed hinge tends to the hinge: the objectives differ by at most n mu/2."""
    from rpcheck.svm.drp import hinge_dual_gap, solve_hinge_dual

    X, y = _data(n=30, p=5, seed=7)
    lam = 1.0
    hd = solve_hinge_dual(X, y, lam)
    hinge_opt = hd.objective + hinge_dual_gap(X, y, lam, hd.beta)  # upper end of the hinge optimum
    for mu in [1e-1, 1e-2, 1e-3]:
        res = solve_erm(X, y, lam, "smoothed_hinge", mu=mu)
        # l_mu <= hinge <= l_mu + mu/2 pointwise, so P_mu* <= P_hinge* <= P_mu* + n mu / 2
        assert res.objective - res.gap <= hinge_opt + 1e-9
        assert hinge_opt - hd.objective - hinge_dual_gap(X, y, lam, hd.beta) <= res.objective + 30 * mu / 2


@pytest.mark.parametrize("loss", ERM_LOSSES)
def test_drp_smooth_loss_prop2_and_recovery(loss):
    """drp() with a smooth loss: z = R^T wtilde (Prop. 2 with (12)), and the per-draw Theorem 2 bound."""
    rng = np.random.default_rng(11)
    n, d, r, m = 50, 200, 3, 80
    U = np.linalg.qr(rng.standard_normal((n, r)))[0]
    V = np.linalg.qr(rng.standard_normal((d, r)))[0]
    X = (U * np.geomspace(7.0, 1.0, r)) @ V.T
    y = np.sign(X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n))
    y[y == 0] = 1.0
    R = rng.standard_normal((d, m)) / np.sqrt(m)
    res = drp(X, y, 1.0, R, loss=loss, mu=MU)
    assert res.dual is not None and res.dual.gap <= res.dual.gap_threshold
    assert np.allclose(res.z, R.T @ res.w_tilde, atol=1e-12 * np.linalg.norm(res.z))
    ws = solve_erm(X, y, 1.0, loss, mu=MU).w
    A = V.T @ R
    e = float(np.linalg.norm(A @ A.T - np.eye(r), 2))
    assert e < 1
    assert np.linalg.norm(res.w_tilde - ws) <= e / (1 - e) * np.linalg.norm(ws) * (1 + 1e-6)
    # w_tilde lies in the row space of X (eq. (12)); the naive R z does not
    assert np.linalg.norm(res.w_tilde - V @ (V.T @ res.w_tilde)) <= 1e-12 * np.linalg.norm(res.w_tilde)
    assert np.linalg.norm(res.w_naive - V @ (V.T @ res.w_naive)) > 0.5 * np.linalg.norm(ws)


def test_module_doctests():
    import doctest

    import rpcheck.svm.erm as E

    failures, tried = doctest.testmod(E, verbose=False)
    assert tried > 0 and failures == 0


# ------------------------------------------------------------------------------------------ errors
def test_not_certified_raises_solver_error():
    X, y = _data()
    with pytest.raises(SolverError, match="certification threshold"):
        solve_erm(X, y, 0.01, "logistic", max_iter=1)


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"loss": "hinge"}, "`loss`"),
        ({"loss": "logistic", "lam": 0.0}, "`lam`"),
        ({"loss": "logistic", "lam": -1.0}, "`lam`"),
        ({"loss": "logistic", "lam": math.inf}, "`lam`"),
        ({"loss": "smoothed_hinge", "mu": 0.0}, "`mu`"),
        ({"loss": "logistic", "w_tol": 0.0}, "`w_tol`"),
        ({"loss": "logistic", "w_tol": 1.5}, "`w_tol`"),
        ({"loss": "logistic", "max_iter": 0}, "`max_iter`"),
    ],
)
def test_bad_arguments_named(kwargs, name):
    X, y = _data()
    args = {"lam": 1.0, **kwargs}
    lam = args.pop("lam")
    loss = args.pop("loss")
    with pytest.raises(RpcheckError, match=name):
        solve_erm(X, y, lam, loss, **args)


def test_bad_data_named():
    X, y = _data()
    with pytest.raises(RpcheckError, match="`y`"):
        solve_erm(X, np.where(y > 0, 1.0, 0.0), 1.0, "logistic")
    with pytest.raises(RpcheckError, match="`y`"):
        solve_erm(X, y[:-1], 1.0, "logistic")
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(RpcheckError, match="`X`"):
        solve_erm(Xn, y, 1.0, "logistic")
    with pytest.raises(RpcheckError, match="`X`"):
        solve_erm(X[0], y, 1.0, "logistic")
    with pytest.raises(RpcheckError, match="`alpha`"):
        erm_duality_gap(X, y, 1.0, np.full(len(y), -2.0), "logistic")
    with pytest.raises(RpcheckError, match="`alpha`"):
        erm_duality_gap(X, y, 1.0, np.zeros(3), "logistic")
    with pytest.raises(RpcheckError, match="`y`"):
        drp(X, np.where(y > 0, 2.0, -1.0), 1.0, np.eye(X.shape[1]), loss="logistic")


# ------------------------------------------------------------------------------------ Algorithm 2
@pytest.mark.parametrize("loss", ERM_LOSSES)
def test_iterative_drp_smooth_losses(loss):
    """Algorithm 2 with a smooth loss: step 1 is Algorithm 1; each step contracts by eps_R/(1 - eps_R)
    (Theorem 5's per-step argument, deterministic given eps_R) up to the certified radii; converges to w*."""
    from rpcheck.svm.drp import iterative_drp

    rng = np.random.default_rng(5)
    n, d, r, m = 50, 200, 3, 80
    U = np.linalg.qr(rng.standard_normal((n, r)))[0]
    V = np.linalg.qr(rng.standard_normal((d, r)))[0]
    X = (U * np.geomspace(7.0, 1.0, r)) @ V.T
    y = np.sign(X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n))
    y[y == 0] = 1.0
    R = rng.standard_normal((d, m)) / np.sqrt(m)
    lam = 1.0
    it = iterative_drp(X, y, lam, R, 8, loss=loss, mu=MU)
    one = drp(X, y, lam, R, loss=loss, mu=MU)
    assert np.allclose(it.w_path[1], one.w_tilde, rtol=0, atol=1e-9 * np.linalg.norm(one.w_tilde))
    ref = solve_erm(X, y, lam, loss, mu=MU)
    A = V.T @ R
    e = float(np.linalg.norm(A @ A.T - np.eye(r), 2))
    rho = e / (1 - e)
    errs = np.linalg.norm(np.asarray(it.w_path) - ref.w[None, :], axis=1)
    # certified slack per step: the step's own radius mapped to wtilde (/sqrt(1 - e)) and the reference radius
    slack = np.sqrt(2 * np.asarray(it.gaps) / lam) / np.sqrt(1 - e) + 2 * ref.radius
    for t in range(1, 9):
        assert errs[t] <= rho * errs[t - 1] * (1 + 1e-9) + slack[t - 1] + 1e-12 * errs[0]
    assert errs[-1] <= 1e-6 * errs[0]
    assert all(s.gap <= s.gap_threshold for s in it.steps)


def test_offset_problem_matches_cvxpy():
    X, y = _data(n=30, p=6, seed=8)
    o = np.random.default_rng(9).standard_normal(30)
    lam = 0.5
    res = solve_erm(X, y, lam, "logistic", offset=o)
    w = cp.Variable(X.shape[1])
    prob = cp.Problem(cp.Minimize(0.5 * lam * cp.sum_squares(w) + cp.sum(cp.logistic(-(cp.multiply(y, X @ w) + o)))))
    prob.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert np.linalg.norm(res.w - w.value) <= 1e-5 * np.linalg.norm(res.w)
    assert res.dual_objective <= res.objective + 1e-12 * abs(res.objective)
    assert res.objective - res.dual_objective <= res.gap + 1e-12 * abs(res.objective)
    with pytest.raises(RpcheckError, match="`offset`"):
        solve_erm(X, y, lam, "logistic", offset=np.zeros(3))


def test_certifies_on_the_checker_regime():
    """Exact-rank data as the zhang2013 checkers draw it (s_max = sqrt(n)), lambda >= 0.01, mu = 0.5: every
    solve certifies (a regression test for the Armijo stall when the Newton decrement drops below what the
    objective resolves in float64; with the stall, 7 of 200 logistic solves at lambda = 0.01 fail)."""
    from rpcheck.papers.zhang2013._common import make_instance

    for seed in range(25):
        rng = np.random.default_rng(seed)
        n, d, r = int(rng.integers(20, 120)), int(rng.integers(5, 200)), int(rng.integers(1, 8))
        r = min(r, n, d)
        inst = make_instance(n, d, r, rng=rng)
        for loss in ERM_LOSSES:
            for lam in (0.01, 1.0, 100.0):
                res = solve_erm(inst.Z, inst.y, lam, loss, mu=MU)
                assert res.gap <= res.gap_threshold
    # the instance of the original failure (standard profile cell of zhang2013.losses, seed 127)
    inst = make_instance(100, 3000, 5, rng=np.random.default_rng(127))
    res = solve_erm(inst.Z, inst.y, 0.01, "logistic")
    assert res.iterations < 50 and res.gap <= res.gap_threshold
