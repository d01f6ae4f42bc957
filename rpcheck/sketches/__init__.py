r"""Random-projection constructions ("sketches") behind every rpcheck checker.

One registry, one protocol (:class:`~rpcheck.sketches._base.Sketch`): ``make_sketch(kind, d, r, rng=...)``
returns an object with ``kind, d, r, params, data_dependent``, ``fit(X, y=None)``, ``apply(X)`` (= ``X @ R``)
and ``matrix()`` (the explicit (d, r) ``R``).

==================== ============================================================ ==========================
kind                 distribution of R (d x r)                                    reference
==================== ============================================================ ==========================
``gaussian``         i.i.d. N(0, 1/r)                                             Paul et al. 2014, Lemma 3.4
``sign``             i.i.d. +-1/sqrt(r)                                           Paul et al. 2014, Lemma 3.2
``sparse``           i.i.d. +-sqrt(1/(s r)) w.p. s/2 each, else 0;                Achlioptas 2003; Li et al.
                     ``density`` s = "achlioptas" (1/3), "li" (1/sqrt d), float   2006
``srht``             sqrt(d'/r) D H S, S with (``replace=True``) or without        Paul et al. 2014, eq. (11);
                     replacement; d padded to d' = 2^ceil(log2 d)                 Lei & Lan 2020, eq. (2)
``countsketch``      one +-1 per row, uniform column                              Clarkson-Woodruff 2013
``cw``               ``q, v, a``, r = q v a: a nonzeros +-1/sqrt(a) per row       Paul et al. 2014, Sec. 2
``srht-nps``         D H then r i.i.d. columns, p_j ~ energy, scaled 1/sqrt(r p)  Lei & Lan 2020, eqs. (5-6)
``srht-topr``        D H then the r columns of largest energy                     Lei & Lan 2020, Prop. 2
``srht-supervised``  D H then r columns by the score b_k (``rule``, ``a``)          Lei & Lan 2020, (8)-(10)
``se-isrht``         CountSketch to r' = 2r (``r_prime``), then ``method`` = srht    Lei & Lan 2020, "Extension
                     (data-oblivious), nps, topr or supervised on the r' columns  to High-dimensional Sparse
                                                                                  Data"
==================== ============================================================ ==========================

Every data-oblivious construction satisfies :math:`E[R R^T] = I_d`. The ``srht-*`` kinds, and ``se-isrht``
with ``method`` nps/topr/supervised, are data-dependent (``S.data_dependent``): call ``fit(X)`` (``fit(X, y)``
for the supervised selections) before ``apply``.

Memory: no kind ever forms the (n, d') rotation of ``X`` in ``apply`` or ``fit``; the SRHT family streams
rows in blocks of at most ``rpcheck.sketches.srht._CHUNK_ENTRIES`` rotated entries, and ``se-isrht`` keeps
the embedded data sparse (memory models in the docstrings of :mod:`~rpcheck.sketches.srht`,
:mod:`~rpcheck.sketches.isrht` and :mod:`~rpcheck.sketches.se_isrht`).

``apply`` returns a dense ndarray of the input's float dtype, except ``countsketch``/``cw`` on scipy.sparse
input, which return CSR (the output of an input-sparsity embedding is as sparse as its input).
``matrix()`` is dense for gaussian/sign/SRHT kinds and a ``scipy.sparse.csr_array`` for sparse/countsketch/cw.
"""

import functools
import inspect

from .._validation import check_choice
from ..errors import RpcheckError
from ._base import Sketch
from ._fwht import fwht, next_pow2, numba_enabled, warmup_kernels
from .countsketch import CountSketch, CWSketch
from .gaussian import GaussianSketch, SignSketch
from .isrht import NPSSketch, SupervisedSketch, TopRSketch, supervised_scores
from .se_isrht import SE_METHODS, SEISRHTSketch
from .sparse import SparseSketch
from .srht import SRHTSketch

__all__ = [
    "SKETCH_KINDS",
    "SKETCHES",
    "Sketch",
    "make_sketch",
    "fwht",
    "next_pow2",
    "numba_enabled",
    "warmup_kernels",
    "supervised_scores",
    "GaussianSketch",
    "SignSketch",
    "SparseSketch",
    "SRHTSketch",
    "CountSketch",
    "CWSketch",
    "NPSSketch",
    "TopRSketch",
    "SupervisedSketch",
    "SEISRHTSketch",
    "SE_METHODS",
]

#: Registry: kind -> class. Order is the order of ``SKETCH_KINDS``.
SKETCHES = {
    cls.kind: cls
    for cls in (
        GaussianSketch,
        SignSketch,
        SparseSketch,
        SRHTSketch,
        CountSketch,
        CWSketch,
        NPSSketch,
        TopRSketch,
        SupervisedSketch,
        SEISRHTSketch,
    )
}

SKETCH_KINDS = tuple(SKETCHES)


@functools.cache
def _param_names(cls):
    sig = inspect.signature(cls.__init__)
    return tuple(
        name for name, p in sig.parameters.items()
        if p.kind == p.KEYWORD_ONLY and name != "rng"
    )


def make_sketch(kind, d, r, *, rng=None, **params):
    r"""Build a sketch ``R`` in R^{d x r} of the given kind.

    Parameters
    ----------
    kind : str
        One of :data:`SKETCH_KINDS`.
    d : int
        Input dimension (number of features), ``>= 1``.
    r : int
        Target dimension, ``>= 1``.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state. When `rng` is None, a new ``numpy.random.Generator`` is
        created using entropy from the operating system. Other types are passed to
        ``numpy.random.default_rng``.
    **params
        Kind-specific parameters: ``density`` (sparse), ``replace`` (srht), ``q, v, a`` (cw),
        ``rule, a`` (srht-supervised), ``method, r_prime, replace, rule, a`` (se-isrht).

    Returns
    -------
    Sketch

    Raises
    ------
    RpcheckError
        Unknown ``kind`` (the message lists :data:`SKETCH_KINDS`), an unknown parameter for ``kind``, or an
        invalid value.

    Examples
    --------
    >>> import numpy as np
    >>> S = make_sketch("srht", 5, 3, rng=0)
    >>> S.matrix().shape, S.apply(np.ones((2, 5))).shape
    ((5, 3), (2, 3))
    >>> bool(np.allclose(np.abs(S.matrix()), 1 / np.sqrt(3), rtol=1e-15, atol=0))
    True
    """
    check_choice("kind", kind, SKETCH_KINDS)
    cls = SKETCHES[kind]
    allowed = _param_names(cls)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        listed = ", ".join(repr(a) for a in allowed) if allowed else "none"
        raise RpcheckError(
            f"unknown parameter(s) {', '.join(repr(u) for u in unknown)} for sketch kind {kind!r}; "
            f"allowed: {listed}."
        )
    return cls(d, r, rng=rng, **params)
