"""Result types of rpcheck runs (frozen, with methods), in the style of ``scipy.stats._result_classes``.

- :class:`RunResult` -- what :func:`rpcheck.engine.run` returns: the ``cells`` and ``trials`` tables
  (schema in ``ARCHITECTURE.md``, "Result tables"), the provenance dict and any counterexamples.
- :class:`CellOutcome` / :class:`VariantCount` -- what :func:`rpcheck.engine.run_cell` returns for one
  grid cell (used by the empirical-constant search).
- :class:`ConfidenceInterval`, :class:`BinomialCount` are re-exported from :mod:`rpcheck.stats`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .stats import BinomialCount, ConfidenceInterval

__all__ = ["RunResult", "CellOutcome", "VariantCount", "ConfidenceInterval", "BinomialCount"]

#: Columns of ``RunResult.cells`` in order (ARCHITECTURE.md; the ``p_<name>`` parameter columns follow
#: ``params``). Extra columns added by the engine come after these.
CELL_COLUMNS = (
    "theorem", "paper", "variant", "mode", "cell", "params",
    "trials", "evaluated", "failures", "vacuous_trials", "solver_errors", "failure_rate",
    "ci_low", "ci_high", "confidence_level", "promised", "pvalue", "alpha_adjusted",
    "verdict", "expected", "as_expected", "vacuous_reason",
    "stat_q05", "stat_q50", "stat_q95", "stat_max", "bound_q50", "slack_min",
    "seconds", "counterexample", "assumed",
)  # fmt: skip
#: Extra cell columns (extensions of the schema).
CELL_EXTRA_COLUMNS = (
    "pvalue_holds", "alpha_adjusted_holds", "stopped_early", "seed", "decide_info", "role", "claim", "undetermined",
    "expected_declared",
)  # fmt: skip
#: Leading columns of ``RunResult.trials``; then ``<variant>.holds|statistic|bound|vacuous|undetermined``
#: per variant and ``diag.<name>`` per diagnostic.
TRIAL_COLUMNS = ("theorem", "cell", "trial", "status", "error", "seconds")


@dataclass(frozen=True)
class VariantCount:
    """Counts of one variant in one cell: ``failures`` among ``evaluated`` trials (neither vacuous nor
    solver errors), ``vacuous_trials``, and the statistic / bound / holds arrays of the ok trials."""

    failures: int
    evaluated: int
    vacuous_trials: int
    undetermined: int = 0

    def count(self):
        """The :class:`~rpcheck.stats.BinomialCount` (requires ``evaluated >= 1``)."""
        return BinomialCount(self.failures, self.evaluated)

    def proportion_ci(self, confidence_level=0.95, *, alternative="two-sided"):
        return self.count().proportion_ci(confidence_level, alternative=alternative)


@dataclass(frozen=True)
class CellOutcome:
    """All trials of one (theorem, parameters) cell, from :func:`rpcheck.engine.run_cell`.

    Attributes
    ----------
    theorem : str
    params : dict
        The parameters as the trials received them (decoded canonical JSON).
    canonical : str
        Canonical JSON of ``params`` (the seed-defining key).
    seed : int
        Root seed.
    trials : int
        Trials attempted.
    solver_errors : int
    variants : mapping variant name -> VariantCount
    table : pandas.DataFrame
        One row per trial, columns as ``RunResult.trials``.
    seconds : float
        Sum of the trials' wall times.
    """

    theorem: str
    params: Mapping[str, Any]
    canonical: str
    seed: int
    trials: int
    solver_errors: int
    variants: Mapping[str, VariantCount]
    table: pd.DataFrame = field(repr=False)
    seconds: float = 0.0

    def count(self, variant):
        return self.variants[variant].count()

    def proportion_ci(self, variant, confidence_level=0.95, *, alternative="two-sided"):
        """Exact Clopper--Pearson interval of the failure rate of ``variant`` in this cell."""
        return self.variants[variant].proportion_ci(confidence_level, alternative=alternative)


@dataclass(frozen=True)
class RunResult:
    """The result of :func:`rpcheck.engine.run`.

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per (theorem, variant, cell); schema in ``ARCHITECTURE.md`` ("Result tables").
    trials : pandas.DataFrame
        One row per (theorem, cell, trial) for the first ``rpcheck.engine.runner.TRIAL_SAMPLE`` (2,000)
        trials of each cell: a bounded sample, so memory does not grow with the number of trials. Every
        trial of a saved run is in its ``checkpoints/``: :func:`rpcheck.engine.load_trials` loads them.
    provenance : dict
        Versions, solver, root seed, profile, git commit, start/end UTC, alpha, backend, jobs.
    counterexamples : mapping relative path -> (arrays dict, metadata dict)
        Counterexamples of VIOLATED deterministic/search cells, written under ``counterexamples/`` by
        :meth:`save` (the ``counterexample`` column holds these relative paths).
    path : pathlib.Path or None
        The results directory, when the run was saved or loaded.
    """

    cells: pd.DataFrame
    trials: pd.DataFrame
    provenance: Mapping[str, Any]
    counterexamples: Mapping[str, Any] = field(default_factory=dict, repr=False)
    path: Path | None = None

    def unexpected(self):
        """Rows of ``cells`` whose verdict differs from a stated expected verdict."""
        if self.cells.empty:
            return self.cells
        return self.cells[~self.cells["as_expected"].astype(bool)]

    def verdict_counts(self):
        """``{verdict: number of (theorem, variant, cell) rows}``."""
        if self.cells.empty:
            return {}
        return {str(k): int(v) for k, v in self.cells["verdict"].value_counts().sort_index().items()}

    def theorem_ids(self):
        return sorted(set(self.cells["theorem"])) if not self.cells.empty else []

    def save(self, out):
        """Write ``cells``, ``trials`` (Parquet, or CSV without pyarrow), ``provenance.json`` and the
        counterexamples into the directory ``out``, every file atomically. Returns a RunResult whose
        ``path`` is ``out``."""
        from .engine.counterexample import write_counterexample
        from .engine.store import atomic_write_text, ensure_results_dir, write_table

        prov = dict(self.provenance)
        key = {"theorems": sorted(prov.get("theorems") or []), "seed": prov.get("seed"),
               "profile": prov.get("profile"), "alpha": prov.get("alpha")}  # fmt: skip
        out = ensure_results_dir(out, key)
        for rel, (arrays, meta) in self.counterexamples.items():
            write_counterexample(out / rel, arrays, meta)
        write_table(self.trials, out, "trials")
        write_table(self.cells, out, "cells")
        atomic_write_text(out / "provenance.json", json.dumps(dict(self.provenance), indent=2, default=str))
        return RunResult(self.cells, self.trials, self.provenance, self.counterexamples, out)

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in self.verdict_counts().items())
        return (
            f"RunResult(theorems={len(self.theorem_ids())}, rows={len(self.cells)}, "
            f"trials={len(self.trials)}, verdicts: {counts or 'none'}, unexpected={len(self.unexpected())})"
        )
