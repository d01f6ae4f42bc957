"""Hypothesis strategies for random-projection and SVM test instances, in the style of hypothesis.extra.numpy.

Every strategy is keyword-only, validates its arguments eagerly (a bad bound raises
:class:`hypothesis.errors.InvalidArgument` when the strategy is *built*, not when it is first drawn from),
and uses ``None`` for a derived default. Shapes, parameters and seeds are all hypothesis draws, so a failing
example shrinks (smaller shapes, simpler structure, seed 0) and replays from hypothesis's database or the
printed ``@reproduce_failure`` blob. The numerical content is produced by the seeded generators of
:mod:`rpcheck.generators` from a drawn seed (``sketch_seeds()``), except in :func:`datasets` with
``separable=None``, whose entries are drawn element by element and therefore shrink towards zeros.

Example
-------
>>> from hypothesis import given
>>> from rpcheck.strategies import orthonormal_bases
>>> @given(orthonormal_bases(max_dim=8))
... def test_orthonormal(V):
...     assert np.allclose(V.T @ V, np.eye(V.shape[1]))
>>> test_orthonormal()
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.extra.numpy import arrays

from . import generators as gen

__all__ = [
    "sketch_seeds",
    "orthonormal_bases",
    "low_rank_matrices",
    "sparse_matrices",
    "datasets",
    "multiclass_datasets",
    "SEED_MAX",
    "DEFAULT_SPAN",
]

#: Largest seed drawn by :func:`sketch_seeds` (numpy accepts any non-negative int; 2**32 - 1 matches the
#: legacy 32-bit seed range so a printed seed can also be typed into other tools).
SEED_MAX = 2**32 - 1
#: ``max_x = min_x + DEFAULT_SPAN`` when ``max_x`` is None (cf. ``max_side = min_side + 5`` in
#: hypothesis.extra.numpy.array_shapes; larger here because random-projection claims need some room).
DEFAULT_SPAN = 24

# Order matters: sampled_from shrinks towards the first element, so failures shrink towards the
# simplest (fully structured, deterministic) row space.
_COHERENCE_SHRINK_ORDER = ("coherent", "spiky", "intermediate", "incoherent")


# --------------------------------------------------------------------------------------- validation
def _check_int(name, value, floor=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgument(
            f"Expected an int for {name}, but got {name}={value!r} ({type(value).__name__})"
        )
    if floor is not None and value < floor:
        raise InvalidArgument(f"{name}={value} must be at least {floor}")
    return int(value)


def _check_real(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        raise InvalidArgument(f"Expected a real number for {name}, but got {name}={value!r}")
    if not low <= value <= high:
        raise InvalidArgument(f"{name}={value} must be in the interval [{low}, {high}]")
    return float(value)


def _order_check(name, min_, max_):
    if min_ > max_:
        raise InvalidArgument(f"min_{name}={min_} is larger than max_{name}={max_}")


def _bounds(name, min_, max_, floor):
    """Validate an integer (min_, max_) pair; ``max_=None`` -> ``min_ + DEFAULT_SPAN``."""
    min_ = _check_int(f"min_{name}", min_, floor)
    max_ = min_ + DEFAULT_SPAN if max_ is None else _check_int(f"max_{name}", max_, floor)
    _order_check(name, min_, max_)
    return min_, max_


def _coherences(coherence):
    if coherence is None:
        return _COHERENCE_SHRINK_ORDER
    options = (coherence,) if isinstance(coherence, str) else tuple(coherence)
    bad = [c for c in options if c not in gen.COHERENCES]
    if bad or not options:
        raise InvalidArgument(
            f"coherence={coherence!r} must be None, one of {gen.COHERENCES} or a non-empty tuple of them"
        )
    return options


# --------------------------------------------------------------------------------------- strategies
def sketch_seeds():
    """Seeds for a sketch or data generator: ``st.integers(0, 2**32 - 1)``.

    Draw the seed of every random object in a property test, so a failure prints the seed and replays.
    Shrinks towards 0.
    """
    return st.integers(0, SEED_MAX)


def orthonormal_bases(*, min_dim=1, max_dim=None, min_rank=1, max_rank=None, coherence=None):
    """Matrices ``V`` of shape ``(d, rho)`` with orthonormal columns (the row space of a data matrix).

    Arguments
    ---------
    * ``min_dim``, ``max_dim``: bounds on ``d``; ``max_dim=None`` means ``min_dim + DEFAULT_SPAN``.
    * ``min_rank``, ``max_rank``: bounds on ``rho``; ``max_rank=None`` means ``max_dim``. The drawn ``rho`` is
      also at most the drawn ``d`` (so ``d`` is drawn from ``[max(min_dim, min_rank), max_dim]``).
    * ``coherence``: a kind from :data:`rpcheck.generators.COHERENCES`, a tuple of kinds to choose from,
      or ``None`` for all of them. ``"intermediate"`` draws its ``mix`` from ``floats(0, 1)``.

    Built by :func:`rpcheck.generators.orthonormal_basis` from a drawn seed. Examples shrink towards small
    ``d`` and ``rho``, the coherent basis ``I[:, :rho]`` (then spiky, intermediate, Haar), ``mix=0``
    and seed 0.
    """
    min_dim, max_dim = _bounds("dim", min_dim, max_dim, 1)
    min_rank = _check_int("min_rank", min_rank, 1)
    if min_rank > max_dim:
        raise InvalidArgument(
            f"min_rank={min_rank} is larger than max_dim={max_dim}: no d >= rho is possible"
        )
    max_rank = max_dim if max_rank is None else _check_int("max_rank", max_rank, 1)
    _order_check("rank", min_rank, max_rank)
    kinds = _coherences(coherence)

    @st.composite
    def _orthonormal_bases(draw):
        d = draw(st.integers(max(min_dim, min_rank), max_dim))
        rho = draw(st.integers(min_rank, min(max_rank, d)))
        kind = draw(st.sampled_from(kinds))
        mix = draw(st.floats(0, 1)) if kind == "intermediate" else 0.5
        return gen.orthonormal_basis(d, rho, coherence=kind, mix=mix, rng=draw(sketch_seeds()))

    return _orthonormal_bases()


def low_rank_matrices(
    *,
    min_rows=1,
    max_rows=None,
    min_cols=1,
    max_cols=None,
    min_rank=1,
    max_rank=None,
    singular_values=None,
    tail=None,
    coherence="incoherent",
):
    """Matrices ``X = U diag(s) V^T`` of shape ``(n, d)``, exact rank or approximately low rank.

    Arguments
    ---------
    * ``min_rows``/``max_rows`` (``n``), ``min_cols``/``max_cols`` (``d``): ``max_* = None`` means
      ``min_* + DEFAULT_SPAN``.
    * ``min_rank``, ``max_rank``: bounds on the planted rank; ``None`` means ``min(max_rows, max_cols)``.
      The drawn rank is at most ``min(n, d)``.
    * ``singular_values``: ``"flat"``, ``"geometric"``, or ``None`` to draw ``"flat"``, ``"geometric"`` or a
      list of ``rank`` values in ``[0.1, 10]``.
    * ``tail``: a float in ``[0, 1)`` (``0`` = exact rank), or ``None`` to draw ``0`` or a value in
      ``[0.001, 0.5]`` (approximately low rank with spectral gap ``1/tail``; see
      :func:`rpcheck.generators.low_rank_matrix`).
    * ``coherence``: of the row space, as in :func:`orthonormal_bases`; default Haar.

    Examples shrink towards small shapes, rank ``min_rank``, flat singular values, exact rank and seed 0.
    """
    min_rows, max_rows = _bounds("rows", min_rows, max_rows, 1)
    min_cols, max_cols = _bounds("cols", min_cols, max_cols, 1)
    min_rank = _check_int("min_rank", min_rank, 1)
    if min_rank > min(max_rows, max_cols):
        raise InvalidArgument(
            f"min_rank={min_rank} is larger than min(max_rows, max_cols)={min(max_rows, max_cols)}"
        )
    max_rank = min(max_rows, max_cols) if max_rank is None else _check_int("max_rank", max_rank, 1)
    _order_check("rank", min_rank, max_rank)
    if singular_values is not None and singular_values not in gen.SINGULAR_VALUE_PROFILES:
        raise InvalidArgument(
            f"singular_values={singular_values!r} must be None or one of {gen.SINGULAR_VALUE_PROFILES}"
        )
    if tail is not None:
        tail = _check_real("tail", tail, 0.0, 1.0)
        if tail == 1.0:
            raise InvalidArgument("tail=1.0 must be < 1 (tail is the ratio s_{rank+1}/s_rank)")
    kinds = _coherences(coherence)

    @st.composite
    def _low_rank_matrices(draw):
        n = draw(st.integers(max(min_rows, min_rank), max_rows))
        d = draw(st.integers(max(min_cols, min_rank), max_cols))
        rank = draw(st.integers(min_rank, min(max_rank, n, d)))
        if singular_values is None:
            s = draw(
                st.one_of(
                    st.just("flat"),
                    st.just("geometric"),
                    st.lists(st.floats(0.1, 10.0), min_size=rank, max_size=rank),
                )
            )
        else:
            s = singular_values
        t = draw(st.one_of(st.just(0.0), st.floats(1e-3, 0.5))) if tail is None else tail
        kind = draw(st.sampled_from(kinds))
        mix = draw(st.floats(0, 1)) if kind == "intermediate" else 0.5
        seed = draw(sketch_seeds())
        return gen.low_rank_matrix(n, d, rank, singular_values=s, tail=t, coherence=kind, mix=mix, rng=seed)

    return _low_rank_matrices()


def sparse_matrices(
    *,
    min_rows=1,
    max_rows=None,
    min_cols=1,
    max_cols=None,
    min_density=0.05,
    max_density=0.5,
    active_features=None,
):
    """CSR matrices from :func:`rpcheck.generators.sparse_matrix` (every row has a nonzero).

    Arguments
    ---------
    * ``min_rows``/``max_rows``, ``min_cols``/``max_cols``: as in :func:`low_rank_matrices`.
    * ``min_density``, ``max_density``: bounds in ``(0, 1]`` on the Bernoulli density of active columns.
    * ``active_features``: ``None`` to draw either all columns active or ``1..d`` active columns (coherent
      "few active features" data), ``False`` for all columns, or an int (capped at ``d``).

    Examples shrink towards small shapes, ``min_density``, all columns active and seed 0.
    """
    min_rows, max_rows = _bounds("rows", min_rows, max_rows, 1)
    min_cols, max_cols = _bounds("cols", min_cols, max_cols, 1)
    min_density = _check_real("min_density", min_density, 0.0, 1.0)
    max_density = _check_real("max_density", max_density, 0.0, 1.0)
    if min_density == 0.0:
        raise InvalidArgument("min_density=0.0 must be > 0")
    _order_check("density", min_density, max_density)
    if active_features not in (None, False):
        active_features = _check_int("active_features", active_features, 1)

    @st.composite
    def _sparse_matrices(draw):
        n = draw(st.integers(min_rows, max_rows))
        d = draw(st.integers(min_cols, max_cols))
        density = draw(st.floats(min_density, max_density))
        if active_features is None:
            active = draw(st.one_of(st.none(), st.integers(1, d)))
        elif active_features is False:
            active = None
        else:
            active = min(active_features, d)
        return gen.sparse_matrix(n, d, density=density, active_features=active, rng=draw(sketch_seeds()))

    return _sparse_matrices()


_DEFAULT_ELEMENTS = st.one_of(
    st.just(0.0),
    st.floats(0.01, 100.0),
    st.floats(-100.0, -0.01),
)


def datasets(
    *,
    min_samples=2,
    max_samples=None,
    min_features=1,
    max_features=None,
    separable=None,
    bias=False,
    min_margin=0.01,
    max_margin=1.0,
    elements=None,
):
    """Labelled binary datasets as :class:`rpcheck.generators.BinaryData` (``X``, ``y`` in {-1, +1}, ...).

    Both classes are always present (Lei & Lan 2020 remark that ``y^T alpha = 0`` forces ``alpha = 0``
    otherwise).

    Arguments
    ---------
    * ``min_samples``/``max_samples`` (``n``, at least 2), ``min_features``/``max_features`` (``d``);
      ``max_* = None`` means ``min_* + DEFAULT_SPAN``.
    * ``separable``:
        - ``True``: :func:`rpcheck.generators.separable_dataset` with a planted unit ``w`` and normalised
          margin drawn from ``[min_margin, max_margin]`` (guarantee ``min_i y_i <w, x_i - c>/||x_i - c||
          >= margin``); ``bias`` as there (``None`` draws it).
        - ``False``: :func:`rpcheck.generators.nonseparable_dataset` (``n >= 3``; guaranteed not separable,
          certificate included), label-noise rate drawn from ``[0, 0.3]``.
        - ``None`` (default): no promise either way; ``X`` is drawn entry by entry from ``elements``
          (default: ``0.0`` or a float of magnitude in ``[0.01, 100]``, so no subnormal or tiny entries
          that would only test solver conditioning) and labels from ``{-1, +1}``. An all-zero row is replaced
          by a standard-basis row so ``x_i / ||x_i||`` is defined; if all labels agree the last is flipped.
          ``w``, ``margin`` and ``certificate`` are None.

    Examples shrink towards few samples and features; with ``separable=None`` towards ``X`` with entries
    0 (rows ``e_{i mod d}``) and labels ``-1, ..., -1, +1``; otherwise towards ``min_margin``, no bias and
    seed 0.
    """
    min_samples, max_samples = _bounds("samples", min_samples, max_samples, 2)
    min_features, max_features = _bounds("features", min_features, max_features, 1)
    if separable not in (None, True, False):
        raise InvalidArgument(f"separable={separable!r} must be None, True or False")
    if separable is False and max_samples < 3:
        raise InvalidArgument(f"max_samples={max_samples} must be at least 3 for separable=False")
    min_margin = _check_real("min_margin", min_margin, 0.0, 1.0)
    max_margin = _check_real("max_margin", max_margin, 0.0, 1.0)
    if min_margin == 0.0:
        raise InvalidArgument("min_margin=0.0 must be > 0 (a planted margin is positive)")
    _order_check("margin", min_margin, max_margin)
    if bias not in (None, True, False):
        raise InvalidArgument(f"bias={bias!r} must be None, True or False")
    if elements is None:
        elements = _DEFAULT_ELEMENTS
    elif not isinstance(elements, st.SearchStrategy):
        raise InvalidArgument(f"elements={elements!r} must be a hypothesis strategy of floats")

    @st.composite
    def _datasets(draw):
        if separable is None:
            n = draw(st.integers(min_samples, max_samples))
            d = draw(st.integers(min_features, max_features))
            X = draw(arrays(np.float64, (n, d), elements=elements)).copy()
            zero = np.flatnonzero(~X.any(axis=1))
            X[zero, zero % d] = 1.0
            y = draw(arrays(np.float64, (n,), elements=st.sampled_from([-1.0, 1.0]))).copy()
            if np.all(y == y[0]):
                y[-1] = -y[0]
            return gen.BinaryData(X, y, None, 0.0, None, None)
        if separable:
            n = draw(st.integers(min_samples, max_samples))
            d = draw(st.integers(min_features, max_features))
            margin = draw(st.floats(min_margin, max_margin))
            use_bias = draw(st.booleans()) if bias is None else bias
            return gen.separable_dataset(n, d, margin=margin, bias=use_bias, rng=draw(sketch_seeds()))
        n = draw(st.integers(max(3, min_samples), max_samples))
        d = draw(st.integers(min_features, max_features))
        flip = draw(st.floats(0.0, 0.3))
        return gen.nonseparable_dataset(n, d, flip=flip, rng=draw(sketch_seeds()))

    return _datasets()


def multiclass_datasets(
    *,
    min_samples=None,
    max_samples=None,
    min_features=2,
    max_features=None,
    min_classes=2,
    max_classes=None,
    min_margin=0.01,
    max_margin=1.0,
):
    """Multiclass datasets with orthonormal witness vectors, as :class:`rpcheck.generators.MulticlassData`.

    Guarantee (Shi et al. 2012, Definition 7): ``cos(u_{y_i}, x_i) - max_{y' != y_i} cos(u_{y'}, x_i) >=
    margin`` for every point, with ``margin`` drawn from ``[min_margin, max_margin]``; labels ``0..k-1``,
    every class present.

    Arguments
    ---------
    * ``min_classes``/``max_classes`` (``k >= 2``; ``None`` means ``min(max_features, min_classes + 4)``).
    * ``min_features``/``max_features`` (``d >= 2``, and the drawn ``d >= k``).
    * ``min_samples``/``max_samples`` (``n``; ``None`` minimum means ``min_classes``; the drawn ``n >= k``).

    Examples shrink towards two classes, few samples and features, ``min_margin`` and seed 0.
    """
    min_features, max_features = _bounds("features", min_features, max_features, 2)
    min_classes = _check_int("min_classes", min_classes, 2)
    if min_classes > max_features:
        raise InvalidArgument(
            f"min_classes={min_classes} is larger than max_features={max_features} (orthonormal witnesses)"
        )
    max_classes = (
        min(max_features, min_classes + 4)
        if max_classes is None
        else _check_int("max_classes", max_classes, 2)
    )
    _order_check("classes", min_classes, max_classes)
    min_samples, max_samples = _bounds(
        "samples", min_classes if min_samples is None else min_samples, max_samples, 2
    )
    if min_classes > max_samples:
        raise InvalidArgument(f"min_classes={min_classes} is larger than max_samples={max_samples}")
    min_margin = _check_real("min_margin", min_margin, 0.0, 1.0)
    max_margin = _check_real("max_margin", max_margin, 0.0, 1.0)
    if min_margin == 0.0:
        raise InvalidArgument("min_margin=0.0 must be > 0 (a planted margin is positive)")
    _order_check("margin", min_margin, max_margin)

    @st.composite
    def _multiclass_datasets(draw):
        k = draw(st.integers(min_classes, min(max_classes, max_features, max_samples)))
        d = draw(st.integers(max(min_features, k), max_features))
        n = draw(st.integers(max(min_samples, k), max_samples))
        margin = draw(st.floats(min_margin, max_margin))
        return gen.multiclass_dataset(n, d, k, margin=margin, rng=draw(sketch_seeds()))

    return _multiclass_datasets()
