r"""Compiled (numba) dual coordinate descent epochs for the L1-loss SVM dual with an augmented equality.

The inner problem of the method of multipliers in :func:`rpcheck.svm.svc._solve_dcd`:

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
(their Sec. 3.1), drawn by :func:`rpcheck.svm._dcd._shuffle` (xorshift64*, seeded by the caller). Two twins:
dense rows and CSR rows (sparse X is never densified).
"""

import numpy as np
from numba import njit

from ._dcd import _shuffle


@njit(cache=True, nogil=True)
def dcd_svc_dense(X, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed):
    """Up to ``epochs`` epochs on dense ``X`` (in place on ``alpha`` and ``w``); ``s = y^T alpha`` on entry.

    Stops after the first epoch whose largest |projected gradient| is ``<= tol``. Returns
    ``(epochs_run, max_abs_pg_of_last_epoch, s)``.
    """
    n, d = X.shape
    perm = np.arange(n)
    state = np.uint64(seed) | np.uint64(1)
    pgmax = np.inf
    for ep in range(epochs):
        state = _shuffle(perm, state)
        pgmax = 0.0
        for k in range(n):
            i = perm[k]
            acc = 0.0
            for j in range(d):
                acc += w[j] * X[i, j]
            G = y[i] * (acc + lam + rho * s) - 1.0
            a = alpha[i]
            if a <= 0.0:
                pg = min(G, 0.0)
            elif a >= C:
                pg = max(G, 0.0)
            else:
                pg = G
            if abs(pg) > pgmax:
                pgmax = abs(pg)
            if pg != 0.0:
                new = a - G / qdiag[i]
                if new < 0.0:
                    new = 0.0
                elif new > C:
                    new = C
                alpha[i] = new
                delta = (new - a) * y[i]
                if delta != 0.0:
                    s += delta
                    for j in range(d):
                        w[j] += delta * X[i, j]
        if pgmax <= tol:
            return ep + 1, pgmax, s
    return epochs, pgmax, s


@njit(cache=True, nogil=True)
def dcd_svc_csr(indptr, indices, data, y, qdiag, C, lam, rho, alpha, w, s, epochs, tol, seed):
    """The CSR twin of :func:`dcd_svc_dense` (rows ``data[indptr[i]:indptr[i+1]]`` at ``indices``)."""
    n = y.shape[0]
    perm = np.arange(n)
    state = np.uint64(seed) | np.uint64(1)
    pgmax = np.inf
    for ep in range(epochs):
        state = _shuffle(perm, state)
        pgmax = 0.0
        for k in range(n):
            i = perm[k]
            acc = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                acc += w[indices[p]] * data[p]
            G = y[i] * (acc + lam + rho * s) - 1.0
            a = alpha[i]
            if a <= 0.0:
                pg = min(G, 0.0)
            elif a >= C:
                pg = max(G, 0.0)
            else:
                pg = G
            if abs(pg) > pgmax:
                pgmax = abs(pg)
            if pg != 0.0:
                new = a - G / qdiag[i]
                if new < 0.0:
                    new = 0.0
                elif new > C:
                    new = C
                alpha[i] = new
                delta = (new - a) * y[i]
                if delta != 0.0:
                    s += delta
                    for p in range(indptr[i], indptr[i + 1]):
                        w[indices[p]] += delta * data[p]
        if pgmax <= tol:
            return ep + 1, pgmax, s
    return epochs, pgmax, s
