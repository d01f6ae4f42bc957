"""Holm--Bonferroni step-down procedure over a family of p-values (:mod:`rpcheck.stats`, "Multiplicity")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_interval
from ..errors import RpcheckError


@dataclass(frozen=True)
class HolmResult:
    """Result of :func:`holm`.

    reject : ndarray of bool
        Which hypotheses the step-down procedure rejects.
    levels : ndarray of float
        The level each p-value was effectively compared with: ``alpha / (m - j + 1)`` for the j-th
        smallest p-value up to and including the first non-rejection; every later p-value gets the
        level of that first non-rejection. Hence ``reject == (pvalues <= levels)`` elementwise.
    adjusted : ndarray of float
        Holm-adjusted p-values ``max_{i <= j} min(1, (m - i + 1) p_(i))``; ``reject == adjusted <= alpha``.
    alpha : float
    """

    reject: np.ndarray
    levels: np.ndarray
    adjusted: np.ndarray
    alpha: float


def holm(pvalues, alpha):
    """Holm--Bonferroni step-down procedure at family-wise error rate ``alpha`` (Holm 1979).

    Sort the ``m`` p-values, ``p_(1) <= ... <= p_(m)``; reject ``H_(1), ..., H_(j-1)`` where ``j`` is the
    first index with ``p_(j) > alpha / (m - j + 1)``. The probability of rejecting at least one true
    null hypothesis is ``<= alpha`` under any dependence between the p-values. Ties are ordered by
    position (stable sort), which does not affect the set of rejections.

    Parameters
    ----------
    pvalues : array_like of float, shape (m,)
    alpha : float in (0, 1)

    Returns
    -------
    HolmResult

    Examples
    --------
    >>> r = holm([0.01, 0.04, 0.03, 0.005], 0.05)
    >>> r.reject.tolist()
    [True, False, False, True]
    >>> r.levels.tolist()
    [0.016666666666666666, 0.025, 0.025, 0.0125]
    """
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    p = np.asarray(pvalues, dtype=float).ravel()
    m = p.size
    reject = np.zeros(m, dtype=bool)
    levels = np.empty(m)
    adjusted = np.empty(m)
    if m == 0:
        return HolmResult(reject, levels, adjusted, alpha)
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise RpcheckError(f"`pvalues` must be probabilities in [0, 1]; got {p[np.isnan(p) | (p < 0) | (p > 1)][:3]}.")
    order = np.argsort(p, kind="stable")
    stopped = False
    stop_level = None
    running = 0.0
    for j, idx in enumerate(order):
        lvl = alpha / (m - j)
        running = max(running, min(1.0, (m - j) * p[idx]))
        adjusted[idx] = running
        if stopped:
            levels[idx] = stop_level
            continue
        if p[idx] <= lvl:
            reject[idx] = True
            levels[idx] = lvl
        else:
            stopped = True
            stop_level = lvl
            levels[idx] = lvl
    return HolmResult(reject, levels, adjusted, alpha)
