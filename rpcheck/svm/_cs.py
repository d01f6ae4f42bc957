"""Compiled (numba) epochs of the sequential dual method for the Crammer-Singer multiclass SVM
(``rpcheck.svm.multiclass``).

Keerthi, Sundararajan, Chang, Hsieh and Lin (2008), "A sequential dual method for large scale multi-class
linear SVMs", KDD, Algorithm 1 (without shrinking): one epoch visits every example once in a random order
and solves its sub-problem (their eq. (8)) exactly, keeping ``W = sum_i alpha_i x_i^T`` updated. The
sub-problem solver is the sort-based exact one of Crammer and Singer (2001, JMLR 2, Sec. 6), as LIBLINEAR's
``Solver_MCSVM_CS::solve_sub_problem``.

Two epoch kernels share one sub-problem step (:func:`_sub_step`): :func:`cs_epochs` on a dense ``X`` (cost
``O(n K d)`` an epoch) and :func:`cs_epochs_csr` on the CSR arrays ``(indptr, indices, data)`` (cost
``O(K nnz(x_i))`` an example plus the ``O(K log K)`` sort). On the same rows, order of visits and ``sq``,
the CSR kernel computes the same floating-point numbers as the dense one: the dense inner products add the
terms of the zero entries, each ``w * 0.0 = +-0.0``, which leaves a finite partial sum unchanged, and
its ``W`` updates add ``delta * 0.0`` to those columns (unchanged values); the non-zero terms are added in the
same (increasing column) order when the indices are sorted. ``tests/svm/test_multiclass_csr.py`` checks
``alpha`` and ``W`` bit for bit.
"""

import numpy as np
from numba import njit

from ._dcd import _shuffle


@njit(cache=True, nogil=True)
def cs_epochs(X, yk, C, sq, alpha, W, epochs, tol, seed):
    """Run up to ``epochs`` epochs on dense ``X`` (in place on ``alpha`` (n, K) and ``W`` (K, d)).

    Stops after the first epoch whose largest optimality violation ``max_m G_m - min_{m: alpha_m < C_m} G_m``
    (Keerthi et al. 2008, eq. (12)) is ``<= tol``. Returns ``(epochs_run, max_violation_of_last_epoch)``.
    """
    n, d = X.shape
    K = W.shape[0]
    perm = np.arange(n)
    state = np.uint64(seed) | np.uint64(1)
    G = np.empty(K)
    B = np.empty(K)
    D = np.empty(K)
    Dl = np.empty(K)
    vmax = np.inf
    for ep in range(epochs):
        state = _shuffle(perm, state)
        vmax = 0.0
        for t in range(n):
            i = perm[t]
            Ai = sq[i]
            if Ai <= 0.0:
                continue
            yi = yk[i]
            for m in range(K):
                s = 0.0
                for j in range(d):
                    s += W[m, j] * X[i, j]
                G[m] = s if m == yi else s + 1.0
            v = _sub_step(G, B, D, alpha, i, yi, Ai, C, K, Dl)
            if v > vmax:
                vmax = v
            for m in range(K):
                delta = Dl[m]
                if delta != 0.0:
                    for j in range(d):
                        W[m, j] += delta * X[i, j]
        if vmax <= tol:
            return ep + 1, vmax
    return epochs, vmax


@njit(cache=True, nogil=True)
def _sub_step(G, B, D, alpha, i, yi, Ai, C, K, Dl):
    """Example ``i``'s sub-problem from its gradient ``G`` (Keerthi et al. 2008, eq. (8)-(12); Crammer and
    Singer 2001, Sec. 6): updates ``alpha[i]`` in place, writes the changes into ``Dl`` (0 where unchanged)
    and returns the example's optimality violation."""
    gmax = -np.inf
    gmin = np.inf
    for m in range(K):
        Dl[m] = 0.0
        if G[m] > gmax:
            gmax = G[m]
        cm = C if m == yi else 0.0
        if alpha[i, m] < cm and G[m] < gmin:
            gmin = G[m]
    v = gmax - gmin
    if v <= 0.0:
        return v
    for m in range(K):
        B[m] = G[m] - Ai * alpha[i, m]
        D[m] = B[m]
    D[yi] += Ai * C
    Ds = -np.sort(-D)  # descending
    beta = Ds[0] - Ai * C
    r = 1
    while r < K and beta < r * Ds[r]:
        beta += Ds[r]
        r += 1
    beta /= r
    for m in range(K):
        cm = C if m == yi else 0.0
        a_new = min(cm, (beta - B[m]) / Ai)
        delta = a_new - alpha[i, m]
        if delta != 0.0:
            alpha[i, m] = a_new
            Dl[m] = delta
    return v


@njit(cache=True, nogil=True)
def cs_epochs_csr(indptr, indices, data, yk, C, sq, alpha, W, epochs, tol, seed):
    """:func:`cs_epochs` on a CSR ``X`` given by ``(indptr, indices, data)`` (sorted column indices; ``W``
    dense (K, d)): the same visits, sub-problem and stopping rule, ``O(K nnz(x_i))`` work per example."""
    n = indptr.shape[0] - 1
    K = W.shape[0]
    perm = np.arange(n)
    state = np.uint64(seed) | np.uint64(1)
    G = np.empty(K)
    B = np.empty(K)
    D = np.empty(K)
    Dl = np.empty(K)
    vmax = np.inf
    for ep in range(epochs):
        state = _shuffle(perm, state)
        vmax = 0.0
        for t in range(n):
            i = perm[t]
            Ai = sq[i]
            if Ai <= 0.0:
                continue
            yi = yk[i]
            lo = indptr[i]
            hi = indptr[i + 1]
            for m in range(K):
                s = 0.0
                for p in range(lo, hi):
                    s += W[m, indices[p]] * data[p]
                G[m] = s if m == yi else s + 1.0
            v = _sub_step(G, B, D, alpha, i, yi, Ai, C, K, Dl)
            if v > vmax:
                vmax = v
            for m in range(K):
                delta = Dl[m]
                if delta != 0.0:
                    for p in range(lo, hi):
                        W[m, indices[p]] += delta * data[p]
        if vmax <= tol:
            return ep + 1, vmax
    return epochs, vmax
