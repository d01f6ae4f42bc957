"""``rpcheck verify``: run every registered theorem and write the HTML report (the main job)."""

from __future__ import annotations

from ..engine import plugins, registry
from ..engine.data import select_for_profile
from ..engine.theorem import ALL_PROFILES, PROFILES
from . import _run
from ._checks import check_out_dir

NAME = "verify"


def setup_arguments(subparsers):
    p = subparsers.add_parser(NAME, help="run every registered theorem and write the HTML report (the main job)")
    _run.add_run_arguments(p, profile_default="quick", profiles=ALL_PROFILES)
    p.add_argument("--no-report", action="store_true", help="do not write report.html")
    return p


def run(args):
    plugins.load_entry_points()
    registry.load_builtins()
    _run.check_run_args(args, registry.all_theorems() if args.overrides else None)
    _run.user_data_file(args)  # a data FILE is for `check`: one line here
    theorems = None
    if args.profile not in PROFILES:
        selected, skipped = select_for_profile(registry.all_theorems(), args.profile, explicit=False)
        theorems = [th.id for th in selected]
        if skipped and not args.quiet and not args.json:
            print(f"profile {args.profile!r}: running {len(selected)} theorems ({', '.join(theorems)}); skipping "
                  f"{len(skipped)} without a {args.profile!r} profile (PROFILES.md says which data-driven ones and "
                  "why)")
    out = args.out
    if out is None:
        out = _run.default_results_dir()
        check_out_dir(out, "--out (default reports/<timestamp>)")
    with _run.checkpointed(out):
        result = _run.run_engine(args, theorems, out)
        return _run.finish(args, result, out, write_report=not args.no_report)
