"""Exact binomial building blocks: Clopper--Pearson intervals, the central exact test and binomial tails.

The verdict rules that use them are documented in :mod:`rpcheck.stats`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_int, check_interval

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
        from scipy.stats import binomtest  # lazy: scipy.stats costs ~1 s to import (rpcheck list/show)

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
        low, high = clopper_pearson(self.failures, self.trials, confidence_level, alternative)
        return ConfidenceInterval(low, high)

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


def clopper_pearson(failures, trials, confidence_level, alternative="two-sided"):
    """Exact Clopper--Pearson bounds ``(low, high)`` from the beta quantiles (Clopper & Pearson 1934).

    The binomial tails are regularised incomplete beta functions, ``P_p(X >= k) = I_p(k, n - k + 1)`` and
    ``P_p(X <= k) = 1 - I_p(k + 1, n - k)``, so the bound solving ``P_p(X >= k) = a`` is
    ``betaincinv(k, n - k + 1, a)`` and the one solving ``P_p(X <= k) = a`` is ``betainccinv(k + 1, n - k, a)``
    (``a`` is half the miss probability for "two-sided", all of it for a one-sided bound). This is the
    interval :meth:`scipy.stats.binomtest(...).proportion_ci(method="exact")` computes by root finding (to an
    absolute ``xtol`` of 2e-12), here without the root finder: the same numbers to that tolerance, at about
    a hundredth of the cost (``tests/test_stats.py`` holds the two side by side).
    Arguments are not validated here (callers: :meth:`BinomialCount.proportion_ci`).

    >>> [round(b, 6) for b in clopper_pearson(3, 100, 0.95)]
    [0.00623, 0.085176]
    >>> clopper_pearson(0, 10, 0.9, "less")[1] == 1 - 0.1 ** (1 / 10)
    True
    """
    from scipy.special import betainccinv, betaincinv

    k, n = int(failures), int(trials)
    a = (1.0 - confidence_level) / 2.0 if alternative == "two-sided" else 1.0 - confidence_level
    low = 0.0 if (k == 0 or alternative == "less") else float(betaincinv(k, n - k + 1, a))
    high = 1.0 if (k == n or alternative == "greater") else float(betainccinv(k + 1, n - k, a))
    return low, high


def central_pvalue(failures, trials, p):
    """Equal-tailed two-sided exact binomial p-value, dual to the two-sided Clopper--Pearson interval.

    ``central_pvalue(k, n, p) > a`` exactly when ``p`` lies inside the Clopper--Pearson interval of
    confidence ``1 - a`` (both tails ``> a/2``).

    >>> round(central_pvalue(3, 100, 0.03), 3)
    1.0
    >>> central_pvalue(10, 10, 0.5) == 2 * 0.5**10
    True
    """
    from scipy.stats import binomtest

    lo = binomtest(failures, trials, p=p, alternative="less").pvalue
    hi = binomtest(failures, trials, p=p, alternative="greater").pvalue
    return float(min(1.0, 2.0 * min(lo, hi)))


def _cdf(k, n, p):
    from scipy.stats import binom

    return binom.cdf(k, n, p)


def _sf_ge(k, n, p):
    """P(X >= k) for X ~ Bin(n, p)."""
    from scipy.stats import binom

    return binom.sf(np.asarray(k) - 1, n, p)


def _central(k, n, p):
    return np.minimum(1.0, 2.0 * np.minimum(_cdf(k, n, p), _sf_ge(k, n, p)))
