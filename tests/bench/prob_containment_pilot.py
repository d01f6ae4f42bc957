"""Power of the expected HOLDS of paul2014.thm1.1's and thm3.6's probability rows, by containment.

Not a test (not collected). Run from the repository root::

    python tests/bench/prob_containment_pilot.py [--profiles ci standard full] [--seed 20261127]

The rows' failure event is contained in the lemma event {e > eps} (the ratio and ball bounds hold whenever
e <= eps: det_stated / stated_det; for thm1.1's prob_svr only when the original SVR has zero slack). So
P(row fails) <= P(e > eps) at the cell's r. This script pilots P(e > eps) in every "theory" cell with V a Haar
basis of the instance's row-space dimension (rho for thm1.1, rho + 1 for thm3.6: both instance generators draw
a Haar row space, and e is invariant under V -> V Q), takes the 99% Clopper-Pearson upper end p_hi of the pilot
rate, and prints ``rpcheck.stats.holds_power("bound", trials, p_hi, delta, level)`` at the profile's trials
and a level at or below the first Holm step of the profile's suite-wide family (ci 1.4e-5, standard and full
5e-6). A power below 0.99 here does not mean the expectation fails: containment is only an upper bound, and
the actual event can be much rarer (ci is backed by an actual-event pilot, see main_ratio.PROFILES).
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

N_DRAWS = {"ci": 3000, "standard": 3000, "full": 2000}
LEVEL = {"ci": 1.4e-5, "standard": 5e-6, "full": 5e-6}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", nargs="+", default=["ci", "standard", "full"], choices=sorted(N_DRAWS))
    ap.add_argument("--seed", type=int, default=20261127)
    args = ap.parse_args(argv)

    import numpy as np
    import threadpoolctl

    import rpcheck.checkers  # noqa: F401  (registers the theorems)
    from rpcheck.checkers.paul2014._common import distortion
    from rpcheck.checkers.paul2014.embedding import sketch_kwargs
    from rpcheck.engine import registry
    from rpcheck.generators import haar_orthonormal
    from rpcheck.sketches import make_sketch
    from rpcheck.stats import clopper_pearson, holds_power

    threadpoolctl.threadpool_limits(1)
    for tid, extra in (("paul2014.thm1.1", 0), ("paul2014.thm3.6", 1)):
        th = registry.get(tid)
        for prof in args.profiles:
            P = th.profiles[prof]
            for cell in P.cells:
                if cell.get("design") != "theory":
                    continue
                rng = np.random.default_rng(args.seed)
                n, k, fails, t0 = N_DRAWS[prof], cell["rho"] + extra, 0, time.process_time()
                for _ in range(n):
                    V = haar_orthonormal(cell["d"], k, rng=rng)
                    sk = make_sketch(cell["kind"], cell["d"], cell["r"], rng=rng, **sketch_kwargs(cell))
                    fails += distortion(V, sk) > cell["eps"]
                p_hi = clopper_pearson(fails, n, 0.99)[1]
                power = holds_power("bound", P.trials, p_hi, cell["delta"], LEVEL[prof])
                print(f"{tid} {prof} {cell['kind']:11s} r={cell['r']:5d} delta={cell['delta']}: P(e > eps) "
                      f"{fails}/{n}, p_hi {p_hi:.2e}; power at {P.trials} trials, level {LEVEL[prof]:g}: "
                      f"{power:.4f} ({time.process_time() - t0:.0f} CPU s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
