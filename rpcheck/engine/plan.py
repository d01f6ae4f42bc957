r"""Planning a run: theorems, overrides and grid cells, resolved and checked before any trial.

The plan stage turns the arguments of :func:`rpcheck.engine.run` into a :class:`Plan`: the selected
theorems (:func:`_resolve_theorems`), the overrides checked against the declared parameter domains
(:func:`_check_overrides`), one :class:`_Cell` per distinct grid cell with its trial count and look
schedule, and per (cell, variant) a :class:`_VariantSpec` (promised failure probability, vacuity reason,
declared expected verdict: the inputs of the attainability check in :mod:`rpcheck.engine.decide`). It also
fixes the size ``m`` of the multiple-testing family (the non-vacuous "bound"/"exact" rows) before the run,
and from it the levels of the sequential rules (:mod:`rpcheck.engine.decide`, "Sequential stopping" and
"Anytime-valid stopping"). The run's configuration travels as one frozen :class:`RunSettings`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import stats as _stats
from .._validation import check_choice, check_int
from ..errors import RpcheckError
from ..stats import STAT_MODES
from . import registry
from ._worker import canonical_json
from .aggregate import _CellAggregate
from .backends import BACKENDS
from .theorem import Theorem, Variant, Verdict

#: Number of equally spaced looks of a sequential run (``stopping="looks"``).
SEQUENTIAL_LOOKS = 5
#: Number of equally spaced looks of an anytime-valid run (``stopping="anytime"``): the e-processes are valid
#: at every look, so more looks cost nothing in level, only synchronisation of a cell's chunks.
ANYTIME_LOOKS = 10
#: Share of ``alpha`` spent on the anytime-valid (e-value) decisions of a ``stopping="anytime"`` run; the rest,
#: ``(1 - ANYTIME_SHARE) alpha``, goes to Holm's procedure over the rows whose cells ran every planned trial
#: (:mod:`rpcheck.engine.decide`, "Anytime-valid stopping").
ANYTIME_SHARE = 0.1
#: The stopping rules of a run: "none" (every planned trial, Holm), "looks" (group-sequential: Bonferroni over
#: ``SEQUENTIAL_LOOKS`` looks), "anytime" (anytime-valid e-values at every look, Holm at the cap),
#: "until-decided" (e-values only, at the whole ``alpha``; a cell whose rows are not all decided at its planned
#: trials doubles them, up to ``UNTIL_DECIDED_GROWTH`` times the planned count).
STOPPING = ("none", "looks", "anytime", "until-decided")
#: How far an until-decided run may raise a cell's trials: this many times the profile's count (and at most
#: MAX_TRIALS); a time budget ends it sooner.
UNTIL_DECIDED_GROWTH = 64
#: Largest number of trials per cell accepted by run()/run_cell() and by ``--trials`` (rpcheck.options uses this
#: constant). The parent's memory is flat in the number of trials
#: (:mod:`rpcheck.engine.aggregate`, "Memory"); what the trials limit bounds is the run time (a typo such as
#: ``trials=10**12`` is refused instead of running for years) and the records of the one cell at a time whose
#: report-mode variant has a ``decide`` hook, and of a run_cell() call, which are held together (about 1 KiB a
#: trial: about 1 GiB at 10**6). At 10**6 trials an exact 99% interval already resolves failure rates of 1e-5,
#: far below every failure probability the papers state.
MAX_TRIALS = 10**6
#: Largest ``jobs`` accepted by run()/run_cell() and by ``--jobs`` (rpcheck.options uses this constant). A run never
#: starts more workers than it can use: the process pool and a LocalCluster get min(jobs, usable cores, trials to
#: run) (:func:`rpcheck.engine.backends.useful_jobs`), so the limit costs nothing on any machine; it refuses a
#: mistyped count (``--jobs 100000``) with an error naming the allowed range instead of capping it silently.
MAX_JOBS = 4096
#: Trials per cell whose records the parent keeps (the first ones, by index): the quantile columns
#: (stat_q05/q50/q95, bound_q50), the plots and ``RunResult.trials`` use them. Every other trial is
#: aggregated (counts, maximum, smallest slack, worst failure) and streamed to the checkpoint files
#: (:func:`rpcheck.engine.load_trials` reads them all back).
TRIAL_SAMPLE = 2000


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
    """One grid cell of a theorem as planned (parameters, trials, looks, its variants' specs) and, mutated by
    :mod:`rpcheck.engine.execute`, its execution state (current look, pending chunks, measured trial time) and
    its aggregate (:class:`rpcheck.engine.aggregate._CellAggregate`)."""

    theorem: Theorem
    index: int
    canonical: str
    params: dict
    n: int  # trials planned
    looks: tuple
    vacuous_reason: str | None
    specs: tuple = ()
    sample_size: int = 0  # the first `sample_size` trials (by index) are kept as records
    look: int = 0
    pending: int = 0
    finished: bool = False
    stopped_early: bool = False
    budget_cut: bool = False  # the run's time budget ended the cell before its planned trials
    planned: int = 0  # the profile's trial count (an until-decided run may raise ``n`` above it)
    timed: int = 0  # trials run by this process's schedule, and their summed seconds (chunk sizing)
    busy: float = 0.0

    def __post_init__(self):
        th = self.theorem
        specs = []
        for j, v in enumerate(th.variants):
            delta = _variant_delta(th, v, self.params)
            specs.append(_VariantSpec(j, v, delta, _row_vacuous_reason(self, v, delta), v.expected_for(self.params)))
        self.specs = tuple(specs)
        if not self.sample_size:
            self.sample_size = TRIAL_SAMPLE
        self.agg = _CellAggregate(self.looks, len(th.variants), self.n, self.sample_size)
        self.planned = self.planned or self.n

    @property
    def target(self):
        return self.looks[self.look]


def _check_shippable(ths, backend):
    """Process and Dask workers look theorems up by id: a Theorem object passed to run() must be the one
    registered under its id (or registered by importing its trial's module)."""
    if backend == "serial":
        return
    for th in ths:
        reg = registry.registered(th.id)
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


def _build_cells(ths, profile, overrides, trials, stopping="none"):
    n_looks = {"none": 1, "looks": SEQUENTIAL_LOOKS, "anytime": ANYTIME_LOOKS, "until-decided": ANYTIME_LOOKS}[stopping]
    overrides = dict(overrides or {})
    _check_overrides(ths, profile, overrides)
    cells = []
    for th in ths:
        prof = th.profiles[profile]
        seen = set()
        for idx, c in enumerate(prof.cells):
            n = prof.trials_for(c) if trials is None else trials
            params = dict(c)
            changed = False
            for k, v in overrides.items():
                if k in params:
                    params[k] = v
                    changed = True
            if changed:
                why = th.cell_problem(params, memory=True)
                if why:
                    raise RpcheckError(f"`overrides` make cell {idx} of theorem {th.id!r} invalid: {why}.")
            canonical = canonical_json(params)
            if canonical in seen:
                continue  # an override made two cells identical: run (and count) it once
            seen.add(canonical)
            decoded = json.loads(canonical)
            looks = _stats.sequential_looks(n, n_looks) if n_looks > 1 else (n,)
            cell = _Cell(th, idx, canonical, decoded, n, looks, th.vacuous_reason(decoded))
            if not changed:  # a declared cell (an override may make a control's fault invisible: reported)
                problems = (sp.variant.control_problem(decoded, sp.expected) for sp in cell.specs)
                why = next((w for w in problems if w), None)
                if why:
                    raise RpcheckError(f"theorem {th.id!r}, profile {profile!r}, cell {idx} ({c}): {why}.")
            cells.append(cell)
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


# ------------------------------------------------------------------------------------------ run settings


@dataclass(frozen=True)
class RunSettings:
    """The configuration of one run, passed from stage to stage.

    ``backend`` is a backend name ("serial", "processes", "dask") or an open backend; ``jobs`` and
    ``scheduler`` open a named one. ``alpha`` is the family-wise level. ``stopping`` is one of
    :data:`STOPPING`; ``sequential`` (derived) says whether cells may stop early, at the per-row levels
    ``seq_levels`` (``{"v": ..., "h": ...}``: the per-look Bonferroni levels of "looks", the e-Bonferroni
    levels of "anytime"; set by :func:`make_plan`). ``budget`` (seconds, or None) ends the scheduling of
    new trials once spent. ``progress(done, total, info)`` is called after each finished chunk; ``resume``
    reuses a results directory's checkpoints."""

    seed: int
    backend: Any = "serial"
    jobs: int | None = None
    scheduler: Any = None
    alpha: float = 0.01
    stopping: str = "none"
    seq_levels: Mapping[str, float] | None = None
    progress: Callable[..., Any] | None = None
    resume: bool = False
    budget: float | None = None

    @property
    def sequential(self):
        """Whether cells may stop before their planned trials (every rule but "none")."""
        return self.stopping != "none"

    @property
    def anytime(self):
        """Whether rows are decided by the anytime-valid e-values ("anytime", "until-decided")."""
        return self.stopping in ("anytime", "until-decided")

    @property
    def fixed_alpha(self):
        """The level of the fixed-n Holm procedures: ``alpha``, less the anytime share in an anytime run, and
        none in an until-decided run (its trial counts are not fixed in advance)."""
        if self.stopping == "until-decided":
            return 0.0
        return self.alpha * (1 - ANYTIME_SHARE) if self.anytime else self.alpha


@dataclass(frozen=True)
class Plan:
    """A planned run: the theorems, their cells (in run order) and the settings, with the sizes of the
    VIOLATED and HOLDS families (``m_v``, ``m_h``: the non-vacuous "bound"/"exact" rows; rows without any
    draw drop out of the families at the end, so these are upper bounds)."""

    theorems: tuple[Theorem, ...]
    cells: tuple[_Cell, ...]
    settings: RunSettings
    profile: str
    overrides: Mapping[str, Any] | None
    trials: int | None
    m_v: int
    m_h: int


def make_plan(ths, settings, *, profile, overrides=None, trials=None) -> Plan:
    """The :class:`Plan` of running the resolved theorems ``ths`` at ``profile`` with ``overrides`` and
    ``trials`` per cell (default: the profile's), under ``settings``; its ``settings.seq_levels`` are set
    from the family size."""
    cells = _build_cells(ths, profile, overrides, trials, settings.stopping)
    m_v = _family_size(cells)
    m_h = m_v  # the HOLDS family has the same members (bound and exact rows)
    settings = replace(settings, seq_levels=_sequential_levels(settings.alpha, m_v, m_h, settings.stopping))
    return Plan(tuple(ths), tuple(cells), settings, profile, overrides, trials, m_v, m_h)


def _sequential_levels(alpha, m_v, m_h, stopping="looks"):
    """The per-row levels of a sequential run (:mod:`rpcheck.engine.decide`): for "looks", the per-look
    Bonferroni levels ``alpha / (m K)``; for "anytime", the e-Bonferroni levels ``ANYTIME_SHARE alpha / m``
    (a row is decided when its e-value reaches ``m / (ANYTIME_SHARE alpha)``), for the VIOLATED ("v") and
    HOLDS ("h") tests."""
    if stopping == "anytime":
        return {"v": ANYTIME_SHARE * alpha / max(m_v, 1), "h": ANYTIME_SHARE * alpha / max(m_h, 1)}
    if stopping == "until-decided":
        return {"v": alpha / max(m_v, 1), "h": alpha / max(m_h, 1)}
    return {
        "v": alpha / (max(m_v, 1) * SEQUENTIAL_LOOKS),
        "h": alpha / (max(m_h, 1) * SEQUENTIAL_LOOKS),
    }


def _family_size(cells):
    """The non-vacuous "bound"/"exact" rows of ``cells``: the Holm family's size (see
    :func:`rpcheck.engine.family_size`)."""
    return int(sum(spec.in_family for c in cells for spec in c.specs))


def _results_key(ths, seed, profile, alpha):
    """The run settings recorded in a results directory's marker (:func:`store.prepare_results_dir`)."""
    return {"theorems": sorted(th.id for th in ths), "seed": int(seed), "profile": profile, "alpha": float(alpha)}


def _check_common(trials, seed, backend, jobs):
    """The arguments :func:`rpcheck.engine.run` and :func:`rpcheck.engine.run_cell` share, checked
    (RpcheckError naming the argument): ``(trials, seed, jobs)``."""
    if trials is not None:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    seed = check_int("seed", seed, 0)
    check_choice("backend", backend, BACKENDS)
    if jobs is not None:
        jobs = check_int("jobs", jobs, 1, MAX_JOBS)
    return trials, seed, jobs
