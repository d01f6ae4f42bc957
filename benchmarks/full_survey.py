"""What the ``full`` profile costs: one timed trial per ``full`` cell of every theorem, extrapolated.

Not a test (not collected). Run from the repository root::

    OMP_NUM_THREADS=1 python benchmarks/full_survey.py [--budget 30] [--theorem ID ...] [--out survey.csv]

For each theorem (after one untimed warm-up trial of its ``quick`` profile), the cells of its ``full`` profile
are visited in a seeded random order and ONE trial of each is run and timed in this process, in CPU seconds
(``time.process_time``; single-threaded BLAS, as the engine's workers run them, so other load on the machine
does not inflate the times), until the theorem's ``--budget`` seconds are spent; the cells not reached are
estimated by the mean per-trial time of the cells measured, a random sample of the grid (column ``measured``
says how many were). The estimate of the theorem's ``full`` CPU time is ``sum over cells of trials x seconds
per trial``. A trial that raises is recorded with its error and counts
as measured (its time is what a worker would lose).

Per-trial times vary between draws (solver iterations, data-dependent work), so the estimate is indicative
within a factor of about 2; it also leaves out the decide phase and the report, which are small next to the
trials at ``full``. The wall time on ``k`` cores is at least the CPU total / k and at least the longest single
trial's time x the number of trials in one chunk; PROFILES.md gives the measured cost.
"""

import argparse
import math
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's rpcheck


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=30.0, help="measured seconds per theorem (default 30)")
    ap.add_argument("--theorem", action="append", dest="theorems")
    ap.add_argument("--out", default=None, help="CSV file for the per-theorem table")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    import numpy as np
    import pandas as pd

    from rpcheck._threads import single_thread_blas
    from rpcheck.engine import registry

    ids = args.theorems or sorted(th.id for th in registry.all_theorems())
    rows = []
    with single_thread_blas():
        for tid in ids:
            th = registry.get(tid)
            prof = th.profiles["full"]
            cells = list(prof.cells)
            try:  # untimed warm-up: imports, JIT caches, data loaders' first calls
                quick = th.profiles["quick"]
                th.trial(dict(next(iter(quick.cells))), np.random.default_rng([args.seed, 10**6]))
            except Exception:  # noqa: BLE001 - a failing warm-up shows again in the timed trials
                pass
            spent, times, errors = 0.0, [], []
            # a seeded random order of the cells, so the cells not reached are estimated from an unbiased
            # sample (grids list sizes in increasing order: measuring a prefix would underestimate)
            order = np.random.default_rng(args.seed).permutation(len(cells))
            for k in order:
                cell = cells[k]
                if spent >= args.budget:
                    break
                rng = np.random.default_rng([args.seed, k])
                t0 = time.process_time()  # CPU seconds: single-threaded, so unaffected by other load
                try:
                    th.trial(dict(cell), rng)
                except Exception as exc:  # noqa: BLE001 - recorded, the survey goes on
                    errors.append(f"cell {k}: {type(exc).__name__}: {exc}".splitlines()[0][:160])
                    traceback.print_exc(limit=1, file=sys.stderr)
                dt = time.process_time() - t0
                times.append(dt)
                spent += dt
            mean = sum(times) / len(times) if times else math.nan
            # measured cells at their own time, the others at the mean; each at its own trial count (more_trials)
            per_trial = dict(zip((int(k) for k in order), times))
            est = sum(per_trial.get(k, mean) * prof.trials_for(c) for k, c in enumerate(cells))
            rows.append({"theorem": tid, "cells": len(cells), "trials_per_cell": prof.describe_trials(),
                         "measured": len(times), "max_trial_s": max(times) if times else math.nan,
                         "mean_trial_s": mean, "cpu_s_estimate": est, "errors": "; ".join(errors)})
            print(f"{tid}: {len(times)}/{len(cells)} cells measured, mean {mean:.3g} s/trial, "
                  f"estimate {est / 3600:.2f} CPU h" + (f"  ERRORS: {errors}" if errors else ""), flush=True)
    df = pd.DataFrame(rows).sort_values("cpu_s_estimate", ascending=False)
    total = float(df["cpu_s_estimate"].sum())
    print(f"\nTOTAL full estimate: {total / 3600:.1f} CPU hours; on 2 / 16 / 64 cores at least "
          f"{total / 3600 / 2:.1f} / {total / 3600 / 16:.2f} / {total / 3600 / 64:.2f} h")
    if args.out:
        df.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
