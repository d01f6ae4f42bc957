"""``rpcheck data FILE``: describe a data file; ``data fetch NAME...`` downloads and verifies the papers' data
sets (:mod:`rpcheck.data_registry`), ``data list`` shows which are cached."""

from __future__ import annotations

import json
from pathlib import Path

from .. import data_registry as reg
from ..errors import RpcheckError
from ..options import parse_label
from ._base import EXIT_OK

NAME = "data"


def setup_arguments(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="describe a data file (svmlight/LIBSVM, CSV, .npz); `data fetch NAME...` downloads and verifies the "
        "papers' data sets, `data list` shows which are cached",
    )
    p.add_argument("file", metavar="FILE|fetch|list", help="a data file to describe, or the action fetch/list")
    p.add_argument("names", nargs="*", metavar="NAME", help="data sets to fetch (`rpcheck data list` names them)")
    p.add_argument("--cache", default=None, metavar="DIR", help="cache directory (default: $RPCHECK_DATA_DIR, "
                   "else the user cache directory's rpcheck folder)")  # fmt: skip
    p.add_argument("--offline", action="store_true", help="never use the network; a missing file is an error")
    p.add_argument("--base-url", default=None, metavar="URL", help="fetch every file from URL/<file name> (a mirror)")
    p.add_argument("--format", dest="fmt", default=None, choices=("svmlight", "csv", "npz"))
    p.add_argument("--task", default=None, choices=("classification", "regression"))
    p.add_argument(
        "--positive",
        default=None,
        type=parse_label,
        metavar="LABEL",
        help="one-vs-rest: this label becomes +1, every other label -1 (for multi-class files)",
    )
    p.add_argument("--json", action="store_true")
    return p


def run(args):
    if args.file in ("fetch", "list"):
        return _run_registry(args)
    if args.names:
        raise RpcheckError(f"`data FILE` takes one file; got extra arguments {args.names} (the actions are "
                           "`data fetch NAME...` and `data list`; write ./fetch for a file named fetch).")  # fmt: skip
    from ..datasets import describe, load_file  # imports scipy

    p = Path(args.file)
    if not p.is_file():
        raise RpcheckError(f"`FILE` ({args.file!r}) is not an existing file.")
    try:
        ds = load_file(args.file, fmt=args.fmt, task=args.task, positive=args.positive)
    except (RpcheckError, OSError):
        raise
    except (ValueError, UnicodeDecodeError, EOFError) as exc:
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise RpcheckError(f"`FILE` ({args.file!r}) could not be read as a data set ({msg}).") from None
    info = describe(ds)
    if args.json:
        print(json.dumps(info, indent=1, default=str))
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
    return EXIT_OK


def _run_registry(args):
    if args.file == "list":
        if args.names:
            raise RpcheckError(f"`data list` takes no names; got {args.names}.")
        rows = reg.status(cache=args.cache)
        if args.json:
            print(json.dumps({"cache": str(reg.data_dir(args.cache)), "files": rows}, indent=1))
            return EXIT_OK
        print(f"cache: {reg.data_dir(args.cache)}")
        for r in rows:
            have = f"{r['size']:>13,} B  {r['path']}" if r["present"] else "      missing  " + (
                "no confirmed URL" if r["url"] is None else r["url"])  # fmt: skip
            print(f"{r['set']:<16} {r['file']:<28} {have}")
        return EXIT_OK
    if not args.names:
        raise RpcheckError("`data fetch` needs at least one NAME; `rpcheck data list` shows the registered sets.")
    done = {}
    for name in args.names:
        paths = reg.fetch(name, cache=args.cache, offline=args.offline, base_url=args.base_url)
        done[name] = {f: str(p) for f, p in paths.items()}
        if not args.json:
            for f, p in paths.items():
                print(f"{name}/{f}: {p} ({p.stat().st_size:,} B, verified)")
    if args.json:
        print(json.dumps(done, indent=1))
    return EXIT_OK
