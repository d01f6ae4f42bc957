"""Table-to-table comparison of two saved runs: are the verdicts the same on the same seed?

Used to show that a restructuring changed no behaviour: run the same profile and root seed before and after
(``rpcheck verify --profile ci --seed S --out A`` on the old commit, ``--out B`` on the new one, or two
``rpcheck calibrate`` seed directories) and compare the ``cells`` tables row by row, keyed by
(theorem, variant, cell)::

    python benchmarks/compare_runs.py A B [--theorem ID ...]

A row *differs* when its verdict, or any of its counts (trials, evaluated, failures, vacuous trials,
solver errors, undetermined) differs. Rows present on one side only are listed. Statistic quantiles
(``stat_q50``, ``stat_max``, ``slack_min``) are compared bit for bit and reported separately: a refactoring
that reorders floating-point operations may move them in the last bits without changing any verdict.
Rows of theorems whose statistic is a wall-clock time (``lei2020.timing`` and the timing variants of the
reproduction theorems) can legitimately differ between two runs; they are reported, not hidden.

Exit status 0 when no verdict or count differs, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

KEY = ["theorem", "variant", "cell"]
COUNTS = ["trials", "evaluated", "failures", "vacuous_trials", "solver_errors", "undetermined"]
STATS = ["stat_q50", "stat_max", "slack_min"]


def load(path: Path, theorems: list[str] | None) -> pd.DataFrame:
    cells = pd.read_parquet(path / "cells.parquet")
    if theorems:
        cells = cells[cells["theorem"].isin(theorems)]
    return cells.set_index(KEY).sort_index()


def _same(a: pd.Series, b: pd.Series) -> pd.Series:
    both_nan = a.isna() & b.isna()
    return both_nan | (a == b)


def compare(a: pd.DataFrame, b: pd.DataFrame) -> dict:
    only_a = a.index.difference(b.index)
    only_b = b.index.difference(a.index)
    common = a.index.intersection(b.index)
    a, b = a.loc[common], b.loc[common]
    verdict = ~_same(a["verdict"].astype(object), b["verdict"].astype(object))
    counts = pd.Series(False, index=common)
    for col in COUNTS:
        if col in a and col in b:
            counts |= ~_same(a[col], b[col])
    stats = pd.Series(False, index=common)
    for col in STATS:
        if col in a and col in b:
            x = pd.to_numeric(a[col], errors="coerce").to_numpy(float)
            y = pd.to_numeric(b[col], errors="coerce").to_numpy(float)
            stats |= ~((x == y) | (np.isnan(x) & np.isnan(y)))
    return {"rows": len(common), "only_a": list(only_a), "only_b": list(only_b),
            "verdict": list(common[verdict.to_numpy()]), "counts": list(common[counts.to_numpy()]),
            "stats": list(common[stats.to_numpy()]), "a": a, "b": b}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--theorem", action="append", default=None)
    args = ap.parse_args(argv)
    res = compare(load(args.a, args.theorem), load(args.b, args.theorem))
    a, b = res["a"], res["b"]
    print(f"{res['rows']} rows compared; only in A: {len(res['only_a'])}; only in B: {len(res['only_b'])}")
    for k in res["only_a"][:20]:
        print("  only A:", k)
    for k in res["only_b"][:20]:
        print("  only B:", k)
    print(f"verdicts differ: {len(res['verdict'])}; counts differ: {len(res['counts'])}; "
          f"statistic quantiles differ (bitwise): {len(res['stats'])}")
    for k in sorted(set(res["verdict"]) | set(res["counts"])):
        cols = ["verdict", *[c for c in COUNTS if c in a]]
        print("  ", k, dict(zip(cols, a.loc[k, cols].tolist())), "->", dict(zip(cols, b.loc[k, cols].tolist())))
    by_theorem = pd.Series([k[0] for k in res["stats"]]).value_counts()
    for th, n in by_theorem.items():
        print(f"   statistics moved: {th}: {n} rows")
    bad = res["verdict"] or res["counts"] or res["only_a"] or res["only_b"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
