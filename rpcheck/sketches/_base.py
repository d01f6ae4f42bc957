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
from .._validation import MAX_DIM, check_int, check_matrix, check_memory, check_sparse_matrix
from ..errors import RpcheckError

__all__ = ["Sketch", "check_input", "max_abs", "all_finite", "pow2_exponent"]


def max_abs(X):
    """Largest absolute entry of a dense or scipy.sparse matrix (0.0 when empty)."""
    data = X.data if sp.issparse(X) else X
    return float(np.max(np.abs(data))) if data.size else 0.0


def all_finite(A):
    """True when every (stored) entry of the dense or scipy.sparse ``A`` is finite."""
    data = A.data if sp.issparse(A) else A
    return bool(np.all(np.isfinite(data)))


def pow2_exponent(m):
    """Exponent ``e`` with ``m / 2**e`` in [0.5, 1): scaling by ``2**-e`` is exact (no rounding)."""
    return int(np.frexp(m)[1]) if m > 0 else 0


def _ldexp(A, e):
    """``A * 2**e`` for dense or scipy.sparse ``A`` (a new object; overflow gives inf, checked by callers)."""
    with np.errstate(over="ignore", under="ignore"):
        if sp.issparse(A):
            A = A.copy()
            A.data = np.ldexp(A.data, e).astype(A.dtype, copy=False)
            return A
        return np.ldexp(A, e).astype(A.dtype, copy=False)


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
    #: True when ``apply`` returns CSR for sparse input (countsketch, cw); otherwise the output is dense.
    sparse_output = False

    def __init__(self, d, r, *, rng=None):
        self.d = check_int("d", d, 1, MAX_DIM)
        self.r = check_int("r", r, 1, MAX_DIM)
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
        item = np.dtype(X.dtype).itemsize
        if not (is_sparse and self.sparse_output) and self.r * item > np.iinfo(np.intp).max:
            raise RpcheckError(
                f"`r` ({self.r}) is too large for a dense (n, r) output of dtype {np.dtype(X.dtype).name}: numpy "
                f"arrays need r * {item} bytes < 2**63 even for n = 0. Use sparse input for a CSR output."
                if self.sparse_output else
                f"`r` ({self.r}) is too large for a dense (n, r) output of dtype {np.dtype(X.dtype).name}: numpy "
                f"arrays need r * {item} bytes < 2**63 even for n = 0."
            )
        nbytes = self._apply_bytes(X, is_sparse)
        check_memory(nbytes, f"an output and workspace for sketch kind {self.kind!r}", n=X.shape[0], r=self.r)
        with np.errstate(over="ignore", invalid="ignore"):
            out = self._apply_any(X, is_sparse)
        if all_finite(out):
            return out
        # X is finite, so X @ R (or an intermediate sum of the FWHT) overflowed: apply R to X / 2**e, which is
        # exact, then scale back; the result is refused only if X @ R itself is beyond the float range.
        m = max_abs(X)
        e = pow2_exponent(m)
        out = _ldexp(self._apply_any(_ldexp(X, -e), is_sparse), e)
        if not all_finite(out):
            raise RpcheckError(
                f"`X` has entries up to {m:.3g}: X @ R exceeds the {np.dtype(X.dtype).name} range "
                f"(largest finite value {np.finfo(X.dtype).max:.3g}) for sketch kind {self.kind!r}; rescale `X`."
            )
        return out

    def _apply_any(self, X, is_sparse):
        if is_sparse:
            return self._apply_sparse(X)
        return self._apply_dense(np.ascontiguousarray(X))

    def _apply_bytes(self, X, is_sparse):
        """Bytes ``apply`` allocates for ``X`` (output and workspace), checked before allocating.

        Default: the dense (n, r) output plus a cast of ``R`` to X's dtype. Subclasses refine it.
        """
        item = np.dtype(X.dtype).itemsize
        return X.shape[0] * self.r * item + self._matrix_entries() * item

    def _matrix_entries(self):
        """Stored entries of ``R`` (d r for dense kinds); used for memory estimates."""
        return self.d * self.r

    def matrix(self):
        """The explicit ``(d, r)`` matrix ``R`` (float64; dense or scipy.sparse, see the class docs)."""
        self._check_fitted()
        check_memory(self._matrix_bytes(), f"the matrix R of sketch kind {self.kind!r}", d=self.d, r=self.r)
        return self._matrix()

    def _matrix_bytes(self):
        """Bytes ``matrix()`` allocates (default: a dense (d, r) float64 copy and one temporary)."""
        return 16 * self.d * self.r

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
