"""Replaying counterexamples: the worst certified failure of each VIOLATED deterministic or search row is run
again after the trials, for its artifacts and to confirm that it reproduces, then written as a counterexample
file (:mod:`rpcheck.engine.counterexample`)."""

from __future__ import annotations

from ._worker import run_trial
from .counterexample import build_counterexample
from .theorem import Verdict

#: A counterexample's worst trial is replayed (for its artifacts, and to confirm that it reproduces) after
#: the trials, on the backend that ran them (the same pool or cluster, still open). A replay whose trial took
#: at least this many seconds in the run goes to the backend's workers, all such replays at once; the others
#: run in the main process, where they cost less than a round trip. In the main process, the replays of
#: lei2020.sparse_scale at `full` (one per cell, its dense-rotation control being VIOLATED by design; the
#: cells' trials average 85, 381 and 1,272 s) would hold the run for about 2,100 s after its 4,056 s of
#: trials; on two or more workers they take about as long as the longest of them. The quick profile has
#: about 135 replays: with a 1 s threshold they would run in the main process one after the other, a visible
#: part of `rpcheck verify`'s time (its decide-and-tabulate phase takes 3.6-3.8 s with this threshold against
#: 4.9-5.4 s with 1 s). A round trip to a worker of the open pool
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


def replay_todo(rows):
    """The trials to replay: ``(theorem id, canonical params, trial index) -> (cell, trial index, its recorded
    seconds)`` for every VIOLATED row with a worst failure (deterministic/search), each trial once."""
    todo = {}
    for r in rows:
        if r.worst is not None and r.decision.verdict is Verdict.VIOLATED:
            key = (r.cell.theorem.id, r.cell.canonical, r.worst)
            todo.setdefault(key, (r.cell, r.worst, float(r.worst_record.seconds)))
    return todo


def attach_counterexamples(rows, replayed, seed):
    """Build the counterexample file of every VIOLATED row with a worst failure from its replay in
    ``replayed`` (:func:`_replay_worst`), set the row's ``counterexample`` to its relative path and return
    ``relative path -> payload``."""
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
    return counterexamples
