"""Benchmark of ``solve_svc(..., solver="DCD")`` (not a pytest test: no timing in pass/fail tests).

Run: ``nice -n 5 env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python benchmarks/bench_svc_dcd.py``
(``--quick`` for small shapes). Every configuration runs in its own subprocess, so its peak RSS
(``ru_maxrss``, data included) is its own; CPU seconds by ``time.process_time`` around the solve only.

1. rcv1-binary stand-in (``rpcheck.standins.lei2020_like("rcv1-binary")``, the data of
   rpcheck/papers/lei2020/sparse_scale.py), 10,800 x 47,236 CSR (the training part of a 5-fold CV on 13,500
   rows), features scaled to [-1, 1] by max-abs as rpcheck.compare does; and the same with 10% of the labels
   flipped (non-separable). C in {2^-5, 1, 2^5}: DCD cold, DCD warm along the full grid 2^-5..2^5 (each C
   warm-started from the previous), sklearn LinearSVC(loss="hinge", dual=True) (LIBLINEAR -s 3: REGULARISED
   bias, so a different problem; its primal value of eq. (3) at its (w, b) is reported against the certified
   optimum) and sklearn SVC(kernel="linear") (LIBSVM SMO, the same problem, tol=1e-3) at C = 1.
3. real-sim stand-in (``lei2020_like("real-sim")``), 38,758 x 20,958 CSR (a 5-fold training part of the 48,447
   training rows), n > d: DCD cold and warm, LinearSVC (``--only real-sim`` runs just these); and the same with
   10% of the labels flipped (``--only real-sim-noisy``), not separable.
2. gisette stand-in (``lei2020_like("gisette")``), 3,840 x 5,000 dense (a 5-fold training part of 4,800 rows)
   at C = 1: DCD against the IPM (solve_svc's default path).
"""

import json
import resource
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp

QUICK = "--quick" in sys.argv
N_RCV1 = 2_000 if QUICK else 10_800
N_GIS = 600 if QUICK else 3_840
N_REALSIM = 3_000 if QUICK else 38_758
GRID = 2.0 ** np.arange(-5, 6)
SHOW = (2.0**-5, 1.0, 2.0**5)


def rcv1(noise, name="rcv1-binary", n=None):
    from rpcheck.standins import lei2020_like

    ds = lei2020_like(name, split="all", n=n or N_RCV1, rng=0)
    X = sp.csr_matrix(ds.X, dtype=np.float64)
    m = np.asarray(abs(X).max(axis=0).todense()).ravel()
    m[m == 0] = 1.0
    X = (X @ sp.diags(1.0 / m)).tocsr()
    y = np.asarray(ds.y, dtype=np.float64)
    if noise:
        flip = np.random.default_rng(1).random(y.size) < noise
        y = np.where(flip, -y, y)
    return X, y


def gisette():
    from rpcheck.standins import lei2020_like

    ds = lei2020_like("gisette", split="all", n=N_GIS, rng=0)
    return np.ascontiguousarray(ds.X, dtype=np.float64), np.asarray(ds.y, dtype=np.float64)


def primal(X, y, w, b, C):
    """Eq. (3)'s primal value ||w||^2/2 + C sum_i (1 - y_i (w^T x_i + b))_+ at any (w, b)."""
    f = np.asarray(X @ w).ravel() + b
    return 0.5 * float(w @ w) + C * float(np.maximum(0.0, 1.0 - y * f).sum())


def one(cfg):
    from rpcheck.svm import solve_svc

    data, solver = cfg["data"], cfg["solver"]
    if data == "gisette":
        X, y = gisette()
    elif data.startswith("real-sim"):
        X, y = rcv1(0.1 if data == "real-sim-noisy" else 0.0, "real-sim", N_REALSIM)
    else:
        X, y = rcv1(0.1 if data == "rcv1-noisy" else 0.0)
    rows = []
    if solver in ("DCD", "IPM") and cfg.get("warm"):
        prev = None
        for C in GRID:
            t = time.process_time()
            r = solve_svc(X, y, C, solver=solver, warm_start=prev)
            rows.append(dict(C=C, cpu=time.process_time() - t, it=r.iterations, kkt=r.kkt.max_relative,
                             P=r.primal_objective, n_free=r.n_free, n_bounded=r.n_bounded))
            prev = r
    elif solver in ("DCD", "IPM"):
        for C in cfg["C"]:
            t = time.process_time()
            r = solve_svc(X, y, C, solver=solver)
            rows.append(dict(C=C, cpu=time.process_time() - t, it=r.iterations, kkt=r.kkt.max_relative,
                             P=r.primal_objective, n_free=r.n_free, n_bounded=r.n_bounded))
    else:
        from sklearn.svm import SVC, LinearSVC

        for C in cfg["C"]:
            t = time.process_time()
            if solver == "LinearSVC":
                clf = LinearSVC(loss="hinge", dual=True, C=C, max_iter=100_000).fit(X, y)
                it = int(np.max(clf.n_iter_))
            else:
                clf = SVC(kernel="linear", C=C, tol=1e-3, cache_size=500).fit(X, y)
                it = int(np.sum(clf.n_iter_))
            cpu = time.process_time() - t
            w = np.asarray(clf.coef_.todense() if sp.issparse(clf.coef_) else clf.coef_).ravel()
            rows.append(dict(C=C, cpu=cpu, it=it, kkt=None, P=primal(X, y, w, float(clf.intercept_[0]), C)))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(dict(cfg=cfg, rows=rows, rss_mb=rss)))


def run(cfg, timeout):
    try:
        out = subprocess.run([sys.executable, __file__, "--one", json.dumps(cfg)] + (["--quick"] if QUICK else []),
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(cfg=cfg, rows=None, note=f"not finished within {timeout} s (killed)")
    if out.returncode:
        return dict(cfg=cfg, rows=None, note=out.stderr.strip().splitlines()[-1][:200])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    configs = []
    for data in ("rcv1", "rcv1-noisy"):
        configs += [
            (dict(data=data, solver="DCD", C=list(SHOW)), 900),
            (dict(data=data, solver="DCD", warm=True), 900),
            (dict(data=data, solver="LinearSVC", C=list(SHOW)), 900),
            (dict(data=data, solver="SVC", C=[1.0]), 300),
        ]
    configs += [(dict(data="gisette", solver="DCD", C=[1.0]), 900), (dict(data="gisette", solver="IPM", C=[1.0]), 900)]
    configs += [(dict(data="real-sim", solver="DCD", C=list(SHOW)), 900),
                (dict(data="real-sim", solver="DCD", warm=True), 900),
                (dict(data="real-sim", solver="LinearSVC", C=list(SHOW)), 900)]
    configs += [(dict(data="real-sim-noisy", solver="DCD", C=list(SHOW)), 1200),
                (dict(data="real-sim-noisy", solver="DCD", warm=True), 1800),
                (dict(data="real-sim-noisy", solver="LinearSVC", C=list(SHOW)), 900)]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    configs = [c for c in configs if only is None or c[0]["data"] == only]
    optimum = {}
    for cfg, timeout in configs:
        res = run(cfg, timeout)
        if res["rows"] is None:
            print(f"| {cfg['data']} | {cfg['solver']} | - | {res['note']} |", flush=True)
            continue
        tag = cfg["solver"] + (" warm (grid of 11)" if cfg.get("warm") else (" cold" if cfg["solver"] == "DCD" else ""))
        total = sum(r["cpu"] for r in res["rows"])
        for r in res["rows"]:
            key = (cfg["data"], r["C"])
            if r["kkt"] is not None:
                optimum.setdefault(key, r["P"])
            if r["C"] not in SHOW and cfg.get("warm"):
                continue
            rel = (r["P"] - optimum[key]) / optimum[key] if key in optimum else float("nan")
            kkt = f"{r['kkt']:.1e}" if r["kkt"] is not None else "-"
            print(f"| {cfg['data']} | {tag} | {r['C']:g} | {r['cpu']:.2f} | {r['it']} | {kkt} | {rel:+.1e} | "
                  f"{r.get('n_free', '-')}/{r.get('n_bounded', '-')} | {res['rss_mb']:.0f} |", flush=True)
        if cfg.get("warm"):
            print(f"| {cfg['data']} | {tag} | all 11 | {total:.2f} | | | | | {res['rss_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    if "--one" in sys.argv:
        one(json.loads(sys.argv[sys.argv.index("--one") + 1]))
    else:
        print("| data | solver | C | CPU s | epochs / iterations | KKT max_relative | (P - P_cert) / P_cert | "
              "free/bounded | peak RSS MB |")
        print("|---|---|---|---|---|---|---|---|---|")
        main()
