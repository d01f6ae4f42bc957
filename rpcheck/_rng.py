"""The one random-number convention of rpcheck (SPEC 7).

Every random callable takes a keyword ``rng`` and opens with ``rng = as_generator(rng)``.
"""

import numpy as np

from .errors import RpcheckError

__all__ = ["as_generator", "RNG_DOC"]

RNG_DOC = """rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state. When `rng` is None, a new
        `numpy.random.Generator` is created using entropy from the operating system. Types other
        than `numpy.random.Generator` are passed to `numpy.random.default_rng` to instantiate a
        ``Generator``."""


def as_generator(rng=None):
    """Normalise ``rng`` (None, int, SeedSequence, BitGenerator or Generator) to a ``numpy.random.Generator``.

    A Generator is returned as is (not copied), so state advances are shared with the caller.

    Examples
    --------
    >>> g = as_generator(0)
    >>> as_generator(g) is g
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise RpcheckError(
            "`rng` must be None, an int, a SeedSequence or a numpy.random.Generator; "
            "got a legacy numpy.random.RandomState (SPEC 7: use np.random.default_rng)."
        )
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise RpcheckError(
            f"`rng` must be None, an int >= 0, a SeedSequence or a numpy.random.Generator; got {rng!r}."
        ) from exc
