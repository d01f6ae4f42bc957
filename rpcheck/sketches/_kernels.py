"""Compiled (numba) kernels for the fast transforms; imported only when numba is available.

Every kernel has a pure-numpy twin in :mod:`rpcheck.sketches._fwht` or in the module that uses it, and the
tests compare the two paths against the same dense oracle. Kernels are compiled lazily, once per dtype, and
cached on disk (``cache=True``) so later processes skip the JIT.

Walsh-Hadamard butterflies: the transform of a row of length ``d = 2**q`` is ``q`` levels of butterflies
``(u, v) -> (u + v, u - v)`` at strides ``h = 1, 2, 4, ..., d/2`` (Sylvester ordering, the ordering of
``scipy.linalg.hadamard``). The kernel does levels 1, 2, 4 in one sweep on blocks of 8 entries (radix 8),
then two levels per sweep (radix 4) as unit-stride loops over four contiguous blocks, which compile to
packed SIMD additions. Rows are transformed one at a time (a row of 2^14 float64 is 128 KiB, resident in
L2), so the array itself is read and written once from main memory. Each row driver exists twice, serial (the
default) and with rows distributed over threads by ``prange`` (opt-in, ``RPCHECK_PARALLEL=1``); both do the
same arithmetic in the same order, so their results are bitwise identical.
"""

import math

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True, inline="always")
def _bfly4(x0, x1, x2, x3):
    """Two fused butterfly levels on four contiguous blocks of equal length (strides h and 2h)."""
    for j in range(x0.shape[0]):
        a0 = x0[j]
        a1 = x1[j]
        a2 = x2[j]
        a3 = x3[j]
        b0 = a0 + a1
        b1 = a0 - a1
        b2 = a2 + a3
        b3 = a2 - a3
        x0[j] = b0 + b2
        x1[j] = b1 + b3
        x2[j] = b0 - b2
        x3[j] = b1 - b3


@njit(cache=True, nogil=True, inline="always")
def _bfly2(x0, x1):
    """One butterfly level on two contiguous blocks of equal length."""
    for j in range(x0.shape[0]):
        a0 = x0[j]
        a1 = x1[j]
        x0[j] = a0 + a1
        x1[j] = a0 - a1


@njit(cache=True, nogil=True, fastmath=False)
def _fwht_row(x):
    """Unnormalised in-place FWHT of the 1-D contiguous array ``x`` (length a power of two).

    Levels ``h = 1, 2, 4`` are done together on each block of 8 entries (radix 8, unrolled: the entries of
    a block are loaded once into registers). The remaining levels go two at a time (radix 4; one radix-2
    level when an odd number remains) as loops over four contiguous blocks of length ``h >= 8``: each
    block is a separate unit-stride view, so the compiler emits packed SIMD additions for them. Measured
    on 2048 x 4096 float64: 31 ms against 44 ms for the earlier radix-4 loop over one index set.
    """
    d = x.shape[0]
    h = 1
    if d >= 8:
        for i in range(0, d, 8):
            a0 = x[i]
            a1 = x[i + 1]
            a2 = x[i + 2]
            a3 = x[i + 3]
            a4 = x[i + 4]
            a5 = x[i + 5]
            a6 = x[i + 6]
            a7 = x[i + 7]
            b0 = a0 + a1
            b1 = a0 - a1
            b2 = a2 + a3
            b3 = a2 - a3
            b4 = a4 + a5
            b5 = a4 - a5
            b6 = a6 + a7
            b7 = a6 - a7
            c0 = b0 + b2
            c2 = b0 - b2
            c1 = b1 + b3
            c3 = b1 - b3
            c4 = b4 + b6
            c6 = b4 - b6
            c5 = b5 + b7
            c7 = b5 - b7
            x[i] = c0 + c4
            x[i + 4] = c0 - c4
            x[i + 1] = c1 + c5
            x[i + 5] = c1 - c5
            x[i + 2] = c2 + c6
            x[i + 6] = c2 - c6
            x[i + 3] = c3 + c7
            x[i + 7] = c3 - c7
        h = 8
    else:
        while h < d:
            for i in range(0, d, 2 * h):
                for j in range(i, i + h):
                    a = x[j]
                    b = x[j + h]
                    x[j] = a + b
                    x[j + h] = a - b
            h *= 2
    while h < d:
        if 4 * h <= d:
            for i in range(0, d, 4 * h):
                _bfly4(x[i:i + h], x[i + h:i + 2 * h], x[i + 2 * h:i + 3 * h], x[i + 3 * h:i + 4 * h])
            h *= 4
        else:
            for i in range(0, d, 2 * h):
                _bfly2(x[i:i + h], x[i + h:i + 2 * h])
            h *= 2


@njit(cache=True, nogil=True)
def _guarded_row(row, scale, big):
    m = 0.0
    nan = False
    for j in range(row.shape[0]):
        v = row[j]
        a = abs(v)
        if a > m:
            m = a
        nan |= v != v
    return _guarded_row_m(row, scale, big, m, nan)


@njit(cache=True, nogil=True)
def _guarded_row_m(row, scale, big, m, nan):
    """Transform ``row`` in place (times ``scale``) unless that cannot be done in floating point.

    Returns 0 on success, 1 if ``row`` holds NaN or inf, 2 if the result exceeds the float range. Every
    butterfly sum has magnitude <= d max|row|, so rows with max|row| <= ``big`` (= largest float / d) are
    transformed as they are (bitwise the plain transform). Larger rows are transformed as ``row / 2**e``
    (exact) and scaled back by ``scale * 2**e``; only if that product overflows is the row refused (its
    contents are then unspecified). ``m`` is max|row| and ``nan`` whether it holds a NaN, computed by the
    caller (in the copy loop for the out-of-place transform).
    """
    if nan or m == np.inf:
        return 1
    if m <= big:
        _fwht_row(row)
        _scale_row(row, scale)
        return 0
    e = math.frexp(m)[1]
    for j in range(row.shape[0]):
        row[j] = math.ldexp(row[j], -e)
    _fwht_row(row)
    bad = False
    for j in range(row.shape[0]):
        row[j] = math.ldexp(row[j] * scale, e)
        bad |= abs(row[j]) == np.inf  # checked after rounding to the row's dtype (float32 overflows first)
    return 2 if bad else 0


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
def _copy_fwht_row(X, i, out, scale, big):
    row = out[i]
    m = 0.0
    nan = False
    for j in range(X.shape[1]):
        v = X[i, j]
        row[j] = v
        a = abs(v)
        if a > m:
            m = a
        nan |= v != v
    return _guarded_row_m(row, scale, big, m, nan)


@njit(cache=True, parallel=True, nogil=True)
def fwht_rows_copy(X, out, scale, big, status):
    """Out-of-place FWHT: ``out[i] = scale * FWHT(X[i])``; each row is copied and transformed while it is
    in cache, so the array is read once and written once (no separate copy pass). ``X`` may be strided.
    ``status[i]`` receives the code of :func:`_guarded_row`."""
    for i in prange(X.shape[0]):
        status[i] = _copy_fwht_row(X, i, out, scale, big)


@njit(cache=True, nogil=True)
def fwht_rows_copy_serial(X, out, scale, big, status):
    """Single-threaded :func:`fwht_rows_copy`."""
    for i in range(X.shape[0]):
        status[i] = _copy_fwht_row(X, i, out, scale, big)


@njit(cache=True, parallel=True, nogil=True)
def fwht_rows_guarded(X, scale, big, status):
    """In-place FWHT of every row of the C-contiguous ``X`` with the checks of :func:`_guarded_row`."""
    for i in prange(X.shape[0]):
        status[i] = _guarded_row(X[i], scale, big)


@njit(cache=True, nogil=True)
def fwht_rows_guarded_serial(X, scale, big, status):
    """Single-threaded :func:`fwht_rows_guarded`."""
    for i in range(X.shape[0]):
        status[i] = _guarded_row(X[i], scale, big)


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
    in order needs no compaction pass, and on the 2-core target machine a parallel variant is no
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


@njit(cache=True, nogil=True)
def _isrht_accumulate(buf, i, scale, supervised, deg, cls, energies, weighted, class_sums, total):
    """Scale the transformed row ``buf`` (in its own dtype, as ``_scale_row`` does) and add it, in float64,
    to the column energies and, when ``supervised``, to the three row-additive sums of the ISRHT score."""
    if supervised:
        w = deg[i]
        c = cls[i]
        for j in range(buf.shape[0]):
            buf[j] *= scale
            v = np.float64(buf[j])
            e = v * v
            energies[j] += e
            weighted[j] += w * e
            class_sums[c, j] += v
            total[j] += v
    else:
        for j in range(buf.shape[0]):
            buf[j] *= scale
            v = np.float64(buf[j])
            energies[j] += v * v


@njit(cache=True, nogil=True)
def isrht_sums_csr(indptr, indices, data, signs, scale, supervised, deg, cls, energies, weighted, class_sums, total,
                   buf):
    """Streamed ISRHT statistics of CSR ``X`` without densifying it: for each row, scatter ``x * signs`` into
    the zeroed d'-entry buffer ``buf``, FWHT it, and accumulate (:func:`_isrht_accumulate`). Memory: one row
    buffer. Rows are added in order, so the result does not depend on any block size."""
    n = indptr.shape[0] - 1
    for i in range(n):
        for j in range(buf.shape[0]):
            buf[j] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            buf[k] += data[p] * signs[k]
        _fwht_row(buf)
        _isrht_accumulate(buf, i, scale, supervised, deg, cls, energies, weighted, class_sums, total)


@njit(cache=True, nogil=True)
def isrht_sums_dense(X, signs, scale, supervised, deg, cls, energies, weighted, class_sums, total, buf):
    """Dense twin of :func:`isrht_sums_csr` (``X`` C-contiguous (n, d), ``buf`` of length d' >= d)."""
    d = X.shape[1]
    for i in range(X.shape[0]):
        for j in range(d):
            buf[j] = X[i, j] * signs[j]
        for j in range(d, buf.shape[0]):
            buf[j] = 0.0
        _fwht_row(buf)
        _isrht_accumulate(buf, i, scale, supervised, deg, cls, energies, weighted, class_sums, total)


@njit(cache=True, nogil=True)
def srht_csr_direct(indptr, indices, data, signs, cols, scale, out):
    """SRHT/ISRHT apply to CSR ``X`` straight from its stored entries, never forming a rotated row:
    ``out[i, t] = scale * sum_p data[p] signs[k_p] (-1)^popcount(k_p & cols[t])`` (the closed form of the
    Sylvester entries, :math:`(H_{d'})_{kj} = (-1)^{popcount(k \\& j)}`). O(nnz(X) r) time and no buffer, which
    beats the O(n d' log d') row FWHT when rows are short and ``d'`` is large (news20: 650 entries vs
    2^21 per row). Entries of a row are added in their stored order."""
    n = indptr.shape[0] - 1
    r = cols.shape[0]
    for i in range(n):
        for t in range(r):
            out[i, t] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            k = np.int64(indices[p])
            v = data[p] * signs[k]
            for t in range(r):
                m = k & cols[t]
                m ^= m >> 32
                m ^= m >> 16
                m ^= m >> 8
                m ^= m >> 4
                m ^= m >> 2
                m ^= m >> 1
                if m & 1:
                    out[i, t] -= v
                else:
                    out[i, t] += v
        for t in range(r):
            out[i, t] *= scale
