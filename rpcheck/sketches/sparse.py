r"""Sparse random projections (``"sparse"``): Achlioptas (2003) and Li, Hastie & Church (2006).

Entries of ``R`` are i.i.d.

.. math::

    R_{kt} = \sqrt{\frac{1}{s\,r}} \times \begin{cases} +1 & \text{w.p. } s/2 \\ 0 & \text{w.p. } 1-s \\
    -1 & \text{w.p. } s/2 \end{cases}

with density ``s``: Achlioptas ``s = 1/3`` (the :math:`\sqrt{3/r}\{\pm1, 0\}` matrix, Lei & Lan 2020 A6) or
Li et al. "very sparse" ``s = 1/sqrt(d)`` (Paul et al. 2014, Sec. 2 table; the scaling
:math:`d^{1/4}/\sqrt{r}` is not in the paper). Then :math:`E[R_{kt}^2] = 1/r`, so :math:`E[R R^T] = I_d`.
"""

import numbers

import numpy as np
import scipy.sparse as sp

from .._validation import check_interval, check_memory
from ..errors import RpcheckError
from ._base import Sketch

__all__ = ["SparseSketch", "resolve_density"]


def resolve_density(density, d):
    """Map ``density`` ("achlioptas", "li" or a float in (0, 1]) to a float.

    >>> resolve_density("achlioptas", 100), resolve_density("li", 100)
    (0.3333333333333333, 0.1)
    """
    if isinstance(density, str):
        if density == "achlioptas":
            return 1.0 / 3.0
        if density == "li":
            return float(1.0 / np.sqrt(d))
        raise RpcheckError(
            f"`density` ({density!r}) must be 'achlioptas', 'li' or a float in the interval (0, 1]."
        )
    if isinstance(density, numbers.Real) and not isinstance(density, bool):
        return check_interval("density", density, 0, 1, closed="right")
    raise RpcheckError(
        f"`density` ({density!r}) must be 'achlioptas', 'li' or a float in the interval (0, 1]."
    )


def _bernoulli_pattern(d, r, s, rng):
    """Row and column indices of an i.i.d. Bernoulli(s) pattern in a (d, r) matrix, row-major order.

    Dense patterns (s >= 0.02) threshold uniforms in row blocks (bounded memory); sparse ones draw the
    Binomial(d r, s) count and then a uniform subset of that size, which is the same distribution.
    """
    total = d * r
    if s >= 0.02:
        block = max(1, (1 << 22) // r)
        rows, cols = [], []
        for lo in range(0, d, block):
            m = rng.random((min(block, d - lo), r)) < s
            i, j = np.nonzero(m)
            rows.append(i + lo)
            cols.append(j)
        return np.concatenate(rows), np.concatenate(cols)
    nnz = int(rng.binomial(total, s))
    flat = np.sort(rng.choice(total, size=nnz, replace=False))
    return np.divmod(flat, r)


class SparseSketch(Sketch):
    r"""Sparse sign projection with density ``s`` and entries :math:`\pm\sqrt{1/(s r)}`.

    Parameters
    ----------
    d, r : int
    density : {"achlioptas", "li"} or float in (0, 1], default="achlioptas"
        ``"achlioptas"``: s = 1/3 (Achlioptas 2003); ``"li"``: s = 1/sqrt(d) (Li et al. 2006).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Notes
    -----
    The nonzero positions are an i.i.d. Bernoulli(s) pattern, drawn as a Binomial(d r, s) count followed by a
    uniform subset of that size (the same distribution). ``(R R^T)_{kl}`` has variance ``1/r`` off the
    diagonal and ``(1/s - 1)/r`` on it. ``matrix()`` is a ``scipy.sparse.csr_array``; ``apply`` returns a
    dense ndarray for dense and sparse input alike.
    """

    kind = "sparse"

    def __init__(self, d, r, *, density="achlioptas", rng=None):
        super().__init__(d, r, rng=rng)
        s = resolve_density(density, self.d)
        # Peak of the construction: row/col indices drawn (int64) and concatenated, signs and values, and the
        # CSR arrays (indptr of d + 1 int64): <= 8 (d + 1) + 64 nnz bytes; nnz ~ Binomial(d r, s), so its
        # mean plus 6 standard deviations is exceeded with probability < 1e-9.
        mean = s * self.d * self.r
        nnz_hi = mean + 6.0 * np.sqrt(mean) + 1
        check_memory(8 * (self.d + 1) + 64 * nnz_hi,
                     f"a sparse (d, r) matrix of density {s:.3g} (about {mean:.3g} nonzeros)",
                     d=self.d, r=self.r)
        self.density = s
        self.params = {"density": s}
        rows, cols = _bernoulli_pattern(self.d, self.r, s, self._rng)
        signs = 2.0 * self._rng.integers(0, 2, size=rows.size, dtype=np.int8) - 1.0
        self.R_ = sp.csr_array(
            (signs * np.sqrt(1.0 / (s * self.r)), (rows, cols)), shape=(self.d, self.r)
        )

    def _apply_dense(self, X):
        R = self.R_.astype(X.dtype)
        return np.ascontiguousarray((R.T @ X.T).T)

    def _apply_sparse(self, X):
        R = self.R_.astype(X.dtype)
        return (sp.csr_array(X) @ R).toarray()

    def _matrix(self):
        return self.R_.copy()

    def _matrix_entries(self):
        return self.R_.nnz + self.d + 1

    def _matrix_bytes(self):
        return 16 * self.R_.nnz + 8 * (self.d + 1)
