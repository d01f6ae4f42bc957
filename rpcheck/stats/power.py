"""Attainability of an expected verdict and the exact power of the fixed-n rules (:mod:`rpcheck.stats`,
"Attainability of an expected verdict").
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_choice, check_int, check_interval
from .binomial import _cdf, _central, _sf_ge
from .rules import DETERMINISTIC_MIN_DRAWS, MODES, STAT_MODES, Verdict, _equivalence_region, _g


def _check_level(level):
    return check_interval("level", level, 0, 1, closed="neither")


def _min_draws_bound(delta, level):
    """Least n with ``(1 - delta)**n <= level`` (0 failures then support HOLDS), or None when delta is 0."""
    if delta <= 0:
        return None
    if delta >= 1:
        return 1
    return max(1, math.ceil(math.log(level) / math.log1p(-delta) - 1e-12))


def _equivalence_best(n, p):
    """Smallest equivalence p-value over every count ``k = 0..n`` (no ambiguous trial), and its ``k``."""
    lo, hi = _equivalence_region(p)
    if not lo < hi:
        return 1.0, None
    ks = np.arange(n + 1)
    ph = np.maximum(_sf_ge(ks, n, lo), _cdf(ks, n, hi))
    j = int(np.argmin(ph))
    return float(ph[j]), j


def unattainable(mode, expected, draws, promised=None, *, level, exhaustive=False):
    """Why the verdict ``expected`` cannot come out of a row of ``mode`` with ``draws`` draws, whatever the
    outcomes (:mod:`rpcheck.stats`, "Attainability"); None when it is attainable.

    Parameters
    ----------
    mode : {"bound", "deterministic", "exact", "search", "report"}
    expected : Verdict or str
        The declared expected verdict; only HOLDS and VIOLATED can be unattainable.
    draws : int
        Draws the rule uses: for "deterministic" the evaluated (non-vacuous) draws, for "bound"/"exact"
        evaluated draws plus solver errors (:attr:`Counts.draws`).
    promised : float, optional
        ``delta`` ("bound") or ``p`` ("exact").
    level : float in (0, 1)
        The largest level the row's test can get (``alpha`` under Holm; the Bonferroni level in a
        sequential run). Unused by "deterministic" and "search".

    Returns
    -------
    str or None

    Examples
    --------
    >>> unattainable("deterministic", "HOLDS", 40, level=0.01)
    'HOLDS unattainable: 40 draws, the rule needs 90'
    >>> unattainable("bound", "HOLDS", 200, 0.01, level=0.01)   # 0.99**200 = 0.134 > 0.01
    'HOLDS unattainable: 200 draws, the rule needs 459 (0 failures give support p-value 0.134 > level 0.01)'
    >>> unattainable("bound", "HOLDS", 459, 0.01, level=0.01) is None   # 0.99**459 = 0.00994
    True
    >>> unattainable("bound", "VIOLATED", 2, 0.2, level=0.01)   # even 2 of 2 failures: 0.2**2 = 0.04
    'VIOLATED unattainable: 2 draws, even 2 failures give refutation p-value 0.04 > level 0.01'
    >>> unattainable("exact", "HOLDS", 100, 0.5, level=0.01)
    'HOLDS unattainable: 100 draws, the best count (at k = 50) gives equivalence p-value 0.0271 > level 0.01'
    >>> unattainable("search", "HOLDS", 1000, level=0.01)
    'HOLDS unattainable: a search never gives HOLDS'
    """
    check_choice("mode", mode, MODES)
    draws = check_int("draws", draws, 0)
    expected = Verdict(expected)
    if mode == "report" or expected not in (Verdict.HOLDS, Verdict.VIOLATED):
        return None
    if mode == "search":
        return "HOLDS unattainable: a search never gives HOLDS" if expected is Verdict.HOLDS else (
            None if draws else "VIOLATED unattainable: no draw")
    if mode == "deterministic":
        if expected is Verdict.HOLDS and draws < (1 if exhaustive else DETERMINISTIC_MIN_DRAWS):
            return f"HOLDS unattainable: {draws} draws, the rule needs {DETERMINISTIC_MIN_DRAWS}"
        if expected is Verdict.VIOLATED and draws == 0:
            return "VIOLATED unattainable: no draw"
        return None
    level = _check_level(level)
    p = check_interval("promised", promised, 0, 1)
    if draws == 0:
        return f"{expected.value} unattainable: no draw"
    if mode == "bound":
        if expected is Verdict.HOLDS:
            best = (1 - p) ** draws
            if best <= level:
                return None
            need = _min_draws_bound(p, level)
            why = f"0 failures give support p-value {_g(best)} > level {_g(level)}"
            if need is None:
                return f"HOLDS unattainable: {draws} draws; {why} (delta = 0: never attainable)"
            return f"HOLDS unattainable: {draws} draws, the rule needs {need} ({why})"
        best = p**draws
        if best <= level:
            return None
        return (
            f"VIOLATED unattainable: {draws} draws, even {draws} failures give refutation p-value "
            f"{_g(best)} > level {_g(level)}"
        )
    # exact
    if expected is Verdict.HOLDS:
        best, k = _equivalence_best(draws, p)
        if best <= level:
            return None
        at = "" if k is None else f" (at k = {k})"
        return (
            f"HOLDS unattainable: {draws} draws, the best count{at} gives equivalence p-value {_g(best)} > "
            f"level {_g(level)}"
        )
    best = float(min(1.0, 2 * min((1 - p) ** draws, p**draws)))
    if best <= level:
        return None
    return (
        f"VIOLATED unattainable: {draws} draws, even the most extreme count gives central p-value "
        f"{_g(best)} > level {_g(level)}"
    )


def _power_setup(mode, n, p_true, promised, level):
    check_choice("mode", mode, tuple(m for m in MODES if m != "report"))
    n = check_int("n", n, 0)
    p_true = check_interval("p_true", p_true, 0, 1)
    if mode in STAT_MODES:
        promised = check_interval("promised", promised, 0, 1)
        level = _check_level(level)
    ks = np.arange(n + 1)
    from scipy.stats import binom

    return n, p_true, promised, level, ks, binom.pmf(ks, n, p_true)


def holds_power(mode, n, p_true, promised=None, level=0.01):
    """Exact probability that the rule of ``mode`` says HOLDS after ``n`` draws (no vacuous, undetermined
    or solver-error trial) when the true failure probability is ``p_true``, at per-row level ``level``.

    A binomial sum: ``sum_k P_{p_true}(X = k) [rule says HOLDS at k]``. For "deterministic" the rule has
    its own confidence (``level`` is unused): ``(1 - p_true)**n`` when ``n >= DETERMINISTIC_MIN_DRAWS``,
    else 0. For "search" it is 0.

    Examples
    --------
    >>> # HOLDS iff k <= 2: P_0.01(X <= 2) = 0.0028 <= 0.01 < P_0.01(X <= 3) = 0.0101; P_0.002(X <= 2) = 0.677
    >>> round(holds_power("bound", 1000, 0.002, 0.01, 0.01), 4)
    0.6767
    >>> holds_power("bound", 200, 0.0, 0.01, 0.01)                # unattainable: 0.99**200 > 0.01
    0.0
    >>> round(holds_power("exact", 5000, 0.5, 0.5, 0.01), 6)
    1.0
    >>> round(holds_power("deterministic", 100, 0.0), 3), holds_power("deterministic", 89, 0.0)
    (1.0, 0.0)
    """
    n, p_true, promised, level, ks, pmf = _power_setup(mode, n, p_true, promised, level)
    if mode == "search" or n == 0:
        return 0.0
    if mode == "deterministic":
        return float((1 - p_true) ** n) if n >= DETERMINISTIC_MIN_DRAWS else 0.0
    if mode == "bound":
        ok = _cdf(ks, n, promised) <= level
    else:
        lo, hi = _equivalence_region(promised)
        if not lo < hi:
            return 0.0
        ok = np.maximum(_sf_ge(ks, n, lo), _cdf(ks, n, hi)) <= level
    return float(min(1.0, pmf[ok].sum()))


def violated_power(mode, n, p_true, promised=None, level=0.01):
    """Exact probability that the rule of ``mode`` says VIOLATED after ``n`` draws (no vacuous, undetermined
    or solver-error trial) when the true failure probability is ``p_true``, at per-row level ``level``.

    "bound": ``P(P_delta(X >= k) <= level)``; "exact": ``P(central p-value <= level)``; "deterministic" and
    "search": ``1 - (1 - p_true)**n`` (any failure; ``level`` unused).

    Examples
    --------
    >>> round(violated_power("bound", 1000, 0.2, 0.05, 0.01), 6)
    1.0
    >>> violated_power("bound", 2, 1.0, 0.2, 0.01)   # even 2 failures: 0.2**2 = 0.04 > 0.01
    0.0
    >>> round(violated_power("deterministic", 100, 0.01), 4)   # 1 - 0.99**100
    0.634
    >>> round(violated_power("exact", 100, 0.5, 0.5, 0.01), 4)   # false-alarm rate when p0 is right (<= 0.01)
    0.0066
    """
    n, p_true, promised, level, ks, pmf = _power_setup(mode, n, p_true, promised, level)
    if n == 0:
        return 0.0
    if mode in ("deterministic", "search"):
        return float(1 - (1 - p_true) ** n)
    if mode == "bound":
        ok = _sf_ge(ks, n, promised) <= level
    else:
        ok = _central(ks, n, promised) <= level
    return float(min(1.0, pmf[ok].sum()))


def deterministic_trials(vacuous_fraction=0.0, *, power=0.99):
    """Trials a cell needs so that a deterministic row reaches :data:`DETERMINISTIC_MIN_DRAWS` evaluated draws.

    A deterministic HOLDS needs at least ``DETERMINISTIC_MIN_DRAWS`` evaluated (non-vacuous) draws. When each
    draw is vacuous for the row independently with probability at most ``vacuous_fraction``, the evaluated
    draws of ``n`` trials are at least ``Binomial(n, 1 - vacuous_fraction)``; this returns the least ``n`` with
    ``P(Binomial(n, 1 - vacuous_fraction) >= DETERMINISTIC_MIN_DRAWS) >= power``. A profile sized with it
    reaches its declared deterministic HOLDS with probability at least ``power`` whenever the claim holds
    on every draw (no certified failure, no undetermined draw). ``vacuous_fraction`` is an upper bound, for
    example the one-sided 99% Clopper--Pearson bound of a measured vacuous fraction (0 vacuous draws of 150
    give 0.03).

    Parameters
    ----------
    vacuous_fraction : float in [0, 1), default=0.0
        Upper bound on the probability that a draw is vacuous for the row.
    power : float in (0, 1), default=0.99

    Returns
    -------
    int

    Examples
    --------
    >>> deterministic_trials(0.0), deterministic_trials(0.03), deterministic_trials(0.5)
    (90, 97, 213)
    """
    f = check_interval("vacuous_fraction", vacuous_fraction, 0, 1, closed="left")
    power = check_interval("power", power, 0, 1, closed="neither")
    if f == 0:
        return DETERMINISTIC_MIN_DRAWS
    # P(Binomial(n, 1 - f) < m) by log-space terms (math only: profiles call this at import time, and
    # `rpcheck list` imports no scipy.stats)
    m = DETERMINISTIC_MIN_DRAWS
    n = m
    while True:
        short = sum(math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                             + k * math.log1p(-f) + (n - k) * math.log(f)) for k in range(m))
        if 1 - short >= power:
            return n
        n += 1
