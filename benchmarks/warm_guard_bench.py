"""The warm start's growth guard along Table 2 C paths: CPU with and without it, and the results bit for bit.

One CV fold's training part (80% of Table 3's training rows of a stand-in, ``rpcheck.standins.lei2020_like``),
scaled to [-1, 1], projected by each method, then the 11 C values 2^-5..2^5 in order with each solve
warm-started from the previous one (``rpcheck.compare._train_predict``'s path). Each path runs twice, with the
guard (``rpcheck.svm.svc._WARM_MAX_GROWTH`` / ``_WARM_FREE_FLOOR`` as committed) and without it (the floor set
to infinity), alternating which goes first, ``time.process_time`` (single-threaded
BLAS: run with ``OMP_NUM_THREADS=1``), min of ``--rounds``. Every result of the two paths must be bit-identical
(alpha, b, status): the script exits 1 otherwise.

Not a test (not collected). From the repository root::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/warm_guard_bench.py [--sets ...] [--rounds 2]

Prints one markdown row per (set, method).
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's rpcheck

import rpcheck.svm.svc as svc  # noqa: E402
from rpcheck.compare import DEFAULT_C_GRID, _Projector, _scale  # noqa: E402
from rpcheck.standins import lei2020_like  # noqa: E402

#: set -> (training rows of one fold, r): Table 3's train rows x 0.8 (a 5-fold CV training part)
SETS = {
    "mushrooms": (int(0.8 * 6000), 16),
    "usps-b": (int(0.8 * 7291), 16),
    "gisette": (int(0.8 * 6000), 256),
    "rcv1-binary": (int(0.8 * 13561), 256),
}


def fold(name, seed=1):
    n_tr, r = SETS[name]
    ds = lei2020_like(name, split="all", rng=0)
    idx = np.random.default_rng(seed).permutation(ds.n)[:n_tr]
    X, y = ds.X[idx], ds.y[idx]
    Xs, _ = _scale(X, X[:2])
    return ds, Xs, y, r


def path(Z, y, guard):
    floor = svc._WARM_FREE_FLOOR
    if not guard:
        svc._WARM_FREE_FLOOR = 10**12  # max(grown, floor): never reached
    try:
        t, prev, out = time.process_time(), None, []
        for C in DEFAULT_C_GRID:
            prev = svc.solve_svc(Z, y, C, warm_start=prev)
            out.append(prev)
        return time.process_time() - t, out
    finally:
        svc._WARM_FREE_FLOOR = floor


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    ap.add_argument("--methods", nargs="+", default=["srht", "countsketch", "pca"])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    print("| set | fold shape (n x r) | method | path CPU s, guard | without | ratio | warm accepted | identical |")
    print("|---|---|---|---|---|---|---|---|")
    bad = 0
    for name in args.sets:
        ds, Xs, y, r = fold(name)
        for m in args.methods:
            Z = _Projector(m, ds.d, r, 5).fit(Xs, y).transform(Xs)
            Z = np.ascontiguousarray(Z.toarray() if hasattr(Z, "toarray") else Z)
            t = {True: [], False: []}
            res = {}
            for k in range(args.rounds):
                for guard in ((True, False) if k % 2 == 0 else (False, True)):
                    dt, out = path(Z, y, guard)
                    t[guard].append(dt)
                    res.setdefault(guard, out)
            same = all(np.array_equal(a.alpha, b.alpha) and a.b == b.b and a.status == b.status
                       for a, b in zip(res[True], res[False]))
            bad += not same
            warm = sum(a.status == "warm_start" for a in res[True])
            g, u = min(t[True]), min(t[False])
            print(f"| {name} | {Z.shape[0]} x {Z.shape[1]} | {m} | {g:.2f} | {u:.2f} | {u / g:.1f} | {warm} / 10 | "
                  f"{'yes' if same else 'NO'} |", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
