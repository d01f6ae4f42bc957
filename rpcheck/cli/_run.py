"""What ``check`` and ``verify`` share: their options, the checks of those options, the engine run with its
progress bar and worker policy, and the output of the result (terminal summary or ``--json`` document).

The results directory of a run is passed explicitly; an interruption or an environment error raised while
a run writes there carries it as the exception's ``results_dir`` attribute (:func:`checkpointed`), which
the error handling of :func:`rpcheck.cli.main.main` names in its ``--resume`` hint.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import logging
import re
import sys
from contextlib import contextmanager
from pathlib import Path

from .. import engine, report
from ..data_registry import REGISTRY, data_setting
from ..engine.backends import stop_on_signals
from ..errors import RpcheckError
from ..options import add_run_options, parse_assignment
from ..report import model
from ._base import EXIT_OK, EXIT_UNEXPECTED
from ._checks import check_out_dir, check_scheduler
from ._output import console, fmt_value, progress_runner, render_summary

__all__ = [
    "add_run_arguments",
    "parse_data_assignment",
    "check_run_args",
    "user_data_file",
    "run_overrides",
    "worker_policy",
    "checkpointed",
    "default_results_dir",
    "run_engine",
    "finish",
]


def parse_data_assignment(text):
    """``--data NAME=PATH`` -> ``(NAME, PATH)`` (checked by rpcheck.data_registry.data_setting, which names an
    unknown set); ``--data FILE`` (no ``=``, an existing path, or a left side that is no name) -> ``("", FILE)``,
    the user's own data."""
    name, eq, path = text.partition("=")
    looks_named = bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name.strip())) and not Path(text).exists()
    if eq and (name.strip() in {d.name for d in REGISTRY} or looks_named):
        if not path.strip():
            raise argparse.ArgumentTypeError(f"expected NAME=PATH (NAME a registered data set), got {text!r}")
        return name.strip(), path.strip()
    if not text.strip():
        raise argparse.ArgumentTypeError("expected NAME=PATH (NAME a registered data set) or a data FILE, got ''")
    return "", text


def add_run_arguments(p, *, profile_default, profiles):
    """The options ``check`` and ``verify`` share (after ``check``'s ID, before their own options)."""
    add_run_options(p.add_argument, profile_default=profile_default, profiles=profiles)
    p.add_argument(
        "--data",
        dest="data",
        action="append",
        type=parse_data_assignment,
        default=[],
        metavar="NAME=PATH|FILE",
        help="NAME=PATH: run the experiments of registered data set NAME on this file or directory "
        "(repeatable; default: the fetched copy in the cache, else the stand-in; `rpcheck data list`). "
        "FILE (check only): run the theorem on your own data file (svmlight/LIBSVM, CSV, .npz) instead of "
        "generated data; only theorems about a given data matrix accept it (the error names them)",
    )
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        type=parse_assignment,
        default=[],
        metavar="NAME=VALUE",
        help="override one parameter in every cell (repeatable)",
    )
    p.add_argument("--out", default=None, metavar="DIR", help="results directory")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no per-theorem lines")
    p.add_argument("--details", action="store_true", help="also print a table per (theorem, variant)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (docs/json-schema.md)")


# --------------------------------------------------------------------------------------------- validation


def _kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list | tuple):
        return "list"
    return "none" if v is None else type(v).__name__


def _check_override_types(theorems, overrides):
    """``--set`` values must have the type of the parameter in the theorem's own cells, unless the theorem
    declares the parameter's domain (then the engine validates it before any trial)."""
    for name, value in overrides:
        for th in theorems:
            declared = getattr(th, "parameters", None) or {}
            if name in declared:
                continue
            seen = [c[name] for p in th.profiles.values() for c in p.cells if name in c]
            if not seen:
                continue
            kinds = {_kind(v) for v in seen}
            k = _kind(value)
            ok = k in kinds or (k == "int" and "float" in kinds and "bool" not in kinds)
            if not ok:
                want = " or ".join(sorted(kinds))
                raise RpcheckError(
                    f"`--set {name}` ({value!r}, a {k}) must be a {want} like in the cells of {th.id} "
                    f"(e.g. {name}={fmt_value(seen[0])})."
                )


def check_run_args(args, theorems):
    """``--resume`` needs ``--out``; ``--scheduler``, ``--out`` and the ``--set`` types are checked (the
    types against ``theorems``, when given)."""
    if args.resume and args.out is None:
        raise RpcheckError("`--resume` needs `--out DIR` (the directory of the interrupted run).")
    check_scheduler(args)
    if args.out is not None:
        check_out_dir(args.out)
        # a corrupted checkpoint on --resume is named by the engine (rpcheck.engine.store) before any trial
    if args.overrides and theorems is not None:
        _check_override_types(theorems, args.overrides)


def user_data_file(args):
    """The one ``--data FILE`` of ``rpcheck check`` (None without one); refused beside NAME=PATH entries and
    in ``verify``."""
    files = [p for n, p in args.data or () if not n]
    if not files:
        return None
    if args.command != "check":
        raise RpcheckError(f"`--data` ({files[0]!r}): a data FILE is for `rpcheck check ID --data FILE`; "
                           "`verify` takes NAME=PATH with NAME a registered data set (`rpcheck data list`).")
    if len(files) > 1 or len(files) != len(args.data):
        raise RpcheckError(f"`--data` ({', '.join(map(repr, (p for _, p in args.data)))}): give one data FILE, "
                           "or NAME=PATH entries of registered data sets, not both.")
    return files[0]


def run_overrides(args):
    """``--set`` values plus ``--data``'s mapping as the override ``data_source`` (rpcheck.engine.data)."""
    overrides = dict(args.overrides)
    named = [(n, p) for n, p in args.data or () if n]
    if named:
        overrides["data_source"] = data_setting(dict(named))
    return overrides or None


# --------------------------------------------------------------------------------------------- running


@contextmanager
def worker_policy():
    """The engine's worker-pool policy seen from the command line (rpcheck.engine.backends): SIGTERM stops
    a run exactly like SIGINT (exit 143 instead of 130), and a capped ``--jobs`` is said in one line."""
    log = logging.getLogger("rpcheck.workers")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("rpcheck: note: %(message)s"))
    log.addHandler(handler)
    try:
        with stop_on_signals():
            yield
    finally:
        log.removeHandler(handler)


@contextmanager
def checkpointed(out):
    """Mark an exception raised inside the block with ``results_dir = out``: the directory whose completed
    chunks ``--resume`` continues from (nothing is marked when ``out`` is None)."""
    try:
        yield
    except BaseException as exc:
        if out is not None and not isinstance(exc, SystemExit | GeneratorExit):
            try:
                exc.results_dir = str(out)
            except AttributeError:  # an exception type without a __dict__
                pass
        raise


def default_results_dir():
    """``reports/<UTC timestamp>``: where ``verify`` writes without ``--out``."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return str(Path("reports") / stamp)


def run_engine(args, theorems, out):
    """:func:`rpcheck.engine.run` with the options of ``check``/``verify``, writing to ``out``."""
    ctx, callback = progress_runner(args.quiet or args.json)
    with worker_policy(), ctx:
        return engine.run(
            theorems,
            profile=args.profile,
            overrides=run_overrides(args),
            trials=args.trials,
            seed=args.seed,
            backend=args.backend,
            jobs=args.jobs,
            scheduler=args.scheduler,
            out=out,
            resume=args.resume,
            alpha=args.alpha,
            progress=callback,
            stopping="until-decided" if getattr(args, "until_decided", False) else args.stop,
            budget=args.budget,
        )


def finish(args, result, out, *, write_report=False):
    """Print the run's summary (or its ``--json`` document), after writing ``out/report.html`` when
    ``write_report``; exit 1 when a verdict is unexpected, else 0."""
    report_path = None
    if write_report and out is not None:
        report_path = report.write_report(result, Path(out) / "report.html")  # imports the HTML writer
    con = None if args.json else console()
    lines, summaries, counts = render_summary(
        result, details=args.details and not args.json, quiet=args.quiet, out=out, report_path=report_path,
        console=con,
    )  # fmt: skip
    if args.json:
        doc = model.json_document(args.command, result, out=out, report_path=report_path, summaries=summaries,
                                  counts=counts)  # fmt: skip
        print(json.dumps(doc, indent=1))
    else:
        for line in lines:
            print(line)
    return EXIT_UNEXPECTED if counts["unexpected"] else EXIT_OK
