"""Labelled data: linearly separable and non-separable binary sets with a known margin, multi-class sets, and
the exact-rank instances of Paul et al. (2014) (:mod:`rpcheck.generators`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._rng import as_generator
from .._validation import check_choice, check_int, check_interval
from .matrices import haar_orthonormal, orthonormal_basis


class BinaryData(NamedTuple):
    """Labelled binary data from :func:`separable_dataset` or :func:`nonseparable_dataset`.

    Attributes
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), float64 labels in {-1, +1}, both present
    w : ndarray of shape (d,) or None
        The planted unit normal (separable data), or the unit normal of the labelling rule before label
        noise (non-separable data).
    b : float
        Planted offset (0 without bias).
    margin : float or None
        The planted lower bound on the normalised margin (see :func:`separable_dataset`); None if not
        separable.
    separable : bool or None
        True (guaranteed separable), False (guaranteed not separable), None (no guarantee).
    center : ndarray of shape (d,) or None
        With ``bias=True``, the point about which the margin is normalised.
    certificate : tuple of int or None
        For non-separable data, indices ``(i, j, k)`` with ``x_k = (x_i + x_j)/2`` and
        ``y_k = -y_i = -y_j``: no affine function classifies all three correctly.
    """

    X: np.ndarray
    y: np.ndarray
    w: np.ndarray | None
    b: float
    margin: float | None
    separable: bool | None
    center: np.ndarray | None = None
    certificate: tuple | None = None


def _balanced_labels(n, rng):
    """n labels in {-1, +1}, i.i.d. fair coins conditioned on both classes being present (n >= 2)."""
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    if np.all(y == y[0]):
        y[rng.integers(n)] = -y[0]
    return y


def _unit_orthogonal(z, w):
    """Rows of z projected onto w-perp and normalised (w unit); rows that vanish become e_j - (e_j.w)w."""
    p = z - np.outer(z @ w, w)
    norms = np.linalg.norm(p, axis=1)
    bad = norms <= 1e-12 * max(1.0, float(np.max(np.abs(z)))) if z.size else np.zeros(0, bool)
    if bad.any():  # probability zero for Gaussian z with d >= 2; deterministic fallback keeps the guarantee
        j = int(np.argmin(np.abs(w)))
        e = np.zeros_like(w)
        e[j] = 1.0
        q = e - (e @ w) * w
        p[bad] = q
        norms[bad] = np.linalg.norm(q)
    return p / norms[:, None]


def normalized_margins(X, y, w, *, b=0.0, center=None):
    r"""Per-point normalised margins ``y_i (<w, x_i> + b) / (||w|| ||x_i - c||)`` (Shi et al. 2012, Def. 2).

    ``c`` is ``center`` (zero when None). Points with ``x_i = c`` give ``nan``.
    """
    X = np.asarray(X, dtype=float)
    w = np.asarray(w, dtype=float)
    Z = X if center is None else X - np.asarray(center, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(y) * (X @ w + b) / (np.linalg.norm(w) * np.linalg.norm(Z, axis=1))


def separable_dataset(n, d, *, margin, bias=False, rng=None):
    r"""Labelled binary data with a planted normalised margin.

    Parameters
    ----------
    n : int
        Number of samples, ``n >= 2`` (both classes are always present).
    d : int
        Number of features, ``d >= 1``. With ``d = 1`` the only possible directions are ``+-w``, so every
        point has normalised margin 1.
    margin : float
        Planted normalised margin ``gamma`` in ``(0, 1]``.
    bias : bool, default=False
        Without bias the planted hyperplane passes through the origin (Shi et al.'s no-bias margin).
        With bias the data are translated by a random centre ``c ~ N(0, I_d)`` and ``b = -<w, c>``.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    BinaryData
        ``separable=True``, the planted unit ``w``, ``b``, ``margin=gamma`` and ``center`` (bias only).

    Notes
    -----
    Guarantee (every draw, to rounding error): with the returned unit ``w``,

    .. math:: \min_i \frac{y_i (\langle w, x_i \rangle + b)}{\lVert x_i - c \rVert_2} \ge \gamma,

    where ``c = 0, b = 0`` without bias (then this is Shi et al. 2012, Definition 2, for the witness ``w``).
    The minimum is attained (equality) at one point when ``d >= 2``, so ``gamma`` is exactly the margin of
    the planted ``w``; the *maximum* normalised margin over all directions may be larger. Consequently the
    data are strictly linearly separable (no bias) and the hard-margin SVM with bias is feasible with
    geometric margin at least ``gamma * min_i ||x_i - c||``.

    Construction: ``x_i - c = ||z_i|| (y_i t_i w + sqrt(1 - t_i^2) u_i)`` with ``z_i ~ N(0, I_d)``,
    ``u_i`` the unit projection of ``z_i`` on ``w``-perp, labels fair coins conditioned on both classes,
    and cosines ``t_i = gamma + (1 - gamma) B_i``, ``B_i ~ Beta(1, 4)`` (mass near the margin, so many
    points are candidate support vectors), one ``t_i`` set to exactly ``gamma``.

    Examples
    --------
    >>> data = separable_dataset(30, 5, margin=0.2, rng=0)
    >>> bool(normalized_margins(data.X, data.y, data.w).min() >= 0.2 - 1e-12)
    True
    """
    rng = as_generator(rng)
    n = check_int("n", n, 2)
    d = check_int("d", d, 1)
    gamma = check_interval("margin", margin, 0, 1, closed="right")
    bias = bool(bias)
    w = haar_orthonormal(d, 1, rng=rng)[:, 0]
    y = _balanced_labels(n, rng)
    z = rng.standard_normal((n, d))
    radius = np.linalg.norm(z, axis=1)
    radius[radius == 0] = 1.0
    if d == 1:
        Z = (y * radius)[:, None] * w[None, :]
    else:
        t = gamma + (1.0 - gamma) * rng.beta(1.0, 4.0, size=n)
        t[rng.integers(n)] = gamma
        u = _unit_orthogonal(z, w)
        Z = radius[:, None] * ((y * t)[:, None] * w[None, :] + np.sqrt(1.0 - t * t)[:, None] * u)
    if bias:
        c = rng.standard_normal(d)
        return BinaryData(Z + c, y, w, float(-(w @ c)), gamma, True, center=c)
    return BinaryData(Z, y, w, 0.0, gamma, True)


def nonseparable_dataset(n, d, *, flip=0.1, rng=None):
    r"""Labelled binary data that are guaranteed **not** linearly separable (with or without bias).

    Parameters
    ----------
    n : int
        ``n >= 3``.
    d : int
        ``d >= 1``.
    flip : float, default=0.1
        In ``[0, 1)``: each label of the Gaussian data, labelled by the sign of ``<w, x>`` for a Haar-random
        unit ``w``, is flipped independently with this probability (label noise).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    BinaryData
        ``separable=False``; ``certificate=(i, j, k)``.

    Notes
    -----
    Guarantee: after the label noise, one point ``k`` is replaced by the midpoint of two points ``i, j`` of
    the same class and given the opposite label. For any affine ``f(x) = <w, x> + b``,
    ``f(x_k) = (f(x_i) + f(x_j))/2``, so ``y_i f(x_i) > 0`` and ``y_j f(x_j) > 0`` force ``y_k f(x_k) < 0``:
    the data are not separable by any hyperplane, so a hard-margin SVM (``C = inf``) must report
    infeasibility, and every soft-margin solution has a nonzero slack. Both classes are present.
    """
    rng = as_generator(rng)
    n = check_int("n", n, 3)
    d = check_int("d", d, 1)
    flip = check_interval("flip", flip, 0, 1, closed="left")
    w = haar_orthonormal(d, 1, rng=rng)[:, 0]
    X = rng.standard_normal((n, d))
    y = np.where(X @ w >= 0, 1.0, -1.0)
    y = np.where(rng.random(n) < flip, -y, y)
    i, j, k = (int(v) for v in rng.choice(n, size=3, replace=False))
    y[j] = y[i]
    X[k] = 0.5 * (X[i] + X[j])
    y[k] = -y[i]
    return BinaryData(X, y, w, 0.0, None, False, certificate=(i, j, k))


class MulticlassData(NamedTuple):
    """Labelled multiclass data from :func:`multiclass_dataset`.

    Attributes
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), int labels in {0, ..., k-1}, every class present
    witnesses : ndarray of shape (k, d), unit rows ``u_0, ..., u_{k-1}``
    margin : float, the planted lower bound on the multiclass normalised margin
    """

    X: np.ndarray
    y: np.ndarray
    witnesses: np.ndarray
    margin: float


def multiclass_margins(X, y, witnesses):
    r"""Per-point multiclass normalised margins (Shi et al. 2012, Definition 7, eq. (5)):

    ``cos(u_{y_i}, x_i) - max_{y' != y_i} cos(u_{y'}, x_i)``.
    """
    X = np.asarray(X, dtype=float)
    U = np.asarray(witnesses, dtype=float)
    y = np.asarray(y)
    cos = (X @ U.T) / (np.linalg.norm(X, axis=1)[:, None] * np.linalg.norm(U, axis=1)[None, :])
    idx = np.arange(X.shape[0])
    own = cos[idx, y]
    cos[idx, y] = -np.inf
    return own - cos.max(axis=1)


def multiclass_dataset(n, d, k, *, margin, rng=None):
    r"""Labelled ``k``-class data with witness vectors and a planted multiclass normalised margin.

    Parameters
    ----------
    n : int
        ``n >= k`` (every class is present).
    d : int
        ``d >= 2``.
    k : int
        Number of classes, ``2 <= k <= d`` (the witnesses are orthonormal; with more classes than
        dimensions the construction below no longer certifies the margin).
    margin : float
        Planted margin ``gamma`` in ``(0, 1]`` (Shi et al. restrict Definition 7 to this range).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    MulticlassData
        The witnesses are Haar-distributed orthonormal rows.

    Notes
    -----
    Guarantee (every draw, to rounding error), Shi et al. 2012, Definition 7 with the returned witnesses:

    .. math:: \min_i \Big( \cos(u_{y_i}, x_i) - \max_{y' \ne y_i} \cos(u_{y'}, x_i) \Big) \ge \gamma.

    Construction: for a point of class ``y`` pick a uniform unit ``v`` orthogonal to ``u_y``, let
    ``m = max(0, max_{y' != y} <v, u_{y'}>)`` and a target ``g`` in ``[gamma, 1]`` (one point per draw has
    ``g = gamma``); the direction ``x/||x|| = c u_y + sqrt(1 - c^2) v`` with
    ``c = cos(theta)``, ``theta = acos(g cos(phi)) - phi``, ``phi = atan(m)`` (the root ``c >= g`` of
    ``c - m sqrt(1 - c^2) = g``, in angle form for accuracy near ``g = 1``) has margin
    ``c - sqrt(1-c^2) max_{y'} <v, u_{y'}> >= g``. Labels are ``0, ..., k-1``.
    """
    rng = as_generator(rng)
    d = check_int("d", d, 2)
    k = check_int("k", k, 2, d)
    n = check_int("n", n, k)
    gamma = check_interval("margin", margin, 0, 1, closed="right")
    U = haar_orthonormal(d, k, rng=rng).T
    y = np.concatenate([np.arange(k), rng.integers(0, k, size=n - k)])
    y = y[rng.permutation(n)]
    z = rng.standard_normal((n, d))
    radius = np.linalg.norm(z, axis=1)
    radius[radius == 0] = 1.0
    X = np.empty((n, d))
    g = gamma + (1.0 - gamma) * rng.beta(1.0, 4.0, size=n)
    g[rng.integers(n)] = gamma
    v_raw = rng.standard_normal((n, d))
    for i in range(n):
        u = U[y[i]]
        v = _unit_orthogonal(v_raw[i : i + 1], u)[0]
        others = np.delete(U, y[i], axis=0) @ v
        m = max(0.0, float(others.max()))
        # angle form of the root: with m = tan(phi), c - m s = cos(theta + phi) / cos(phi) = g gives
        # theta = acos(g cos(phi)) - phi >= 0; cos/sin of theta avoid the cancellation of sqrt(1 - c^2),
        # which lost up to 1e-8 of margin for gamma near 1
        phi = np.arctan(m)
        theta = np.arccos(g[i] * np.cos(phi)) - phi
        X[i] = radius[i] * (np.cos(theta) * u + np.sin(theta) * v)
    return MulticlassData(X, y.astype(np.int64), U, gamma)


# ------------------------------------------------------------------ exact-rank instances of Paul et al. (2014)
#: Label regimes of :func:`low_rank_classification`.
LOW_RANK_REGIMES = ("hard", "soft", "random")


def low_rank_classification(n, d, rho, regime, *, rng, coherence="incoherent", margin=0.5, flip=0.15):
    """Labelled data of exact rank ``rho``: ``X = Z V^T`` with ``Z`` (n x rho) Gaussian and ``V`` (d x rho)
    orthonormal (:func:`orthonormal_basis`), so ``rank(X) = rho`` almost surely, ``V`` is an orthonormal basis
    of the row space and ``X X^T = Z Z^T`` (a dual that depends on the data only through this Gram matrix can
    be solved on the factor ``Z``). Used by the Paul et al. (2014) and Alpcan et al. (2016) checkers.

    ``regime="hard"``: linearly separable with bias by construction: a unit ``u`` in R^rho and offset
    ``b0``, ``y = sign(Z u + b0)``, then every point is pushed ``margin`` away from the hyperplane along
    ``u`` (so the hard-margin SVM is feasible with geometric margin >= ``margin``). ``regime="soft"``:
    the same, then each label is flipped with probability ``flip`` (not separable in general, so the
    soft-margin optimum has bounded support vectors and positive slack). ``regime="random"``: labels
    i.i.d. uniform in {-1, +1}, independent of the points (Gaussian, so in general position a.s.); by
    Cover's function-counting theorem (Cover 1965, with the bias as an extra coordinate) the labelling is
    linearly separable with probability exactly ``P(Bin(n - 1, 1/2) <= rho)``. Both classes always occur.

    Returns ``X (n, d), y (n,), Z (n, rho), V (d, rho)``.

    >>> X, y, Z, V = low_rank_classification(20, 8, 3, "hard", rng=np.random.default_rng(0))
    >>> X.shape, int(np.linalg.matrix_rank(X)), sorted(set(y.tolist()))
    ((20, 8), 3, [-1.0, 1.0])
    """
    n = check_int("n", n, 2)
    d = check_int("d", d, 1)
    rho = check_int("rho", rho, 1, d)
    check_choice("regime", regime, LOW_RANK_REGIMES)
    margin = check_interval("margin", margin, 0.0, None, finite=True)
    flip = check_interval("flip", flip, 0.0, 1.0)
    rng = as_generator(rng)
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


def low_rank_regression(n, d, rho, *, rng, noise=0.1):
    """Regression data of exact rank ``rho``: ``y = X beta + noise`` with ``beta`` in the row space
    (``X = Z V^T`` as in :func:`low_rank_classification`).

    Returns ``X (n, d), y (n,), Z (n, rho), V (d, rho)``.

    >>> X, y, Z, V = low_rank_regression(10, 6, 2, rng=np.random.default_rng(0))
    >>> X.shape, y.shape, int(np.linalg.matrix_rank(X))
    ((10, 6), (10,), 2)
    """
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    rho = check_int("rho", rho, 1, d)
    noise = check_interval("noise", noise, 0.0, None, finite=True)
    rng = as_generator(rng)
    Z = rng.standard_normal((n, rho))
    beta = rng.standard_normal(rho)
    y = Z @ beta / np.sqrt(rho) + noise * rng.standard_normal(n)
    V = orthonormal_basis(d, rho, rng=rng)
    return Z @ V.T, y, Z, V
