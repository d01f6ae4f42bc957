"""solve_svr: Paul eq. (2) (correct) and eq. (4) as printed (= the epsilon = 0 SVR), certificates,
closed forms and a cross-check against sklearn's libsvm epsilon-SVR."""

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import RTOL_CERT, SEEDS, rounding, w_distance_bound
from _svm_data import SOLVER_QP as SOLVER
from sklearn.svm import SVR

from rpcheck.svm import solve_svr
from rpcheck.svm.kkt import svr_kkt_residuals


def _reg_data(n, d, seed, noise=0.3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + 0.5 + noise * rng.standard_normal(n)
    return X, y


def _identity_tol(res):
    """|y^T alpha - eps ||alpha||_1 - ||w||^2 - C ||xi||_1| <= 4 n comp_abs + |b| |1^T alpha| + rounding.

    The four complementarity products of each point sum to the gap plus b 1^T alpha
    (rpcheck.svm.kkt.svr_kkt_residuals)."""
    n = res.alpha.size
    scale = abs(res.objective) + res.w_norm_sq + res.C * res.slack.sum() + 1.0
    return 4 * n * res.kkt.complementarity_abs + abs(res.b) * res.kkt.dual_abs + rounding(n, scale)


def test_closed_form_two_points():
    X, y = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    r0 = solve_svr(X, y, 10.0, 0.0, solver=SOLVER)
    np.testing.assert_allclose(r0.w, [1.0], rtol=1e-9)
    np.testing.assert_allclose(r0.alpha, [0.5, -0.5], rtol=1e-9)
    r1 = solve_svr(X, y, 10.0, 0.5, solver=SOLVER)  # |1 - w| <= 0.5 is enough: w = 0.5
    np.testing.assert_allclose(r1.w, [0.5], rtol=1e-9)
    np.testing.assert_allclose(r1.alpha, [0.25, -0.25], rtol=1e-9)
    assert r1.in_tube and abs(r1.objective - r1.w_norm_sq / 2) < 1e-12
    r2 = solve_svr(X, y, 0.1, 0.0, solver=SOLVER)  # bounded: alpha = +-C, w = 0.2, slack 0.8 each
    np.testing.assert_allclose(r2.alpha, [0.1, -0.1], rtol=1e-9)
    np.testing.assert_allclose(r2.slack, [0.8, 0.8], rtol=1e-9)
    assert not r2.in_tube


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,d,C,eps", [(60, 4, 1.0, 0.2), (40, 8, 10.0, 0.5), (15, 30, 100.0, 0.1)])
def test_certificate_and_identity(n, d, C, eps, seed):
    X, y = _reg_data(n, d, seed)
    res = solve_svr(X, y, C, eps, solver=SOLVER)
    assert res.kkt.max_relative <= RTOL_CERT
    assert np.all(np.abs(res.alpha) <= C) and abs(res.alpha.sum()) <= 1e-6 * np.abs(res.alpha).max()
    lhs = y @ res.alpha - eps * np.abs(res.alpha).sum()
    assert abs(lhs - (res.w_norm_sq + C * res.slack.sum())) <= _identity_tol(res)
    if res.in_tube:  # the regime detector of Theorem 3.7
        assert abs(lhs - res.w_norm_sq) <= _identity_tol(res) + C * res.slack.sum()


def test_in_tube_regime():
    """d > n and large C: the data can be interpolated within the tube, so no point has slack."""
    X, y = _reg_data(10, 30, 3)
    res = solve_svr(X, y, 1e3, 0.1, solver=SOLVER)
    assert res.in_tube
    assert abs(y @ res.alpha - 0.1 * np.abs(res.alpha).sum() - res.w_norm_sq) <= _identity_tol(res)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
def test_as_printed_is_epsilon_zero(eps, seed):
    """Eq. (4) as printed: eps 1^T alpha vanishes on {1^T alpha = 0}, so it is the eps = 0 SVR."""
    X, y = _reg_data(50, 5, seed)
    printed = solve_svr(X, y, 1.0, eps, form="as_printed", solver=SOLVER)
    zero = solve_svr(X, y, 1.0, 0.0, form="correct", solver=SOLVER)
    assert printed.epsilon_effective == 0.0 and printed.epsilon == eps
    D = max(printed.objective, zero.objective)
    fp = rounding(50, abs(D) + printed.w_norm_sq)
    bound = w_distance_bound(printed.primal_objective - D, zero.primal_objective - D, fp)
    assert np.linalg.norm(printed.w - zero.w) <= bound
    assert abs(printed.objective - zero.objective) <= (printed.primal_objective - printed.objective) + (
        zero.primal_objective - zero.objective
    ) + eps * abs(printed.alpha.sum()) + fp
    # ... and it is NOT the SVR with that epsilon: the two certified optima are further apart than
    # their certificates allow (so the typo of eq. 4 changes the answer on this data)
    correct = solve_svr(X, y, 1.0, eps, form="correct", solver=SOLVER)
    sep = w_distance_bound(
        correct.primal_objective - correct.objective, printed.primal_objective - printed.objective, fp
    )
    assert np.linalg.norm(printed.w - correct.w) > sep


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_against_sklearn(seed, sparse):
    X, y = _reg_data(60, 5, seed)
    C, eps = 1.0, 0.2
    if sparse:
        X = sp.csr_matrix(X * (np.abs(X) > 0.4))
    res = solve_svr(X, y, C, eps, solver=SOLVER)
    clf = SVR(kernel="linear", C=C, epsilon=eps, tol=1e-8).fit(X, y)
    alpha = np.zeros(60)
    dc = clf.dual_coef_.toarray() if sp.issparse(clf.dual_coef_) else clf.dual_coef_
    alpha[clf.support_] = dc.ravel()
    alpha = np.clip(alpha, -C, C)
    w_sk = np.asarray(X.T @ alpha).ravel()
    kkt, xi, P_sk, D_sk = svr_kkt_residuals(X, y, alpha, w_sk, float(clf.intercept_[0]), C, eps)
    slack_eq = (abs(res.b) + abs(clf.intercept_[0])) * max(res.kkt.dual_abs, kkt.dual_abs)
    D = max(res.objective, D_sk)
    fp = rounding(60, abs(D) + res.w_norm_sq)
    assert np.linalg.norm(res.w - w_sk) <= w_distance_bound(res.primal_objective - D, P_sk - D, fp) + slack_eq
    assert abs(res.objective - D_sk) <= (res.primal_objective - res.objective) + (P_sk - D_sk) + slack_eq + fp


def test_polish_recovers_a_degenerate_free_set():
    """A 150 x 10 training half of scikit-learn's diabetes data (features standardised, target z-scored; C = 1,
    eps = 0.1) with the interior-point solver's point: two alphas of about -1.5e-6 are 0 at the optimum, so the
    free set guessed from the point is wrong and the one-shot KKT solve flips their signs. The active-set rounds
    of the polish move them to 0 and certify the optimum; a single round cannot (the regression guard)."""
    from pathlib import Path

    from rpcheck.svm import svr as svr_module

    z = np.load(Path(__file__).parent / "data" / "svr_degenerate_free_set.npz")
    X, y, alpha, C, eps = z["X"], z["y"], z["alpha"], float(z["C"]), float(z["epsilon"])
    w = X.T @ alpha
    b, _ = svr_module._svr_bias(X @ w, y, alpha, C, eps)
    assert svr_module._polish_svr(X, y, alpha, b, C, eps, max_rounds=1) is None
    a1, b1 = svr_module._polish_svr(X, y, alpha, b, C, eps)
    kkt = svr_kkt_residuals(X, y, a1, X.T @ a1, b1, C, eps)[0]
    assert kkt.max_relative <= 1e-12
    res = solve_svr(X, y, C, eps)
    assert res.polished and res.kkt.max_relative <= 1e-12
    assert np.allclose(res.alpha, a1, atol=1e-9)
