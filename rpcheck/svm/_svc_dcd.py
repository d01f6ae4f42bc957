"""``solve_svc(..., solver="DCD")``: the SVC dual (Paul et al. 2014, eq. 3) by dual coordinate descent inside a
method of multipliers on ``y^T alpha = 0``, on dense or CSR X without densifying it (compiled epochs in
:mod:`rpcheck.svm._dcd_svc`). Its points go through the same certificate as every other path
(:func:`rpcheck.svm._svc_polish._finalize`). Reference and derivation in :func:`_solve_dcd`'s docstring.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._threads import single_thread_blas
from ..errors import RpcheckError, SolverError
from ._svc_polish import (
    _WARM_ACCEPT,
    _check_warm,
    _finalize,
    _hinge_argmin_b,
    _rows_sparse_safe,
    _sets,
    _transpose_times,
    _with_context,
)
from .kkt import decision_values

#: ``solver_options`` keys of ``solver="DCD"`` and their defaults: ``tol`` (largest |projected gradient| and
#: largest bias step, in margin units, at which the first certificate is tried; in [1e-15, 1e-3]),
#: ``max_iter`` (DCD epochs in all, >= 1).
DCD_OPTIONS = {"tol": 1e-9, "max_iter": 100_000}


_DCD_SEED = 0x5EED_5DCD
# Epochs of one call of the compiled kernel between two multiplier updates (an inner solve stops earlier
# when its projected gradient reaches its tolerance).
_DCD_INNER = 50
# Each failed certificate divides the stopping tolerance by this (down to 1e-15) and DCD continues.
_DCD_TIGHTEN = 100.0
# rho = _DCD_RHO * mean_i ||x_i||^2: a smaller rho conditions the inner problems better (the appended feature
# sqrt(rho) is weaker), a larger one needs fewer multiplier steps. On three n = 120..200, d = 10..40
# non-separable instances rho factor 0.3 needs 1.1k-30k epochs (7-10 steps), 1 needs 1.6k-54k and 3 up to
# > 100k (without shrinking and the checkpoints); 0.25 is taken next to the best measured.
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
