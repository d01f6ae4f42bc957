"""Compiled (numba) dual coordinate descent epochs for the L2-loss linear SVM (``rpcheck.svm.liblinear``).

Hsieh, Chang, Lin, Keerthi and Sundararajan (2008), "A dual coordinate descent method for large-scale
linear SVM", ICML, Algorithm 1 with ``U = inf`` and ``D_ii = 1/(2C)`` (the L2-loss case). One epoch visits
every coordinate once in a random order (their Sec. 3.1 permutation), keeping ``w = sum_i alpha_i y_i x_i``
updated. Two twins, dense rows and CSR rows (the sparse input is never densified), differ only in how they
read a row; they share the coordinate step (:func:`_coordinate`). The order comes from
a xorshift64* generator seeded by the caller, so a solve is reproducible.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _shuffle(perm, state):
    """Fisher-Yates shuffle of ``perm`` in place with xorshift64*; returns the new state."""
    n = perm.shape[0]
    for i in range(n - 1, 0, -1):
        state ^= state >> np.uint64(12)
        state ^= state << np.uint64(25)
        state ^= state >> np.uint64(27)
        r = state * np.uint64(2685821657736338717)
        j = np.int64(r % np.uint64(i + 1))
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    return state


@njit(cache=True, nogil=True, inline="always")  # inlined: no call per coordinate visit
def _coordinate(s, yi, qi, dii, ai):
    """Coordinate ``i``'s step from ``s = w^T x_i``, ``y_i``, ``Q_ii``, ``D_ii`` and ``alpha_i`` (Algorithm 1: the
    gradient ``G``, the projected gradient ``pg`` and the exact minimiser ``max(alpha_i - G / Q_ii, 0)``).
    Returns ``(|pg|, new alpha_i, delta)``, ``delta`` the change of ``alpha_i y_i``: the caller adds
    ``delta x_i`` to ``w``. Scalars only, so that the inlined step touches no array reference count."""
    G = yi * s - 1.0 + dii * ai
    pg = G if ai > 0.0 else min(G, 0.0)
    if pg != 0.0 and qi > 0.0:
        new = ai - G / qi
        if new < 0.0:
            new = 0.0
        return abs(pg), new, (new - ai) * yi
    return abs(pg), ai, 0.0


@njit(cache=True, nogil=True)
def dcd_dense(X, y, qdiag, dii, alpha, w, epochs, tol, seed):
    """Run up to ``epochs`` DCD epochs on dense ``X`` (in place on ``alpha`` and ``w``).

    Stops after the first epoch whose largest |projected gradient| is ``<= tol``. Returns
    ``(epochs_run, max_abs_pg_of_last_epoch)``.
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
            s = 0.0
            for j in range(d):
                s += w[j] * X[i, j]
            apg, alpha[i], delta = _coordinate(s, y[i], qdiag[i], dii, alpha[i])
            if apg > pgmax:
                pgmax = apg
            if delta != 0.0:
                for j in range(d):
                    w[j] += delta * X[i, j]
        if pgmax <= tol:
            return ep + 1, pgmax
    return epochs, pgmax


@njit(cache=True, nogil=True)
def dcd_csr(indptr, indices, data, y, qdiag, dii, alpha, w, epochs, tol, seed):
    """The CSR twin of :func:`dcd_dense` (rows ``data[indptr[i]:indptr[i+1]]`` at ``indices``)."""
    n = y.shape[0]
    perm = np.arange(n)
    state = np.uint64(seed) | np.uint64(1)
    pgmax = np.inf
    for ep in range(epochs):
        state = _shuffle(perm, state)
        pgmax = 0.0
        for k in range(n):
            i = perm[k]
            s = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                s += w[indices[p]] * data[p]
            apg, alpha[i], delta = _coordinate(s, y[i], qdiag[i], dii, alpha[i])
            if apg > pgmax:
                pgmax = apg
            if delta != 0.0:
                for p in range(indptr[i], indptr[i + 1]):
                    w[indices[p]] += delta * data[p]
        if pgmax <= tol:
            return ep + 1, pgmax
    return epochs, pgmax
