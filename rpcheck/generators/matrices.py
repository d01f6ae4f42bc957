"""Orthonormal bases of a chosen coherence, low-rank matrices of a chosen spectrum, and sparse matrices
(:mod:`rpcheck.generators`)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._rng import as_generator
from .._validation import check_choice, check_int, check_interval, check_matrix
from ..errors import RpcheckError
from ..linalg import thin_q

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
