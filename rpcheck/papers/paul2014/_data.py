"""Instance generators of the Paul et al. (2014) checkers: the exact-rank instances live in
:mod:`rpcheck.generators` (:func:`~rpcheck.generators.low_rank_classification`,
:func:`~rpcheck.generators.low_rank_regression`); these are their names in this package."""

from __future__ import annotations

from ...generators import LOW_RANK_REGIMES as REGIMES
from ...generators import low_rank_classification as classification_instance
from ...generators import low_rank_regression as regression_instance

__all__ = ["classification_instance", "regression_instance", "REGIMES"]
