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

Memory
------
The parent's memory is flat in the number of trials. Each finished chunk is folded into its cell's
aggregate (:class:`_CellAggregate`: counts per variant and look segment, the largest statistic, the
smallest slack, the worst certified failure with its record, and the records of the first
:data:`TRIAL_SAMPLE` trials) and written to a columnar checkpoint file (:class:`rpcheck.engine.store.
CheckpointStore`; without ``out`` in a temporary directory removed at the end), then dropped. The parent
thus holds O(cells x TRIAL_SAMPLE) records, independently of the trials per cell. The exceptions are the
``decide`` hooks of report-mode variants, which receive every record of their cell: those are read back
from the chunk files one cell at a time during tabulation (report-mode theorems have few trials: at most
50,000 per cell in the registered profiles, shi2012.thm5 "full"). ``RunResult.trials`` holds the sampled
trials; :func:`rpcheck.engine.load_trials` loads every trial of a results directory. Measured with
``tests/bench/memory_trials.py`` (300,000 trials of ``engine_test.cheap``, serial, no ``out``): parent RSS
+0.4 MB retained and peak over the warm baseline, against +96 MB / +252 MB when every record was kept.

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

import bisect
import gc
import json
import math
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from .. import stats as _stats
from . import loading as _results
from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from .. import _heap
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
from .theorem import ALL_PROFILES, PROFILES, Outcome, Theorem, TrialRecord, Variant, Verdict

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
#: Upper limit on trials per chunk (checkpoint and progress granularity) from the load-balancing rule ...
MAX_CHUNK = 256
#: ... which fast trials exceed, up to this many, to reach ``MIN_CHUNK_SECONDS`` of work per chunk: a chunk
#: costs a fixed 2-6 ms to write and to read back (zip archive of ~12 arrays), 256 trials of 70 us take 18 ms.
MAX_FAST_CHUNK = 16384
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

    @property
    def target(self):
        return self.looks[self.look]


_NAN = math.nan


class _CellAggregate:
    """What the parent keeps of one cell's trials: memory independent of the number of trials.

    - ``bins[b, j]``: the counts (failures, evaluated, undetermined, solver errors, vacuous) of variant ``j``
      over the trials of look segment ``b`` (``looks[b-1] <= i < looks[b]``), so the counts up to any look
      are exact sums (sequential stopping and the final tabulation both use them);
    - per segment and variant: the largest statistic, the smallest slack ``bound - statistic`` (NaN
      ignored) and the worst certified failure (smallest slack, ties and all-NaN slacks broken by the
      smallest trial index) with its record, for counterexamples;
    - ``sample``: the records of the trials ``i < sample_size`` (quantiles, plots, ``RunResult.trials``);
    - ``intervals``: the trial indices already ingested, as merged half-open ranges.

    Every field is a function of the set of ingested trials, not of their arrival order, so results are
    bit-identical across backends, chunkings and resumes.
    """

    def __init__(self, looks, n_variants, n, sample_size):
        self.looks, self.n, self.sample_size = tuple(looks), n, sample_size
        self._looks = np.asarray(self.looks, dtype=np.int64)
        nb = len(self.looks)
        self.bins = np.zeros((nb, n_variants, 5), np.int64)
        self.attempted = np.zeros(nb, np.int64)
        self.seconds = [0.0] * nb
        self.stat_max = [[_NAN] * n_variants for _ in range(nb)]
        self.slack_min = [[_NAN] * n_variants for _ in range(nb)]
        self.worst = [[None] * n_variants for _ in range(nb)]  # (slack, i, record), slack not NaN
        self.first_fail = [[None] * n_variants for _ in range(nb)]  # (i, record)
        self.sample = {}
        self.intervals = []
        self.ingested = 0

    # -- ingested trial indices
    def covered(self, i):
        j = bisect.bisect_right(self.intervals, (i, math.inf)) - 1
        return j >= 0 and self.intervals[j][0] <= i < self.intervals[j][1]

    def _overlaps(self, a, b):
        return any(x < b and a < y for x, y in self.intervals)

    def _cover(self, a, b):
        iv = sorted(self.intervals + [(a, b)])
        merged = []
        for x, y in iv:
            if merged and x <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], y))
            else:
                merged.append((x, y))
        self.intervals = merged

    def missing(self, stop):
        """Half-open ranges of trial indices ``< stop`` not ingested yet."""
        out, pos = [], 0
        for x, y in self.intervals:
            if x >= stop:
                break
            if x > pos:
                out.append((pos, x))
            pos = max(pos, y)
        if pos < stop:
            out.append((pos, stop))
        return out

    # -- ingestion
    def ingest(self, start, stop, recs, columns=None):
        """Add the records of trials ``start .. stop-1`` (those already ingested or ``>= n`` are skipped).
        ``columns``: their :func:`rpcheck.engine.store.outcome_columns`, when the caller has it.

        Vectorised over the chunk; the result equals adding the trials one at a time in any order
        (the reference ``_add_one`` in ``tests/engine/test_streaming.py``): counts are sums, the largest statistic
        and the smallest slack are the first occurrence of the extreme (a later equal value, e.g. -0.0
        after 0.0, does not replace it), the worst failure is the smallest ``(slack, trial index)``."""
        from .store import outcome_columns

        if not recs:
            return
        v = self.bins.shape[1]
        cols = columns if columns is not None else outcome_columns(recs, v)
        ii = cols["i"]
        keep = ii < self.n
        if self._overlaps(start, stop):
            keep &= np.fromiter((not self.covered(int(i)) for i in ii), bool, ii.size)
        pos = np.flatnonzero(keep)
        if pos.size == 0:
            return
        ii = ii[pos]
        seg = np.searchsorted(self._looks, ii, side="right")
        ok = cols["status"][pos] == 0
        secs = cols["seconds"][pos]
        for t in np.flatnonzero(ii < self.sample_size):
            self.sample[int(ii[t])] = recs[int(pos[t])]
        self.ingested += int(pos.size)
        for b in np.unique(seg).tolist():
            inb = seg == b
            self.attempted[b] += int(inb.sum())
            for x in secs[inb].tolist():
                self.seconds[b] += x
            self.bins[b, :, 3] += int((inb & ~ok).sum())
            q = np.flatnonzero(inb & ok)
            if q.size and v:
                self._ingest_segment(b, ii[q], pos[q], cols, recs)
        runs = []
        for i in ii.tolist():
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        for a, b in runs:
            self._cover(a, b)

    def _ingest_segment(self, b, ii, rows, cols, recs):
        """The ok trials ``rows`` (positions in the chunk; trial indices ``ii``) of look segment ``b``."""
        H = cols["holds"][rows]
        S = cols["statistic"][rows]
        Bd = cols["bound"][rows]
        V = cols["vacuous"][rows]
        U = cols["undetermined"][rows]
        bins = self.bins[b]
        nv = ~V
        bins[:, 4] += V.sum(axis=0)
        bins[:, 1] += nv.sum(axis=0)
        bins[:, 2] += (U & nv).sum(axis=0)
        fail = nv & ~U & ~H
        bins[:, 0] += fail.sum(axis=0)
        with np.errstate(invalid="ignore"):  # inf - inf: a NaN slack, ignored as one trial at a time
            slack = Bd - S
        smax, smin, worst, first = self.stat_max[b], self.slack_min[b], self.worst[b], self.first_fail[b]
        big = np.iinfo(np.int64).max
        with np.errstate(invalid="ignore"):
            sv = nv & (S == S)
            lv = nv & (slack == slack)
            top = np.argmax(np.where(sv, S, -np.inf), axis=0)
            low = np.argmin(np.where(lv, slack, np.inf), axis=0)
            wmask = fail & (slack == slack)
            wmin = np.where(wmask, slack, np.inf).min(axis=0)
            wpick = np.argmin(np.where(wmask & (slack == wmin), ii[:, None], big), axis=0)
        fpick = np.argmin(np.where(fail, ii[:, None], big), axis=0)
        any_s, any_l, any_w, any_f = sv.any(axis=0), lv.any(axis=0), wmask.any(axis=0), fail.any(axis=0)
        for j in np.flatnonzero(any_s | any_f).tolist():
            if any_s[j]:
                stat = float(S[top[j], j])
                if not (stat <= smax[j]):
                    smax[j] = stat
            if any_l[j]:
                sl = float(slack[low[j], j])
                if not (sl >= smin[j]):
                    smin[j] = sl
            if any_f[j]:
                t = int(fpick[j])
                i = int(ii[t])
                if first[j] is None or i < first[j][0]:
                    first[j] = (i, recs[int(rows[t])])
            if any_w[j]:
                t = int(wpick[j])
                key = (float(slack[t, j]), int(ii[t]))
                if worst[j] is None or key < worst[j][:2]:
                    worst[j] = (key[0], key[1], recs[int(rows[t])])

    # -- queries over the segments 0 .. nb-1
    def counts(self, j, nb):
        f, e, u, se, vac = (int(x) for x in self.bins[:nb, j].sum(axis=0))
        return _stats.Counts(f, e, u, se, vac)

    def extreme(self, table, j, nb, pick):
        vals = [table[b][j] for b in range(nb) if table[b][j] == table[b][j]]
        return pick(vals) if vals else _NAN

    def worst_failure(self, j, nb):
        """``(trial index, TrialResult)`` of the worst certified failure of variant ``j``, or None."""
        cands = [self.worst[b][j] for b in range(nb) if self.worst[b][j] is not None]
        if cands:
            _, i, r = min(cands, key=lambda t: (t[0], t[1]))
            return i, r
        firsts = [self.first_fail[b][j] for b in range(nb) if self.first_fail[b][j] is not None]
        return min(firsts, key=lambda t: t[0]) if firsts else None

    def sample_records(self, stop):
        """The sampled records with index ``< stop``, by index."""
        return [self.sample[i] for i in sorted(self.sample) if i < stop]


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
                why = th.cell_problem(params)
                if why:
                    raise RpcheckError(f"`overrides` make cell {idx} of theorem {th.id!r} invalid: {why}.")
            canonical = canonical_json(params)
            if canonical in seen:
                continue  # an override made two cells identical: run (and count) it once
            seen.add(canonical)
            decoded = json.loads(canonical)
            looks = _stats.sequential_looks(n, SEQUENTIAL_LOOKS) if sequential else (n,)
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


# ------------------------------------------------------------------------------------------- execution


#: Least measured work per chunk, in seconds, once a cell's trial time is known, per backend. The parent's
#: per-chunk cost (ingest, columns, zip, fsync) was 6.3 ms of CPU in a ci run (shi2012.thm8.final_step,
#: 40,000 trials a cell, results on disk: 171 chunks -> 70 at 1 s, parent CPU 2.86 -> 2.22 s) and about 38 ms
#: in the `full` run of the same theorem on a loaded 2-core machine (9,669 chunks of about 265 trials: 364 s of
#: parent CPU by `top` against 817 s in the two workers; py-spy put half of the parent's busy samples in the
#: checkpoint's fsync; session 16). Chunks of at least 1 s cut that cost about four-fold. A Dask chunk also
#: costs the client and scheduler about 8 ms of CPU (measured on a 2-core LocalCluster, where they share the
#: cores with the workers: 382 chunks of the ci run of tests/bench/dask_scaling.py's four theorems added 3 s of
#: parent CPU), so Dask chunks are at least 1 s too.
#: Chunking never changes a result (every trial's stream depends on its index only); it sets the checkpoint
#: and progress granularity.
MIN_CHUNK_SECONDS = {"serial": 1.0, "processes": 1.0, "dask": 1.0}
#: The parent ingests and checkpoints finished chunks one at a time, at the CPU cost per chunk measured above
#: (38 ms on the loaded machine, the larger of the two) plus Dask's 8 ms. P workers finishing chunks of w
#: seconds of work keep it busy a share P x PARENT_CHUNK_SECONDS / w of the time; past 1 the parent, not the
#: workers, sets the pace. A chunk therefore holds at least P x PARENT_CHUNK_SECONDS / PARENT_BUSY_MAX seconds
#: of work (:func:`_min_chunk_seconds`): the backend's 1 s up to 10 workers, 5.9 s at 64. Replayed on the
#: `full` run's measured trial times (tests/bench/full_scaling_estimate.py, PROFILES.md), 1 s chunks on 64
#: workers made 58,768 chunks, 0.75 h of the parent's serial work against 0.36 h for the workers; with this
#: rule the workers' span is unchanged.
PARENT_CHUNK_SECONDS = 0.046
PARENT_BUSY_MAX = 0.5


def _min_chunk_seconds(backend, jobs):
    """Least measured work per chunk for ``jobs`` workers on ``backend``: the backend's
    ``MIN_CHUNK_SECONDS``, raised to keep the parent's serial per-chunk work below ``PARENT_BUSY_MAX`` of its
    time. Chunking never changes a result, only the checkpoint and progress granularity."""
    base = MIN_CHUNK_SECONDS.get(backend, MIN_CHUNK_SECONDS["processes"])
    return max(base, max(1, jobs) * PARENT_CHUNK_SECONDS / PARENT_BUSY_MAX)


def _probe_size(n_missing, jobs):
    """Trials of a cell's first chunk, run before its trial time is known: 1/16 of a worker's fair share.
    The rest of the cell is sized from its measured time (:func:`_chunk_size`), so a cell of fast trials
    costs two chunks, not ``4 * jobs``; a lone cell leaves the other workers idle for at most this chunk
    (about 1/(16 jobs) of its work)."""
    return max(1, min(MAX_CHUNK, n_missing, math.ceil(n_missing / (16 * max(1, jobs)))))


def _ingest(cell, s, e, recs, cols):
    """Add the trials ``s .. e-1`` (their records and outcome columns) to the cell's aggregate and to its
    measured trial time, which sizes its later chunks (:func:`_chunk_size`)."""
    cell.agg.ingest(s, e, recs, cols)
    cell.timed += len(recs)
    cell.busy += float(cols["seconds"].sum())


def _chunk_size(n_missing, jobs, seconds_per_trial=None, min_seconds=MIN_CHUNK_SECONDS["processes"]):
    """Trials per chunk: about four chunks per worker (load balance) but at most ``MAX_CHUNK``; fast trials
    get at least ``min_seconds`` of measured work (else the per-chunk checkpoint and scheduling costs would
    dominate), up to ``MAX_FAST_CHUNK`` trials. Chunking never changes a result: every trial's random stream depends on its index only,
    and a resume fills whatever ranges are missing."""
    size = min(MAX_CHUNK, math.ceil(n_missing / max(1, 4 * jobs)))
    if seconds_per_trial is not None and seconds_per_trial > 0:
        size = max(size, min(MAX_FAST_CHUNK, math.ceil(min_seconds / seconds_per_trial)))
    elif seconds_per_trial is not None:
        size = MAX_FAST_CHUNK
    return max(1, min(n_missing, size))


def _missing_ranges(cell, stop):
    return cell.agg.missing(stop)


def _counts(cell, j, nb=None):
    """:class:`rpcheck.stats.Counts` of variant ``j`` over the look segments ``0 .. nb-1`` of the cell
    (default: up to the current look), i.e. over the trials ``< looks[nb-1]``."""
    return cell.agg.counts(j, cell.look + 1 if nb is None else nb)


def _settled(cell, levels):
    """Whether every variant of the cell is decided at this look (sequential mode): each non-vacuous row's
    decision (:func:`rpcheck.stats.decide`, the same function as the final tabulation) says ``stops``."""
    if cell.vacuous_reason:
        return True
    for spec in cell.specs:
        if spec.vacuous_reason:
            continue
        if spec.variant.mode == "report":
            return False
        d = _stats.decide(
            spec.variant.mode,
            _counts(cell, spec.index),
            spec.delta,
            alpha_violated=levels["v"],
            alpha_holds=levels["h"],
            exhaustive=spec.variant.exhaustive,
        )
        if not d.stops:
            return False
    return True


@contextmanager
def _using(backend, jobs, scheduler):
    """``backend`` as an open backend: itself when it already is one (a run's trials and its counterexample
    replays share one pool or cluster), else opened here for the duration of the block."""
    if hasattr(backend, "submit"):
        yield backend
        return
    from .backends import open_backend

    with open_backend(backend, jobs=jobs, scheduler=scheduler) as be:
        yield be


def _execute(cells, seed, backend, jobs, scheduler, store, sequential, seq_levels, progress, resume=False):
    """Run every cell's missing trials on ``backend`` (a name, opened here with ``jobs`` and ``scheduler``, or
    an open backend). Returns the number of workers."""
    from .store import ChunkResult, outcome_columns

    total = sum(c.n for c in cells)
    done = 0
    if store is not None and resume:
        for c in cells:
            names = c.theorem.variant_names
            for s, e, recs in store.iter_chunks(c.theorem.id, c.canonical, seed, names):
                # one chunk in memory at a time; checkpointed trials time the cell, so the rest is chunked at
                # once, with no 1-trial probe leaving workers idle (a resumed news20-binary cell of
                # lei2020.sparse_scale: one core, 21 min)
                _ingest(c, s, e, recs, outcome_columns(recs, len(names)))
    done = sum(c.agg.ingested for c in cells)
    if progress is not None:
        progress(done, total, {"event": "start", "resumed": done})

    with _using(backend, jobs, scheduler) as be:
        workers = be.jobs
        min_chunk = _min_chunk_seconds(be.name, be.jobs)
        handles = {}

        def schedule(cell):
            # advance through looks until some trials are missing or the cell is finished
            while True:
                ranges = _missing_ranges(cell, cell.target)
                if ranges:
                    n_missing = sum(b - a for a, b in ranges)
                    # serial: the Theorem object itself; workers: its id (+ the module registering it)
                    ref = cell.theorem if be.name == "serial" else cell.theorem.id
                    module = cell.theorem.trial.__module__

                    def submit(s, e, ref=ref, module=module):
                        h = be.submit(_run_chunk, ref, module, cell.canonical, s, e, seed)
                        handles[h] = (cell, s, e)
                        cell.pending += 1

                    if not cell.timed:  # measure the cell's trial time on a small first chunk
                        a = ranges[0][0]
                        submit(a, a + min(ranges[0][1] - a, _probe_size(n_missing, be.jobs)))
                        return
                    size = _chunk_size(n_missing, be.jobs, cell.busy / cell.timed, min_chunk)
                    for a, b in ranges:
                        for s in range(a, b, size):
                            submit(s, min(b, s + size))
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
                    names = cell.theorem.variant_names
                    # the worker's columns (store.ChunkResult), else computed once for the aggregate and the file
                    cols = recs.columns if isinstance(recs, ChunkResult) else outcome_columns(recs, len(names))
                    _ingest(cell, s, e, recs, cols)
                    if store is not None:
                        store.save_chunk(cell.theorem.id, cell.canonical, seed, s, e, recs, names, cols)
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
    # a sequential cell that stopped early ignores checkpointed trials beyond its last look: every query
    # below uses the look segments 0 .. cell.look only
    if progress is not None:
        # the end event reports the trials actually run (fewer than planned when cells stopped early)
        ran = sum(int(c.agg.attempted[: c.look + 1].sum()) for c in cells)
        progress(ran, ran, {"event": "end", "planned": total})
    return workers


# ------------------------------------------------------------------------------------------ tabulation


def _quantiles(x, qs):
    x = x[~np.isnan(x)]
    if x.size == 0:
        return [math.nan] * len(qs)
    return [float(v) for v in np.quantile(x, qs)]


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


def _tabulate(cells, alpha, sequential, seq_levels, store=None, seed=0):
    """Build every row once, run the Holm procedures over the families, then decide each row with the
    decision function of its mode (:func:`rpcheck.stats.decide`)."""
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
    if fam:
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
        _attainability(r, alpha, sequential, seq_levels, max(1, len(fam)))
    return rows


def _attainability(r, alpha, sequential, seq_levels, m=1):
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

    from .loading import CELL_COLUMNS, CELL_EXTRA_COLUMNS

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
        ``cells`` over all trials; ``trials`` holds the first :data:`TRIAL_SAMPLE` trials of each cell (all
        trials are in ``out``'s checkpoints: :func:`rpcheck.engine.load_trials`).

    Raises
    ------
    TrialError
        A trial raised an exception other than SolverError (solver errors are counted, not raised).
    """
    trials, seed, jobs = _check_common(trials, seed, backend, jobs)
    check_choice("profile", profile, ALL_PROFILES)
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
    from .data import check_data, select_for_profile

    ths, _ = select_for_profile(_resolve_theorems(theorems), profile, explicit=theorems is not None)
    _check_shippable(ths, backend)
    _check_overrides(ths, profile, dict(overrides or {}))  # a bad override fails before any worker starts
    check_data(ths, profile, overrides)  # a required real data set that is absent fails before any trial
    from .backends import prestart

    prestart(backend, jobs, sorted({th.trial.__module__ for th in ths}))  # workers start while cells are built
    cells = _build_cells(ths, profile, overrides, trials, sequential)
    if _heap.FREEZE_IMPORT_HEAP:
        _heap.freeze_import_heap(once=True)  # the CLI's process, once the theorems are imported
    m_v = sum(spec.in_family for c in cells for spec in c.specs)
    m_h = m_v  # the HOLDS family has the same members (bound and exact rows)
    seq_levels = {
        "v": alpha / (max(m_v, 1) * SEQUENTIAL_LOOKS),
        "h": alpha / (max(m_h, 1) * SEQUENTIAL_LOOKS),
    }

    spill = None
    if out is not None:
        from .store import prepare_results_dir

        key = _results_key(ths, seed, profile, alpha)
        store = CheckpointStore(prepare_results_dir(out, resume=resume, key=key))
        store.check_code_version(resume)
    else:  # trials are spilled to a temporary directory, removed at the end
        import tempfile

        spill = tempfile.mkdtemp(prefix="rpcheck-run-")
        store = CheckpointStore(spill, durable=False)
    try:
        return _run_stored(
            ths, cells, seed, backend, jobs, scheduler, store, sequential, seq_levels, progress, resume, alpha,
            m_v, m_h, started, profile, overrides, trials, out,
        )  # fmt: skip
    finally:
        if spill is not None:
            import shutil

            shutil.rmtree(spill, ignore_errors=True)


#: A counterexample's worst trial is replayed (for its artifacts, and to confirm that it reproduces) after
#: the trials, on the backend that ran them (the same pool or cluster, still open). A replay whose trial took
#: at least this many seconds in the run goes to the backend's workers, all such replays at once; the others
#: run in the main process, where they cost less than a round trip. In the main process, the replays of
#: lei2020.sparse_scale at `full` (one per cell, its dense-rotation control being VIOLATED by design; the
#: cells' trials average 85, 381 and 1,272 s) held the run for 2,135 s after its 4,056 s of trials
#: (PROFILES.md, session 26); on two or more workers they take about as long as the longest of them. The
#: threshold was 1 s until session 28: the quick profile's 135 replays, nearly all in the main process one
#: after the other, were a visible part of `rpcheck verify`'s time (its decide-and-tabulate phase went from
#: 4.9-5.4 s to 3.6-3.8 s with this threshold; BENCHMARKS.md). A round trip to a worker of the open pool
#: measured 0.5 ms on the 2-core development machine (a worker that has not run the theorem imports its
#: module once), so 10 ms is 20 round trips.
REPLAY_IN_WORKERS_SECONDS = 0.01


def _replay_worst(todo, seed, be):
    """Replay the trials in ``todo`` (``key -> (cell, trial index, its recorded seconds)``) on the open backend
    ``be`` (the run's).

    Returns ``key -> (where, (TrialResult, TrialRecord))``, where ``where`` is "the main process" or "a worker
    process". A replay is the same trial under the same seed and BLAS threading wherever it runs
    (tests/engine/test_counterexample.py compares the two)."""
    out = {}
    slow = sorted((k for k, (_, _, s) in todo.items() if s >= REPLAY_IN_WORKERS_SECONDS),
                  key=lambda k: -todo[k][2])  # longest first  # fmt: skip
    if slow and be.name != "serial":
        handles = {}
        for k in slow:
            cell, trial, _ = todo[k]
            h = be.submit(run_trial, cell.theorem.id, cell.canonical, trial, seed, cell.theorem.trial.__module__)
            handles[h] = k
        try:
            while handles:
                for h in be.wait_any(handles):
                    out[handles.pop(h)] = ("a worker process", h.result())
        except BaseException:
            for h in handles:
                h.cancel()
            raise
    for k, (cell, trial, _) in todo.items():
        if k not in out:
            out[k] = ("the main process", run_trial(cell.theorem, cell.canonical, trial, seed))
    return out


def _run_stored(ths, cells, seed, backend, jobs, scheduler, store, sequential, seq_levels, progress, resume, alpha,
                m_v, m_h, started, profile, overrides, trials, out):  # fmt: skip
    from .provenance import collect_provenance, utc_now

    import time

    t0 = time.perf_counter()
    with _using(backend, jobs, scheduler) as be:  # the trials and the replays share one pool or cluster
        workers = _execute(cells, seed, be, None, None, store, sequential, seq_levels, progress, resume)
        t1 = time.perf_counter()
        rows = _tabulate(cells, alpha, sequential, seq_levels, store, seed)
        todo = {}
        for r in rows:
            if r.worst is not None and r.decision.verdict is Verdict.VIOLATED:
                key = (r.cell.theorem.id, r.cell.canonical, r.worst)
                todo.setdefault(key, (r.cell, r.worst, float(r.worst_record.seconds)))
        replayed = _replay_worst(todo, seed, be)

    from .counterexample import build_counterexample

    counterexamples = {}
    for r in rows:
        if r.worst is None or r.decision.verdict is not Verdict.VIOLATED:
            continue
        cell = r.cell
        where, rerun = replayed[(cell.theorem.id, cell.canonical, r.worst)]
        rel, payload = build_counterexample(
            cell.theorem, r.spec.variant.name, cell.index, cell.canonical, r.worst, seed,
            r.worst_record, rerun, replayed_in=where,
        )  # fmt: skip
        counterexamples[rel] = payload
        r.counterexample = rel
    cells_df = _cells_frame(rows, seed)
    trial_tables = _trial_tables(cells)

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
    return _family_size(_build_cells(ths, profile, overrides, None, False))


def _family_size(cells):
    """The non-vacuous "bound"/"exact" rows of ``cells``: the Holm family's size (see :func:`family_size`)."""
    return int(sum(spec.in_family for c in cells for spec in c.specs))


def unattainable_expectations(theorem_ids, profile="ci", alpha=0.01, overrides=None, trials=None,
                              modes=("bound", "exact", "deterministic")):
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
    cells = _build_cells(ths, profile, overrides, trials, False)
    level = alpha / max(1, _family_size(cells))
    out = []
    for cell in cells:
        for spec in cell.specs:
            v = spec.variant
            if v.mode not in modes or spec.vacuous_reason or spec.expected not in (Verdict.HOLDS, Verdict.VIOLATED):
                continue
            row_level = level if v.mode in STAT_MODES else alpha
            why = _stats.unattainable(v.mode, spec.expected, cell.n, spec.delta, level=row_level,
                                      exhaustive=v.exhaustive)
            if why:
                out.append({"theorem": cell.theorem.id, "variant": v.name, "mode": v.mode, "cell": cell.index,
                            "trials": int(cell.n), "expected": spec.expected.value, "level": row_level,
                            "reason": why})
    return out


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
    cell = _Cell(th, 0, canonical, decoded, trials, (trials,), th.vacuous_reason(decoded), sample_size=trials)
    _execute([cell], seed, backend, jobs, scheduler, None, False, None, None)
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
