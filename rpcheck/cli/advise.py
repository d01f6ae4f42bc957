"""``rpcheck advise FILE``: the smallest r per sketch kind on the user's data (:mod:`rpcheck.advise`)."""

from __future__ import annotations

import json

from ..options import jobs_int, seed_int, trials_int
from ._base import EXIT_OK
from ._checks import check_out_dir

NAME = "advise"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="smallest r per sketch kind at which the projected SVM keeps its margin and test accuracy within "
        "eps with probability >= 1 - delta, next to the papers' r",
    )
    p.add_argument("file", metavar="FILE", help="a data file (svmlight/LIBSVM, CSV, .npz) or a bundled set name "
                   "(breast_cancer, digits)")  # fmt: skip
    p.add_argument("--eps", type=float, default=0.1, help="tolerance of both events, in (0, 1). Default: %(default)s")
    p.add_argument("--delta", type=float, default=0.1, help="failure probability, in (0, 1). Default: %(default)s")
    p.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                   help="sketch kinds (default: gaussian srht countsketch sparse)")  # fmt: skip
    p.add_argument("--trials", type=trials_int, default=None, metavar="N", help="draws of R per r (default: max(100, "
                   "the fewest with which 0 failures pass))")  # fmt: skip
    p.add_argument("--seed", type=seed_int, default=0, metavar="S", help="root seed in [0, 2**63)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="probability that every r of the table keeps its promise. Default: %(default)s")  # fmt: skip
    p.add_argument("--C", dest="C", type=float, default=1.0, help="SVM cost. Default: %(default)s")
    p.add_argument("--test-fraction", type=float, default=0.3, help="held-out share of each class")
    p.add_argument("--max-r", type=int, default=None, metavar="R", help="largest r searched (default min(d, 2048))")
    p.add_argument("--confirm", action="store_true", help="re-test each r on a fresh seed")
    p.add_argument("--backend", choices=("serial", "processes"), default="serial")
    p.add_argument("--jobs", type=jobs_int, default=None, metavar="N")
    p.add_argument("--out", default=None, metavar="DIR", help="write DIR/advise.html (self-contained, with the "
                   "plot) and DIR/advise.csv")  # fmt: skip
    p.add_argument("--json", action="store_true")
    return p


def run(args):
    from .. import advise as adv  # imports scipy and the papers' bounds

    if args.out is not None:
        check_out_dir(args.out)
    kw = {"kinds": tuple(args.kinds)} if args.kinds else {}
    res = adv.advise(
        args.file, eps=args.eps, delta=args.delta, trials=args.trials, seed=args.seed, confidence=args.confidence,
        C=args.C, test_fraction=args.test_fraction, max_r=args.max_r, confirm=args.confirm, backend=args.backend,
        jobs=args.jobs, **kw,
    )  # fmt: skip
    html_path = adv.write_html(res, args.out) if args.out is not None else None
    if args.json:
        doc = {"data": res.data, "label": res.label, "rule": res.rule, "rows": json.loads(res.frame().to_json(
            orient="records")), "html": None if html_path is None else str(html_path)}  # fmt: skip
        print(json.dumps(doc, indent=1, default=str))
    else:
        print(adv.table_text(res))
        if html_path is not None:
            print(f"report: {html_path}")
    return EXIT_OK
