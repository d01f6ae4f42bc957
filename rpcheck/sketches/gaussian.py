r"""Dense i.i.d. projections: Gaussian (``"gaussian"``) and random sign (``"sign"``).

Paul et al. (2014), Sec. 2, table of constructions: RG has i.i.d. N(0, 1) entries and RS i.i.d. +-1 entries,
"rescaled". The paper states no scaling; Lemmas 3.2 and 3.4 need :math:`E[R R^T] = I_d`, so both are divided
by :math:`\sqrt{r}` here.
"""

import numpy as np

from .._validation import check_memory
from ._base import Sketch

__all__ = ["GaussianSketch", "SignSketch"]


class _DenseSketch(Sketch):
    """A sketch stored as an explicit dense float64 (d, r) matrix ``R_``."""

    def _apply_dense(self, X):
        return X @ self.R_.astype(X.dtype, copy=False)

    def _apply_sparse(self, X):
        return np.asarray(X @ self.R_.astype(X.dtype, copy=False))

    def _matrix(self):
        return self.R_.copy()

    def _matrix_bytes(self):
        return 8 * self.d * self.r

    def _check_build_memory(self):
        # the draw, scaled in place (gaussian), or int8 bits and the float64 matrix (sign)
        check_memory(9 * self.d * self.r, f"a dense (d, r) float64 matrix for sketch kind {self.kind!r}",
                     d=self.d, r=self.r)


class GaussianSketch(_DenseSketch):
    r"""Gaussian projection: entries i.i.d. :math:`N(0, 1/r)` (Paul et al. 2014, Lemma 3.4 "RG").

    Parameters
    ----------
    d, r : int
        Input and output dimension.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (Scientific Python SPEC 7 conventions).

    Notes
    -----
    .. math:: R_{kt} \sim N(0, 1/r) \text{ i.i.d.}, \qquad E[R R^T] = r \cdot \tfrac{1}{r} I_d = I_d.

    ``(R R^T)_{kl}`` has variance ``1/r`` off the diagonal and ``2/r`` on it. Applying costs O(n d r).
    Dasgupta & Gupta (2003); Indyk & Motwani (1998).
    """

    kind = "gaussian"

    def __init__(self, d, r, *, rng=None):
        super().__init__(d, r, rng=rng)
        self._check_build_memory()
        R = self._rng.standard_normal((self.d, self.r))
        R /= np.sqrt(self.r)  # in place: the same values as ``R / sqrt(r)``, one (d, r) array fewer
        self.R_ = R


class SignSketch(_DenseSketch):
    r"""Random sign projection: entries i.i.d. :math:`\pm 1/\sqrt{r}` with probability 1/2 each.

    Paul et al. (2014), Lemma 3.2 "RS" (Achlioptas 2003, the dense case), rescaled by :math:`1/\sqrt{r}`.

    Notes
    -----
    .. math:: R_{kt} = \pm 1/\sqrt{r}, \qquad E[R R^T] = I_d.

    ``(R R^T)_{kk} = 1`` exactly; off-diagonal entries have mean 0 and variance ``1/r``.
    """

    kind = "sign"

    def __init__(self, d, r, *, rng=None):
        super().__init__(d, r, rng=rng)
        self._check_build_memory()
        bits = self._rng.integers(0, 2, size=(self.d, self.r), dtype=np.int8)
        # in place, no float temporaries: with s = 1 / sqrt(r), bits * 2s - s is exactly 0 - s or 2s - s
        # (Sterbenz), and +-(1 / sqrt(r)) is the correctly rounded quotient either way, so the values equal
        # ``(2 bits - 1) / sqrt(r)`` bit for bit (tests/sketches: test_dense_builds_bit_identical)
        s = 1.0 / np.sqrt(self.r)
        R = bits.astype(np.float64)
        R *= 2.0 * s
        R -= s
        self.R_ = R
