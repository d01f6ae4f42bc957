"""Anytime-valid sequential rules: e-values, per-row decisions, closed e-Holm levels, trials to a decision and
exact sequential power (:mod:`rpcheck.stats`, "Anytime-valid sequential rules"; the e-processes are in
:mod:`rpcheck.sequential`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .. import sequential as _seq
from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from .power import _check_level, holds_power, violated_power
from .rules import (
    DETERMINISTIC_MIN_DRAWS,
    EQUIVALENCE_MARGIN,
    MODES,
    STAT_MODES,
    Counts,  # noqa: F401 (the examples in the docstrings build Counts)
    Decision,
    Verdict,
    _as_counts,
    _down,
    _equivalence_region,
    _g,
    _prepare,
    _suffix,
    decide,
)


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




def sequential_evalues(mode, counts, promised):
    """``(log_e_violated, log_e_holds)`` of a ``"bound"`` or ``"exact"`` row: the logs of its anytime-valid
    e-values (:mod:`rpcheck.stats`, "Anytime-valid sequential rules"), each the smallest over the resolutions
    of the ambiguous trials.

    >>> [round(x, 3) for x in sequential_evalues("bound", Counts(0, 200), 0.05)]
    [-4.861, 8.977]
    >>> [round(x, 3) for x in sequential_evalues("bound", Counts(0, 200, undetermined=3), 0.05)]   # k_h = 3
    [-4.861, 2.562]
    """
    check_choice("mode", mode, STAT_MODES)
    c = _as_counts(counts)
    promised = check_interval("promised", promised, 0, 1)
    lv, lh = _evalues(np.array([mode == "bound"]), [c], np.array([promised]))
    return float(lv[0]), float(lh[0])


def _evalues(is_bound, counts, promised):
    """Vectorised :func:`sequential_evalues` over validated rows (``is_bound``: bool array; else "exact")."""
    cs = np.array([(c.draws, c.failures, c.failures + c.ambiguous) for c in counts], dtype=float).reshape(-1, 3)
    n, k_v, k_h = cs.T
    p = np.asarray(promised, dtype=float)
    lv, lh = np.zeros(n.shape), np.zeros(n.shape)
    b = is_bound & (n > 0)
    lv[b] = _seq.log_e_above(k_v[b], n[b], p[b])
    lh[b] = _seq.log_e_below(k_h[b], n[b], p[b])
    e = ~is_bound & (n > 0)
    if np.any(e):
        ne, kv, kh, pe = n[e], k_v[e], k_h[e], p[e]
        # "differs" is convex in k with its integer minimum at ceil(p n - 1/2): the smallest value over the
        # resolutions kv..kh is at that point clipped to the range (neighbours too, against rounding)
        kmin = np.ceil(pe * ne - 0.5)
        lv[e] = np.min([_seq.log_e_differs(np.clip(kmin + d, kv, kh), ne, pe) for d in (-1, 0, 1)], axis=0)
        m = EQUIVALENCE_MARGIN
        lo = np.maximum(pe / m, 1 - m * (1 - pe))
        hi = np.minimum(m * pe, 1 - (1 - pe) / m)
        ok = lo < hi
        eq = np.minimum(_seq.log_e_above(kv, ne, np.where(ok, lo, 0.5)),
                        _seq.log_e_below(kh, ne, np.where(ok, hi, 0.5)))
        lh[e] = np.where(ok, eq, 0.0)
    return lv, lh


def _e_text(log_e):
    """An e-value for a claim, rounded down to 3 significant digits (never stronger than computed)."""
    if log_e > 700:
        return f"e^{math.floor(log_e)}"
    return _down(math.exp(log_e))


def decide_sequential(mode, counts, promised=None, *, alpha_violated=None, alpha_holds=None,
                      worst_slack=math.nan, exhaustive=False):
    """The anytime-valid decision of one row, valid at every look of a run that stops rows as they are
    decided (:mod:`rpcheck.stats`, "Anytime-valid sequential rules").

    ``"bound"``/``"exact"``: VIOLATED iff the refutation e-value is ``>= 1/alpha_violated``, HOLDS iff the
    support (equivalence) e-value is ``>= 1/alpha_holds``, else INCONCLUSIVE; ``pvalue`` and
    ``pvalue_holds`` are the anytime-valid p-values ``min(1, 1/E)``. Pass the levels of
    :func:`sequential_family` (closed e-Holm) or ``alpha / m`` (e-Bonferroni). ``"deterministic"`` and
    ``"search"`` rows use their fixed rules (:func:`decide`), already valid under optional stopping.

    >>> d = decide_sequential("bound", Counts(0, 200), 0.05, alpha_violated=0.01 / 50, alpha_holds=0.01 / 50)
    >>> d.verdict, d.stops
    (<Verdict.HOLDS: 'HOLDS'>, True)
    >>> print(d.claim)  # doctest: +NORMALIZE_WHITESPACE
    P(fail) < delta = 0.05: e-value 7920 >= 1/level = 5e+03 after 0 failures in 200 draws
    (anytime-valid at level 0.0002)
    >>> decide_sequential("bound", Counts(14, 40), 0.05, alpha_violated=0.0002, alpha_holds=0.0002).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> decide_sequential("exact", Counts(50, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    if mode not in STAT_MODES:
        return decide(mode, counts, promised, worst_slack=worst_slack, exhaustive=exhaustive)
    c, av, ah, empty = _prepare(counts, alpha_violated, alpha_holds)
    if empty is not None:
        return empty
    lv, lh = sequential_evalues(mode, c, promised)
    n, k_v, k_h = c.draws, c.failures, c.failures + c.ambiguous
    common = dict(pvalue=min(1.0, math.exp(-lv)), pvalue_holds=min(1.0, math.exp(-lh)))
    what = "P(fail) > delta" if mode == "bound" else "P(fail) != p"
    if lv >= -math.log(av):
        claim = (
            f"{what} = {_g(promised)}: e-value {_e_text(lv)} >= 1/level = {_g(1 / av)} after {k_v} failures in "
            f"{n} draws (anytime-valid at level {_g(av)})"
        )
        return Decision(Verdict.VIOLATED, claim, stops=True, **common)
    if lh >= -math.log(ah):
        what = (
            "P(fail) < delta" if mode == "bound"
            else f"P(fail) in [{_g(_equivalence_region(promised)[0])}, {_g(_equivalence_region(promised)[1])}]"
            " = [0.8p, 1.25p] with p"
        )
        claim = (
            f"{what} = {_g(promised)}: e-value {_e_text(lh)} >= 1/level = {_g(1 / ah)} after {k_h} failures in "
            f"{n} draws (anytime-valid at level {_g(ah)})" + _suffix(c)
        )
        return Decision(Verdict.HOLDS, claim, stops=True, **common)
    claim = (
        f"{n} draws, {k_v} failures: refutation e-value {_e_text(lv)} (VIOLATED needs {_g(1 / av)}), "
        f"support e-value {_e_text(lh)} (HOLDS needs {_g(1 / ah)})" + _suffix(c)
    )
    return Decision(Verdict.INCONCLUSIVE, claim, **common)


class FamilyLevels(NamedTuple):
    """Result of :func:`sequential_family`, one entry per row of the family (numpy arrays).

    levels_violated, levels_holds : the closed e-Holm level of each row (``1/T_i``): pass them to
        :func:`decide_sequential` as ``alpha_violated`` / ``alpha_holds``;
    log_e_violated, log_e_holds : the rows' log e-values;
    violated, holds : which rows the closed e-Holm procedure rejects now (VIOLATED / HOLDS: they stop).
    """

    levels_violated: np.ndarray
    levels_holds: np.ndarray
    log_e_violated: np.ndarray
    log_e_holds: np.ndarray
    violated: np.ndarray
    holds: np.ndarray


def sequential_family(modes, counts, promised, *, alpha):
    """Closed e-Holm over the VIOLATED family and over the HOLDS family of a sequential run, at the current
    counts of every row of the family (:mod:`rpcheck.stats`, "Anytime-valid sequential rules").

    Parameters
    ----------
    modes : sequence of {"bound", "exact"}
    counts : sequence of Counts
        The current counts of *every* member of the family, decided (stopped) rows included with their
        counts at their stop, rows not started yet with zero counts.
    promised : sequence of float
    alpha : float in (0, 1)
        The family-wise level of each family.

    Returns
    -------
    FamilyLevels

    A row once rejected keeps its verdict (the caller stops it); with that, P(any false VIOLATED at any
    look) <= alpha and P(any false HOLDS at any look) <= alpha, whatever the looks and stopping.

    >>> f = sequential_family(["bound", "bound"], [Counts(0, 300), Counts(0, 0)], [0.05, 0.05], alpha=0.01)
    >>> f.holds.tolist(), [round(float(x), 7) for x in f.levels_holds]   # T_1 = 100 + 99; T_2 = 100 + 0
    ([True, False], [0.0050251, 0.01])
    """
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    modes, counts, promised = list(modes), list(counts), list(promised)
    if not len(modes) == len(counts) == len(promised):
        raise RpcheckError(
            f"`modes`, `counts` and `promised` must have equal lengths; got {len(modes)}, {len(counts)}, "
            f"{len(promised)}."
        )
    for mo in modes:
        check_choice("mode", mo, STAT_MODES)
    counts = [_as_counts(c) for c in counts]
    promised = np.array([check_interval("promised", x, 0, 1) for x in promised], dtype=float)
    lv, lh = _evalues(np.array([mo == "bound" for mo in modes], dtype=bool), counts, promised)
    tv = _seq.eholm_log_thresholds(lv, alpha) if len(lv) else np.empty(0)
    th = _seq.eholm_log_thresholds(lh, alpha) if len(lh) else np.empty(0)
    return FamilyLevels(np.exp(-tv), np.exp(-th), lv, lh, lv >= tv, lh >= th)


class ToDecide(NamedTuple):
    """Result of :func:`trials_to_decide`: the verdict the row heads for and how many more draws it needs
    (``math.inf``: none at the current rate)."""

    verdict: Verdict
    trials: float


def _first_n(log_e_at, n0, log_thr, n_cap=10**9):
    """Least integer ``N >= n0`` (on a 1.25-geometric grid, then bisection) with ``log_e_at(N) >= log_thr``;
    ``math.inf`` when none up to ``n_cap``."""
    grid = [n0]
    while grid[-1] < n_cap:
        grid.append(max(grid[-1] + 1, math.ceil(grid[-1] * 1.25)))
    vals = np.asarray(log_e_at(np.asarray(grid, dtype=float)))
    hit = np.nonzero(vals >= log_thr)[0]
    if not hit.size:
        return math.inf
    j = int(hit[0])
    if j == 0:
        return n0
    lo, hi = grid[j - 1], grid[j]   # lo misses, hi hits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if float(log_e_at(np.asarray(mid, dtype=float))) >= log_thr:
            hi = mid
        else:
            lo = mid
    return hi


def trials_to_decide(mode, counts, promised=None, *, alpha, m=1):
    """Roughly how many more draws a row needs to be decided by the anytime-valid rule at the e-Bonferroni
    level ``alpha / m`` (an upper estimate under closed e-Holm), if its observed rates persist.

    "bound"/"exact": the counts are projected at the current rates ``k_v / n`` and ``k_h / n`` (ambiguous
    trials against the verdict, as in the rule) and the least total ``N`` at which the e-value reaches
    ``m / alpha`` is found; the smaller of the VIOLATED and HOLDS projections is returned. With no draw yet,
    the fewest draws that could decide it (every draw a failure, or every one clean). "deterministic":
    ``DETERMINISTIC_MIN_DRAWS - evaluated`` clean draws for HOLDS; "search"/"report" and rows that cannot
    be decided at their rate: ``math.inf``. Already decided rows: 0.

    >>> trials_to_decide("bound", Counts(0, 100), 0.05, alpha=0.01, m=50)   # 100 + 91 = 191 clean draws
    ToDecide(verdict=<Verdict.HOLDS: 'HOLDS'>, trials=91)
    >>> trials_to_decide("bound", Counts(5, 100), 0.05, alpha=0.01, m=50)   # at the boundary: never
    ToDecide(verdict=<Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>, trials=inf)
    >>> trials_to_decide("deterministic", Counts(0, 30), alpha=0.01)
    ToDecide(verdict=<Verdict.HOLDS: 'HOLDS'>, trials=60)
    """
    check_choice("mode", mode, MODES)
    c = _as_counts(counts)
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    m = check_int("m", m, 1)
    never = ToDecide(Verdict.INCONCLUSIVE, math.inf)
    if mode == "report":
        return never
    if mode in ("deterministic", "search"):
        if c.failures:
            return ToDecide(Verdict.VIOLATED, 0)
        if mode == "search" or c.ambiguous:
            return never
        return ToDecide(Verdict.HOLDS, max(0, DETERMINISTIC_MIN_DRAWS - c.evaluated))
    p = check_interval("promised", promised, 0, 1)
    thr = math.log(m / alpha)
    n = c.draws
    lv, lh = sequential_evalues(mode, c, p)
    if lv >= thr:
        return ToDecide(Verdict.VIOLATED, 0)
    if lh >= thr:
        return ToDecide(Verdict.HOLDS, 0)
    if n == 0:
        rv, rh = 1.0, 0.0   # best case: every draw a failure (VIOLATED), every draw clean (HOLDS)
    else:
        rv, rh = c.failures / n, (c.failures + c.ambiguous) / n
    n0 = max(n, 1)
    if mode == "bound":
        nv = _first_n(lambda N: _seq.log_e_above(rv * N, N, p), n0, thr) if rv > p else math.inf
        nh = _first_n(lambda N: _seq.log_e_below(rh * N, N, p), n0, thr) if rh < p else math.inf
    else:
        lo, hi = _equivalence_region(p)
        if n == 0:   # VIOLATED: all failures or all clean, whichever is sooner; HOLDS: counts exactly at p
            rates = [r for r in (0.0, 1.0) if r != p]
            rv = rh = p
        else:
            rates = [rv] if rv > p else ([rh] if rh < p else [])
        nv = min((_first_n(lambda N, r=r: _seq.log_e_differs(r * N, N, p), n0, thr) for r in rates),
                 default=math.inf)
        if lo < hi and lo < rv and rh < hi:
            nh = max(_first_n(lambda N: _seq.log_e_above(rv * N, N, lo), n0, thr),
                     _first_n(lambda N: _seq.log_e_below(rh * N, N, hi), n0, thr))
        else:
            nh = math.inf
    if nv == math.inf and nh == math.inf:
        return never
    if nv <= nh:
        return ToDecide(Verdict.VIOLATED, int(nv - n))
    return ToDecide(Verdict.HOLDS, int(nh - n))


def _power_regions(mode, verdict, promised, level):
    thr = -math.log(level)
    if mode == "bound":
        return [("above", promised, thr)] if verdict is Verdict.VIOLATED else [("below", promised, thr)]
    if verdict is Verdict.VIOLATED:
        return [("differs", promised, thr)]
    lo, hi = _equivalence_region(promised)
    return [("above", lo, thr), ("below", hi, thr)]


def sequential_power(mode, verdict, n, p_true, promised, level):
    """Exact probability that the anytime-valid rule of a ``"bound"``/``"exact"`` row, looking after every
    draw at per-row level ``level``, has said ``verdict`` (HOLDS or VIOLATED) by draw ``n`` when the true
    failure probability is ``p_true`` (no ambiguous trial). A dynamic programme over the counts of the
    streams not yet stopped (:func:`rpcheck.sequential.crossing_probability`), not a simulation.

    >>> round(sequential_power("bound", "HOLDS", 300, 0.0, 0.05, 0.0002), 6)   # 191 draws suffice (trials_for_power)
    1.0
    >>> round(sequential_power("bound", "VIOLATED", 300, 0.05, 0.05, 0.0002), 6) <= 0.0002   # at the boundary
    True
    """
    check_choice("mode", mode, STAT_MODES)
    verdict = Verdict(verdict)
    check_choice("verdict", verdict.value, ("HOLDS", "VIOLATED"))
    promised = check_interval("promised", promised, 0, 1)
    regions = _power_regions(mode, verdict, promised, _check_level(level))
    return float(_seq.crossing_probability(regions, p_true, n)[-1])


def trials_for_power(mode, verdict, p_true, promised, level, *, power=0.99, anytime=True, n_max=200_000):
    """Least number of draws at which a row of ``mode`` says ``verdict`` with probability ``>= power``
    (true failure probability ``p_true``, per-row level ``level``), or None beyond ``n_max``.

    ``anytime=True``: the anytime-valid rule looking after every draw (:func:`sequential_power`);
    ``anytime=False``: the fixed-n rule (:func:`holds_power`, :func:`violated_power`), the least ``n`` on a
    doubling grid followed by a linear scan from the last grid point below ``power`` (the power of a
    discrete test is not monotone in ``n``; the scan finds the first ``n`` in that bracket).

    >>> trials_for_power("bound", "HOLDS", 0.0, 0.05, 0.01 / 50, anytime=False)   # 0.95**n <= 2e-4 from 167
    167
    >>> trials_for_power("bound", "HOLDS", 0.0, 0.05, 0.01 / 50)   # the e-value of n clean draws >= 5e3
    191
    """
    check_choice("mode", mode, STAT_MODES)
    verdict = Verdict(verdict)
    check_choice("verdict", verdict.value, ("HOLDS", "VIOLATED"))
    promised = check_interval("promised", promised, 0, 1)
    level = _check_level(level)
    power = check_interval("power", power, 0, 1, closed="neither")
    if anytime:
        return _seq.anytime_trials_for_power(_power_regions(mode, verdict, promised, level), p_true, power, n_max)
    f = holds_power if verdict is Verdict.HOLDS else violated_power

    def pw(n):
        return f(mode, n, p_true, promised, level)

    lo, hi = 0, 1
    while pw(hi) < power:
        lo, hi = hi, hi * 2
        if hi > n_max:
            return None
    for n in range(lo + 1, hi + 1):
        if pw(n) >= power:
            return n
    return hi
