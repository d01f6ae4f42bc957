"""``rpcheck calibrate``: run a profile under K fresh root seeds (:mod:`rpcheck.engine.calibrate`)."""

from __future__ import annotations

from pathlib import Path

from ..engine import plugins, registry
from ..engine.calibrate import calibrate, parse_seeds
from ..engine.catalog import resolve_theorem
from ..engine.theorem import PROFILES
from ..options import BACKENDS, jobs_int, probability
from ._base import EXIT_OK, EXIT_UNEXPECTED
from ._checks import check_out_dir, check_scheduler
from ._run import worker_policy

NAME = "calibrate"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="run a profile under K fresh root seeds; per row, how often the verdict differed from the expected",
    )
    p.add_argument("--profile", choices=PROFILES, default="quick", help="Run size. Default: %(default)r")
    p.add_argument("--seeds", required=True, metavar="SEEDS", help="root seeds: a range 1-20 or a list 1,5,7")
    p.add_argument(
        "--theorem", dest="theorems", action="append", default=None, metavar="ID",
        help="only this theorem (repeatable; default: every registered theorem)",
    )  # fmt: skip
    p.add_argument(
        "--out", default=None, metavar="DIR", help="calibration directory (default reports/calibrate-<profile>)"
    )
    p.add_argument("--jobs", type=jobs_int, default=None, metavar="N")
    p.add_argument("--backend", choices=BACKENDS, default="processes")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler for --backend dask")
    p.add_argument("--alpha", type=probability, default=0.01, metavar="A", help="family-wise level of each run")
    p.add_argument("--quiet", action="store_true", help="no per-seed lines")
    return p


def run(args):
    """Exit 1 if any row of any seed is unexpected (like verify), else 0."""
    seeds = parse_seeds(args.seeds)
    check_scheduler(args)
    if args.theorems:
        theorems = [resolve_theorem(t) for t in args.theorems]
    else:
        plugins.load_entry_points()
        registry.load_builtins()
        theorems = None
    out = args.out if args.out is not None else str(Path("reports") / f"calibrate-{args.profile}")
    check_out_dir(out, "--out")

    def on_seed(seed, status, cells):
        if args.quiet:
            return
        u = int((~cells["as_expected"].astype(bool)).sum()) if len(cells) else 0
        what = "complete, read back" if status == "complete" else "ran"
        print(f"seed {seed}: {what} ({Path(out) / f'seed-{seed}'}); {len(cells)} rows, {u} unexpected", flush=True)

    with worker_policy():
        res = calibrate(
            theorems, profile=args.profile, seeds=seeds, out=out, backend=args.backend, jobs=args.jobs,
            scheduler=args.scheduler, alpha=args.alpha, on_seed=on_seed,
        )  # fmt: skip
    for line in res.unexpected_lines():
        print(line)
    print(res.summary_line())
    print(f"calibration: {Path(out) / 'calibration.csv'}")
    return EXIT_UNEXPECTED if res.unexpected else EXIT_OK
