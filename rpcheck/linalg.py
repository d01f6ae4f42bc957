r"""Exact linear algebra used by the checkers: row-space bases and subspace-embedding distortion.

Paul et al. (2014), proof of Theorem 3.5 (Sec. 3): with ``V`` (d x rho) an orthonormal basis of the row space
of ``X`` and ``R`` (d x r) a projection, the distortion matrix is

.. math:: E = V^T V - V^T R R^T V = I_\rho - (V^T R)(V^T R)^T ,

and every deterministic theorem of the paper is conditioned on :math:`\|E\|_2 \le \varepsilon`.

Lei & Lan (2020), Sec. 4 (Table 2, "DLSS"): deterministic leverage score sampling (Papailiopoulos,
Kyrillidis and Boutsidis, KDD 2014) keeps the features of largest rank-``k`` leverage score
:math:`\ell_j = \|V_k(j, :)\|_2^2`, with :math:`V_k` the top-``k`` right singular vectors of ``X``
(:func:`leverage_scores`, :func:`dlss_select`).
"""

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ._rng import as_generator
from ._validation import check_choice, check_int, check_interval, check_matrix
from .errors import RpcheckError

__all__ = ["row_space_basis", "embedding_distortion", "leverage_scores", "dlss_select", "thin_q", "SVD_METHODS",
           "centred_randomized_svd"]

#: SVD used for the leverage scores: LAPACK's exact thin SVD or Halko-Martinsson-Tropp randomized SVD.
SVD_METHODS = ("exact", "randomized")


#: ``thin_q`` uses Cholesky QR (twice) when the matrix is at least this tall (rows >= 4 x columns) and has at
#: least this many entries; below, LAPACK's Householder QR is as fast.
CHOLQR_MIN_ENTRIES = 1 << 16
#: largest condition number of the first Cholesky-QR factor accepted before falling back to Householder:
#: Cholesky QR2 leaves ``||Q^T Q - I|| = O(eps)`` for ``cond(G) < eps**-1/2 ~ 6.7e7`` (Yamamoto, Nakatsukasa,
#: Yanagisawa and Fukaya, ETNA 44, 2015, Thm. 3.3); 1e6 keeps a wide margin.
CHOLQR_MAX_COND = 1e6


def thin_q(G):
    r"""The orthonormal factor ``Q`` of the thin QR factorisation ``G = Q R`` with ``diag(R) > 0``.

    For a real ``n x k`` matrix of full column rank that factorisation is unique, so ``Q`` does not depend on
    the algorithm: ``Q`` is Householder QR's with the signs of ``diag(R)`` moved into it (Mezzadri 2007),
    which makes ``thin_q`` of a standard Gaussian matrix exactly Haar on the Stiefel manifold. Tall matrices
    (``n >= 4 k``, ``n k >=`` :data:`CHOLQR_MIN_ENTRIES`) use Cholesky QR twice (CholeskyQR2: ``R_1 =
    chol(G^T G)``, ``Q_1 = G R_1^{-1}``, then the same on ``Q_1``), whose Cholesky factors have positive
    diagonals, so it computes the same ``Q`` with BLAS-3 products, 4-6x faster than Householder at
    ``65,536 x 100`` (BENCHMARKS.md). It is accurate to ``O(eps)`` in orthogonality and in ``Q`` while
    ``cond(G) < eps**-1/2`` (Yamamoto et al., ETNA 44, 2015); the first factor's condition number is checked
    against :data:`CHOLQR_MAX_COND`, and a failed Cholesky or an ill-conditioned ``G`` falls back to
    Householder. ``tests/test_linalg.py`` checks both paths against each other.

    Parameters
    ----------
    G : ndarray of shape (n, k)
        ``1 <= k <= n``, finite, of full column rank.

    Returns
    -------
    ndarray of shape (n, k)
    """
    G = np.asarray(check_matrix("G", G, allow_sparse=False), dtype=float)
    if not 1 <= G.shape[1] <= G.shape[0]:
        raise RpcheckError(f"`G` must be a 2-D array of shape (n, k) with 1 <= k <= n; got shape {G.shape}.")
    n, k = G.shape
    if n >= 4 * k and n * k >= CHOLQR_MIN_ENTRIES:
        Q = _cholqr2(G)
        if Q is not None:
            return Q
    Q, R = np.linalg.qr(G)
    signs = np.sign(np.diag(R))
    signs[signs == 0] = 1.0
    return Q * signs


def _cholqr2(G):
    Q = G
    for step in range(2):
        try:
            R = sla.cholesky(Q.T @ Q, lower=False, check_finite=False)
        except np.linalg.LinAlgError:
            return None
        if step == 0 and not np.linalg.cond(R) <= CHOLQR_MAX_COND:
            return None
        Q = sla.solve_triangular(R, Q.T, trans="T", lower=False, check_finite=False).T  # Q R^{-1}
    return np.ascontiguousarray(Q)


def row_space_basis(X, *, rtol=None):
    r"""Orthonormal basis ``V`` (d x rho) of the row space of ``X`` (n x d), from the thin SVD.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Data, one point per row. Sparse input is densified (the SVD is dense).
    rtol : float, optional
        Relative rank tolerance: singular values :math:`\sigma_i > \mathrm{rtol} \cdot \sigma_1` are kept.
        Default ``max(n, d) * eps`` of float64 (the :func:`numpy.linalg.matrix_rank` convention), so
        ``rho`` is the numerical rank.

    Returns
    -------
    V : ndarray of shape (d, rho), float64
        Right singular vectors of ``X`` for the retained singular values, in decreasing order of
        :math:`\sigma`; :math:`V^T V = I_\rho`. ``rho = 0`` (an empty (d, 0) array) when ``X`` is zero.

    Notes
    -----
    ``X = U Sigma V^T`` (Paul et al. 2014, Sec. 1.1): ``V`` spans the row space, the subspace every
    projection guarantee of Paul et al. (2014) is about.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> row_space_basis(X).shape
    (3, 2)
    """
    X = check_matrix("X", X)  # validates a sparse structure before anything compiled reads it
    if sp.issparse(X):
        X = X.toarray()
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    if rtol is None:
        rtol = max(n, d, 1) * np.finfo(np.float64).eps
    else:
        rtol = check_interval("rtol", rtol, 0, 1, closed="left")
    if X.size == 0:
        return np.zeros((d, 0))
    _, s, Vt = sla.svd(X, full_matrices=False, lapack_driver="gesdd")
    if s.size == 0 or s[0] == 0.0:
        return np.zeros((d, 0))
    rho = int(np.count_nonzero(s > rtol * s[0]))
    return np.ascontiguousarray(Vt[:rho].T)


def embedding_distortion(V, R=None, *, VtR=None):
    r"""Subspace-embedding distortion :math:`e = \|I_\rho - (V^T R)(V^T R)^T\|_2`.

    Parameters
    ----------
    V : array_like of shape (d, rho)
        Orthonormal columns (e.g. from :func:`row_space_basis`). Orthonormality is assumed, not checked.
    R : ndarray or scipy.sparse matrix of shape (d, r), optional
        The projection. Give exactly one of ``R`` and ``VtR``.
    VtR : array_like of shape (rho, r), optional
        Precomputed :math:`V^T R` (e.g. ``sketch.apply(V.T)``), which avoids forming ``R``.

    Returns
    -------
    float
        :math:`\|E\|_2 = \max_i |1 - \sigma_i(V^T R)^2|`, with :math:`\sigma_i = 0` for ``i > r``; the
        computation uses only the rho x r matrix :math:`V^T R`, never a d x d matrix.

    Notes
    -----
    If ``r < rho`` then :math:`V^T R R^T V` has rank at most ``r < rho``, a zero eigenvalue, and
    :math:`e \ge 1` deterministically. Computing the singular values of :math:`V^T R` instead of the
    eigenvalues of its Gram matrix avoids squaring the condition number.

    Examples
    --------
    >>> import numpy as np
    >>> V = np.eye(4)[:, :2]
    >>> embedding_distortion(V, np.eye(4))
    0.0
    >>> embedding_distortion(V, VtR=np.array([[1.1, 0.0], [0.0, 0.9]]))  # doctest: +ELLIPSIS
    0.21...
    """
    if (R is None) == (VtR is None):
        raise RpcheckError("give exactly one of `R` and `VtR` to embedding_distortion().")
    V = check_matrix("V", V, allow_sparse=False)
    names = "`V` and `R`"
    if VtR is None:
        R = check_matrix("R", R, allow_sparse=True)
        if R.shape[0] != V.shape[0]:
            raise RpcheckError(f"`R` has {R.shape[0]} rows but `V` has {V.shape[0]}; they must match.")
        with np.errstate(over="ignore", invalid="ignore"):
            M = _vtr(V, R)
        if not np.all(np.isfinite(M)):  # V^T R overflowed: form it from V / 2**a and R / 2**b (exact)
            a, b = _exp2(V), _exp2(R)
            Rs = R.multiply(2.0**-b).tocsr() if sp.issparse(R) else np.ldexp(R, -b)
            with np.errstate(over="ignore", invalid="ignore"):
                M = np.ldexp(np.asarray(_vtr(np.ldexp(V, -a), Rs), dtype=np.float64), a + b)
    else:
        names = "`VtR`"
        if sp.issparse(VtR):
            VtR = check_matrix("VtR", VtR).toarray()
        M = check_matrix("VtR", VtR, allow_sparse=False)
        if M.shape[0] != V.shape[1]:
            raise RpcheckError(
                f"`VtR` has {M.shape[0]} rows but `V` has {V.shape[1]} columns (rho); they must match."
            )
    M = np.asarray(M, dtype=np.float64)
    rho, r = M.shape
    if rho == 0:
        return 0.0
    if not np.all(np.isfinite(M)):
        raise RpcheckError(
            f"{names} give V^T R with entries beyond the float64 range, so the distortion is not representable; "
            "`V` must have orthonormal columns (e.g. from row_space_basis)."
        )
    s = sla.svdvals(M) if r > 0 else np.zeros(0)
    sq = np.zeros(rho)
    with np.errstate(over="ignore"):
        sq[: s.size] = s[:rho] ** 2
    e = float(np.max(np.abs(1.0 - sq)))
    if not np.isfinite(e):
        raise RpcheckError(
            f"{names} give sigma_max(V^T R) = {s[0]:.3g}, so the distortion 1 - sigma^2 exceeds the float64 "
            "range; `V` must have orthonormal columns (e.g. from row_space_basis)."
        )
    return e


def _vtr(V, R):
    """``V^T R`` as a dense ndarray, for dense or scipy.sparse ``R``."""
    if sp.issparse(R):
        return np.asarray((R.T @ V).T)
    return V.T @ R


def _exp2(A):
    """Exponent ``e`` with ``max|A| / 2**e`` in [0.5, 1) (0 for a zero or empty ``A``)."""
    data = A.data if sp.issparse(A) else A
    m = float(np.max(np.abs(data))) if data.size else 0.0
    return int(np.frexp(m)[1]) if m > 0 else 0


def leverage_scores(X, k, *, svd="exact", rng=None, n_oversamples=10, n_iter=4):
    r"""Rank-``k`` leverage scores of the columns (features) of ``X``: :math:`\ell_j = \|V_k(j,:)\|_2^2`.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Data, one point per row (sparse input is densified for ``svd="exact"`` only; with ``svd="randomized"``
        it stays sparse and the randomized SVD is :func:`centred_randomized_svd`'s, uncentred, with no d x (k +
        p) array).
    k : int
        Rank, ``1 <= k <= min(n, d)``.
    svd : {"exact", "randomized"}, default="exact"
        "exact": LAPACK thin SVD (scipy ``gesdd``). "randomized": Halko, Martinsson and Tropp (2011)
        via ``sklearn.utils.extmath.randomized_svd`` with ``n_oversamples`` and ``n_iter`` power
        iterations, the choice Lei & Lan (2020, Sec. 4) state for DLSS.
    rng : int or numpy.random.Generator, optional
        Seed of the randomized SVD (ignored for "exact").

    Returns
    -------
    ndarray of shape (d,)
        :math:`\ell_j \in [0, 1]` with :math:`\sum_j \ell_j = k` (when ``rank(X) >= k``).

    Examples
    --------
    >>> import numpy as np
    >>> leverage_scores(np.diag([3.0, 2.0, 1.0]), 2).round(12).tolist()
    [1.0, 1.0, 0.0]
    """
    X = check_matrix("X", X, allow_sparse=True)
    n, d = X.shape
    k = check_int("k", k, 1, max(1, min(n, d)))
    check_choice("svd", svd, SVD_METHODS)
    if svd == "exact":
        A = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        _, _, Vt = sla.svd(A, full_matrices=False, lapack_driver="gesdd")
    elif sp.issparse(X):
        # sparse input: the same randomized SVD without any d x (k + p) array (centred_randomized_svd's
        # algorithm, uncentred); the scores are accumulated by column blocks of V_k
        op = _ImplicitCentred(X, centre=False)
        s, U = _randomized_left(op, n, op.X.shape[1], k, n_oversamples, n_iter, as_generator(rng))
        lev = np.zeros(op.X.shape[1])
        for _, Vb in _right_blocks(op, s, U):
            lev += np.einsum("ij,ij->i", Vb, Vb)
        return op.expand(lev)
    else:
        from sklearn.utils.extmath import randomized_svd


        seed = int(as_generator(rng).integers(2**31 - 1))
        _, _, Vt = randomized_svd(X, k, n_oversamples=n_oversamples, n_iter=n_iter, random_state=seed)
    Vk = Vt[:k]
    return np.einsum("ij,ij->j", Vk, Vk)


def dlss_select(X, r, k, *, svd="exact", rng=None):
    r"""Deterministic leverage score sampling (DLSS): indices of the ``r`` columns of ``X`` with the largest
    rank-``k`` leverage scores (:func:`leverage_scores`), in decreasing order of score.

    Papailiopoulos, Kyrillidis and Boutsidis (2014) sort the features by :math:`\ell_j` and keep the
    smallest prefix whose scores sum past ``k - theta``; Lei & Lan (2020, Table 2) compare methods at a
    fixed number ``r`` of features, so the prefix length is ``r`` here. Ties keep the smaller index
    (stable sort). The paper does not give ``k``; callers state their choice.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
    r : int
        Number of features kept, ``1 <= r <= d``.
    k : int
        Rank of the leverage scores, ``1 <= k <= min(n, d)``.
    svd, rng
        As in :func:`leverage_scores`.

    Returns
    -------
    ndarray of int, shape (r,)

    Examples
    --------
    >>> import numpy as np
    >>> dlss_select(np.diag([3.0, 2.0, 1.0]), 1, 1).tolist()
    [0]
    """
    X = check_matrix("X", X, allow_sparse=True)
    r = check_int("r", r, 1, X.shape[1])
    lev = leverage_scores(X, k, svd=svd, rng=rng)
    return np.argsort(-lev, kind="stable")[:r]


#: columns of the n x l range basis multiplied through X^T at once in :func:`centred_randomized_svd` (bounds the
#: d x block float64 temporaries: 350 MB at d = 1.36 M)
RSVD_BLOCK = 32


class _ImplicitCentred:
    """``A = X - 1 mean^T`` (``mean`` = 0: ``A = X``) applied without forming it: ``A M = X M - 1 (mean^T M)``,
    ``A^T M = X^T M - mean (1^T M)``; the d-sided products are taken :data:`RSVD_BLOCK` columns at a time. For
    sparse ``X`` only the ``d_a`` ACTIVE features (a stored entry in some row) are carried: an all-zero column
    has mean 0, so its row of ``A^T M`` is 0 (``d`` -> ``d_a`` in every d-sided product; :meth:`expand` puts the
    zero rows back)."""

    def __init__(self, X, centre):
        if sp.issparse(X):
            X = X.tocsr()
            self.d = X.shape[1]
            self.active = np.unique(X.indices)
            self.X = X[:, self.active] if len(self.active) < self.d else X
            self.XT = self.X.T.tocsr()
        else:
            self.X = np.asarray(X, dtype=np.float64)
            self.d = self.X.shape[1]
            self.active = None
            self.XT = self.X.T
        self.mean = (np.asarray(self.X.mean(axis=0), dtype=np.float64).ravel() if centre
                     else np.zeros(self.X.shape[1]))
        self.centre = centre
        self.g = np.asarray(self.X @ self.mean, dtype=np.float64).ravel()  # X mean, (n,)
        self.c = float(self.mean @ self.mean)

    def expand(self, v, axis=0):
        """``v`` over the active features -> over all ``d`` features (zeros elsewhere) along ``axis``."""
        if self.active is None or len(self.active) == self.d:
            return v
        shape = list(v.shape)
        shape[axis] = self.d
        out = np.zeros(shape)
        idx = [slice(None)] * v.ndim
        idx[axis] = self.active
        out[tuple(idx)] = v
        return out

    def a(self, M):  # (n, b)
        out = np.asarray(self.X @ M, dtype=np.float64)
        return out - (self.mean @ M)[None, :] if self.centre else out

    def at(self, M):  # (d, b)
        out = np.asarray(self.XT @ M, dtype=np.float64)
        if self.centre:
            out -= np.multiply.outer(self.mean, M.sum(axis=0))
        return out

    def aat(self, Q):
        """``A A^T Q`` (n, l) through (d, RSVD_BLOCK) temporaries, the centring on the n side:
        ``A A^T Q = X (X^T Q) - g m^T - 1 (g^T Q) + c 1 m^T`` with ``g = X mean``, ``m = Q^T 1``, ``c = |mean|^2``."""
        out = np.empty_like(Q)
        for j in range(0, Q.shape[1], RSVD_BLOCK):
            out[:, j:j + RSVD_BLOCK] = np.asarray(self.X @ np.asarray(self.XT @ Q[:, j:j + RSVD_BLOCK]))
        if self.centre:
            m = Q.sum(axis=0)
            out -= np.multiply.outer(self.g, m)
            out -= (self.g @ Q)[None, :]
            out += self.c * m[None, :]
        return out


def _randomized_left(op, n, d, k, n_oversamples, n_iter, gen):
    """Randomized SVD (Halko, Martinsson and Tropp 2011) of ``A`` (an :class:`_ImplicitCentred`) by subspace
    iteration on ``A A^T``: ``Q = orth((A A^T)^(q+1) Omega)`` with an n x (k + p) Gaussian ``Omega``, an LU
    normalisation after every product (as scikit-learn's ``randomized_svd``, on the n side only: the d side is
    never stored whole), then the exact eigen-decomposition of ``Q^T A A^T Q``. Returns ``(s, U)``, the top-k
    singular values and left singular vectors (n, k)."""
    size = min(k + n_oversamples, n, d)
    if n_iter == "auto":
        n_iter = 7 if k < 0.1 * min(n, d) else 4
    Q = op.aat(gen.standard_normal((n, size)))
    for _ in range(n_iter):
        Q, _ = sla.lu(Q, permute_l=True)
        Q = op.aat(Q)
    Q, _ = sla.qr(Q, mode="economic")
    C = Q.T @ op.aat(Q)
    w, U = sla.eigh((C + C.T) / 2.0)
    order = np.argsort(-w, kind="stable")[:k]
    return np.sqrt(np.maximum(w[order], 0.0)), Q @ U[:, order]


def _right_blocks(op, s, U):
    """Yield ``(j, V[:, j:j+b])`` of the right singular vectors ``V = A^T U diag(1/s)`` by column blocks; a
    singular value <= ``1e-12 s_1`` (numerically zero, no direction) gives a zero column."""
    tol = 1e-12 * (s[0] if len(s) else 0.0)
    inv = np.where(s > tol, 1.0 / np.where(s > tol, s, 1.0), 0.0)
    for j in range(0, U.shape[1], RSVD_BLOCK):
        yield j, op.at(U[:, j:j + RSVD_BLOCK]) * inv[j:j + RSVD_BLOCK][None, :]


def centred_randomized_svd(X, k, *, n_oversamples=10, n_iter="auto", rng=None):
    r"""Top-``k`` principal directions of ``X`` (PCA: the SVD of the column-centred ``A = X - 1 \mu^T``) by the
    randomized SVD of Halko, Martinsson and Tropp (2011), with ``A`` applied IMPLICITLY: ``A M = X M - 1
    (\mu^T M)`` and ``A^T M = X^T M - \mu (1^T M)``, so a scipy.sparse ``X`` is never densified (centring it
    explicitly would fill all ``n d`` entries). Lei & Lan (2020, Sec. 4) compute PCA by randomized SVD.

    The algorithm (:func:`_randomized_left`) is scikit-learn's ``randomized_svd`` (which ``PCA(svd_solver=
    "randomized")`` runs on the explicitly centred dense matrix) rearranged so that nothing of size d x (k + p) is
    stored: subspace iteration on ``A A^T`` from an n x (k + p) Gaussian start (``p = n_oversamples``), ``n_iter``
    + 1 products each followed by an LU normalisation on the n side (``"auto"``: 7 when ``k < 0.1 min(n, d)``, else
    4), a QR, the exact eigen-decomposition of the small ``Q^T A A^T Q`` (singular values and left vectors), and
    ``V = A^T U / s`` by column blocks of :data:`RSVD_BLOCK`. Memory beyond X: O((n + d) (k + p)) with the d x k
    output and d x RSVD_BLOCK temporaries. When ``k + p >= rank(A)`` the range is captured exactly and the result is
    the exact PCA up to rounding (the eigen step works with squared singular values: the i-th direction has
    relative error O(eps (s_1 / s_i)^2)); tests/test_linalg_centred_pca.py checks it against the dense centred SVD.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
    k : int
        Number of components, ``1 <= k <= min(n, d)``.
    n_oversamples : int, default=10
    n_iter : int or "auto", default="auto"
    rng : int or numpy.random.Generator, optional
        Seed of the Gaussian test matrix.

    Returns
    -------
    mean : ndarray of shape (d,)
        Column means :math:`\mu`.
    s : ndarray of shape (k,)
        Singular values of ``A``, decreasing.
    Vt : ndarray of shape (k, d)
        Principal directions (rows orthonormal); the scores of data ``Z`` are ``(Z - \mu) V = Z V - \mu^T V``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 2.0], [0.0, 2.0]]))
    >>> mean, s, Vt = centred_randomized_svd(X, 1, rng=0)
    >>> mean.tolist(), round(float(s[0]), 6)  # the exact centred SVD: sqrt(5 + sqrt(17)) = 3.020448
    ([1.0, 1.0], 3.020448)
    >>> bool(np.isclose(s[0], np.linalg.svd(X.toarray() - mean, compute_uv=False)[0]))
    True
    """
    X = check_matrix("X", X, allow_sparse=True)
    n, d = X.shape
    k = check_int("k", k, 1, max(1, min(n, d)))
    n_oversamples = check_int("n_oversamples", n_oversamples, 0)
    if n_iter != "auto":
        n_iter = check_int("n_iter", n_iter, 0)
    op = _ImplicitCentred(X, centre=True)
    s, U = _randomized_left(op, n, op.X.shape[1], k, n_oversamples, n_iter, as_generator(rng))
    V = np.zeros((d, k))  # C-contiguous (d, k): the scores X V are one sparse x dense product
    rows = slice(None) if op.active is None or len(op.active) == d else op.active
    for j, Vb in _right_blocks(op, s, U):
        V[rows, j:j + Vb.shape[1]] = Vb
    return op.expand(op.mean), s, V.T
