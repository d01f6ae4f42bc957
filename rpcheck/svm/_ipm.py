r"""A dense primal-dual interior-point method for the factored box-QPs of this package (solver ``"IPM"``).

Solves

.. math::

    \min_x\ \tfrac12\|A^T x\|^2 + q^T x \quad\text{s.t.}\quad e^T x = r\ (\text{optional}),
    \ 0 \le x \le u\ (u \text{ may be } \infty)

with a dense n x k factor ``A`` by Mehrotra's predictor-corrector method. The three duals of the
package are of this form:

- SVC (Paul et al. 2014, eq. 3): ``A = diag(y) G``, ``q = -1``, ``e = y``, ``r = 0``, ``u = C``;
- SVR (Paul et al. 2014, eq. 2) with ``x = (a^+, a^-)``: ``A = [G; -G]``, ``q = (eps - y, eps + y)``,
  ``e = (1, -1)``, ``r = 0``, ``u = C``;
- minimum enclosing ball: ``A = sqrt(2) G`` (centred), ``q = -diag(G G^T)``, ``e = 1``, ``r = 1``,
  ``u = inf``;

where ``G G^T = X X^T``. Each Newton system :math:`(AA^T + D)\Delta x + e\Delta\nu = h` is solved with
the Sherman-Morrison-Woodbury identity through the k x k matrix :math:`I + A^T D^{-1} A` (Cholesky), so
an iteration costs :math:`O(n k^2)` dense BLAS work and the n x n Gram matrix is never formed (the
approach of Ferris and Munson, "Interior-point methods for massive support vector machines", SIAM J.
Optim. 13, 2002). LAPACK is called directly (``potrf``/``potrs``): at n = 60 the scipy wrappers'
argument checking cost more than the arithmetic.

It returns a point and a status string like a cvxpy solve; the callers polish it and certify it by the
KKT conditions exactly as for Clarabel, so this solver is trusted no more than any other.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import get_blas_funcs, get_lapack_funcs

from .._threads import single_thread_blas

__all__ = ["svm_dual_ipm", "box_qp_ipm"]

# Stopping on stagnation: the Woodbury solve loses accuracy once the merit is small, so the method stops
# after _STALL_NEAR iterations without a new best merit -- but only once the best merit is <= _NEAR. Far
# from the optimum the merit is not monotone: its complementarity term is divided by max(1, |objective|),
# and the objective of the scaled SVC dual passes through 0 on its way from ~1e9 to its (negative) optimum,
# so the merit jumps by 2-3 orders of magnitude for a few iterations (measured: up to 5 iterations on
# 13,494 x 256 projected rcv1-like data, C in 2^-5..2^5). Stopping there returned a point of merit ~0.9,
# which failed the certificate, and "AUTO" fell back to Clarabel (~20 s instead of ~1 s). Far from the
# optimum the method therefore stops only after _STALL_FAR iterations without a new best.
_NEAR = 1e-6
_STALL_NEAR = 4
_STALL_FAR = 16

_POTRF, _POTRS = get_lapack_funcs(("potrf", "potrs"), (np.empty((1, 1)),))
(_SYRK,) = get_blas_funcs(("syrk",), (np.empty((1, 1)),))


# The reductions of the iteration call the ufuncs' ``reduce`` directly: ``a.min()`` is the same reduction behind a
# Python wrapper that costs about as much as the reduction itself at the n of the checkers (n = 30-60, where an
# iteration is some hundred such calls of 1-3 us each). The results are bit for bit those of ``a.min()``/``a.max()``.
_MIN = np.minimum.reduce
_MAX = np.maximum.reduce


def _max_step(v, dv):
    """Largest ``t <= 1`` with ``v + t dv >= 0`` for ``v > 0``: ``1 / max(1, max_i -dv_i / v_i)``."""
    m = float(_MIN(dv / v))
    return 1.0 if m >= -1.0 else -1.0 / m


class _System:
    """``M = A A^T + diag(D)`` with ``M^{-1} v`` by Sherman-Morrison-Woodbury.

    The k x k matrix ``I + A^T D^{-1} A`` is formed as ``I + B^T B`` with ``B = D^{-1/2} A`` by one BLAS-3
    ``syrk`` (lower triangle only: half the flops of the ``gemm`` ``A^T (D^{-1} A)``; 21 against 34 ms at
    n = 13,494, k = 256, one thread), which is all the Cholesky factorisation reads.
    """

    __slots__ = ("A", "Dinv", "L")

    def __init__(self, A, Dinv):
        self.A = A
        self.Dinv = Dinv
        k = A.shape[1]
        L, info = _POTRF(self._woodbury(), lower=1, clean=0, overwrite_a=1)
        if info != 0:  # S is SPD in exact arithmetic; regularise rounding damage
            S = self._woodbury()
            S.flat[:: k + 1] += 1e-12 * float(np.trace(S)) / k
            L, info = _POTRF(S, lower=1, clean=0, overwrite_a=1)
            if info != 0:
                raise np.linalg.LinAlgError("IPM: Woodbury matrix is not positive definite")
        self.L = L

    def _woodbury(self):
        """``I + A^T D^{-1} A`` (lower triangle; Fortran order, as LAPACK wants it)."""
        B = np.sqrt(self.Dinv)[:, None] * self.A  # C-contiguous n x k: B.T is Fortran-contiguous, no copy
        S = _SYRK(1.0, B.T, trans=0, lower=1)
        S.flat[:: S.shape[0] + 1] += 1.0  # the diagonal (a strided view: no index arrays)
        return S

    def solve(self, v):
        t = self.Dinv * v
        c, _ = _POTRS(self.L, self.A.T @ t, lower=1)
        return t - self.Dinv * (self.A @ c)


def _newton(st, rl, ru):
    """Newton direction for complementarity right-hand sides ``rl`` (lower) and ``ru`` (upper, or None
    without upper bound)."""
    sysm, x, z, s, v, r_d, r_p, Me, eMe, e = st
    h = rl / x - r_d
    if ru is not None:
        h -= ru / s
    Mh = sysm.solve(h)
    if e is not None:
        dnu = (float(e @ Mh) + r_p) / eMe
        dx = Mh - dnu * Me
    else:
        dnu, dx = 0.0, Mh
    dz = (rl - z * dx) / x
    dv = None if ru is None else (ru + v * dx) / s
    return dx, dnu, dz, dv


def _steps(st, dx, dz, dv):
    x, z, s, v = st[1], st[2], st[3], st[4]
    tp = _max_step(x, dx)
    td = _max_step(z, dz)
    if s is not None:
        tp = min(tp, _max_step(s, -dx))
        td = min(td, _max_step(v, dv))
    return tp, td


def svm_dual_ipm(A, y, C, *, bias=True, tol=1e-10, max_iter=100):
    """The SVC dual: :func:`box_qp_ipm` with ``q = -1``, ``e = y``, ``r = 0``, ``u = C``."""
    return box_qp_ipm(A, -np.ones(A.shape[0]), C, e=y if bias else None, r=0.0, tol=tol, max_iter=max_iter)


def box_qp_ipm(A, q, u, *, e=None, r=0.0, x0=None, tol=1e-10, max_iter=100):
    """Run :func:`_ipm` with BLAS limited to one thread (see the note there)."""
    with single_thread_blas():
        return _ipm(np.ascontiguousarray(A, dtype=np.float64), np.asarray(q, dtype=np.float64), float(u),
                    e=None if e is None else np.asarray(e, dtype=np.float64), r=float(r), x0=x0, tol=tol,
                    max_iter=max_iter)


def _breakdown_status(best_merit):
    """The status when the Newton system breaks down: the best iterate's, as if the method had stalled there
    ("optimal" at merit <= 1e-8, else "optimal_inaccurate"), or "numerical_error" before any finite merit.

    The Woodbury solve loses accuracy as the barrier terms of the bounded variables grow (``Dinv`` spans
    ~30 orders of magnitude near the optimum), and one more step can make ``e^T M^{-1} e`` negative. Measured
    on 4,800 x 256 leverage-selected features of the gisette stand-in (``lei2020.comparison``, C = 1): merit
    1.3e-9 at iteration 20, then 0.79 and ``e^T M^{-1} e < 0`` at 21. Raising there would discard a point the
    polish certifies and send solver "AUTO" to Clarabel (about 15 s instead of 0.4 s). The caller trusts the
    returned point no further than any other: it is polished and certified by the KKT conditions.
    """
    if not np.isfinite(best_merit):
        return "numerical_error"
    return "optimal" if best_merit <= 1e-8 else "optimal_inaccurate"


def _ipm(A, q, u, *, e=None, r=0.0, x0=None, tol=1e-10, max_iter=100):
    """Return ``(x, status, iterations)``; status is "optimal", "optimal_inaccurate", "user_limit",
    "unbounded" or "numerical_error".

    ``A`` is the dense n x k factor; ``u`` may be ``inf`` (no upper bound). The Woodbury solve loses
    accuracy once the free variables' barrier terms vanish (typically below ~1e-9 relative), so the best
    iterate (by the largest scaled residual) is kept and the method stops when it has not improved for
    4 iterations once it is below 1e-6 (16 iterations above: see ``_STALL_FAR``); the float64 KKT polish
    of the caller finishes the job. For the same reason the Newton system can break down outright (a
    non-positive ``e^T M^{-1} e``, a failed Cholesky, non-finite iterates) after the best iterate is already
    near optimal: the best iterate is then returned as well (:func:`_breakdown_status`), and only a breakdown
    before any finite merit is "numerical_error".

    BLAS runs single-threaded: the k x k products gain little from threads, and on an oversubscribed
    machine (parallel trial workers, shared CPUs) multithreaded OpenBLAS spun so badly that one solve at
    n=2000, k=200 took 5-7 s instead of 0.1 s.
    """
    n, k = A.shape
    hard = np.isinf(u)
    eq = e is not None
    # starting point: the centre of the box (or 1 for no upper bound), unit multipliers
    if x0 is not None:
        x = np.array(x0, dtype=np.float64)
    else:
        x = np.full(n, 1.0 if hard else 0.5 * u)
    z = np.ones(n)
    v = None if hard else np.ones(n)
    nu = 0.0
    m = n if hard else 2 * n
    status = "user_limit"
    it = 0
    best, best_merit, stall = x.copy(), np.inf, 0
    for it in range(1, max_iter + 1):  # noqa: B007 (it is returned)
        s = None if hard else u - x
        Ax = A.T @ x
        grad = A @ Ax + q
        r_d = grad - z
        if eq:
            r_d += nu * e
        if not hard:
            r_d += v
        r_p = float(e @ x) - r if eq else 0.0
        comp = float(x @ z) + (0.0 if hard else float(s @ v))
        mu = comp / m
        obj = 0.5 * float(Ax @ Ax) + float(q @ x)
        xmax = float(_MAX(x))
        if not (math.isfinite(obj) and math.isfinite(comp)):  # Python floats
            status = _breakdown_status(best_merit)
            break
        if xmax > 1e14:
            status = "unbounded"
            break
        merit = max(
            float(_MAX(np.abs(r_d))) / (1.0 + float(_MAX(np.abs(grad)))),
            abs(r_p) / (1.0 + xmax + abs(r)),
            comp / max(1.0, abs(obj)),
        )
        if merit < best_merit:
            best, best_merit, stall = x.copy(), merit, 0
        else:
            stall += 1
        if merit <= tol:
            status = "optimal"
            break
        if stall >= (_STALL_NEAR if best_merit <= _NEAR else _STALL_FAR):
            status = "optimal" if best_merit <= 1e-8 else "optimal_inaccurate"
            break
        D = z / x if hard else z / x + v / s
        Dinv = 1.0 / D
        # variables pinned at a bound have Dinv ~ 0; flush them to exactly 0 so that no subnormal
        # numbers reach BLAS (subnormal arithmetic made one 200 x 200 Cholesky take 0.16 s)
        Dinv[Dinv < 1e-30 * float(_MAX(Dinv))] = 0.0
        try:
            sysm = _System(A, Dinv)
        except np.linalg.LinAlgError:
            status = _breakdown_status(best_merit)
            break
        if eq:
            Me = sysm.solve(e)
            eMe = float(e @ Me)
            if not (eMe > 0 and np.isfinite(eMe)):  # M is SPD, so e^T M^-1 e > 0 unless rounding broke it
                status = _breakdown_status(best_merit)
                break

        st = (sysm, x, z, s, v, r_d, r_p, Me if eq else None, eMe if eq else 1.0, e if eq else None)
        # predictor (affine scaling)
        xz = x * z
        sv = None if hard else s * v
        dx, dnu, dz, dv = _newton(st, -xz, None if hard else -sv)
        tp, td = _steps(st, dx, dz, dv)
        comp_aff = float((x + tp * dx) @ (z + td * dz))
        if not hard:
            comp_aff += float((s - tp * dx) @ (v + td * dv))
        sigma = (max(comp_aff, 0.0) / max(comp, 1e-300)) ** 3
        # corrector
        rl = sigma * mu - xz - dx * dz
        ru = None if hard else sigma * mu - sv + dx * dv  # ds = -dx
        dx, dnu, dz, dv = _newton(st, rl, ru)
        tp, td = _steps(st, dx, dz, dv)
        tp, td = 0.99 * tp, 0.99 * td
        x = x + tp * dx
        nu = nu + td * dnu
        z = z + td * dz
        if not hard:
            v = v + td * dv
        np.maximum(x, 1e-300, out=x)
        if not hard:
            np.minimum(x, u * (1 - 1e-16), out=x)
    if status in ("unbounded", "numerical_error"):
        return x, status, it
    return best, status, it
