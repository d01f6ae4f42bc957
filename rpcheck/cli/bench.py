"""``rpcheck bench``: per theorem, the trial rate and the shares of time (:mod:`rpcheck.engine.bench`)."""

from __future__ import annotations

import json
from pathlib import Path

from ..engine import plugins, registry
from ..engine.bench import CATEGORIES, FIXED_LIMIT, bench
from ..engine.catalog import jsonable, resolve_theorem
from ..engine.store import atomic_write_text
from ..engine.theorem import PROFILES
from ..errors import RpcheckError
from ..options import seed_int, trials_int
from ._base import EXIT_OK
from ._checks import check_out_file

NAME = "bench"
#: Column heads of the time shares.
SHORT = {"sketch": "sketch", "solve": "solve", "certificate": "cert", "canonicalisation": "canon",
         "trial": "trial", "engine": "engine", "other": "other"}  # fmt: skip


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="per theorem: trials per second and the share of time in sketches, solves, certificates, "
        "canonicalisation, the trial's own maths and the engine (serial, profiled)",
    )
    p.add_argument("ids", nargs="*", metavar="ID", help="theorem ids (default: every registered theorem)")
    p.add_argument("--profile", choices=PROFILES, default="ci", help="Run size. Default: %(default)r")
    p.add_argument(
        "--trials", type=trials_int, default=None, metavar="N", help="trials per cell (default: the profile's)"
    )
    p.add_argument("--seed", type=seed_int, default=0, metavar="S", help="root seed in [0, 2**63)")
    p.add_argument("--out", default=None, metavar="CSV", help="also write the table to this CSV file (new file only)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    return p


def run(args):
    """Exit 0; the table flags theorems whose fixed overhead exceeds 20% (rpcheck.engine.bench)."""
    if args.out is not None:
        check_out_file(args.out, "--out")
        if Path(args.out).exists():
            raise RpcheckError(
                f"`--out` ({args.out!r}) exists; rpcheck bench does not overwrite files. Give a new path."
            )
    if args.ids:
        theorems = [resolve_theorem(t) for t in args.ids]
    else:
        plugins.load_entry_points()
        theorems = registry.all_theorems()
    if not args.json:
        head = f"{'theorem':34} {'cells':>5} {'trials':>7} {'wall s':>8} {'trials/s':>9} " + " ".join(
            f"{SHORT[c]:>6}" for c in CATEGORIES) + "  fixed outside fixed* per-trial per-run s"
        print(f"profile {args.profile}, serial, seed {args.seed}; shares of the profiled time, then of the "
              "unprofiled run: outside the trial functions, fixed* (outside + canonicalisation), per-trial (fixed "
              "overhead paid per trial), and the per-run seconds (decide, tables) (rpcheck.engine.bench)")
        print(head, flush=True)

    def on_row(r):
        if args.json:
            return
        flag = "  > 20%" if r.over_limit else ""
        print(f"{r.theorem:34} {r.cells:5d} {r.trials:7d} {r.wall_s:8.2f} {r.trials_per_s:9.1f} "
              + " ".join(f"{100 * r.shares[c]:5.1f}%" for c in CATEGORIES)
              + f" {100 * r.fixed_share:5.1f}% {100 * r.outside_share:6.1f}% {100 * r.fixed_share_unprofiled:5.1f}%"
              + f" {100 * r.fixed_per_trial:8.1f}% {r.per_run_s:8.2f}" + flag, flush=True)  # fmt: skip

    rows = bench(theorems, profile=args.profile, trials=args.trials, seed=args.seed, on_row=on_row)
    if args.out is not None:
        import pandas as pd

        frame = pd.DataFrame([{k: v for k, v in r.as_dict().items() if k != "shares"}
                              | {f"share_{c}": r.shares[c] for c in CATEGORIES} for r in rows])  # fmt: skip
        atomic_write_text(args.out, frame.to_csv(index=False))
    if args.json:
        print(json.dumps([r.as_dict() for r in rows], indent=2, default=jsonable))
    else:
        over = [r.theorem for r in rows if r.over_limit]
        total = sum(r.wall_s for r in rows)
        print(f"{len(rows)} theorems, {total:.1f} s unprofiled; fixed overhead per trial (engine time while the "
              f"trials run + canonicalisation, unprofiled) above {FIXED_LIMIT:.0%}: {len(over)}"
              + (f" ({', '.join(over)})" if over else ""))
    return EXIT_OK
