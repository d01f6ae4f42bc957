"""solve_l2svc (LIBLINEAR's default L2-loss SVM): closed form, identities, cvxpy and sklearn cross-checks,
sparse == dense, certificate, input validation.

Every tolerance is derived: the primal of the L2-loss SVM is 1-strongly convex, so for ANY weight vector
v and our certified dual point alpha, ``1/2 ||v - w*||^2 <= P(v) - D(alpha)``. An external solver's w is
therefore compared with ours at ``sqrt(2 (P(v) - D + fp)) + res.w_error_bound`` (no tuned tolerance), and
the test also requires that bound to be small (the external solver is accurate enough for the comparison
to mean something). No test is statistical.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import EPS, SEEDS, rounding, separable_data, soft_data, sparse_soft_data

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import L2SVCResult, liblinear, solve_l2svc, solve_svc


def primal(X, y, C, w, b=0.0, bias=False):
    """The L2-loss primal at (w, b); with ``bias`` the bias is regularised (LIBLINEAR -B 1)."""
    m = y * (np.asarray(X @ w).ravel() + b)
    xi = np.maximum(0.0, 1.0 - m)
    return 0.5 * float(w @ w) + (0.5 * b * b if bias else 0.0) + C * float(xi @ xi)


def wb_distance_bound(res, X, y, w, b=0.0):
    """Certified bound on ||(w, b) - (w_res, b_res)|| (module docstring)."""
    P = primal(X, y, res.C, w, b, res.bias)
    fp = rounding(X.shape[0] + X.shape[1], P + res.primal_objective + float(res.alpha.sum()))
    return math.sqrt(2.0 * max(P - res.objective + fp, 0.0)) + res.w_error_bound, P


def _gap_ok(res):
    assert isinstance(res, L2SVCResult)
    assert res.gap_rel <= 1e-9
    assert res.kkt_pg_rel <= liblinear.L2SVC_KKT_ACCEPT
    assert np.all(res.alpha >= 0)


CASES = [(60, 5, 1.0, "soft"), (80, 10, 10.0, "soft"), (40, 5, 100.0, "separable"), (20, 60, 1.0, "soft"),
         (50, 8, 0.01, "separable")]


def _data(n, d, kind, seed):
    return separable_data(n, d, seed=seed) if kind == "separable" else soft_data(n, d, seed=seed)


# ---------------------------------------------------------------- closed forms and identities


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_symmetric_pair_closed_form(C):
    """x = +-e1, y = +-1: min w^2/2 + 2C (1 - w)^2 gives w = 4C/(1 + 4C), alpha_i = 2C (1 - w)."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1])
    res = solve_l2svc(X, y, C)
    w1 = 4 * C / (1 + 4 * C)
    assert res.w == pytest.approx([w1, 0.0], abs=1e-12)
    assert res.alpha == pytest.approx([2 * C * (1 - w1)] * 2, abs=1e-12)
    assert res.margin == pytest.approx(1 / w1, rel=1e-12)
    _gap_ok(res)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,d,C,kind", CASES)
def test_identities(n, d, C, kind, seed):
    """At the optimum alpha_i = 2C xi_i and sum(alpha) = ||w||^2 + ||alpha||^2/(2C); P = D = ||w||^2/2 +
    C ||xi||^2. Residual of the first: |alpha_i - 2C xi_i| <= 2C max|PG| (for alpha_i > 0, G_i = 0 means
    alpha_i = 2C (1 - y_i f_i)); the sum identity is off by sum_i alpha_i |G_i| <= n * complementarity."""
    X, y = _data(n, d, kind, seed)
    res = solve_l2svc(X, y, C)
    _gap_ok(res)
    assert np.abs(res.alpha - 2 * C * res.slack).max() <= 2 * C * res.kkt_pg + rounding(n, res.alpha.max())
    lhs, rhs = res.alpha.sum(), res.w_norm_sq + res.alpha @ res.alpha / (2 * C)
    assert abs(lhs - rhs) <= n * res.complementarity + rounding(n + d, lhs)
    # the paper's identity ||w||^2 = sum alpha (eq. (3), Sec. 1.1.1) never holds for this loss
    assert lhs - res.w_norm_sq >= 0.5 * (res.alpha @ res.alpha) / (2 * C)


def test_hard_margin_limit_bounds_norm():
    """Separable through the origin: ||w_C|| <= ||w_hard|| for every C (1/2||w_C||^2 <= P*(C) <= P(w_hard)
    = 1/2||w_hard||^2), and the L2-loss w approaches the hard-margin no-bias w (LIBLINEAR -s 3 limit;
    solve_svc(bias=False)) as C grows."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((40, 5))
    u = rng.standard_normal(5)
    y = np.sign(X @ u)
    X += 0.3 * y[:, None] * u[None, :] / np.linalg.norm(u)
    hard = solve_svc(X, y, np.inf, bias=False)
    prev = 0.0
    for C in (0.1, 1.0, 10.0, 1e3):
        res = solve_l2svc(X, y, C)
        assert res.w_norm_sq <= hard.w_norm_sq * (1 + 1e-7)
        assert res.w_norm_sq >= prev * (1 - 1e-9)  # ||w_C|| is non-decreasing in C
        prev = res.w_norm_sq
    assert np.linalg.norm(res.w - hard.w) <= 0.01 * np.linalg.norm(hard.w)


# ---------------------------------------------------------------- independent solvers


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("n,d,C,kind", CASES)
def test_against_cvxpy_clarabel(n, d, C, kind, seed, bias):
    cp = pytest.importorskip("cvxpy")
    X, y = _data(n, d, kind, seed)
    res = solve_l2svc(X, y, C, bias=bias)
    _gap_ok(res)
    w = cp.Variable(d)
    b = cp.Variable() if bias else 0.0
    loss = cp.sum_squares(cp.pos(1 - cp.multiply(y, X @ w + b)))
    obj = 0.5 * cp.sum_squares(w) + (0.5 * cp.square(b) if bias else 0) + C * loss
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver="CLARABEL", tol_gap_abs=1e-14, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert prob.status == "optimal"
    wc, bc = w.value, (float(b.value) if bias else 0.0)
    bound, P = wb_distance_bound(res, X, y, wc, bc)
    assert P >= res.objective - rounding(n + d, P)  # weak duality: no point beats our dual value
    assert res.primal_objective <= P + rounding(n + d, P)  # ours is at least as good as Clarabel's
    assert math.hypot(np.linalg.norm(res.w - wc), res.b - bc) <= bound
    assert bound <= 1e-3 * max(1.0, math.sqrt(res.w_norm_sq + res.b**2))  # the comparison is informative


@pytest.mark.parametrize("dual", [True, False])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("n,d,C,kind", CASES)
def test_against_sklearn_linearsvc(n, d, C, kind, bias, dual):
    """sklearn's LinearSVC(loss="squared_hinge") is LIBLINEAR -s 1 (dual=True) or -s 2 (dual=False, the
    primal trust-region Newton solver Paul et al. used for RCV1); fit_intercept=True with
    intercept_scaling=1 is -B 1 (a regularised bias). Compared up to its own accuracy, derived from its
    primal value as in the module docstring. sklearn must report convergence (n_iter_ < max_iter): at
    tol=1e-12 its dual solver never meets its stopping rule and on (80, 10, C=10, bias) stalls 0.02 away
    from the optimum (measured), so tol=1e-10 is used."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    X, y = _data(n, d, kind, 0)
    res = solve_l2svc(X, y, C, bias=bias)
    max_iter = 100_000
    clf = LinearSVC(penalty="l2", loss="squared_hinge", dual=dual, C=C, tol=1e-10, max_iter=max_iter,
                    fit_intercept=bias, intercept_scaling=1.0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf.fit(X, y)
    assert clf.n_iter_ < max_iter
    ws, bs = clf.coef_.ravel(), (float(clf.intercept_[0]) if bias else 0.0)
    bound, P = wb_distance_bound(res, X, y, ws, bs)
    assert res.primal_objective <= P + rounding(n + d, P)
    assert math.hypot(np.linalg.norm(res.w - ws), res.b - bs) <= bound
    assert bound <= 1e-3 * max(1.0, math.sqrt(res.w_norm_sq + res.b**2))


# ---------------------------------------------------------------- sparse input


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
def test_sparse_equals_dense(seed, bias):
    X, y = sparse_soft_data(120, 40, seed=seed)
    rs = solve_l2svc(X, y, 2.0, bias=bias)
    rd = solve_l2svc(X.toarray(), y, 2.0, bias=bias)
    _gap_ok(rs)
    _gap_ok(rd)
    bound = rs.w_error_bound + rd.w_error_bound
    assert math.hypot(np.linalg.norm(rs.w - rd.w), rs.b - rd.b) <= bound
    assert abs(rs.primal_objective - rd.primal_objective) <= 1e-9 * rd.primal_objective


def test_sparse_not_densified(monkeypatch):
    """The CSR path never calls toarray() on X (only on the active-set Gram matrix, |A| x |A|)."""
    X, y = sparse_soft_data(200, 5000, seed=1, density=0.002)
    seen = []
    orig = sp.csr_matrix.toarray

    def spy(self, *a, **k):
        seen.append(self.shape)
        return orig(self, *a, **k)

    monkeypatch.setattr(sp.csr_matrix, "toarray", spy)
    res = solve_l2svc(X, y, 1.0)
    _gap_ok(res)
    assert all(s[1] != 5000 for s in seen), seen


# ---------------------------------------------------------------- certificate


def test_certificate_rejects_perturbed_point():
    X, y = soft_data(60, 5, seed=0)
    C = 1.0
    res = solve_l2svc(X, y, C)
    dii = 1 / (2 * C)
    good = liblinear._certificate(X, y, np.array(res.alpha), C, dii)
    assert liblinear._accepted(good, 1e-9)
    for a in (res.alpha * 1.01, res.alpha + 1e-3, np.where(res.alpha > 0, 0.0, res.alpha)):
        bad = liblinear._certificate(X, y, a, C, dii)
        assert not liblinear._accepted(bad, 1e-9)
        assert bad["gap"] > 0  # weak duality: any dual point has a positive gap


def test_solver_error_when_not_certified(monkeypatch):
    """A polish that returns a perturbed point and too few DCD epochs: SolverError, never a result."""
    X, y = soft_data(80, 10, seed=1)
    monkeypatch.setattr(liblinear, "_polish", lambda X, y, alpha, C, dii: alpha * 1.05)
    with pytest.raises(SolverError, match="no certified point"):
        solve_l2svc(X, y, 10.0, max_iter=2)


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"C": 0.0}, r"`C` \(0.0\) must be"),
        ({"C": -1.0}, r"`C` \(-1.0\)"),
        ({"C": np.inf}, r"`C` \(inf\) must be a finite"),
        ({"C": float("nan")}, r"`C` \(nan\)"),
        ({"C": "1"}, r"`C` \('1'\)"),
        ({"C": True}, r"`C` \(True\)"),
        ({"C": 1e300}, r"`C` \(1e\+300\) times"),
        ({"tol": 0.0}, r"`tol` \(0.0\) must be in the interval \[1e-15, 0.001\]"),
        ({"tol": 0.1}, r"`tol` \(0.1\)"),
        ({"max_iter": 0}, r"`max_iter` \(0\) must be an integer >= 1"),
        ({"max_iter": 2.5}, r"`max_iter` \(2.5\)"),
        ({"bias": "yes"}, r"`bias` \('yes'\) must be True or False"),
        ({"y": [1, 0, 1, -1]}, r"`y` must contain only the labels -1 and \+1"),
        ({"y": [1, -1, 1]}, r"`y` has length 3 but X has 4 rows"),
        ({"X": [[1.0, np.nan]] * 4}, r"`X`"),
        ({"X": np.zeros((4, 0))}, r"`X` must have at least one column"),
    ],
)
def test_bad_input(kwargs, match):
    args = {"X": np.eye(4, 2), "y": [1, -1, 1, -1], "C": 1.0}
    args.update(kwargs)
    X, y, C = args.pop("X"), args.pop("y"), args.pop("C")
    with pytest.raises(RpcheckError, match=match):
        solve_l2svc(X, y, C, **args)


def test_one_class_and_zero_rows():
    """One class is allowed (no bias constraint); an all-zero X gives w = 0, alpha_i = 2C (G_i = 0)."""
    res = solve_l2svc(np.ones((3, 2)), [1, 1, 1], 1.0)
    _gap_ok(res)
    assert np.all(res.w > 0)
    res0 = solve_l2svc(np.zeros((3, 2)), [1, -1, 1], 0.5)
    assert res0.w == pytest.approx([0.0, 0.0])
    assert res0.alpha == pytest.approx([1.0, 1.0, 1.0], abs=1e-12)
    assert res0.margin == math.inf


def test_result_is_frozen():
    res = solve_l2svc(np.eye(2), [1, -1], 1.0)
    with pytest.raises(ValueError):
        res.w[0] = 1.0
    assert EPS > 0


def test_wide_C_range_low_rank_certified():
    """60 fixed instances (rank 1..min(n, d), n <= 200, d <= 300, C in [1e-3, 1e5], +-bias, offsets):
    every solve is certified. Regression: at C ~ 3e4 on low-rank data the absolute projected gradient
    cannot go below ~1e-6 in float64 (cond(Qbar_AA) ~ 2e10) while the relative gap is ~1e-13; the
    relative KKT criterion accepts those points, an absolute one raised SolverError."""
    rng = np.random.default_rng(7)
    for k in range(60):
        n, d = int(rng.integers(5, 200)), int(rng.integers(2, 300))
        rho = int(rng.integers(1, min(n, d) + 1))
        Z = rng.standard_normal((n, rho))
        X = Z @ np.linalg.qr(rng.standard_normal((d, rho)))[0].T + (3.0 if k % 4 == 0 else 0.0)
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        C = float(10 ** rng.uniform(-3, 5))
        _gap_ok(solve_l2svc(X, y, C, bias=bool(k % 2)))


def test_dcd_alone_certifies_when_polish_is_skipped(monkeypatch):
    """Active sets above MAX_POLISH skip the polish; dual coordinate descent alone then reaches the
    certificate (Hsieh et al. 2008 show it converges linearly) and agrees with the polished solve."""
    X, y = soft_data(80, 6, seed=2)
    ref = solve_l2svc(X, y, 1.0)
    monkeypatch.setattr(liblinear, "MAX_POLISH", 2)
    res = solve_l2svc(X, y, 1.0)
    _gap_ok(res)
    assert not res.polished
    assert np.linalg.norm(res.w - ref.w) <= res.w_error_bound + ref.w_error_bound
