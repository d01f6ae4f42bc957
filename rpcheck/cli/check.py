"""``rpcheck check ID``: run one theorem (or, with ``--data FILE``, one theorem on the user's data file)."""

from __future__ import annotations

from ..engine.catalog import resolve_theorem
from ..engine.theorem import ALL_PROFILES
from . import _run
from ._output import progress_runner

NAME = "check"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME, help="run one theorem and print one line per theorem (--details: a table per cell)"
    )
    p.add_argument("id", help="theorem id, or module:ATTRIBUTE of your own Theorem (docs/tutorial.md)")
    _run.add_run_arguments(p, profile_default="ci", profiles=ALL_PROFILES)
    p.add_argument(
        "--until-decided",
        action="store_true",
        help="same as --stop until-decided: a cell whose rows are not all decided at its planned trials "
        "doubles them (up to 64 times; anytime-valid e-values at the whole --alpha; --budget ends it sooner)",
    )
    return p


def run(args):
    theorem = resolve_theorem(args.id)  # unknown id -> RpcheckError with the closest ids
    _run.check_run_args(args, [theorem])
    data_file = _run.user_data_file(args)
    if data_file is not None:
        return _check_on_data(args, theorem, data_file)
    result = _run.run_engine(args, [theorem], args.out)
    return _run.finish(args, result, args.out)


def _check_on_data(args, theorem, data_file):
    """``rpcheck check ID --data FILE``: the engine builds the theorem's cells for the file
    (:func:`rpcheck.engine.userdata.run_on_data`); the summary's first line names the file."""
    from ..engine import userdata  # imports scipy

    if theorem.data_cells is None:  # before loading anything: one line naming the theorems that accept data
        userdata.data_theorem(theorem, {}, args.profile)
    ctx, callback = progress_runner(args.quiet or args.json)
    with _run.worker_policy(), ctx:
        result, info = userdata.run_on_data(
            theorem, data_file, profile=args.profile, out=args.out, overrides=dict(args.overrides) or None,
            trials=args.trials, seed=args.seed, backend=args.backend, jobs=args.jobs, scheduler=args.scheduler,
            resume=args.resume, alpha=args.alpha, progress=callback, stopping=args.stop, budget=args.budget,
        )  # fmt: skip
    if not args.json:
        print(userdata.data_label(info))
    return _run.finish(args, result, args.out)
