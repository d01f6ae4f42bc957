r"""Dual random projection (Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013): exact oracles, certified solvers.

Conventions (read this first)
-----------------------------
The paper stores the data as ``X_paper in R^{d x n}`` (columns are examples) and uses a projection
``R_paper in R^{d x m}`` with N(0, 1) entries, applying the factor ``1/sqrt(m)`` separately
(``xhat_i = R_paper^T x_i / sqrt(m)``, eq. 5). rpcheck stores data with **rows as examples**,
``X in R^{n x d}`` (``X = X_paper^T``), and every sketch is scaled so that ``E[R R^T] = I_d``
(``rpcheck.sketches``), i.e. ``R = R_paper / sqrt(m)``. With these conventions

- the projected data are ``Xhat = X @ R`` (shape ``(n, m)``), the transpose of the paper's ``Xhat``;
- the projected primal variable ``z`` equals the paper's ``z*`` (eq. 6), the naive solution (10) is
  ``what = R @ z`` and the paper's "random measurements" ``sqrt(m) z* - R_paper^T w*`` (Theorem 1) become
  ``sqrt(m) (z - R^T w*)``;
- the recovery map (12) reads ``wtilde = -(1/lambda) X^T (y * alphahat) = (1/lambda) X^T (y * beta)``
  with the usual SVM multipliers ``beta = -alphahat in [0, 1]^n`` for the hinge loss.

The primal (1) has **no bias** and **summed** losses with weight ``lambda``: in C-form ``C = 1/lambda`` and
the C-form multipliers are ``beta / lambda`` (``rpcheck.svm.solve_svc(X, y, C=1/lam, bias=False)``).

Losses
------
``"square"``: ``l(u) = (1/2)(t - u)^2`` on the prediction ``u = x^T w``. With labels ``t = y in {-1, +1}``
this is the paper's ``(1/2)(1 - y x^T w)^2`` (ridge, Section 4.1, eqs. 14-15); real targets are allowed
(Theorem 6 is checked on regression targets, spec C-A9). Everything is closed form.

``"hinge"``: ``l(u) = max(0, 1 - y u)``. Step 3 of Algorithm 1 (dual from the primal gradient) is
ill-defined at the kink, so the projected **dual** (7) is solved directly (Zhang et al. 2013, Sec. 3 and Sec. 5.2):

.. math::

    \max_{\beta \in [0,1]^n} \; \sum_i \beta_i (1 - c_i)
        - \frac{1}{2\lambda} \lVert \hat X^T (y \circ (\beta - \beta^0)) \rVert^2

(``c = 0, beta^0 = 0`` for Algorithm 1; the Algorithm 2 step otherwise), in factored form (the ``n x n``
Gram matrix is never formed) with Clarabel (posed directly, no cvxpy canonicalisation per solve), followed by a
float64 active-set polish.

``"logistic"``, ``"squared_hinge"``, ``"smoothed_hinge"`` (parameter ``mu``): Algorithm 1 as printed.
The projected primal (6) is solved by :func:`rpcheck.svm.erm.solve_erm` (Newton, certified by its
duality gap), the dual solution is built from the primal by Proposition 2, eq. (9),
``alphahat_i = l'(y_i xhat_i^T z)``, and mapped back by eq. (12). ``z`` is reported as
``-(1/lambda) Xhat^T (y * alphahat)`` (eq. (9)), which equals the Newton iterate up to the certificate.

Certificates
------------
For the smooth losses the certificate is the duality gap of (6)/(7) (:class:`rpcheck.svm.erm.ERMResult`
``.gap``, a rigorous bound on the primal suboptimality of ``z``). For the hinge duals the Frank-Wolfe gap

.. math:: \eta(\beta) = \max_{b \in [0,1]^n} \nabla L(\beta)^T (b - \beta)
          = \sum_i \max(g_i (1 - \beta_i), -g_i \beta_i), \qquad g = \nabla L(\beta),

is computed from the full-precision data (not from the truncated factor). It is zero exactly at the optimum,
bounds the suboptimality ``L(beta*) - L(beta)`` and, for Algorithm 1, equals the primal-dual gap of
(6)/(7). :func:`certified_recovery_bound` turns the gaps of the two duals into a rigorous per-draw version
of Theorem 2 (no tolerance guessed: the only slack comes from the certificate).

References
----------
.. [1] L. Zhang, M. Mahdavi, R. Jin, T. Yang, S. Zhu, "Recovering the optimal solution by dual random
   projection", COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_choice, check_int, check_interval, check_matrix
from ..errors import RpcheckError, SolverError
from ._common import check_solver, run_problem, solver_options, validate_targets
from .erm import ERM_LOSSES, ERMResult, solve_erm

__all__ = [
    "LOSSES",
    "ITERATIVE_LOSSES",
    "HingeDualResult",
    "DRPResult",
    "IterativeDRPResult",
    "ridge_solution",
    "ridge_drp_closed_form",
    "solve_hinge_dual",
    "hinge_dual_gap",
    "drp",
    "iterative_drp",
    "naive_solution",
    "certified_recovery_bound",
]

#: Losses implemented by :func:`drp` (the smooth classification losses through :mod:`rpcheck.svm.erm`).
LOSSES = ("square", "hinge") + ERM_LOSSES
#: Losses implemented by :func:`iterative_drp` (all of :data:`LOSSES`).
ITERATIVE_LOSSES = LOSSES

# Clarabel at tight tolerances: the polish below brings well-conditioned duals to ~1e-13 anyway, and the
# certificate (Frank-Wolfe gap) is what the checkers use, so these only save polish work.
_CLARABEL_TIGHT = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10, "max_iter": 400}
# Threshold for treating a multiplier as sitting at its bound when the active set is guessed for the polish.
_ACTIVE_TOL = 1e-7
# Multipliers within this distance of a bound are moved to it by the polish when the gradient points there
# (interior-point iterates stop ~1e-6 inside the box); the certificate decides whether the move is kept.
_POLISH_BAND = 1e-5


# --------------------------------------------------------------------------------------------- validation
def _check_X(X, name="X"):
    X = check_matrix(name, X, allow_sparse=False)
    return np.ascontiguousarray(X, dtype=np.float64)


def _check_drp_inputs(X, y, lam, R, loss, losses):
    """The shared input contract of :func:`drp` and :func:`iterative_drp` (checked in this order)."""
    check_choice("loss", loss, losses)
    X = _check_X(X)
    n, d = X.shape
    return X, _check_targets(y, n, loss), _check_lam(lam), _check_R(R, d)


def _check_targets(y, n, loss):
    yy = validate_targets(y, n).astype(np.float64)
    if loss != "square" and not np.all(np.isin(yy, (-1.0, 1.0))):
        vals = np.unique(yy)[:5]
        raise RpcheckError(
            f"`y` must contain only the labels -1 and +1 for loss={loss!r}; found values {vals.tolist()}."
        )
    if not np.all(np.isfinite(yy)):
        raise RpcheckError("`y` contains NaN or infinite entries; all entries must be finite.")
    return yy


def _check_lam(lam):
    return check_interval("lam", lam, 0, None, closed="neither")


def _check_R(R, d):
    R = check_matrix("R", R, allow_sparse=True)
    if R.shape[0] != d:
        raise RpcheckError(f"`R` has {R.shape[0]} rows but X has {d} columns; R must have shape (d, m).")
    if hasattr(R, "toarray"):
        R = R.toarray()
    return np.asarray(R, dtype=np.float64)


# --------------------------------------------------------------------------------------- exact oracles
def ridge_solution(X, y, lam, *, form="auto"):
    r"""The exact optimum ``w*`` of the square-loss primal (1), eq. (14) of Zhang et al. 2013.

    .. math::

        w^* = (\lambda I_d + X^T X)^{-1} X^T y = X^T (\lambda I_n + X X^T)^{-1} y

    (rows of ``X`` are examples; the paper's ``(lambda I + X X^T)^{-1} X y`` with ``X`` stored ``d x n``).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
        Labels in {-1, +1} (the paper's ridge example) or real regression targets.
    lam : float
        ``lambda > 0``.
    form : {"auto", "primal", "dual"}, default="auto"
        ``"primal"`` solves the ``d x d`` system, ``"dual"`` the ``n x n`` (Woodbury) system, ``"auto"`` the
        smaller one. Both are solved by Cholesky factorisation of a positive definite matrix.

    Returns
    -------
    ndarray of shape (d,)

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]); y = np.array([1.0, -1.0, 1.0])
    >>> bool(np.allclose(ridge_solution(X, y, 0.5, form="primal"), ridge_solution(X, y, 0.5, form="dual")))
    True
    """
    X = _check_X(X)
    n, d = X.shape
    y = _check_targets(y, n, "square")
    lam = _check_lam(lam)
    check_choice("form", form, ("auto", "primal", "dual"))
    if form == "auto":
        form = "primal" if d <= n else "dual"
    import scipy.linalg as sla

    if form == "primal":
        A = X.T @ X
        A[np.diag_indices_from(A)] += lam
        return sla.solve(A, X.T @ y, assume_a="pos")
    K = X @ X.T
    K[np.diag_indices_from(K)] += lam
    return X.T @ sla.solve(K, y, assume_a="pos")


def ridge_drp_closed_form(X, y, lam, R):
    r"""The DRP solution for the square loss in closed form, eq. (15) of Zhang et al. 2013.

    .. math:: \tilde w = X^T (\lambda I_n + X R R^T X^T)^{-1} y

    (the paper prints ``S`` for ``R``; its ``R`` has N(0,1) entries and carries ``1/m``, ours is scaled so
    that ``E[R R^T] = I``). This is an exact, solver-free oracle for Algorithm 1 with the square loss.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
    lam : float
    R : ndarray or sparse matrix of shape (d, m)

    Returns
    -------
    ndarray of shape (d,)
    """
    X = _check_X(X)
    n, d = X.shape
    y = _check_targets(y, n, "square")
    lam = _check_lam(lam)
    R = _check_R(R, d)
    import scipy.linalg as sla

    Xh = X @ R
    K = Xh @ Xh.T
    K[np.diag_indices_from(K)] += lam
    return X.T @ sla.solve(K, y, assume_a="pos")


# ------------------------------------------------------------------------------------------- hinge dual
@dataclass(frozen=True, eq=False)
class HingeDualResult:
    r"""Solution of a hinge-loss (projected) dual with its certificate.

    The problem is ``max_{beta in [0,1]^n} L(beta) = (1 - c)^T beta - ||F^T (y*(beta - beta0))||^2/(2 lam)``
    with ``F`` the feature matrix it was posed on (``X`` or ``Xhat = X R``).

    Attributes
    ----------
    beta : ndarray of shape (n,)
        Multipliers, exactly in ``[0, 1]`` (clipped; the clip is part of the certified point).
    objective : float
        ``L(beta)`` at the returned point.
    gap : float
        Frank-Wolfe gap ``max_{b in box} grad L(beta)^T (b - beta) >= L(beta*) - L(beta)`` (equal to the
        primal-dual gap when ``c = 0, beta0 = 0``). Zero exactly at an optimum.
    gap_rel : float
        ``gap / max(1, |objective|)``.
    gap_unpolished : float
        The gap at the interior-point solution, before the active-set polish.
    box_violation : float
        Largest violation of ``0 <= beta <= 1`` by the solver's raw output (removed by the clip).
    n_free, n_upper : int
        Numbers of multipliers strictly inside ``(0, 1)`` and at 1 (threshold 1e-7).
    polished : bool
    solver, status : str
    iterations : int
    solve_time : float
    """

    beta: np.ndarray
    objective: float
    gap: float
    gap_rel: float
    gap_unpolished: float
    box_violation: float
    n_free: int
    n_upper: int
    polished: bool
    solver: str
    status: str
    iterations: int
    solve_time: float

    def __post_init__(self):
        self.beta.flags.writeable = False


def _thin_factor(F, y):
    """``M`` (k x n) with ``M^T M = D(y) F F^T D(y)``; k = numerical rank of F (singular values above
    ``s_max * max(n, m) * eps``). Only used to pose the QP; certificates use F itself."""
    P, s, _ = np.linalg.svd(F, full_matrices=False)
    if s.size == 0 or s[0] == 0.0:
        return np.zeros((1, F.shape[0]))
    keep = s > s[0] * max(F.shape) * np.finfo(np.float64).eps
    return (s[keep, None] * P[:, keep].T) * y[None, :]


def _gradient(F, y, lam, beta, lin, beta0):
    """``grad L(beta) = lin - (1/lam) D(y) F F^T D(y) (beta - beta0)`` from the full-precision F."""
    return lin - (y * (F @ (F.T @ (y * (beta - beta0))))) / lam


def _fw_gap(grad, beta):
    return float(np.sum(np.maximum(grad * (1.0 - beta), -grad * beta)))


def _objective(F, y, lam, beta, lin, beta0):
    v = F.T @ (y * (beta - beta0))
    return float(lin @ beta - (v @ v) / (2.0 * lam))


def hinge_dual_gap(F, y, lam, beta, *, c=None, beta0=None):
    r"""Frank-Wolfe (= primal-dual) gap of ``beta`` for the hinge dual posed on features ``F``.

    .. math::

        \eta(\beta) = \sum_i \max(g_i (1 - \beta_i), -g_i \beta_i), \quad
        g = (1 - c) - \lambda^{-1} D(y) F F^T D(y) (\beta - \beta^0)

    Certifies a multiplier vector from any solver, e.g. ``lam * solve_svc(X, y, 1/lam, bias=False).alpha``.

    Parameters
    ----------
    F : ndarray of shape (n, p)
    y : ndarray of shape (n,), labels in {-1, +1}
    lam : float
    beta : ndarray of shape (n,)
        Must lie in ``[0, 1]^n`` (clip first; the gap is only a certificate for feasible points).
    c, beta0 : ndarray of shape (n,), optional
        The Algorithm 2 step data (default zeros: the plain dual (2)/(7)).

    Returns
    -------
    float
    """
    F = _check_X(F, "F")
    n = F.shape[0]
    y = _check_targets(y, n, "hinge")
    lam = _check_lam(lam)
    beta = np.asarray(beta, dtype=np.float64)
    if beta.shape != (n,):
        raise RpcheckError(f"`beta` must have shape ({n},); got {beta.shape}.")
    if np.any(beta < 0) or np.any(beta > 1):
        raise RpcheckError("`beta` must lie in [0, 1]^n; clip it before computing the certificate.")
    lin = 1.0 - (np.zeros(n) if c is None else np.asarray(c, dtype=np.float64))
    b0 = np.zeros(n) if beta0 is None else np.asarray(beta0, dtype=np.float64)
    return _fw_gap(_gradient(F, y, lam, beta, lin, b0), beta)


def _polish(F, M, y, lam, beta, lin, beta0):
    """Active-set polish: fix the multipliers at their bounds, solve grad_F = 0 for the free ones (minimum-
    norm least squares, the dual may be non-unique), keep the result only if it is feasible and certifies
    better. Two rounds (the active set may change once)."""
    best = beta
    best_gap = _fw_gap(_gradient(F, y, lam, beta, lin, beta0), beta)
    cur = beta
    for _ in range(2):
        # Active-set guess: a multiplier near a bound whose gradient pushes it there sits at the bound.
        g_cur = _gradient(F, y, lam, cur, lin, beta0)
        upper = (cur >= 1.0 - _ACTIVE_TOL) | ((cur >= 1.0 - _POLISH_BAND) & (g_cur > 0))
        lower = ~upper & ((cur <= _ACTIVE_TOL) | ((cur <= _POLISH_BAND) & (g_cur < 0)))
        free = ~(upper | lower)
        if not np.any(free):
            break
        trial = np.where(free, cur, np.where(upper, 1.0, 0.0))
        # grad_F = lin_F - (1/lam) (M^T M (trial - beta0))_F = 0  ->  G_FF delta = lam*grad_F(trial)
        g = lin - (M.T @ (M @ (trial - beta0))) / lam
        MF = M[:, free]
        G_FF = MF.T @ MF
        delta = np.linalg.lstsq(G_FF, lam * g[free], rcond=None)[0]
        trial = trial.copy()
        trial[free] += delta
        if np.any(trial < -1e-6) or np.any(trial > 1.0 + 1e-6):
            break  # the guessed active set is wrong; keep the interior-point point
        trial = np.clip(trial, 0.0, 1.0)  # the certificate below is computed at the clipped point
        gap = _fw_gap(_gradient(F, y, lam, trial, lin, beta0), trial)
        if gap < best_gap:
            best, best_gap = trial, gap
        cur = trial
    return best, best_gap


#: Clarabel's statuses as cvxpy names them (``cvxpy``'s Clarabel interface, STATUS_MAP), so a SolverError reads
#: the same whichever path posed the problem.
_CLARABEL_STATUS = {
    "Solved": "optimal",
    "AlmostSolved": "optimal_inaccurate",
    "PrimalInfeasible": "infeasible",
    "DualInfeasible": "unbounded",
    "AlmostPrimalInfeasible": "infeasible_inaccurate",
    "AlmostDualInfeasible": "unbounded_inaccurate",
    "MaxIterations": "user_limit",
    "MaxTime": "user_limit",
}


def _clarabel_box_qp(M, lin, Mb0, lam, opts):
    r"""The hinge dual as Clarabel's conic QP, posed directly (the problem cvxpy would build, without its
    per-call canonicalisation, which cost ~40% of a zhang2013.thm4/thm5 trial): variables ``x = (beta, t)``,

    .. math::

        \min \tfrac{1}{2\lambda} \lVert t\rVert^2 - \mathrm{lin}^T \beta
        \quad\text{s.t.}\quad t - M\beta = -M\beta^0 \text{ (zero cone)},\;
        \beta \le 1,\; -\beta \le 0 \text{ (nonnegative cone)}.

    ``opts`` are Clarabel settings (as cvxpy passes them). Returns ``(status, iterations, beta or None)``
    with cvxpy's status names; a solver crash raises SolverError. The caller certifies ``beta`` (Frank-Wolfe
    gap from the full-precision F), exactly as on the cvxpy path."""
    import clarabel
    import scipy.sparse as sparse

    k, n = M.shape
    P = sparse.block_diag((sparse.csc_matrix((n, n)), sparse.identity(k, format="csc") / lam), format="csc")
    q = np.concatenate([-lin, np.zeros(k)])
    eye_n = sparse.identity(n, format="csc")
    A = sparse.vstack(
        [
            sparse.hstack([sparse.csc_matrix(-M), sparse.identity(k, format="csc")]),
            sparse.hstack([eye_n, sparse.csc_matrix((n, k))]),
            sparse.hstack([-eye_n, sparse.csc_matrix((n, k))]),
        ],
        format="csc",
    )
    b = np.concatenate([-Mb0, np.ones(n), np.zeros(n)])
    cones = [clarabel.ZeroConeT(k), clarabel.NonnegativeConeT(2 * n)]
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    for key, val in opts.items():
        try:
            setattr(settings, key, val)
        except (AttributeError, TypeError) as exc:
            raise RpcheckError(f"`solver_options`: Clarabel has no setting {key!r} = {val!r} ({exc}).") from None
    try:
        sol = clarabel.DefaultSolver(sparse.triu(P, format="csc"), q, A, b, cones, settings).solve()
    except Exception as exc:  # Clarabel's Rust panics and argument errors surface as Python exceptions
        raise SolverError(f"CLARABEL failed: {exc}", status="solver_error", solver="CLARABEL") from exc
    status = _CLARABEL_STATUS.get(str(sol.status), "solver_error")
    x = np.asarray(sol.x, dtype=np.float64)
    beta = x[:n] if status in ("optimal", "optimal_inaccurate") and x.shape == (n + k,) else None
    return status, int(sol.iterations), beta


def solve_hinge_dual(F, y, lam, *, c=None, beta0=None, solver="CLARABEL", polish=True, solver_options_=None):
    r"""Solve the hinge-loss dual (2)/(7) of Zhang et al. 2013, or the dual step of Algorithm 2.

    .. math::

        \max_{\beta \in [0,1]^n} \; (1 - c)^T \beta
            - \frac{1}{2\lambda} \lVert F^T (y \circ (\beta - \beta^0)) \rVert^2

    With ``F = X`` this is the full dual (2) (``G = D(y) X X^T D(y)``, eq. 3); with ``F = X R`` it is the
    projected dual (7) (``Ghat``, eq. 8). Posed in factored form through a thin factor of ``F`` (width
    ``rank(F)``), solved by Clarabel (posed directly, :func:`_clarabel_box_qp`; OSQP and SCS through cvxpy),
    polished in float64 and certified by the Frank-Wolfe gap computed from ``F`` itself.

    Parameters
    ----------
    F : ndarray of shape (n, p)
        Feature matrix, rows are examples.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    lam : float
        ``lambda > 0`` (``C = 1/lambda``).
    c, beta0 : ndarray of shape (n,), optional
        Algorithm 2 step data: ``c_i = y_i x_i^T wtilde_{t-1}``, ``beta0 = beta^{t-1}``. Default zeros.
    solver : {"CLARABEL", "OSQP", "SCS"}, default="CLARABEL"
    polish : bool, default=True
    solver_options_ : dict, optional
        Extra options passed to the solver.

    Returns
    -------
    HingeDualResult

    Raises
    ------
    RpcheckError
        Bad input.
    SolverError
        The solver failed or returned a non-optimal status.
    """
    t0 = time.perf_counter()
    F = _check_X(F, "F")
    n = F.shape[0]
    y = _check_targets(y, n, "hinge")
    lam = _check_lam(lam)
    solver = check_solver(solver)
    c = np.zeros(n) if c is None else _check_targets(c, n, "square")
    b0 = np.zeros(n) if beta0 is None else np.asarray(beta0, dtype=np.float64)
    if b0.shape != (n,) or np.any(b0 < 0) or np.any(b0 > 1):
        raise RpcheckError(f"`beta0` must be a vector of shape ({n},) in [0, 1]^n.")
    lin = 1.0 - c
    M = _thin_factor(F, y)
    opts = solver_options(solver, solver_options_)
    if solver == "CLARABEL":
        opts = {**_CLARABEL_TIGHT, **opts}
        status, iters, raw = _clarabel_box_qp(M, lin, M @ b0, lam, opts)
    else:
        import cvxpy as cp

        beta = cp.Variable(n)
        obj = cp.Maximize(lin @ beta - cp.sum_squares(M @ beta - M @ b0) / (2.0 * lam))
        prob = cp.Problem(obj, [beta >= 0, beta <= 1])
        status, iters = run_problem(prob, solver, opts)
        raw = beta.value
    if status not in ("optimal", "optimal_inaccurate") or raw is None:
        raise SolverError(f"hinge dual: {solver} returned status {status!r}.", status=status, solver=solver)
    raw = np.asarray(raw, dtype=np.float64)
    box_violation = float(max(0.0, -raw.min(), raw.max() - 1.0))
    b = np.clip(raw, 0.0, 1.0)
    gap0 = _fw_gap(_gradient(F, y, lam, b, lin, b0), b)
    polished = False
    gap = gap0
    if polish:
        b_pol, gap_pol = _polish(F, M, y, lam, b, lin, b0)
        if gap_pol < gap0:
            b, gap, polished = b_pol, gap_pol, True
    objective = _objective(F, y, lam, b, lin, b0)
    return HingeDualResult(
        beta=b,
        objective=objective,
        gap=gap,
        gap_rel=gap / max(1.0, abs(objective)),
        gap_unpolished=gap0,
        box_violation=box_violation,
        n_free=int(np.sum((b > _ACTIVE_TOL) & (b < 1 - _ACTIVE_TOL))),
        n_upper=int(np.sum(b >= 1 - _ACTIVE_TOL)),
        polished=polished,
        solver=solver,
        status=status,
        iterations=iters,
        solve_time=time.perf_counter() - t0,
    )


# ------------------------------------------------------------------------------------------ Algorithm 1
@dataclass(frozen=True, eq=False)
class DRPResult:
    r"""Output of Algorithm 1 (dual random projection).

    Attributes
    ----------
    w_tilde : ndarray of shape (d,)
        The recovered solution (12), ``(1/lambda) X^T dual_coef``; lies in the row space of X.
    w_naive : ndarray of shape (d,)
        The naive solution (10), ``R z``; lies in span(R).
    z : ndarray of shape (m,)
        Optimum of the projected primal (6) (equals the paper's ``z*``); ``z = R^T w_tilde`` (Prop. 2).
    dual_coef : ndarray of shape (n,)
        ``w_tilde = X^T dual_coef / lambda``: ``y * beta`` (hinge) or ``t - Xhat z`` (square).
    alpha : ndarray of shape (n,)
        The paper's dual variables ``alphahat*`` (sign convention ``alpha <= 0`` for classification):
        ``-beta`` (hinge), ``y * Xhat z - 1`` for labels / ``Xhat z - t`` for real targets (square).
    beta : ndarray of shape (n,) or None
        Multipliers ``-alpha >= 0`` (hinge: in ``[0, 1]``; also set for the smooth classification losses).
    dual : HingeDualResult, ERMResult or None
        The certified projected solve (hinge: the dual (7); smooth losses: the primal (6) with its duality
        gap; None for the closed-form square loss). ``dual.gap`` bounds the projected problem's
        suboptimality in both cases.
    loss : str
    lam : float
    """

    w_tilde: np.ndarray
    w_naive: np.ndarray
    z: np.ndarray
    dual_coef: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray | None
    dual: HingeDualResult | ERMResult | None
    loss: str
    lam: float


class _SquareSolver:
    """``(lam I + Xh^T Xh)^{-1}`` applied through the thin SVD of ``Xh`` (valid for any m vs n)."""

    def __init__(self, Xh, lam):
        _, s, Qt = np.linalg.svd(Xh, full_matrices=False)
        self.Q = Qt.T
        self.w = 1.0 / (lam + s**2)
        self.lam = lam

    def solve(self, b):
        qb = self.Q.T @ b
        return self.Q @ (self.w * qb) + (b - self.Q @ qb) / self.lam


def _is_labels(y):
    return bool(np.all(np.isin(y, (-1.0, 1.0))))


def drp(X, y, lam, R, *, loss="square", solver="CLARABEL", polish=True, mu=1.0):
    r"""Algorithm 1 of Zhang et al. 2013 (dual random projection).

    1. ``Xhat = X R`` (eq. 5 in rows-as-examples form);
    2. solve the projected problem (6)/(7): closed form for ``"square"``, the certified projected dual for
       ``"hinge"``, the certified primal (6) (:func:`rpcheck.svm.erm.solve_erm`) for the smooth losses;
    3. the dual solution ``alphahat*`` (Prop. 2, eq. 9);
    4. recover ``wtilde = -(1/lambda) X^T (y * alphahat*)`` (eq. 12).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Data, rows are examples (the paper's ``X`` transposed).
    y : ndarray of shape (n,)
        Labels in {-1, +1}; real targets are allowed for ``loss="square"``.
    lam : float
        ``lambda > 0``.
    R : ndarray or sparse matrix of shape (d, m)
        Projection scaled so that ``E[R R^T] = I`` (the paper's ``R / sqrt(m)``).
    loss : {"square", "hinge", "logistic", "squared_hinge", "smoothed_hinge"}, default="square"
    solver : str, default="CLARABEL"
        cvxpy solver for the hinge dual.
    polish : bool, default=True
    mu : float, default=1.0
        Smoothing parameter of ``"smoothed_hinge"`` (ignored otherwise).

    Returns
    -------
    DRPResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 3)) @ rng.standard_normal((3, 50)); y = np.sign(X[:, 0])
    >>> R = rng.standard_normal((50, 20)) / np.sqrt(20)
    >>> res = drp(X, y, 1.0, R)
    >>> bool(np.allclose(res.w_tilde, ridge_drp_closed_form(X, y, 1.0, R)))
    True
    """
    X, y, lam, R = _check_drp_inputs(X, y, lam, R, loss, LOSSES)
    n, d = X.shape
    Xh = X @ R
    if loss == "square":
        z = _SquareSolver(Xh, lam).solve(Xh.T @ y)
        coef = y - Xh @ z
        alpha = y * (Xh @ z) - 1.0 if _is_labels(y) else -coef
        beta = None
        dual = None
    elif loss in ERM_LOSSES:
        dual = solve_erm(Xh, y, lam, loss, mu=mu)  # (6), certified
        alpha = np.array(dual.alpha)  # eq. (9): alphahat_i = l'(y_i xhat_i^T z)
        beta = -alpha
        coef = y * beta
        z = (Xh.T @ coef) / lam  # eq. (9), z = -(1/lambda) Xhat^T D(y) alphahat
    else:
        dual = solve_hinge_dual(Xh, y, lam, solver=solver, polish=polish)
        beta = np.array(dual.beta)
        coef = y * beta
        alpha = -beta
        z = (Xh.T @ coef) / lam
    w_tilde = (X.T @ coef) / lam
    return DRPResult(
        w_tilde=w_tilde,
        w_naive=R @ z,
        z=z,
        dual_coef=coef,
        alpha=alpha,
        beta=beta,
        dual=dual,
        loss=loss,
        lam=lam,
    )


def naive_solution(R, z):
    r"""The naive solution (10) ``what = R_paper z* / sqrt(m) = R z`` (our ``R`` carries ``1/sqrt(m)``)."""
    R = check_matrix("R", R)
    z = np.asarray(z, dtype=np.float64)
    if z.shape != (R.shape[1],):
        raise RpcheckError(f"`z` must have shape ({R.shape[1]},) to match `R` {R.shape}; got {z.shape}.")
    return np.asarray(R @ z)


# ------------------------------------------------------------------------------------------ Algorithm 2
@dataclass(frozen=True, eq=False)
class IterativeDRPResult:
    r"""Output of Algorithm 2 (iterative DRP) with one projection ``R`` for every iteration.

    Attributes
    ----------
    w_path : ndarray of shape (T + 1, d)
        ``wtilde_0 = 0, wtilde_1, ..., wtilde_T``; ``wtilde_1`` is Algorithm 1's output.
    dual_coef_path : ndarray of shape (T + 1, n)
        Cumulative dual coefficients, ``wtilde_t = X^T dual_coef_path[t] / lambda``.
    gaps : ndarray of shape (T,)
        Frank-Wolfe gap of each hinge dual step, certified duality gap of each smooth-loss step (zeros for
        the closed-form square loss).
    steps : tuple of HingeDualResult or ERMResult
        The certified step solves (hinge and smooth losses).
    loss : str
    lam : float
    """

    w_path: np.ndarray
    dual_coef_path: np.ndarray
    gaps: np.ndarray
    steps: tuple = field(default=())
    loss: str = "square"
    lam: float = 1.0

    @property
    def w_tilde(self):
        return self.w_path[-1]


def iterative_drp(X, y, lam, R, n_iter, *, loss="square", solver="CLARABEL", polish=True, mu=1.0):
    r"""Algorithm 2 of Zhang et al. 2013 (iterative dual random projection), one ``R`` throughout.

    Reconstruction (from Zhang et al. 2013, Sec. 5.2): ``wtilde_0 = 0``; for ``t = 1..T``, with
    ``c_i = y_i x_i^T wtilde_{t-1}``, solve the step problem (13)

    .. math::

        z_t = \arg\min_z \frac{\lambda}{2} \lVert z + R^T \tilde w_{t-1} \rVert^2
              + \sum_i \ell(y_i \hat x_i^T z + c_i)

    and set ``wtilde_t = -(1/lambda) X^T (y * alphahat^t)`` with the cumulative dual
    ``alphahat^t_i = l'(y_i xhat_i^T z_t + c_i)`` (equivalently ``wtilde_t = wtilde_{t-1} + Deltatilde_t``).
    For the smooth losses the step (13) is solved by :func:`rpcheck.svm.erm.solve_erm` in the variable
    ``u = z + R^T wtilde_{t-1}`` with margin offsets ``o_i = c_i - y_i xhat_i^T R^T wtilde_{t-1}`` (then
    ``l(y_i xhat_i^T z + c_i) = l(y_i xhat_i^T u + o_i)`` and the regulariser is ``(lambda/2)||u||^2``), and
    its certified dual is the cumulative ``alphahat^t``. For the hinge loss the step is solved in the dual,
    ``beta^t = argmax_{[0,1]^n} (1 - c)^T beta - ||Xhat^T (y*(beta - beta^{t-1}))||^2 / (2 lambda)``.
    ``w*`` is a fixed point. For real targets ``t`` (square loss) ``y_i x^T w`` is replaced by ``x^T w``.

    Parameters
    ----------
    X, y, lam, R, loss, solver, polish, mu
        As in :func:`drp`.
    n_iter : int
        ``T >= 1``.

    Returns
    -------
    IterativeDRPResult
    """
    X, y, lam, R = _check_drp_inputs(X, y, lam, R, loss, ITERATIVE_LOSSES)
    n, d = X.shape
    T = check_int("n_iter", n_iter, 1)
    Xh = X @ R
    w_path = np.zeros((T + 1, d))
    coef_path = np.zeros((T + 1, n))
    gaps = np.zeros(T)
    steps = []
    if loss == "square":
        sq = _SquareSolver(Xh, lam)
        for t in range(1, T + 1):
            w_prev = w_path[t - 1]
            resid = y - X @ w_prev  # t - X wtilde_{t-1}
            z = sq.solve(Xh.T @ resid - lam * (R.T @ w_prev))
            coef_path[t] = resid - Xh @ z
            w_path[t] = (X.T @ coef_path[t]) / lam
    elif loss in ERM_LOSSES:
        for t in range(1, T + 1):
            w_prev = w_path[t - 1]
            c = y * (X @ w_prev)
            s_prev = R.T @ w_prev
            res = solve_erm(Xh, y, lam, loss, mu=mu, offset=c - y * (Xh @ s_prev))
            steps.append(res)
            gaps[t - 1] = res.gap
            coef_path[t] = -y * np.asarray(res.alpha)  # cumulative alphahat^t (eq. (23) with (12))
            w_path[t] = (X.T @ coef_path[t]) / lam
    else:
        beta_prev = np.zeros(n)
        for t in range(1, T + 1):
            c = y * (X @ w_path[t - 1])
            res = solve_hinge_dual(Xh, y, lam, c=c, beta0=beta_prev, solver=solver, polish=polish)
            steps.append(res)
            gaps[t - 1] = res.gap
            beta_prev = np.array(res.beta)
            coef_path[t] = y * beta_prev
            w_path[t] = (X.T @ coef_path[t]) / lam
    for a in (w_path, coef_path, gaps):
        a.flags.writeable = False
    return IterativeDRPResult(
        w_path=w_path, dual_coef_path=coef_path, gaps=gaps, steps=tuple(steps), loss=loss, lam=lam
    )


# --------------------------------------------------------------------------------- certified Theorem 2
def certified_recovery_bound(eps, target_norm, gap, lam):
    r"""Per-draw bound on ``||wtilde - w*||`` certified by the dual gaps (deterministic Theorem 2).

    From first-order optimality of the two duals up to their Frank-Wolfe gaps ``eta = eta_full + eta_proj``
    (the derivation of inequality (21) with the gaps carried along; Zhang et al. 2013, proof of Theorem 2):

    .. math::

        \lVert R^T e \rVert^2 \le \epsilon \lVert p \rVert \lVert e \rVert + \eta/\lambda, \qquad
        (1-\epsilon) \lVert e \rVert^2 \le \epsilon \lVert p \rVert \lVert e \rVert + \eta/\lambda,

    where ``e = wtilde - w*``, ``p = w*`` (Algorithm 1) or ``w* - wtilde_{t-1}`` (Algorithm 2 step), and
    ``eps = ||U^T R R^T U - I||`` on the row space of X. Hence

    .. math::

        \lVert e \rVert \le \frac{\epsilon \lVert p \rVert
            + \sqrt{\epsilon^2 \lVert p \rVert^2 + 4 (1-\epsilon) \eta / \lambda}}{2 (1 - \epsilon)},

    which is exactly ``eps/(1-eps) ||p||`` when ``eta = 0``.

    Parameters
    ----------
    eps : float
        In ``[0, 1)``.
    target_norm : float
        ``||p||``.
    gap : float
        ``eta >= 0`` (sum of the two duals' Frank-Wolfe gaps; 0 for exact closed forms).
    lam : float

    Returns
    -------
    float

    Examples
    --------
    >>> certified_recovery_bound(0.5, 2.0, 0.0, 1.0)
    2.0
    """
    eps = check_interval("eps", eps, 0, 1, closed="left")
    target_norm = check_interval("target_norm", target_norm, 0, None)
    gap = check_interval("gap", gap, 0, None)
    lam = _check_lam(lam)
    a = eps * target_norm
    return (a + math.sqrt(a * a + 4.0 * (1.0 - eps) * gap / lam)) / (2.0 * (1.0 - eps))
