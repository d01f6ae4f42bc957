"""`rpcheck advise` on RCV1-like files: a logged run, per-trial CPU at a given n, and the CPU estimate from both.

Not a test (not collected). Run from the repository root::

    python benchmarks/advise_scaling.py write N [N ...]        # /tmp/advise-rcv1/rcv1_N.svmlight, standin rng=0
    python benchmarks/advise_scaling.py run N                  # `rpcheck advise FILE --out DIR`, each trial timed
    python benchmarks/advise_scaling.py cost N R1,R2,.. KINDS  # one trial per (kind, r): wall and CPU seconds
    python benchmarks/advise_scaling.py estimate LOG COSTS     # LOG of `run`, COSTS of `cost`: the CPU estimate

``run`` calls ``rpcheck.cli.main(["advise", FILE, "--out", DIR])`` (the command at its defaults) with
``rpcheck.advise._trial`` wrapped to append ``kind, r, wall seconds, margin, accuracy`` per computed trial to
``DIR/trials.tsv`` (wrap it with ``/usr/bin/time -v`` for wall, CPU and peak RSS). ``cost`` runs one trial of
the advise theorem per (kind, r) on one BLAS thread, as the engine runs them, and prints its CPU
(``time.process_time``; on a loaded machine the wall is a multiple of it). ``estimate`` prices the trials of
a ``run`` log -- the cells and trial counts of that run's searches -- at the per-trial CPU of a ``cost``
output (log-log interpolation in r; r below the smallest measured r at that r's cost, an overestimate) and adds
the load and reference fit.
"""

import collections
import math
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's rpcheck, not an installed one

DIR = Path("/tmp/advise-rcv1")
_COST = re.compile(r"n=\d+ (\w+) r=(\d+): wall ([\d.]+)s cpu ([\d.]+)s")
_FIXED = re.compile(r"n=\d+ load\+reference: wall ([\d.]+)s cpu ([\d.]+)s")


def write(ns):
    from sklearn.datasets import dump_svmlight_file

    from rpcheck.standins import rcv1_binary_like

    DIR.mkdir(parents=True, exist_ok=True)
    for n in ns:
        ds = rcv1_binary_like(n=n, rng=0)
        dump_svmlight_file(ds.X, ds.y, str(DIR / f"rcv1_{n}.svmlight"), zero_based=False)
        print(n, ds.X.shape, ds.X.nnz, flush=True)


def run(n):
    import rpcheck.advise as adv
    from rpcheck.cli import main

    out = DIR / f"out{n}"
    out.mkdir(parents=True, exist_ok=True)
    log = (out / "trials.tsv").open("w")
    inner = adv._trial

    def timed(ud, params, rng):
        t = time.perf_counter()
        rec = inner(ud, params, rng)
        o = rec.outcomes
        log.write(f"{params['kind']}\t{params['r']}\t{time.perf_counter() - t:.4f}\t{int(o['margin'].holds)}\t"
                  f"{int(o['accuracy'].holds)}\n")  # fmt: skip
        log.flush()
        return rec

    adv._trial = timed
    return main(["advise", str(DIR / f"rcv1_{n}.svmlight"), "--out", str(out)])


def cost(n, rs, kinds):
    import numpy as np

    import rpcheck.advise as adv
    from rpcheck.engine._worker import one_blas_thread
    from rpcheck.engine.userdata import load_user_data

    t, c = time.perf_counter(), time.process_time()
    ud = load_user_data(str(DIR / f"rcv1_{n}.svmlight"), bundled=True)
    base = {"data": ud.ref, "eps": 0.1, "delta": 0.1, "C": 1.0, "test_fraction": 0.3, "split_seed": 0,
            "data_sha256": ud.sha256[:16]}  # fmt: skip
    adv._reference(ud, base)
    print(f"n={n} load+reference: wall {time.perf_counter() - t:.1f}s cpu {time.process_time() - c:.1f}s", flush=True)
    for r in rs:
        for kind in kinds:
            with one_blas_thread():
                t, c = time.perf_counter(), time.process_time()
                rec = adv._trial(ud, dict(base, kind=kind, r=r), np.random.default_rng(1))
                print(f"n={n} {kind} r={r}: wall {time.perf_counter() - t:.1f}s cpu {time.process_time() - c:.1f}s "
                      f"margin {rec.outcomes['margin'].holds} acc {rec.outcomes['accuracy'].holds}", flush=True)


def estimate(log, costs):
    per, fixed = collections.defaultdict(dict), 0.0
    for path in costs:
        for line in Path(path).read_text().splitlines():
            if m := _COST.match(line):
                per[m[1]][int(m[2])] = float(m[4])
            elif m := _FIXED.match(line):
                fixed = float(m[2])

    def price(kind, r):
        pts = sorted(per[kind].items())
        if r <= pts[0][0]:
            return pts[0][1]
        for (r0, c0), (r1, c1) in zip(pts, pts[1:]):
            if r <= r1:
                return c0 * (r / r0) ** (math.log(c1 / c0) / math.log(r1 / r0))
        return pts[-1][1] * (r / pts[-1][0]) ** 2

    trials, cpu = collections.Counter(), collections.Counter()
    for line in Path(log).read_text().splitlines():
        kind, r = line.split("\t")[:2]
        trials[kind] += 1
        cpu[kind] += price(kind, int(r))
    for kind in trials:
        print(f"{kind}: {trials[kind]} trials, estimated CPU {cpu[kind]:.0f} s")
    total = sum(cpu.values()) + fixed
    print(f"all: {sum(trials.values())} trials, estimated CPU {total:.0f} s ({total / 60:.1f} min)")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "write":
        write([int(a) for a in args])
    elif cmd == "run":
        sys.exit(run(int(args[0])))
    elif cmd == "cost":
        cost(int(args[0]), [int(v) for v in args[1].split(",")], args[2].split(","))
    elif cmd == "estimate":
        estimate(args[0], args[1:])
    else:
        sys.exit(__doc__)
