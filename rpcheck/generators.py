r"""Seeded numpy generators of test instances: orthonormal bases, low-rank and sparse matrices, labelled data.

These are the plain functions behind :mod:`rpcheck.strategies`. They take a keyword ``rng`` (SPEC 7) and are
therefore usable inside a checker's ``trial(params, rng)``, where hypothesis cannot run. Every generator
states its guarantee exactly (an identity or an inequality that holds for *every* draw, not in expectation),
and ``tests/test_generators.py`` checks each guarantee to machine precision.

Coherence
---------
For ``V`` with orthonormal columns (shape ``(d, rho)``) the coherence is

.. math:: \mu(V) = \frac{d}{\rho} \max_i \lVert V_{(i)} \rVert_2^2 \in [1, d/\rho],

the quantity that governs sampling- and hashing-based sketches (Paul et al. 2014, Section 3.2 and the
spec's remark that CountSketch and sparse sign matrices fail on coherent row spaces). ``mu = 1`` means
perfectly spread rows; ``mu = d/rho`` means ``rho`` standard-basis columns ("sparse data with few active
features").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from ._rng import as_generator
from ._validation import check_choice, check_int, check_interval, check_matrix
from .linalg import thin_q
from .errors import RpcheckError

__all__ = [
    "COHERENCES",
    "SINGULAR_VALUE_PROFILES",
    "BinaryData",
    "MulticlassData",
    "haar_orthonormal",
    "orthonormal_basis",
    "coherence",
    "LOW_RANK_REGIMES",
    "low_rank_classification",
    "low_rank_regression",
    "low_rank_matrix",
    "sparse_matrix",
    "bernoulli_positions",
    "separable_dataset",
    "nonseparable_dataset",
    "multiclass_dataset",
    "normalized_margins",
    "multiclass_margins",
]

COHERENCES = ("incoherent", "coherent", "spiky", "intermediate")
SINGULAR_VALUE_PROFILES = ("flat", "geometric")

#: Condition number of the ``"geometric"`` singular-value profile: s_i = GEOMETRIC_CONDITION**(-i/(rank-1)).
#: Kept moderate (10) so every planted direction sits far above any rank tolerance
#: (cf. numpy.linalg.matrix_rank).
GEOMETRIC_CONDITION = 10.0


def haar_orthonormal(d, k, *, rng=None):
    r"""A Haar-distributed ``d x k`` matrix with orthonormal columns (``k <= d``).

    QR of a standard Gaussian matrix with the signs of ``diag(R)`` moved into ``Q`` (Mezzadri 2007), which
    makes the distribution exactly Haar on the Stiefel manifold rather than biased by the QR convention
    (:func:`rpcheck.linalg.thin_q`: Cholesky QR2 for tall matrices, the same ``Q``).

    Parameters
    ----------
    d, k : int
        ``1 <= k <= d``.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    ndarray of shape (d, k)

    References
    ----------
    .. [1] F. Mezzadri, "How to generate random matrices from the classical compact groups",
       Notices of the AMS 54(5), 2007.
    """
    rng = as_generator(rng)
    d = check_int("d", d, 1)
    k = check_int("k", k, 1, d)
    return thin_q(rng.standard_normal((d, k)))


def orthonormal_basis(d, rho, *, coherence="incoherent", mix=0.5, rng=None):
    r"""A ``d x rho`` matrix ``V`` with orthonormal columns and a chosen coherence.

    Parameters
    ----------
    d : int
        Ambient dimension, ``d >= 1``.
    rho : int
        Number of columns, ``1 <= rho <= d``.
    coherence : {"incoherent", "coherent", "spiky", "intermediate"}, default="incoherent"
        - ``"incoherent"``: Haar-distributed (:func:`haar_orthonormal`); ``mu(V)`` is
          ``O(log d)`` with high probability.
        - ``"coherent"``: the first ``rho`` standard-basis vectors, ``V = I[:, :rho]``;
          ``mu(V) = d/rho`` (the maximum), deterministic. This is the adversarial row space of
          Paul et al. (2014) ("sparse data with few active features").
        - ``"spiky"``: ``rho`` distinct standard-basis vectors at random coordinates, in random order;
          ``mu(V) = d/rho``.
        - ``"intermediate"``: ``V = qr((1 - mix) I[:, :rho] + mix Q)`` with ``Q`` Haar (signs fixed so
          ``diag(R) > 0``). ``mix = 0`` gives the coherent basis and ``mix = 1`` a Haar basis; in between
          the coherence decreases (in distribution) from ``d/rho`` towards the Haar value. The coherence is
          not prescribed exactly: measure it with :func:`coherence`.
    mix : float, default=0.5
        Interpolation weight in ``[0, 1]`` for ``"intermediate"``; ignored otherwise.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    V : ndarray of shape (d, rho)
        ``V.T @ V = I_rho`` to within a few ulps (exact for the coherent kinds).

    Examples
    --------
    >>> V = orthonormal_basis(8, 2, coherence="coherent")
    >>> float(coherence(V))
    4.0
    >>> V = orthonormal_basis(64, 4, rng=0)
    >>> bool(np.allclose(V.T @ V, np.eye(4)))
    True
    """
    rng = as_generator(rng)
    d = check_int("d", d, 1)
    rho = check_int("rho", rho, 1, d)
    check_choice("coherence", coherence, COHERENCES)
    mix = check_interval("mix", mix, 0, 1)
    if coherence == "incoherent":
        return haar_orthonormal(d, rho, rng=rng)
    if coherence == "coherent":
        return np.eye(d, rho)
    if coherence == "spiky":
        V = np.zeros((d, rho))
        V[rng.choice(d, size=rho, replace=False), np.arange(rho)] = 1.0
        return V
    # intermediate
    return thin_q((1.0 - mix) * np.eye(d, rho) + mix * haar_orthonormal(d, rho, rng=rng))


def coherence(V):
    r"""Coherence ``mu(V) = (d/rho) max_i ||V_(i)||^2`` of a ``d x rho`` matrix with orthonormal columns.

    ``1 <= mu <= d/rho``; the bounds are attained by e.g. a Hadamard block (1) and standard-basis columns
    (``d/rho``). The input is not re-orthonormalised: pass an orthonormal ``V``.

    >>> float(coherence(np.eye(6, 3)))
    2.0
    """
    V = check_matrix("V", V, allow_sparse=False)
    d, rho = V.shape
    if rho == 0:
        raise RpcheckError("`V` must have at least one column; got shape (d, 0).")
    return float(d / rho * np.max(np.einsum("ij,ij->i", V, V)))


def _singular_values(name, singular_values, rank):
    if singular_values is None or (isinstance(singular_values, str) and singular_values == "flat"):
        return np.ones(rank)
    if isinstance(singular_values, str):
        check_choice(name, singular_values, SINGULAR_VALUE_PROFILES)
        if rank == 1:
            return np.ones(1)
        return GEOMETRIC_CONDITION ** (-np.arange(rank) / (rank - 1))
    s = np.asarray(singular_values, dtype=float)
    if s.shape != (rank,) or not np.all(np.isfinite(s)) or not np.all(s > 0):
        raise RpcheckError(
            f"`{name}` must be 'flat', 'geometric' or a vector of {rank} positive finite numbers; "
            f"got {singular_values!r}."
        )
    return np.sort(s)[::-1].copy()


def low_rank_matrix(
    n,
    d,
    rank,
    *,
    singular_values=None,
    tail=0.0,
    coherence="incoherent",
    mix=0.5,
    return_factors=False,
    rng=None,
):
    r"""An ``n x d`` matrix ``X = U diag(s) V^T`` of exact rank ``rank``, or approximately low rank.

    Parameters
    ----------
    n, d : int
        Shape, both ``>= 1``.
    rank : int
        ``1 <= rank <= min(n, d)``.
    singular_values : {None, "flat", "geometric"} or array_like of shape (rank,), default=None
        The top ``rank`` singular values. ``None``/``"flat"``: all ones. ``"geometric"``:
        ``s_i = 10^{-i/(rank-1)}`` (condition number 10, ``GEOMETRIC_CONDITION``). An array is sorted in
        decreasing order and must be positive.
    tail : float, default=0.0
        In ``[0, 1)``. ``0`` gives exact rank. ``tail > 0`` adds ``min(n, d) - rank`` further singular
        values, all equal to ``tail * s_min``, so ``X`` has full rank ``min(n, d)`` but a spectral gap
        ``s_rank / s_{rank+1} = 1/tail``: an approximately-low-rank matrix (Paul et al. 2014 remark that
        real data are only approximately low rank).
    coherence, mix
        Coherence of the right singular vectors ``V`` (the row space), passed to
        :func:`orthonormal_basis`. The left singular vectors ``U`` are always Haar.
    return_factors : bool, default=False
        Also return ``(U, s, V)`` with ``X = U @ np.diag(s) @ V.T`` (all ``min(n, d)`` columns when
        ``tail > 0``).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    X : ndarray of shape (n, d)
    U, s, V : ndarray, only when ``return_factors=True``

    Notes
    -----
    Guarantee: the singular values of ``X`` are exactly ``s`` (to floating-point error of order
    ``s_max * eps * sqrt(max(n, d))``); with ``tail=0`` the row space of ``X`` is ``range(V)``, so
    ``rpcheck.linalg.row_space_basis(X)`` spans the same subspace as ``V``.

    Examples
    --------
    >>> X = low_rank_matrix(20, 10, 3, rng=0)
    >>> int(np.linalg.matrix_rank(X))
    3
    """
    rng = as_generator(rng)
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    rank = check_int("rank", rank, 1, min(n, d))
    tail = check_interval("tail", tail, 0, 1, closed="left")
    check_choice("coherence", coherence, COHERENCES)
    s = _singular_values("singular_values", singular_values, rank)
    k = rank if tail == 0.0 else min(n, d)
    if k > rank:
        s = np.concatenate([s, np.full(k - rank, tail * s[-1])])
    U = haar_orthonormal(n, k, rng=rng)
    V = orthonormal_basis(d, k, coherence=coherence, mix=mix, rng=rng)
    X = (U * s) @ V.T
    if return_factors:
        return X, U, s, V
    return X


#: geometric gaps drawn per batch in :func:`bernoulli_positions`: mean + _GAP_SD sd + _GAP_SLACK of the successes
#: still to come (another batch follows if they fall short; the law does not depend on these)
_GAP_SD, _GAP_SLACK = 6.0, 16


def bernoulli_positions(size, p, rng=None):
    r"""Increasing positions of the successes in ``size`` independent Bernoulli(``p``) trials.

    The gaps between successive successes (and the first position + 1) are i.i.d. Geometric(``p``) on
    {1, 2, ...}, so the positions are the partial sums of geometric draws minus one, kept while below ``size``:
    the same law as ``np.flatnonzero(rng.random(size) < p)`` at O(size p) cost instead of O(size)
    (``sparse_matrix`` at 5,000 x 47,236 and p = 0.0016: 0.38 million draws instead of 236 million).

    Parameters
    ----------
    size : int
        Number of trials, ``>= 0``.
    p : float
        Success probability, in ``(0, 1]``.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Returns
    -------
    ndarray of int64, increasing, values in ``[0, size)``

    Examples
    --------
    >>> bernoulli_positions(5, 1.0, rng=0).tolist()
    [0, 1, 2, 3, 4]
    """
    rng = as_generator(rng)
    size = check_int("size", size, 0)
    p = check_interval("p", p, 0, 1, closed="right")
    parts, end = [], -1  # end: the last position drawn so far
    while end < size - 1:
        # enough gaps for the remaining trials with high probability (mean + 6 sd + slack); drawn again if not
        rest = size - 1 - end
        k = max(1, int(rest * p + _GAP_SD * np.sqrt(rest * p * (1.0 - p)) + _GAP_SLACK))
        pos = end + np.cumsum(rng.geometric(p, size=k))
        parts.append(pos)
        end = int(pos[-1])
    out = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return out[out < size].astype(np.int64, copy=False)


def sparse_matrix(n, d, *, density, active_features=None, rng=None):
    r"""A random CSR matrix, optionally supported on a few "active" feature columns (coherent sparse data).

    Parameters
    ----------
    n, d : int
        Shape, both ``>= 1``.
    density : float
        In ``(0, 1]``: each entry of an active column is nonzero independently with this probability.
    active_features : int, optional
        If given (``1 <= active_features <= d``), the nonzeros are confined to that many columns chosen at
        random, so the row space lies in the span of ``active_features`` standard-basis vectors; when the
        ``n x active_features`` block has full column rank the row space *is* that span and its coherence is
        the maximum ``d / active_features``: the adversarial input for sampling and hashing sketches.
        ``None`` means all ``d`` columns are active.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d), float64
        Canonical format (sorted indices, no duplicates, no explicit zeros). Nonzero values are standard
        normal. Guarantee: **every row has at least one nonzero** (a row left empty by the Bernoulli draw
        gets one entry in a uniformly chosen active column), so ``x_i / ||x_i||`` is always defined; the
        realised density is therefore slightly above ``density`` when ``density * active`` is small.
        Column indices of nonzeros are a subset of the active columns (``np.unique(X.indices)``).
    """
    rng = as_generator(rng)
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    density = check_interval("density", density, 0, 1, closed="right")
    if active_features is None:
        active = np.arange(d)
    else:
        a = check_int("active_features", active_features, 1, d)
        active = np.sort(rng.choice(d, size=a, replace=False))
    m = active.size
    pos = bernoulli_positions(n * m, density, rng)  # row-major positions of the nonzeros
    rows, cols = pos // m, pos % m
    empty = np.flatnonzero(np.bincount(rows, minlength=n) == 0)
    if empty.size:
        rows = np.concatenate([rows, empty])
        cols = np.concatenate([cols, rng.integers(0, m, size=empty.size)])
        order = np.lexsort((cols, rows))
        rows, cols = rows[order], cols[order]
    vals = rng.standard_normal(rows.size)
    vals[vals == 0.0] = 1.0  # keep the support exactly as drawn
    X = sp.csr_matrix((vals, (rows, active[cols])), shape=(n, d))
    X.sum_duplicates()
    X.sort_indices()
    return X


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
