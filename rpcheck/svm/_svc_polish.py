"""The float64 core every path of :func:`rpcheck.svm.solve_svc` shares (the solve paths are in
:mod:`rpcheck.svm.svc` and :mod:`rpcheck.svm._svc_dcd`).

- the index sets of a dual point (free, at the upper bound) and the bias from them (:func:`_bias`, with the exact
  hinge minimiser :func:`pl_argmin` when no support vector is free);
- the polish: the KKT equalities on the free set solved in float64 (:func:`_solve_free`, in factored form
  :func:`_solve_free_lowrank` when the free set is much larger than d), inside a primal active-set loop
  (:func:`_polish`);
- the certificate every returned result passes (:func:`_finalize`: KKT residuals at relative level
  ``_ACCEPT_REL``, the polish kept only when it certifies no worse) and the exact separability LP it falls back
  on for ``C = inf`` (:func:`_separable_lp`);
- the checks of a ``warm_start`` argument and the error context the solve paths append.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.optimize import linprog

from ..errors import NotSeparableError, RpcheckError
from ._common import check_finite_outputs, check_kkt_certificate
from ._results import SVCResult
from .kkt import decision_values, svc_kkt_residuals

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
    check_kkt_certificate(kkt, _ACCEPT_REL, solver=solver, status=status)
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


def _with_context(exc, ctx):
    """The same exception type (SolverError or NotSeparableError) with the arguments appended."""
    new = type(exc)(f"{exc} [{ctx}]", status=exc.status, solver=exc.solver)
    return new


def _check_warm(warm, n):
    if not isinstance(warm, SVCResult):
        raise RpcheckError(f"`warm_start` must be an SVCResult of solve_svc or None; got {type(warm).__name__}.")
    if warm.alpha.shape != (n,):
        raise RpcheckError(
            f"`warm_start` has {warm.alpha.shape[0]} dual variables but X has {n} rows; it must be a result on "
            "the same data."
        )
