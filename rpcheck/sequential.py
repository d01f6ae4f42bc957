r"""Anytime-valid e-processes for Bernoulli streams, their family-wise combination and their exact power.

The numerical layer of the anytime-valid sequential rules documented in :mod:`rpcheck.stats` (module
docstring, "Anytime-valid sequential rules"): this module knows counts ``(k, n)`` and levels, not
verdicts, modes or rows.

Every e-value here is a Krichevsky--Trofimov (Jeffreys) mixture likelihood ratio against one boundary
point ``theta`` of a null hypothesis, with the Jeffreys prior ``Beta(1/2, 1/2)`` restricted to the
alternative. After ``n`` draws with ``k`` failures (``L_n(q) = q^k (1 - q)^(n - k)``) it is, in closed form,

* against ``H0: p <= theta`` (evidence the rate is *above* ``theta``; prior on ``(theta, 1]``)::

      E_n = B(k + 1/2, n - k + 1/2) (1 - I_theta(k + 1/2, n - k + 1/2))
            / [B(1/2, 1/2) (1 - I_theta(1/2, 1/2)) theta^k (1 - theta)^(n - k)]

* against ``H0: p >= theta`` (evidence the rate is *below* ``theta``; prior on ``[0, theta)``): the same with
  ``I_theta`` in place of ``1 - I_theta``;
* against ``H0: p = theta`` (prior on all of ``[0, 1]``):
  ``E_n = B(k + 1/2, n - k + 1/2) / [B(1/2, 1/2) theta^k (1 - theta)^(n - k)]``,

computed in log space from :func:`scipy.special.betaln` and the regularised incomplete beta functions
:func:`scipy.special.betainc` / :func:`scipy.special.betaincc` (no quadrature, no Monte Carlo;
``tests/test_stats_sequential.py`` compares them with numerical integration of the mixture).
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import check_choice, check_int, check_interval

__all__ = [
    "KINDS",
    "log_e",
    "log_e_above",
    "log_e_below",
    "log_e_differs",
    "eholm_log_thresholds",
    "rejection_region",
    "crossing_probability",
    "anytime_trials_for_power",
]

#: The three e-processes: evidence that the failure rate is above, below or different from ``theta``.
KINDS = ("above", "below", "differs")
_LOG_PI = math.log(math.pi)


def _arrays(k, n, theta):
    """``k``, ``n`` and ``theta`` as float arrays broadcast to one shape."""
    return np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (k, n, theta)))


def _log_lr_denominator(k, n, theta):
    """``log L_n(theta) = k log theta + (n - k) log(1 - theta)`` with ``0 log 0 = 0``."""
    from scipy.special import xlog1py, xlogy

    return xlogy(k, theta) + xlog1py(n - k, -theta)


def _betacf(a, b, x, max_iter=100_000):
    """The continued fraction of the incomplete beta function (modified Lentz; Press et al., Numerical
    Recipes, Sec. 6.4), vectorised over ``a`` and ``b``; converges fast for ``x < (a + 1) / (a + b + 2)``."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(a)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
    h = d.copy()
    done = np.zeros(a.shape, dtype=bool)
    for m in range(1, max_iter + 1):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
            c = 1.0 + aa / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            step = d * c
            h = np.where(done, h, h * step)
        done |= np.abs(step - 1.0) < 1e-15
        if done.all():
            break
    return h


def _log_betainc(a, b, x):
    """``log I_x(a, b)`` (regularised incomplete beta function) for arrays ``a, b, x`` (``0 < x < 1``),
    accurate where ``I_x`` underflows: below 1e-280 (then ``x`` is below the mean) it is
    ``a log x + b log(1 - x) - log a - log B(a, b) + log cf``, ``cf`` the continued fraction of
    :func:`_betacf` (the expansion behind :func:`scipy.special.betainc`, kept in log space)."""
    from scipy.special import betainc, betaln

    a, b, x = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, x)))
    v = np.asarray(betainc(a, b, x), dtype=float)
    with np.errstate(divide="ignore"):
        out = np.log(v)
    tiny = (v < 1e-280) & (x < (a + 1.0) / (a + b + 2.0))
    if np.any(tiny):
        at, bt, xt = a[tiny], b[tiny], x[tiny]
        out[tiny] = (at * np.log(xt) + bt * np.log1p(-xt) - np.log(at) - betaln(at, bt)
                     + np.log(_betacf(at, bt, xt)))
    return out


def _log_betaincc(a, b, x):
    """``log(1 - I_x(a, b)) = log I_{1-x}(b, a)``."""
    return _log_betainc(b, a, 1.0 - np.asarray(x, dtype=float))


def _log_e_one_sided(k, n, theta, above):
    from scipy.special import betainc, betaincc, betaln

    k, n, theta = _arrays(k, n, theta)
    out = np.zeros(k.shape)   # theta = 1 ("above") or 0 ("below"): nothing in the alternative, E = 1
    bet = theta < 1 if above else theta > 0
    if not np.any(bet):
        return out
    k, n, t = k[bet], n[bet], theta[bet]
    a, b = k + 0.5, n - k + 0.5
    inner = (t > 0) & (t < 1)   # at theta = 0 ("above") or 1 ("below") the prior is all of [0, 1]
    tail = np.zeros(t.shape)
    if np.any(inner):
        f = _log_betaincc if above else _log_betainc
        tail[inner] = f(a[inner], b[inner], t[inner])
    with np.errstate(divide="ignore", invalid="ignore"):
        mass = betaincc(0.5, 0.5, t) if above else betainc(0.5, 0.5, t)
        v = betaln(a, b) + tail - (_LOG_PI + np.log(mass) + _log_lr_denominator(k, n, t))
    out[bet] = np.where(np.isnan(v), -np.inf, v)
    return out


def log_e_above(k, n, theta):
    """Log e-value against ``H0: p <= theta`` (Jeffreys prior restricted to ``(theta, 1]``).

    ``k``, ``n`` and ``theta`` broadcast (``k`` may be fractional: projected counts); ``theta = 1`` (nothing
    above) gives ``E = 1`` (no bet).

    >>> round(float(np.exp(log_e_above(0, 0, 0.1))), 12)   # E_0 = 1
    1.0
    >>> round(float(log_e_above(20, 40, 0.1)), 3)   # 20 failures in 40 draws against p <= 0.1
    18.586
    """
    return _log_e_one_sided(k, n, theta, True)


def log_e_below(k, n, theta):
    """Log e-value against ``H0: p >= theta`` (Jeffreys prior restricted to ``[0, theta)``); ``theta = 0``
    (nothing below) gives ``E = 1``.

    >>> round(float(log_e_below(0, 200, 0.05)), 3)   # 200 clean draws against p >= 0.05
    8.977
    """
    return _log_e_one_sided(k, n, theta, False)


def log_e_differs(k, n, theta):
    """Log e-value against ``H0: p = theta`` (the full Jeffreys mixture, a martingale under ``theta``).

    >>> round(float(log_e_differs(50, 100, 0.5)), 3)   # data at the null: evidence for it, E < 1
    -2.531
    """
    from scipy.special import betaln

    k, n, theta = _arrays(k, n, theta)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = betaln(k + 0.5, n - k + 0.5) - _LOG_PI - _log_lr_denominator(k, n, theta)
    return np.where(np.isnan(out), np.inf, out)


def log_e(kind, k, n, theta):
    """The log e-value of ``kind`` (one of :data:`KINDS`)."""
    return {"above": log_e_above, "below": log_e_below, "differs": log_e_differs}[kind](k, n, theta)


def eholm_log_thresholds(log_e_values, alpha):
    """Closed e-Holm procedure (Vovk & Wang 2021): the log of the e-value each hypothesis needs, the others
    fixed, to be rejected at family-wise level ``alpha``.

    The closure of the arithmetic-mean e-merging function rejects ``H_i`` when every intersection
    ``H_S, S ∋ i`` has ``mean_{j in S} e_j >= 1/alpha``. The binding ``S`` is ``{i}`` with every other
    ``j`` whose ``e_j < 1/alpha`` (adding one lowers the mean exactly when ``e_j < 1/alpha``), so ``H_i`` is
    rejected iff ``e_i >= T_i = 1/alpha + sum_{j != i} (1/alpha - e_j)_+``. With every other e-value below
    1 this is at most e-Bonferroni's ``m/alpha``; with all others rejected it is ``1/alpha``.

    >>> t = eholm_log_thresholds(np.log([1.0, 1.0]), 0.1)     # both at e = 1: T = 10 + 9 = 19
    >>> [round(float(np.exp(x)), 6) for x in t]
    [19.0, 19.0]
    >>> t = eholm_log_thresholds(np.log([50.0, 0.5]), 0.1)    # the other far below: T_1 = 10 + 9.5
    >>> [round(float(np.exp(x)), 6) for x in t]
    [19.5, 10.0]
    """
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    le = np.asarray(log_e_values, dtype=float).ravel()
    inv = 1.0 / alpha
    with np.errstate(over="ignore"):
        short = np.maximum(0.0, inv - np.exp(np.minimum(le, 700.0)))
    total = short.sum()
    return np.log(inv + (total - short))


def _first_true(pred, lo, hi):
    """Vectorised bisection: the least integer ``x`` in ``[lo, hi]`` with ``pred(x)`` (``pred`` monotone
    False -> True on the range), ``hi`` when there is none before it."""
    lo = np.array(lo, dtype=np.int64)
    hi = np.array(hi, dtype=np.int64)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        ok = pred(mid)
        hi = np.where(active & ok, mid, hi)
        lo = np.where(active & ~ok, mid + 1, lo)


def rejection_region(kind, theta, n, log_threshold):
    """The counts ``k`` at which the e-value of ``kind`` reaches ``exp(log_threshold)`` after ``n`` draws,
    as integer arrays ``(lower, upper)``: rejected iff ``k <= lower`` or ``k >= upper``.

    "above" is increasing in ``k`` (each failure multiplies every ``L_n(q)/L_n(theta)``, ``q > theta``, by
    ``q/theta > 1``, a success by ``(1-q)/(1-theta) < 1``): ``lower = -1``. "below" is decreasing:
    ``upper = n + 1``. "differs" is convex in ``k`` (``log B(k + 1/2, n - k + 1/2)`` is a sum of two convex
    ``log Gamma`` terms, the rest linear): a lower and an upper tail around its minimum.
    """
    check_choice("kind", kind, KINDS)
    n = np.atleast_1d(np.asarray(n, dtype=np.int64))
    zeros = np.zeros_like(n)

    def hits(k):
        return log_e(kind, k, n, theta) >= log_threshold

    if kind == "above":
        return n * 0 - 1, _first_true(lambda k: log_e("above", k, n, theta) >= log_threshold, zeros, n + 1)
    if kind == "below":
        first_miss = _first_true(lambda k: log_e("below", k, n, theta) < log_threshold, zeros, n + 1)
        return first_miss - 1, n + 1
    # the minimum: the least k whose forward difference log E(k + 1) - log E(k)
    # = log((k + 1/2) / (n - k - 1/2)) - log(theta / (1 - theta)) is >= 0
    kmin = _first_true(lambda k: (k + 0.5) * (1 - theta) >= theta * (n - k - 0.5), zeros, n)
    lower = _first_true(lambda k: ~hits(k), zeros, kmin + 1) - 1
    upper = _first_true(hits, kmin, n + 1)
    lower = np.minimum(lower, kmin)
    return lower, upper


def crossing_probability(regions, p_true, n_max):
    """Exact probability that a Bernoulli(``p_true``) stream, looked at after every draw, has entered its
    rejection region by draw ``n = 1..n_max``: a dynamic programme over the failure count of the paths not
    yet stopped (no simulation).

    ``regions`` is a list of ``(kind, theta, log_threshold)``; the stream is stopped the first time its count
    ``k`` is in the *intersection* of their regions (one region: a single test; two: an equivalence test
    that needs both one-sided rejections at the same time).

    Returns an array ``P[n - 1] = P(stopped at some draw <= n)``.
    """
    n_max = check_int("n_max", n_max, 1)
    p = check_interval("p_true", p_true, 0, 1)
    ns = np.arange(1, n_max + 1)
    bounds = [rejection_region(kind, theta, ns, thr) for kind, theta, thr in regions]
    alive = np.zeros(n_max + 2)
    alive[0] = 1.0
    out = np.empty(n_max)
    stopped = 0.0
    ks = np.arange(n_max + 2)
    for i, n in enumerate(ns):
        alive[1 : n + 1] = alive[1 : n + 1] * (1 - p) + alive[0:n] * p
        alive[0] *= 1 - p
        hit = np.ones(n + 1, dtype=bool)
        for lower, upper in bounds:
            hit &= (ks[: n + 1] <= lower[i]) | (ks[: n + 1] >= upper[i])
        stopped += alive[: n + 1][hit].sum()
        alive[: n + 1][hit] = 0.0
        out[i] = stopped
    return np.minimum(out, 1.0)


def anytime_trials_for_power(regions, p_true, power=0.99, n_max=200_000):
    """Least ``n`` with :func:`crossing_probability` ``>= power`` (looking after every draw), or None when
    not reached by ``n_max``. Grows ``n_max`` geometrically from 256 so that easy cases stay cheap."""
    power = check_interval("power", power, 0, 1, closed="neither")
    n = 256
    while True:
        cp = crossing_probability(regions, p_true, min(n, n_max))
        hit = np.nonzero(cp >= power)[0]
        if hit.size:
            return int(hit[0]) + 1
        if n >= n_max:
            return None
        n *= 4
