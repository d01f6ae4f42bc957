r"""Empirical constants of ``O(f)``-type target dimensions: the smallest working value of a dimension parameter.

:func:`find_constant` finds the smallest value of a dimension parameter (``r``, ``n``, ``m``, ...) at which the
exact one-sided Clopper--Pearson upper confidence bound on the failure rate (:func:`rpcheck.stats.clopper_pearson`)
is at most the promised ``delta``, and reports the implied constant ``c = r_empirical / f(params)`` of an
``O(f)``-type target dimension (Paul et al. 2014 eqs. (7)--(10), Zhang et al. 2013 Corollary 7, Shi et al.
2012's thresholds on ``n``). It runs in two phases, each its own function so that each can be read and tested
alone:

- :func:`grid_phase`: a geometric grid ``start * grid_factor**k`` from ``start``, down while values pass and up
  while they do not, until the first change brackets the threshold (or the range / budget ends);
- :func:`bisection_phase`: geometric bisection between the largest value that did not pass and the smallest
  that passed.

Both phases see the cell only through a ``passes(value)`` callable; :func:`find_constant` builds it (one
runner cell per value, Bonferroni-corrected confidence) and assembles the :class:`ConstantSearchResult`.
The runner's cells are the layer below (``rpcheck.engine.runner.run_cell``); the verdict rules are not used.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from ..stats import clopper_pearson
from .registry import get as _get
from .runner import run_cell

__all__ = ["CellEvaluation", "ConstantSearchResult", "find_constant", "grid_phase", "bisection_phase"]


def _cp_upper(failures, n, confidence):
    """One-sided exact Clopper--Pearson upper bound on a failure rate (1 when ``n = 0``)."""
    return clopper_pearson(failures, n, confidence, "less")[1]


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
    return run_cell(theorem, params, trials=trials, seed=seed, backend=backend, jobs=jobs)


def grid_phase(passes, start, *, grid_factor, grid_steps, min_value, max_value, cast):
    """Phase 1 of :func:`find_constant`: walk a geometric grid from ``start`` until the outcome changes.

    If ``start`` passes, step down (``v / grid_factor``, not below ``min_value``) while values pass; otherwise
    step up (``v * grid_factor``, not above ``max_value``) until one passes. At most ``grid_steps`` values
    after ``start`` are evaluated; the walk also stops when the range is exhausted.

    Parameters
    ----------
    passes : callable(value) -> bool
        Whether the failure rate at ``value`` is certifiably ``<= delta`` (memoised by the caller).
    start : number
    grid_factor : float
        Ratio ``> 1``.
    grid_steps : int
    min_value, max_value : number
    cast : callable
        ``int(round(.))`` for an integer parameter, ``float`` otherwise.

    Returns
    -------
    (lo, hi)
        ``lo`` the largest evaluated value that did not pass, ``hi`` the smallest that passed (either None).

    >>> grid_phase(lambda v: v >= 37, 8, grid_factor=2.0, grid_steps=12, min_value=1, max_value=8 * 2**12,
    ...            cast=lambda v: int(round(v)))
    (32, 64)
    """
    lo, hi = None, None
    v = start
    if passes(v):
        hi = v
        for _ in range(grid_steps):
            nxt = max(cast(v / grid_factor), min_value)
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
    return lo, hi


def bisection_phase(passes, lo, hi, *, bisect_steps, integer, rtol):
    """Phase 2 of :func:`find_constant`: geometric bisection of the bracket ``(lo, hi]``.

    ``lo`` did not pass and ``hi`` passed; each step evaluates the geometric midpoint (rounded, and kept
    strictly inside the bracket, for an integer parameter) and keeps the half whose ends still differ in
    outcome. Stops after ``bisect_steps`` evaluations, when ``hi - lo <= 1`` (integer) or when
    ``hi / lo <= 1 + rtol`` (float). Without a bracket (``lo`` or ``hi`` None) nothing is evaluated.

    Returns
    -------
    (lo, hi)
        The final bracket.

    >>> bisection_phase(lambda v: v >= 37, 32, 64, bisect_steps=8, integer=True, rtol=0.02)
    (36, 37)
    """
    if lo is None or hi is None:
        return lo, hi
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
    return lo, hi


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
    while they do not; :func:`grid_phase`), then bisection (geometric midpoints; :func:`bisection_phase`)
    between the largest failing and the smallest passing value. A value *passes* when the exact one-sided
    Clopper--Pearson upper bound on the failure rate of ``variant``, at the per-test confidence below, is
    ``<= delta``. The implied constant is
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
    th = _get(theorem) if isinstance(theorem, str) else theorem
    spec = dict(th.constant_search or {})
    param = param if param is not None else spec.get("param", "r")
    formula = formula if formula is not None else spec.get("formula")
    variant = _resolve_variant(th, variant if variant is not None else spec.get("variant"))
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
    start, min_value, max_value, integer, cast = _resolve_range(
        params, param, formula, start, min_value, max_value, grid_factor, grid_steps
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
        upper = _cp_upper(failures, n, level)
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

    evals: dict = {}  # value -> CellEvaluation, in evaluation order (dicts keep insertion order)

    def passes(value):
        if value not in evals:
            evals[value] = run(value, per_test, seed)
        return evals[value].passed

    lo, hi = grid_phase(
        passes, start, grid_factor=grid_factor, grid_steps=grid_steps, min_value=min_value,
        max_value=max_value, cast=cast,
    )  # fmt: skip
    lo, hi = bisection_phase(passes, lo, hi, bisect_steps=bisect_steps, integer=integer, rtol=rtol)

    status = "not_found" if hi is None else ("at_minimum" if lo is None else "found")
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
        evaluations=tuple(evals.values()),
        confirmation=confirmation,
        seed=seed,
        confirm_seed=confirm_seed,
        trials=trials,
    )


def _resolve_variant(th, variant):
    if variant is None:
        bound_variants = [v.name for v in th.variants if v.mode == "bound"]
        if not bound_variants:
            raise RpcheckError(
                f"`variant` must be given: theorem {th.id!r} has no variant with mode 'bound'."
            )
        variant = bound_variants[0]
    check_choice("variant", variant, tuple(v.name for v in th.variants))
    return variant


def _resolve_range(params, param, formula, start, min_value, max_value, grid_factor, grid_steps):
    """``(start, min_value, max_value, integer, cast)`` with the defaults of :func:`find_constant`."""
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
    return start, min_value, max_value, integer, cast
