"""Compiled (numba) epochs of the sequential dual method for the Crammer-Singer multiclass SVM
(``rpcheck.svm.multiclass``).

Keerthi, Sundararajan, Chang, Hsieh and Lin (2008), "A sequential dual method for large scale multi-class
linear SVMs", KDD, Algorithm 1 (without shrinking): one epoch visits every example once in a random order
and solves its sub-problem (their eq. (8)) exactly, keeping ``W = sum_i alpha_i x_i^T`` updated. The
sub-problem solver is the sort-based exact one of Crammer and Singer (2001, JMLR 2, Sec. 6), as LIBLINEAR's
``Solver_MCSVM_CS::solve_sub_problem``.
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
            gmax = -np.inf
            gmin = np.inf
            for m in range(K):
                if G[m] > gmax:
                    gmax = G[m]
                cm = C if m == yi else 0.0
                if alpha[i, m] < cm and G[m] < gmin:
                    gmin = G[m]
            v = gmax - gmin
            if v > vmax:
                vmax = v
            if v <= 0.0:
                continue
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
                    for j in range(d):
                        W[m, j] += delta * X[i, j]
        if vmax <= tol:
            return ep + 1, vmax
    return epochs, vmax
