"""The ``Sketch`` protocol shared by every construction, and input handling common to all of them.

A sketch represents a fixed linear map ``R`` of shape ``(d, r)``; ``apply(X)`` computes ``X @ R`` for the
``n`` rows of ``X`` (one point per row, as in Paul et al. 2014 and Lei & Lan 2020: ``X~ = X R``).

Output types of ``apply`` (documented once here, repeated in each class):

- dense ``X``: always a dense ndarray of X's float dtype (float32 stays float32);
- scipy.sparse ``X``: a dense ndarray, except for ``countsketch`` and ``cw``, whose output keeps the
  sparsity of the input (``nnz(X R) <= a nnz(X)``) and is returned as CSR (no duplicate entries; column
  indices within a row possibly unsorted), a ``scipy.sparse.csr_matrix`` for spmatrix input and a
  ``csr_array`` for sparray input.

``matrix()`` returns a dense ``(d, r)`` float64 ndarray for ``gaussian``, ``sign`` and the SRHT family, and a
``scipy.sparse.csr_array`` for ``sparse``, ``countsketch`` and ``cw``.
"""

import numpy as np
import scipy.sparse as sp

from .._rng import as_generator
from .._validation import check_int, check_matrix, check_sparse_matrix
from ..errors import RpcheckError

__all__ = ["Sketch", "check_input"]


def check_input(X, d, *, name="X"):
    """Validate a data matrix for a sketch with input dimension ``d``.

    Returns ``(X, is_sparse)`` with ``X`` finite, float32/float64 and, if sparse, in CSR or CSC format
    with a validated structure (indices in range, consistent ``indptr``): see
    :func:`rpcheck._validation.check_sparse_matrix`. Other sparse formats are checked, then converted.
    """
    if sp.issparse(X):  # structure checked here, once: no kernel ever sees an unchecked index
        if X.ndim != 2:
            raise RpcheckError(f"`{name}` must be 2-dimensional; got a scipy.sparse array with ndim={X.ndim}.")
        X = check_sparse_matrix(name, X)
    else:
        X = check_matrix(name, X)
    if X.shape[1] != d:
        raise RpcheckError(
            f"`{name}` has {X.shape[1]} columns but the sketch was built for d={d} features; they must match."
        )
    return X, sp.issparse(X)


class Sketch:
    """Base class of all sketches: a random (or data-dependent) linear map ``R`` in R^{d x r}.

    Attributes
    ----------
    kind : str
        Registry name (one of ``rpcheck.sketches.SKETCH_KINDS``).
    d, r : int
        Input and output dimensions; ``apply`` maps (n, d) to (n, r).
    params : dict
        The construction parameters after resolution (for reports and ``repr``).
    data_dependent : bool
        True when ``fit(X, y)`` must be called before ``apply`` (Lei & Lan variants).
    """

    kind = "abstract"
    data_dependent = False

    def __init__(self, d, r, *, rng=None):
        self.d = check_int("d", d, 1)
        self.r = check_int("r", r, 1)
        self.params = {}
        self._rng = as_generator(rng)

    # -- protocol -----------------------------------------------------------------------------------------
    def fit(self, X, y=None):
        """No-op for data-oblivious sketches (validates ``X``); returns ``self``."""
        if X is not None:
            check_input(X, self.d)
        return self

    def apply(self, X):
        """Return ``X @ R`` for ``X`` of shape (n, d), dense ndarray or any scipy.sparse matrix.

        See the module docstring of :mod:`rpcheck.sketches._base` for the output type.
        """
        self._check_fitted()
        X, is_sparse = check_input(X, self.d)
        if is_sparse:
            return self._apply_sparse(X)
        return self._apply_dense(np.ascontiguousarray(X))

    def matrix(self):
        """The explicit ``(d, r)`` matrix ``R`` (float64; dense or scipy.sparse, see the class docs)."""
        self._check_fitted()
        return self._matrix()

    # -- hooks ----------------------------------------------------------------------------------------------
    def _apply_dense(self, X):  # pragma: no cover - abstract
        raise NotImplementedError

    def _apply_sparse(self, X):
        """Default sparse path: sparse @ dense/sparse R, densified. Subclasses override when faster."""
        R = self._matrix()
        if sp.issparse(R):
            R = R.astype(X.dtype)
            out = (sp.csr_array(X) @ R).toarray()
        else:
            out = X @ R.astype(X.dtype, copy=False)
        return np.asarray(out)

    def _matrix(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_fitted(self):
        if self.data_dependent and not getattr(self, "fitted_", False):
            raise RpcheckError(
                f"sketch kind {self.kind!r} is data-dependent: call fit(X) (and y for 'srht-supervised') "
                "before apply() or matrix()."
            )

    def __repr__(self):
        extra = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}(kind={self.kind!r}, d={self.d}, r={self.r}{extra})"
