r"""The hinge-loss dual of Zhang et al. 2013 ((2)/(7), and the dual step of Algorithm 2): Clarabel posed directly
(OSQP and SCS through cvxpy), a float64 active-set polish, and the Frank-Wolfe gap as its certificate, computed
from the full-precision features. Conventions (rows as examples, ``R`` scaled so that ``E[R R^T] = I``) are those
of :mod:`rpcheck.svm.drp`, which re-exports :func:`solve_hinge_dual`, :func:`hinge_dual_gap` and
:class:`HingeDualResult`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import RpcheckError, SolverError
from ._common import check_solver, run_problem, solver_options
from ._drp_inputs import _check_lam, _check_targets, _check_X

# Clarabel at tight tolerances: the polish below brings well-conditioned duals to ~1e-13 anyway, and the
# certificate (Frank-Wolfe gap) is what the checkers use, so these only save polish work.
_CLARABEL_TIGHT = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10, "max_iter": 400}
# Threshold for treating a multiplier as sitting at its bound when the active set is guessed for the polish.
_ACTIVE_TOL = 1e-7
# Multipliers within this distance of a bound are moved to it by the polish when the gradient points there
# (interior-point iterates stop ~1e-6 inside the box); the certificate decides whether the move is kept.
_POLISH_BAND = 1e-5


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
    per-call canonicalisation, which costs ~40% of a zhang2013.thm4/thm5 trial): variables ``x = (beta, t)``,

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
