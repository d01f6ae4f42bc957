r"""Input-sparsity embeddings: Clarkson-Woodruff (``"cw"``) and CountSketch (``"countsketch"``).

Clarkson & Woodruff (2013) generalized sparse embedding as described in Paul et al. (2014), Sec. 2 (eq. 8
and the construction of ``S = blockdiag(B_1, ..., B_q)`` after it), with the paper's index slip corrected
(its text draws, for each of the ``v`` rows, a column in ``[a_i]``, which is dimensionally inconsistent;
here each feature draws a row of each sub-block, the reading under which every row of R has ``a`` nonzeros
and ``nnz(X R) <= a nnz(X)`` as the paper states), with integers ``q, v, a`` and ``r = q v a``:

1. a hash :math:`h: [d] \to [q]` puts every feature in a bucket;
2. bucket ``i`` owns the ``v a`` consecutive columns ``i v a, ..., (i+1) v a - 1`` of ``R``, split into ``a``
   sub-blocks of ``v`` columns; in sub-block ``j`` feature ``k`` gets the column ``g_j(k)``, uniform in
   ``[v]``, with value :math:`\pm 1/\sqrt{a}` (independent signs, the diagonals ``D_j``);
3. so **every row of R has exactly a nonzeros of magnitude** :math:`1/\sqrt{a}` (unit norm), and
   :math:`R = (S P)^T` with ``S = blockdiag(B_1, ..., B_q)`` of the paper.

CountSketch (Charikar et al. 2002; Clarkson & Woodruff 2013) is the special case ``q = 1, a = 1, v = r``: one
:math:`\pm 1` per row of ``R`` in a uniformly random column.

:math:`E[R R^T] = I_d`: the diagonal is exactly 1, and for ``k != l`` the entry is a sum of ``a`` terms
:math:`\pm 1/a` present only when ``h(k) = h(l)`` and ``g_j(k) = g_j(l)`` (probability ``1/(q v)``), with
independent signs: mean 0, variance :math:`a \cdot \frac{1}{qv} \cdot \frac{1}{a^2} = 1/r`.

``matrix()`` is a ``scipy.sparse.csr_array``. ``apply`` costs O(a nnz(X)) for sparse X and returns a CSR
matrix (csr_matrix for spmatrix input, csr_array for sparray input) without duplicate entries; with the
compiled kernel the column indices within a row are in first-occurrence order, not sorted (as in scipy's
own sparse products; call ``.sort_indices()`` if needed). Dense X gives a dense ndarray.
"""

import numpy as np
import scipy.sparse as sp

from .._validation import check_int, check_memory
from ..errors import RpcheckError
from . import _fwht
from ._base import Sketch

__all__ = ["CWSketch", "CountSketch"]


class CWSketch(Sketch):
    r"""Clarkson-Woodruff sparse embedding with parameters ``(q, v, a)``, ``r = q v a``.

    Parameters
    ----------
    d, r : int
    q : int, default=1
        Number of hash buckets.
    v : int, optional
        Rows per sub-block; default ``r // (q a)`` (``r`` must then be divisible by ``q a``).
    a : int, default=1
        Nonzeros per row of ``R`` (sub-blocks per bucket); each nonzero is :math:`\pm 1/\sqrt{a}`.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Attributes
    ----------
    buckets_ : ndarray of shape (d,)
        ``h(k)`` in ``[0, q)``.
    cols_ : ndarray of shape (d, a)
        Column of the j-th nonzero of row k of ``R`` (increasing along each row).
    vals_ : ndarray of shape (d, a)
        Its value, :math:`\pm 1/\sqrt{a}`.

    Raises
    ------
    RpcheckError
        If ``r != q * v * a``.
    """

    kind = "cw"
    sparse_output = True

    def __init__(self, d, r, *, q=1, v=None, a=1, rng=None):
        super().__init__(d, r, rng=rng)
        q = check_int("q", q, 1)
        a = check_int("a", a, 1)
        if v is None:
            if self.r % (q * a):
                raise RpcheckError(
                    f"`r` ({self.r}) must be divisible by q*a = {q}*{a} = {q * a} when `v` is not given "
                    "(Clarkson-Woodruff needs r = q*v*a)."
                )
            v = self.r // (q * a)
        v = check_int("v", v, 1)
        if q * v * a != self.r:
            raise RpcheckError(
                f"`r` ({self.r}) must equal q*v*a = {q}*{v}*{a} = {q * v * a} "
                "(Clarkson-Woodruff construction, Paul et al. 2014, Sec. 2, eq. 8)."
            )
        self.q, self.v, self.a = q, v, a
        self.params = {"q": q, "v": v, "a": a}
        # buckets (int64), g and the columns (int64, d a each, plus a temporary), signs (int8 and float64)
        # and the values: < 8 d + 50 d a bytes
        names = {"d": self.d, "a": a} if type(self) is CWSketch else {"d": self.d}
        check_memory(8 * self.d + 50 * self.d * a,
                     f"a sparse embedding with a={a} nonzeros per row of R for sketch kind {self.kind!r}", **names)
        self._draw()

    def _draw(self):
        d, q, v, a = self.d, self.q, self.v, self.a
        rng = self._rng
        self.buckets_ = rng.integers(0, q, size=d) if q > 1 else np.zeros(d, dtype=np.int64)
        g = rng.integers(0, v, size=(d, a))
        signs = 2.0 * rng.integers(0, 2, size=(d, a), dtype=np.int8) - 1.0
        self.cols_ = np.ascontiguousarray(self.buckets_[:, None] * (v * a) + np.arange(a)[None, :] * v + g,
                                          dtype=np.int64)
        self.vals_ = signs / np.sqrt(a)

    def _matrix(self):
        a = self.a
        indptr = np.arange(0, self.d * a + 1, a, dtype=np.int64)
        return sp.csr_array((self.vals_.ravel(), self.cols_.ravel(), indptr), shape=(self.d, self.r))

    def _matrix_entries(self):
        return self.d * self.a

    def _matrix_bytes(self):
        return 16 * self.d * self.a + 8 * (self.d + 1)

    def _apply_bytes(self, X, is_sparse):
        item = np.dtype(X.dtype).itemsize
        if not is_sparse:
            return X.shape[0] * self.r * item + self.d * self.a * (item + 16)
        # output CSR (a nnz entries of an index and a value), accumulator and marker of length r, packed codes
        return self.a * X.nnz * (8 + item) + 8 * (X.shape[0] + 1) + 16 * self.r + 8 * self.d * self.a

    def _apply_dense(self, X):
        vals = self.vals_.astype(X.dtype)
        if _fwht.numba_enabled() and X.size >= 1024:
            out = np.empty((X.shape[0], self.r), dtype=X.dtype)
            k = _fwht._kernels
            with _fwht.parallel_slot(X.size) as par:
                (k.sparse_embed_dense if par else k.sparse_embed_dense_serial)(X, self.cols_, vals, out)
            return out
        R = self._matrix().astype(X.dtype)
        return np.ascontiguousarray((R.T @ X.T).T)

    def _apply_sparse(self, X):
        """O(a nnz(X)): relabel every stored entry ``X[i, k]`` to its ``a`` columns, then sum duplicates."""
        is_array = isinstance(X, sp.sparray)
        cls = sp.csr_array if is_array else sp.csr_matrix
        X = X.tocsr()
        a = self.a
        if _fwht.numba_enabled() and X.nnz:
            n = X.shape[0]
            itype = np.int32 if max(self.r, a * X.nnz) < 2**31 - 1 else np.int64
            indptr = np.empty(n + 1, dtype=itype)
            idx = np.empty(a * X.nnz, dtype=itype)
            dat = np.empty(a * X.nnz, dtype=X.dtype)
            if getattr(self, "_packed", None) is None:  # 2 col + sign bit: one 4-byte read per entry
                ptype = np.int32 if 2 * self.r < 2**31 - 1 else np.int64
                self._packed = ((self.cols_ << 1) | (self.vals_ < 0)).astype(ptype)
            mag = X.dtype.type(1.0 / np.sqrt(a))
            _fwht._kernels.sparse_embed_csr(X.indptr, X.indices, X.data, self._packed, mag, self.r, indptr, idx, dat)
            m = int(indptr[-1])
            return cls((dat[:m], idx[:m], indptr), shape=(n, self.r), copy=False)
        indices = self.cols_[X.indices].ravel()
        data = (X.data[:, None] * self.vals_[X.indices].astype(X.dtype)).ravel()
        indptr = X.indptr.astype(np.int64) * a
        out = cls((data, indices, indptr), shape=(X.shape[0], self.r))
        out.sum_duplicates()
        return out


class CountSketch(CWSketch):
    r"""CountSketch: one :math:`\pm 1` per row of ``R``, in a uniform column (CW with q=1, a=1, v=r).

    Parameters
    ----------
    d, r : int
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Notes
    -----
    :math:`R_{k, h(k)} = \sigma(k)`, ``h(k)`` uniform in ``[r]`` and :math:`\sigma(k) = \pm 1`; all other
    entries zero. :math:`E[R R^T] = I_d` with ``(R R^T)_{kk} = 1`` and off-diagonal variance ``1/r``.
    Applying costs O(nnz(X)) (Clarkson & Woodruff 2013; Lei & Lan 2020, A4 "Sparse Embedding").
    """

    kind = "countsketch"

    def __init__(self, d, r, *, rng=None):
        super().__init__(d, r, q=1, v=r, a=1, rng=rng)
        self.params = {}
