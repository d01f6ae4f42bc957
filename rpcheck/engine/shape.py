r"""Shape tests of ``O(f)``-type target dimensions: does the implied constant grow along an axis?

An ``O(f)`` target dimension says that one constant serves every parameter value: the implied constant
``C*(x) = r*(x)/f(x)`` is bounded, ``r*(x)`` being the smallest value of the dimension parameter at which the
failure probability ``p(r)`` of the claimed event is at most ``delta``. On a finite range only the shape can be
tested: ``C*`` must not grow towards the end of the range where ``f`` is large. This module holds the paper-free
pieces (checkers supply the event, the formula and the axis):

- :func:`bracket_search`: a two-sided bracket ``(L, U]`` of ``r*`` at one parameter point, by the grid and
  bisection phases of :mod:`rpcheck.engine.constant` (:func:`~rpcheck.engine.constant.grid_phase`,
  :func:`~rpcheck.engine.constant.bisection_phase`): the smallest *certified pass* (one-sided exact
  Clopper--Pearson upper bound on ``p(r)`` at ``1 - level`` is ``<= delta``) and the largest *certified failure*
  (the lower bound ``> delta``) below it;
- :func:`certified_bracket`: ``(L, U)`` from any list of evaluations;
- :func:`growth_verdict`: the rule on the implied constants' bands at two points;
- the pieces every shape checker's trial and decide share: :func:`span_endpoints` (the two points of a cell),
  :func:`shape_trial` (one cell's trial: both points' searches), :func:`record_evaluations` /
  :func:`evaluations_of` (a search's evaluations in a trial's diagnostics),
  :func:`band_info` (one point's bracket and implied constant), :func:`shape_rows` (the claim row and its
  negative control), :func:`shape_claim` (the rows' rule and error in words) and :func:`shape_variants` (the
  two rows' declarations).

Error (the derivation checkers cite). Every evaluation draws fresh independent trials, so whatever values
the adaptive search picks, each of its two one-sided bounds covers ``p(r)`` with probability ``>= 1 - level``
given the past; with at most ``K = max_evaluations()`` evaluations per point, all ``2 K`` bounds of a point
cover simultaneously with probability ``>= 1 - 2 K level`` (union bound). When they do, ``p(U) <= delta``, so
``r* <= U``, and ``p(L) > delta``, so ``r* > L`` if ``p`` does not increase with r (an assumption the caller
states). :func:`growth_verdict` then errs only when a bound does not cover: its one threshold ``tau`` splits the
true ratios ``C*(far)/C*(near)`` in two, and each side has one right verdict.
"""

from __future__ import annotations

import time

from ..stats import Verdict, clopper_pearson
from .constant import bisection_phase, grid_phase
from .theorem import Outcome, TrialRecord, Variant

__all__ = ["bracket_search", "certified_bracket", "growth_verdict", "implied_constant_verdict", "max_evaluations",
           "SEARCH_STEPS", "ROWS", "span_endpoints", "shape_trial", "record_evaluations", "evaluations_of",
           "band_info", "shape_rows", "shape_claim", "shape_variants"]

#: The two rows of a shape cell: the formula as printed and its negative control (a planted wrong power).
ROWS = ("scaling", "wrong_power")

#: Default budgets: grid factor, grid steps (upper end), bisection steps (upper end), walk-down steps and
#: bisection steps (lower end).
SEARCH_STEPS = {"grid_factor": 2.0, "grid_steps": 8, "upper_bisect": 5, "lower_grid": 4, "lower_bisect": 5}


def max_evaluations(grid_steps=8, upper_bisect=5, lower_grid=4, lower_bisect=5):
    """The most values :func:`bracket_search` evaluates (each value once): ``1 + grid_steps + upper_bisect +
    lower_grid + lower_bisect``.

    >>> max_evaluations()
    23
    """
    return 1 + grid_steps + upper_bisect + lower_grid + lower_bisect


def _certified(k, n, delta, level):
    """``(certified_pass, certified_fail)`` of ``k`` failures in ``n`` trials against ``delta``."""
    up = clopper_pearson(k, n, 1.0 - level, "less")[1]
    lo = clopper_pearson(k, n, 1.0 - level, "greater")[0]
    return up <= delta, lo > delta


def certified_bracket(evaluations, delta, level):
    """``(L, U)`` from evaluations ``[(value, failures, trials), ...]``: ``U`` the smallest value whose one-sided
    upper Clopper--Pearson bound at ``1 - level`` is ``<= delta``, ``L`` the largest whose lower bound is
    ``> delta`` (None when there is none).

    >>> certified_bracket([(50, 90, 200), (60, 60, 200), (80, 15, 200), (100, 0, 200)], 0.2, 1e-4)
    (50, 80)
    """
    U = min((r for r, k, n in evaluations if _certified(k, n, delta, level)[0]), default=None)
    L = max((r for r, k, n in evaluations if _certified(k, n, delta, level)[1]), default=None)
    return L, U


def bracket_search(failures, start, *, delta, trials, level, min_value=1, grid_factor=2.0, grid_steps=8,
                   upper_bisect=5, lower_grid=4, lower_bisect=5):
    """Evaluations ``[(value, failures, trials), ...]`` (in evaluation order) that bracket ``r*`` from both sides.

    ``failures(value)`` runs ``trials`` fresh trials of the event at the integer ``value`` and returns how many
    failed. Phase 1 and 2 (``grid_phase`` from ``start``, factor ``grid_factor``, then ``bisection_phase``)
    search the smallest certified pass; phase 3 and 4 (the same functions on the predicate "not a certified
    failure", walking down from the largest value that did not pass) the largest certified failure below it.
    Each value is evaluated once (memoised); at most :func:`max_evaluations` values.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> ev = bracket_search(lambda r: rng.binomial(400, min(1.0, 30.0 / r)), 64, delta=0.2, trials=400, level=1e-4)
    >>> L, U = certified_bracket(ev, 0.2, 1e-4)
    >>> L < 150 <= U   # p(r) = 30/r crosses 0.2 at r = 150
    True
    """
    evals = {}

    def run(r):
        if r not in evals:
            evals[r] = int(failures(int(r)))
        return evals[r]

    def passes(r):
        return _certified(run(r), trials, delta, level)[0]

    def not_fail(r):
        return not _certified(run(r), trials, delta, level)[1]

    def cast(v):
        return int(round(v))

    top = int(start) * int(round(grid_factor**grid_steps))
    lo, hi = grid_phase(passes, int(start), grid_factor=grid_factor, grid_steps=grid_steps, min_value=min_value,
                        max_value=top, cast=cast)  # fmt: skip
    lo, hi = bisection_phase(passes, lo, hi, bisect_steps=upper_bisect, integer=True, rtol=0.0)
    if hi is not None:
        below = lo if lo is not None else hi
        if not_fail(below):  # walk down from the largest value that did not pass to a certified failure
            lo2, hi2 = grid_phase(not_fail, below, grid_factor=grid_factor, grid_steps=lower_grid,
                                  min_value=min_value, max_value=hi, cast=cast)  # fmt: skip
        else:
            lo2, hi2 = below, hi
        bisection_phase(not_fail, lo2, hi2, bisect_steps=lower_bisect, integer=True, rtol=0.0)
    return [(r, k, trials) for r, k in evals.items()]


def growth_verdict(c_near, c_far, tau):
    """The rule on the implied-constant bands ``c_near = (lo, hi)``, ``c_far = (lo, hi)`` (``C* in (lo, hi]`` at
    each point), one threshold ``tau`` on the ratio ``C*(far)/C*(near)``: VIOLATED when ``c_far[0] >= tau
    c_near[1]`` (then ``C*(far) > tau C*(near)``: the constant grew by more than ``tau``), HOLDS when ``c_far[1]
    <= tau c_near[0]`` (then ``C*(far) < tau C*(near)``), else INCONCLUSIVE; INCONCLUSIVE when a needed end is
    missing (None). The two statements are complementary, so every true ratio has one right verdict: when every
    bound behind the bands covers, a VIOLATED is impossible if ``C*(far) <= tau C*(near)`` and a HOLDS is
    impossible if ``C*(far) > tau C*(near)``. The checkers take ``tau = sqrt(span)``: over an axis moved by
    ``span`` the constant may drift (pre-asymptotic terms of a correct ``O(f)``), but not by half a power of the
    axis variable; a formula that misses a whole power grows ``span``-fold.

    >>> growth_verdict((1.0, 1.3), (3.7, 4.8), 2.83)
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> growth_verdict((1.0, 1.3), (1.4, 1.8), 2.83)
    <Verdict.HOLDS: 'HOLDS'>
    >>> growth_verdict((1.0, 1.3), (2.0, 3.2), 2.83)
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    >>> growth_verdict((None, 1.3), (0.9, 1.2), 2.83)
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    (nl, nh), (fl, fh) = c_near, c_far
    if fl is not None and nh is not None and fl >= tau * nh:
        return Verdict.VIOLATED
    if fh is not None and nl is not None and fh <= tau * nl:
        return Verdict.HOLDS
    return Verdict.INCONCLUSIVE


def _div(a, b):
    return None if a is None or b is None or b == 0 else a / b


def implied_constant_verdict(near, far, tau, *, control=False):
    """:func:`growth_verdict` on the implied constants ``C* = r*/f`` of two endpoints, each given as a mapping with
    the certified bracket ``L``, ``U`` of ``r*``, the formula's value ``f`` and the control's factor ``g``; with
    ``control`` the formula is ``f/g`` (a planted wrong power). Returns ``(verdict, ratio_lower, ratio_upper)``,
    the verdict and the bounds ``C*_far/C*_near`` lies between (None where an end is missing).

    >>> implied_constant_verdict({"L": 10, "U": 13, "f": 10, "g": 1}, {"L": 14, "U": 18, "f": 10, "g": 8}, 2.83)
    (<Verdict.HOLDS: 'HOLDS'>, 1.0769230769230769, 1.8)
    >>> implied_constant_verdict({"L": 10, "U": 13, "f": 10, "g": 1}, {"L": 14, "U": 18, "f": 10, "g": 8}, 2.83,
    ...                          control=True)[0]
    <Verdict.VIOLATED: 'VIOLATED'>
    """
    c = {}
    for name, b in (("near", near), ("far", far)):
        fw = b["f"] / (b["g"] if control else 1.0)
        c[name] = (_div(b["L"], fw), _div(b["U"], fw))
    (nl, nh), (fl, fh) = c["near"], c["far"]
    lo = None if fl is None or nh is None else fl / nh
    hi = None if fh is None or nl is None else fh / nl
    return growth_verdict(c["near"], c["far"], tau), lo, hi


def span_endpoints(near, axis, direction, span):
    """``(near, far)``: ``far`` is ``near`` with its ``axis`` variable times ``span`` (``direction > 0``: the
    formula grows with the variable) or divided by ``span`` (``direction < 0``).

    >>> span_endpoints({"rho": 4, "eps": 0.5}, "eps", -1, 8)
    ({'rho': 4, 'eps': 0.5}, {'rho': 4, 'eps': 0.0625})
    """
    far = dict(near)
    far[axis] = near[axis] * span if direction > 0 else near[axis] / span
    return near, far


def shape_trial(points, rng, search):
    """The trial of a shape cell: ``search(point, stream)`` at each of the two ``points`` (near, far) on
    independent child streams of ``rng`` (``rng.spawn(2)``). ``search`` returns the evaluations
    ``[(value, failures, trials), ...]`` and a dict of further diagnostics of the point; they are stored, with
    the search's wall time, as ``<name>.seconds``, ``<name>.<key>`` and by :func:`record_evaluations`. The
    rows' outcomes are placeholders: the verdicts come from the brackets, in the checker's decide."""
    diags = {}
    for name, point, stream in zip(("near", "far"), points, rng.spawn(2)):
        t0 = time.perf_counter()
        evals, extra = search(point, stream)
        diags[f"{name}.seconds"] = time.perf_counter() - t0
        diags.update({f"{name}.{k}": v for k, v in extra.items()})
        record_evaluations(diags, name, evals)
    return TrialRecord(outcomes={row: Outcome(True) for row in ROWS}, diagnostics=diags)


def record_evaluations(diags, name, evals):
    """Stores one point's evaluations ``[(value, failures, trials), ...]`` in a trial's ``diags`` (floats):
    ``<name>.evaluations`` and, per evaluation ``j``, ``<name>.rJJ``, ``<name>.kJJ``, ``<name>.nJJ``;
    :func:`evaluations_of` reads them back."""
    diags[f"{name}.evaluations"] = float(len(evals))
    for j, (r, k, n) in enumerate(evals):
        diags[f"{name}.r{j:02d}"] = float(r)
        diags[f"{name}.k{j:02d}"] = float(k)
        diags[f"{name}.n{j:02d}"] = float(n)


def evaluations_of(diags, name):
    """The evaluations :func:`record_evaluations` stored under ``name`` (none when absent).

    >>> d = {}
    >>> record_evaluations(d, "near", [(64, 30, 200), (128, 2, 200)])
    >>> evaluations_of(d, "near"), evaluations_of(d, "far")
    ([(64, 30, 200), (128, 2, 200)], [])
    """
    m = int(diags.get(f"{name}.evaluations", 0))
    return [(int(diags[f"{name}.r{j:02d}"]), int(diags[f"{name}.k{j:02d}"]), int(diags[f"{name}.n{j:02d}"]))
            for j in range(m)]  # fmt: skip


def band_info(L, U, f):
    """One point's certified bracket ``(L, U]`` of ``r*``, the formula's value ``f`` and the implied constant's
    band ``(L/f, U/f]`` (None where an end is missing), as a decide info's entries.

    >>> band_info(50, 80, 10.0)
    {'r_lower': 50, 'r_upper': 80, 'f': 10.0, 'c_lower': 5.0, 'c_upper': 8.0}
    """
    return {"r_lower": L, "r_upper": U, "f": f, "c_lower": _div(L, f), "c_upper": _div(U, f)}


def shape_rows(near, far, tau):
    """The two rows of a shape cell from its points' bands (mappings ``L``, ``U``, ``f``, ``g`` as for
    :func:`implied_constant_verdict`): ``"scaling"``, the formula as printed, and ``"wrong_power"``, its negative
    control (the formula divided by ``g``). Returns ``(verdicts, info)``, ``info[row]`` holding the row's
    ``ratio_lower``, ``ratio_upper`` (bounds on ``C*_far/C*_near``) and ``verdict``."""
    verdicts, info = {}, {}
    for row, control in zip(ROWS, (False, True)):
        verdict, lo, hi = implied_constant_verdict(near, far, tau, control=control)
        verdicts[row] = verdict
        info[row] = {"ratio_lower": lo, "ratio_upper": hi, "verdict": verdict.value}
    return verdicts, info


def _fmt(x):
    return "n/a" if x is None else f"{x:.3g}"


def shape_claim(head, rows, tau, *, alpha, bounds, level, monotone):
    """The claim line of a shape cell: ``head`` (what ``C*`` is, at which points), the ratio bands of the rows
    of :func:`shape_rows`, the rule and its error: ``bounds`` one-sided exact Clopper--Pearson bounds at
    ``level`` share ``alpha`` (union bound, module docstring); ``monotone`` says where the failure probability's
    monotonicity in r comes from.

    >>> rows = {"scaling": {"ratio_lower": 0.5, "ratio_upper": 1.2}, "wrong_power": {"ratio_lower": 4.0,
    ...         "ratio_upper": None}}
    >>> shape_claim("C* at far over near", rows, 2.83, alpha=0.01, bounds=92, level=1e-4, monotone="assumed")[:60]
    'C* at far over near in [0.5, 1.2] (control: [4, n/a]); VIOLA'
    """
    s, w = rows["scaling"], rows["wrong_power"]
    return (
        f"{head} in [{_fmt(s['ratio_lower'])}, {_fmt(s['ratio_upper'])}] (control: [{_fmt(w['ratio_lower'])}, "
        f"{_fmt(w['ratio_upper'])}]); VIOLATED iff the lower end >= {tau:.3g}, HOLDS iff the upper end <= {tau:.3g}: "
        f"P(false VIOLATED | C* grows <= {tau:.3g}x) <= {alpha:g}, P(false HOLDS | C* grows > {tau:.3g}x) <= {alpha:g} "
        f"(union bound over {bounds} one-sided exact Clopper-Pearson bounds at {level:.2g}; {monotone})"
    )


def shape_variants(scaling, wrong_power, *, note, expected=Verdict.HOLDS, assumed=()):
    """The declarations of a shape cell's two rows (mode "report", verdicts from the checker's decide):
    ``"scaling"`` with the statement ``scaling``, its ``expected`` verdict and ``assumed``, and ``"wrong_power"``,
    the negative control (statement ``wrong_power``, expected VIOLATED, ``note`` its derivation)."""
    return (
        Variant(ROWS[0], scaling, mode="report", expected=expected, assumed=assumed),
        Variant(ROWS[1], wrong_power, mode="report", expected=Verdict.VIOLATED, role="control", note=note),
    )
