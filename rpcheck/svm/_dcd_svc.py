r"""Compiled (numba) dual coordinate descent epochs for the L1-loss SVM dual with an augmented equality.

The inner problem of the method of multipliers in :func:`rpcheck.svm._svc_dcd._solve_dcd`:

.. math::

    \min_{0 \le \alpha \le C}\ \tfrac12 \alpha^T Q \alpha - e^T\alpha + \lambda\, y^T\alpha
    + \tfrac{\rho}{2} (y^T\alpha)^2, \qquad Q_{ij} = y_i y_j x_i^T x_j,

whose Hessian ``Q + rho y y^T`` is that of the data with an appended constant feature ``sqrt(rho)``. The
coordinate step is Hsieh, Chang, Lin, Keerthi and Sundararajan (2008), ICML, Algorithm 1 with ``U = C`` and
``D_ii = 0`` (the L1-loss case): the partial derivative

.. math::

    G_i = y_i (w^T x_i + \lambda + \rho s) - 1, \qquad w = X^T Y \alpha,\ s = y^T\alpha,

the projected gradient (``min(G_i, 0)`` at ``alpha_i = 0``, ``max(G_i, 0)`` at ``alpha_i = C``, ``G_i``
otherwise) and the exact one-dimensional minimiser ``clip(alpha_i - G_i / (||x_i||^2 + rho), 0, C)``;
``w`` and ``s`` are updated in ``O(nnz(x_i))``. One epoch visits every coordinate once in a random order
(their Sec. 3.1), drawn by :func:`rpcheck.svm._dcd._shuffle` (xorshift64*, seeded by the caller). Two twins,
dense rows and CSR rows (sparse X is never densified), differ only in how they read a row; they share the
coordinate step (:func:`_step`) and the shrinking bookkeeping (:func:`_epoch_end`).

Shrinking (Hsieh et al. 2008, Sec. 3.2, their Algorithm 3): within one call, a coordinate at ``alpha_i = 0``
whose ``G_i`` exceeds the largest projected gradient of the previous epoch, or at ``alpha_i = C`` whose
``G_i`` is below the smallest, is removed from the epochs; when the remaining coordinates reach ``tol``, every
coordinate is restored and a full epoch without shrinking decides. A call therefore reports convergence only
after a full epoch with ``max |PG| <= tol``; when it runs out of epochs while some coordinates are shrunk it
reports ``max |PG| = inf`` (not known to be small).
"""

import numpy as np
from numba import njit

from ._dcd import _shuffle


@njit(cache=True, nogil=True, inline="always")  # inlined: no call per coordinate visit
def _step(G, a, yi, qi, C, Mbar, mbar):
    """A coordinate's visit from its partial derivative ``G``, ``alpha_i = a``, ``y_i`` and ``qdiag_i``: returns
    ``(pg, shrink_it, new alpha_i, delta)``.

    ``shrink_it`` when the coordinate leaves the epochs (then ``pg = delta = 0`` and ``alpha_i`` stays);
    otherwise ``pg`` is its projected gradient, ``alpha_i`` moves to the exact minimiser
    ``clip(alpha_i - G / qdiag_i, 0, C)`` and ``delta`` is the change of ``y_i alpha_i`` (the caller adds
    ``delta x_i`` to ``w`` and ``delta`` to ``s``). Scalars only, so that the inlined step touches no array
    reference count.
    """
    if a <= 0.0:
        if G > Mbar:
            return 0.0, True, a, 0.0
        pg = min(G, 0.0)
    elif a >= C:
        if G < mbar:
            return 0.0, True, a, 0.0
        pg = max(G, 0.0)
    else:
        pg = G
    if pg == 0.0:
        return pg, False, a, 0.0
    new = a - G / qi
    if new < 0.0:
        new = 0.0
    elif new > C:
        new = C
    return pg, False, new, (new - a) * yi


@njit(cache=True, nogil=True)
def _epoch_end(pgmax, tol, m_act, n, pgM, pgm):
    """The shrinking bookkeeping after an epoch: returns ``(converged, m_act, Mbar, mbar)``.

    Converged when ``max |PG| <= tol`` over a full epoch; at ``tol`` with coordinates shrunk, every one is
    restored and the next epoch is full and does not shrink (``Mbar, mbar = inf, -inf``); otherwise the next
    epoch's shrink thresholds are this epoch's extreme projected gradients (Hsieh et al. 2008, Algorithm 3).
    """
    if pgmax <= tol:
        if m_act == n:
            return True, m_act, np.inf, -np.inf
        return False, n, np.inf, -np.inf
    return False, m_act, (pgM if pgM > 0.0 else np.inf), (pgm if pgm < 0.0 else -np.inf)


@njit(cache=True, nogil=True)
def dcd_svc_dense(X, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed):
    """Up to ``epochs`` epochs on dense ``X`` (in place on ``alpha`` and ``w``); ``s = y^T alpha`` on entry.

    Returns ``(epochs_run, max_abs_pg, s)``: ``max_abs_pg`` of the last full epoch when it is ``<= tol``
    (converged), else of the last epoch when no coordinate was shrunk, else ``inf``.
    """
    n, d = X.shape
    active = np.arange(n)
    m_act = n
    state = np.uint64(seed) | np.uint64(1)
    Mbar, mbar = np.inf, -np.inf
    pgmax = np.inf
    for ep in range(epochs):
        state = _shuffle(active[:m_act], state)
        pgmax = 0.0
        pgM, pgm = -np.inf, np.inf
        k = 0
        while k < m_act:
            i = active[k]
            acc = 0.0
            for j in range(d):
                acc += w[j] * X[i, j]
            G = y[i] * (acc + lam + rho * s) - 1.0
            pg, drop, alpha[i], delta = _step(G, alpha[i], y[i], qdiag[i], C, Mbar, mbar)
            if drop:
                m_act -= 1
                active[k] = active[m_act]
                active[m_act] = i
                continue
            k += 1
            pgM = max(pgM, pg)
            pgm = min(pgm, pg)
            if abs(pg) > pgmax:
                pgmax = abs(pg)
            if delta != 0.0:
                s += delta
                for j in range(d):
                    w[j] += delta * X[i, j]
        done, m_act, Mbar, mbar = _epoch_end(pgmax, tol, m_act, n, pgM, pgm)
        if done:
            return ep + 1, pgmax, s
    return epochs, (pgmax if m_act == n else np.inf), s


@njit(cache=True, nogil=True)
def dcd_svc_csr(indptr, indices, data, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed):
    """The CSR twin of :func:`dcd_svc_dense` (rows ``data[indptr[i]:indptr[i+1]]`` at ``indices``)."""
    n = y.shape[0]
    active = np.arange(n)
    m_act = n
    state = np.uint64(seed) | np.uint64(1)
    Mbar, mbar = np.inf, -np.inf
    pgmax = np.inf
    for ep in range(epochs):
        state = _shuffle(active[:m_act], state)
        pgmax = 0.0
        pgM, pgm = -np.inf, np.inf
        k = 0
        while k < m_act:
            i = active[k]
            acc = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                acc += w[indices[p]] * data[p]
            G = y[i] * (acc + lam + rho * s) - 1.0
            pg, drop, alpha[i], delta = _step(G, alpha[i], y[i], qdiag[i], C, Mbar, mbar)
            if drop:
                m_act -= 1
                active[k] = active[m_act]
                active[m_act] = i
                continue
            k += 1
            pgM = max(pgM, pg)
            pgm = min(pgm, pg)
            if abs(pg) > pgmax:
                pgmax = abs(pg)
            if delta != 0.0:
                s += delta
                for p in range(indptr[i], indptr[i + 1]):
                    w[indices[p]] += delta * data[p]
        done, m_act, Mbar, mbar = _epoch_end(pgmax, tol, m_act, n, pgM, pgm)
        if done:
            return ep + 1, pgmax, s
    return epochs, (pgmax if m_act == n else np.inf), s
