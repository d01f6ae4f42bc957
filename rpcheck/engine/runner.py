r"""The seeded trial runner: grid cells x trials -> verdicts.

Seeding
-------
Trial ``i`` of cell ``params`` of theorem ``theorem_id`` under root seed ``seed`` draws all its randomness
from ::

    np.random.default_rng(np.random.SeedSequence(
        seed, spawn_key=(crc32(theorem_id), crc32(canonical_json(params)), i)))

(:func:`trial_seed_sequence`). The stream depends on nothing else, so results are bit-identical for every
backend, number of workers and chunking, a resumed run equals an uninterrupted one, and one trial
replays alone (:func:`replay_trial`). Distinct spawn keys give independent streams (NumPy's
``SeedSequence`` hashes the entropy and the spawn key together).

Parameters reach the trial as ``json.loads(canonical_json(params))`` in every backend (tuples become
lists), so parameter values must be JSON scalars or lists of them.

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

Sequential stopping (``sequential=True``)
-----------------------------------------
Each cell is looked at after ``ceil(k N / K)`` trials, ``k = 1..K`` (``K = SEQUENTIAL_LOOKS``). At every
look each test of the family is run at the Bonferroni level ``alpha / (m K)`` (``m`` = number of family
members, fixed before the run from the cells' modes and vacuity); a cell stops as soon as every variant is
settled (bound: HOLDS or VIOLATED; exact: VIOLATED; deterministic/search: a counterexample found;
VACUOUS cells after the first look; "report" cells never stop early). By the union bound over the ``m``
members and ``K`` looks, P(any false VIOLATED) <= alpha and P(any false HOLDS) <= alpha still hold,
whatever the stopping times. Holm is not applied in this mode (its levels depend on all final p-values).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import results as _results
from .. import stats as _stats
from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from . import registry
from ._worker import (  # re-exported; workers import only this light module
    TrialError,
    _jsonable,
    _run_chunk,
    canonical_json,
    replay_trial,
    run_trial,
    trial_rng,
    trial_seed_sequence,
)
from ..stats import STAT_MODES
from .theorem import PROFILES, Outcome, Theorem, TrialRecord, Variant, Verdict

__all__ = [
    "run",
    "family_size",
    "run_cell",
    "canonical_json",
    "trial_seed_sequence",
    "trial_rng",
    "run_trial",
    "replay_trial",
    "TrialError",
    "SEQUENTIAL_LOOKS",
    "STAT_MODES",
]

#: Number of equally spaced looks of a sequential run.
SEQUENTIAL_LOOKS = 5
#: Largest number of trials per cell and of workers accepted by run()/run_cell() (a typo such as
#: ``trials=10**12`` is refused instead of running for years).
MAX_TRIALS = 10**9
MAX_JOBS = 4096
#: Upper limit on trials per chunk (checkpoint and progress granularity).
MAX_CHUNK = 256


# ------------------------------------------------------------------------------------------ cell specs


@dataclass(frozen=True)
class _VariantSpec:
    """A variant in one cell, computed once: its promised probability and its vacuity reason."""

    index: int
    variant: Variant
    delta: float | None
    vacuous_reason: str | None
    expected: Verdict | None

    @property
    def in_family(self):
        """Whether the row can enter the Holm families (statistical mode, not vacuous)."""
        return self.variant.mode in STAT_MODES and not self.vacuous_reason


@dataclass
class _Cell:
    theorem: Theorem
    index: int
    canonical: str
    params: dict
    n: int  # trials planned
    looks: tuple
    vacuous_reason: str | None
    specs: tuple = ()
    records: dict = field(default_factory=dict)  # trial index -> TrialResult
    look: int = 0
    pending: int = 0
    finished: bool = False
    stopped_early: bool = False

    def __post_init__(self):
        th = self.theorem
        specs = []
        for j, v in enumerate(th.variants):
            delta = _variant_delta(th, v, self.params)
            specs.append(_VariantSpec(j, v, delta, _row_vacuous_reason(self, v, delta), v.expected_for(self.params)))
        self.specs = tuple(specs)

    @property
    def target(self):
        return self.looks[self.look]


def _check_shippable(ths, backend):
    """Process and Dask workers look theorems up by id: a Theorem object passed to run() must be the one
    registered under its id (or registered by importing its trial's module)."""
    if backend == "serial":
        return
    for th in ths:
        reg = registry._REGISTRY.get(th.id)
        if reg is not None and reg is not th:
            raise RpcheckError(
                f"a different theorem is registered under the id {th.id!r}; backend={backend!r} ships only "
                "ids to its workers, which would run the registered one. Use backend='serial' or a unique id."
            )


def _resolve_theorems(theorems):
    if theorems is None:
        return registry.all_theorems()
    if isinstance(theorems, str | Theorem):
        theorems = [theorems]
    out, seen = [], set()
    for t in theorems:
        if isinstance(t, Theorem):
            th = t  # not registered here: serial runs use the object; see _check_shippable
        elif isinstance(t, str):
            th = registry.get(t)
        else:
            raise RpcheckError(f"`theorems` entries must be theorem ids or Theorem objects; got {t!r}.")
        if th.id not in seen:
            seen.add(th.id)
            out.append(th)
    if not out:
        raise RpcheckError("`theorems` is empty; pass theorem ids, Theorem objects, or None for all.")
    return out


def _check_overrides(ths, profile, overrides):
    """Validate ``overrides`` against the declared parameter domains and constraints, before any trial."""
    if not overrides:
        return
    known = {k for th in ths for c in th.profiles[profile].cells for k in c}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise RpcheckError(
            f"`overrides` names parameters {unknown} that no selected theorem has in profile "
            f"{profile!r}; known parameters: {sorted(known)}."
        )
    for k, val in overrides.items():
        for th in ths:
            if th.parameters is None or not any(k in c for c in th.profiles[profile].cells):
                continue
            p = th.parameters.get(k)
            why = None if p is None else p.problem(val)
            if why:
                raise RpcheckError(
                    f"`overrides`: parameter {k!r} = {val!r} is outside its domain, {p.domain()} "
                    f"(theorem {th.id!r}): {why}."
                )


def _build_cells(ths, profile, overrides, trials, sequential):
    overrides = dict(overrides or {})
    _check_overrides(ths, profile, overrides)
    cells = []
    for th in ths:
        prof = th.profiles[profile]
        n = prof.trials if trials is None else trials
        seen = set()
        for idx, c in enumerate(prof.cells):
            params = dict(c)
            changed = False
            for k, v in overrides.items():
                if k in params:
                    params[k] = v
                    changed = True
            if changed:
                why = th.cell_problem(params)
                if why:
                    raise RpcheckError(f"`overrides` make cell {idx} of theorem {th.id!r} invalid: {why}.")
            canonical = canonical_json(params)
            if canonical in seen:
                continue  # an override made two cells identical: run (and count) it once
            seen.add(canonical)
            decoded = json.loads(canonical)
            looks = _stats.sequential_looks(n, SEQUENTIAL_LOOKS) if sequential else (n,)
            cells.append(_Cell(th, idx, canonical, decoded, n, looks, th.vacuous_reason(decoded)))
    return cells


def _variant_delta(th, v, params):
    if v.mode not in STAT_MODES:
        return None
    d = v.delta_for(params)
    if d is None or not (d >= 0) or math.isnan(d):
        raise RpcheckError(
            f"variant {v.name!r} of theorem {th.id!r} has mode {v.mode!r} but promised_failure gives {d!r} "
            f"for params {canonical_json(params)}; it must be a probability in [0, 1]."
        )
    return d


def _row_vacuous_reason(cell, v, delta):
    if cell.vacuous_reason:
        return cell.vacuous_reason
    if v.mode == "bound" and delta is not None and delta >= 1:
        return f"the promised failure probability {delta:.6g} is >= 1, so the claim is trivially true"
    return None


# ------------------------------------------------------------------------------------------- execution


def _chunk_size(n_missing, jobs):
    return max(1, min(MAX_CHUNK, math.ceil(n_missing / max(1, 4 * jobs))))


def _missing_ranges(cell, stop):
    ranges, start = [], None
    for i in range(stop):
        if i in cell.records:
            if start is not None:
                ranges.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        ranges.append((start, stop))
    return ranges


def _counts(cell, j, upto=None):
    """:class:`rpcheck.stats.Counts` of variant ``j`` over the trials ``< upto`` of the cell."""
    upto = cell.n if upto is None else upto
    f = e = u = vac = se = 0
    for i, r in cell.records.items():
        if i >= upto:
            continue
        if r.status != "ok":
            se += 1
            continue
        o = r.outcomes[j]
        if o.vacuous:
            vac += 1
            continue
        e += 1
        if o.undetermined:
            u += 1
        elif not o.holds:
            f += 1
    return _stats.Counts(f, e, u, se, vac)


def _settled(cell, levels):
    """Whether every variant of the cell is decided at this look (sequential mode): each non-vacuous row's
    decision (:func:`rpcheck.stats.decide`, the same function as the final tabulation) says ``stops``."""
    if cell.vacuous_reason:
        return True
    upto = cell.target
    for spec in cell.specs:
        if spec.vacuous_reason:
            continue
        if spec.variant.mode == "report":
            return False
        d = _stats.decide(
            spec.variant.mode,
            _counts(cell, spec.index, upto),
            spec.delta,
            alpha_violated=levels["v"],
            alpha_holds=levels["h"],
        )
        if not d.stops:
            return False
    return True


def _execute(cells, seed, backend, jobs, scheduler, store, sequential, seq_levels, progress):
    from .backends import open_backend

    total = sum(c.n for c in cells)
    done = 0
    if store is not None:
        for c in cells:
            names = [v.name for v in c.theorem.variants]
            for i, rec in store.load_cell(c.theorem.id, c.canonical, seed, names).items():
                if i < c.n:
                    c.records[i] = rec
    done = sum(len(c.records) for c in cells)
    if progress is not None:
        progress(done, total, {"event": "start", "resumed": done})

    with open_backend(backend, jobs=jobs, scheduler=scheduler) as be:
        workers = be.jobs
        handles = {}

        def schedule(cell):
            # advance through looks until some trials are missing or the cell is finished
            while True:
                ranges = _missing_ranges(cell, cell.target)
                if ranges:
                    n_missing = sum(b - a for a, b in ranges)
                    size = _chunk_size(n_missing, be.jobs)
                    module = cell.theorem.trial.__module__
                    for a, b in ranges:
                        for s in range(a, b, size):
                            e = min(b, s + size)
                            # serial: the Theorem object itself; workers: its id (+ the module registering it)
                            ref = cell.theorem if be.name == "serial" else cell.theorem.id
                            h = be.submit(_run_chunk, ref, module, cell.canonical, s, e, seed)
                            handles[h] = (cell, s, e)
                            cell.pending += 1
                    return
                if cell.look + 1 >= len(cell.looks):
                    cell.finished = True
                    return
                if sequential and _settled(cell, seq_levels):
                    cell.finished = True
                    cell.stopped_early = True
                    return
                cell.look += 1

        for c in cells:
            schedule(c)
        try:
            while handles:
                for h in be.wait_any(handles):
                    cell, s, e = handles.pop(h)
                    recs = h.result()
                    for rec in recs:
                        cell.records[rec.i] = rec
                    if store is not None:
                        names = [v.name for v in cell.theorem.variants]
                        store.save_chunk(cell.theorem.id, cell.canonical, seed, s, e, recs, names)
                    cell.pending -= 1
                    done += len(recs)
                    if progress is not None:
                        progress(done, total, {"event": "chunk", "theorem": cell.theorem.id, "cell": cell.index})
                    if cell.pending == 0:
                        schedule(cell)
        except BaseException:
            for h in handles:
                h.cancel()
            raise
    for c in cells:
        # a sequential cell that stopped early ignores checkpointed trials beyond its last look
        c.records = {i: r for i, r in c.records.items() if i < c.target}
    if progress is not None:
        # the end event reports the trials actually run (fewer than planned when cells stopped early)
        ran = sum(len(c.records) for c in cells)
        progress(ran, ran, {"event": "end", "planned": total})
    return workers


# ------------------------------------------------------------------------------------------ tabulation


def _quantiles(x, qs):
    x = x[~np.isnan(x)]
    if x.size == 0:
        return [math.nan] * len(qs)
    return [float(v) for v in np.quantile(x, qs)]


def _decide_hook(th, cell, upto, vname):
    if th.decide is None:
        return Verdict.INCONCLUSIVE, {}
    names = [v.name for v in th.variants]
    recs = []
    for i in range(upto):
        r = cell.records.get(i)
        if r is not None and r.ok:
            outs = {k: Outcome(o.holds, o.statistic, o.bound, o.vacuous, o.undetermined) for k, o in zip(names, r.outcomes)}
            recs.append(TrialRecord(outcomes=outs, diagnostics=dict(r.diagnostics)))
    verdict, info = th.decide(recs, dict(cell.params))
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
    alpha_v: float = math.nan
    alpha_h: float = math.nan
    pvalue: float = math.nan
    pvalue_holds: float = math.nan
    decision: _stats.Decision | None = None
    decide_info: str = ""
    counterexample: str = ""
    expected: Verdict | None = None  # effective expected verdict (INCONCLUSIVE when the declared is unattainable)
    unattainable: str = ""

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
            "as_expected": self.expected is None or verdict is self.expected,
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
        }


def _describe(cell, j, upto, mode):
    """Quantiles of the statistic, worst slack and the worst certified failure of variant ``j``."""
    stat, bound, bad, idx = [], [], [], []
    for i in range(upto):
        r = cell.records.get(i)
        if r is None or not r.ok:
            continue
        o = r.outcomes[j]
        if o.vacuous:
            continue
        stat.append(o.statistic)
        bound.append(o.bound)
        bad.append(not o.holds and not o.undetermined)
        idx.append(i)
    stat, bound, bad, idx = np.asarray(stat, float), np.asarray(bound, float), np.asarray(bad, bool), np.asarray(idx)
    slack = bound - stat
    q05, q50, q95 = _quantiles(stat, [0.05, 0.5, 0.95])
    (b50,) = _quantiles(bound, [0.5])
    smax = float(np.nanmax(stat)) if stat.size and not np.all(np.isnan(stat)) else math.nan
    smin = float(np.nanmin(slack)) if slack.size and not np.all(np.isnan(slack)) else math.nan
    worst = None
    if mode in ("deterministic", "search") and bad.any():
        fail_idx = np.flatnonzero(bad)
        sl = slack[fail_idx]
        pick = fail_idx[int(np.nanargmin(sl))] if not np.all(np.isnan(sl)) else fail_idx[0]
        worst = int(idx[pick])
    desc = {"stat_q05": q05, "stat_q50": q50, "stat_q95": q95, "stat_max": smax, "bound_q50": b50, "slack_min": smin}
    return desc, worst


def _tabulate(cells, alpha, sequential, seq_levels):
    """Build every row once, run the Holm procedures over the families, then decide each row with the
    decision function of its mode (:func:`rpcheck.stats.decide`)."""
    rows = []
    for cell in cells:
        upto = max([i + 1 for i in cell.records] + [0])
        attempted = len(cell.records)
        seconds = float(sum(r.seconds for r in cell.records.values()))
        for spec in cell.specs:
            desc, worst = _describe(cell, spec.index, upto, spec.variant.mode)
            rows.append(_Row(cell, spec, _counts(cell, spec.index, upto), attempted, seconds, desc, worst))

    fam = [r for r in rows if r.in_family]
    for r in fam:
        r.pvalue, r.pvalue_holds = _stats.pvalues(r.spec.variant.mode, r.counts, r.spec.delta)
    if fam:
        if sequential:
            lv = np.full(len(fam), seq_levels["v"])
            lh = np.full(len(fam), seq_levels["h"])
        else:
            lv = _stats.holm([r.pvalue for r in fam], alpha).levels
            lh = _stats.holm([r.pvalue_holds for r in fam], alpha).levels
        for r, a, b in zip(fam, lv, lh):
            r.alpha_v, r.alpha_h = float(a), float(b)

    for r in rows:
        v = r.spec.variant
        if r.spec.vacuous_reason:
            r.decision = _stats.Decision(Verdict.VACUOUS, f"vacuous: {r.spec.vacuous_reason}")
        elif v.mode == "report":
            upto = max([i + 1 for i in r.cell.records] + [0])
            verdict, info = _decide_hook(r.cell.theorem, r.cell, upto, v.name)
            r.decision = _stats.decide_report(verdict, info, role=v.role)
            r.decide_info = json.dumps(_jsonable_info(info), sort_keys=True)
        elif r.in_family:
            r.decision = _stats.decide(
                v.mode, r.counts, r.spec.delta, alpha_violated=r.alpha_v, alpha_holds=r.alpha_h
            )
        else:
            # deterministic/search, or a statistical row with no draw (the decision is then VACUOUS or
            # INCONCLUSIVE whatever the levels)
            r.decision = _stats.decide(
                v.mode, r.counts, r.spec.delta, alpha_violated=alpha, alpha_holds=alpha,
                worst_slack=r.describe["slack_min"],
            )  # fmt: skip
        _attainability(r, alpha, sequential, seq_levels)
    return rows


def _attainability(r, alpha, sequential, seq_levels):
    """Effective expected verdict of a row (:func:`rpcheck.stats.unattainable`): a declared HOLDS/VIOLATED
    that the row's counts cannot attain whatever the outcomes becomes INCONCLUSIVE, with the reason. The
    level is the largest one the row's test can get: ``alpha`` (Holm) or the sequential Bonferroni level."""
    exp = r.spec.expected
    r.expected = exp
    v = r.spec.variant
    if exp not in (Verdict.HOLDS, Verdict.VIOLATED) or r.spec.vacuous_reason or v.mode == "report":
        return
    if sequential:
        level = seq_levels["h"] if exp is Verdict.HOLDS else seq_levels["v"]
    else:
        level = alpha
    draws = r.counts.evaluated if v.mode == "deterministic" else r.counts.draws
    why = _stats.unattainable(v.mode, exp, draws, r.spec.delta, level=level)
    if why:
        r.expected = Verdict.INCONCLUSIVE
        r.unattainable = why


def _jsonable_info(info):
    try:
        return _jsonable(info)
    except RpcheckError:
        return {k: repr(v) for k, v in info.items()}


def _cells_frame(rows, seed):
    from ..results import CELL_COLUMNS, CELL_EXTRA_COLUMNS

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


def _bool_array(outs, j):
    """Nullable boolean column (missing for solver errors) from the outcome rows."""
    mask = np.fromiter((o is None for o in outs), bool, len(outs))
    vals = np.fromiter((o is not None and bool(o[j]) for o in outs), bool, len(outs))
    return pd.arrays.BooleanArray(vals, mask)


def _trials_frame(cells):
    from ..results import TRIAL_COLUMNS

    frames = []
    for cell in cells:
        th = cell.theorem
        recs = [cell.records[i] for i in sorted(cell.records)]
        data = {
            "theorem": [th.id] * len(recs),
            "cell": [cell.index] * len(recs),
            "trial": [r.i for r in recs],
            "status": [r.status for r in recs],
            "error": [r.error for r in recs],
            "seconds": [float(r.seconds) for r in recs],
        }
        for j, v in enumerate(th.variants):
            outs = [r.outcomes[j] if r.ok else None for r in recs]
            data[f"{v.name}.holds"] = _bool_array(outs, 0)
            data[f"{v.name}.statistic"] = [math.nan if o is None else o.statistic for o in outs]
            data[f"{v.name}.bound"] = [math.nan if o is None else o.bound for o in outs]
            data[f"{v.name}.vacuous"] = _bool_array(outs, 3)
            data[f"{v.name}.undetermined"] = _bool_array(outs, 4)
        dnames = sorted({k for r in recs for k in r.diagnostics})
        for k in dnames:
            data[f"diag.{k}"] = [float(r.diagnostics.get(k, math.nan)) for r in recs]
        frames.append(pd.DataFrame(data))
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(TRIAL_COLUMNS))
    df = pd.concat(frames, ignore_index=True, sort=False)
    lead = list(TRIAL_COLUMNS)
    outc = [c for c in df.columns if c not in lead and not c.startswith("diag.")]
    diag = sorted(c for c in df.columns if c.startswith("diag."))
    df = df[lead + outc + diag]
    for c in outc:
        if c.endswith(".holds") or c.endswith(".vacuous") or c.endswith(".undetermined"):
            df[c] = df[c].astype("boolean")
    return df.sort_values(["theorem", "cell", "trial"], kind="stable").reset_index(drop=True)


# ------------------------------------------------------------------------------------------ public API


def _check_common(trials, seed, backend, jobs):
    from .backends import BACKENDS

    if trials is not None:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    seed = check_int("seed", seed, 0)
    check_choice("backend", backend, BACKENDS)
    if jobs is not None:
        jobs = check_int("jobs", jobs, 1, MAX_JOBS)
    return trials, seed, jobs


def run(
    theorems=None,
    *,
    profile="ci",
    overrides=None,
    trials=None,
    seed=0,
    backend="processes",
    jobs=None,
    scheduler=None,
    out=None,
    resume=False,
    alpha=0.01,
    sequential=False,
    progress=None,
):
    """Run the trials of every grid cell of the selected theorems and decide a verdict per (cell, variant).

    Parameters
    ----------
    theorems : str, Theorem, list of them, or None
        Theorem ids or objects; None runs every registered theorem.
    profile : {"quick", "ci", "standard", "full"}, default="ci"
    overrides : dict, optional
        ``{parameter: value}`` replacing that parameter in every cell that has it (values already parsed).
        A name no selected theorem has raises RpcheckError; cells made identical are run once.
    trials : int, optional
        Trials per cell (default: the profile's).
    seed : int, default=0
        Root seed; see the module docstring for the per-trial streams.
    backend : {"serial", "processes", "dask"}, default="processes"
    jobs : int, optional
        Workers (default ``os.cpu_count()``).
    scheduler : str or distributed.Client, optional
        Dask scheduler address or client (backend "dask"; None starts a LocalCluster).
    out : path, optional
        Results directory: completed chunks are checkpointed there as they finish, and the tables,
        provenance and counterexamples are written there at the end (atomically).
    resume : bool, default=False
        Reuse the checkpoints in ``out`` (trials of the same theorem, parameters and root seed) and run only
        what is missing. The result equals an uninterrupted run's (same counts, bit-identical trial values;
        only the timing columns differ). Without ``resume``, existing checkpoints are discarded.
    alpha : float, default=0.01
        Family-wise error rate of the Holm procedures (module docstring).
    sequential : bool, default=False
        Stop cells early once settled (module docstring: ``SEQUENTIAL_LOOKS`` looks, Bonferroni levels).
    progress : callable(done, total, info), optional
        Called with trial counts after each finished chunk (``info["event"]`` is "start", "chunk", "end").

    Returns
    -------
    RunResult

    Raises
    ------
    TrialError
        A trial raised an exception other than SolverError (solver errors are counted, not raised).
    """
    trials, seed, jobs = _check_common(trials, seed, backend, jobs)
    check_choice("profile", profile, PROFILES)
    alpha = check_interval("alpha", alpha, 0, 0.5, closed="neither")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RpcheckError(f"`overrides` must be a dict of parameter -> value; got {overrides!r}.")
    if resume and out is None:
        raise RpcheckError("`resume=True` needs `out`, the results directory holding the checkpoints.")
    if out is not None and isinstance(out, str) and not out.strip():
        raise RpcheckError(f"`out` ({out!r}) must be a directory path (or None for no results directory).")
    from .provenance import collect_provenance, utc_now
    from .store import CheckpointStore

    started = utc_now()
    ths = _resolve_theorems(theorems)
    _check_shippable(ths, backend)
    cells = _build_cells(ths, profile, overrides, trials, sequential)
    m_v = sum(spec.in_family for c in cells for spec in c.specs)
    m_h = m_v  # the HOLDS family has the same members (bound and exact rows)
    seq_levels = {
        "v": alpha / (max(m_v, 1) * SEQUENTIAL_LOOKS),
        "h": alpha / (max(m_h, 1) * SEQUENTIAL_LOOKS),
    }

    store = None
    if out is not None:
        from .store import prepare_results_dir

        key = _results_key(ths, seed, profile, alpha)
        store = CheckpointStore(prepare_results_dir(out, resume=resume, key=key))
        store.check_code_version(resume)
    workers = _execute(cells, seed, backend, jobs, scheduler, store, sequential, seq_levels, progress)
    rows = _tabulate(cells, alpha, sequential, seq_levels)

    from .counterexample import build_counterexample

    counterexamples = {}
    replayed = {}
    for r in rows:
        if r.worst is None or r.decision.verdict is not Verdict.VIOLATED:
            continue
        cell = r.cell
        key = (cell.theorem.id, cell.canonical, r.worst)
        if key not in replayed:
            replayed[key] = run_trial(cell.theorem, cell.canonical, r.worst, seed)
        rel, payload = build_counterexample(
            cell.theorem, r.spec.variant.name, cell.index, cell.canonical, r.worst, seed,
            cell.records[r.worst], replayed[key],
        )  # fmt: skip
        counterexamples[rel] = payload
        r.counterexample = rel
    cells_df = _cells_frame(rows, seed)
    trials_df = _trials_frame(cells)

    prov = collect_provenance(
        seed=seed,
        profile=profile,
        overrides=_jsonable_info(dict(overrides or {})),
        trials=trials,
        theorems=[th.id for th in ths],
        alpha=alpha,
        backend=backend,
        jobs=workers,
        sequential=bool(sequential),
        sequential_looks=SEQUENTIAL_LOOKS if sequential else None,
        family_size={"violated": m_v, "holds": m_h},
        resumed=bool(resume),
        started_utc=started,
        finished_utc=utc_now(),
        seeding="SeedSequence(seed, spawn_key=(crc32(theorem_id), crc32(canonical_json(params)), trial))",
    )
    result = _results.RunResult(cells_df, trials_df, prov, counterexamples, None)
    if out is not None:
        result = result.save(out)
    return result


def family_size(theorem_ids, profile="ci", overrides=None):
    """Number of rows in the VIOLATED (and HOLDS) Holm family of ``run(theorem_ids, profile=profile,
    overrides=overrides)``, computed without running a trial: the non-vacuous (cell, variant) rows of mode
    "bound" or "exact". It is an upper bound on the family Holm uses at the end (rows without any draw
    drop out), so splitting a suite-level alpha by these sizes (weighted Bonferroni) is valid.

    Parameters
    ----------
    theorem_ids : str, Theorem, or list of them
    profile : {"quick", "ci", "standard", "full"}
    overrides : dict, optional

    Returns
    -------
    int
    """
    check_choice("profile", profile, PROFILES)
    ths = _resolve_theorems(theorem_ids)
    cells = _build_cells(ths, profile, overrides, None, False)
    return int(sum(spec.in_family for c in cells for spec in c.specs))


def _results_key(ths, seed, profile, alpha):
    """The run settings recorded in a results directory's marker (:func:`store.prepare_results_dir`)."""
    return {"theorems": sorted(th.id for th in ths), "seed": int(seed), "profile": profile, "alpha": float(alpha)}


def run_cell(theorem, params, *, trials, seed, backend="serial", jobs=None, scheduler=None):
    """Run ``trials`` trials of one cell (no verdict, no multiplicity); for searches over a parameter.

    Parameters
    ----------
    theorem : str or Theorem
    params : dict
        The full parameter dict of the cell.
    trials : int
    seed : int
    backend, jobs, scheduler
        As in :func:`run` (default serial: searches usually call this many times on small cells).

    Returns
    -------
    CellOutcome
    """
    trials, seed, jobs = _check_common(trials, seed, backend, jobs)
    if trials is None:
        raise RpcheckError("`trials` is required by run_cell.")
    (th,) = _resolve_theorems([theorem])
    _check_shippable([th], backend)
    canonical = canonical_json(params)
    decoded = json.loads(canonical)
    cell = _Cell(th, 0, canonical, decoded, trials, (trials,), th.vacuous_reason(decoded))
    _execute([cell], seed, backend, jobs, scheduler, None, False, None, None)
    counts = {}
    for spec in cell.specs:
        c = _counts(cell, spec.index)
        counts[spec.variant.name] = _results.VariantCount(c.failures, c.evaluated, c.vacuous, c.undetermined)
    return _results.CellOutcome(
        theorem=th.id,
        params=decoded,
        canonical=canonical,
        seed=seed,
        trials=len(cell.records),
        solver_errors=sum(not r.ok for r in cell.records.values()),
        variants=counts,
        table=_trials_frame([cell]),
        seconds=float(sum(r.seconds for r in cell.records.values())),
    )
