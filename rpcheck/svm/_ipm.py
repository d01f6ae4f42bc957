r"""A dense primal-dual interior-point method for the factored SVM dual (solver ``"IPM"``).

Solves

.. math::

    \min_\alpha\ \tfrac12\|A^T\alpha\|^2 - 1^T\alpha \quad\text{s.t.}\quad y^T\alpha = 0\ (\text{bias}),
    \ 0 \le \alpha \le C,

with ``A = diag(y) G`` (n x k, ``G G^T = X X^T``) by Mehrotra's predictor-corrector method. Each Newton
system :math:`(AA^T + D)\Delta\alpha + y\Delta\nu = h` is solved with the Sherman-Morrison-Woodbury
identity through the k x k matrix :math:`I + A^T D^{-1} A` (Cholesky), so an iteration costs
:math:`O(n k^2)` dense BLAS work and the n x n Gram matrix is never formed (the approach of Ferris and
Munson, "Interior-point methods for massive support vector machines", SIAM J. Optim. 13, 2002).

It returns a point and a status string like a cvxpy solve; the caller (``svc._finalize``) polishes it
and certifies it by the KKT conditions exactly as for Clarabel, so this solver is trusted no more than
any other.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from .._threads import single_thread_blas

__all__ = ["svm_dual_ipm"]


def _max_step(v, dv):
    neg = dv < 0
    if not np.any(neg):
        return 1.0
    return float(min(1.0, np.min(-v[neg] / dv[neg])))


def _minv(sysm, v):
    """``(A A^T + D)^{-1} v`` by Sherman-Morrison-Woodbury through the Cholesky factor of I + A^T D^-1 A."""
    A, Dinv, DA, cf = sysm
    t = Dinv * v
    return t - DA @ sla.cho_solve(cf, A.T @ t, check_finite=False)


def _newton(sysm, st, rhs_l, rhs_u):
    """Newton direction for complementarity right-hand sides ``rhs_l`` (lower) and ``rhs_u`` (upper)."""
    alpha, z, s, u, r_d, r_p, My, yMy, hard, bias, y = st
    h = -r_d + rhs_l / alpha - (0.0 if hard else rhs_u / s)
    Mh = _minv(sysm, h)
    if bias:
        dnu = (float(y @ Mh) + r_p) / yMy
        da = Mh - dnu * My
    else:
        dnu, da = 0.0, Mh
    dz = (rhs_l - z * da) / alpha
    du = None if hard else (rhs_u + u * da) / s
    return da, dnu, dz, du


def _steps(st, da, dz, du):
    alpha, z, s, u = st[0], st[1], st[2], st[3]
    hard = st[8]
    tp = _max_step(alpha, da)
    td = _max_step(z, dz)
    if not hard:
        tp = min(tp, _max_step(s, -da))
        td = min(td, _max_step(u, du))
    return tp, td


def svm_dual_ipm(A, y, C, *, bias=True, tol=1e-10, max_iter=100):
    """Run :func:`_ipm` with BLAS limited to one thread (see the note there)."""
    with single_thread_blas():
        return _ipm(A, y, C, bias=bias, tol=tol, max_iter=max_iter)


def _ipm(A, y, C, *, bias=True, tol=1e-10, max_iter=100):
    """Return ``(alpha, status, iterations)``; status is "optimal", "optimal_inaccurate", "user_limit"
    or "unbounded".

    ``A`` is the dense n x k factor ``diag(y) G``; ``C`` may be ``inf`` (no upper bound). The Woodbury
    solve loses accuracy once the free multipliers' barrier terms vanish (typically below ~1e-9
    relative), so the best iterate (by the largest scaled residual) is kept and the method stops when
    it has not improved for 4 iterations; the float64 KKT polish of the caller finishes the job.

    BLAS runs single-threaded: the k x k products gain little from threads, and on an oversubscribed
    machine (parallel trial workers, shared CPUs) multithreaded OpenBLAS spun so badly that one solve at
    n=2000, k=200 took 5-7 s instead of 0.1 s.
    """
    n, k = A.shape
    hard = np.isinf(C)
    # starting point: the centre of the box (or 1 for the hard margin), unit multipliers
    alpha = np.full(n, 1.0 if hard else 0.5 * C)
    z = np.ones(n)
    u = None if hard else np.ones(n)
    nu = 0.0
    m = n if hard else 2 * n
    Ik = np.eye(k)
    status = "user_limit"
    it = 0
    scale_obj = 1.0
    best, best_merit, stall = alpha.copy(), np.inf, 0
    for it in range(1, max_iter + 1):  # noqa: B007 (it is returned)
        s = None if hard else C - alpha
        Aw = A.T @ alpha
        grad = A @ Aw - 1.0
        r_d = grad + (nu * y if bias else 0.0) - z + (0.0 if hard else u)
        r_p = float(y @ alpha) if bias else 0.0
        comp = float(alpha @ z) + (0.0 if hard else float(s @ u))
        mu = comp / m
        obj = 0.5 * float(Aw @ Aw) - float(alpha.sum())
        scale_obj = max(1.0, abs(obj))
        amax = float(np.max(alpha))
        if amax > 1e14:
            status = "unbounded"
            break
        merit = max(
            float(np.max(np.abs(r_d))) / (1.0 + float(np.max(np.abs(grad)))),
            abs(r_p) / (1.0 + amax),
            comp / scale_obj,
        )
        if merit < best_merit:
            best, best_merit, stall = alpha.copy(), merit, 0
        else:
            stall += 1
        if merit <= tol:
            status = "optimal"
            break
        if stall >= 4:
            status = "optimal" if best_merit <= 1e-8 else "optimal_inaccurate"
            break
        D = z / alpha + (0.0 if hard else u / s)
        Dinv = 1.0 / D
        # multipliers pinned at a bound have Dinv ~ 0; flush them to exactly 0 so that no subnormal
        # numbers reach BLAS (subnormal arithmetic made one 200 x 200 Cholesky take 0.16 s)
        Dinv[Dinv < 1e-30 * float(np.max(Dinv))] = 0.0
        DA = Dinv[:, None] * A
        S = Ik + A.T @ DA
        try:
            cf = sla.cho_factor(S, lower=True, check_finite=False)
        except np.linalg.LinAlgError:
            S[np.diag_indices_from(S)] += 1e-12 * np.trace(S) / k
            cf = sla.cho_factor(S, lower=True, check_finite=False)
        sysm = (A, Dinv, DA, cf)
        My = _minv(sysm, y) if bias else None
        yMy = float(y @ My) if bias else 1.0
        it_state = (alpha, z, s, u, r_d, r_p, My, yMy, hard, bias, y)

        # predictor (affine scaling)
        da, dnu, dz, du = _newton(sysm, it_state, -alpha * z, None if hard else -s * u)
        tp, td = _steps(it_state, da, dz, du)
        comp_aff = float((alpha + tp * da) @ (z + td * dz))
        if not hard:
            comp_aff += float((s - tp * da) @ (u + td * du))
        sigma = (max(comp_aff, 0.0) / max(comp, 1e-300)) ** 3
        # corrector
        rl = sigma * mu - alpha * z - da * dz
        ru = None if hard else sigma * mu - s * u + da * du  # ds = -da
        da, dnu, dz, du = _newton(sysm, it_state, rl, ru)
        tp, td = _steps(it_state, da, dz, du)
        tp, td = 0.99 * tp, 0.99 * td
        alpha = alpha + tp * da
        nu = nu + td * dnu
        z = z + td * dz
        if not hard:
            u = u + td * du
        alpha = np.maximum(alpha, 1e-300)
        if not hard:
            alpha = np.minimum(alpha, C * (1 - 1e-16))
    if status == "unbounded":
        return alpha, status, it
    return best, status, it
