"""Result types of rpcheck runs: a thin re-export of :mod:`rpcheck.engine.loading` (compatibility).

- :class:`RunResult` -- what :func:`rpcheck.engine.run` returns (``cells``, ``trials``, provenance,
  counterexamples; :meth:`RunResult.save`), read back by :func:`load_results`.
- :class:`CellOutcome` / :class:`VariantCount` -- what :func:`rpcheck.engine.run_cell` returns.
- :class:`ConfidenceInterval`, :class:`BinomialCount` from :mod:`rpcheck.stats`.
"""

from .engine.loading import (  # noqa: F401
    CELL_COLUMNS,
    CELL_EXTRA_COLUMNS,
    TRIAL_COLUMNS,
    BinomialCount,
    CellOutcome,
    ConfidenceInterval,
    RunResult,
    VariantCount,
    load_results,
    load_trials,
)

__all__ = [
    "RunResult",
    "CellOutcome",
    "VariantCount",
    "ConfidenceInterval",
    "BinomialCount",
    "load_results",
    "load_trials",
]
