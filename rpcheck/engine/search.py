r"""Counterexample search for deterministic inequalities and empirical-constant search for target dimensions.

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

Empirical constants
-------------------
:func:`find_constant` finds the smallest value of a dimension parameter (``r``, ``n``, ...) at which the
exact Clopper--Pearson upper confidence bound on the failure rate is at most the promised ``delta``
(a geometric grid, then bisection), and reports the implied constant ``c = r_empirical / f(params)`` of an
``O(f)``-type target dimension (Paul et al. 2014 eqs. (7)--(10), Zhang et al. 2013 Corollary 7, Shi et al.
2012's thresholds on ``n``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats as _sps

from .._rng import as_generator
from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError, SolverError

__all__ = [
    "SearchResult",
    "hill_climb",
    "random_search",
    "hypothesis_search",
    "merge_results",
    "CellEvaluation",
    "ConstantSearchResult",
    "find_constant",
    "cp_upper",
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


# ======================================================================================= constants
def cp_upper(failures, n, confidence):
    r"""One-sided exact Clopper--Pearson upper confidence bound on a binomial proportion.

    ``P(p <= cp_upper(k, n, c)) >= c`` for every true ``p``; equals ``Beta.ppf(c, k + 1, n - k)``
    (1 when ``k = n``), computed by :func:`scipy.stats.binomtest` ``(alternative="less")``.

    >>> round(cp_upper(0, 59, 0.95), 4)   # the "rule of three" regime: 1 - 0.05**(1/59)
    0.0495
    """
    if n == 0:
        return 1.0
    ci = _sps.binomtest(int(failures), int(n), alternative="less").proportion_ci(
        confidence_level=confidence, method="exact"
    )
    return float(ci.high)


@dataclass(frozen=True)
class CellEvaluation:
    """One evaluated value of the searched parameter.

    ``failures`` counts failed trials plus (with ``vacuous="failure"``) vacuous ones, out of ``n`` trials
    that were not solver errors; ``upper`` is the one-sided Clopper--Pearson bound at the per-test
    confidence; ``passed`` is ``upper <= delta``. ``note`` explains a cell that was not run (vacuous cell).
    """

    value: float
    trials: int
    failures: int
    n: int
    solver_errors: int
    upper: float
    passed: bool
    seconds: float = 0.0
    note: str = ""


@dataclass(frozen=True)
class ConstantSearchResult:
    """The outcome of :func:`find_constant`.

    Attributes
    ----------
    theorem, variant, param : str
    delta : float
        Target failure probability.
    confidence : float
        Family-wise confidence of the search (every evaluation's bound covers simultaneously with at least
        this probability); ``per_test_confidence = 1 - (1 - confidence) / max_evaluations``.
    per_test_confidence : float
    value : float or int or None
        The empirical threshold ``r_empirical``: the smallest evaluated value whose upper bound is
        ``<= delta`` (None when none passed).
    status : str
        "found" (bracketed: the value below it did not pass), "at_minimum" (the smallest allowed value
        passed), "not_found" (no value up to ``max_value`` / the grid budget passed).
    bracket : (lower, upper)
        ``lower`` is the largest evaluated value that did not pass (None if none), ``upper`` = ``value``.
    formula_value : float or None
        ``f(params)`` from the formula.
    implied_constant : float or None
        ``value / formula_value``.
    evaluations : tuple of CellEvaluation
        In evaluation order.
    confirmation : CellEvaluation or None
        ``value`` re-tested on a fresh root seed at confidence ``confidence`` (``confirm=True``).
    seed, confirm_seed, trials : int
    """

    theorem: str
    variant: str
    param: str
    delta: float
    confidence: float
    per_test_confidence: float
    value: Any
    status: str
    bracket: tuple
    formula_value: float | None
    implied_constant: float | None
    evaluations: tuple = field(repr=False)
    confirmation: CellEvaluation | None = None
    seed: int = 0
    confirm_seed: int | None = None
    trials: int = 0

    @property
    def confirmed(self) -> bool | None:
        """Whether the fresh-seed re-test also passed (None when not run)."""
        return None if self.confirmation is None else self.confirmation.passed

    def to_frame(self):
        """The evaluations as a pandas DataFrame (one row per evaluated value, in evaluation order)."""
        import pandas as pd

        rows = [dict(vars(e), stage="search") for e in self.evaluations]
        if self.confirmation is not None:
            rows.append(dict(vars(self.confirmation), stage="confirm"))
        return pd.DataFrame(rows)


def _default_evaluate(theorem, params, *, trials, seed, backend, jobs):
    from .runner import run_cell

    return run_cell(theorem, params, trials=trials, seed=seed, backend=backend, jobs=jobs)


def find_constant(
    theorem,
    params,
    *,
    param=None,
    formula=None,
    variant=None,
    delta=None,
    trials=200,
    seed=0,
    start=None,
    min_value=None,
    max_value=None,
    grid_factor=2.0,
    grid_steps=12,
    bisect_steps=8,
    rtol=0.02,
    confidence=0.95,
    vacuous="failure",
    confirm=True,
    backend="serial",
    jobs=None,
    evaluate=None,
):
    r"""Smallest value of a dimension parameter at which the claim's failure rate is certifiably <= delta.

    Searches ``param`` (default ``theorem.constant_search["param"]``, e.g. ``"r"``) with all other
    parameters fixed at ``params``: a geometric grid ``start * grid_factor**k`` (down while cells pass, up
    while they do not), then bisection (geometric midpoints) between the largest failing and the smallest
    passing value. A value *passes* when the exact one-sided Clopper--Pearson upper bound on the failure
    rate of ``variant``, at the per-test confidence below, is ``<= delta``. The implied constant is
    ``c = r_empirical / f(params)`` with ``f = formula`` (default ``theorem.constant_search["formula"]``).

    Parameters
    ----------
    theorem : Theorem or str
    params : dict
        The cell's parameters; ``params[param]`` (if present) is the default ``start``.
    param : str, optional
        Default ``theorem.constant_search["param"]``, else ``"r"``.
    formula : callable(params) -> float, optional
        ``f(rho, eps, delta, d, ...)``: the target dimension *without* its unknown constant (then ``c`` is
        the empirical constant) or the printed formula with its constant (then ``c`` is the factor by which
        the printed dimension is larger than needed, ``c < 1``, or insufficient, ``c > 1``).
    variant : str, optional
        Default ``theorem.constant_search["variant"]``, else the first variant with mode "bound".
    delta : float, optional
        Target failure probability; default the variant's promised failure probability at ``params``.
    trials : int, default=200
        Trials per evaluated value. Must be large enough that 0 failures can pass:
        ``trials >= log(1 - per_test_confidence) / log(1 - delta)`` (checked, with the number in the error).
    seed : int, default=0
        Root seed of the runner (each value of ``param`` has its own independent streams).
    start : number, optional
        First grid value; default ``params[param]``, else ``ceil(formula(params))``.
    min_value, max_value : number, optional
        Range of the search; default ``[1, start * grid_factor**grid_steps]``.
    grid_factor : float, default=2.0
        Ratio of the geometric grid, ``> 1``.
    grid_steps, bisect_steps : int, default=12, 8
        Budgets of the two phases; at most ``1 + grid_steps + bisect_steps`` cells are evaluated.
    rtol : float, default=0.02
        Bisection stops when ``upper / lower <= 1 + rtol`` (float parameters) or ``upper - lower <= 1``
        (integer parameters, the type of ``start``).
    confidence : float, default=0.95
        Family-wise confidence of the whole search (see Notes).
    vacuous : {"failure", "exclude"}, default="failure"
        How vacuous trials count: as failures (the promise is not delivered at this value; the default)
        or not at all.
    confirm : bool, default=True
        Re-test the found value with a fresh root seed.
    backend, jobs
        Passed to the runner.
    evaluate : callable, optional
        ``evaluate(theorem, params, *, trials, seed, backend, jobs)`` returning an object with
        ``.variants[variant].failures / .evaluated / .vacuous_trials`` and ``.trials``, ``.solver_errors``
        (a :class:`rpcheck.results.CellOutcome`). Default :func:`rpcheck.engine.runner.run_cell`; tests
        inject a synthetic evaluator.

    Returns
    -------
    ConstantSearchResult

    Notes
    -----
    **Multiple testing.** Choosing ``r`` as the smallest value that passes among several tested values is
    optimistically biased: each pass is a test at level ``1 - confidence``, and the chance that *some*
    value with true failure probability above ``delta`` passes grows with the number of values tried (the
    minimum of noisy thresholds is pulled down). This function controls it by a Bonferroni correction over
    the evaluation budget: every cell is tested at ``per_test_confidence = 1 - (1 - confidence) / K`` with
    ``K = 1 + grid_steps + bisect_steps``. Each cell uses fresh independent randomness (distinct runner
    spawn keys), so even though the values are chosen adaptively, by the union bound all evaluated upper
    bounds cover their true failure probabilities simultaneously with probability ``>= confidence``; in
    particular ``P(failure probability at the reported value > delta) <= 1 - confidence``, without any
    monotonicity assumption. Monotonicity of the failure probability in ``param`` is assumed only for the
    reported value to be (close to) the *smallest* such value, and a value below it that did not pass is
    not evidence that it fails (it may be inconclusive). In addition, with ``confirm=True`` the reported
    value is re-tested on a fresh root seed at confidence ``confidence`` (an independent replication,
    reported as ``confirmation``; its outcome is not used to choose the value). The empirical threshold is
    conservative in the other direction: the upper bound must fall below ``delta``, so the true failure
    probability at the reported value is typically well below ``delta``.
    """
    from .registry import get as _get

    th = _get(theorem) if isinstance(theorem, str) else theorem
    spec = dict(th.constant_search or {})
    param = param if param is not None else spec.get("param", "r")
    formula = formula if formula is not None else spec.get("formula")
    if variant is None:
        variant = spec.get("variant")
    if variant is None:
        bound_variants = [v.name for v in th.variants if v.mode == "bound"]
        if not bound_variants:
            raise RpcheckError(
                f"`variant` must be given: theorem {th.id!r} has no variant with mode 'bound'."
            )
        variant = bound_variants[0]
    check_choice("variant", variant, tuple(v.name for v in th.variants))
    params = dict(params)
    if delta is None:
        delta = th.variant(variant).delta_for(params)
        if delta is None:
            raise RpcheckError(f"`delta` must be given: variant {variant!r} promises no failure probability.")
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    trials = check_int("trials", trials, 1)
    seed = check_int("seed", seed, 0)
    grid_factor = check_interval("grid_factor", grid_factor, 1, None, closed="neither")
    grid_steps = check_int("grid_steps", grid_steps, 0)
    bisect_steps = check_int("bisect_steps", bisect_steps, 0)
    rtol = check_interval("rtol", rtol, 0, None, closed="neither")
    confidence = check_interval("confidence", confidence, 0, 1, closed="neither")
    check_choice("vacuous", vacuous, ("failure", "exclude"))
    evaluate = _default_evaluate if evaluate is None else evaluate

    if start is None:
        if param in params:
            start = params[param]
        elif formula is not None:
            start = int(math.ceil(formula(params)))
        else:
            raise RpcheckError(f"`start` must be given: params has no {param!r} and there is no formula.")
    integer = isinstance(start, int | np.integer) and not isinstance(start, bool)
    cast = (lambda v: int(round(v))) if integer else float
    start = cast(start)
    if min_value is None:
        min_value = 1 if integer else start / grid_factor**grid_steps
    if max_value is None:
        max_value = start * grid_factor**grid_steps
    min_value, max_value = cast(min_value), cast(max_value)
    if not (0 < min_value <= start <= max_value):
        raise RpcheckError(
            f"need 0 < min_value <= start <= max_value; got min_value={min_value}, start={start}, "
            f"max_value={max_value}."
        )

    budget = 1 + grid_steps + bisect_steps
    per_test = 1.0 - (1.0 - confidence) / budget
    need = math.ceil(math.log(1.0 - per_test) / math.log1p(-delta))
    if trials < need:
        raise RpcheckError(
            f"`trials` ({trials}) is too small: even 0 failures give an upper bound above delta={delta} at "
            f"the per-test confidence {per_test:.6g} (family-wise {confidence} over {budget} evaluations); "
            f"need trials >= {need}."
        )

    evals: dict = {}
    order: list = []

    def run(value, level, run_seed):
        cell = dict(params)
        cell[param] = value
        t0 = time.perf_counter()
        reason = th.vacuous_reason(cell)
        if reason:
            return CellEvaluation(value, 0, 0, 0, 0, 1.0, False, 0.0, f"vacuous cell: {reason}")
        out = evaluate(th, cell, trials=trials, seed=run_seed, backend=backend, jobs=jobs)
        vc = out.variants[variant]
        failures = vc.failures + (vc.vacuous_trials if vacuous == "failure" else 0)
        n = vc.evaluated + (vc.vacuous_trials if vacuous == "failure" else 0)
        upper = cp_upper(failures, n, level)
        return CellEvaluation(
            value,
            int(out.trials),
            int(failures),
            int(n),
            int(out.solver_errors),
            upper,
            bool(upper <= delta),
            time.perf_counter() - t0,
        )

    def passes(value):
        if value not in evals:
            evals[value] = run(value, per_test, seed)
            order.append(value)
        return evals[value].passed

    # ---- geometric grid
    lo, hi = None, None  # largest failing, smallest passing
    v = start
    if passes(v):
        hi = v
        for _ in range(grid_steps):
            nxt = cast(v / grid_factor)
            nxt = max(nxt, min_value)
            if nxt >= v:
                break
            v = nxt
            if passes(v):
                hi = v
            else:
                lo = v
                break
    else:
        lo = v
        for _ in range(grid_steps):
            nxt = min(cast(v * grid_factor), max_value)
            if nxt <= v:
                break
            v = nxt
            if passes(v):
                hi = v
                break
            lo = v

    # ---- bisection between lo (did not pass) and hi (passed)
    if lo is not None and hi is not None:
        for _ in range(bisect_steps):
            if integer:
                if hi - lo <= 1:
                    break
                mid = int(round(math.sqrt(lo * hi)))
                mid = min(max(mid, lo + 1), hi - 1)
            else:
                if hi / lo <= 1 + rtol:
                    break
                mid = math.sqrt(lo * hi)
            if passes(mid):
                hi = mid
            else:
                lo = mid

    if hi is None:
        status = "not_found"
    elif lo is None:
        status = "at_minimum"
    else:
        status = "found"
    formula_value = None if formula is None else float(formula(params))
    implied = None if (hi is None or not formula_value) else float(hi) / formula_value
    confirmation, confirm_seed = None, None
    if confirm and hi is not None:
        confirm_seed = int(np.random.SeedSequence([seed, 0x5EED]).generate_state(1)[0])
        confirmation = run(hi, confidence, confirm_seed)
    return ConstantSearchResult(
        theorem=th.id,
        variant=variant,
        param=param,
        delta=delta,
        confidence=confidence,
        per_test_confidence=per_test,
        value=hi,
        status=status,
        bracket=(lo, hi),
        formula_value=formula_value,
        implied_constant=implied,
        evaluations=tuple(evals[v] for v in order),
        confirmation=confirmation,
        seed=seed,
        confirm_seed=confirm_seed,
        trials=trials,
    )
