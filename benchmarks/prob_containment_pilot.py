"""Power of the expected HOLDS of paul2014.thm1.1's and thm3.6's probability rows, by containment.

Not a test (not collected). Run from the repository root::

    python benchmarks/prob_containment_pilot.py [--profiles ci standard full] [--seed 20261127]

The rows' failure event is contained in the lemma event {e > eps} (the ratio and ball bounds hold whenever
e <= eps: det_stated / stated_det; for thm1.1's prob_svr only when the original SVR has zero slack). So
P(row fails) <= P(e > eps) at the cell's r. This script pilots P(e > eps) in every "theory" cell with V a Haar
basis of the instance's row-space dimension (rho for thm1.1, rho + 1 for thm3.6: both instance generators draw
a Haar row space, and e is invariant under V -> V Q), takes the 99% Clopper-Pearson upper end p_hi of the pilot
rate, and prints ``rpcheck.stats.holds_power("bound", trials, p_hi, delta, level)`` at the profile's trials
and a level at or below the first Holm step of the profile's suite-wide family (ci 1.4e-5, standard and full
5e-6). A power below 0.99 here does not mean the expectation fails: containment is only an upper bound, and
the actual event can be much rarer (ci is backed by an actual-event pilot, see main_ratio.PROFILES).

``--svr``: thm1.1's ``prob_svr`` instead, whose event is contained in {e_reg > eps} OR {the original SVR optimum
has slack} (main_ratio's module docstring). Each draw replays the trial's regression part (the tube-regime
instance of ``regression_instance`` with its uniform noise, the correct dual (2) solved and KKT-certified on the
factor Z, then the cell's sketch and the distortion of the instance's row space) and counts the draws in that
union; the power is computed as above from its 99% Clopper-Pearson upper end.
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

N_DRAWS = {"ci": 3000, "standard": 3000, "full": 2000}
LEVEL = {"ci": 1.4e-5, "standard": 5e-6, "full": 5e-6}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", nargs="+", default=["ci", "standard", "full"], choices=sorted(N_DRAWS))
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--svr", action="store_true", help="pilot thm1.1's prob_svr containing event (docstring)")
    args = ap.parse_args(argv)
    if args.svr:
        return _svr_pilot(args)

    import numpy as np
    import threadpoolctl

    from rpcheck.engine import registry
    from rpcheck.generators import haar_orthonormal
    from rpcheck.papers.paul2014._common import distortion
    from rpcheck.papers.paul2014.embedding import sketch_kwargs
    from rpcheck.sketches import make_sketch
    from rpcheck.stats import clopper_pearson, holds_power

    threadpoolctl.threadpool_limits(1)
    for tid, extra in (("paul2014.thm1.1", 0), ("paul2014.thm3.6", 1)):
        for prof, P, cell in _theory_cells(registry.get(tid), args.profiles):
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


def _theory_cells(th, profiles):
    """(profile name, Profile, cell) for every "theory" cell of ``th`` in ``profiles``."""
    for prof in profiles:
        P = th.profiles[prof]
        for cell in P.cells:
            if cell.get("design") == "theory":
                yield prof, P, cell


def _svr_pilot(args):
    import numpy as np
    import threadpoolctl

    from rpcheck.engine import registry
    from rpcheck.papers.paul2014._common import distortion
    from rpcheck.papers.paul2014._data import regression_instance
    from rpcheck.papers.paul2014.embedding import sketch_kwargs
    from rpcheck.papers.paul2014.main_ratio import C_SVR, EPS_SVR
    from rpcheck.sketches import make_sketch
    from rpcheck.stats import clopper_pearson, holds_power
    from rpcheck.svm import solve_svr

    threadpoolctl.threadpool_limits(1)
    for prof, P, cell in _theory_cells(registry.get("paul2014.thm1.1"), args.profiles):
        rng = np.random.default_rng(args.seed)
        n_draws, t0 = N_DRAWS[prof], time.process_time()
        big_e = slack = union = 0
        n, d, rho = cell["n"], cell["d"], cell["rho"]
        for _ in range(n_draws):
            _, yr, Zr, Vr = regression_instance(n, d, rho, rng=rng, noise=0.0)
            yr = yr + rng.uniform(-EPS_SVR / 2, EPS_SVR / 2, size=n)
            in_tube = solve_svr(Zr, yr, C_SVR, EPS_SVR, form="correct").in_tube
            sk = make_sketch(cell["kind"], d, cell["r"], rng=rng, **sketch_kwargs(cell))
            e_big = distortion(Vr, sk) > cell["eps"]
            big_e += e_big
            slack += not in_tube
            union += e_big or not in_tube
        p_hi = clopper_pearson(union, n_draws, 0.99)[1]
        n_cell = P.trials_for(cell)
        power = holds_power("bound", n_cell, p_hi, cell["delta"], LEVEL[prof])
        print(f"paul2014.thm1.1 prob_svr {prof} {cell['kind']:8s} r={cell['r']:5d} delta={cell['delta']}: "
              f"e_reg > eps {big_e}/{n_draws}, slack {slack}/{n_draws}, union {union}/{n_draws}, p_hi "
              f"{p_hi:.2e}; power at {n_cell} trials, level {LEVEL[prof]:g}: {power:.4f} "
              f"({time.process_time() - t0:.0f} CPU s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
