"""Compiled (numba) kernels for the fast transforms; imported only when numba is available.

Every kernel has a pure-numpy twin in :mod:`rpcheck.sketches._fwht` or in the module that uses it, and the
tests compare the two paths against the same dense oracle. Kernels are compiled lazily, once per dtype, and
cached on disk (``cache=True``) so later processes skip the JIT.

Walsh-Hadamard butterflies: the transform of a row of length ``d = 2**q`` is ``q`` levels of butterflies
``(u, v) -> (u + v, u - v)`` at strides ``h = 1, 2, 4, ..., d/2`` (Sylvester ordering, the ordering of
``scipy.linalg.hadamard``). The kernel fuses two levels per sweep (radix 4: strides ``h`` and ``2h`` on the
quadruple ``x[j], x[j+h], x[j+2h], x[j+3h]``), so a row is swept ``ceil(q/2)`` times instead of ``q``. Rows
are transformed one at a time (a row of 2^14 float64 is 128 KiB, resident in L2), so the array itself is
read and written once from main memory. Each row driver exists twice, serial (the default) and with rows
distributed over threads by ``prange`` (opt-in, ``RPCHECK_PARALLEL=1``); both do the same arithmetic in the
same order, so their results are bitwise identical.
"""

import numpy as np
from numba import njit, prange, uint64


@njit(cache=True, nogil=True, fastmath=False)
def _fwht_row(x):
    """Unnormalised in-place FWHT of the 1-D contiguous array ``x`` (length a power of two).

    Indices are unsigned (``uint64``): numba then emits no negative-index wraparound code, which made the
    butterfly loops about 1.4x faster (measured on 2048 x 4096 float64; the results are bitwise identical).
    """
    d = uint64(x.shape[0])
    one = uint64(1)
    q = uint64(0)
    while (one << q) < d:
        q += one
    h = one
    if q % uint64(2) == one:  # one radix-2 level first, then radix-4 sweeps
        for i in range(uint64(0), d, uint64(2)):
            a = x[i]
            b = x[i + one]
            x[i] = a + b
            x[i + one] = a - b
        h = uint64(2)
    while h < d:
        step = uint64(4) * h
        h2 = h + h
        h3 = h2 + h
        for i in range(uint64(0), d, step):
            for j in range(i, i + h):
                a0 = x[j]
                a1 = x[j + h]
                a2 = x[j + h2]
                a3 = x[j + h3]
                b0 = a0 + a1
                b1 = a0 - a1
                b2 = a2 + a3
                b3 = a2 - a3
                x[j] = b0 + b2
                x[j + h] = b1 + b3
                x[j + h2] = b0 - b2
                x[j + h3] = b1 - b3
        h = step


#: Arrays with fewer entries than this are transformed by the serial kernels: waking the thread pool
#: costs milliseconds on a loaded machine, more than transforming 2^16 entries.
PARALLEL_MIN_ENTRIES = 1 << 16

# Every row operation below is a small ``_*_row`` function with two drivers: ``*_par`` (rows distributed
# with ``prange``) and ``*_serial``. Callers pick the serial driver for small inputs, inside forked child
# processes (GNU OpenMP, numba's usual threading layer on Linux, aborts a forked child that launches a
# parallel region after the parent used one) and when another thread is already running a parallel
# kernel (the ``workqueue`` layer is not thread-safe); see ``rpcheck.sketches._fwht.parallel_slot``.


@njit(cache=True, nogil=True)
def _scale_row(row, scale):
    if scale != 1.0:
        for j in range(row.shape[0]):
            row[j] *= scale


@njit(cache=True, parallel=True, nogil=True)
def fwht_rows_inplace(X, scale):
    """In-place FWHT of every row of the C-contiguous 2-D array ``X``, then multiply by ``scale``."""
    for i in prange(X.shape[0]):
        _fwht_row(X[i])
        _scale_row(X[i], scale)


@njit(cache=True, nogil=True)
def fwht_rows_inplace_serial(X, scale):
    """Single-threaded :func:`fwht_rows_inplace`."""
    for i in range(X.shape[0]):
        _fwht_row(X[i])
        _scale_row(X[i], scale)


@njit(cache=True, nogil=True)
def _copy_fwht_row(X, i, out, scale):
    row = out[i]
    for j in range(X.shape[1]):
        row[j] = X[i, j]
    _fwht_row(row)
    _scale_row(row, scale)


@njit(cache=True, parallel=True, nogil=True)
def fwht_rows_copy(X, out, scale):
    """Out-of-place FWHT: ``out[i] = scale * FWHT(X[i])``; each row is copied and transformed while it is
    in cache, so the array is read once and written once (no separate copy pass). ``X`` may be strided."""
    for i in prange(X.shape[0]):
        _copy_fwht_row(X, i, out, scale)


@njit(cache=True, nogil=True)
def fwht_rows_copy_serial(X, out, scale):
    """Single-threaded :func:`fwht_rows_copy`."""
    for i in range(X.shape[0]):
        _copy_fwht_row(X, i, out, scale)


@njit(cache=True, nogil=True)
def _srht_row(X, i, signs, cols, scale, out, buf):
    d = X.shape[1]
    for j in range(d):
        buf[j] = X[i, j] * signs[j]
    for j in range(d, buf.shape[0]):
        buf[j] = 0.0
    _fwht_row(buf)
    for t in range(cols.shape[0]):
        out[i, t] = buf[cols[t]] * scale


@njit(cache=True, parallel=True, nogil=True)
def srht_rows(X, signs, dpad, cols, scale, out):
    """Fused SRHT apply: ``out[i, t] = scale * FWHT(pad(X[i] * signs))[cols[t]]``.

    ``X`` is (n, d) C-contiguous, ``signs`` (d,), ``cols`` (r,) int64 in [0, dpad), ``out`` (n, r).
    Each chunk of rows owns one padded row buffer, so no (n, dpad) intermediate is ever allocated.
    """
    n = X.shape[0]
    nchunks = min(n, 512)
    if nchunks == 0:
        return
    per = (n + nchunks - 1) // nchunks
    for c in prange(nchunks):
        buf = np.empty(dpad, dtype=X.dtype)
        for i in range(c * per, min(n, (c + 1) * per)):
            _srht_row(X, i, signs, cols, scale, out, buf)


@njit(cache=True, nogil=True)
def srht_rows_serial(X, signs, dpad, cols, scale, out):
    """Single-threaded :func:`srht_rows`."""
    buf = np.empty(dpad, dtype=X.dtype)
    for i in range(X.shape[0]):
        _srht_row(X, i, signs, cols, scale, out, buf)


@njit(cache=True, nogil=True)
def _embed_row(X, i, cols, vals, out):
    for t in range(out.shape[1]):
        out[i, t] = 0.0
    for k in range(X.shape[1]):
        xk = X[i, k]
        if xk != 0.0:
            for j in range(cols.shape[1]):
                out[i, cols[k, j]] += vals[k, j] * xk


@njit(cache=True, parallel=True, nogil=True)
def sparse_embed_dense(X, cols, vals, out):
    """Dense ``X @ R`` for a sparse embedding R given per feature k its ``a`` target columns ``cols[k]``
    and values ``vals[k]`` (Clarkson-Woodruff / CountSketch). O(n d a) time, rows in parallel."""
    for i in prange(X.shape[0]):
        _embed_row(X, i, cols, vals, out)


@njit(cache=True, nogil=True)
def sparse_embed_dense_serial(X, cols, vals, out):
    """Single-threaded :func:`sparse_embed_dense`."""
    for i in range(X.shape[0]):
        _embed_row(X, i, cols, vals, out)


@njit(cache=True, nogil=True)
def sparse_embed_csr(indptr, indices, data, packed, mag, r, out_indptr, out_indices, out_data):
    """CSR ``X @ R`` for a sparse embedding (CountSketch / Clarkson-Woodruff) in O(a nnz(X)) time.

    ``packed[k, j] = 2 * col + (value < 0)`` encodes the j-th nonzero of row k of ``R`` (all of magnitude
    ``mag``), so each stored entry of X costs one random 4-byte read. Rows are processed in order with a
    dense accumulator of length r and a marker array; row i's distinct output columns are appended to
    ``out_indices``/``out_data`` (room for ``a * nnz`` entries) in order of first occurrence (not sorted:
    sorting dominated the run time), and ``out_indptr`` (n + 1) is filled. Serial on purpose: writing rows
    in order needs no compaction pass, and on the 2-core target machine a parallel variant was measured no
    faster (the loop is bound by random memory reads).
    """
    n = indptr.shape[0] - 1
    a = packed.shape[1]
    acc = np.zeros(r, dtype=out_data.dtype)
    mark = np.full(r, -1, dtype=np.int64)
    m = 0
    out_indptr[0] = 0
    for i in range(n):
        row_start = m
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            x = data[p] * mag
            for j in range(a):
                code = packed[k, j]
                col = code >> 1
                v = -x if code & 1 else x
                if mark[col] != i:
                    mark[col] = i
                    acc[col] = v
                    out_indices[m] = col
                    m += 1
                else:
                    acc[col] += v
        for t in range(row_start, m):
            out_data[t] = acc[out_indices[t]]
        out_indptr[i + 1] = m
