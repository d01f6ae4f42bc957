r"""Seeded numpy generators of test instances: orthonormal bases, low-rank and sparse matrices, labelled data.

These are the plain functions behind :mod:`rpcheck.strategies`. They take a keyword ``rng`` (SPEC 7) and are
therefore usable inside a checker's ``trial(params, rng)``, where hypothesis cannot run. Every generator
states its guarantee exactly (an identity or an inequality that holds for *every* draw, not in expectation),
and ``tests/test_generators.py`` checks each guarantee to machine precision.

Coherence
---------
For ``V`` with orthonormal columns (shape ``(d, rho)``) the coherence is

.. math:: \mu(V) = \frac{d}{\rho} \max_i \lVert V_{(i)} \rVert_2^2 \in [1, d/\rho],

the quantity that governs sampling- and hashing-based sketches (Paul et al. 2014, Section 3.2).
``mu = 1`` means perfectly spread rows; ``mu = d/rho`` means ``rho`` standard-basis columns ("sparse data
with few active features").
"""

from .labelled import (
    LOW_RANK_REGIMES,
    BinaryData,
    MulticlassData,
    low_rank_classification,
    low_rank_regression,
    multiclass_dataset,
    multiclass_margins,
    nonseparable_dataset,
    normalized_margins,
    separable_dataset,
)
from .matrices import (
    COHERENCES,
    SINGULAR_VALUE_PROFILES,
    bernoulli_positions,
    coherence,
    haar_orthonormal,
    low_rank_matrix,
    orthonormal_basis,
    sparse_matrix,
)
from .matrices import (
    GEOMETRIC_CONDITION as GEOMETRIC_CONDITION,
)

__all__ = [
    "COHERENCES",
    "SINGULAR_VALUE_PROFILES",
    "BinaryData",
    "MulticlassData",
    "haar_orthonormal",
    "orthonormal_basis",
    "coherence",
    "LOW_RANK_REGIMES",
    "low_rank_classification",
    "low_rank_regression",
    "low_rank_matrix",
    "sparse_matrix",
    "bernoulli_positions",
    "separable_dataset",
    "nonseparable_dataset",
    "multiclass_dataset",
    "normalized_margins",
    "multiclass_margins",
]
