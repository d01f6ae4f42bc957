r"""Counterexample search for deterministic inequalities.

Counterexample search
---------------------
A deterministic claim ``statistic <= bound`` is refuted by an instance with negative *slack*
``bound - statistic`` (beyond the checker's stated tolerance, which the checker folds into its slack).
Three bounded minimisers of a slack function are provided, all returning a frozen :class:`SearchResult`
(worst slack found, the instance attaining it, how many instances were tried):

- :func:`hill_climb`: a (1+1) evolution strategy over a real vector parametrising an instance;
- :func:`random_search`: independent instances from a sampler;
- :func:`hypothesis_search`: hypothesis's generation, :func:`hypothesis.target`-guided search and
  shrinking over any strategy (e.g. :mod:`rpcheck.strategies`).

:func:`hill_climb` and :func:`random_search` are pure functions of their ``rng``: a checker calls them
inside one trial of a ``"search"``-mode variant (one trial = one bounded restart), and the runner's per-trial
seed replays the restart exactly. Every search stops after a stated number of objective evaluations; none
loops until it finds something.

The empirical-constant search (``find_constant``) lives in :mod:`rpcheck.engine.constant`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._rng import as_generator
from .._validation import check_int, check_interval
from ..errors import RpcheckError, SolverError

__all__ = [
    "SearchResult",
    "hill_climb",
    "random_search",
    "hypothesis_search",
    "merge_results",
    "TRACE_LIMIT",
]

#: At most this many improvements are kept in ``SearchResult.trace`` (the first TRACE_LIMIT // 2 and the
#: last TRACE_LIMIT // 2), so a result stays small whatever the budget.
TRACE_LIMIT = 64


# ======================================================================================= counterexamples
@dataclass(frozen=True, eq=False)
class SearchResult:
    """The outcome of a bounded counterexample search (minimisation of a slack function).

    Attributes
    ----------
    worst_slack : float
        Smallest finite slack ``bound - statistic`` found (``inf`` when no evaluation succeeded).
        Negative means a counterexample.
    worst_instance : object
        The instance attaining ``worst_slack`` (a vector for :func:`hill_climb`, whatever the sampler or
        strategy produced otherwise); None when no evaluation succeeded.
    tried : int
        Objective evaluations attempted (including failed ones).
    errors : int
        Evaluations that raised :class:`rpcheck.errors.SolverError` or returned a non-finite slack; they
        are never counted as counterexamples.
    improvements : int
        How many times the best slack improved.
    trace : tuple of (int, float)
        ``(evaluation index, best slack)`` at improvements (at most ``TRACE_LIMIT`` entries).
    method : str
        "hill_climb", "random_search", "hypothesis" or "merged".
    stopped : str
        Why the search ended: "budget" (all evaluations used), "step_size" (hill climb converged),
        "target" (slack below ``stop_below``), "counterexample" (hypothesis found and shrank one).
    shrunk_instance : object
        :func:`hypothesis_search` only: the counterexample after hypothesis's shrinking (the simplest
        instance with slack below the threshold, whose slack is ``shrunk_slack``); None otherwise.
    shrunk_slack : float

    Instances are arbitrary objects (often arrays), so results compare by identity (``eq=False``);
    compare fields explicitly.
    """

    worst_slack: float
    worst_instance: Any = field(repr=False)
    tried: int
    errors: int = 0
    improvements: int = 0
    trace: tuple = field(default=(), repr=False)
    method: str = ""
    stopped: str = "budget"
    shrunk_instance: Any = field(default=None, repr=False)
    shrunk_slack: float = math.nan

    @property
    def counterexample(self) -> bool:
        """True when an instance with negative slack was found."""
        return self.worst_slack < 0


def _thin_trace(trace):
    if len(trace) <= TRACE_LIMIT:
        return tuple(trace)
    h = TRACE_LIMIT // 2
    return tuple(trace[:h]) + tuple(trace[-h:])


class _Tracker:
    """Running minimum of slack evaluations (shared by every search)."""

    def __init__(self, objective):
        self.objective = objective
        self.best = math.inf
        self.best_instance = None
        self.tried = 0
        self.errors = 0
        self.improvements = 0
        self.trace = []

    def __call__(self, instance):
        i = self.tried
        self.tried += 1
        try:
            value = float(self.objective(instance))
        except SolverError:
            self.errors += 1
            return math.inf
        if not math.isfinite(value):
            self.errors += 1
            return math.inf
        if value < self.best:
            self.best = value
            self.best_instance = instance
            self.improvements += 1
            self.trace.append((i, value))
        return value

    def result(self, method, stopped, **extra):
        return SearchResult(
            worst_slack=self.best,
            worst_instance=self.best_instance,
            tried=self.tried,
            errors=self.errors,
            improvements=self.improvements,
            trace=_thin_trace(self.trace),
            method=method,
            stopped=stopped,
            **extra,
        )


def hill_climb(
    objective,
    x0,
    *,
    rng=None,
    steps=200,
    step_size=0.1,
    shrink=0.5,
    grow=1.5,
    patience=10,
    min_step=1e-9,
    stop_below=None,
):
    r"""Minimise a slack function over a real vector by a bounded (1+1) evolution strategy.

    From the incumbent ``x`` propose ``x + step * z`` with ``z ~ N(0, I)``; accept when the slack
    decreases (then ``step *= grow``); after ``patience`` consecutive rejections ``step *= shrink``.

    Parameters
    ----------
    objective : callable(ndarray) -> float
        The slack ``bound - statistic`` of the instance parametrised by the vector (negative = violation).
        Raising :class:`rpcheck.errors.SolverError` or returning a non-finite value counts as an error
        (the proposal is rejected), never as a counterexample.
    x0 : array_like of float
        Starting vector (draw it from ``rng`` for a random restart).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7). The result is a pure function of ``rng``,
        ``x0`` and ``objective``.
    steps : int, default=200
        Maximum number of objective evaluations, including the one at ``x0``. Never exceeded.
    step_size : float, default=0.1
        Initial standard deviation of the proposals.
    shrink : float, default=0.5
        Factor in ``(0, 1)`` applied to the step after ``patience`` consecutive rejections.
    grow : float, default=1.5
        Factor ``>= 1`` applied to the step after an accepted proposal.
    patience : int, default=10
    min_step : float, default=1e-9
        Stop (``stopped="step_size"``) once the step falls below this.
    stop_below : float, optional
        Stop (``stopped="target"``) as soon as a slack below this value is found (e.g. ``0.0`` to stop at
        the first counterexample).

    Returns
    -------
    SearchResult
        ``worst_instance`` is the best vector (a copy).

    Examples
    --------
    >>> res = hill_climb(lambda x: float(np.sum((x - 3.0) ** 2)), np.zeros(2), rng=0, steps=300)
    >>> bool(res.worst_slack < 1e-6), res.tried <= 300
    (True, True)
    """
    rng = as_generator(rng)
    steps = check_int("steps", steps, 1)
    step = check_interval("step_size", step_size, 0, None, closed="neither")
    shrink = check_interval("shrink", shrink, 0, 1, closed="neither")
    grow = check_interval("grow", grow, 1, None)
    patience = check_int("patience", patience, 1)
    min_step = check_interval("min_step", min_step, 0, None)
    x = np.array(x0, dtype=float, copy=True)
    if x.ndim != 1 or x.size == 0 or not np.all(np.isfinite(x)):
        raise RpcheckError(f"`x0` must be a non-empty finite 1-dimensional vector; got shape {x.shape}.")
    track = _Tracker(objective)
    fx = track(x.copy())
    stopped = "budget"
    fails = 0
    while track.tried < steps:
        if stop_below is not None and track.best < stop_below:
            stopped = "target"
            break
        if step < min_step:
            stopped = "step_size"
            break
        cand = x + step * rng.standard_normal(x.size)
        fc = track(cand.copy())
        if fc < fx:
            x, fx = cand, fc
            step *= grow
            fails = 0
        else:
            fails += 1
            if fails >= patience:
                step *= shrink
                fails = 0
    else:
        if stop_below is not None and track.best < stop_below:
            stopped = "target"
    return track.result("hill_climb", stopped)


def random_search(objective, sampler, *, n, rng=None, stop_below=None):
    """Evaluate the slack of ``n`` independent instances ``sampler(rng)`` and keep the worst.

    Parameters
    ----------
    objective : callable(instance) -> float
        Slack (negative = violation); SolverError / non-finite values count as errors.
    sampler : callable(numpy.random.Generator) -> instance
        Draws one instance, using only the generator it is given (e.g. a function of
        :mod:`rpcheck.generators`).
    n : int
        Number of instances (the exact budget).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7); the result is a pure function of it.
    stop_below : float, optional
        Stop early once a slack below this value is found.

    Returns
    -------
    SearchResult
    """
    rng = as_generator(rng)
    n = check_int("n", n, 1)
    track = _Tracker(objective)
    stopped = "budget"
    for _ in range(n):
        track(sampler(rng))
        if stop_below is not None and track.best < stop_below:
            stopped = "target"
            break
    return track.result("random_search", stopped)


class _Found(Exception):
    """Raised inside the hypothesis test to mark a counterexample (so hypothesis shrinks it)."""


def hypothesis_search(objective, strategy, *, max_examples=200, seed=0, threshold=0.0, shrink=True):
    r"""Minimise a slack over a hypothesis strategy with :func:`hypothesis.target`, then shrink.

    Every example's slack is reported to hypothesis as ``target(-slack, label="slack")``, so the
    generate and *target* phases (hypothesis's own hill climbing on the choice sequence) push towards
    small slack. When an example has slack below ``threshold`` it is a counterexample: the test fails and,
    with ``shrink=True``, hypothesis shrinks it to the simplest example that still has slack below
    ``threshold`` (reported as ``shrunk_instance``), as :func:`hypothesis.find` does.

    Parameters
    ----------
    objective : callable(example) -> float
        Slack of an example (negative = violation). SolverError / non-finite: counted as an error.
    strategy : hypothesis.strategies.SearchStrategy
    max_examples : int, default=200
        Hypothesis's example budget (``settings.max_examples``). Shrinking adds evaluations (hypothesis
        bounds them internally); ``tried`` reports the total.
    seed : int, default=0
        Passed to :func:`hypothesis.seed`; with no example database the search is a pure function of it.
    threshold : float or None, default=0.0
        Slack below which an example counts as a counterexample: the search stops at the first one and
        shrinks it. ``None``: pure minimisation, no example fails, the whole budget is spent on generation
        and targeting (use it to measure how small the slack gets, e.g. for an open question).
    shrink : bool, default=True

    Returns
    -------
    SearchResult
        ``worst_slack``/``worst_instance``: the smallest slack seen (during generation, targeting or
        shrinking). ``stopped="counterexample"`` when one was found.

    Notes
    -----
    Runs hypothesis with ``database=None`` (nothing read or written), ``derandomize=False`` plus the
    explicit ``seed``, no deadline, all health checks suppressed and quiet verbosity. Do not call it from
    inside another ``@given`` test (hypothesis does not support nesting).
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
    from hypothesis import seed as hseed
    from hypothesis.strategies import SearchStrategy

    if not isinstance(strategy, SearchStrategy):
        raise RpcheckError(f"`strategy` must be a hypothesis SearchStrategy; got {type(strategy).__name__}.")
    max_examples = check_int("max_examples", max_examples, 1)
    seed = check_int("seed", seed, 0)
    threshold = None if threshold is None else float(threshold)
    track = _Tracker(objective)
    shrunk = []

    phases = [Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])

    @settings(
        max_examples=max_examples,
        database=None,
        derandomize=False,
        deadline=None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )
    @given(strategy)
    def _search(example):
        value = track(example)
        if math.isfinite(value):
            target(-value, label="slack")
            if threshold is not None and value < threshold:
                shrunk[:] = [(example, value)]
                raise _Found

    _search = hseed(seed)(_search)
    stopped = "budget"
    try:
        _search()
    except _Found:
        stopped = "counterexample"
    extra = {}
    if shrunk:
        extra = {"shrunk_instance": shrunk[0][0], "shrunk_slack": shrunk[0][1]}
    return track.result("hypothesis", stopped, **extra)


def merge_results(results):
    """Combine restarts: the worst slack over all, total ``tried`` and ``errors``.

    The merged ``trace`` lists ``(restart index, worst slack of that restart)``.
    """
    results = list(results)
    if not results:
        raise RpcheckError("`results` must contain at least one SearchResult.")
    best = min(results, key=lambda r: r.worst_slack)
    return SearchResult(
        worst_slack=best.worst_slack,
        worst_instance=best.worst_instance,
        tried=sum(r.tried for r in results),
        errors=sum(r.errors for r in results),
        improvements=sum(r.improvements for r in results),
        trace=_thin_trace([(i, r.worst_slack) for i, r in enumerate(results)]),
        method="merged",
        stopped="counterexample" if best.worst_slack < 0 else "budget",
        shrunk_instance=best.shrunk_instance,
        shrunk_slack=best.shrunk_slack,
    )
