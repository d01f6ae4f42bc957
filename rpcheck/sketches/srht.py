r"""Subsampled randomized Hadamard transform (``"srht"``), Paul et al. (2014) eq. (11).

.. math:: R = \sqrt{d'/r}\, D H S \in \mathbb{R}^{d' \times r}

with ``d' = 2**ceil(log2 d)`` (``X`` is padded with zero columns, equivalently only the first ``d`` rows of
``R`` are used), ``D`` a diagonal of i.i.d. Rademacher signs, ``H = H_{d'}/sqrt(d')`` the normalised
Sylvester-Hadamard matrix and ``S`` a (d', r) column-sampling matrix: columns drawn uniformly **with**
replacement (``replace=True``, Paul et al. Sec. 2.1) or as a uniform r-subset **without** replacement
(``replace=False``, Lei & Lan 2020 eq. (2)). Every entry of ``R`` is :math:`\pm 1/\sqrt{r}` and
:math:`E[R R^T] = I_d`.

``apply`` never forms ``H``: each row of ``X`` is sign-flipped, zero-padded, transformed with the FWHT and
subsampled (a fused compiled kernel when numba is available). ``matrix()`` forms the dense (d, r) ``R``
from the closed form of the Hadamard entries (O(d r) memory; for oracles).
"""

import numpy as np

from .._validation import check_choice, check_memory
from ..errors import RpcheckError
from . import _fwht
from ._base import Sketch, check_input

__all__ = ["SRHTSketch", "RotationMixin"]

_CHUNK_ENTRIES = 1 << 22  # rows of sparse input are densified in blocks of at most this many entries
#: Sparse apply with numba: "auto" takes the direct O(nnz r) kernel when nnz(X) r < n d' log2(d'), the cost
#: of transforming every padded row; "always"/"never" force one path (tests exercise both).
_SPARSE_DIRECT = "auto"


class RotationMixin:
    r"""The randomized Walsh-Hadamard rotation ``X -> X_r = pad(X) D H`` shared by the SRHT family.

    Requires attributes ``d``, ``d_pad`` and ``signs_`` (the diagonal of D, length ``d``; the signs of the
    padded coordinates are irrelevant because those columns of ``X`` are zero). :math:`D H` is orthogonal,
    so :math:`X X^T = X_r X_r^T` and the column energies sum to :math:`\|X\|_F^2` (Lei & Lan 2020, Sec. 1.2).
    """

    # A sketch of the family keeps the columns ``indices_`` of X_r, scaled by ``_column_scale()`` (a scalar
    # or one weight per kept column): apply, and the explicit matrix R = (D H)[:, indices_] * scale.
    def _apply_dense(self, X):
        return self._rotate_select(X, False, self.indices_, self._column_scale())

    def _apply_sparse(self, X):
        return self._rotate_select(X, True, self.indices_, self._column_scale())

    def _matrix(self):
        return self._rotation_columns(self.indices_) * self._column_scale()

    def rotate(self, X):
        """Return the rotated matrix ``X_r = pad(X) D H``, a dense (n, d') array of X's float dtype."""
        X, is_sparse = check_input(X, self.d)
        return self._rotate_checked(X, is_sparse)

    def _rotate_checked(self, X, is_sparse):
        n = X.shape[0]
        dtype = X.dtype
        out = np.zeros((n, self.d_pad), dtype=dtype)
        signs = self.signs_.astype(dtype)
        if is_sparse:
            X = X.tocsr()
            block = max(1, _CHUNK_ENTRIES // self.d_pad)
            for lo in range(0, n, block):
                hi = min(n, lo + block)
                out[lo:hi, : self.d] = X[lo:hi].toarray() * signs
        else:
            np.multiply(X, signs, out=out[:, : self.d])
        _fwht.rotate_inplace(out, 1.0 / np.sqrt(self.d_pad))
        return out

    def _row_block(self, width):
        """Rows per block when at most ``_CHUNK_ENTRIES`` entries of ``width`` columns may be alive (>= 1)."""
        return max(1, _CHUNK_ENTRIES // max(1, width))

    def _rotated_blocks(self, X, is_sparse):
        """Yield ``(lo, hi, rotate(X[lo:hi]))`` over blocks of rows, each rotation a dense (hi-lo, d') array.

        At most ``_CHUNK_ENTRIES`` rotated entries (one block) are alive at a time, so streaming statistics
        of ``X D H`` (column energies, supervised scores) need O(_CHUNK_ENTRIES + d') memory, not O(n d').
        """
        if is_sparse:
            X = X.tocsr()
        b = self._row_block(self.d_pad)
        for lo in range(0, X.shape[0], b):
            hi = min(X.shape[0], lo + b)
            yield lo, hi, self._rotate_checked(X[lo:hi], is_sparse)

    def _direct_is_cheaper(self, X, r):
        if _SPARSE_DIRECT != "auto":
            return _SPARSE_DIRECT == "always"
        return X.nnz * r < X.shape[0] * self.d_pad * max(1, self.d_pad.bit_length() - 1)

    def _rotate_select(self, X, is_sparse, cols, col_scale):
        """``rotate(X)[:, cols] * col_scale`` without ever storing the (n, d') rotation.

        Memory model (beyond ``X`` itself): the (n, len(cols)) output plus one block of rows. Sparse input
        with numba whose nnz(X) r is below n d' log2 d' (short rows, wide d'): the direct kernel
        ``srht_csr_direct`` sums the stored entries times the closed-form Hadamard signs, output only. Dense input
        with the compiled kernel: one padded row buffer of d' entries (the fused kernel transforms row by
        row). Sparse input: blocks of ``b = max(1, _CHUNK_ENTRIES // d)`` rows are densified to (b, d) and
        fed to the same kernel, so the largest temporary has max(_CHUNK_ENTRIES, d) entries. Without numba
        (or for tiny inputs) blocks of ``max(1, _CHUNK_ENTRIES // d')`` rows are rotated to (b, d') and
        subsampled. Peak: ``n r + 2 max(_CHUNK_ENTRIES, d')`` entries of X's dtype, never ``n d'``.
        """
        cols = np.ascontiguousarray(cols, dtype=np.int64)
        n = X.shape[0]
        out = np.empty((n, cols.size), dtype=X.dtype)
        if is_sparse:
            X = X.tocsr()
        else:
            X = np.ascontiguousarray(X)
        if is_sparse and _fwht.numba_enabled() and self._direct_is_cheaper(X, cols.size):
            _fwht._kernels.srht_csr_direct(X.indptr, X.indices, X.data, self.signs_.astype(X.dtype), cols,
                                           1.0 / np.sqrt(self.d_pad), out)
        elif _fwht.numba_enabled() and n * self.d_pad >= 1024:
            k = _fwht._kernels
            signs = self.signs_.astype(X.dtype)
            scale = 1.0 / np.sqrt(self.d_pad)
            b = self._row_block(self.d) if is_sparse else max(n, 1)
            for lo in range(0, n, b):
                hi = min(n, lo + b)
                block = X[lo:hi].toarray() if is_sparse else X[lo:hi]
                with _fwht.parallel_slot(block.shape[0] * self.d_pad) as par:
                    (k.srht_rows if par else k.srht_rows_serial)(block, signs, self.d_pad, cols, scale,
                                                                 out[lo:hi])
        else:
            for lo, hi, Xr in self._rotated_blocks(X, is_sparse):
                out[lo:hi] = Xr[:, cols]
        out *= np.asarray(col_scale, dtype=out.dtype)
        return out

    def _matrix_bytes(self):
        return 24 * self.d * self.r  # int64 parities, float64 signs and the result, each (d, r)

    def _block_bytes(self, n, nnz, item, is_sparse, is_csr):
        """Bytes of the per-block temporaries of ``_rotate_select`` / ``_rotated_blocks`` (the memory model).

        A block has ``b = min(n, max(1, _CHUNK_ENTRIES // d'))`` rows, so ``big = max(b, 1) d'`` <=
        ``max(_CHUNK_ENTRIES, d')`` rotated entries: the padded rotation, the densified rows and their sign
        product, each <= ``big`` entries of X's dtype, the float64 cast and squares in ``fit`` (<= 2 big
        float64), plus the kernel's d'-entry row buffer. Sparse input adds the densified rows of the
        compiled path and their CSR row slice ``X[lo:hi]`` (<= min(n, max(1, _CHUNK_ENTRIES // d)) d
        entries; value + 8-byte index) and, for CSC/other formats, one CSR copy of ``X`` (nnz values and
        indices, n + 1 pointers).
        """
        big = max(1, min(n, self._row_block(self.d_pad))) * self.d_pad
        work = big * (3 * item + 16) + 8 * self.d_pad
        if is_sparse:
            work += max(1, min(n, self._row_block(self.d))) * self.d * (2 * item + 8)
            if not is_csr:
                work += nnz * (item + 8) + 8 * (n + 1)
        return work

    def _apply_bytes(self, X, is_sparse):
        """``apply``: the (n, r) output, its finiteness mask (n r bytes), the cast signs and one block."""
        item = np.dtype(X.dtype).itemsize
        nnz = X.nnz if is_sparse else 0
        is_csr = is_sparse and X.format == "csr"
        return X.shape[0] * self.r * (item + 1) + self.d * item + self._block_bytes(X.shape[0], nnz, item,
                                                                                     is_sparse, is_csr)

    def _check_build_memory(self):
        # signs (int8, then float64), the r column indices, and the permutation of the d' columns that
        # sampling without replacement may use
        check_memory(9 * self.d + 8 * self.r + 8 * self.d_pad,
                     f"the signs and column indices of sketch kind {self.kind!r} (d'={self.d_pad})",
                     d=self.d, r=self.r)

    def _rotation_columns(self, cols):
        r"""Columns ``cols`` of the first ``d`` rows of ``D H``, a dense (d, len(cols)) float64 array.

        Uses the closed form of the Sylvester matrix,
        :math:`(H_{d'})_{kj} = (-1)^{\mathrm{popcount}(k \,\&\, j)}`, so the cost is O(d r log d') and
        memory O(d r), never O(d d').
        """
        cols = np.asarray(cols, dtype=np.int64)
        v = np.arange(self.d, dtype=np.int64)[:, None] & cols[None, :]
        shift = 32
        while shift:  # fold to the parity of the popcount
            v ^= v >> shift
            shift //= 2
        sign = 1.0 - 2.0 * (v & 1)
        return sign * (self.signs_[:, None] / np.sqrt(self.d_pad))


class SRHTSketch(RotationMixin, Sketch):
    r"""Subsampled randomized Hadamard transform, :math:`R = \sqrt{d'/r} D H S` (Paul et al. 2014, eq. 11).

    Parameters
    ----------
    d, r : int
        Input and output dimensions. With ``replace=False``, ``r <= d'`` (the padded dimension).
    replace : bool, default=True
        Sample the r columns of ``S`` i.i.d. uniformly with replacement (Paul et al. 2014, Sec. 2.1) or
        as a uniform r-subset without replacement (Lei & Lan 2020, eq. 2, "SRHT").
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (Scientific Python SPEC 7 conventions).

    Attributes
    ----------
    d_pad : int
        ``d' = 2**ceil(log2 d)``.
    signs_ : ndarray of shape (d,)
        Diagonal of ``D`` (+-1.0).
    indices_ : ndarray of shape (r,)
        Sampled columns of ``H`` (the rows of ``S`` holding a one), in draw order.

    Notes
    -----
    Entries of ``R`` are :math:`\pm 1/\sqrt{r}` (``D_k H_{kj} = \pm 1/\sqrt{d'}``), so
    :math:`(R R^T)_{kk} = 1` exactly. Off the diagonal :math:`(R R^T)_{kl} = \frac1r \sum_t \pm 1` over the
    sampled columns, mean zero, with variance ``1/r`` with replacement and ``(d'-r)/(r(d'-1))`` without.
    :math:`R^T R = (d'/r) S^T S`, not the identity. Applying costs O(n d' log d').
    """

    kind = "srht"

    def __init__(self, d, r, *, replace=True, rng=None):
        super().__init__(d, r, rng=rng)
        self.replace = bool(check_choice("replace", replace, (True, False)))
        self.d_pad = _fwht.next_pow2(self.d)
        if not self.replace and self.r > self.d_pad:
            raise RpcheckError(
                f"`r` ({self.r}) must be <= the padded dimension d'={self.d_pad} (d={self.d}) when "
                "`replace=False`: an r-subset of the d' columns of H cannot have more than d' elements."
            )
        self.params = {"replace": self.replace}
        self._check_build_memory()
        self.signs_ = 2.0 * self._rng.integers(0, 2, size=self.d, dtype=np.int8) - 1.0
        if self.replace:
            self.indices_ = self._rng.integers(0, self.d_pad, size=self.r)
        else:
            self.indices_ = self._rng.choice(self.d_pad, size=self.r, replace=False)
        self.scale_ = np.sqrt(self.d_pad / self.r)

    def _column_scale(self):
        return self.scale_
