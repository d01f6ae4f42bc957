r"""Exact linear algebra used by the checkers: row-space bases and subspace-embedding distortion.

Paul et al. (2014), Sec. 1.6 (spec paul2014.md): with ``V`` (d x rho) an orthonormal basis of the row space
of ``X`` and ``R`` (d x r) a projection, the distortion matrix is

.. math:: E = V^T V - V^T R R^T V = I_\rho - (V^T R)(V^T R)^T ,

and every deterministic theorem of the paper is conditioned on :math:`\|E\|_2 \le \varepsilon`.
"""

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ._validation import check_interval, check_matrix
from .errors import RpcheckError

__all__ = ["row_space_basis", "embedding_distortion"]


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
    ``X = U Sigma V^T`` (spec paul2014.md Sec. 1.1): ``V`` spans the row space, the subspace every
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
        computation uses only the rho x r matrix :math:`V^T R`, never a d x d matrix (spec paul2014.md
        Sec. 1.6).

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
