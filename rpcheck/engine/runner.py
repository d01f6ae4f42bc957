r"""The seeded trial runner: grid cells x trials -> verdicts, as a composition of stages.

:func:`run` plans, executes, decides and replays, each stage a module of its own with a typed boundary:

- :mod:`rpcheck.engine.plan`: theorems, overrides and cells resolved and checked before any trial, the
  family size, the run's :class:`~rpcheck.engine.plan.RunSettings`; output a :class:`~rpcheck.engine.plan.Plan`;
- :mod:`rpcheck.engine.execute`: backends, chunking, checkpoints, resume and the live loop of looks
  ("Seeding": every trial's random stream depends on its theorem, cell, index and root seed only, so
  results are bit-identical across backends, workers, chunkings and resumes);
- :mod:`rpcheck.engine.aggregate`: finished chunks folded into per-cell aggregates ("Memory": the parent's
  memory is flat in the number of trials);
- :mod:`rpcheck.engine.decide`: per-row verdicts, the Holm families ("Verdicts and the multiple-testing
  family"), the sequential Bonferroni levels ("Sequential stopping"), attainability, the result tables;
- :mod:`rpcheck.engine.replays`: the worst failure of each VIOLATED deterministic or search row replayed
  into a counterexample file.

:func:`run_cell` runs one cell's trials without a verdict; :func:`family_size` and
:func:`unattainable_expectations` plan a run without running a trial.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
import time
from collections.abc import Mapping

from .. import _heap
from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from ..stats import STAT_MODES
from . import backends as _backends
from . import execute as _execute
from . import loading as _results
from . import validate as _validate
from ._worker import (  # re-exported; workers import only this light module
    TrialError,
    canonical_json,
    replay_trial,
    run_trial,
    trial_rng,
    trial_seed_sequence,
)
from .decide import _cells_frame, _counts, _jsonable_info, _trial_tables, _trials_frame, tabulate, unattainable_rows
from .execute import MAX_CHUNK, MAX_FAST_CHUNK, MIN_CHUNK_SECONDS, PARENT_BUSY_MAX, PARENT_CHUNK_SECONDS, _using
from .plan import (
    ANYTIME_LOOKS,
    ANYTIME_SHARE,
    MAX_JOBS,
    MAX_TRIALS,
    SEQUENTIAL_LOOKS,
    STOPPING,
    TRIAL_SAMPLE,
    RunSettings,
    _build_cells,
    _Cell,
    _check_common,
    _check_overrides,
    _check_shippable,
    _family_size,
    _resolve_theorems,
    _results_key,
    make_plan,
)
from .provenance import collect_provenance, utc_now
from .replays import REPLAY_IN_WORKERS_SECONDS, _replay_worst, attach_counterexamples, replay_todo
from .store import CheckpointStore, prepare_results_dir
from .theorem import ALL_PROFILES, PROFILES

__all__ = [
    "run",
    "family_size",
    "unattainable_expectations",
    "run_cell",
    "canonical_json",
    "trial_seed_sequence",
    "trial_rng",
    "run_trial",
    "replay_trial",
    "TrialError",
    "SEQUENTIAL_LOOKS",
    "ANYTIME_LOOKS",
    "ANYTIME_SHARE",
    "STOPPING",
    "STAT_MODES",
    "TRIAL_SAMPLE",
    "MAX_TRIALS",
    "MAX_JOBS",
    "MAX_CHUNK",
    "MAX_FAST_CHUNK",
    "MIN_CHUNK_SECONDS",
    "PARENT_CHUNK_SECONDS",
    "PARENT_BUSY_MAX",
    "REPLAY_IN_WORKERS_SECONDS",
]


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
    stopping=None,
    budget=None,
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
        Root seed; see :mod:`rpcheck.engine.execute` ("Seeding") for the per-trial streams.
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
        Family-wise error rate of the Holm procedures (:mod:`rpcheck.engine.decide`).
    sequential : bool, default=False
        Same as ``stopping="looks"``.
    progress : callable(done, total, info), optional
        Called with trial counts after each finished chunk (``info["event"]`` is "start", "chunk", "end").
    stopping : {"none", "looks", "anytime"}, optional
        When cells may stop before their planned trials (:mod:`rpcheck.engine.decide`): "none" (default
        unless ``sequential``) runs every trial, Holm at ``alpha``; "looks" stops at ``SEQUENTIAL_LOOKS``
        equally spaced looks with Bonferroni levels; "anytime" stops a cell as soon as every row is decided
        by anytime-valid e-values (``ANYTIME_SHARE * alpha``, e-Bonferroni) and applies Holm at the rest of
        ``alpha`` to the rows of cells that ran every planned trial.
    budget : float, optional
        Seconds after which no new chunk is scheduled: running chunks finish, the rest of every cell is
        dropped, and rows not decided by then say so (with ``stopping="anytime"``, how many more draws each
        would need). A budgeted run's verdicts are each valid, but which rows get decided depends on timing.

    Returns
    -------
    RunResult
        ``cells`` over all trials; ``trials`` holds the first :data:`TRIAL_SAMPLE` trials of each cell (all
        trials are in ``out``'s checkpoints: :func:`rpcheck.engine.load_trials`).

    Raises
    ------
    TrialError
        A trial raised an exception other than SolverError (solver errors are counted, not raised).
    """
    trials, seed, jobs = _check_common(trials, seed, backend, jobs)
    check_choice("profile", profile, ALL_PROFILES)
    if stopping is None:
        stopping = "looks" if sequential else "none"
    check_choice("stopping", stopping, STOPPING)
    if sequential and stopping != "looks":
        raise RpcheckError(f"`sequential=True` is `stopping='looks'`; got stopping={stopping!r} as well.")
    if budget is not None:
        budget = check_interval("budget", budget, 0, math.inf, closed="neither")
    alpha = check_interval("alpha", alpha, 0, 0.5, closed="neither")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RpcheckError(f"`overrides` must be a dict of parameter -> value; got {overrides!r}.")
    if resume and out is None:
        raise RpcheckError("`resume=True` needs `out`, the results directory holding the checkpoints.")
    if out is not None and isinstance(out, str) and not out.strip():
        raise RpcheckError(f"`out` ({out!r}) must be a directory path (or None for no results directory).")
    started = utc_now()
    from .data import check_data, select_for_profile  # lazy: pulls scipy in via rpcheck.datasets

    ths, _ = select_for_profile(_resolve_theorems(theorems), profile, explicit=theorems is not None)
    _check_shippable(ths, backend)
    _check_overrides(ths, profile, dict(overrides or {}))  # a bad override fails before any worker starts
    check_data(ths, profile, overrides)  # a required real data set that is absent fails before any trial
    # workers start while cells are built
    jobs = _backends.prestart(backend, jobs, sorted({th.trial.__module__ for th in ths}),
                              tasks=sum((trials or th.profiles[profile].max_trials) * len(th.profiles[profile].cells)
                                        for th in ths))  # fmt: skip
    settings = RunSettings(
        seed=seed, backend=backend, jobs=jobs, scheduler=scheduler, alpha=alpha, stopping=stopping,
        progress=progress, resume=resume, budget=budget,
    )  # fmt: skip
    plan = make_plan(ths, settings, profile=profile, overrides=overrides, trials=trials)
    if _heap.FREEZE_IMPORT_HEAP:
        _heap.freeze_import_heap(once=True)  # the CLI's process, once the theorems are imported

    spill = None
    if out is not None:
        key = _results_key(ths, seed, profile, alpha)
        store = CheckpointStore(prepare_results_dir(out, resume=resume, key=key))
        store.check_code_version(resume)
    else:  # trials are spilled to a temporary directory, removed at the end
        spill = tempfile.mkdtemp(prefix="rpcheck-run-")
        store = CheckpointStore(spill, durable=False)
    try:
        return _run_stored(plan, store, started=started, out=out)
    finally:
        if spill is not None:
            shutil.rmtree(spill, ignore_errors=True)


def _run_stored(plan, store, *, started, out):
    """The stages after planning, with the trials checkpointed in ``store``: execute, decide, replay the
    counterexamples (on the backend that ran the trials), tabulate; saved to ``out`` when given."""
    s = plan.settings
    t0 = time.perf_counter()
    with _using(s.backend, s.jobs, s.scheduler) as be:  # the trials and the replays share one pool or cluster
        workers = _execute.execute_cells(plan.cells, s, store, be)
        t1 = time.perf_counter()
        rows = tabulate(plan.cells, s, store)
        replayed = _replay_worst(replay_todo(rows), s.seed, be)

    counterexamples = attach_counterexamples(rows, replayed, s.seed)
    cells_df = _cells_frame(rows, s.seed)
    trial_tables = _trial_tables(plan.cells)

    prov = collect_provenance(
        seed=s.seed,
        profile=plan.profile,
        overrides=_jsonable_info(dict(plan.overrides or {})),
        trials=plan.trials,
        theorems=[th.id for th in plan.theorems],
        alpha=s.alpha,
        backend=s.backend,
        jobs=workers,
        sequential=bool(s.sequential),
        sequential_looks=len(max((c.looks for c in plan.cells), key=len, default=())) if s.sequential else None,
        stopping=s.stopping,
        budget_seconds=s.budget,
        family_size={"violated": plan.m_v, "holds": plan.m_h},
        resumed=bool(s.resume),
        started_utc=started,
        finished_utc=utc_now(),
        seeding="SeedSequence(seed, spawn_key=(crc32(theorem_id), crc32(canonical_json(params)), trial))",
        # wall seconds of the two phases: running the trials (scheduling, seeding, checkpoints, ingestion
        # included), then deciding and tabulating (tests, hooks, replays of counterexamples, tables)
        phase_seconds={"trials": t1 - t0, "decide_and_tabulate": time.perf_counter() - t1},
    )
    result = _results.RunResult(cells_df, trial_tables, prov, counterexamples, None)
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
    return _family_size(_build_cells(ths, profile, overrides, None))


def unattainable_expectations(theorem_ids, profile="ci", alpha=0.01, *, overrides=None, trials=None,
                              modes=("bound", "exact", "deterministic"), stopping="none"):
    """Declared expected verdicts that ``run(theorem_ids, profile=profile, alpha=alpha, overrides=overrides,
    trials=trials)`` cannot reach whatever the outcomes, computed without running a trial (the bookkeeping
    behind sizing a profile's trials).

    Every non-vacuous (cell, variant) row of a mode in ``modes`` with a declared HOLDS or VIOLATED is asked
    :func:`rpcheck.stats.unattainable` at the strictest level the run can give it: Holm's first step
    ``alpha / M``, ``M = family_size(theorem_ids, profile, overrides)``, for the "bound" and "exact" rows of
    the family, and ``alpha`` for the deterministic and search rows outside it. A row listed here is reconciled by
    the run to "INCONCLUSIVE also as expected" (or to INCONCLUSIVE outright where even ``alpha`` does not
    suffice): honest, but it says nothing at that profile. A deterministic row is asked with the cell's trial
    count, an upper bound on its evaluated draws (vacuous draws only lower it), so a listed deterministic
    row is certainly out of reach and an unlisted one may still fall short if draws are vacuous.

    Parameters
    ----------
    theorem_ids : str, Theorem, or list of them
    profile : {"quick", "ci", "standard", "full"}
    alpha : float in (0, 0.5)
        The run's family-wise level (as in :func:`run`).
    overrides : dict, optional
    trials : int, optional
        Trials per cell instead of the profile's (as in :func:`run`).
    modes : sequence of {"bound", "exact", "deterministic", "search"}
    stopping : {"none", "anytime"}, default="none"
        The run's stopping rule: "anytime" runs Holm at its share ``(1 - ANYTIME_SHARE) alpha`` (a row's
        anytime-valid e-value may decide it earlier; the cell's full trial count is what this asks).

    Returns
    -------
    list of dict
        One per row out of reach, in cell order: ``theorem``, ``variant``, ``mode``, ``cell``, ``trials``,
        ``expected`` (the declared verdict), ``level`` and ``reason`` (the rule's requirement).
    """
    check_choice("profile", profile, PROFILES)
    alpha = check_interval("alpha", alpha, 0, 0.5, closed="neither")
    modes = tuple(modes)
    for mode in modes:
        check_choice("modes", mode, ("bound", "exact", "deterministic", "search"))
    if trials is not None:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    ths = _resolve_theorems(theorem_ids)
    check_choice("stopping", stopping, ("none", "anytime"))
    cells = _build_cells(ths, profile, overrides, trials)
    level = RunSettings(seed=0, alpha=alpha, stopping=stopping).fixed_alpha
    return unattainable_rows(cells, level, modes)


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
    params = _validate.check_params(th, params, constraints=False)  # domains and memory (engine/validate.py)
    canonical = canonical_json(params)
    decoded = json.loads(canonical)
    cell = _Cell(th, 0, canonical, decoded, trials, (trials,), th.vacuous_reason(decoded), sample_size=trials)
    _execute.execute_cells([cell], RunSettings(seed=seed, backend=backend, jobs=jobs, scheduler=scheduler))
    counts = {}
    recs = cell.agg.sample_records(cell.target)  # sample_size = trials: every trial
    for spec in cell.specs:
        c = _counts(cell, spec.index)
        counts[spec.variant.name] = _results.VariantCount(c.failures, c.evaluated, c.vacuous, c.undetermined)
    return _results.CellOutcome(
        theorem=th.id,
        params=decoded,
        canonical=canonical,
        seed=seed,
        trials=len(recs),
        solver_errors=sum(not r.ok for r in recs),
        variants=counts,
        table=_trials_frame([cell]),
        seconds=float(sum(r.seconds for r in recs)),
    )
