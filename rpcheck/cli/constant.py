"""``rpcheck constant ID``: the empirical constant of an O(.) target dimension (:mod:`rpcheck.engine.constant`)."""

from __future__ import annotations

import os
from pathlib import Path

from ..engine.catalog import resolve_theorem
from ..engine.constant import find_constant
from ..engine.store import read_csv_exact
from ..engine.theorem import PROFILES
from ..errors import RpcheckError
from ..options import jobs_int, probability, seed_int, trials_int
from ._base import EXIT_OK
from ._checks import check_out_file

NAME = "constant"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="empirical constant of an O(.) target dimension: smallest working r per cell and the implied constant",
    )
    p.add_argument("id")
    p.add_argument("--profile", choices=PROFILES, default="ci", help="whose cells to search. Default: %(default)r")
    p.add_argument("--cell", type=int, action="append", default=None, metavar="K", help="only cell K (repeatable)")
    p.add_argument("--trials", type=trials_int, default=200, metavar="N", help="trials per evaluated value")
    p.add_argument("--seed", type=seed_int, default=0, metavar="S", help="root seed in [0, 2**63)")
    p.add_argument("--confidence", type=probability, default=0.95, help="family-wise confidence of each search")
    p.add_argument("--backend", choices=("serial", "processes"), default="processes")
    p.add_argument("--jobs", type=jobs_int, default=None, metavar="N")
    p.add_argument(
        "--out",
        default=None,
        metavar="CSV",
        help="also write (merge) the table into this CSV; RESULTS/constants.csv is shown by `rpcheck report RESULTS`",
    )
    p.add_argument("--json", action="store_true")
    return p


def run(args):
    import pandas as pd

    theorem = resolve_theorem(args.id)
    if not theorem.constant_search:
        raise RpcheckError(
            f"theorem {theorem.id!r} declares no O(.) target dimension (constant_search); "
            "`rpcheck list` shows the probabilistic lemmas that do."
        )
    if args.out is not None:
        check_out_file(args.out, "--out")
    cells = theorem.profiles[args.profile].cells
    indices = args.cell if args.cell is not None else range(len(cells))
    for k in indices:
        if not 0 <= k < len(cells):
            raise RpcheckError(
                f"`--cell` ({k}) must be in the range [0, {len(cells) - 1}] for profile {args.profile!r}."
            )
    rows = []
    for k in indices:
        params = cells[k]
        res = find_constant(
            theorem,
            params,
            trials=args.trials,
            seed=args.seed,
            confidence=args.confidence,
            backend=args.backend,
            jobs=args.jobs,
        )
        conf = res.confirmation
        rows.append(
            {
                "cell": k,
                **{f"p_{key}": v for key, v in params.items()},
                "param": res.param,
                "used": params.get(res.param),
                "empirical": res.value,
                "status": res.status,
                "bracket_low": res.bracket[0],
                "formula_value": res.formula_value,
                "implied_constant": res.implied_constant,
                "delta": res.delta,
                "confirmed": None if conf is None else bool(conf.passed),
                "evaluations": len(res.evaluations),
            }
        )
    table = pd.DataFrame(rows)
    table.insert(0, "theorem", theorem.id)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():  # merge: a new search of the same (theorem, cell) replaces the old row
            try:
                old = read_csv_exact(out)
                keep = ~(old["theorem"].eq(theorem.id) & old["cell"].isin(table["cell"]))
            except (ValueError, KeyError, UnicodeDecodeError) as exc:
                raise RpcheckError(
                    f"`--out` ({args.out!r}) exists but is not a constants table written by `rpcheck constant` "
                    f"({type(exc).__name__}: {exc})."
                ) from None
            table_out = pd.concat([old[keep], table], ignore_index=True)
        else:
            table_out = table
        tmp = out.with_name(f".{out.name}.tmp")
        table_out.to_csv(tmp, index=False)
        os.replace(tmp, out)
    if args.json:
        print(table.to_json(orient="records"))
    else:
        print(
            f"{theorem.id}: smallest {rows[0]['param'] if rows else 'r'} with failure rate certifiably <= delta "
            f"(exact one-sided bounds, family-wise confidence {args.confidence}, {args.trials} trials per value)"
        )
        print(table.to_string(index=False))
    return EXIT_OK
