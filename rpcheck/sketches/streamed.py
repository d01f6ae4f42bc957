r"""``X @ R`` for dense i.i.d. sketches without forming ``R``: the (d, r) matrix drawn and used in row blocks.

``streamed_apply(kind, Xs, r, rng=rng)`` returns ``[X @ R for X in Xs]`` for the ``R`` that
``make_sketch(kind, d, r, rng=rng)`` would draw -- the same draws from the same random stream, bit for bit --
while holding at most ``block_bytes`` of ``R`` at a time:

- ``gaussian`` (:class:`~rpcheck.sketches.gaussian.GaussianSketch`): ``standard_normal((d, r))`` fills ``R``
  row by row, and NumPy's ``Generator`` produces the same values whether one call draws all ``d r`` of them or
  successive calls draw consecutive row blocks (each value is one ziggurat draw from the bit stream, no state
  carried between calls). So row block ``R[k0:k1]`` is the next ``(k1 - k0) r`` normals, divided by
  ``sqrt(r)`` as the class does, and ``X @ R = sum_blocks X[:, k0:k1] @ R[k0:k1]``.
- ``sparse`` at the Achlioptas density ``s = 1/3`` (:class:`~rpcheck.sketches.sparse.SparseSketch`'s default):
  the class thresholds ``random((rows, r)) < s`` block by block (the nonzero pattern, row-major), then draws
  one sign per nonzero (``integers(0, 2, nnz, int8)``) after the whole pattern. Here the pattern is drawn the
  same way and kept as packed bits (``d r / 8`` bytes), the signs in one call as the class draws them, and a
  second pass expands each block with its signs (row-major order, as ``numpy.nonzero`` lists the class's
  entries) and multiplies.

The sums run in another order than ``X @ R`` (blockwise), so the products agree to rounding, not bit for bit
(``tests/sketches/test_streamed.py`` compares them with ``make_sketch(...).apply`` and checks that the
generator ends in the same state). A sparse ``X`` is sliced by columns: pass it as CSC (converted otherwise, once
per call), so that a caller drawing many ``R`` for the same data converts it once. Memory: the outputs
(``sum n_i r`` float64), one block of ``R`` and, for ``sparse``, the packed pattern and the signs
(``d r / 8 + nnz`` bytes, int8); the ``(d, r)`` matrix never exists whole.
"""

import numpy as np

from .._validation import check_choice, check_int, check_memory
from ..errors import RpcheckError
from ._base import all_finite, check_input
from .sparse import resolve_density

__all__ = ["STREAMED_KINDS", "streamed_apply"]

#: Kinds whose ``R`` ``streamed_apply`` draws in row blocks (``sparse`` at its default Achlioptas density).
STREAMED_KINDS = ("gaussian", "sparse")
_BLOCK_BYTES = 1 << 25  # 32 MiB of R per block


def _column_sliceable(X, d):
    X, is_sparse = check_input(X, d)
    if is_sparse and X.format != "csc":
        X = X.tocsc()
    return X


def _accumulate(outs, Xs, k0, k1, block):
    for out, X in zip(outs, Xs):
        out += np.asarray(X[:, k0:k1] @ block)


def _sparse_pattern_blocks(d, r, s, rows, rng):
    """The Bernoulli(s) pattern of ``SparseSketch`` (threshold of uniforms, row blocks), packed per block."""
    packed, counts = [], []
    for k0 in range(0, d, rows):
        m = rng.random((min(rows, d - k0), r)) < s
        counts.append(int(np.count_nonzero(m)))
        packed.append(np.packbits(m, axis=None))
    return packed, counts


def streamed_apply(kind, Xs, r, *, rng, block_bytes=_BLOCK_BYTES):
    """``[X @ R for X in Xs]`` with ``R`` of ``make_sketch(kind, d, r, rng=rng)``, drawn in row blocks.

    Parameters
    ----------
    kind : {"gaussian", "sparse"}
        ``sparse`` is the Achlioptas density (``SparseSketch``'s default), the only one supported here.
    Xs : sequence of (n_i, d) dense ndarrays or scipy.sparse matrices (CSC preferred), all with the same d
    r : int
    rng : numpy.random.Generator
        Consumed exactly as the class's constructor consumes it.
    block_bytes : int
        Largest block of ``R`` held at once (at least one row).

    Returns
    -------
    list of dense float64 ndarrays of shape (n_i, r)
    """
    check_choice("kind", kind, STREAMED_KINDS)
    r = check_int("r", r, 1)
    block_bytes = check_int("block_bytes", block_bytes, 1)
    if not Xs:
        raise RpcheckError("`Xs` must hold at least one matrix.")
    d = Xs[0].shape[1]
    Xs = [_column_sliceable(X, d) for X in Xs]
    rows = max(1, block_bytes // (8 * r))
    check_memory(8 * r * (sum(X.shape[0] for X in Xs) + 2 * min(rows, d)),
                 f"the outputs and one block of R for sketch kind {kind!r}", r=r)  # fmt: skip
    outs = [np.zeros((X.shape[0], r)) for X in Xs]
    if kind == "gaussian":
        for k0 in range(0, d, rows):
            block = rng.standard_normal((min(rows, d - k0), r))
            block /= np.sqrt(r)  # as GaussianSketch: the same values as ``R / sqrt(r)``
            _accumulate(outs, Xs, k0, k0 + block.shape[0], block)
    else:
        s = resolve_density("achlioptas", d)
        check_memory(d * r // 8 + d * r * s, "the packed pattern and the signs of a sparse R", d=d, r=r)
        packed, counts = _sparse_pattern_blocks(d, r, s, rows, rng)
        bits = rng.integers(0, 2, size=sum(counts), dtype=np.int8)  # the class's one call, kept as int8
        scale = np.sqrt(1.0 / (s * r))
        off = 0
        for b, k0 in enumerate(range(0, d, rows)):
            k1 = min(d, k0 + rows)
            mask = np.unpackbits(packed[b], count=(k1 - k0) * r).reshape(k1 - k0, r).view(bool)
            block = np.zeros((k1 - k0, r))
            # the class's values (2 bits - 1) * scale, in row-major order as numpy.nonzero lists its entries
            block[mask] = (2.0 * bits[off : off + counts[b]] - 1.0) * scale
            off += counts[b]
            _accumulate(outs, Xs, k0, k1, block)
    if not all(all_finite(out) for out in outs):
        raise RpcheckError(f"X @ R overflowed the float64 range for sketch kind {kind!r}; rescale `X`.")
    return outs
