"""``rpcheck list``: the registered theorems, built-in and from installed plugins (from the catalog)."""

from __future__ import annotations

import json

from ..engine.catalog import builtin_index, plugin_infos
from ..errors import RpcheckError
from ._base import EXIT_OK
from ._output import console

NAME = "list"


def setup_arguments(subparsers):
    p = subparsers.add_parser(NAME, help="list the registered theorems (built-in and from installed plugins)")
    p.add_argument("--paper", default=None, help="only this paper (e.g. paul2014)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def run(args):
    infos = {**builtin_index(), **plugin_infos()}
    if args.paper is not None:
        papers = sorted({i["paper"] for i in infos.values()})
        if args.paper not in papers:
            raise RpcheckError(f"`--paper` ({args.paper!r}) must be one of {', '.join(papers)}.")
    rows = [infos[k] for k in sorted(infos) if args.paper in (None, infos[k]["paper"])]
    if args.json:
        keys = ("id", "paper", "kind", "title", "source")
        print(json.dumps([{k: i[k] for k in keys} for i in rows], indent=1))
        return EXIT_OK
    from rich.table import Table

    table = Table(show_lines=False)
    for c in ("id", "paper", "kind", "statement"):
        table.add_column(c)
    for i in rows:
        table.add_row(i["id"], i["paper"], i["kind"], i["title"])
    console().print(table)
    return EXIT_OK
