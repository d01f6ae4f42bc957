"""Pilot power of paul2014.repro.techtc's two timing rows with fixed expectations (audit entry 2).

Not a test (not collected). Run from the repository root, on the machine and under the load the verdicts are
meant for (the pilot in the checker's docstring ran beside a nice'd 2-worker full run, i.e. both cores busy)::

    OMP_NUM_THREADS=1 python benchmarks/timing_pilot_techtc.py [--profile ci] [--pairs 2000] [--seed 20261127]

Each pilot pair replays the timed part of one trial exactly (``repro_techtc._warm_up`` once, then per pair a
fresh ``techtc_like`` stand-in at the profile's cell and ``repro_techtc._project`` at every r of the cell: three
interleaved rounds of the four methods and the control's 16x CW block, minimum per method), and records
whether the pair supports ``trp_cw_below_rg`` (t_rp CW < RG at every r) and ``control_trp_cw_x16_fastest``
(CW x16 block < CW once at every r). The SVM part of a trial does not enter these two rows.

From the pilot counts it prints the 99% Clopper-Pearson ends p_lo (claim) and q_hi (control) and the power of
the rows' sign test at the profile's pairs per cell: P(HOLDS) >= P(X >= k_hold | n, p_lo) and P(VIOLATED) >=
P(X <= k_viol | n, q_hi), with k_hold, k_viol the sign test's thresholds (``repro_techtc.sign_test``).
"""

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


QUANTILE_NAMES, QUANTILES = ["min", "q01", "median"], [0, 0.01, 0.5]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="ci", choices=["quick", "ci", "standard", "full"])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--json", type=Path, default=None, help="also write the counts and ratios here")
    args = ap.parse_args(argv)

    import numpy as np
    from scipy.stats import beta, binom

    from benchmarks.pilot_power import sign_test_thresholds
    from rpcheck.engine import registry
    from rpcheck.papers.paul2014 import repro_techtc as rt
    from rpcheck.papers.paul2014._common import target_dims
    from rpcheck.standins import techtc_like

    th = registry.get("paul2014.repro.techtc")
    prof = th.profiles[args.profile]
    cell = prof.cells[0]  # the C = 500 and C = 1 cells share n, d, rs and boost; C does not enter the timing
    rs = target_dims(cell)
    n_per_cell = prof.trials
    k_hold, k_viol = sign_test_thresholds(n_per_cell, rt.SIGN_ALPHA)

    rt._warm_up(float(cell["C"]))
    claim = control = 0
    rg_cw, x16_cw = [], []
    t0 = time.time()
    for i in range(args.pairs):
        rng = np.random.default_rng([args.seed, i])
        ds = techtc_like(n=cell["n"], d=cell["d"], boost=cell["boost"], rng=rng)
        X = ds.X.tocsr().astype(float)
        ok_claim = ok_control = True
        for r in rs:
            _, best = rt._project(X, r, rng)
            ok_claim &= best["CW"] < best["RG"]
            ok_control &= best["CWx16"] < best["CW"]
            rg_cw.append(best["RG"] / best["CW"])
            x16_cw.append(best["CWx16"] / best["CW"])
        claim += ok_claim
        control += ok_control
    n = args.pairs
    p_lo = float(beta.ppf(0.01, claim, n - claim + 1)) if claim > 0 else 0.0
    q_hi = float(beta.ppf(0.99, control + 1, n - control)) if control < n else 1.0
    power_hold = float(binom.sf(k_hold - 1, n_per_cell, p_lo))
    power_viol = float(binom.cdf(k_viol, n_per_cell, q_hi))
    out = {
        "profile": args.profile, "cell": {k: cell[k] for k in ("n", "d", "rs", "boost")}, "pairs": n,
        "seed": args.seed, "seconds": round(time.time() - t0, 1),
        "claim_supporting": int(claim), "p_lo_99": p_lo, "k_hold": k_hold, "power_holds": power_hold,
        "control_supporting": int(control), "q_hi_99": q_hi, "k_viol": k_viol, "power_violated": power_viol,
        "rg_over_cw_quantiles": dict(zip(QUANTILE_NAMES, np.quantile(rg_cw, QUANTILES).round(2).tolist())),
        "x16_over_cw_quantiles": dict(zip(QUANTILE_NAMES, np.quantile(x16_cw, QUANTILES).round(2).tolist())),
        "pairs_per_cell": n_per_cell,
    }
    print(json.dumps(out, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
