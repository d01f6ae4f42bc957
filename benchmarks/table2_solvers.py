"""Table 2 protocol, one repetition (r = 16, 5-fold CV over the 11 C values, 10 methods): scikit-learn's SVC
(``solver="libsvm"``) against the certified ``solve_svc`` (``solver="certified"``), alternated, min of 2 rounds.

Not a test (not collected). Run from the repository root: ``OMP_NUM_THREADS=1 python benchmarks/table2_solvers.py``.
Prints one markdown row per data set (BENCHMARKS.md, "The Table 2 protocol").
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's rpcheck

from rpcheck import compare as cmp  # noqa: E402
from rpcheck.papers.lei2020 import _empirical as E  # noqa: E402

res = {}
for ds_name in ("breast_cancer", "digits"):
    ds = E._dataset(ds_name)
    cmp.run_repetition(ds, r=16, C_grid=(1.0,), cv_folds=2, methods=("srht",), solver="certified", rng=0)
    cmp.run_repetition(ds, r=16, C_grid=(1.0,), cv_folds=2, methods=("srht",), solver="libsvm", rng=0)
    for rnd in range(2):
        for solver in ("libsvm", "certified"):
            t = time.perf_counter()
            rows = cmp.run_repetition(
                ds, r=16, C_grid=cmp.DEFAULT_C_GRID, cv_folds=5, solver=solver, rng=np.random.default_rng(rnd)
            )
            dt = time.perf_counter() - t
            res.setdefault((ds_name, solver), []).append((dt, [(r["method"], r["accuracy"], r["C"]) for r in rows]))
            print(ds_name, solver, rnd, round(dt, 2), flush=True)
for ds_name in ("breast_cancer", "digits"):
    a, b = res[(ds_name, "libsvm")], res[(ds_name, "certified")]
    same_C = sum(x[2] == y[2] for ra, rb in zip(a, b) for x, y in zip(ra[1], rb[1]))
    dacc = max(abs(x[1] - y[1]) for ra, rb in zip(a, b) for x, y in zip(ra[1], rb[1]))
    ta, tb = min(t for t, _ in a), min(t for t, _ in b)
    n_rows = sum(len(r[1]) for r in a)
    print(f"| {ds_name} | {ta:.1f} s | {tb:.1f} s | {ta / tb:.1f}x | {same_C}/{n_rows} | {dacc:.2f} |")
