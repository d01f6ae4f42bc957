"""solve_joint_multiclass (joint-feature multiclass SVM, one weight vector v): closed form, the Crammer-Singer
special case phi(x, k) = e_k (x) x against solve_crammer_singer, cvxpy (SCS and Clarabel) on the primal,
certificate, certified predictions, validation.

Every tolerance is derived: P(v) = ||v||^2/2 + C sum_i xi_i(v) (exact slacks) is 1-strongly convex, so for ANY
v' and our certified dual point alpha, ``1/2 ||v' - v*||^2 <= P(v') - D(alpha)``. An external solver's v' is
compared with ours at ``sqrt(2 (P(v') - D + fp)) + res.v_error_bound``; the test also requires P(v') - D to be
small (the external solver converged) and P(v') >= D - fp (weak duality: our dual bound is never beaten).
"""

import math

import numpy as np
import pytest

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import JointMulticlassResult, joint_primal_objective, solve_crammer_singer, solve_joint_multiclass

EPS = np.finfo(float).eps


def _data(seed, m=30, K=3, n=6, sep=1.0):
    """Random joint features with a class signal: Z[i, k] = N(0, I) + sep * [k == y_i] * c (a shared c)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, m)
    y[:K] = np.arange(K)
    Z = rng.standard_normal((m, K, n))
    c = rng.standard_normal(n)
    Z[np.arange(m), y] += sep * c
    return Z, y


def _certified(res, C):
    assert isinstance(res, JointMulticlassResult)
    assert res.gap <= 1e-9 * res.primal + res.fp_allowance
    assert res.gap >= -res.fp_allowance
    a = res.alpha
    assert np.allclose(a.sum(axis=1), 0.0, atol=1e-12 * max(1.0, C))
    assert a.max() <= C


def _distance_bound(res, Z, y, v2, C):
    P2 = joint_primal_objective(v2, Z, y, C)
    fp = 8 * (Z.shape[0] + Z.shape[2] + 10) * EPS * (abs(res.primal) + abs(res.dual) + 1.0)
    assert P2 >= res.dual - fp - res.fp_allowance           # weak duality
    return math.sqrt(2.0 * max(P2 - res.dual + fp, 0.0)) + res.v_error_bound, P2


def test_closed_form():
    Z = np.array([[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]])
    res = solve_joint_multiclass(Z, np.array([0, 1]), 10.0)
    np.testing.assert_allclose(res.v, [0.5, -0.5], atol=1e-9)   # v1 - v2 >= 1 at least norm
    assert res.primal == pytest.approx(0.25, abs=1e-9)
    _certified(res, 10.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_crammer_singer_is_the_special_case_e_k_kron_x(seed, C):
    """phi(x, k) = e_k (x) x gives <v, phi(x, k)> = w_k^T x with v = vec(W) (row-major) and ||v|| = ||W||_F:
    the same problem as solve_crammer_singer, so both certified optima agree within both error bounds."""
    rng = np.random.default_rng(seed)
    m, d, K = 40, 5, 3
    y = rng.integers(0, K, m)
    y[:K] = np.arange(K)
    X = rng.standard_normal((K, d))[y] * 2 + rng.standard_normal((m, d))
    Z = np.einsum("kl,id->ikld", np.eye(K), X).reshape(m, K, K * d)
    res = solve_joint_multiclass(Z, y, C)
    _certified(res, C)
    cs = solve_crammer_singer(X, y, C)
    assert np.linalg.norm(res.v - cs.W.reshape(-1)) <= res.v_error_bound + cs.w_error_bound
    assert abs(res.primal - cs.primal) <= 1e-9 * cs.primal + res.fp_allowance + cs.fp_allowance + cs.gap + res.gap


def _cvxpy_solve(Z, y, C, solver, **kw):
    cp = pytest.importorskip("cvxpy")
    m, K, n = Z.shape
    v = cp.Variable(n)
    xi = cp.Variable(m)
    D = Z[np.arange(m), y][:, None, :] - Z                    # (m, K, n)
    mask = np.arange(K)[None, :] != y[:, None]
    rows = D[mask]                                           # (m (K-1), n)
    owner = np.nonzero(mask)[0]
    cons = [rows @ v >= 1 - xi[owner], xi >= 0]
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(v) + C * cp.sum(xi)), cons)
    prob.solve(solver=solver, **kw)
    assert prob.status == "optimal"
    return np.asarray(v.value), prob.value


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_against_cvxpy_scs_primal(seed, C):
    Z, y = _data(seed)
    res = solve_joint_multiclass(Z, y, C)
    _certified(res, C)
    v2, val = _cvxpy_solve(Z, y, C, "SCS", eps=1e-9, max_iters=200_000)
    bound, P2 = _distance_bound(res, Z, y, v2, C)
    assert P2 - res.dual <= 1e-4 * res.primal                 # SCS (first order) reached a near-optimum
    assert np.linalg.norm(v2 - res.v) <= bound
    assert abs(val - res.primal) <= 1e-4 * res.primal


@pytest.mark.parametrize("seed", [3, 4])
def test_against_cvxpy_clarabel_primal(seed):
    C = 1.0
    Z, y = _data(seed, m=25, K=4, n=5, sep=0.5)
    res = solve_joint_multiclass(Z, y, C)
    _certified(res, C)
    v2, val = _cvxpy_solve(Z, y, C, "CLARABEL")
    bound, P2 = _distance_bound(res, Z, y, v2, C)
    assert P2 - res.dual <= 1e-6 * res.primal                 # Clarabel's default gap tolerance is 1e-8
    assert np.linalg.norm(v2 - res.v) <= bound


def test_polish_path_certifies_the_same_optimum(monkeypatch):
    """A perturbed interior-point point fails the certificate; the active-set polish recovers the optimum."""
    from rpcheck.svm import joint

    Z, y = _data(5, m=30, K=3, n=4, sep=0.8)
    ref = solve_joint_multiclass(Z, y, 1.0)
    orig = joint._ipm_alpha

    def perturbed(*a, **k):
        al, it = orig(*a, **k)
        return al * (1.0 + 1e-5), it

    monkeypatch.setattr(joint, "_ipm_alpha", perturbed)
    res = solve_joint_multiclass(Z, y, 1.0)
    assert res.solver == "Clarabel+polish"
    _certified(res, 1.0)
    assert np.linalg.norm(res.v - ref.v) <= res.v_error_bound + ref.v_error_bound


def test_not_certified_raises_solver_error(monkeypatch):
    from rpcheck.svm import joint

    Z, y = _data(1)
    monkeypatch.setattr(joint, "_ipm_alpha", lambda *a, **k: (None, 0))
    with pytest.raises(SolverError, match="no certified point"):
        solve_joint_multiclass(Z, y, 1.0)
    monkeypatch.setattr(joint, "_polish", lambda *a, **k: iter(()))
    monkeypatch.setattr(joint, "_ipm_alpha", lambda Dm, yk, C, it: (np.zeros((Dm.shape[0], Dm.shape[1])), 1))
    with pytest.raises(SolverError, match="relative gap"):
        solve_joint_multiclass(Z, y, 1.0)


def test_certified_predict_flags_only_near_ties():
    Z, y = _data(7, m=40, K=3, n=6, sep=1.5)
    res = solve_joint_multiclass(Z, y, 1.0)
    pred, ok = res.certified_predict(Z)
    np.testing.assert_array_equal(pred, res.predict(Z))
    S = res.decision_function(Z)
    top2 = np.sort(S, axis=1)[:, -2:]
    gapv = top2[:, 1] - top2[:, 0]
    assert np.all(ok[gapv > 2 * np.abs(Z).sum(axis=(1, 2)).max() * res.v_error_bound])
    # a zero-gap row (duplicated class features) is never certified
    Z2 = Z.copy()
    Z2[:, 1] = Z2[:, 0]
    assert not res.certified_predict(Z2)[1][np.argmax(res.decision_function(Z2), axis=1) == 0].any()
    assert not res.v.flags.writeable


@pytest.mark.parametrize("kw, name", [
    (dict(C=0.0), "C"), (dict(C=-1.0), "C"), (dict(C=math.inf), "C"), (dict(C=float("nan")), "C"),
    (dict(tol=0.0), "tol"), (dict(tol=1.0), "tol"), (dict(max_iter=0), "max_iter"),
])
def test_bad_parameters_name_the_argument(kw, name):
    Z, y = _data(0, m=10)
    args = dict(C=1.0)
    args.update(kw)
    with pytest.raises(RpcheckError, match=f"`{name}`"):
        solve_joint_multiclass(Z, y, **args)


@pytest.mark.parametrize("Z, y, name", [
    (np.ones((3, 2, 2)), np.array([0, 1]), "y"),                  # length mismatch
    (np.ones((3, 2, 2)), np.array([0, 1, 2]), "y"),               # index >= K
    (np.ones((3, 2, 2)), np.array([0.5, 1.0, 0.0]), "y"),         # non-integer
    (np.ones((3, 1, 2)), np.array([0, 0, 0]), "Z"),               # K < 2
    (np.ones((3, 2)), np.array([0, 1, 0]), "Z"),                  # not 3-d
    (np.full((2, 2, 2), np.nan), np.array([0, 1]), "Z"),
])
def test_bad_inputs_name_the_argument(Z, y, name):
    with pytest.raises(RpcheckError, match=f"`{name}`"):
        solve_joint_multiclass(Z, y, 1.0)
