r"""Exact linear SVM classification (Paul et al. 2014, eq. 3) with a KKT certificate.

The dual

.. math::

    Z = \max_{\alpha}\ 1^T\alpha - \tfrac12 \|X^T Y \alpha\|_2^2
    \quad\text{s.t.}\quad y^T\alpha = 0\ (\text{bias}),\quad 0 \le \alpha \le C

is posed to cvxpy in factored form (``sum_squares(G^T (y * alpha))`` with ``G G^T = X X^T``) so the
n x n Gram matrix is never formed, solved by an interior-point method (Clarabel by default), and then
*polished*: the free support vectors are identified and the KKT linear system of the equality-constrained
QP on the free set is solved in float64. The polished point is kept only when it is feasible and its
KKT residuals are no worse. Every returned quantity is recomputed from the returned ``alpha``.

Along a C path on the same data (the C grid of one cross-validation fold), ``warm_start`` hands the previous
result's free and bounded sets to the same float64 active-set method at the new C; its point is returned only
when it passes the certificate at 1e-9 relative (else the cold solve runs unchanged). On 13,494 x 256
projections of the rcv1-binary stand-in (lei2020.sparse_scale) the warm point was accepted at all ten C values
after the first of the paper's grid 2^-5..2^5 (0.04-0.10 s against 0.8-1.4 s cold; w equal to 3e-15 relative).

``solver="DCD"`` solves the same dual without densifying a sparse X: dual coordinate descent (Hsieh et al. 2008)
inside a method of multipliers for ``y^T alpha = 0`` (Rockafellar 1976), compiled (``rpcheck.svm._dcd_svc``); its
points go through the same :func:`_finalize` (certificate, polish on CSR rows kept sparse). See ``_solve_dcd``.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.optimize import linprog

from .._threads import single_thread_blas
from ..errors import NotSeparableError, RpcheckError, SolverError
from ._common import (
    DEFAULT_SOLVER,
    FALLBACK_SOLVER,
    SOLVERS,
    check_finite_outputs,
    check_solver,
    factor_rows,
    max_row_norm,
    run_problem,
    validate_bool,
    validate_C,
    validate_C_scale,
    validate_labels,
    validate_X,
)
from ._common import solver_options as _solver_options
from ._results import SVCResult
from .kkt import decision_values, svc_kkt_residuals

__all__ = ["solve_svc", "SVCProblem", "SVC_SOLVERS", "DCD_OPTIONS"]

#: Solvers of :func:`solve_svc`: the shared ones of ``rpcheck.svm._common.SOLVERS`` plus "DCD" (this module's
#: dual coordinate descent with a method-of-multipliers loop on ``y^T alpha = 0``; sparse-safe).
SVC_SOLVERS = SOLVERS + ("DCD",)
#: ``solver_options`` keys of ``solver="DCD"`` and their defaults: ``tol`` (largest |projected gradient| and
#: largest bias step, in margin units, at which the first certificate is tried; in [1e-15, 1e-3]),
#: ``max_iter`` (DCD epochs in all, >= 1).
DCD_OPTIONS = {"tol": 1e-9, "max_iter": 100_000}

# Relative threshold that separates alpha_i = 0 / alpha_i = C from free support vectors when the
# interior-point solution (accurate to ~1e-8 relative) is classified for polishing and for b.
_SET_TOL = 1e-6
# The separable-regime certificate (KKT conditions of eq. (3)): max alpha < C (1 - 1e-6) and xi = 0.
_ZERO_SLACK_ALPHA = 1e-6
# Polishing forms the |F| x |F| Gram of the free set; above this size it is skipped (reported).
_MAX_POLISH_FREE = 4000
# The polish tries a second guess of the free set only while the best point is above this level
# (float64 rounding of the residuals themselves is ~1e-15..1e-13).
_GOOD_ENOUGH = 1e-12
# A warm start's active-set method (``_solve_warm``) gives up -- and the cold solve runs -- once its free set
# exceeds max(_WARM_MAX_GROWTH * max(|F| of the warm result, d + 2), _WARM_FREE_FLOOR). A guess that is right
# keeps its free set nearly unchanged (the certified result has at most about d + 1 free points on generic
# data); a wrong one adds hundreds of margin violators at once and then cycles through max_rounds of
# O(|F| d^2) solves without certifying. Below the floor a round is at most a 513-square least-squares solve, so
# small problems are never cut (measured along Table 2 C paths: benchmarks/warm_guard_bench.py loses no
# accepted warm start). Performance only: the returned point is certified either way.
_WARM_MAX_GROWTH = 4
_WARM_FREE_FLOOR = 512
# A point whose relative KKT residual is above this is not a certified optimum: SolverError.
_ACCEPT_REL = 1e-5
# A warm-started point (``solve_svc(..., warm_start=...)``) is returned only when its relative KKT residual
# is at most this (stricter than _ACCEPT_REL, at the level the cold IPM path itself calls optimal before its
# polish); otherwise the cold path runs, unchanged.
_WARM_ACCEPT = 1e-9


def _rows(X, idx):
    """Rows ``idx`` of X as a dense float64 array."""
    R = X[idx]
    return R.toarray() if sp.issparse(R) else np.asarray(R)


def _rows_sparse_safe(X, idx):
    """Rows ``idx`` of X, kept CSR when X is sparse (the DCD path: X is never densified); dense rows as
    :func:`_rows` otherwise."""
    return X[idx] if sp.issparse(X) else _rows(X, idx)


def _transpose_times(X, v):
    """``X^T v`` as a dense vector, for dense or sparse X."""
    return np.asarray(X.T @ v, dtype=np.float64).ravel()


def _sets(alpha, C):
    amax = float(np.max(alpha, initial=0.0))
    lo_tol = _SET_TOL * amax
    at_upper = np.zeros(alpha.shape, bool) if np.isinf(C) else alpha >= C * (1.0 - _SET_TOL)
    at_lower = alpha <= lo_tol
    free = ~(at_lower | at_upper)
    return free, at_upper


def pl_argmin(p, q):
    r"""Exact minimiser of :math:`h(b) = \sum_i (p_i - b)_+ + \sum_j (b - q_j)_+` (argmin midpoint).

    ``h`` is convex piecewise linear with slope :math:`-\#\{i: b < p_i\} + \#\{j: b > q_j\}`; its
    minimisers are the breakpoints where the left slope is <= 0 <= the right slope (and the segment
    between the extreme ones). Both ``p`` and ``q`` must be non-empty.
    """
    p = np.sort(p)
    q = np.sort(q)
    cand = np.concatenate([p, q])
    left = -(p.size - np.searchsorted(p, cand, side="left")) + np.searchsorted(q, cand, side="left")
    right = -(p.size - np.searchsorted(p, cand, side="right")) + np.searchsorted(q, cand, side="right")
    ok = (left <= 0) & (right >= 0)
    if not np.any(ok):  # cannot happen when both p and q are non-empty; defensive
        return float(np.median(cand))
    return 0.5 * (float(np.min(cand[ok])) + float(np.max(cand[ok])))


def _hinge_argmin_b(g, y):
    """Exact minimiser over b of the hinge sum ``sum_i (1 - y_i (g_i + b))_+`` for fixed ``g = X w``."""
    return pl_argmin(1.0 - g[y > 0], -1.0 - g[y < 0])


def _bias(g, y, alpha, C):
    """b from the free SVs (median of ``y_i - g_i``) or, when none is free, the exact hinge minimiser.

    Returns ``(b, method)``.
    """
    free, _ = _sets(alpha, C)
    if np.any(free):
        return float(np.median(y[free] - g[free])), "median"
    return _hinge_argmin_b(g, y), "interval"


def _solve_free_lowrank(A, yF, bias, rhs, z0):
    """:func:`_solve_free` through the factored system, for ``m`` free points in ``k`` dimensions, m >> k.

    With ``A = Y_F X_F`` (m x k) the KKT matrix is ``M = [[A A^T, y_F], [y_F^T, 0]] = P K P^T``, where
    ``P = [[A, y_F, 0], [0, 0, 1]]`` ((m+1) x (k+2)) and ``K = diag(I_k, [[0, 1], [1, 0]])`` (without bias:
    ``M = A A^T``, ``P = A``, ``K = I_k``). With the thin QR ``P = Q R`` (Q orthonormal columns),
    ``M = Q N Q^T`` with ``N = R K R^T``, so ``M^+ = Q N^+ Q^T`` (the Penrose conditions carry over) and the
    minimum-norm least-squares correction is ``Q u``, ``u`` the minimum-norm solution of
    ``N u = Q^T (r - M z0)``: O(m k^2) instead of the O(m^3) of the (m+1)-square system, the same solution in
    exact arithmetic, and the same rank cut (LAPACK's gelsy at rcond = eps: N has M's nonzero singular
    values)."""
    m, k = A.shape
    if bias:
        P = np.zeros((m + 1, k + 2))
        P[:m, :k] = A
        P[:m, k] = yF
        P[m, k + 1] = 1.0
        perm = np.r_[np.arange(k), k + 1, k]  # K swaps the last two coordinates: R K = R[:, perm]
    else:
        P = A
        perm = np.arange(k)
    Mz0 = P @ (P.T @ z0)[perm]
    Q, R = np.linalg.qr(P)
    N = R[:, perm] @ R.T
    u = sla.lstsq(N, Q.T @ (rhs - Mz0), lapack_driver="gelsy")[0]
    return z0 + Q @ u


def _solve_free(X, y, F, U, C, bias, z0, rows=_rows):
    """Minimum-norm correction of ``z0 = (alpha_F, b)`` solving the KKT equalities on the free set F.

    ``rows``: :func:`_rows` (dense rows, the IPM / cvxpy paths) or :func:`_rows_sparse_safe` (the DCD path:
    CSR rows stay sparse; only the |F| x |F| Gram matrix is formed densely)."""
    XF = rows(X, F)
    yF = y[F]
    wU = _transpose_times(X[U], y[U] * C) if U.size else np.zeros(X.shape[1])
    rhs = 1.0 - yF * np.asarray(XF @ wU).ravel() if sp.issparse(XF) else 1.0 - yF * (XF @ wU)
    r = np.concatenate([rhs, [-(C * float(np.sum(y[U])) if U.size else 0.0)]]) if bias else rhs
    if sp.issparse(XF):
        try:
            if F.size + 1 > 2 * (XF.shape[1] + 2):  # low rank (d < |F| / 2 <= 2000 columns): a small dense factor
                return _solve_free_lowrank(yF[:, None] * XF.toarray(), yF, bias, r, z0)
            M = (yF[:, None] * yF[None, :]) * (XF @ XF.T).toarray()
            if bias:
                M = np.block([[M, yF[:, None]], [yF[None, :], np.zeros((1, 1))]])
            return z0 + sla.lstsq(M, r - M @ z0, lapack_driver="gelsy")[0]
        except (np.linalg.LinAlgError, ValueError):
            return None
    try:
        if F.size + 1 > 2 * (XF.shape[1] + 2):  # low rank: factored system (m >> k)
            return _solve_free_lowrank(yF[:, None] * XF, yF, bias, r, z0)
        M = (yF[:, None] * yF[None, :]) * (XF @ XF.T)
        if bias:
            M = np.block([[M, yF[:, None]], [yF[None, :], np.zeros((1, 1))]])
        return z0 + sla.lstsq(M, r - M @ z0, lapack_driver="gelsy")[0]
    except (np.linalg.LinAlgError, ValueError):
        return None


def _polish(X, y, alpha, b, C, bias, free, *, max_rounds=25, rows=_rows, max_free=_MAX_POLISH_FREE):
    """Solve the KKT system on the free set ``free`` (alpha_U = C, alpha_L = 0 fixed), in float64.

    For i in F: ``y_i (x_i^T w + b) = 1`` with ``w = X_F^T Y_F alpha_F + X_U^T Y_U C``, plus
    ``y_F^T alpha_F + C y_U^T 1 = 0`` with bias. The correction to the interior-point point is the
    minimum-norm least-squares solution, so singular (degenerate) free sets stay close to it. When the
    solution leaves the box, the offending indices move to the bound they crossed and the system is
    solved again (a few rounds of a primal active-set method). The caller accepts the result only if
    its KKT residuals are no worse. Returns ``(alpha_new, b_new)`` or None (also when the free set grows
    past ``max_free``).
    """
    hard = np.isinf(C)
    n = alpha.size
    _, at_upper = _sets(alpha, C)
    F = np.flatnonzero(free)
    U = np.flatnonzero(at_upper & ~free)
    upper = np.inf if hard else C
    aF0, b0 = alpha[F].copy(), b
    for _ in range(max_rounds):
        if F.size > max_free:
            return None
        if F.size:
            z0 = np.concatenate([aF0, [b0]]) if bias else aF0
            z = _solve_free(X, y, F, U, C, bias, z0, rows)
            if z is None:
                return None
            aF = z[: F.size]
            amax = max(float(np.max(np.abs(aF), initial=0.0)), 1e-300)
            low = aF < -1e-12 * amax
            high = aF > upper + 1e-12 * amax
            bF = float(z[-1]) if bias else 0.0
            if not (np.any(low) or np.any(high)):
                # an inconsistent system (e.g. a zero row x_i = 0 without bias) leaves margins != 1:
                # the point belongs to a bound (margin < 1: alpha_i = C; margin > 1: alpha_i = 0)
                a_try = np.zeros(n)
                a_try[U] = C
                a_try[F] = aF
                mF = y[F] * decision_values(rows(X, F), _transpose_times(X, y * a_try), bF)
                off = np.abs(mF - 1.0) > 1e-8
                low, high = off & (mF > 1.0), off & (mF < 1.0) & (not hard)
            if np.any(low) or np.any(high):  # active-set update, then solve again
                U = np.sort(np.concatenate([U, F[high]]))
                keep = ~(low | high)
                F, aF0, b0 = F[keep], np.clip(aF[keep], 0.0, upper), bF
                continue
        a_new = np.zeros(n)
        a_new[U] = C
        if F.size:
            a_new[F] = np.clip(aF, 0.0, upper)
        w = _transpose_times(X, y * a_new)
        g = decision_values(X, w, 0.0)
        if not bias:
            b_new = 0.0
        elif F.size:
            b_new = bF
        else:
            b_new = _hinge_argmin_b(g, y)
        # the fixed sets must be KKT-consistent: alpha_i = 0 needs margin >= 1, alpha_i = C margin <= 1
        m = y * (g + b_new)
        inL = np.ones(n, bool)
        inL[F] = False
        inL[U] = False
        viol_L = inL & (m < 1.0 - 1e-9)
        viol_U = np.zeros(n, bool)
        viol_U[U] = m[U] > 1.0 + 1e-9
        if not (np.any(viol_L) or np.any(viol_U)):
            return a_new, b_new
        add = np.flatnonzero(viol_L | viol_U)
        U = U[~viol_U[U]]
        F = np.sort(np.concatenate([F, add]))
        aF0, b0 = a_new[F], b_new
    return None


def _finalize(X, y, alpha_raw, C, bias, polish, solver, status, iterations, t0, rows=_rows):
    hard = np.isinf(C)
    alpha = np.clip(np.asarray(alpha_raw, dtype=np.float64).ravel(), 0.0, None if hard else C)
    w = _transpose_times(X, y * alpha)
    g = decision_values(X, w, 0.0)
    if bias:
        b, bias_method = _bias(g, y, alpha, C)
    else:
        b, bias_method = 0.0, "none"
    kkt0, xi, P, D = svc_kkt_residuals(X, y, alpha, w, b, C, bias=bias)
    best = (alpha, w, b, bias_method, kkt0, xi, P, D)
    polished = False
    if polish:
        free_a, _ = _sets(alpha, C)
        yf = y * (g + b)
        # a second guess of the free set from the margins (|y_i f_i - 1| small, alpha not at C)
        _, at_upper = _sets(alpha, C)
        free_m = (np.abs(yf - 1.0) <= 1e-6 * max(1.0, float(np.max(np.abs(yf))))) & ~at_upper
        tried = []
        for free in (free_a, free_m):
            if any(np.array_equal(free, t) for t in tried) or best[4].max_relative <= _GOOD_ENOUGH:
                continue
            tried.append(free)
            out = _polish(X, y, alpha, b, C, bias, free, rows=rows)
            if out is None:
                continue
            a1, b1 = out
            w1 = _transpose_times(X, y * a1)
            kkt1, xi1, P1, D1 = svc_kkt_residuals(X, y, a1, w1, b1, C, bias=bias)
            if kkt1.max_relative <= best[4].max_relative:
                best = (a1, w1, b1, "kkt" if bias else "none", kkt1, xi1, P1, D1)
                polished = True
    alpha, w, b, bias_method, kkt, xi, P, D = best
    if hard and kkt.primal_rel > _ACCEPT_REL:
        # the hard-margin dual did not report unboundedness but the point is not primal feasible:
        # decide separability exactly by an LP before blaming the solver
        if not _separable_lp(X, y, bias):
            raise NotSeparableError(
                "hard margin (C=inf) on data that are not linearly separable"
                + (" (with bias)" if bias else " through the origin (bias=False)"),
                status=status, solver=solver,
            )
    if kkt.max_relative > _ACCEPT_REL:
        raise SolverError(
            f"{solver} returned status {status!r} but the KKT certificate fails: max relative residual "
            f"{kkt.max_relative:.2e} > {_ACCEPT_REL:g} ({kkt})",
            status=status, solver=solver,
        )
    w_norm_sq = float(np.dot(w, w))
    check_finite_outputs(
        "solve_svc", f"n={X.shape[0]}, d={X.shape[1]}, C={C:g}, bias={bias}",
        alpha=alpha, w=w, b=b, objective=D, primal_objective=P, w_norm_sq=w_norm_sq,
    )
    free, at_upper = _sets(alpha, C)
    p_scale = max(1.0, float(np.max(np.abs(y * decision_values(X, w, b)), initial=0.0)))
    slack_tol = p_scale * max(1e-8, kkt.max_relative)
    amax = float(np.max(alpha, initial=0.0))
    below_box = hard or amax < C * (1.0 - _ZERO_SLACK_ALPHA)
    zero_slack = bool(below_box and float(np.max(xi, initial=0.0)) <= slack_tol)
    return SVCResult(
        alpha=alpha,
        w=w,
        b=float(b),
        objective=float(D),
        primal_objective=float(P),
        w_norm_sq=w_norm_sq,
        alpha_sum=float(np.sum(alpha)),
        slack=xi,
        margin=float(1.0 / np.sqrt(w_norm_sq)) if w_norm_sq > 0 else float("inf"),
        zero_slack=zero_slack,
        slack_tol=float(slack_tol),
        n_free=int(np.count_nonzero(free)),
        n_bounded=int(np.count_nonzero(at_upper)),
        bias_method=bias_method,
        kkt=kkt,
        kkt_unpolished=kkt0,
        polished=polished,
        C=float(C),
        bias=bool(bias),
        solver=solver,
        status=status,
        iterations=int(iterations),
        solve_time=time.perf_counter() - t0,
    )


def _feasible_primal(X, y, bias):
    """A point of ``{(w, b): y_i (x_i^T w + b) >= 1}`` (HiGHS LP), or None when the set is empty.

    The LP is an exact separability test (up to HiGHS's feasibility tolerance, 1e-7).
    """
    n, d = X.shape
    A = -(sp.diags(y) @ sp.csr_matrix(X))
    if bias:
        A = sp.hstack([A, sp.csr_matrix(-y[:, None])], format="csr")
    nv = A.shape[1]
    res = linprog(np.zeros(nv), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * nv, method="highs")
    if res.status != 0:
        return None
    return res.x


def _separable_lp(X, y, bias):
    return _feasible_primal(X, y, bias) is not None


def _not_separable(bias, status, solver, how):
    return NotSeparableError(
        "hard margin (C=inf) on data that are not linearly separable"
        + (" (with bias)" if bias else " through the origin (bias=False)")
        + f" ({how}; solver status {status!r})",
        status=status, solver=solver,
    )


# statuses whose point is handed to the certificate (which then accepts or raises SolverError)
_USABLE = ("optimal", "optimal_inaccurate", "user_limit")


def _check_status(status, solver, C, bias, X, y, value):
    if np.isinf(C):
        if status in ("unbounded", "unbounded_inaccurate"):
            raise _not_separable(bias, status, solver, "the dual is unbounded")
        if status != "optimal" and not _separable_lp(X, y, bias):
            raise _not_separable(bias, status, solver, "LP certificate")
    if status not in _USABLE or value is None:
        raise SolverError(
            f"{solver} returned status {status!r} for the SVC dual.", status=status, solver=solver
        )


def _alpha_cap(X, y, bias):
    r"""An upper bound on every optimal alpha_i, from an L1-minimal separating hyperplane (HiGHS LP).

    If ``w0`` (with some b0) separates the data, then for any C (including inf)
    :math:`\sum_i\alpha^*_i = \|w^*\|^2 + C\|\xi^*\|_1 \le 2P^* \le 2P(w_0, b_0, 0) = \|w_0\|^2`,
    so the box :math:`\alpha \le \|w_0\|^2` contains the optimum and does not change the problem.
    First-order solvers (OSQP, SCS) converge badly on the hard-margin dual (no upper bound) or with
    ``C`` far above the optimal alphas; the cap fixes their scaling. Returns None when the data are
    not separable (the LP is infeasible).
    """
    n, d = X.shape
    A = -(sp.diags(y) @ sp.csr_matrix(X))
    A = sp.hstack([A, -A] + ([sp.csr_matrix(-y[:, None])] if bias else []), format="csr")
    c = np.concatenate([np.ones(2 * d), np.zeros(1 if bias else 0)])
    bounds = [(0, None)] * (2 * d) + ([(None, None)] if bias else [])
    res = linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    if res.status != 0:
        return None
    w0 = res.x[:d] - res.x[d : 2 * d]
    return float(np.dot(w0, w0)) * (1.0 + 1e-6) + 1e-12


def _box(X, y, C, bias, solver):
    """The upper bound on alpha passed to the solver (see _alpha_cap); None for no bound."""
    if solver == "CLARABEL":
        return None if np.isinf(C) else C
    cap = _alpha_cap(X, y, bias)
    if cap is None:
        if np.isinf(C):
            raise _not_separable(bias, "infeasible", solver, "LP certificate")
        return C
    return min(C, cap)


def _validate(X, y, C, bias, solver, polish, solvers=SOLVERS):
    """The validated arguments and ``max_row_norm(X)`` (one pass over X for validation and data scale)."""
    X, rmax = validate_X(X, return_norm=True)
    bias = validate_bool("bias", bias)
    y = validate_labels(y, X.shape[0], both_classes=bias)
    C = validate_C_scale(validate_C(C), X, rmax=rmax)
    solver = check_solver(solver, solvers)
    polish = validate_bool("polish", polish)
    return X, y, C, bias, solver, polish, rmax


def _with_context(exc, ctx):
    """The same exception type (SolverError or NotSeparableError) with the arguments appended."""
    new = type(exc)(f"{exc} [{ctx}]", status=exc.status, solver=exc.solver)
    return new


def _auto(run_ipm, run_fallback, ctx):
    """The "AUTO" policy: the IPM's result if certified; else the fallback solver's (Clarabel).

    NotSeparableError (an LP-certified property of the data) is never retried. When both fail, the
    SolverError names both solvers and the arguments.
    """
    try:
        return run_ipm()
    except NotSeparableError as exc:
        raise _with_context(exc, ctx) from None
    except SolverError as exc:
        first = exc
    try:
        return run_fallback()
    except NotSeparableError as exc:
        raise _with_context(exc, ctx) from None
    except SolverError as exc:
        raise SolverError(
            f"solver='AUTO': IPM failed ({first}); {FALLBACK_SOLVER} failed too ({exc}) [{ctx}]",
            status=exc.status, solver="AUTO",
        ) from None


def solve_svc(X, y, C, *, bias=True, solver=DEFAULT_SOLVER, polish=True, solver_options=None, warm_start=None):
    r"""Solve the linear SVM dual (Paul et al. 2014, eq. 3) exactly and certify it by its KKT conditions.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Rows are the points (original or projected ``X R``).
    y : array_like of shape (n,)
        Labels in {-1, +1}; both classes are required when ``bias=True``.
    C : float
        Box bound, ``C > 0``; ``np.inf`` is the hard margin (no upper bound on alpha).
    bias : bool, default=True
        Include the unregularised bias (the constraint ``y^T alpha = 0``).
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM", "DCD"}, default="AUTO"
        "IPM": rpcheck's dense interior-point method (Woodbury, ``O(n k^2)`` per iteration,
        ``k = min(n, d)``), 3-30x faster than Clarabel through cvxpy (BENCHMARKS.md, "SVM solvers") and
        certified the same way. "AUTO" runs the IPM and falls back to Clarabel only when the IPM's point
        fails the certificate (``result.solver`` says which one was certified). CLARABEL, OSQP and SCS
        (through cvxpy) are independent cross-checks. "DCD" (never chosen by "AUTO"): dual coordinate
        descent (Hsieh et al. 2008) inside a method of multipliers for ``y^T alpha = 0``, compiled, on dense
        or CSR X without densifying it (the polish forms only the Gram matrix of the free set); certified by
        the same KKT certificate (see ``_solve_dcd``). Finite ``C`` only (``C = inf`` raises RpcheckError).
        For large sparse data (all features of a text set); on small dense data the IPM is the better choice.
    polish : bool, default=True
        Polish the interior-point solution by solving the KKT system on the free set (float64).
    solver_options : dict, optional
        Extra keyword arguments for ``cvxpy.Problem.solve`` (override the defaults of
        ``rpcheck.svm._common``); for "IPM" and "AUTO" the IPM's ``tol`` and ``max_iter``; for "DCD"
        ``tol`` (default 1e-9, in [1e-15, 1e-3]: largest |projected gradient| and multiplier step, margin units,
        at which the certificate is first tried) and ``max_iter`` (default 100,000 epochs, >= 1).
    warm_start : SVCResult, optional
        A result of ``solve_svc`` on the same ``(X, y)`` and ``bias`` at another ``C`` (a C path, e.g. the
        grid of a cross-validation fold). Its free and bounded sets start the float64 active-set method of
        the polish at the new ``C`` (alpha_U = C); the point it reaches is returned only if it passes the
        KKT certificate at relative level ``1e-9`` (stricter than the ``1e-5`` of every result), with
        ``status="warm_start"`` and ``iterations=0``. Otherwise -- and always for ``C = inf``, a warm start
        at ``C = inf``, with ``polish=False`` or a solver other than "AUTO" / "IPM" -- the cold solve runs
        exactly as without ``warm_start``. The warm start only guesses the active sets: a result on other
        data costs a few float64 solves and is rejected by the certificate. With ``solver="DCD"`` the warm
        start is the starting point instead: its alpha clipped to ``[0, C]`` and made feasible for
        ``y^T alpha = 0`` (the class with the larger sum scaled down), its ``b`` the first multiplier; the result
        is the certified optimum either way (``iterations`` counts the epochs it still took).

    Returns
    -------
    SVCResult
        ``alpha``, ``w = X^T (y * alpha)``, ``b``, ``objective`` (Z at the returned alpha),
        ``w_norm_sq``, ``alpha_sum``, ``slack``, ``margin = 1/||w||``, ``zero_slack``, ``kkt``,
        ``kkt_unpolished`` and solver statistics.

    Raises
    ------
    RpcheckError
        Bad input (labels, shapes, non-finite entries, ``C <= 0``, unknown solver), a data scale outside
        float64's safe range (largest row norm of X, or ``C`` times its square, outside
        ``[1e-150, 1e150]``), or an output that is not finite (named).
    NotSeparableError
        ``C = inf`` on data that are not separable (with the bias, or through the origin without it);
        detected from an unbounded dual or, when the solver is inconclusive, by an exact LP.
    SolverError
        The solver failed, or its point does not pass the KKT certificate at relative level 1e-5.

    Notes
    -----
    The bias is the median of ``y_i - w^T x_i`` over the free support vectors
    (``1e-6 max(alpha) < alpha_i < C (1 - 1e-6)``), or comes directly from the polished KKT system. When
    no support vector is free (all at 0 or C, possible in the soft-margin case) b is not determined by
    the KKT equalities; it is then the exact minimiser of the hinge sum
    :math:`\sum_i (1 - y_i(w^T x_i + b))_+` for the returned w (the midpoint of the minimising interval),
    which is the primal-optimal bias for that w (LIBSVM's midpoint rule restricted to optimal values).

    The identity :math:`\sum\alpha = \|w\|^2 + C\|\xi\|_1` (the KKT conditions of Paul et al. 2014, eq. (3)) and strong duality
    :math:`Z = \|w\|^2/2 + C\|\xi\|_1` hold up to ``n * kkt.complementarity_abs + |b| * kkt.dual_abs``
    (see :mod:`rpcheck.svm.kkt`).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]]); y = np.array([1, -1])
    >>> res = solve_svc(X, y, np.inf)
    >>> np.round(res.w, 8), round(res.margin, 8)
    (array([1., 0.]), 1.0)
    """
    t0 = time.perf_counter()
    X, y, C, bias, solver, polish, rmax = _validate(X, y, C, bias, solver, polish, SVC_SOLVERS)
    if solver == "DCD":
        return _solve_dcd_checked(X, y, C, bias, polish, solver_options, warm_start, t0)
    options = _solver_options(solver, solver_options)
    ctx = f"solve_svc: n={X.shape[0]}, d={X.shape[1]}, C={C:g}, bias={bias}, solver={solver!r}"
    if warm_start is not None:
        _check_warm(warm_start, X.shape[0])
        if solver in ("AUTO", "IPM") and polish:
            res = _solve_warm(X, y, C, bias, warm_start, t0)
            if res is not None:
                return res
    if solver == "AUTO":
        return _auto(
            lambda: _solve_ipm(X, y, C, bias, polish, options, t0, rmax),
            lambda: _solve_cvxpy(X, y, C, bias, polish, FALLBACK_SOLVER, _solver_options(FALLBACK_SOLVER), t0,
                                 rmax),
            ctx,
        )
    try:
        if solver == "IPM":
            return _solve_ipm(X, y, C, bias, polish, options, t0, rmax)
        return _solve_cvxpy(X, y, C, bias, polish, solver, options, t0, rmax)
    except SolverError as exc:
        raise _with_context(exc, ctx) from None


def _solve_cvxpy(X, y, C, bias, polish, solver, options, t0, rmax=None):
    import cvxpy as cp

    n = X.shape[0]
    sc = _data_scale(X, C, rmax)
    G = factor_rows(X) * sc
    A = (sp.csr_matrix(G).T @ sp.diags(y)).tocsr() if sp.issparse(G) else G.T * y[None, :]
    a = cp.Variable(n)
    cons = [a >= 0]
    ub = _box(X, y, C, bias, solver)
    if ub is not None:
        cons.append(a <= ub / sc**2)
    if bias:
        cons.append(y @ a == 0)
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(A @ a)), cons)
    status, iters = run_problem(prob, solver, options)
    _check_status(status, solver, C, bias, X, y, a.value)
    return _finalize(X, y, a.value * sc**2, C, bias, polish, solver, status, iters, t0)



def _data_scale(X, C=np.inf, rmax=None):
    r"""``s = 1 / max_i ||x_i||`` (1 for an all-zero X).

    The dual on ``(s X, C / s^2)`` has the solution ``alpha / s^2`` (the primal objective only changes by
    the factor ``1/s^2`` with ``w' = w / s``), so the solvers work on data of unit scale, where their
    absolute tolerances are meaningful, and ``alpha`` is mapped back exactly afterwards.
    """
    m = max_row_norm(X) if rmax is None else rmax
    s = 1.0 / m if m > 0 and np.isfinite(1.0 / m) else 1.0
    if np.isfinite(C):  # keep the scaled box C / s^2 <= 1e6: interior-point methods dislike huge bounds
        s = max(s, float(np.sqrt(C / 1e6)))
    return s


def _dense_factor(X):
    """Dense G with ``G G^T = X X^T`` and at most min(n, d) columns (for the IPM)."""
    n, d = X.shape
    if not sp.issparse(X):
        return factor_rows(X)
    if d <= n:
        return X.toarray()
    K = (X @ X.T).toarray()
    lam, V = np.linalg.eigh(K)
    keep = lam > lam.max(initial=0.0) * 1e-14 * n
    return V[:, keep] * np.sqrt(lam[keep])[None, :]


def _solve_ipm(X, y, C, bias, polish, options, t0, rmax=None):
    from ._ipm import _ipm, single_thread_blas

    sc = _data_scale(X, C, rmax)
    # the factorisation, the IPM and the certificate are small dense products: one BLAS thread
    # (rpcheck._threads; a 1000 x 100 QR took 0.1 s with 2 threads on a loaded 2-core machine, 6.5 ms with 1)
    with single_thread_blas():
        A = np.ascontiguousarray(_dense_factor(X) * (sc * y)[:, None])
        alpha, status, iters = _ipm(A, -np.ones(A.shape[0]), C / sc**2, e=y if bias else None, r=0.0,
                                    **(options or {}))
        if status == "numerical_error":
            raise SolverError("IPM: non-finite iterates or a singular Newton system", status=status,
                              solver="IPM")
        alpha = alpha * sc**2
        if np.isinf(C) and status in ("unbounded", "user_limit", "optimal_inaccurate"):
            if not _separable_lp(X, y, bias):
                raise _not_separable(bias, status, "IPM", "LP certificate")
        if status == "unbounded":
            raise SolverError("IPM: the multipliers diverged on separable data", status=status, solver="IPM")
        return _finalize(X, y, alpha, C, bias, polish, "IPM", status, iters, t0)


def _check_warm(warm, n):
    if not isinstance(warm, SVCResult):
        raise RpcheckError(f"`warm_start` must be an SVCResult of solve_svc or None; got {type(warm).__name__}.")
    if warm.alpha.shape != (n,):
        raise RpcheckError(
            f"`warm_start` has {warm.alpha.shape[0]} dual variables but X has {n} rows; it must be a result on "
            "the same data."
        )


def _solve_warm(X, y, C, bias, warm, t0):
    """The certified optimum at ``C`` from the active sets of ``warm`` (a result at another C), or None.

    The guess ``alpha_U = C`` on warm's bounded set U, warm's free values (clipped to [0, C]) on its free set
    F and 0 elsewhere goes through the polish's active-set method (solve the KKT equalities on F, move
    violators between the sets, repeat); :func:`_finalize` then certifies the point exactly as a cold solve's.
    Returned only when the certificate is at most ``_WARM_ACCEPT``; None (run the cold solve) otherwise, and
    also as soon as the free set grows past max(``_WARM_MAX_GROWTH`` max(|F|, d + 2), ``_WARM_FREE_FLOOR``) (a
    wrong guess: see the constants).
    """
    if np.isinf(C) or np.isinf(warm.C) or bool(warm.bias) != bias:
        return None
    free, upper = _sets(np.asarray(warm.alpha, dtype=np.float64), warm.C)
    alpha0 = np.where(upper, C, np.clip(warm.alpha, 0.0, C))
    alpha0[~(free | upper)] = 0.0
    grown = _WARM_MAX_GROWTH * max(int(np.count_nonzero(free)), X.shape[1] + 2)
    max_free = min(_MAX_POLISH_FREE, max(grown, _WARM_FREE_FLOOR))
    with single_thread_blas():
        out = _polish(X, y, alpha0, float(warm.b), C, bias, free, max_free=max_free)
        if out is None:
            return None
        try:
            res = _finalize(X, y, out[0], C, bias, True, "IPM", "warm_start", 0, t0)
        except (SolverError, RpcheckError):  # not certified, or not finite: the cold solve decides
            return None
    return res if res.kkt.max_relative <= _WARM_ACCEPT else None


# ---------------------------------------------------------------------------------------------------------
# solver="DCD": dual coordinate descent + method of multipliers on y^T alpha = 0 (dense or CSR X, never
# densified). Reference and derivation in _solve_dcd's docstring.

_DCD_SEED = 0x5EED_5DCD
# Epochs of one call of the compiled kernel between two multiplier updates (an inner solve stops earlier
# when its projected gradient reaches its tolerance).
_DCD_INNER = 50
# Each failed certificate divides the stopping tolerance by this (down to 1e-15) and DCD continues.
_DCD_TIGHTEN = 100.0
# rho = _DCD_RHO * mean_i ||x_i||^2: a smaller rho conditions the inner problems better (the appended feature
# sqrt(rho) is weaker), a larger one needs fewer multiplier steps. On three n = 120..200, d = 10..40
# non-separable instances rho factor 0.3 needed 1.1k-30k epochs (7-10 steps), 1 needed 1.6k-54k and 3 up to
# > 100k (before shrinking and the checkpoints); 0.25 is taken next to the best measured.
_DCD_RHO = 0.25
# Epoch counts at which the certificate (with the polish) is also tried before the tolerance is reached; such
# a point is returned only when its relative KKT residual is <= _WARM_ACCEPT (1e-9), i.e. in practice when the
# polish has found the exact free set (coordinate descent alone converges slowly on dense low-dimensional data
# with many bounded alphas: 13,600 epochs to 1e-5 on n = 200, d = 30, C = 1).
_DCD_CHECKPOINTS = (20, 100, 500, 2000, 10_000)


def _dcd_options(extra):
    """``DCD_OPTIONS`` updated with the user's dict; unknown keys or bad values: one RpcheckError."""
    from .._validation import check_int, check_interval

    if extra is not None and not isinstance(extra, dict):
        raise RpcheckError(f"`solver_options` ({extra!r}) must be a dict or None.")
    extra = extra or {}
    unknown = sorted(set(extra) - set(DCD_OPTIONS), key=str)
    if unknown:
        raise RpcheckError(
            f"`solver_options` has keys {unknown} that solver='DCD' does not accept; allowed keys: "
            f"{', '.join(DCD_OPTIONS)}."
        )
    opts = {**DCD_OPTIONS, **extra}
    opts["tol"] = check_interval("solver_options['tol']", opts["tol"], 1e-15, 1e-3)
    opts["max_iter"] = check_int("solver_options['max_iter']", opts["max_iter"], 1)
    return opts


def _dcd_start(warm, y, C, bias, n):
    """The starting ``(alpha, lambda)``: zeros, or ``warm``'s alpha clipped to ``[0, C]`` and, with the bias,
    made feasible for ``y^T alpha = 0`` by scaling the class with the larger sum down (which keeps the box),
    with ``lambda = warm.b``. A warm start on other data is only a worse start (the certificate decides)."""
    if warm is None or bool(warm.bias) != bias:
        return np.zeros(n), 0.0
    lam = float(warm.b) if bias and np.isfinite(warm.b) else 0.0
    return _box_feasible(warm.alpha, y, C, bias), lam


def _box_feasible(alpha, y, C, bias):
    """``alpha`` clipped to ``[0, C]`` and, with the bias, made feasible for ``y^T alpha = 0`` by scaling the class
    with the larger sum down (which keeps the box); a new array."""
    a = np.clip(np.asarray(alpha, dtype=np.float64), 0.0, C)
    if bias:
        pos, neg = float(a[y > 0].sum()), float(a[y < 0].sum())
        if pos > neg:
            a[y > 0] *= neg / pos
        elif neg > pos:
            a[y < 0] *= pos / neg
    return a


def _solve_dcd_checked(X, y, C, bias, polish, solver_options, warm, t0):
    opts = _dcd_options(solver_options)
    if np.isinf(C):
        raise RpcheckError(
            "solve_svc(solver='DCD') needs a finite `C` (got C=inf): the hard margin has no box, and dual "
            "coordinate descent is not certified there; use solver='AUTO' or 'IPM' for C=inf."
        )
    if warm is not None:
        _check_warm(warm, X.shape[0])
    ctx = f"solve_svc: n={X.shape[0]}, d={X.shape[1]}, C={C:g}, bias={bias}, solver='DCD'"
    try:
        with single_thread_blas():
            return _solve_dcd(X, y, C, bias, polish, opts, warm, t0)
    except SolverError as exc:
        raise _with_context(exc, ctx) from None


def _solve_dcd(X, y, C, bias, polish, opts, warm, t0):
    r"""The dual (Paul et al. 2014, eq. 3) by dual coordinate descent inside a method of multipliers.

    Without the bias the dual has only the box: it is solved by the dual coordinate descent of Hsieh, Chang,
    Lin, Keerthi and Sundararajan (2008, ICML, Algorithm 1, L1 loss: ``U = C``, ``D_ii = 0``; LIBLINEAR's
    ``-s 3``). With the unregularised bias the equality ``y^T alpha = 0`` is handled by the method of
    multipliers (Hestenes 1969; Powell 1969; Rockafellar 1976, "Augmented Lagrangians and applications of the
    proximal point algorithm in convex programming", Math. Oper. Res. 1(2)): for a multiplier ``lambda`` and
    ``rho > 0`` the inner problem

    .. math::

        \min_{0 \le \alpha \le C}\ \tfrac12\alpha^T Q\alpha - e^T\alpha + \lambda\, y^T\alpha
        + \tfrac{\rho}{2}(y^T\alpha)^2

    is a box QP with Hessian ``Q + rho y y^T`` (the data with an appended constant feature ``sqrt(rho)``),
    solved by the same coordinate descent (``rpcheck.svm._dcd_svc``), and then ``lambda <- lambda + rho y^T
    alpha``. In the primal this is the proximal point method on the bias (Rockafellar 1976): the inner problem
    is the dual of ``min_{w,b} ||w||^2/2 + (b - lambda)^2/(2 rho) + C sum_i (1 - y_i (w^T x_i + b))_+`` and
    ``lambda`` is the next ``b``; it converges to the optimal bias for any ``rho > 0`` (the objective as a
    function of ``b`` is convex), here ``rho = mean_i ||x_i||^2 / 4``. The multiplier is updated when the inner
    largest |projected gradient| is below the inner tolerance, which then follows the multiplier step
    (``max(tol, 0.1 rho |y^T alpha|)``): an inexact method of multipliers with summable inner errors.

    A point is handed to :func:`_finalize` (the KKT certificate of every result, ``_ACCEPT_REL = 1e-5``, and
    the polish when ``polish=True``) once the largest |projected gradient| and the last multiplier step are
    both ``<= tol`` (margin units); a failed certificate divides ``tol`` by 100 and coordinate descent
    continues, until ``max_iter`` epochs, after which the certificate decides once more (SolverError when it
    fails). With ``polish=True`` the certificate is also tried after 20, 100, 500, 2000 and 10,000 epochs, at the
    current point and at the point of a primal active-set method started from its sets
    (:func:`_dcd_active_set`), and such a point is returned only when its relative KKT residual is ``<= 1e-9``.
    ``iterations`` is the number of epochs.
    """
    from ._dcd_svc import dcd_svc_csr, dcd_svc_dense

    n = X.shape[0]
    if sp.issparse(X):
        Xc = X if X.has_sorted_indices else X.sorted_indices()  # a copy: the caller's X is not modified
        indptr, indices, data = Xc.indptr.astype(np.int64), Xc.indices.astype(np.int64), Xc.data
        sq = np.asarray(Xc.multiply(Xc).sum(axis=1), dtype=np.float64).ravel()

        def run(lam, rho, alpha, w, s, epochs, tol, seed):
            return dcd_svc_csr(indptr, indices, data, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed)
    else:
        Xc = np.ascontiguousarray(X, dtype=np.float64)
        sq = np.einsum("ij,ij->i", Xc, Xc)

        def run(lam, rho, alpha, w, s, epochs, tol, seed):
            return dcd_svc_dense(Xc, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed)

    rho = _DCD_RHO * float(np.mean(sq)) if bias else 0.0
    if bias and not rho > 0:  # all-zero X: any positive rho
        rho = 1.0
    qdiag = sq + rho
    alpha, lam = _dcd_start(warm, y, C, bias, n)
    if not bias and np.any(qdiag <= 0):  # zero rows without bias: G_i = -1 always, so alpha_i = C (exact)
        zero = qdiag <= 0
        qdiag = np.where(zero, np.inf, qdiag)
        alpha[zero] = C
    w = _transpose_times(X, y * alpha)
    s = float(y @ alpha)
    tol = float(opts["tol"])
    max_iter = int(opts["max_iter"])
    tol_in = max(tol, 1e-3)
    epochs = 0
    last_error = None
    checkpoints = list(_DCD_CHECKPOINTS)
    while epochs < max_iter:
        budget = min(_DCD_INNER, max_iter - epochs)
        if checkpoints:
            budget = max(1, min(budget, checkpoints[0] - epochs))
        ran, pgmax, s = run(lam, rho, alpha, w, s, budget, tol_in, _DCD_SEED + epochs)
        epochs += int(ran)
        s = float(y @ alpha)  # exact, against drift of the running sum
        if pgmax > tol_in:  # the inner solve goes on (same multiplier)
            step = np.inf
        else:  # inner solve done: multiplier step; the next inner solve as accurate as that step asks
            step = rho * s
            lam += step
            tol_in = max(tol, min(tol_in, 0.1 * abs(step)) if bias else tol)
        if pgmax <= tol and abs(step) <= tol:
            try:
                return _finalize(X, y, alpha, C, bias, polish, "DCD", "optimal", epochs, t0,
                                 rows=_rows_sparse_safe)
            except SolverError as exc:
                last_error = exc
                if tol <= 1e-15:
                    break
                tol = max(tol / _DCD_TIGHTEN, 1e-15)
                tol_in = tol
                w = _transpose_times(X, y * alpha)  # restart the running w exactly
        elif checkpoints and epochs >= checkpoints[0]:
            while checkpoints and epochs >= checkpoints[0]:
                checkpoints.pop(0)
            if polish:
                res = _dcd_checkpoint(X, y, alpha, C, bias, epochs, t0)
                if res is not None:
                    return res
    if last_error is not None and epochs < max_iter:
        raise last_error
    return _finalize(X, y, alpha, C, bias, polish, "DCD", "max_iter", epochs, t0, rows=_rows_sparse_safe)


# The active-set finisher of the DCD checkpoints: at most this many free points (one dense KKT solve of that
# size per round) and this many rounds (one set change per round).
_DCD_AS_MAX_FREE = 500
_DCD_AS_ROUNDS = 300


def _dcd_checkpoint(X, y, alpha, C, bias, epochs, t0):
    """A DCD checkpoint: :func:`_finalize` (with the polish) at the current alpha and, when that is not at
    ``_WARM_ACCEPT``, at the point of :func:`_dcd_active_set` started there; the first result with a relative
    KKT residual ``<= _WARM_ACCEPT`` (1e-9), else None (coordinate descent continues). Skipped (None) when more
    than ``_DCD_AS_MAX_FREE`` points are free: the polish's dense solves would cost more than the epochs they
    might save (gisette stand-in, 3,840 x 5,000, 2,718 free: 59 CPU s with a checkpoint at 20 epochs against
    15 s without checkpoints)."""
    if int(np.count_nonzero(_sets(alpha, C)[0])) > _DCD_AS_MAX_FREE:
        return None
    for cand in (lambda: alpha, lambda: _dcd_active_set(X, y, alpha, C, bias)):
        a = cand()
        if a is None:
            continue
        try:
            res = _finalize(X, y, a, C, bias, True, "DCD", "optimal", epochs, t0, rows=_rows_sparse_safe)
        except (SolverError, RpcheckError):
            continue
        if res.kkt.max_relative <= _WARM_ACCEPT:
            return res
    return None


def _dcd_active_set(X, y, alpha, C, bias):
    r"""The primal active-set method for convex QP (Nocedal and Wright 2006, "Numerical Optimization", 2nd ed.,
    Algorithm 16.3) on the dual, started from a coordinate-descent point; a candidate for :func:`_finalize`
    (which certifies it), or None.

    The start is ``alpha`` made exactly feasible (box; with the bias ``y^T alpha = 0`` by scaling the class
    with the larger sum down). The working set W holds the indices at a bound (``alpha_i = 0`` or ``C``); F is
    the rest. Each round solves the equality-constrained subproblem on F for the step ``p`` (``Q_FF p + y_F nu
    = -g_F``, ``y_F^T p = 0``, ``g = Q alpha - e``; minimum-norm least squares). When that system is
    inconsistent (``Q_FF`` is singular: more free points than the rank of ``X_F`` allows), its least-squares
    residual lies in the null space of the KKT matrix and is a direction of zero curvature and negative slope
    (``g_F^T r = -||r||^2``), followed to the first bound. A step that hits a bound adds that index to W
    (ratio test); a zero step checks the multipliers of W, which here are margins: ``y_i (w^T x_i + nu) >= 1``
    at ``alpha_i = 0``, ``<= 1`` at ``alpha_i = C``; the most violated index leaves W, and none violated is
    the optimum. The objective never increases, so a rough start (coordinate descent at relative KKT residual
    1e-4 on n = 300, d = 20, C = 32 without bias after 10^5 epochs) does not make it wander the way the polish's
    bulk set updates (written for the accurate interior-point points) do there."""
    a = _box_feasible(alpha, y, C, bias)
    free, _ = _sets(a, C)
    a[~free & (a < 0.5 * C)] = 0.0
    a[~free & (a >= 0.5 * C)] = C
    if bias:  # the snap to the bounds moved y^T a by at most n * 1e-6 C: give it back on F (or declare failure)
        F0 = np.flatnonzero(free)
        if F0.size:
            a[F0] -= y[F0] * (float(y @ a) / F0.size)
            if np.any(a[F0] < 0.0) or np.any(a[F0] > C):
                return None
    b = 0.0
    for _ in range(_DCD_AS_ROUNDS):
        F = np.flatnonzero((a > 0.0) & (a < C))
        if F.size > _DCD_AS_MAX_FREE:
            return None
        w = _transpose_times(X, y * a)
        f0 = decision_values(X, w, 0.0)
        g = y * f0 - 1.0
        p = None
        if F.size:
            XF = _rows_sparse_safe(X, F)
            K = (XF @ XF.T).toarray() if sp.issparse(XF) else XF @ XF.T
            yF = y[F]
            M = (yF[:, None] * yF[None, :]) * K
            rhs = -g[F]
            if bias:
                M = np.block([[M, yF[:, None]], [yF[None, :], np.zeros((1, 1))]])
                rhs = np.concatenate([rhs, [0.0]])
            try:
                z = sla.lstsq(M, rhs, lapack_driver="gelsy")[0]
            except (np.linalg.LinAlgError, ValueError):
                return None
            r = rhs - M @ z
            scale = float(np.abs(M).max(initial=0.0)) * float(np.abs(z).max(initial=0.0)) + float(np.abs(rhs).max())
            if float(np.abs(r).max()) > 1e-9 * scale:  # inconsistent: a zero-curvature descent direction
                p, unbounded = r[: F.size], True
            else:
                p, unbounded = z[: F.size], False
                b = float(z[-1]) if bias else 0.0
            if float(np.abs(p).max(initial=0.0)) <= 1e-13 * max(float(np.abs(a[F]).max()), 1e-300):
                p = None
        if p is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(p < 0.0, a[F] / -p, np.where(p > 0.0, (C - a[F]) / p, np.inf))
            k = int(np.argmin(t))
            tk = float(t[k]) if unbounded else min(1.0, float(t[k]))
            if not np.isfinite(tk):
                return None
            a[F] = np.clip(a[F] + tk * p, 0.0, C)
            if unbounded or float(t[k]) <= 1.0:  # the blocking index joins W at its bound
                a[F[k]] = 0.0 if p[k] < 0.0 else C
            continue
        # zero step: the multipliers of W are the margins
        if bias and not F.size:
            b = _hinge_argmin_b(f0, y)
        m = y * (f0 + b)
        viol = np.where(a <= 0.0, np.maximum(1.0 - m, 0.0), np.where(a >= C, np.maximum(m - 1.0, 0.0), 0.0))
        k = int(np.argmax(viol))
        if viol[k] <= 1e-12 * max(1.0, float(np.max(np.abs(m), initial=0.0))):
            return a
        a = _release(a, k, C)  # k leaves W
    return None


def _release(a, k, C):
    """``a`` with index ``k`` moved off its bound by a negligible amount (so it counts as free); the next
    subproblem solve then sets its value (the move is part of the step, the objective change O(eps))."""
    a = a.copy()
    eps = 1e-15 * C
    a[k] = eps if a[k] <= 0.0 else C - eps
    return a


class SVCProblem:
    r"""A canonicalised, parametrised SVC dual for repeated solves on data of one shape.

    The data enter through ``cvxpy.Parameter`` objects in a DPP-compliant way: ``A = X^T diag(y)``
    (d x n) multiplies the variable (parameter-affine times parameter-free) and ``y`` appears in the
    linear equality ``y^T alpha = 0``. cvxpy therefore canonicalises once (the first ``solve``) and
    later solves only refill the solver's matrices.

    Parameters
    ----------
    n, d : int
        Shape of the data.
    C : float
        Box bound (``np.inf`` for hard margin).
    bias : bool, default=True
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM"}, default="AUTO"
        As in :func:`solve_svc`.
    polish : bool, default=True
    solver_options : dict, optional

    Notes
    -----
    Sparse X is densified (the parameter is dense). Results are identical to :func:`solve_svc` up to
    solver tolerance and are certified the same way. With ``solver="IPM"`` or ``"AUTO"`` there is
    nothing to canonicalise (``problem`` is None) and ``solve`` calls the IPM directly ("AUTO" falls
    back to a fresh Clarabel solve when the IPM's point is not certified).

    At n=200, r=50 the reuse removes cvxpy's ~10 ms of canonicalisation per solve but the Clarabel
    solve itself (~10 ms) remains, so the per-solve gain is about 1.4-1.6x; ``solver="IPM"`` (no cvxpy
    at all) is faster than both.

    References
    ----------
    .. [1] cvxpy, "Disciplined Parametrized Programming", https://www.cvxpy.org/tutorial/dpp/index.html
       (a parameter-affine expression times a parameter-free one is DPP, so ``A @ alpha`` with
       ``A = cp.Parameter((d, n))`` is).

    Examples
    --------
    >>> import numpy as np
    >>> prob = SVCProblem(2, 2, C=np.inf)
    >>> res = prob.solve(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]))
    >>> round(res.margin, 8)
    1.0
    """

    def __init__(self, n, d, *, C, bias=True, solver=DEFAULT_SOLVER, polish=True, solver_options=None):
        from .._validation import check_int

        self.n = check_int("n", n, 1)
        self.d = check_int("d", d, 1)
        self.C = validate_C(C)
        self.bias = validate_bool("bias", bias)
        self.solver = check_solver(solver)
        self.polish = validate_bool("polish", polish)
        self._options = _solver_options(self.solver, solver_options)
        self.problem = None
        if self.solver in ("IPM", "AUTO"):  # nothing to canonicalise: the IPM works on the data directly
            return
        import cvxpy as cp

        self._A = cp.Parameter((self.d, self.n), name="XtY")
        self._y = cp.Parameter(self.n, name="y")
        self._a = cp.Variable(self.n, name="alpha")
        cons = [self._a >= 0]
        self._ub = None
        if self.solver != "CLARABEL" or not np.isinf(self.C):  # C / s^2 or the cap: data-dependent
            self._ub = cp.Parameter(nonneg=True, name="alpha_ub")
            cons.append(self._a <= self._ub)
        if self.bias:
            cons.append(self._y @ self._a == 0)
        obj = cp.Maximize(cp.sum(self._a) - 0.5 * cp.sum_squares(self._A @ self._a))
        self.problem = cp.Problem(obj, cons)
        assert self.problem.is_dcp(dpp=True)

    def solve(self, X, y):
        """Solve for data ``(X, y)`` of shape ``(n, d)``; returns an :class:`SVCResult`."""
        from ..errors import RpcheckError

        t0 = time.perf_counter()
        X, y, C, bias, solver, polish, rmax = _validate(X, y, self.C, self.bias, self.solver, self.polish)
        if X.shape != (self.n, self.d):
            raise RpcheckError(
                f"`X` has shape {X.shape} but this SVCProblem was built for {(self.n, self.d)}."
            )
        ctx = f"SVCProblem.solve: n={self.n}, d={self.d}, C={C:g}, bias={bias}, solver={solver!r}"
        if solver == "AUTO":
            return _auto(
                lambda: _solve_ipm(X, y, C, bias, polish, self._options, t0, rmax),
                lambda: _solve_cvxpy(X, y, C, bias, polish, FALLBACK_SOLVER,
                                     _solver_options(FALLBACK_SOLVER), t0, rmax),
                ctx,
            )
        try:
            if solver == "IPM":
                return _solve_ipm(X, y, C, bias, polish, self._options, t0, rmax)
            return self._solve_dpp(X, y, C, bias, solver, polish, t0)
        except SolverError as exc:
            raise _with_context(exc, ctx) from None

    def _solve_dpp(self, X, y, C, bias, solver, polish, t0):
        Xd = X.toarray() if sp.issparse(X) else X
        sc = _data_scale(Xd, C)
        self._A.value = Xd.T * (sc * y)[None, :]
        self._y.value = y
        if self._ub is not None:
            self._ub.value = _box(X, y, C, bias, solver) / sc**2
        status, iters = run_problem(self.problem, solver, self._options)
        _check_status(status, solver, C, bias, X, y, self._a.value)
        alpha = None if self._a.value is None else self._a.value * sc**2
        return _finalize(X, y, alpha, C, bias, polish, solver, status, iters, t0)
