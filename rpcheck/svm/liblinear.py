r"""The L2-loss (squared-hinge) linear SVM that LIBLINEAR solves by default, solved exactly and certified.

LIBLINEAR (Fan et al. 2008, JMLR 9) solves by default (``-s 1``, dual; ``-s 2`` is the same problem
solved in the primal) the L2-regularised L2-loss SVM **without a bias** (``-B -1``):

.. math::

    \min_w\ \tfrac12 \|w\|^2 + C \sum_i \max(0,\, 1 - y_i w^T x_i)^2 .

Its dual (Hsieh et al. 2008, ICML, eq. (4) with :math:`U = \infty`, :math:`D_{ii} = 1/(2C)`) is

.. math::

    \min_{\alpha \ge 0}\ f(\alpha) = \tfrac12 \alpha^T \bar Q \alpha - e^T\alpha, \qquad
    \bar Q = Q + D,\ Q_{ij} = y_i y_j x_i^T x_j,\ D = I/(2C),

with :math:`w = \sum_i \alpha_i y_i x_i`. With ``bias=True`` a constant-1 feature is appended, as
LIBLINEAR's ``-B 1`` does: the bias is then the weight of that feature and **is regularised**
(:math:`\tfrac12 (\|w\|^2 + b^2)`), unlike the bias of Paul et al. (2014) eq. (3).

This is not the problem of Paul et al. (2014) eq. (3) (L1 hinge, unregularised bias, box
:math:`0 \le \alpha \le C`, constraint :math:`y^T\alpha = 0`): that one is :func:`rpcheck.svm.solve_svc`
(and with ``bias=False`` it is LIBLINEAR's ``-s 3``, the L1-loss dual without bias).

Algorithm
---------
Dual coordinate descent (Hsieh et al. 2008, Algorithm 1; a random order per epoch, their Sec. 3.1), in
compiled epochs (:mod:`rpcheck.svm._dcd`) on dense or CSR rows, run in stages of growing epoch
budgets. After each stage a **polish** runs the modified finite Newton method of Keerthi and DeCoste
(2005) on the primal from the current ``w``: on the active set :math:`A = \{i: y_i w^T x_i < 1\}`
the restricted problem is regularised least squares, solved exactly by Cholesky of
:math:`\bar Q_{AA} = Q_{AA} + I/(2C)` (positive definite because :math:`D \succ 0`) or of
:math:`I + 2C X_A^T X_A`, followed by an exact line search; it terminates finitely at the optimum. Both
problems are strictly convex, the optimum is unique, and the first point (polished or DCD) that passes
the certificate is returned.

Certificate
-----------
At the returned :math:`\alpha \ge 0` (exactly feasible) with :math:`w = X^T Y\alpha`:

* the duality gap :math:`P(w) - D(\alpha) \ge 0` (weak duality), required ``<= tol * P(w)``
  (``tol = 1e-9`` by default; float64 rounding of P and D is about ``(n + d) 1e-16`` relative, four
  orders below). The primal is 1-strongly convex, so
  :math:`\tfrac12\|w - w^*\|^2 \le P(w) - P^* \le P(w) - D(\alpha)`: ``w_error_bound`` =
  ``sqrt(2 (gap + fp))`` certifies the weights (and every decision value to ``||x|| w_error_bound``);
* KKT: :math:`\alpha_i \ge 0` (by construction) and complementarity with the gradient
  :math:`G_i = y_i w^T x_i - 1 + \alpha_i/(2C)`: :math:`G_i = 0` when :math:`\alpha_i > 0`, :math:`G_i \ge 0`
  when :math:`\alpha_i = 0`. The projected gradient relative to the magnitudes summed in :math:`G_i`,
  :math:`|PG_i| / (1 + |x_i|^T|w| + \alpha_i/(2C))`, must be ``<= 1e-6`` (``kkt_pg_rel``; the absolute
  value is ``kkt_pg``, in margin units). Polished points reach about 1e-13 on well-conditioned data;
  float64 cannot resolve :math:`G_i` much below ``eps * cond(Qbar_AA)`` (``cond ~ 2C ||K||``: at
  ``C = 3e4`` on low-rank data the absolute residual floor was measured at 1e-6 while the relative
  gap was 4e-13), hence the relative form.

A point failing either raises :class:`rpcheck.errors.SolverError`.

Identities (derived): at the optimum :math:`\alpha_i = 2C\xi_i` with
:math:`\xi_i = \max(0, 1 - y_i w^T x_i)`, hence
:math:`\sum_i\alpha_i = \|w\|^2 + \|\alpha\|^2/(2C)` and :math:`P^* = D^* = \tfrac12\|w\|^2 + C\|\xi\|^2`.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._threads import single_thread_blas
from .._validation import check_int, check_interval
from ..errors import RpcheckError, SolverError
from ._common import check_finite_outputs, stage_budget, validate_bool, validate_C_scale, validate_labels, validate_X
from ._results import L2SVCResult

__all__ = ["solve_l2svc", "L2SVC_KKT_ACCEPT", "MAX_POLISH"]

#: Largest relative |projected gradient| a returned point may have (see the module docstring).
L2SVC_KKT_ACCEPT = 1e-6
#: The polish forms the |A| x |A| matrix of the active set; above this size it is skipped (DCD alone).
MAX_POLISH = 3000
#: Epoch budgets of the successive DCD stages (a polish and a certificate after each; the last stage runs
#: the rest of ``max_iter``). A stage also ends when every |projected gradient| is <= _PG_STOP.
_STAGES = (5, 20, 100, 500, 2000)
_PG_STOP = 1e-14
_EPS = np.finfo(np.float64).eps
_SEED = 0x5EED_11B1


def _rows(X, idx):
    return X[idx]


def _gram(XA):
    K = XA @ XA.T
    return K.toarray() if sp.issparse(K) else np.asarray(K)


def _xt(X, v):
    return np.asarray(X.T @ v, dtype=np.float64).ravel()


def _xv(X, w):
    return np.asarray(X @ w, dtype=np.float64).ravel()


def _newton_direction(X, y, A, C, dii):
    """Minimiser of the primal restricted to the active set A (a regularised least-squares problem):
    ``min_w 1/2 ||w||^2 + C sum_{i in A} (1 - y_i w^T x_i)^2``, by the smaller of its two normal
    systems (dual ``(Y K_AA Y + I/(2C)) beta = 1``, ``w = X_A^T Y_A beta``; or primal
    ``(I + 2C X_A^T X_A) w = 2C X_A^T y_A`` when dense with fewer features than active points).
    Returns ``(w, beta)`` (``beta`` None in the primal form), or ``(None, None)``."""
    idx = np.flatnonzero(A)
    dim = X.shape[1]
    if idx.size == 0:
        return np.zeros(dim), np.zeros(0)
    XA = X[idx]
    yA = y[idx]
    try:
        if not sp.issparse(X) and dim < idx.size:
            if dim > MAX_POLISH:
                return None, None
            H = 2.0 * C * (XA.T @ XA)
            H[np.diag_indices_from(H)] += 1.0
            wb = sla.cho_solve(sla.cho_factor(H, lower=True, check_finite=False), 2.0 * C * (XA.T @ yA),
                               check_finite=False)
            return wb, None
        if idx.size > MAX_POLISH:
            return None, None
        Q = (yA[:, None] * yA[None, :]) * _gram(XA)
        Q[np.diag_indices_from(Q)] += dii
        fac = sla.cho_factor(Q, lower=True, check_finite=False)
        e = np.ones(idx.size)
        beta = sla.cho_solve(fac, e, check_finite=False)
        for _ in range(2):  # iterative refinement: Q is ill-conditioned for large C (cond ~ 2C ||K||)
            beta = beta + sla.cho_solve(fac, e - Q @ beta, check_finite=False)
        return _xt(XA, yA * beta), beta
    except (np.linalg.LinAlgError, ValueError):
        return None, None


def _line_search(w, dv, m, o, C):
    """Exact minimiser over t >= 0 of the piecewise-quadratic primal along ``w + t dv`` (``m = y * Xw``,
    ``o = y * X dv``): the root of the non-decreasing piecewise-linear derivative
    ``phi'(t) = w.dv + t ||dv||^2 - 2C sum_i o_i (1 - m_i - t o_i)_+``, by bisection to the segment that
    contains it and then the linear solve on that segment."""
    a, b = float(w @ dv), float(dv @ dv)
    c = 1.0 - m

    def dphi(t):
        act = c - t * o > 0
        return a + t * b - 2.0 * C * float(o[act] @ (c[act] - t * o[act])), act

    lo, hi = 0.0, 1.0
    while dphi(hi)[0] < 0 and hi < 1e6:
        lo, hi = hi, 2 * hi
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if dphi(mid)[0] < 0:
            lo = mid
        else:
            hi = mid
    _, act = dphi(0.5 * (lo + hi))
    den = b + 2.0 * C * float(o[act] @ o[act])
    t = (2.0 * C * float(o[act] @ c[act]) - a) / den if den > 0 else hi
    return min(max(t, lo), hi) if np.isfinite(t) else hi


def _polish(X, y, alpha, C, dii, max_rounds=50):
    """The modified finite Newton method on the primal (Keerthi and DeCoste 2005, JMLR 6, "A modified
    finite Newton method for fast solution of large scale linear SVMs"), warm-started at
    ``w = X^T Y alpha``: Newton step on the current active set ``{i: y_i w^T x_i < 1}`` and exact line
    search; it terminates finitely at the optimum. Returns the dual point ``alpha = 2C xi(w)`` of the last
    iterate (``w = X^T Y alpha`` exactly at the optimum; at termination in the dual form, the solution
    ``beta`` of ``Qbar_AA beta = e`` itself), or None when a system cannot be solved."""
    w = _xt(X, y * alpha)
    for _ in range(max_rounds):
        m = y * _xv(X, w)
        A = m < 1.0
        wb, beta = _newton_direction(X, y, A, C, dii)
        if wb is None or not np.all(np.isfinite(wb)):
            return None
        mb = y * _xv(X, wb)
        if np.array_equal(mb < 1.0, A):  # the restricted minimiser keeps its active set: the optimum
            if beta is not None and np.all(beta >= 0):
                # the exact dual solution on A (2C xi(w) would amplify the rounding of the margins by 2C)
                a = np.zeros(y.size)
                a[A] = beta
                return a
            w = wb
            break
        dv = wb - w
        if not np.any(dv):
            break
        t = _line_search(w, dv, m, mb - m, C)
        w = w + t * dv
    return 2.0 * C * np.maximum(0.0, 1.0 - y * _xv(X, w))


def _certificate(X, y, alpha, C, dii):
    """Objectives, gap, rounding allowance and KKT residuals at ``alpha`` (clipped to >= 0)."""
    n, d = X.shape
    a = np.maximum(alpha, 0.0)
    w = _xt(X, y * a)
    m = y * _xv(X, w)
    xi = np.maximum(0.0, 1.0 - m)
    wsq = float(w @ w)
    asq = float(a @ a)
    asum = float(a.sum())
    P = 0.5 * wsq + C * float(xi @ xi)
    D = asum - 0.5 * wsq - asq * dii / 2.0
    G = m - 1.0 + dii * a
    pg = np.where(a > 0, G, np.minimum(G, 0.0))
    # rounding: sums of <= n + d terms (relative (n + d) eps each), margins (d eps ||w|| ||x_i||) and
    # w = X^T Y alpha itself (n eps sum_i alpha_i ||x_i||)
    xn = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel()) if sp.issparse(X) else np.linalg.norm(X, axis=1)
    wn = math.sqrt(wsq)
    g_ = 4.0 * (n + d + 2) * _EPS
    fp = g_ * (abs(P) + abs(D) + asum + wsq + asq * dii) + 2.0 * C * float(xi @ (g_ * wn * xn)) \
        + g_ * wn * float(a @ xn)
    absX = abs(X) if sp.issparse(X) else np.abs(X)
    gscale = 1.0 + _xv(absX, np.abs(w)) + dii * a  # magnitudes of the terms summed in G_i
    return {
        "a": a, "w": w, "xi": xi, "wsq": wsq, "P": P, "D": D, "gap": P - D, "fp": fp,
        "pg": float(np.max(np.abs(pg), initial=0.0)),
        "pg_rel": float(np.max(np.abs(pg) / gscale, initial=0.0)),
        "comp": float(np.max(a * np.abs(G), initial=0.0)),
    }


def _accepted(cert, tol):
    return cert["gap"] <= tol * cert["P"] + cert["fp"] and cert["pg_rel"] <= L2SVC_KKT_ACCEPT


def _validate(X, y, C, bias, tol, max_iter):
    X = validate_X(X)
    bias = validate_bool("bias", bias)
    y = validate_labels(y, X.shape[0], both_classes=False)
    if isinstance(C, float | int | np.floating | np.integer) and not isinstance(C, bool) and C == math.inf:
        raise RpcheckError(
            f"`C` ({C!r}) must be a finite real number in the interval (0, inf): the L2-loss SVM has no hard-"
            "margin limit here (D = I/(2C) would vanish); use rpcheck.svm.solve_svc(..., C=np.inf) for that."
        )
    C = check_interval("C", C, 0, None, closed="neither", finite=True)
    C = validate_C_scale(C, X)
    tol = check_interval("tol", tol, 1e-15, 1e-3)
    max_iter = check_int("max_iter", max_iter, 1)
    return X, y, C, bias, tol, max_iter


def solve_l2svc(X, y, C, *, bias=False, tol=1e-9, max_iter=10_000):
    r"""Solve LIBLINEAR's default problem, the L2-loss linear SVM, exactly (dual coordinate descent + polish).

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Rows are the points. A sparse matrix is used as CSR and never densified (the polish forms only
        the Gram matrix of the active set).
    y : array_like of shape (n,)
        Labels in {-1, +1} (one class is allowed).
    C : float
        Loss weight, ``0 < C < inf``.
    bias : bool, default=False
        False: no bias, as LIBLINEAR's default ``-B -1``. True: append a constant-1 feature (LIBLINEAR
        ``-B 1``); the bias is then **regularised** (it is the weight of that feature).
    tol : float, default=1e-9
        Relative duality gap the certificate requires, ``gap <= tol * primal``; in ``[1e-15, 1e-3]``.
    max_iter : int, default=10000
        Maximum number of DCD epochs (passes over the data), ``>= 1``.

    Returns
    -------
    L2SVCResult
        ``w``, ``b``, ``alpha``, ``primal_objective``, ``objective`` (dual), ``gap``, ``gap_rel``,
        ``w_error_bound``, ``kkt_pg``, ``complementarity``, ``margin = 1/||w||``, ``slack``, ``iterations``.

    Raises
    ------
    RpcheckError
        Bad input (named argument, value and allowed values).
    SolverError
        No point passed the certificate (relative gap ``<= tol`` and relative projected gradient
        ``<= 1e-6``)
        within ``max_iter`` epochs.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]]); y = np.array([1, -1])
    >>> res = solve_l2svc(X, y, 1.0)  # min w^2/2 + 2 (1 - w)^2: w = 4/5, alpha_i = 2C xi_i = 2/5
    >>> round(float(res.w[0]), 12), round(float(res.alpha[0]), 12)
    (0.8, 0.4)
    """
    t0 = time.perf_counter()
    X, y, C, bias, tol, max_iter = _validate(X, y, C, bias, tol, max_iter)
    with single_thread_blas():  # small dense products: one thread (rpcheck._threads)
        return _solve(X, y, C, bias, tol, max_iter, t0)


def _solve(X, y, C, bias, tol, max_iter, t0):
    n, d = X.shape
    if bias:
        one = np.ones((n, 1))
        Xa = sp.hstack([X, sp.csr_matrix(one)], format="csr") if sp.issparse(X) else np.hstack([X, one])
    else:
        Xa = X
    dii = 1.0 / (2.0 * C)
    if sp.issparse(Xa):
        Xa = sp.csr_matrix(Xa)
        Xa.sort_indices()
        sq = np.asarray(Xa.multiply(Xa).sum(axis=1)).ravel()
    else:
        Xa = np.ascontiguousarray(Xa)
        sq = np.einsum("ij,ij->i", Xa, Xa)
    qdiag = sq + dii
    alpha = np.zeros(n)
    wv = np.zeros(Xa.shape[1])
    from ._dcd import dcd_csr, dcd_dense  # lazy: numba kernels, compiled on first use

    epochs = 0
    best = None
    for k in range(len(_STAGES) + 1):
        left = stage_budget(_STAGES, k, max_iter, epochs)
        if left <= 0:
            break
        if sp.issparse(Xa):
            ran, pgmax = dcd_csr(Xa.indptr.astype(np.int64), Xa.indices.astype(np.int64), Xa.data, y, qdiag, dii,
                             alpha, wv, left, _PG_STOP, _SEED + epochs)
        else:
            ran, pgmax = dcd_dense(Xa, y, qdiag, dii, alpha, wv, left, _PG_STOP, _SEED + epochs)
        epochs += int(ran)
        for cand, polished in ((_polish(Xa, y, alpha, C, dii), True), (alpha, False)):
            if cand is None:
                continue
            cert = _certificate(Xa, y, cand, C, dii)
            if best is None or cert["gap"] / cert["P"] < best[0]["gap"] / best[0]["P"]:
                best = (cert, polished)
            if _accepted(cert, tol):
                return _result(cert, polished, C, bias, epochs, t0, n, d)
        if pgmax <= _PG_STOP:
            break
    cert = best[0] if best is not None else _certificate(Xa, y, alpha, C, dii)
    raise SolverError(
        f"solve_l2svc: no certified point after {epochs} DCD epochs (max_iter={max_iter}): relative gap "
        f"{cert['gap'] / cert['P']:.2e} (tol {tol:g}), max relative |projected gradient| {cert['pg_rel']:.2e} "
        f"(accept {L2SVC_KKT_ACCEPT:g}) [n={n}, d={d}, C={C:g}, bias={bias}]",
        status="not_certified", solver="DCD",
    )


def _result(cert, polished, C, bias, epochs, t0, n, d):
    a, wa = cert["a"], cert["w"]
    w, b = (wa[:-1].copy(), float(wa[-1])) if bias else (wa, 0.0)
    wsq = float(w @ w)
    check_finite_outputs("solve_l2svc", f"n={n}, d={d}, C={C:g}, bias={bias}", alpha=a, w=w, b=b,
                         objective=cert["D"], primal_objective=cert["P"])
    return L2SVCResult(
        alpha=a,
        w=w,
        b=b,
        objective=float(cert["D"]),
        primal_objective=float(cert["P"]),
        gap=float(cert["gap"]),
        gap_rel=float(abs(cert["gap"]) / cert["P"]),
        w_error_bound=float(math.sqrt(2.0 * (max(cert["gap"], 0.0) + cert["fp"]))),
        w_norm_sq=wsq,
        margin=float(1.0 / math.sqrt(wsq)) if wsq > 0 else math.inf,
        slack=cert["xi"],
        kkt_pg=cert["pg"],
        kkt_pg_rel=cert["pg_rel"],
        complementarity=cert["comp"],
        n_sv=int(np.count_nonzero(a > 0)),
        polished=bool(polished),
        C=float(C),
        bias=bool(bias),
        solver="DCD",
        status="optimal",
        iterations=int(epochs),
        solve_time=time.perf_counter() - t0,
    )
