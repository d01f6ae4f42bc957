"""Scaling of the engine on a Dask LocalCluster: 1, 2, 4, 8 workers against the serial run.

Not a test (not collected: the file name does not start with ``test_``). Run from the repository root::

    python benchmarks/dask_scaling.py [--theorem ID ...] [--profile ci] [--workers 1,2,4,8] [--seed 0] [--trials N]

For each worker count ``k`` the selected theorems run once with ``backend="dask"`` on a fresh LocalCluster of
``k`` single-threaded worker processes (BLAS threads limited to 1 per worker by dask's nanny; glibc's
``MALLOC_TRIM_THRESHOLD_`` unset as in the engine's own LocalCluster), after one serial run and one run of the
``processes`` backend with one worker per core. Every configuration is warmed first by a ``quick`` run of the
same theorems on the same workers (imports, numba caches, first-call costs). Reported per configuration:

- ``wall``: seconds from ``run()`` call to return, cluster start-up excluded (the cluster is started first and
  passed in as a client);
- ``work``: the summed per-trial seconds the workers measured (``seconds`` column, one value per cell);
- ``speedup`` = serial wall / wall, ``efficiency`` = speedup / k;
- ``overhead`` = 1 - work / (min(k, cores) * wall): the share of the available core time not spent inside
  trials (scheduling, transfer, checkpoint-free ingestion, idle tail). With more workers than cores (k = 4
  and 8 on a 2-core machine, the "simulated" counts) the cores are shared, so efficiency is bounded by
  cores / k and the overhead is computed against the cores, not the workers;
- ``identical``: the verdict table equals the serial one in every column except the timing column
  ``seconds`` (bit-identical counts, intervals, statistics quantiles and p-values).

Record the numbers in a ledger row of benchmarks/results/ with the machine load at the time of measurement.
"""

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's rpcheck, not an installed one

DEFAULT_THEOREMS = ("paul2014.c2", "shi2012.thm5", "zhang2013.thm1", "lei2020.rotation")


def _work_seconds(cells):
    per_cell = cells.drop_duplicates(["theorem", "cell"])
    return float(per_cell["seconds"].sum())


def _comparable(cells):
    return cells.drop(columns=["seconds"]).reset_index(drop=True)


def _load():
    return os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--theorem", action="append", dest="theorems")
    ap.add_argument("--profile", default="ci")
    ap.add_argument("--workers", default="1,2,4,8")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--trials", type=int, default=None,
                    help="trials per cell (default: the profile's); with --profile full, the full cells' sizes "
                         "and trial costs with fewer trials, so that six configurations fit in minutes")
    args = ap.parse_args()
    theorems = list(args.theorems or DEFAULT_THEOREMS)
    workers = [int(w) for w in args.workers.split(",")]
    cores = os.cpu_count() or 1

    import dask
    import distributed

    from rpcheck.engine import run
    from rpcheck.engine.backends import _TRIM_KEY

    run(theorems, profile="quick", backend="serial", seed=args.seed + 1)  # imports, numba caches, registries
    load0 = _load()
    t0 = time.perf_counter()
    serial = run(theorems, profile=args.profile, backend="serial", seed=args.seed, trials=args.trials)
    t_serial = time.perf_counter() - t0
    ref = _comparable(serial.cells)
    rows = [("serial", 1, t_serial, _work_seconds(serial.cells), 1.0, 1.0, None, True, load0)]
    run(theorems, profile="quick", backend="processes", jobs=cores, seed=args.seed + 1)  # start the pool
    load = _load()
    t0 = time.perf_counter()
    res = run(theorems, profile=args.profile, backend="processes", jobs=cores, seed=args.seed, trials=args.trials)
    wall = time.perf_counter() - t0
    work = _work_seconds(res.cells)
    same = _comparable(res.cells).equals(ref)
    rows.append(("processes", cores, wall, work, t_serial / wall, t_serial / wall / cores,
                 1.0 - work / (cores * wall), same, load))
    for k in workers:
        with dask.config.set({_TRIM_KEY: None}), distributed.LocalCluster(  # as the engine's own LocalCluster
            n_workers=k, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster, distributed.Client(cluster) as client:
            # Warm the workers exactly as the serial run was warmed: one quick run (imports, numba caches,
            # registries, first-call costs of cvxpy and scipy in every worker process).
            run(theorems, profile="quick", backend="dask", scheduler=client, seed=args.seed + 1)
            load = _load()
            t0 = time.perf_counter()
            res = run(theorems, profile=args.profile, backend="dask", scheduler=client, seed=args.seed,
                      trials=args.trials)
            wall = time.perf_counter() - t0
        work = _work_seconds(res.cells)
        speedup = t_serial / wall
        overhead = 1.0 - work / (min(k, cores) * wall)
        same = _comparable(res.cells).equals(ref)
        rows.append(("dask", k, wall, work, speedup, speedup / k, overhead, same, load))
        print("partial:", rows[-1], flush=True)  # survives a later configuration's failure
    print(f"theorems: {', '.join(theorems)}; profile {args.profile}; trials per cell {args.trials or 'profile'}; "
          f"seed {args.seed}; {cores} cores")
    print("| backend | workers | wall s | trial work s | speedup | efficiency | overhead | identical | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, k, wall, work, sp, eff, ov, same, load in rows:
        ov_s = "" if ov is None or k > cores else f"{ov:.1%}"  # oversubscribed: trial times include waiting
        print(f"| {name} | {k} | {wall:.1f} | {work:.1f} | {sp:.2f} | {eff:.2f} | {ov_s} | {same} | {load:.1f} |")
    if not all(r[7] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
