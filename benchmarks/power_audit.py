"""Power audit of a calibration directory: which expected verdicts the profile's trial counts can deliver.

Not a test (not collected). Run from the repository root after ``rpcheck calibrate``::

    python benchmarks/power_audit.py reports/calibrate-quick [--min-power 0.99]

For every (theorem, variant, cell) row with a statistical verdict (modes "bound" and "exact"), the failures
of all seeds are pooled (K seeds x n trials). The pooled count gives the exact two-sided 99% Clopper-Pearson
interval [p_lo, p_hi] for the row's true failure probability p. Then, with the per-seed trial count n and the
per-seed Holm level of the row's own test (the smallest adjusted level any seed used, i.e. the worst case):

- expected HOLDS: P(HOLDS) = ``rpcheck.stats.holds_power(mode, n, p_hi, promised, level)`` (the power at the
  least favourable p in the interval);
- expected VIOLATED: P(VIOLATED) = ``rpcheck.stats.violated_power(mode, n, p_lo, promised, level)``.

Rows whose power is below ``--min-power`` are listed: their expected verdict is fragile at the profile's
size, whatever the seeds happened to show. The pooled data are a pilot study; a change made on its strength
(more trials, or an expectation of "reported") must be confirmed on seeds that were not part of the pilot.

Deterministic rows are not audited here: under the claim the counterexample probability is 0 and the rule's
power is 1 at >= 90 evaluated draws (``holds_power("deterministic", n, 0)``), which the engine's own
reconciliation already enforces; any certified counterexample in any seed is reported by ``rpcheck calibrate``.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _needed(mode, expected, n, lo, hi, promised, level, target):
    """Smallest per-seed trial count (in steps of 10, up to 100 n) with power >= target at the pooled bound."""
    from rpcheck import stats

    fn = stats.holds_power if expected == "HOLDS" else stats.violated_power
    p = hi if expected == "HOLDS" else lo
    m = n
    while fn(mode, m, p, promised, level) < target:
        m += 10
        if m > 100 * n:
            return None
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("directory")
    ap.add_argument("--min-power", type=float, default=0.99)
    ap.add_argument(
        "--level",
        type=float,
        default=None,
        help="per-row level to assume instead of the smallest Holm level the seeds used (e.g. 0.01/531 for the "
        "ci rows of the whole pytest family when the calibration ran only some theorems)",
    )
    args = ap.parse_args()

    import pandas as pd

    from rpcheck import stats
    from rpcheck.engine.loading import load_results

    frames = []
    for seed_dir in sorted(Path(args.directory).glob("seed-*")):
        if not (seed_dir / "cells.parquet").exists() and not (seed_dir / "cells.csv").exists():  # interrupted
            continue
        cells = load_results(seed_dir).cells
        frames.append(cells.assign(_seed=seed_dir.name))
    if not frames:
        sys.exit(f"no complete seed directories under {args.directory}")
    df = pd.concat(frames, ignore_index=True)
    df = df[df["mode"].isin(["bound", "exact"]) & df["expected"].isin(["HOLDS", "VIOLATED"])]
    keys = ["theorem", "variant", "params"]
    out = []
    for key, g in df.groupby(keys, sort=True):
        n = int(g["evaluated"].min())
        if n == 0:
            continue
        fails = int(g["failures"].sum() + g["undetermined"].sum() + g["solver_errors"].sum())
        total = int(g["evaluated"].sum())
        lo, hi = stats.clopper_pearson(fails, total, 0.99)
        promised = float(g["promised"].iloc[0])
        exp = g["expected"].iloc[0]
        mode = g["mode"].iloc[0]
        if exp == "HOLDS":
            level = args.level or float(g["alpha_adjusted_holds"].min())
            power = stats.holds_power(mode, n, hi, promised, level)
        else:
            level = args.level or float(g["alpha_adjusted"].min())
            power = stats.violated_power(mode, n, lo, promised, level)
        out.append(
            dict(
                theorem=key[0], variant=key[1], params=key[2], mode=mode, role=g["role"].iloc[0], expected=exp,
                n=n, seeds=len(g), pooled=f"{fails}/{total}", p_lo=lo, p_hi=hi, promised=promised,
                level=level, power=power, unexpected=int((~g["as_expected"].astype(bool)).sum()),
                needed=_needed(mode, exp, n, lo, hi, promised, level, args.min_power),
            )
        )
    res = pd.DataFrame(out)
    weak = res[res["power"] < args.min_power].sort_values("power")
    print(f"{len(res)} statistical rows with an expected verdict; {len(weak)} with power < {args.min_power}")
    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 90)
    if len(weak):
        print(weak.to_string(index=False, float_format=lambda v: f"{v:.3g}"))


if __name__ == "__main__":
    main()
