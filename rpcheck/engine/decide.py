r"""Deciding: per-row verdicts, the multiple-testing family, attainability and the result tables.

Verdicts and the multiple-testing family
----------------------------------------
Per (cell, variant), with the rules of :mod:`rpcheck.stats`:

- a cell whose ``theorem.vacuous(params)`` gives a reason, or whose promised failure probability is
  ``>= 1`` (mode "bound"), is VACUOUS; its trials still run, so the report shows the numbers;
- the **family** for multiplicity is every (cell, variant) of the run with mode "bound" or "exact",
  not VACUOUS as above, and with at least one evaluated trial. Holm's procedure at level ``alpha`` runs
  over the family's refutation p-values (VIOLATED decisions: P(any false VIOLATED in the run) <= alpha)
  and, separately, over the support p-values of its "bound" members (HOLDS decisions: P(any false
  HOLDS in the run) <= alpha). A run over several theorems therefore uses a larger family (more
  conservative levels) than a run over one theorem;
- columns: for a "bound" row, ``ci_low`` is the one-sided lower Clopper--Pearson bound at confidence
  ``1 - alpha_adjusted`` and ``ci_high`` the one-sided upper bound at ``1 - alpha_adjusted_holds``, so
  VIOLATED iff ``ci_low > promised`` and HOLDS iff ``ci_high <= promised``; ``confidence_level`` is
  ``1 - alpha_adjusted - alpha_adjusted_holds`` (the union bound). ``pvalue`` is the refutation p-value
  ``P_delta(X >= failures)``, ``pvalue_holds`` the support p-value ``P_delta(X <= failures)``. For an
  "exact" row, ``[ci_low, ci_high]`` is the two-sided interval at ``1 - alpha_adjusted`` and ``pvalue``
  the central two-sided p-value (VIOLATED iff the exact probability lies outside the interval);
- "deterministic", "search" and "report" rows are outside the family (no sampling error: a VIOLATED is a
  concrete replayable trial). Their ``ci_low``/``ci_high`` are descriptive two-sided Clopper--Pearson
  bounds at confidence ``1 - alpha``.

A declared expected verdict that a row's counts cannot attain whatever the outcomes becomes INCONCLUSIVE,
with the reason (:func:`_attainability`).

Sequential stopping (``sequential=True``)
-----------------------------------------
Each cell is looked at after ``ceil(k N / K)`` trials, ``k = 1..K`` (``K =``
:data:`rpcheck.engine.plan.SEQUENTIAL_LOOKS`). At every look each test of the family is run at the Bonferroni
level ``alpha / (m K)`` (``m`` = number of family members, fixed before the run from the cells' modes and
vacuity: :func:`rpcheck.engine.plan.make_plan`); a cell stops as soon as every variant is settled
(:func:`_settled`; bound: HOLDS or VIOLATED; exact: VIOLATED; deterministic/search: a counterexample found;
VACUOUS cells after the first look; "report" cells never stop early). By the union bound over the ``m``
members and ``K`` looks, P(any false VIOLATED) <= alpha and P(any false HOLDS) <= alpha still hold,
whatever the stopping times. Holm is not applied in this mode (its levels depend on all final p-values).

Anytime-valid stopping (``stopping="anytime"``, the default of the CLI and the pytest plugin)
---------------------------------------------------------------------------------------------
Each cell is looked at after ``ceil(k N / K)`` trials, ``k = 1..K`` (``K =``
:data:`rpcheck.engine.plan.ANYTIME_LOOKS`; fixed trial counts, so results do not depend on the backend or the
chunking). At a look a statistical row is decided by :func:`rpcheck.stats.decide_sequential`: VIOLATED (HOLDS)
when its refutation (support) e-value reaches ``m / (s alpha)``, with ``s =``
:data:`rpcheck.engine.plan.ANYTIME_SHARE` and ``m`` the family size fixed before the run. The e-values are
nonnegative supermartingales under their nulls (:mod:`rpcheck.stats`, "Anytime-valid sequential rules"), so by
Ville's inequality and the union bound over the ``m`` rows, P(any false e-decision) <= ``s alpha`` whatever the
looks and stopping times. A deterministic row is decided by a counterexample or by HOLDS (its first
``DETERMINISTIC_MIN_DRAWS`` evaluated draws clean, an event whose probability does not depend on when the run
stops); a measurement never holds its cell back; a "report" row with a verdict rule sees every trial. A cell
stops at the first look where all its rows are decided (:func:`_settled`).

At the end every row is decided at its last look: an e-decision stands; the statistical rows of cells that ran
every planned trial and that no e-value decided enter Holm's procedures at ``(1 - s) alpha``, every other
family row with p-value 1 (a p-value at least the fixed-n one of the full run, so still valid). By the union
bound, P(any false VIOLATED) <= alpha and P(any false HOLDS) <= alpha in the run. ``stopping="until-decided"``
uses the e-values alone at ``s = 1`` and doubles a cell's trials while some row is undecided (its trial counts
are not fixed in advance, so it has no Holm part). A time budget (``budget``) ends the scheduling of new
trials: a cut cell is decided at the trials it has, by the e-values only, and its undecided rows say so.
"""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from .. import stats as _stats
from ..errors import RpcheckError
from ..stats import STAT_MODES
from . import loading as _results
from ._worker import _jsonable
from .aggregate import _counts
from .loading import CELL_COLUMNS, CELL_EXTRA_COLUMNS
from .plan import RunSettings, _Cell, _family_size, _VariantSpec
from .theorem import Outcome, TrialRecord, Verdict


def _settled(cell, settings):
    """Whether every variant of the cell is decided at this look (a sequential run), by the same decision
    functions as the final tabulation: "looks", each non-vacuous row's :func:`rpcheck.stats.decide` says
    ``stops`` at the per-look Bonferroni levels; "anytime", each row's :func:`rpcheck.stats.decide_sequential`
    at the e-Bonferroni levels says ``stops``, a deterministic row is settled by a counterexample or by its
    HOLDS (``DETERMINISTIC_MIN_DRAWS`` clean draws), and a measurement (a row without a verdict rule) never
    holds its cell back. "report" rows with a verdict rule see every trial: their cells run to the end."""
    return open_rows(cell, settings, first=True) == 0


def open_rows(cell, settings, *, first=False):
    """The number of the cell's rows that are not settled at this look (:func:`_settled`'s rule, row by row);
    with ``first``, stop counting at the first one (0 or 1). A budgeted run schedules by it."""
    if cell.vacuous_reason:
        return 0
    levels = settings.seq_levels
    n_open = 0
    for spec in cell.specs:
        if spec.vacuous_reason:
            continue
        v = spec.variant
        if v.mode == "report":
            if settings.anytime and v.role == "measurement":
                continue
            n_open += 1
        else:
            decide = _stats.decide_sequential if settings.anytime else _stats.decide
            d = decide(v.mode, _counts(cell, spec.index), spec.delta, alpha_violated=levels["v"],
                       alpha_holds=levels["h"], exhaustive=v.exhaustive)
            if (settings.anytime and v.mode == "deterministic" and d.verdict is Verdict.HOLDS) or d.stops:
                continue
            n_open += 1
        if first:
            return n_open
    return n_open


def _quantiles(x, qs):
    """Linear-interpolation quantiles (NumPy's default method) of the non-NaN values of ``x``, with infinite
    values allowed: between two order statistics the value is the interpolation's limit (``-inf`` next to a
    ``-inf``, ``+inf`` next to a ``+inf``, undefined NaN only between ``-inf`` and ``+inf``), where
    :func:`numpy.quantile` returns NaN with a RuntimeWarning (a search's statistic is ``-inf`` when it found no
    admissible instance).

    >>> _quantiles(np.array([-np.inf, -np.inf, 0.5, 0.75, 1.0, np.nan]), [0.05, 0.5, 0.9])
    [-inf, 0.5, 0.9]
    """
    x = np.sort(x[~np.isnan(x)])
    if x.size == 0:
        return [math.nan] * len(qs)
    pos = np.asarray(qs, float) * (x.size - 1)
    lo = np.floor(pos).astype(int)
    t = pos - lo
    a, b = x[lo], x[np.minimum(lo + 1, x.size - 1)]
    with np.errstate(invalid="ignore"):
        v = np.where(t == 0, a, a + (b - a) * t)
    v = np.where(np.isneginf(a) & (b < np.inf), -np.inf, v)
    v = np.where(np.isposinf(b) & (a > -np.inf) & (t > 0), np.inf, v)
    return [float(u) for u in v]


class _HookOutcomes(Mapping):
    """The ``outcomes`` of a trial record given to a decide hook: variant name -> :class:`Outcome`, built
    on access from the stored fields (a hook typically reads one or two of a theorem's variants, so most
    are never built). ``fields[j]`` is variant ``j``'s ``(holds, statistic, bound, vacuous, undetermined)``
    or a callable ``fields(j)`` returning it."""

    __slots__ = ("_index", "_get")

    def __init__(self, index, get):
        self._index, self._get = index, get

    def __getitem__(self, name):
        return Outcome(*self._get(self._index[name]))

    def __iter__(self):
        return iter(self._index)

    def __len__(self):
        return len(self._index)

    def __repr__(self):
        return repr(dict(self))


def _record(index, get, diagnostics):
    rec = object.__new__(TrialRecord)  # the fields were validated when the trial ran
    object.__setattr__(rec, "outcomes", _HookOutcomes(index, get))
    object.__setattr__(rec, "diagnostics", diagnostics)
    object.__setattr__(rec, "artifacts", {})
    return rec


def _hook_records(cell, store, seed):
    """Every ok trial of a report cell (index ``< target``, by index) as :class:`TrialRecord`, read back from
    the chunk files' columns: the parent holds one report cell's records at a time, only while its hook
    runs. Outcomes are built when the hook reads them (:class:`_HookOutcomes`)."""
    was = gc.isenabled()
    gc.disable()  # tens of thousands of small acyclic objects: the cyclic collector only costs time here
    try:
        return _hook_records_built(cell, store, seed)
    finally:
        if was:
            gc.enable()


def _hook_records_built(cell, store, seed):
    th = cell.theorem
    names = th.variant_names
    index = {k: j for j, k in enumerate(names)}
    found = {}
    if store is not None:
        for _, _, chunk in store.iter_chunks(th.id, cell.canonical, seed, names, columns=True):
            idx, status, _err, _sec, cols, dnames, dv, dp = chunk
            h, st, b, v, u = cols
            for t, i in enumerate(idx):
                if i < cell.target and status[t] == "ok":
                    row = (h[t], st[t], b[t], v[t], u[t])
                    diag = {k: dv[t][m] for m, k in enumerate(dnames) if dp[t][m]}
                    found[i] = (row, diag)
        getter = _column_getter
    else:
        found = {r.i: (r.outcomes, dict(r.diagnostics)) for r in cell.agg.sample_records(cell.target) if r.ok}
        getter = _row_getter
    return [_record(index, getter(found[i][0]), found[i][1]) for i in sorted(found)]


def _column_getter(row):
    h, s, b, v, u = row
    return lambda j: (h[j], s[j], b[j], v[j], u[j])


def _row_getter(rows):
    return rows.__getitem__


def _decide_hook(th, cell, recs):
    """The theorem's ``decide(records, params)`` of one report cell: called once per cell (every report
    variant of the cell takes its verdict from the same output, :func:`_hook_verdict`)."""
    return th.decide(recs, dict(cell.params))


def _hook_verdict(out, vname):
    """Variant ``vname``'s verdict and a copy of the info from a :func:`_decide_hook` output (None: the
    theorem has no ``decide``)."""
    if out is None:
        return Verdict.INCONCLUSIVE, {}
    verdict, info = out
    if isinstance(verdict, Mapping):
        verdict = verdict.get(vname, Verdict.INCONCLUSIVE)
    return Verdict(verdict), dict(info or {})


@dataclass
class _Row:
    """One (cell, variant) row, built once: counts and descriptive statistics, then (after the Holm levels
    are known) its decision. :meth:`public` is the row of ``RunResult.cells``."""

    cell: _Cell
    spec: _VariantSpec
    counts: _stats.Counts
    attempted: int
    seconds: float
    describe: dict
    worst: int | None  # trial index of the worst certified failure (deterministic/search), for a counterexample
    worst_record: object = None  # its TrialResult
    alpha_v: float = math.nan
    alpha_h: float = math.nan
    pvalue: float = math.nan
    pvalue_holds: float = math.nan
    decision: _stats.Decision | None = None
    decide_info: str = ""
    counterexample: str = ""
    expected: Verdict | None = None  # effective expected verdict (INCONCLUSIVE when the declared is unattainable)
    unattainable: str = ""
    also_expected: Verdict | None = None  # INCONCLUSIVE: needs a favourable Holm level; VACUOUS: all draws vacuous
    anytime: _stats.Decision | None = None  # the anytime-valid decision of a statistical row (stopping="anytime")

    @property
    def in_family(self):
        return self.spec.in_family and self.counts.draws > 0

    def public(self, seed):
        cell, spec, c, d = self.cell, self.spec, self.counts, self.decision
        v = spec.variant
        verdict = d.verdict
        return {
            "theorem": cell.theorem.id,
            "paper": cell.theorem.paper,
            "variant": v.name,
            "mode": v.mode,
            "cell": cell.index,
            "params": cell.canonical,
            **{f"p_{k}": val for k, val in cell.params.items()},
            "trials": self.attempted,
            "evaluated": c.evaluated,
            "failures": c.failures,
            "vacuous_trials": c.vacuous,
            "solver_errors": c.solver_errors,
            "failure_rate": c.failures / c.evaluated if c.evaluated else math.nan,
            "ci_low": d.ci_low,
            "ci_high": d.ci_high,
            "confidence_level": d.confidence_level,
            "promised": math.nan if spec.delta is None else spec.delta,
            "pvalue": self.pvalue,
            "alpha_adjusted": self.alpha_v,
            "verdict": verdict.value,
            "expected": "" if self.expected is None else self.expected.value,
            "as_expected": self.expected is None or verdict is self.expected or verdict is self.also_expected,
            "vacuous_reason": spec.vacuous_reason or "",
            **self.describe,
            "seconds": self.seconds,
            "counterexample": self.counterexample,
            "assumed": "; ".join(v.assumed),
            "pvalue_holds": self.pvalue_holds,
            "alpha_adjusted_holds": self.alpha_h,
            "stopped_early": bool(cell.stopped_early),
            "seed": int(seed),
            "decide_info": self.decide_info,
            "role": v.role,
            "claim": d.claim + (f"; {self.unattainable}" if self.unattainable else ""),
            "undetermined": c.undetermined,
            "expected_declared": "" if spec.expected is None else spec.expected.value,
            "r_prescribed": _prescribed_r(cell.theorem, cell.params),
        }


def _prescribed_r(th, params):
    """The target dimension the theorem's own formula prescribes for this cell, ``ceil(c * f(params))`` with
    ``f`` its ``constant_search`` formula (``param == "r"``) and ``c`` the cell's constant for the O(.) of the
    paper; for the report's "where does it break" plots. NaN when the theorem has no such formula, the cell
    states no constant ``c``, or the formula does not apply to the cell."""
    cs = th.constant_search or {}
    if cs.get("param") != "r" or not callable(cs.get("formula")) or "c" not in params:
        return math.nan
    try:
        v = float(math.ceil(float(params["c"]) * float(cs["formula"](dict(params)))))
    except (ArithmeticError, KeyError, TypeError, ValueError, RpcheckError):
        return math.nan
    return v if math.isfinite(v) and v > 0 else math.nan


def _describe(cell, j, mode):
    """Quantiles of the statistic (over the sampled trials: the first TRIAL_SAMPLE of the cell), its
    maximum and the smallest slack (over all trials), and the worst certified failure of variant ``j``."""
    agg, nb = cell.agg, cell.look + 1
    stat, bound = [], []
    for r in agg.sample_records(cell.target):
        if r.ok and not r.outcomes[j].vacuous:
            stat.append(r.outcomes[j].statistic)
            bound.append(r.outcomes[j].bound)
    q05, q50, q95 = _quantiles(np.asarray(stat, float), [0.05, 0.5, 0.95])
    (b50,) = _quantiles(np.asarray(bound, float), [0.5])
    smax = float(agg.extreme(agg.stat_max, j, nb, max))
    smin = float(agg.extreme(agg.slack_min, j, nb, min))
    worst = agg.worst_failure(j, nb) if mode in ("deterministic", "search") else None
    desc = {"stat_q05": q05, "stat_q50": q50, "stat_q95": q95, "stat_max": smax, "bound_q50": b50, "slack_min": smin}
    return desc, worst


def tabulate(cells, settings: RunSettings, store=None) -> list[_Row]:
    """Build every row once, run the Holm procedures over the families (or, with ``settings.sequential``, take
    the sequential Bonferroni levels), then decide each row with the decision function of its mode
    (:func:`rpcheck.stats.decide`). Report cells' hooks read their trials back from ``store``."""
    alpha, sequential, seq_levels, seed = settings.alpha, settings.sequential, settings.seq_levels, settings.seed
    rows = []
    for cell in cells:
        nb = cell.look + 1
        attempted = int(cell.agg.attempted[:nb].sum())
        seconds = float(sum(cell.agg.seconds[:nb]))
        for spec in cell.specs:
            desc, worst = _describe(cell, spec.index, spec.variant.mode)
            w_i, w_rec = worst if worst is not None else (None, None)
            rows.append(_Row(cell, spec, _counts(cell, spec.index), attempted, seconds, desc, w_i, w_rec))

    fam = [r for r in rows if r.in_family]
    for r in fam:
        r.pvalue, r.pvalue_holds = _stats.pvalues(r.spec.variant.mode, r.counts, r.spec.delta)
    if fam and settings.anytime:
        # e-values at each row's last look, e-Bonferroni at ANYTIME_SHARE * alpha (valid at any stopping
        # time); Holm at the rest of alpha over the undecided rows of cells that ran every planned trial,
        # every other row entering with p = 1 (module docstring, "Anytime-valid stopping")
        for r in fam:
            r.anytime = _stats.decide_sequential(r.spec.variant.mode, r.counts, r.spec.delta,
                                                 alpha_violated=seq_levels["v"], alpha_holds=seq_levels["h"])
        holm = settings.fixed_alpha > 0
        open_ = [holm and r.anytime.verdict is Verdict.INCONCLUSIVE and _at_cap(r.cell) for r in fam]
        level = settings.fixed_alpha if holm else settings.alpha  # no row is open without Holm
        lv = _stats.holm([r.pvalue if o else 1.0 for r, o in zip(fam, open_)], level).levels
        lh = _stats.holm([r.pvalue_holds if o else 1.0 for r, o in zip(fam, open_)], level).levels
        for r, o, a, b in zip(fam, open_, lv, lh):
            if o:
                r.alpha_v, r.alpha_h = float(a), float(b)
            else:
                r.alpha_v, r.alpha_h = seq_levels["v"], seq_levels["h"]
                r.pvalue, r.pvalue_holds = r.anytime.pvalue, r.anytime.pvalue_holds
                r.decision = r.anytime
                if r.cell.budget_cut and r.anytime.verdict is Verdict.INCONCLUSIVE:
                    r.decision = _undecided_by_budget(r, settings)
    elif fam:
        if sequential:
            lv = np.full(len(fam), seq_levels["v"])
            lh = np.full(len(fam), seq_levels["h"])
        else:
            lv = _stats.holm([r.pvalue for r in fam], alpha).levels
            lh = _stats.holm([r.pvalue_holds for r in fam], alpha).levels
        for r, a, b in zip(fam, lv, lh):
            r.alpha_v, r.alpha_h = float(a), float(b)

    hook_cell, hook_out = None, None
    for r in rows:
        v = r.spec.variant
        if r.spec.vacuous_reason:
            r.decision = _stats.Decision(Verdict.VACUOUS, f"vacuous: {r.spec.vacuous_reason}")
        elif v.mode == "report":
            if r.cell is not hook_cell:  # one report cell at a time, its decide hook once
                th = r.cell.theorem
                hook_cell = r.cell
                hook_out = None if th.decide is None else _decide_hook(th, r.cell, _hook_records(r.cell, store, seed))
            verdict, info = _hook_verdict(hook_out, v.name)
            r.decision = _stats.decide_report(verdict, info, role=v.role)
            r.decide_info = json.dumps(_jsonable_info(info), sort_keys=True)
        elif r.in_family:
            if r.decision is None:  # not decided by an anytime-valid e-value (above)
                r.decision = _stats.decide(
                    v.mode, r.counts, r.spec.delta, alpha_violated=r.alpha_v, alpha_holds=r.alpha_h
                )
        else:
            # deterministic/search, or a statistical row with no draw (the decision is then VACUOUS or
            # INCONCLUSIVE whatever the levels)
            r.decision = _stats.decide(
                v.mode, r.counts, r.spec.delta, alpha_violated=alpha, alpha_holds=alpha,
                worst_slack=r.describe["slack_min"], exhaustive=v.exhaustive,
            )  # fmt: skip
        if r.cell.budget_cut and r.decision.verdict is Verdict.INCONCLUSIVE and "time budget" not in r.decision.claim:
            r.decision = replace(r.decision, claim=f"{r.decision.claim}; the time budget ran out first")
        _attainability(r, settings, max(1, len(fam)))
    return rows


def _at_cap(cell):
    """Whether the cell ran every planned trial (not stopped early, not cut by a time budget)."""
    return not cell.stopped_early and not cell.budget_cut and cell.look + 1 >= len(cell.looks)


def _undecided_by_budget(r, settings):
    """The INCONCLUSIVE of a statistical row whose cell the time budget cut, saying what would decide it."""
    need = _stats.trials_to_decide(r.spec.variant.mode, r.counts, r.spec.delta, alpha=settings.seq_levels["v"])
    more = "no number of further draws at the current rate" if math.isinf(need.trials) else (
        f"about {int(need.trials)} more draws at the current rate ({need.verdict.value})")
    return replace(r.anytime, claim=f"{r.anytime.claim}; undecided when the time budget ran out: {more}")


def _attainability(r, settings, m=1):
    """Effective expected verdict of a row (:func:`rpcheck.stats.unattainable`): a declared HOLDS/VIOLATED
    that the row's counts cannot attain whatever the outcomes becomes INCONCLUSIVE, with the reason. The
    level is the largest one the row's test can get: ``alpha`` (Holm), the per-look Bonferroni level
    ("looks"), or the Holm share of an anytime run. A row whose verdict is the declared one has attained it."""
    exp = r.spec.expected
    r.expected = exp
    v = r.spec.variant
    if exp not in (Verdict.HOLDS, Verdict.VIOLATED) or r.spec.vacuous_reason or v.mode == "report":
        return
    if r.decision is not None and r.decision.verdict is exp:
        return
    sequential = settings.stopping == "looks"
    alpha = settings.fixed_alpha
    if sequential:
        level = settings.seq_levels["h"] if exp is Verdict.HOLDS else settings.seq_levels["v"]
    else:
        level = alpha
    draws = r.counts.evaluated if v.mode == "deterministic" else r.counts.draws
    why = _stats.unattainable(v.mode, exp, draws, r.spec.delta, level=level, exhaustive=v.exhaustive)
    if why:
        r.expected = Verdict.INCONCLUSIVE
        r.unattainable = why
        if exp is Verdict.HOLDS and draws == 0 and r.counts.vacuous > 0:
            # Every draw was vacuous (the theorem's hypothesis, e.g. eps < 1/2, failed in each one): the row has
            # no evidence either way, which the decision rule names VACUOUS rather than INCONCLUSIVE. Both are
            # the "no verdict" a HOLDS with zero evaluated draws can give; a failure is never excused.
            r.also_expected = Verdict.VACUOUS
            r.unattainable = f"{why}; every draw vacuous: VACUOUS also as expected"
        return
    if v.mode in STAT_MODES and not sequential and m > 1:
        # Holm's level for this row lies between alpha/m and alpha and depends on the other rows' p-values.
        # If even the best counts cannot reach the verdict at the smallest level alpha/m, reaching it depends
        # on the rest of the family: the expected verdict and INCONCLUSIVE are then both as expected (the
        # opposite verdict never is).
        low = _stats.unattainable(v.mode, exp, draws, r.spec.delta, level=alpha / m, exhaustive=v.exhaustive)
        if low:
            r.also_expected = Verdict.INCONCLUSIVE
            r.unattainable = (
                f"{exp.value} attainable only at a favourable Holm level (alpha/m = {alpha / m:.3g} does not "
                f"suffice): INCONCLUSIVE also as expected"
            )


def _jsonable_info(info):
    try:
        return _jsonable(info)
    except RpcheckError:
        return {k: repr(v) for k, v in info.items()}


def _cells_frame(rows, seed):
    import pandas as pd


    df = pd.DataFrame([r.public(seed) for r in rows])
    if df.empty:
        return pd.DataFrame(columns=list(CELL_COLUMNS) + list(CELL_EXTRA_COLUMNS))
    pcols = sorted({c for c in df.columns if c.startswith("p_")} - {"p_"})
    first = list(CELL_COLUMNS[:6]) + pcols + list(CELL_COLUMNS[6:]) + list(CELL_EXTRA_COLUMNS)
    df = df[first + [c for c in df.columns if c not in first]]
    for col in ("trials", "evaluated", "failures", "vacuous_trials", "solver_errors", "cell", "seed", "undetermined"):
        df[col] = df[col].astype("int64")
    for col in pcols:  # parameter columns keep their types: ints stay int64 where every value is an int
        vals = df[col].tolist()
        if vals and all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
            df[col] = df[col].astype("int64")
    df["as_expected"] = df["as_expected"].astype(bool)
    df["stopped_early"] = df["stopped_early"].astype(bool)
    return df


def _trials_frame(cells):
    """The sampled trials (the first TRIAL_SAMPLE of each cell) of ``cells`` in one table."""
    frames = []
    for cell in cells:
        th = cell.theorem
        names = [v.name for v in th.variants]
        frames.append(_results._records_frame(th.id, cell.index, names, cell.agg.sample_records(cell.target)))
    return _results._concat_trial_frames(frames)


def _trial_tables(cells):
    """``RunResult.trial_tables``: one table per theorem with only its own columns. (One table for the whole
    run has the union of every theorem's columns: about 16 GB for the suite at ``standard``, which is how
    ``rpcheck verify --profile standard`` ran out of memory after its trials.)"""
    by_theorem = {}
    for cell in cells:
        by_theorem.setdefault(cell.theorem.id, []).append(cell)
    return {tid: _trials_frame(cs) for tid, cs in by_theorem.items()}


def unattainable_rows(cells, alpha, modes) -> list[dict]:
    """The rows of :func:`rpcheck.engine.unattainable_expectations` for planned ``cells`` (no trial run):
    every non-vacuous row of a mode in ``modes`` with a declared HOLDS or VIOLATED that cannot reach it at
    the strictest level the run can give it (Holm's first step ``alpha / M`` in the family, ``alpha``
    outside it)."""
    level = alpha / max(1, _family_size(cells))
    out = []
    for cell in cells:
        for spec in cell.specs:
            v = spec.variant
            if v.mode not in modes or spec.vacuous_reason or spec.expected not in (Verdict.HOLDS, Verdict.VIOLATED):
                continue
            row_level = level if v.mode in STAT_MODES else alpha
            why = _stats.unattainable(
                v.mode, spec.expected, cell.n, spec.delta, level=row_level, exhaustive=v.exhaustive
            )
            if why:
                out.append(
                    {
                        "theorem": cell.theorem.id,
                        "variant": v.name,
                        "mode": v.mode,
                        "cell": cell.index,
                        "trials": int(cell.n),
                        "expected": spec.expected.value,
                        "level": row_level,
                        "reason": why,
                    }
                )
    return out
