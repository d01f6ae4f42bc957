"""Haar bases and dense sketch builds: rpcheck vs LAPACK / the textbook numpy expressions, side by side.

Not a test (not collected). Run from the repository root::

    OMP_NUM_THREADS=1 python benchmarks/haar_bench.py

CPU seconds (``time.process_time``), the minimum of 3 runs after one warm-up, single-threaded BLAS (as the
engine's workers run). ``thin_q`` (Cholesky QR2 on tall inputs) against ``numpy.linalg.qr`` and
``scipy.linalg.qr(mode="economic")`` with the sign fix, on the same Gaussian matrix (the max difference of
the two Q's is printed); the sign and Gaussian sketch builds against the expressions they replace, on the
same draws (bit-identical: the printed flag).
"""

import sys
import time
from pathlib import Path

import numpy as np
import scipy.linalg as sla

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's rpcheck

from rpcheck.linalg import thin_q  # noqa: E402
from rpcheck.sketches import make_sketch  # noqa: E402


def best(f, reps=3):
    f()
    ts = []
    for _ in range(reps):
        t = time.process_time()
        out = f()
        ts.append(time.process_time() - t)
    return min(ts), out


def signfix(Q, R):
    return Q * np.sign(np.diag(R))


def main():
    print("| G (n x k) | numpy qr [s] | scipy qr [s] | thin_q [s] | speedup vs numpy | max abs diff |")
    print("|---|---|---|---|---|---|")
    for n, k in [(65_536, 100), (65_536, 40), (8_192, 100), (16_384, 20), (1_024, 10)]:
        G = np.random.default_rng(0).standard_normal((n, k))
        tn, Qn = best(lambda G=G: signfix(*np.linalg.qr(G)))
        ts, _ = best(lambda G=G: signfix(*sla.qr(G, mode="economic", check_finite=False)))
        tq, Q = best(lambda G=G: thin_q(G))
        print(f"| {n} x {k} | {tn:.4f} | {ts:.4f} | {tq:.4f} | {tn / tq:.1f}x | {np.abs(Q - Qn).max():.1e} |")
    d, r = 16_384, 3_877
    print("\n| dense sketch build, d x r | textbook expression [s] | rpcheck [s] | bit-identical |")
    print("|---|---|---|---|")
    for kind in ("sign", "gaussian"):
        if kind == "sign":
            def ref():
                bits = np.random.default_rng(1).integers(0, 2, size=(d, r), dtype=np.int8)
                return (2.0 * bits - 1.0) / np.sqrt(r)
        else:
            def ref():
                return np.random.default_rng(1).standard_normal((d, r)) / np.sqrt(r)
        t0, R0 = best(ref)
        t1, R1 = best(lambda kind=kind: make_sketch(kind, d, r, rng=np.random.default_rng(1)).R_)
        print(f"| {kind}, {d} x {r} | {t0:.3f} | {t1:.3f} | {np.array_equal(R0, R1)} |")


if __name__ == "__main__":
    main()
