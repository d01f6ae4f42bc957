"""Pilot power of a theorem's expected statistical verdicts in the cells of one profile, on a fresh seed.

Not a test (not collected). Run from the repository root::

    python benchmarks/pilot_power.py paul2014.c2 --profile full --draws 1000 --seed 20261127 [--level 5e-6]
        [--exclude-cells-of standard]

For every cell of the profile and every variant of mode "bound" or "exact" with an expected verdict there, and
every "deterministic" or "search" variant expected VIOLATED there (one failing draw decides), the
trial function is called ``--draws`` times (one process, one BLAS thread, per-cell generator
``default_rng([seed, cell index])``), failures are counted over the evaluated draws (vacuous and undetermined
outcomes excluded), and the exact two-sided 99% Clopper-Pearson interval [p_lo, p_hi] of the failure rate gives
the power of the expected verdict at the profile's trial count and the per-row level ``--level`` (at or below
the first Holm step of the suite-wide family: ci 1.4e-5, standard and full 5e-6):
``rpcheck.stats.holds_power(mode, trials, p_hi, promised, level)`` for HOLDS and ``violated_power(mode, trials,
p_lo, promised, level)`` for VIOLATED. Cells whose power is below ``--min-power`` are marked. The pilot's seed
must not be the one the profile is run with (0 by default), so that a pilot is not the run it predicts.

``--sign-test-alpha A`` adds the "report" rows with an expected verdict that the theorem decides by the exact
one-sided sign test over trials at level A each way (``rpcheck.stats.sign_test``; lei2020's timing and
comparison rows, paul2014.repro.techtc's): a draw supports the row when its outcome holds, the 99%
Clopper-Pearson interval of the support rate gives P(HOLDS) >= P(X >= k_hold | trials, support_lo) and
P(VIOLATED) >= P(X <= k_viol | trials, support_hi), with k_hold, k_viol the sign test's thresholds at the
profile's trials.
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def sign_test_thresholds(n, alpha):
    """``(k_hold, k_viol)``: the fewest supporting draws of ``n`` for which ``rpcheck.stats.sign_test`` gives
    HOLDS at ``alpha``, and the most for which it gives VIOLATED (None where unreachable)."""
    from rpcheck.stats import Verdict, sign_test

    verdicts = [sign_test(k, n, alpha)[0] for k in range(n + 1)]
    k_hold = min((k for k, v in enumerate(verdicts) if v is Verdict.HOLDS), default=None)
    k_viol = max((k for k, v in enumerate(verdicts) if v is Verdict.VIOLATED), default=None)
    return k_hold, k_viol


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("theorem")
    ap.add_argument("--profile", default="full")
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--level", type=float, default=5e-6)
    ap.add_argument("--min-power", type=float, default=0.99)
    ap.add_argument("--sign-test-alpha", type=float, default=None,
                    help="also pilot the expected verdicts of 'report' rows decided by the sign test at this level")
    ap.add_argument("--exclude-cells-of", metavar="PROFILE", default=None,
                    help="skip the cells that are also cells of PROFILE (already piloted there); the cell "
                         "indices and generators stay those of --profile")
    args = ap.parse_args(argv)
    if args.seed == 0:
        ap.error("--seed 0 is the profiles' run seed; pilot on another one")

    import numpy as np
    import threadpoolctl

    from rpcheck.engine import Verdict, registry
    from rpcheck.stats import clopper_pearson, holds_power, violated_power

    threadpoolctl.threadpool_limits(1)
    th = registry.get(args.theorem)
    prof = th.profiles[args.profile]
    modes = ("bound", "exact", "deterministic", "search") + (("report",) if args.sign_test_alpha else ())
    rows = [v for v in th.variants if v.mode in modes]
    if args.sign_test_alpha:
        from scipy.stats import binom
    weak = 0
    skip = [] if args.exclude_cells_of is None else [dict(c) for c in th.profiles[args.exclude_cells_of].cells]
    for ci, cell in enumerate(prof.cells):
        if dict(cell) in skip:
            continue
        wanted = [(v, v.expected_for(cell)) for v in rows]
        # deterministic / search rows: only an expected VIOLATED has a power (an expected HOLDS there rests on a
        # derivation that the failure probability is 0, not on a rate)
        statistical = ("bound", "exact")
        wanted = [(v, e) for v, e in wanted
                  if e is Verdict.VIOLATED or (e is Verdict.HOLDS and v.mode in (*statistical, "report"))]
        if not wanted:
            continue
        rng = np.random.default_rng([args.seed, ci])
        n_cell = prof.trials_for(cell)  # the cell's own trial count (Profile.more_trials)
        if args.sign_test_alpha:
            k_hold, k_viol = sign_test_thresholds(n_cell, args.sign_test_alpha)
        fails = {v.name: 0 for v, _ in wanted}
        evals = {v.name: 0 for v, _ in wanted}
        t0 = time.process_time()
        for _ in range(args.draws):
            rec = th.trial(dict(cell), rng)
            for v, _ in wanted:
                o = rec.outcomes[v.name]
                if o.vacuous or o.undetermined:
                    continue
                evals[v.name] += 1
                fails[v.name] += not o.holds
        secs = time.process_time() - t0
        for v, exp in wanted:
            k, n = fails[v.name], evals[v.name]
            p_lo, p_hi = clopper_pearson(k, n, 0.99)
            promised = v.delta_for(cell) if v.mode in ("bound", "exact") else None
            if v.mode == "report":  # sign test over trials: support rate = 1 - failure rate
                if exp is Verdict.HOLDS:
                    power = 0.0 if k_hold is None else float(binom.sf(k_hold - 1, n_cell, 1 - p_hi))
                else:
                    power = 0.0 if k_viol is None else float(binom.cdf(k_viol, n_cell, 1 - p_lo))
                promised = f"sign test {args.sign_test_alpha:g}"
            elif exp is Verdict.HOLDS:
                power = holds_power(v.mode, n_cell, p_hi, promised, args.level)
            else:
                power = violated_power(v.mode, n_cell, p_lo, promised, args.level)
            flag = "" if power >= args.min_power else "  <-- below --min-power"
            weak += bool(flag)
            print(f"cell {ci} {cell}: {v.name} expected {exp.value}: {k}/{n} fail, 99% CP [{p_lo:.2e}, {p_hi:.2e}], "
                  f"promised {promised}; power at {n_cell} trials"
                  f"{'' if v.mode == 'report' else f', level {args.level:g}'}: {power:.4f}"
                  f" ({secs:.0f} CPU s){flag}", flush=True)
    print(f"{weak} expected verdict(s) below power {args.min_power}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
