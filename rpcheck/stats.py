r"""Exact binomial statistics and the verdict rules of rpcheck.

Every number here is exact (no normal approximation): confidence intervals are Clopper--Pearson
intervals and p-values are exact binomial tail probabilities, both computed by
:func:`scipy.stats.binomtest`.

Decision rules and the error each one guarantees
------------------------------------------------
Write ``k`` for the number of failures among ``n`` evaluated trials (neither vacuous nor solver
errors) and ``p`` for the true failure probability of the cell.

``"bound"`` (claim ``p <= delta``)
    Two one-sided exact binomial tests (Clopper & Pearson 1934):

    * refutation test, H0: ``p <= delta``, p-value ``P_delta(X >= k)``; VIOLATED when it is
      ``<= alpha_v``. Equivalently the one-sided lower confidence bound at level ``1 - alpha_v`` is
      ``> delta``. If the claim holds, ``P(VIOLATED) <= alpha_v``.
    * support test, H0: ``p >= delta``, p-value ``P_delta(X <= k)``; HOLDS when it is ``<= alpha_h``.
      Equivalently the one-sided upper confidence bound at level ``1 - alpha_h`` is ``<= delta``.
      If the claim is false, ``P(HOLDS) <= alpha_h``.

    Both cannot reject together when ``alpha_v + alpha_h < 1`` (the two p-values sum to
    ``1 + P_delta(X = k) > 1``). Otherwise INCONCLUSIVE.
``"exact"`` (claim ``p = p0`` with ``p0`` known in closed form)
    The central (equal-tailed) two-sided exact binomial test, p-value
    ``min(1, 2 min(P_p0(X <= k), P_p0(X >= k)))``; it is the test dual to the two-sided
    Clopper--Pearson interval, so "not rejected at level a" is "p0 lies in the CP interval of
    confidence 1 - a". VIOLATED when the p-value is ``<= alpha``; if the claim is true,
    ``P(VIOLATED) <= alpha``.
``"deterministic"``
    VIOLATED on any non-vacuous trial where the inequality fails (the checker's numerical tolerance is
    already applied in ``Outcome.holds``); HOLDS when there is none; VACUOUS when every evaluated
    trial was vacuous. No sampling error is involved: a false VIOLATED can only come from a wrong
    tolerance in the checker, never from chance.
``"search"``
    VIOLATED when a counterexample was found, else HOLDS ("none found among n instances"); like
    "deterministic", a VIOLATED is a concrete, replayable instance, not a statistical statement.

Multiplicity (Holm 1979)
------------------------
:func:`holm` is the Holm--Bonferroni step-down procedure. The runner applies it over the *family* of
statistical cells of a run (see :func:`rpcheck.engine.runner.run`): the refutation p-values of every
non-vacuous ``"bound"`` and ``"exact"`` (cell, variant) with at least one evaluated trial form one
family at family-wise level ``alpha``; the support p-values of the ``"bound"`` ones form a second
family at level ``alpha``. Holm's procedure is valid under arbitrary dependence, hence:

* P(at least one false VIOLATED among the statistical cells of a run) ``<= alpha``;
* P(at least one false HOLDS among the ``"bound"`` cells of a run) ``<= alpha``.

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
   case of the binomial", Biometrika 26(4), 1934.
.. [2] S. Holm, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6, 1979.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

from ._validation import check_choice, check_int, check_interval
from .engine.theorem import Verdict
from .errors import RpcheckError

__all__ = [
    "ConfidenceInterval",
    "BinomialCount",
    "HolmResult",
    "holm",
    "central_pvalue",
    "BoundDecision",
    "bound_verdict",
    "exact_verdict",
    "deterministic_verdict",
    "search_verdict",
    "sequential_looks",
]

_ALTERNATIVES = ("two-sided", "less", "greater")


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval ``[low, high]`` for a probability (like ``scipy.stats._common``)."""

    low: float
    high: float

    def __contains__(self, p):
        return self.low <= p <= self.high


@dataclass(frozen=True)
class BinomialCount:
    """``failures`` out of ``trials`` independent Bernoulli trials, with exact inference.

    Parameters
    ----------
    failures : int
        Number of failures ``k``, ``0 <= k <= trials``.
    trials : int
        Number of trials ``n >= 1``.

    Examples
    --------
    >>> c = BinomialCount(3, 100)
    >>> c.failure_rate
    0.03
    >>> ci = c.proportion_ci(confidence_level=0.95)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0062, 0.0852)
    >>> round(c.pvalue(0.01, alternative="greater"), 4)   # P(X >= 3 | n=100, p=0.01)
    0.0794
    """

    failures: int
    trials: int

    def __post_init__(self):
        n = check_int("trials", self.trials, 1)
        k = check_int("failures", self.failures, 0, n)
        object.__setattr__(self, "trials", n)
        object.__setattr__(self, "failures", k)

    @property
    def failure_rate(self):
        return self.failures / self.trials

    def _test(self, p, alternative):
        return binomtest(self.failures, self.trials, p=p, alternative=alternative)

    def proportion_ci(self, confidence_level=0.95, *, alternative="two-sided"):
        """Exact Clopper--Pearson interval for the failure probability.

        Parameters
        ----------
        confidence_level : float, default=0.95
        alternative : {"two-sided", "less", "greater"}, default="two-sided"
            "less" gives the one-sided upper bound ``[0, high]``, "greater" the one-sided lower bound
            ``[low, 1]``, as in :meth:`scipy.stats._result_classes.BinomTestResult.proportion_ci`.

        Returns
        -------
        ConfidenceInterval
        """
        check_interval("confidence_level", confidence_level, 0, 1, closed="neither")
        check_choice("alternative", alternative, _ALTERNATIVES)
        ci = self._test(0.5, alternative).proportion_ci(confidence_level=confidence_level, method="exact")
        return ConfidenceInterval(float(ci.low), float(ci.high))

    def pvalue(self, p, *, alternative):
        """Exact binomial p-value of H0 "failure probability = p" (scipy.stats.binomtest).

        ``alternative="greater"`` is ``P_p(X >= k)`` (evidence that the rate exceeds ``p``),
        ``"less"`` is ``P_p(X <= k)``, ``"two-sided"`` is scipy's likelihood-ordered two-sided p-value
        (see :func:`central_pvalue` for the equal-tailed one used by the verdicts).
        """
        check_interval("p", p, 0, 1)
        check_choice("alternative", alternative, _ALTERNATIVES)
        return float(self._test(float(p), alternative).pvalue)

    def central_pvalue(self, p):
        """Equal-tailed two-sided exact p-value ``min(1, 2 min(P_p(X <= k), P_p(X >= k)))``."""
        return central_pvalue(self.failures, self.trials, p)


def central_pvalue(failures, trials, p):
    """Equal-tailed two-sided exact binomial p-value, dual to the two-sided Clopper--Pearson interval.

    ``central_pvalue(k, n, p) > a`` exactly when ``p`` lies inside the Clopper--Pearson interval of
    confidence ``1 - a`` (both tails ``> a/2``).

    >>> round(central_pvalue(3, 100, 0.03), 3)
    1.0
    >>> central_pvalue(10, 10, 0.5) == 2 * 0.5**10
    True
    """
    lo = binomtest(failures, trials, p=p, alternative="less").pvalue
    hi = binomtest(failures, trials, p=p, alternative="greater").pvalue
    return float(min(1.0, 2.0 * min(lo, hi)))


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


@dataclass(frozen=True)
class BoundDecision:
    """The two one-sided exact tests of a ``"bound"`` claim ``P(fail) <= delta`` for one cell.

    ``pvalue_violated = P_delta(X >= k)`` (H0: p <= delta) and ``pvalue_holds = P_delta(X <= k)``
    (H0: p >= delta). Use :meth:`verdict` with the (Holm-adjusted) levels and :meth:`interval` for the
    matching one-sided Clopper--Pearson bounds.
    """

    failures: int
    evaluated: int
    delta: float
    pvalue_violated: float
    pvalue_holds: float

    def verdict(self, alpha_violated, alpha_holds):
        """VIOLATED if ``pvalue_violated <= alpha_violated``; HOLDS if ``pvalue_holds <= alpha_holds``;
        else INCONCLUSIVE. False-VIOLATED probability ``<= alpha_violated`` when the claim is true;
        false-HOLDS probability ``<= alpha_holds`` when it is false."""
        if self.pvalue_violated <= alpha_violated:
            return Verdict.VIOLATED
        if self.pvalue_holds <= alpha_holds:
            return Verdict.HOLDS
        return Verdict.INCONCLUSIVE

    def interval(self, alpha_violated, alpha_holds):
        """``[low, high]``: ``low`` the one-sided lower CP bound at confidence ``1 - alpha_violated``,
        ``high`` the one-sided upper CP bound at confidence ``1 - alpha_holds``; by the union bound the
        interval covers the true failure probability with probability ``>= 1 - alpha_violated - alpha_holds``.
        VIOLATED iff ``low > delta``; HOLDS iff ``high <= delta`` (up to ties of measure zero)."""
        c = BinomialCount(self.failures, self.evaluated)
        low = c.proportion_ci(1 - alpha_violated, alternative="greater").low
        high = c.proportion_ci(1 - alpha_holds, alternative="less").high
        return ConfidenceInterval(low, high)


def bound_verdict(failures, evaluated, delta):
    """The :class:`BoundDecision` (both exact one-sided p-values) of a ``"bound"`` cell.

    >>> d = bound_verdict(0, 1000, 0.01)
    >>> d.verdict(0.01, 0.01)
    <Verdict.HOLDS: 'HOLDS'>
    >>> bound_verdict(40, 1000, 0.01).verdict(0.01, 0.01)
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> bound_verdict(12, 1000, 0.01).verdict(0.01, 0.01)
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    c = BinomialCount(failures, evaluated)
    delta = check_interval("delta", delta, 0, 1)
    return BoundDecision(
        failures=c.failures,
        evaluated=c.trials,
        delta=delta,
        pvalue_violated=c.pvalue(delta, alternative="greater"),
        pvalue_holds=c.pvalue(delta, alternative="less"),
    )


def exact_verdict(failures, evaluated, p, alpha):
    """``(Verdict, pvalue)`` of an ``"exact"`` cell: the central two-sided exact test of ``X ~ Bin(n, p)``.

    VIOLATED when the p-value is ``<= alpha`` (false-VIOLATED probability ``<= alpha`` when the exact
    probability is right), else HOLDS ("consistent").
    """
    pv = central_pvalue(failures, evaluated, check_interval("p", p, 0, 1))
    return (Verdict.VIOLATED if pv <= alpha else Verdict.HOLDS), pv


def deterministic_verdict(failures, evaluated, vacuous_trials):
    """Verdict of a ``"deterministic"`` cell: any failure is VIOLATED; none is HOLDS; nothing evaluated
    but vacuous trials is VACUOUS; nothing evaluated at all (only solver errors) is INCONCLUSIVE."""
    if failures > 0:
        return Verdict.VIOLATED
    if evaluated > 0:
        return Verdict.HOLDS
    return Verdict.VACUOUS if vacuous_trials > 0 else Verdict.INCONCLUSIVE


def search_verdict(failures, evaluated):
    """Verdict of a ``"search"`` cell: a counterexample found is VIOLATED, else HOLDS (none found);
    INCONCLUSIVE when no instance could be evaluated."""
    if failures > 0:
        return Verdict.VIOLATED
    return Verdict.HOLDS if evaluated > 0 else Verdict.INCONCLUSIVE


def sequential_looks(trials, looks):
    """Trial counts at which a sequential run looks at a cell: ``ceil(k * trials / looks)``, k = 1..looks.

    >>> sequential_looks(1000, 4)
    (250, 500, 750, 1000)
    >>> sequential_looks(3, 5)
    (1, 2, 3)
    """
    trials = check_int("trials", trials, 1)
    looks = check_int("looks", looks, 1)
    pts = sorted({math.ceil(k * trials / looks) for k in range(1, looks + 1)})
    return tuple(int(x) for x in pts)
