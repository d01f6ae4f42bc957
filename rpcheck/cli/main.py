"""The ``rpcheck`` command line: the parser, the dispatch to one module per command, and the exit codes.

Exit codes: 0 every verdict is as expected; 1 some verdict is unexpected (or a replayed counterexample does
not reproduce); 2 usage, input or environment error (bad option, unknown theorem id, unreadable or corrupted
file, unwritable output, full disk, unreachable scheduler, dead worker process, a trial out of memory): one line
on stderr naming the argument, and whatever was completed stays checkpointed for ``--resume``; 3 internal error
(a bug: rerun with ``--debug`` for the traceback); 130 interrupted (SIGINT), 143 terminated (SIGTERM: the same
clean stop and ``--resume`` hint); 141 the reader closed stdout (``| head``).

Each command is a module of this package with ``setup_arguments(subparsers)`` and ``run(args)`` (the layout
of asv's ``commands/``); :data:`COMMANDS` lists them in the order ``rpcheck --help`` shows. The commands
compose the engine (:mod:`rpcheck.engine`) and the presentation (:mod:`rpcheck.report.model`, the terminal
renderer :mod:`rpcheck.cli._output`).

Import cost: the command modules import the standard library, the catalog (:mod:`rpcheck.engine.catalog`,
which caches the theorems' metadata that ``rpcheck list`` and ``rpcheck show`` print), the engine and the
presentation model at module level; pandas, scipy, cvxpy, numba, scikit-learn and rich are imported by the
commands that need them.

``--json`` output of ``check``/``verify`` follows ``docs/json-schema.md`` (field ``schema_version``).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures.process import BrokenProcessPool

from .. import __version__, _heap
from ..errors import RpcheckError
from . import advise, bench, calibrate, check, constant, data, docs, replay, report, show, verify
from . import list as list_command
from ._base import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, Parser

#: The command modules, in the order of ``rpcheck --help``.
COMMANDS = (list_command, show, docs, check, verify, constant, report, replay, data, calibrate, bench, advise)


def build_parser():
    """The ``rpcheck`` parser: the global options and one subparser per command of :data:`COMMANDS`."""
    parser = Parser(prog="rpcheck", description="Verify theorems about random projections for linear SVMs.")
    parser.add_argument("--version", action="version", version=f"rpcheck {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.setup_arguments(sub)
    return parser


def _one_line(text):
    return " ".join(str(text).split())


def _resume_hint(args, exc):
    """The ``--resume`` hint of an interrupted or failed ``check``/``verify``: the results directory the run
    wrote to (the exception's ``results_dir``, set by :func:`rpcheck.cli._run.checkpointed`), else ``--out``."""
    out = getattr(exc, "results_dir", None) or getattr(args, "out", None)
    if getattr(args, "command", None) in ("check", "verify") and out:
        return f"; completed chunks are checkpointed in {out}: rerun with `--resume --out {out}`"
    return ""


def main(argv=None):
    """Run the command line; returns the exit code (see the module docstring)."""
    args = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        command = {c.NAME: c for c in COMMANDS}[args.command]
        return command.run(args)
    except BrokenPipeError:  # stdout closed by the reader (`rpcheck list | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as exc:  # SIGINT, or SIGTERM through rpcheck.engine.backends.stop_on_signals
        signum = getattr(exc, "signum", None)
        what = "" if signum is None else f" (signal {signum})"
        print(f"rpcheck: interrupted{what}{_resume_hint(args, exc) if args else ''}", file=sys.stderr)
        return EXIT_INTERRUPTED if signum is None else 128 + int(signum)
    except RpcheckError as exc:
        if args is not None and args.debug:
            raise
        print(f"rpcheck: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # environment: missing/unwritable file, read-only file system, full disk, network
        if args is not None and args.debug:
            raise
        where = f": {exc.filename!r}" if getattr(exc, "filename", None) else ""
        what = exc.strerror or _one_line(exc) or type(exc).__name__
        print(f"rpcheck: error: {what}{where}{_resume_hint(args, exc)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        if args is not None and args.debug:
            raise
        if getattr(exc, "memory", False):  # engine TrialError: a trial ran out of memory (its cell is too large)
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"rpcheck: error: {first} (the cell's parameters are too large for this machine; reduce them)"
                  f"{_resume_hint(args, exc)}", file=sys.stderr)  # fmt: skip
            return EXIT_USAGE
        if isinstance(exc, BrokenProcessPool):
            print(
                "rpcheck: error: a worker process died (killed by a signal, or out of memory?)"
                f"{_resume_hint(args, exc) or '; rerun with --out DIR to checkpoint completed chunks'}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        first = str(exc).splitlines()[0] if str(exc) else ""
        print(f"rpcheck: internal error: {type(exc).__name__}: {first} (rerun with --debug)", file=sys.stderr)
        return EXIT_INTERNAL


def console_main():
    """The ``rpcheck`` command (and ``python -m rpcheck.cli``): :func:`main` in a process that is rpcheck's
    own, so the engine may freeze its import-time heap (:mod:`rpcheck._heap`); ``main`` called from Python
    (tests, notebooks) leaves the caller's process alone."""
    _heap.FREEZE_IMPORT_HEAP = True
    return main()


if __name__ == "__main__":
    sys.exit(console_main())
