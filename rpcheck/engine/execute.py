r"""Executing a plan: backends, chunks, checkpoints and the live loop of looks.

Seeding
-------
Trial ``i`` of cell ``params`` of theorem ``theorem_id`` under root seed ``seed`` draws all its randomness
from ::

    np.random.default_rng(np.random.SeedSequence(
        seed, spawn_key=(crc32(theorem_id), crc32(canonical_json(params)), i)))

(:func:`rpcheck.engine.trial_seed_sequence`). The stream depends on nothing else, so results are bit-identical
for every backend, number of workers and chunking, a resumed run equals an uninterrupted one, and one trial
replays alone (:func:`rpcheck.engine.replay_trial`). Distinct spawn keys give independent streams (NumPy's
``SeedSequence`` hashes the entropy and the spawn key together).

Parameters reach the trial as ``json.loads(canonical_json(params))`` in every backend (tuples become
lists), so parameter values must be JSON scalars or lists of them.

Scheduling
----------
:func:`execute_cells` submits each cell's missing trials in chunks (a small probe first, then chunks sized
from the measured trial time: :func:`_probe_size`, :func:`_chunk_size`), folds every finished chunk into
the cell's aggregate (:mod:`rpcheck.engine.aggregate`) and checkpoints it. A cell advances look by look; in
a sequential run it stops at the first look where every variant is settled (:func:`rpcheck.engine.decide.
_settled`). With ``resume`` the checkpointed chunks are ingested first and only the missing ranges run.

Under a time budget the chunks do not go to the backend in plan order: they wait in a queue, at most
``BUDGET_IN_FLIGHT`` per worker run at once, and the next one is taken from the cell with the most expected
decisions per CPU second, :func:`_priority`: the cell's rows not yet settled (:func:`rpcheck.engine.decide.
open_rows`) over the CPU seconds its current look still needs (measured seconds per trial times the trials
missing up to the look). A cell not timed yet goes first (its probe measures it). Which trials run never changes
a result (each trial's stream depends on its index only); the order decides which rows a spent budget leaves
undecided.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager

from . import backends as _backends
from ._worker import _run_chunk
from .decide import _settled, open_rows
from .plan import MAX_TRIALS, UNTIL_DECIDED_GROWTH, RunSettings
from .store import ChunkResult, outcome_columns

#: Upper limit on trials per chunk (checkpoint and progress granularity) from the load-balancing rule ...
MAX_CHUNK = 256
#: ... which fast trials exceed, up to this many, to reach ``MIN_CHUNK_SECONDS`` of work per chunk: a chunk
#: costs a fixed 2-6 ms to write and to read back (zip archive of ~12 arrays), 256 trials of 70 us take 18 ms.
MAX_FAST_CHUNK = 16384


#: Least measured work per chunk, in seconds, once a cell's trial time is known, per backend. The parent's
#: per-chunk cost (ingest, columns, zip, fsync) is about 6.3 ms of CPU on a quiet machine (shi2012.thm8.final_step
#: at ci, 40,000 trials a cell, results on disk) and about 38 ms on a loaded 2-core machine (the same theorem at
#: `full`, where half of the parent's busy time is the checkpoint's fsync). Chunks of at least 1 s cut that
#: cost about four-fold against chunks of a quarter second. A Dask chunk also costs the client and scheduler
#: about 8 ms of CPU (on a 2-core LocalCluster, where they share the cores with the workers:
#: benchmarks/dask_scaling.py), so Dask chunks are at least 1 s too.
#: Chunking never changes a result (every trial's stream depends on its index only); it sets the checkpoint
#: and progress granularity.
MIN_CHUNK_SECONDS = {"serial": 1.0, "processes": 1.0, "dask": 1.0}
#: The parent ingests and checkpoints finished chunks one at a time, at the CPU cost per chunk measured above
#: (38 ms on the loaded machine, the larger of the two) plus Dask's 8 ms. P workers finishing chunks of w
#: seconds of work keep it busy a share P x PARENT_CHUNK_SECONDS / w of the time; past 1 the parent, not the
#: workers, sets the pace. A chunk therefore holds at least P x PARENT_CHUNK_SECONDS / PARENT_BUSY_MAX seconds
#: of work (:func:`_min_chunk_seconds`): the backend's 1 s up to 10 workers, 5.9 s at 64. Replayed on the
#: `full` run's measured trial times (benchmarks/full_scaling_estimate.py, PROFILES.md), 1 s chunks on 64
#: workers would make 58,768 chunks, 0.75 h of the parent's serial work against 0.36 h for the workers; with
#: this rule the parent's share is 0.4-1.2% and the workers' span is the same.
PARENT_CHUNK_SECONDS = 0.046
PARENT_BUSY_MAX = 0.5
#: Chunks per worker submitted at once under a time budget (the rest wait in the priority queue): two keep
#: every worker busy while the parent ingests, and leave the choice of the next chunk as late as possible. The
#: serial backend runs one chunk at a time in the parent, so it has one in flight.
BUDGET_IN_FLIGHT = 2


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
    dominate), up to ``MAX_FAST_CHUNK`` trials. Chunking never changes a result: every trial's random stream
    depends on its index only, and a resume fills whatever ranges are missing."""
    size = min(MAX_CHUNK, math.ceil(n_missing / max(1, 4 * jobs)))
    if seconds_per_trial is not None and seconds_per_trial > 0:
        size = max(size, min(MAX_FAST_CHUNK, math.ceil(min_seconds / seconds_per_trial)))
    elif seconds_per_trial is not None:
        size = MAX_FAST_CHUNK
    return max(1, min(n_missing, size))


def _priority(cell, settings):
    """Expected decisions per CPU second of the cell's next chunk (module docstring, "Scheduling"): infinite for a
    cell not timed yet; else its open rows (1 in a run without stopping, whose rows all wait for the last trial)
    over the measured CPU seconds to its current look."""
    if not cell.timed:
        return math.inf
    rows = open_rows(cell, settings) if settings.sequential else 1
    missing = sum(b - a for a, b in cell.agg.missing(cell.target))
    return rows / (max(missing, 1) * max(cell.busy / cell.timed, 1e-9))


def _missing_ranges(cell, stop):
    return cell.agg.missing(stop)


def _extend(cell, settings):
    """An until-decided cell at its last look: when some row is not decided yet and the cell may grow
    (``UNTIL_DECIDED_GROWTH`` times its planned trials, at most MAX_TRIALS), double its trials (looks at the
    same spacing) and say so; else False."""
    limit = min(MAX_TRIALS, cell.planned * UNTIL_DECIDED_GROWTH)
    if cell.n >= limit or _settled(cell, settings):
        return False
    n = min(limit, 2 * cell.n)
    step = max(1, cell.looks[0])
    new = tuple(range(cell.n + step, n, step)) + (n,)
    cell.looks = cell.looks + new
    cell.n = n
    cell.agg.extend(cell.looks, n)
    return True


@contextmanager
def _using(backend, jobs, scheduler):
    """``backend`` as an open backend: itself when it already is one (a run's trials and its counterexample
    replays share one pool or cluster), else opened here for the duration of the block."""
    if hasattr(backend, "submit"):
        yield backend
        return
    with _backends.open_backend(backend, jobs=jobs, scheduler=scheduler) as be:
        yield be


def execute_cells(cells, settings: RunSettings, store=None, be=None) -> int:
    """Run every cell's missing trials (and, with ``settings.resume``, first ingest the checkpointed ones from
    ``store``) on the open backend ``be``, or else on ``settings.backend`` (a name, opened here with
    ``settings.jobs`` and ``settings.scheduler``, or an open backend). Finished chunks go to the cells'
    aggregates and to ``store`` (None: not saved). Returns the number of workers."""
    seed, sequential = settings.seed, settings.sequential
    progress, resume = settings.progress, settings.resume
    deadline = None if settings.budget is None else time.monotonic() + settings.budget
    until = settings.stopping == "until-decided"
    over = [False]  # the time budget is spent: no new chunk is scheduled

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

    with _using(settings.backend if be is None else be, settings.jobs, settings.scheduler) as be:
        workers = be.jobs
        min_chunk = _min_chunk_seconds(be.name, be.jobs)
        handles = {}
        queue = []  # budgeted runs: (cell, start, end, theorem ref, module) not submitted yet

        def schedule(cell):
            # advance through looks until some trials are missing or the cell is finished
            while True:
                if over[0]:
                    cell.finished = True
                    cell.budget_cut = cell.look + 1 < len(cell.looks) or bool(_missing_ranges(cell, cell.target))
                    return
                ranges = _missing_ranges(cell, cell.target)
                if ranges:
                    n_missing = sum(b - a for a, b in ranges)
                    # serial: the Theorem object itself; workers: its id (+ the module registering it)
                    ref = cell.theorem if be.name == "serial" else cell.theorem.id
                    module = cell.theorem.trial.__module__

                    def submit(s, e, ref=ref, module=module):
                        cell.pending += 1
                        if deadline is None:
                            handles[be.submit(_run_chunk, ref, module, cell.canonical, s, e, seed)] = (cell, s, e)
                        else:
                            queue.append((cell, s, e, ref, module))

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
                    if not (until and _extend(cell, settings)):
                        cell.finished = True
                        return
                    continue
                if sequential and _settled(cell, settings):
                    cell.finished = True
                    cell.stopped_early = True
                    return
                cell.look += 1

        def pump():
            # budgeted runs: keep BUDGET_IN_FLIGHT chunks per worker running, the best expected decisions per
            # CPU second first (ties: plan order)
            while queue and len(handles) < (1 if be.name == "serial" else BUDGET_IN_FLIGHT * workers):
                best = max(range(len(queue)), key=lambda i: (_priority(queue[i][0], settings), -i))
                cell, s, e, ref, module = queue.pop(best)
                handles[be.submit(_run_chunk, ref, module, cell.canonical, s, e, seed)] = (cell, s, e)

        for c in cells:
            schedule(c)
        pump()
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
                    if deadline is not None and not over[0] and time.monotonic() >= deadline:
                        over[0] = True
                        for other in list(handles):  # chunks not started yet are dropped; running ones finish
                            if other.cancel():
                                handles[other][0].pending -= 1
                                del handles[other]
                        for queued in queue:
                            queued[0].pending -= 1
                        queue.clear()
                        for c in cells:
                            if c.pending == 0 and not c.finished:
                                schedule(c)
                    if cell.pending == 0:
                        schedule(cell)
                    pump()
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
