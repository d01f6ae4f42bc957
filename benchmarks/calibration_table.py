"""Per-theorem table of one or more calibration directories, for PROFILES.md.

Not a test (not collected). ``python benchmarks/calibration_table.py DIR [DIR ...] [--theorem ID ...]
[--exclude ID ...]`` reads every complete ``seed-*`` directory and prints a Markdown table with one row per
theorem: statistical/other rows per seed, row-seed verdict counts and the unexpected ones (``as_expected`` as
the run recorded it), then a summary line.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("directories", nargs="+")
    ap.add_argument("--theorem", action="append", default=None)
    ap.add_argument("--exclude", action="append", default=[])
    args = ap.parse_args()

    import pandas as pd

    from rpcheck.engine.loading import load_results

    frames = []
    for d in args.directories:
        for seed_dir in sorted(Path(d).glob("seed-*")):
            if not (seed_dir / "cells.parquet").exists():
                continue
            c = load_results(seed_dir).cells
            frames.append(c.assign(_seed=int(seed_dir.name.split("-")[1])))
    df = pd.concat(frames, ignore_index=True)
    if args.theorem:
        df = df[df["theorem"].isin(args.theorem)]
    df = df[~df["theorem"].isin(args.exclude)]
    df["unexpected"] = ~df["as_expected"].astype(bool)
    seeds = sorted(df["_seed"].unique())
    print("| theorem | seeds | rows | HOLDS | VIOLATED | INCONCLUSIVE | VACUOUS | unexpected |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for th, g in df.groupby("theorem"):
        s = sorted(g["_seed"].unique())
        v = g["verdict"].value_counts()
        print(f"| `{th}` | {s[0]}-{s[-1]} ({len(s)}) | {len(g) // len(s)} | {v.get('HOLDS', 0)} | "
              f"{v.get('VIOLATED', 0)} | {v.get('INCONCLUSIVE', 0)} | {v.get('VACUOUS', 0)} | "
              f"{int(g['unexpected'].sum())} |")
    runs_bad = df.groupby("_seed")["unexpected"].any()
    print(f"\n{len(seeds)} seeds, {df['theorem'].nunique()} theorems, {len(df)} row-seeds, "
          f"{int(df['unexpected'].sum())} unexpected; runs with any unexpected: {int(runs_bad.sum())}/{len(seeds)}")
    for r in df[df["unexpected"]].to_dict("records"):
        print(f"UNEXPECTED seed {r['_seed']}: {r['theorem']} {r['variant']} cell {r['cell']} {r['verdict']} "
              f"(expected {r['expected']}); {r['claim']}")


if __name__ == "__main__":
    main()
