"""What the ``full`` profile would take on P workers, from the per-trial seconds measured in the full run.

Usage::

    python benchmarks/full_scaling_estimate.py --runs SCRATCH [--workers 2 16 64]

``--runs`` holds one ``rpcheck check ID --profile full --out DIR`` directory per theorem (the layout
``benchmarks/full_by_theorem.py`` writes); each has ``trials/*.parquet`` with every trial's measured
``seconds``. ``--runs docs/full-run/traces`` reads the committed traces instead (the same layout, those columns
only; ``full_by_theorem.py`` writes one per completed theorem, and ``--trace`` for a completed directory).
The per-theorem CPU, pauses and serial decide phase come from the committed ledger (``docs/full-run/ledger.jsonl``).

The model replays the engine's own scheduling (:func:`rpcheck.engine.execute.execute_cells`) on the measured trial
times, for ``rpcheck verify --profile full`` with every theorem's cells in one pool:

- every cell first submits a probe chunk of ``_probe_size(n, P)`` trials; when it returns, the rest of the
  cell is cut into chunks of ``_chunk_size(n_missing, P, seconds_per_trial, _min_chunk_seconds("dask", P))``
  trials, all submitted at once (the engine's own functions, so the chunk sizes are the engine's;
  ``--min-chunk-seconds`` replaces the least work per chunk for a what-if);
- P identical workers take chunks first come, first served (Dask and the process pool both run tasks of
  equal priority in submission order); a chunk costs the sum of its trials' seconds;
- the parent ingests and checkpoints every chunk, one at a time: about 38 ms of CPU a chunk on the loaded
  2-core machine (6.3 ms in a quiet ci run), plus about 8 ms for Dask's client and scheduler
  (the comments on ``rpcheck.engine.execute.MIN_CHUNK_SECONDS``). That is printed as the parent's serial load,
  ``chunks x --parent-chunk-seconds``; where it exceeds the workers' span the parent, not the workers, sets
  the pace;
- the parent's tabulation (decide, counterexamples, tables) then runs serially: the sum over theorems of the
  ledger's ``phase_seconds.decide_and_tabulate``.

Trial seconds are wall-clock seconds of the trial function in a worker. They leave out the engine's work
around it (seeding, record checks, columns, the parent's ingest), which is most of the cost of a trial of a
few microseconds, and on a shared machine they include waiting for a core. So each theorem's seconds are
scaled to its measured CPU: by ``(cpu_seconds - decide_and_tabulate) / trial_seconds`` from its ledger row
(the CPU of its whole process tree, less the serial tabulation, whose wall time stands for its CPU). A theorem
whose CPU is only a lower bound (a segment stopped before its workers' CPU could be read) is left unscaled.
A trial that spans a recorded SIGSTOP hold (``paused_seconds``) has the hold subtracted first. The model is
checked against the run itself (``--validate``): each single-segment theorem is replayed alone with P = 2 (the
processes backend) and compared with its measured trial-phase wall time.

Not modelled: memory per worker (the largest full-profile trials hold several GB: BENCHMARKS.md), a core
faster or slower than this machine's, and worker start-up (a few seconds per worker).
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pandas as pd

from rpcheck.engine.execute import _chunk_size, _min_chunk_seconds, _probe_size

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))  # the driver's ledger reader, also when this file is loaded by path (the tests)
from full_by_theorem import read_ledger  # noqa: E402


def load_cells(run_dir, row):
    """{cell index: per-trial seconds, ordered by trial index} of one theorem's run directory, corrected and
    scaled as the module docstring says, and the CPU factor applied.

    ``trials/*.parquet`` holds each cell's first ``TRIAL_SAMPLE`` (2,000) trials only; ``cells.parquet`` holds
    every cell's summed seconds. A larger cell's other trials take the sample's seconds in turn (trial i the
    sample's trial i mod 2,000), rescaled so that the cell sums to its recorded total."""
    files = sorted((run_dir / "trials").glob("*.parquet"))
    if not files or not (run_dir / "cells.parquet").exists():
        return None, None
    t = pd.concat([pd.read_parquet(f, columns=["cell", "trial", "seconds"]) for f in files])
    t = t.sort_values(["cell", "trial"])
    c = pd.read_parquet(run_dir / "cells.parquet", columns=["cell", "trials", "seconds"])
    totals = c.groupby("cell").agg(trials=("trials", "max"), seconds=("seconds", "max"))
    paused = float(row.get("paused_seconds") or 0.0)
    cells = {}
    for k, g in t.groupby("cell", sort=True):
        raw = g["seconds"].to_numpy(dtype=float)
        s = raw.copy()
        if paused > 0:
            s[s > paused] -= paused  # a trial that spans the SIGSTOP hold
        n, total = int(totals.loc[k, "trials"]), float(totals.loc[k, "seconds"]) - float(raw.sum() - s.sum())
        if n > len(s):
            tiled = np.resize(s, n)
            s = tiled * (total / tiled.sum()) if tiled.sum() > 0 else tiled
        cells[int(k)] = s
    trial_seconds = sum(float(s.sum()) for s in cells.values())
    segments = [row, *row.get("prior_segments", [])]
    lower_bound = any(seg.get("cpu_is_lower_bound") for seg in segments)
    cpu = float(row.get("cpu_seconds_total", row.get("cpu_seconds")) or 0.0)
    serial = float(row.get("phase_seconds", {}).get("decide_and_tabulate", 0.0))
    factor = 1.0
    if cpu > serial and trial_seconds > 0 and not lower_bound:
        factor = (cpu - serial) / trial_seconds
    return {k: s * factor for k, s in cells.items()}, factor


def replay(cells, workers, min_chunk=None, backend="dask"):
    """Makespan (s) and chunk count of the engine's scheduling of ``cells`` (a list of per-trial second arrays)
    on ``workers`` identical workers; see the module docstring. ``min_chunk``: least work per chunk, by
    default the engine's (:func:`rpcheck.engine.execute._min_chunk_seconds`)."""
    if min_chunk is None:
        min_chunk = _min_chunk_seconds(backend, workers)
    prefix = [np.concatenate(([0.0], np.cumsum(s))) for s in cells]
    # (cell, start, stop) in submission order: every cell's probe first
    queue = deque((k, 0, min(len(s), _probe_size(len(s), workers))) for k, s in enumerate(cells))
    running = []  # (finish time, cell, start, stop) of the chunks on the workers
    idle, chunks, now = workers, 0, 0.0
    while queue or running:
        while queue and idle:  # a free worker takes the next chunk at once
            k, a, b = queue.popleft()
            heapq.heappush(running, (now + prefix[k][b] - prefix[k][a], k, a, b))
            idle -= 1
            chunks += 1
        now, k, a, b = heapq.heappop(running)
        idle += 1
        n = len(cells[k])
        if a == 0 and b < n:  # the probe is back: the rest of the cell, sized from its measured trial time
            size = _chunk_size(n - b, workers, prefix[k][b] / b, min_chunk)
            queue.extend((k, s0, min(n, s0 + size)) for s0 in range(b, n, size))
    return now, chunks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=Path, required=True)
    ap.add_argument("--ledger", type=Path, default=REPO / "docs" / "full-run" / "ledger.jsonl")
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 16, 64])
    ap.add_argument("--parent-chunk-seconds", type=float, nargs=2, default=[0.0143, 0.046], metavar=("QUIET", "LOADED"),
                    help="the parent's serial cost per chunk, two measurements (6.3 ms quiet ci or 38 ms loaded full, "
                         "each + 8 ms of Dask)")
    ap.add_argument("--min-chunk-seconds", type=float, default=None,
                    help="least work per chunk, a what-if (default: the engine's rule for P workers)")
    ap.add_argument("--validate", action="store_true",
                    help="replay each theorem alone with P = 2 against its measured wall")
    ap.add_argument("--list-missing", action="store_true", help="name every ledger row without trial files")
    args = ap.parse_args(argv)

    ledger = read_ledger(args.ledger)
    per_theorem, missing, other, other_ids = {}, [], [], set()
    for tid, row in sorted(ledger.items()):
        cells, factor = load_cells(args.runs / tid, row)
        if cells is None:
            missing.append(tid)
            continue
        prov_file = args.runs / tid / "provenance.json"
        prov = json.loads(prov_file.read_text()) if prov_file.exists() else {}
        commits = {row.get("commit")} | {p.get("commit") for p in row.get("prior_segments", [])}
        if prov.get("git_commit") not in commits:
            other_ids.add(tid)
            other.append(f"{tid} (ran on {str(prov.get('git_commit'))[:7]}, ledger {str(row.get('commit'))[:7]})")
        per_theorem[tid] = (cells, factor)
    all_cells = [s for cells, _ in per_theorem.values() for s in cells.values()]
    work = sum(float(s.sum()) for s in all_cells)
    longest = max(float(s.max()) for s in all_cells)
    serial = sum(float(ledger[t].get("phase_seconds", {}).get("decide_and_tabulate", 0.0)) for t in per_theorem)
    # after a machine reset most rows have no results directory: name them all only when they are few
    few = args.list_missing or len(missing) <= 8
    shown = ", ".join(missing if few else missing[:3]) + ("" if few else ", ... (see --list-missing)")
    print(f"theorems {len(per_theorem)} ({len(missing)} ledger rows without trial files: {shown or 'none'}); "
          f"cells {len(all_cells)}; trials {sum(len(s) for s in all_cells):,}")
    if other:
        print("trial times from a run directory of another commit than the ledger row (its CPU scales them): "
              + "; ".join(other))
    print(f"work {work / 3600:.2f} h of corrected trial seconds; longest trial {longest:.0f} s; "
          f"serial tabulation {serial / 60:.1f} min (sum of the ledger's decide_and_tabulate)")
    print()
    print("| workers | trial phase (model) | lower bound max(work/P, longest trial) | efficiency | chunks | "
          "parent's serial chunk load | total with serial tabulation |")
    print("|---|---|---|---|---|---|---|")
    for p in args.workers:
        span, chunks = replay(all_cells, p, args.min_chunk_seconds)
        lb = max(work / p, longest)
        lo, hi = (chunks * c for c in args.parent_chunk_seconds)
        print(f"| {p} | {span / 3600:.2f} h | {lb / 3600:.2f} h | {work / (p * span):.2f} | {chunks:,} | "
              f"{lo / 3600:.2f}-{hi / 3600:.2f} h | {(max(span, lo) + serial) / 3600:.2f}-"
              f"{(max(span, hi) + serial) / 3600:.2f} h |")
    if args.validate:
        print()
        print("| theorem | measured trial-phase wall (s) | model, P = 2 (s) | model / measured | cpu factor |")
        print("|---|---|---|---|---|")
        quiet, shared = [], []
        for tid, (cells, factor) in per_theorem.items():
            row = ledger[tid]
            meas = row.get("phase_seconds", {}).get("trials")
            if not meas or row.get("prior_segments") or row.get("resumed") or tid in other_ids:
                continue  # resumed: the last segment's phase covers only its part; other commit: other times
            meas = float(meas) - float(row.get("paused_seconds") or 0.0)
            span, _ = replay(list(cells.values()), 2, backend="processes")
            (quiet if 0.9 <= factor <= 1.1 and meas >= 30 else shared).append(span / meas)
            print(f"| {tid} | {meas:.1f} | {span:.1f} | {span / meas:.2f} | {factor:.2f} |")
        if not quiet:
            print(f"\nno single-segment theorem of >= 30 s that had the 2 cores to themselves to validate against "
                  f"({len(shared)} others)")
            return 0
        q = np.quantile(quiet, [0, 0.5, 1])
        print(f"\n{len(quiet)} single-segment theorems of >= 30 s that had the 2 cores to themselves (CPU factor "
              f"0.9-1.1): model / measured median {q[1]:.2f}, range {q[0]:.2f}-{q[2]:.2f}. The other {len(shared)} "
              "shared the machine (factor < 0.9: the model counts their CPU, the wall time also waited for a core) "
              "or are a few seconds of start-up (factor > 1.1).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
