"""Declared expected verdicts that a profile's trial count cannot reach, whatever the outcomes.

Not a test (not collected); pure bookkeeping, no trial is run. From the repository root::

    python benchmarks/attainability.py [--profiles standard full] [--per-theorem]

For every built-in theorem holding the profile, every "bound", "exact" or "deterministic" row with a declared
HOLDS or VIOLATED in a cell is asked ``rpcheck.stats.unattainable`` (through
``rpcheck.engine.unattainable_expectations``) at the smallest Holm level the row can meet: ``0.01 / M`` with M
the statistical rows of the whole profile run as one command (``rpcheck verify --profile P``: ``family_size``
of every theorem), or, with ``--per-theorem``, of the theorem alone (``rpcheck check THEOREM``, as
benchmarks/full_by_theorem.py runs ``full``). Such a row is reconciled by the engine to "INCONCLUSIVE also as
expected" (``decide._attainability``): honest, but it says nothing at that profile. Deterministic rows use the
trial count as an upper bound on their evaluated draws (vacuous draws only lower it).
tests/engine/test_ci_power_sized.py enforces the ``ci`` case in the default run.

Prints, per (theorem, mode): the number of rows, the profile's trials, and the rule's requirement.
"""

import argparse
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PAPERS = {"paul2014", "shi2012", "zhang2013", "lei2020", "alpcan2016"}
ALPHA = 0.01


def rows_out_of_reach(profile, per_theorem=False):
    """``({(theorem, mode): [rows, trials, reason]}, M)`` of the declared expectations unattainable at
    ``profile`` (:func:`rpcheck.engine.unattainable_expectations`), with M the whole profile's family size."""
    from rpcheck.engine import family_size, registry, unattainable_expectations

    ths = sorted((th for th in registry.all_theorems() if th.paper in PAPERS and profile in th.profiles),
                 key=lambda th: th.id)
    found = ([r for th in ths for r in unattainable_expectations(th, profile, ALPHA)] if per_theorem
             else unattainable_expectations(ths, profile, ALPHA))
    out = defaultdict(lambda: [0, 0, ""])
    for r in found:
        row = out[(r["theorem"], r["mode"])]
        row[0] += 1
        row[1] = r["trials"]
        row[2] = r["reason"]
    return dict(out), family_size(ths, profile)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", nargs="+", default=["quick", "ci", "standard", "full"])
    ap.add_argument("--per-theorem", action="store_true",
                    help="each theorem its own Holm family (rpcheck check THEOREM) instead of the whole profile")
    args = ap.parse_args(argv)
    for profile in args.profiles:
        rows, m = rows_out_of_reach(profile, args.per_theorem)
        scope = "per theorem" if args.per_theorem else f"one family of M = {m} rows, level {ALPHA / m:.3g}"
        print(f"{profile} ({scope}): {sum(r[0] for r in rows.values())} rows out of reach")
        for (tid, mode), (n_rows, trials, why) in sorted(rows.items()):
            print(f"  {tid} [{mode}] {n_rows} rows at {trials} trials: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
