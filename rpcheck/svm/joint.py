r"""The joint-feature multiclass linear SVM: one weight vector :math:`v \in \mathbb{R}^n` scores class
:math:`k` of an example by :math:`\langle v, \phi(x, k)\rangle` (the n-slack, margin-rescaling form of
Tsochantaridis et al. 2005, JMLR 6, with the 0/1 loss), solved with a duality-gap certificate.

Problem (no bias), with :math:`Z_{ik} = \phi(x_i, k) \in \mathbb{R}^n` given for every example and every
class :math:`k = 0..K-1`, and :math:`y_i` the class of example :math:`i`:

.. math::

    \min_{v, \xi}\ \tfrac12 \|v\|^2 + C \sum_i \xi_i \quad \text{s.t.}\quad
    \langle v, Z_{i y_i} - Z_{ik}\rangle \ge 1 - \xi_i\ \ \forall i,\ k \ne y_i, \qquad \xi_i \ge 0.

The Crammer-Singer SVM (:mod:`rpcheck.svm.multiclass`) is the special case :math:`\phi(x, k) = e_k \otimes x`
(then :math:`v = \mathrm{vec}(W)` row-major); the one-parameter method of Shi et al. (2009) is
:math:`\phi(x, k) = R_k x` with one random block :math:`R_k` per class. The exact slack of a given
:math:`v` is :math:`\xi_i(v) = \max(0, \max_{k \ne y_i} 1 - \langle v, Z_{iy_i} - Z_{ik}\rangle)`, so the
primal objective of any :math:`v` is :math:`P(v) = \tfrac12\|v\|^2 + C\sum_i \xi_i(v)`.

Dual (the same feasible set as Crammer-Singer's, Keerthi et al. 2008, eq. (3)-(4)): with multipliers
:math:`\lambda_{ik} \ge 0` of the margin constraints, write :math:`\alpha_{ik} = -\lambda_{ik}` for
:math:`k \ne y_i` and :math:`\alpha_{iy_i} = \sum_{k \ne y_i} \lambda_{ik} \le C`; stationarity gives
:math:`v(\alpha) = \sum_{i,k} \alpha_{ik} Z_{ik}` and

.. math::

    D(\alpha) = -\tfrac12 \|v(\alpha)\|^2 - \sum_{i,\,k \ne y_i} \alpha_{ik} \le P^* \le P(v)
    \quad (\text{weak duality}).

It depends on the data only through :math:`\langle Z_{ik}, Z_{jl}\rangle`; unlike Crammer-Singer's, the
Hessian block of one example is the Gram matrix of :math:`Z_{i\cdot}`, not a multiple of the identity, so the
sort-based exact sub-problem step of the sequential dual method does not apply.

Algorithm
---------
An interior-point solve (Clarabel, called directly) of the primal QP in :math:`(v, \xi)` (``n + m``
variables, ``m K`` inequality rows); its constraint multipliers give :math:`\alpha` as above, which is
made exactly feasible (the projection of :func:`rpcheck.svm.multiclass` ``_feasible``) and certified. If it
fails the certificate, an active-set polish (the KKT system restricted to the supports guessed from the
iterate, exact when they are the optimal ones; the system of ``multiclass._polish_alpha`` with the inner
products :math:`\langle Z_{iy_i} - Z_{ik}, Z_{jy_j} - Z_{jl}\rangle`) supplies candidate dual points.

Certificate
-----------
At the returned feasible :math:`\alpha` with :math:`v = v(\alpha)`, the gap
:math:`P(v) - D(\alpha) = \|v\|^2 + C\sum_i \xi_i(v) + \sum_{i, k \ne y_i} \alpha_{ik}` must satisfy
``gap <= tol * P(v) + fp``, ``tol = 1e-9`` by default, ``fp`` the float64 rounding allowance
``4 (m + n + K + 2) eps`` times the magnitudes summed (objective terms and the margins
:math:`|\langle v, Z_{iy_i} - Z_{ik}\rangle| \le \|v\| \|Z_{iy_i} - Z_{ik}\|`). Otherwise
:class:`rpcheck.errors.SolverError`. :math:`P` is 1-strongly convex, so
:math:`\tfrac12\|v - v^*\|^2 \le P(v) - D(\alpha)` and ``v_error_bound = sqrt(2 (gap + fp))`` bounds
:math:`\|v - v^*\|`, hence every score difference :math:`\langle v - v^*, Z_a - Z_b\rangle` by
:math:`\|Z_a - Z_b\|` ``v_error_bound`` (:meth:`JointMulticlassResult.certified_predict`).

References
----------
Tsochantaridis, Joachims, Hofmann and Altun (2005), Large margin methods for structured and interdependent
output variables, JMLR 6. Crammer and Singer (2001), JMLR 2. Keerthi, Sundararajan, Chang, Hsieh and Lin
(2008), KDD. Shi, Petterson, Dror, Langford, Smola and Vishwanathan (2009), Hash kernels for structured data,
JMLR 10.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp

from .._threads import single_thread_blas
from .._validation import check_int, check_interval, check_matrix
from ..errors import RpcheckError, SolverError
from ._common import check_finite_outputs, validate_C_scale
from ._results import JointMulticlassResult
from .multiclass import _bordered_solve, _feasible, _slacks

__all__ = ["solve_joint_multiclass", "joint_primal_objective", "MAX_JOINT_CELLS"]

_EPS = np.finfo(np.float64).eps
#: Largest m * K * n accepted (the joint features and the constraint matrix are dense in v).
MAX_JOINT_CELLS = 5_000_000
#: The polish solves a dense system of the active pairs; above this many it is skipped.
MAX_POLISH = 1500


def _validate_y(y, m, K):
    yy = np.asarray(y)
    if yy.ndim != 1 or yy.shape[0] != m:
        raise RpcheckError(f"`y` must be 1-dimensional of length {m} (the rows of Z); got shape {yy.shape}.")
    if yy.dtype.kind not in "biuf" or (yy.dtype.kind == "f" and not np.all(np.isfinite(yy) & (yy == np.round(yy)))):
        raise RpcheckError(f"`y` must contain integer class indices in [0, {K - 1}]; got dtype {yy.dtype}.")
    yk = yy.astype(np.int64)
    if yk.min() < 0 or yk.max() >= K:
        raise RpcheckError(f"`y` must contain class indices in [0, {K - 1}] (K = Z.shape[1]); got values in "
                           f"[{int(yk.min())}, {int(yk.max())}].")
    return yk


def _validate_Z(Z):
    Z = check_matrix("Z", Z, allow_sparse=False, ndim=3)
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    m, K, n = Z.shape
    if m < 1 or n < 1:
        raise RpcheckError(f"`Z` must have shape (m, K, n) with m >= 1 and n >= 1; got {Z.shape}.")
    if K < 2:
        raise RpcheckError(f"`Z` must have K >= 2 classes (axis 1); got shape {Z.shape}.")
    if m * K * n > MAX_JOINT_CELLS:
        raise RpcheckError(f"`Z` of shape {Z.shape} has m K n = {m * K * n} entries; at most {MAX_JOINT_CELLS} "
                           "are allowed.")
    return Z


def _differences(Z, yk):
    """``Dm[i, k] = Z[i, y_i] - Z[i, k]`` (zero at ``k = y_i``)."""
    return Z[np.arange(Z.shape[0]), yk][:, None, :] - Z


def joint_primal_objective(v, Z, y, C):
    """``P(v) = ||v||^2 / 2 + C sum_i xi_i(v)`` with the exact slacks (see the module docstring); scores any
    candidate ``v`` (e.g. another solver's) against the certified dual bound."""
    Z = _validate_Z(Z)
    yk = _validate_y(y, Z.shape[0], Z.shape[1])
    v = np.asarray(v, dtype=np.float64)
    if v.shape != (Z.shape[2],):
        raise RpcheckError(f"`v` must have shape ({Z.shape[2]},); got {v.shape}.")
    return 0.5 * float(v @ v) + C * float(_slacks(Z @ v, yk).sum())


def _certificate(Z, Dn, yk, alpha, C):
    m, K, n = Z.shape
    a = _feasible(alpha, yk, C)
    v = np.einsum("ik,ikn->n", a, Z)
    S = Z @ v
    xi = _slacks(S, yk)
    vsq = float(v @ v)
    E = np.ones((m, K))
    E[np.arange(m), yk] = 0.0
    ea = float(np.sum(E * a))              # <= 0
    P = 0.5 * vsq + C * float(xi.sum())
    D = -0.5 * vsq - ea
    g_ = 4.0 * (m + n + K + 2) * _EPS
    fp = g_ * (abs(P) + abs(D) + vsq + abs(ea)) + C * g_ * 2.0 * math.sqrt(vsq) * float(Dn.max(axis=1).sum())
    return {"a": a, "v": v, "xi": xi, "P": P, "D": D, "gap": P - D, "fp": fp}


def _passes(cert, tol):
    return cert["gap"] <= tol * cert["P"] + cert["fp"]


def solve_joint_multiclass(Z, y, C, *, tol=1e-9, max_iter=400):
    r"""Solve the joint-feature multiclass linear SVM (one weight vector, no bias) with a gap certificate.

    Parameters
    ----------
    Z : array_like of shape (m, K, n)
        Joint features: ``Z[i, k] = phi(x_i, k)``, for every example ``i`` and class ``k`` (``K >= 2``).
    y : array_like of shape (m,)
        Class indices in ``{0, ..., K-1}`` (the axis-1 positions of ``Z``).
    C : float
        Loss weight, ``0 < C < inf``, with ``C max ||Z[i, y_i] - Z[i, k]||^2`` in ``[1e-150, 1e150]``.
    tol : float, default=1e-9
        Relative duality gap the certificate requires, ``gap <= tol * primal + fp``; in ``[1e-15, 1e-3]``.
    max_iter : int, default=400
        Interior-point iterations (Clarabel), ``>= 1``.

    Returns
    -------
    JointMulticlassResult
        ``v`` (n,), ``alpha`` (m, K), ``primal``, ``dual``, ``gap``, ``gap_rel``, ``v_error_bound``, ``slack``.

    Raises
    ------
    RpcheckError
        Bad input (named argument, value and allowed values).
    SolverError
        Neither the interior-point dual point nor a polished one passed the certificate.

    Examples
    --------
    >>> import numpy as np
    >>> Z = np.array([[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]])  # phi(x_i, k), m = K = n = 2
    >>> res = solve_joint_multiclass(Z, np.array([0, 1]), 10.0)       # v = (1/2, -1/2): margins exactly 1
    >>> np.round(res.v, 9).tolist(), round(res.primal, 9)
    ([0.5, -0.5], 0.25)
    """
    t0 = time.perf_counter()
    Z = _validate_Z(Z)
    m, K, n = Z.shape
    yk = _validate_y(y, m, K)
    C = check_interval("C", C, 0, None, closed="neither", finite=True)
    Dm = _differences(Z, yk)
    C = validate_C_scale(C, Dm.reshape(m * K, n))
    tol = check_interval("tol", tol, 1e-15, 1e-3)
    max_iter = check_int("max_iter", max_iter, 1)
    with single_thread_blas():
        return _solve(Z, Dm, yk, C, tol, max_iter, t0)


def _solve(Z, Dm, yk, C, tol, max_iter, t0):
    m, K, n = Z.shape
    Dn = np.linalg.norm(Dm, axis=2)
    a_ipm, iters = _ipm_alpha(Dm, yk, C, max_iter)
    best = None
    if a_ipm is not None:
        cert = _certificate(Z, Dn, yk, a_ipm, C)
        best = cert
        if _passes(cert, tol):
            return _result(cert, C, iters, t0, m, n, "Clarabel")
        for pol in _polish(Dm, yk, cert["a"], C, cert["v"]):
            pc = _certificate(Z, Dn, yk, pol, C)
            if pc["gap"] / max(pc["P"], 1e-300) < best["gap"] / max(best["P"], 1e-300):
                best = pc
            if _passes(pc, tol):
                return _result(pc, C, iters, t0, m, n, "Clarabel+polish")
    rel = "n/a (the interior-point solve failed)" if best is None else f"{best['gap'] / best['P']:.2e}"
    raise SolverError(
        f"solve_joint_multiclass: no certified point: relative gap {rel} (tol {tol:g}) [m={m}, K={K}, n={n}, "
        f"C={C:g}]", status="not_certified", solver="Clarabel",
    )


def _ipm_alpha(Dm, yk, C, max_iter):
    """Dual point from Clarabel on the primal QP in ``z = [v; xi]``: rows ``-<Dm[i, k], v> - xi_i <= -1``
    (``k != y_i``) with multipliers ``lambda_ik``, and ``-xi_i <= 0``; ``alpha`` as in the module docstring.
    ``(None, 0)`` if the solve fails."""
    import clarabel

    m, K, n = Dm.shape
    ii, kk = np.nonzero(np.arange(K)[None, :] != yk[:, None])
    r = ii.size
    rows = np.arange(r)
    A1 = sp.csc_matrix((np.concatenate([-Dm[ii, kk].ravel(), -np.ones(r)]),
                        (np.concatenate([np.repeat(rows, n), rows]),
                         np.concatenate([np.tile(np.arange(n), r), n + ii]))), shape=(r, n + m))
    A2 = sp.csc_matrix((-np.ones(m), (np.arange(m), n + np.arange(m))), shape=(m, n + m))
    A = sp.vstack([A1, A2], format="csc")
    b = np.concatenate([-np.ones(r), np.zeros(m)])
    P = sp.csc_matrix((np.ones(n), (np.arange(n), np.arange(n))), shape=(n + m, n + m))
    q = np.concatenate([np.zeros(n), np.full(m, float(C))])
    st = clarabel.DefaultSettings()
    st.verbose = False
    st.tol_gap_abs = st.tol_gap_rel = 1e-12
    st.tol_feas = st.tol_ktratio = 1e-12
    st.max_iter = int(max_iter)
    try:
        sol = clarabel.DefaultSolver(P, q, A, b, [clarabel.NonnegativeConeT(r + m)], st).solve()
    except Exception:  # solver failure: reported by the caller as not certified
        return None, 0
    z = np.asarray(sol.z, dtype=np.float64)
    if z.shape != (r + m,) or not np.all(np.isfinite(z)):
        return None, int(getattr(sol, "iterations", 0))
    lam = np.maximum(z[:r], 0.0)
    a = np.zeros((m, K))
    a[ii, kk] = -lam
    a[np.arange(m), yk] = np.bincount(ii, weights=lam, minlength=m)
    return a, int(getattr(sol, "iterations", 0))


def _polish(Dm, yk, a, C, v):
    """Active-set polish (the KKT system of ``multiclass._polish_alpha`` with ``g_t = Dm[i, k]``): active pairs
    ``t = (i, k)`` with ``alpha_ik < 0`` and the constraint within ``tau`` of tight, bound examples with
    ``alpha_{i y_i} = C``; solves ``sum_s <g_t, g_s> lambda_s + [i bound] xi_i = 1`` (active ``t``) and
    ``sum_{t in i} lambda_t = C`` (bound ``i``). Yields candidate dual points lazily."""
    m, K, n = Dm.shape
    rows = np.arange(m)
    h = 1.0 - Dm @ v
    h[rows, yk] = 0.0
    xi = np.maximum(h.max(axis=1), 0.0)
    for tau in (1e-8, 1e-6, 1e-4, 1e-2):
        act = (a < 0.0) & (h >= xi[:, None] - tau)
        act[rows, yk] = False
        bound = a[rows, yk] >= C * (1.0 - 1e-7)
        for _ in range(4):
            ii, kk = np.nonzero(act)
            if ii.size == 0 or ii.size > MAX_POLISH:
                break
            G = Dm[ii, kk]
            lam = _kkt_solve(G @ G.T, ii, bound, C, m)
            if lam is None:
                break
            neg = lam < 0.0
            over = np.bincount(ii, weights=lam, minlength=m) > C * (1.0 + 1e-12)
            if not np.any(neg) and not np.any(over & ~bound):
                cand = np.zeros_like(a)
                cand[ii, kk] = -lam
                cand[rows, yk] = np.bincount(ii, weights=lam, minlength=m)
                yield cand
                break
            act[ii[neg], kk[neg]] = False
            bound |= over


def _kkt_solve(Gt, ii, bound, C, m):
    T = ii.size
    bset = np.flatnonzero(bound & (np.bincount(ii, minlength=m) > 0))
    B = bset.size
    Mx = np.zeros((T + B, T + B))
    Mx[:T, :T] = Gt
    return _bordered_solve(Mx, ii, bset, m, C)


def _result(cert, C, iters, t0, m, n, solver):
    check_finite_outputs("solve_joint_multiclass", f"m={m}, n={n}, C={C:g}", v=cert["v"], alpha=cert["a"],
                         primal=cert["P"], dual=cert["D"])
    gap = float(cert["gap"])
    return JointMulticlassResult(
        v=cert["v"], alpha=cert["a"], primal=float(cert["P"]), dual=float(cert["D"]), gap=gap,
        gap_rel=float(abs(gap) / cert["P"]) if cert["P"] > 0 else 0.0, fp_allowance=float(cert["fp"]),
        v_error_bound=float(math.sqrt(2.0 * (max(gap, 0.0) + cert["fp"]))), slack=cert["xi"], C=float(C),
        solver=solver, status="optimal", iterations=int(iters), solve_time=time.perf_counter() - t0,
    )
