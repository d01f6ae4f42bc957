"""Instance generators shared by the Paul et al. (2014) checkers (seeded, exact rank, stated regime).

Every instance is ``X = Z V^T`` with ``Z`` (n x rho) and ``V`` (d x rho) orthonormal, so ``rank(X) = rho``
almost surely, ``V`` is an orthonormal basis of the row space and ``X X^T = Z Z^T`` (the dual depends on
the data only through this Gram matrix, so the original dual is solved on the factor ``Z``).
"""

from __future__ import annotations

import numpy as np

from ...generators import orthonormal_basis

__all__ = ["classification_instance", "regression_instance", "REGIMES"]

REGIMES = ("hard", "soft", "random")


def classification_instance(n, d, rho, regime, *, rng, coherence="incoherent", margin=0.5, flip=0.15):
    """Low-rank labelled data.

    ``regime="hard"``: linearly separable with bias by construction: a unit ``u`` in R^rho and offset
    ``b0``, ``y = sign(Z u + b0)``, then every point is pushed ``margin`` away from the hyperplane along
    ``u`` (so the hard-margin SVM is feasible with geometric margin >= ``margin``). ``regime="soft"``:
    the same, then each label is flipped with probability ``flip`` (not separable in general, so the
    soft-margin optimum has bounded support vectors and positive slack). ``regime="random"``: labels
    i.i.d. uniform in {-1, +1}, independent of the points (Gaussian, so in general position a.s.); by
    Cover's function-counting theorem (Cover 1965, with the bias as an extra coordinate) the labelling is
    linearly separable with probability exactly ``P(Bin(n - 1, 1/2) <= rho)``.

    Returns ``X (n, d), y (n,), Z (n, rho), V (d, rho)``.
    """
    Z = rng.standard_normal((n, rho))
    if regime == "random":
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        if np.all(y == y[0]):  # both classes are needed for the bias constraint
            y[0] = -y[0]
        V = orthonormal_basis(d, rho, coherence=coherence, rng=rng)
        return Z @ V.T, y, Z, V
    u = rng.standard_normal(rho)
    u /= np.linalg.norm(u)
    b0 = 0.3 * rng.standard_normal()
    y = np.sign(Z @ u + b0)
    y[y == 0] = 1.0
    if np.all(y == y[0]):  # both classes are needed for the bias constraint
        y[0] = -y[0]
    Z = Z + np.outer(y * margin, u)
    if regime == "soft":
        y = np.where(rng.random(n) < flip, -y, y)
        if np.all(y == y[0]):
            y[0] = -y[0]
    V = orthonormal_basis(d, rho, coherence=coherence, rng=rng)
    return Z @ V.T, y, Z, V


def regression_instance(n, d, rho, *, rng, noise=0.1):
    """Low-rank regression data ``y = X beta + noise`` with ``beta`` in the row space.

    Returns ``X (n, d), y (n,), Z (n, rho), V (d, rho)``.
    """
    Z = rng.standard_normal((n, rho))
    beta = rng.standard_normal(rho)
    y = Z @ beta / np.sqrt(rho) + noise * rng.standard_normal(n)
    V = orthonormal_basis(d, rho, rng=rng)
    return Z @ V.T, y, Z, V
