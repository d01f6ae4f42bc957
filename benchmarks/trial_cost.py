"""Process CPU time of one theorem's trial function, per cell, in steady state and with one BLAS thread.

The ``check`` command's CPU time includes the imports (about 3 s), the decision and the result files, and on a loaded
machine its trial part varies by more than the cost of a change to a small trial; this script times only the
trial function: one warm-up trial per cell (imports, numba's cache), then ``--trials`` trials per cell on a fixed
stream, ``time.process_time`` around each cell. BLAS runs on one thread, as in the default run's workers::

    python -m benchmarks.trial_cost paul2014.thm3.6 --profile quick --trials 80

Prints the mean CPU milliseconds a trial, per cell and over all cells (cells weighted equally).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits


def trial_cost(theorem_id, profile, trials, seed=5):
    """``(per-cell ms a trial, mean over cells)`` of ``theorem_id``'s trial function at ``profile``."""
    from rpcheck.engine import registry

    th = registry.get(theorem_id)
    rng = np.random.default_rng(seed)
    per_cell = []
    with threadpool_limits(limits=1):
        for cell in th.profiles[profile].cells:
            th.trial(dict(cell), rng)  # warm-up: imports, compiled kernels
            t0 = time.process_time()
            for _ in range(trials):
                th.trial(dict(cell), rng)
            per_cell.append(1e3 * (time.process_time() - t0) / trials)
    return per_cell, float(np.mean(per_cell))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("theorem")
    ap.add_argument("--profile", default="quick")
    ap.add_argument("--trials", type=int, default=40)
    args = ap.parse_args(argv)
    per_cell, mean = trial_cost(args.theorem, args.profile, args.trials)
    for i, ms in enumerate(per_cell):
        print(f"cell {i}: {ms:.2f} ms")
    print(f"{args.theorem} {args.profile}: {mean:.2f} ms a trial (mean over {len(per_cell)} cells)")


if __name__ == "__main__":
    main()
