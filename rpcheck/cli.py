"""The ``rpcheck`` command line: a thin presentation layer over ``rpcheck.engine``.

Exit codes: 0 every verdict is as expected; 1 some verdict is unexpected (or a replayed counterexample does
not reproduce); 2 usage error (bad option, unknown theorem id, unreadable file); 3 internal error (a bug:
rerun with ``--debug`` for the traceback).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import textwrap
from pathlib import Path

from . import __version__
from .engine.theorem import PROFILES
from .errors import RpcheckError
from .options import add_run_options, parse_assignment, parse_label, positive_int, probability

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse's own convention)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser():
    parser = _Parser(prog="rpcheck", description="Verify theorems about random projections for linear SVMs.")
    parser.add_argument("--version", action="version", version=f"rpcheck {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="list the registered theorems")
    p.add_argument("--paper", default=None, help="only this paper (e.g. paul2014)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("show", help="statement, citation, variants, parameters and profiles of one theorem")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")

    for name, helptext, profile in (
        ("check", "run one theorem and print a table per cell", "ci"),
        ("verify", "run every registered theorem and write the HTML report (the main job)", "quick"),
    ):
        p = sub.add_parser(name, help=helptext)
        if name == "check":
            p.add_argument("id")
        add_run_options(p.add_argument, profile_default=profile)
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
        p.add_argument("--quiet", action="store_true", help="no progress bar and no tables")
        p.add_argument("--json", action="store_true", help="print the cell table as JSON")
        if name == "verify":
            p.add_argument("--no-report", action="store_true", help="do not write report.html")

    p = sub.add_parser(
        "constant",
        help="empirical constant of an O(.) target dimension: smallest working r per cell and the implied constant",
    )
    p.add_argument("id")
    p.add_argument("--profile", choices=PROFILES, default="ci", help="whose cells to search. Default: %(default)r")
    p.add_argument("--cell", type=int, action="append", default=None, metavar="K", help="only cell K (repeatable)")
    p.add_argument("--trials", type=positive_int, default=200, metavar="N", help="trials per evaluated value")
    p.add_argument("--seed", type=int, default=0, metavar="S")
    p.add_argument("--confidence", type=probability, default=0.95, help="family-wise confidence of each search")
    p.add_argument("--backend", choices=("serial", "processes"), default="processes")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N")
    p.add_argument(
        "--out",
        default=None,
        metavar="CSV",
        help="also write (merge) the table into this CSV; RESULTS/constants.csv is shown by `rpcheck report RESULTS`",
    )
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("report", help="re-render the HTML report from saved results")
    p.add_argument("results", metavar="RESULTS", help="a results directory written by check/verify")
    p.add_argument("-o", "--output", default=None, help="output file (default: RESULTS/report.html)")

    p = sub.add_parser("replay", help="recompute a saved counterexample and print the quantities")
    p.add_argument("counterexample", metavar="COUNTEREXAMPLE")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("data", help="load and describe a dataset (svmlight/LIBSVM, CSV, .npz)")
    p.add_argument("file", metavar="FILE")
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
    return parser


# --------------------------------------------------------------------------------------------- output


def _console():
    import shutil

    from rich.console import Console

    width = shutil.get_terminal_size((160, 24)).columns if sys.stdout.isatty() else 160
    return Console(highlight=False, soft_wrap=False, width=width)


def _print_cells(console, cells):
    from rich.table import Table

    colors = {"HOLDS": "green", "VIOLATED": "red", "INCONCLUSIVE": "yellow", "VACUOUS": "bright_black"}
    for (tid, variant), g in cells.groupby(["theorem", "variant"], sort=False):
        pcols = [c for c in g.columns if c.startswith("p_") and g[c].notna().any()]
        t = Table(title=f"{tid} · {variant} ({g['mode'].iloc[0]})", title_justify="left", show_lines=False)
        for c in pcols:
            t.add_column(c[2:])
        for c in ("fail/eval", "CI", "promised", "verdict", "expected"):
            t.add_column(c)
        for _, row in g.iterrows():
            ci = "" if row.get("ci_low") != row.get("ci_low") else f"[{row['ci_low']:.3g}, {row['ci_high']:.3g}]"
            prom = row.get("promised")
            prom = "" if prom is None or prom != prom else f"{prom:.3g}"
            v = str(row["verdict"])
            exp = row.get("expected")
            exp = "" if exp is None or exp != exp else str(exp)
            mark = "" if row.get("as_expected", True) else " ✗"
            t.add_row(
                *[str(row[c]) for c in pcols],
                f"{row['failures']}/{row['evaluated']}",
                ci,
                prom,
                f"[{colors.get(v, 'white')}]{v}[/]{mark}",
                exp,
            )
        console.print(t)


def _summary(console, cells):
    counts = cells["verdict"].astype(str).value_counts().to_dict()
    unexpected = int((~cells["as_expected"].astype(bool)).sum())
    line = "  ".join(f"{k}: {counts.get(k, 0)}" for k in ("HOLDS", "VIOLATED", "INCONCLUSIVE", "VACUOUS"))
    console.print(f"cells by verdict — {line}; unexpected: {unexpected}")
    return unexpected


def _progress_runner(quiet):
    """Return (context manager, callback) for a live progress bar, or a no-op pair when quiet."""
    import contextlib

    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext(), None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        transient=True,
    )
    task = progress.add_task("trials", total=None, rate="")

    def callback(done, total, info=None):
        elapsed = progress.tasks[0].elapsed or 0.0
        rate = f"{done / elapsed:.1f} trials/s" if elapsed > 0 else ""
        desc = str(info.get("theorem", "trials")) if isinstance(info, dict) else "trials"
        progress.update(task, completed=done, total=total, rate=rate, description=desc)

    return progress, callback


# --------------------------------------------------------------------------------------------- commands


def _cmd_list(args):
    from .engine import all_theorems

    rows = [t for t in all_theorems() if args.paper in (None, t.paper)]
    if args.json:
        print(json.dumps([{"id": t.id, "paper": t.paper, "kind": t.kind, "title": t.title} for t in rows], indent=1))
        return EXIT_OK
    from rich.table import Table

    table = Table(show_lines=False)
    for c in ("id", "paper", "kind", "statement"):
        table.add_column(c)
    for t in rows:
        table.add_row(t.id, t.paper, t.kind, t.title)
    _console().print(table)
    return EXIT_OK


def _cmd_show(args):
    from .engine import get

    t = get(args.id)
    info = {
        "id": t.id,
        "paper": t.paper,
        "title": t.title,
        "kind": t.kind,
        "citation": t.citation.__dict__,
        "statement": t.statement,
        "variants": [
            {
                "name": v.name,
                "mode": v.mode,
                "statement": v.statement,
                "assumed": list(v.assumed),
                "note": v.note,
            }
            for v in t.variants
        ],
        "profiles": {name: {"trials": p.trials, "cells": list(p.cells)} for name, p in t.profiles.items()},
        "tolerance": t.tolerance,
        "tolerance_note": t.tolerance_note,
        "findings": [f.__dict__ for f in t.findings],
    }
    if args.json:
        print(json.dumps(info, indent=1, default=str))
        return EXIT_OK
    c = t.citation
    out = [
        f"{t.id} — {t.title}",
        f"{c.authors} ({c.year}), {c.title}. {c.venue}.",
        f"Location: {c.location}"
        + (f" (other numbering: {c.alt_location})" if c.alt_location else "")
        + (f"; {c.equations}" if c.equations else ""),
        f"Kind: {t.kind}",
        "",
        "Statement as printed:",
        textwrap.indent(t.statement, "  "),
        "",
        "Variants:",
    ]
    for v in t.variants:
        out.append(f"  - {v.name} [{v.mode}]: {v.statement}")
        if v.assumed:
            out.append(f"      assumed: {'; '.join(v.assumed)}")
    out.append("")
    out.append("Profiles:")
    for name, p in t.profiles.items():
        keys = sorted({k for cell in p.cells for k in cell})
        out.append(f"  {name}: {len(p.cells)} cells x {p.trials} trials; parameters: {', '.join(keys)}")
    if t.findings:
        out.append("")
        out.append("Findings tested:")
        for f in t.findings:
            out.append(f"  - {f.key}: {f.summary}")
    print("\n".join(out))
    return EXIT_OK


def _run(args, theorems):
    from . import engine

    out = args.out
    if out is None and args.command == "verify":
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        out = str(Path("reports") / stamp)
    if args.resume and out is None:
        raise RpcheckError("`--resume` needs `--out DIR` (the directory of the interrupted run).")
    ctx, callback = _progress_runner(args.quiet or args.json)
    with ctx:
        result = engine.run(
            theorems,
            profile=args.profile,
            overrides=dict(args.overrides) or None,
            trials=args.trials,
            seed=args.seed,
            backend=args.backend,
            jobs=args.jobs,
            scheduler=args.scheduler,
            out=out,
            resume=args.resume,
            alpha=args.alpha,
            progress=callback,
        )
    return result, out


def _finish(args, result, out):
    console = _console()
    cells = result.cells
    if args.json:
        print(cells.to_json(orient="records", default_handler=str))
    elif not args.quiet:
        _print_cells(console, cells)
    report_path = None
    if args.command == "verify" and not getattr(args, "no_report", False) and out is not None:
        from .report import write_report

        report_path = write_report(result, Path(out) / "report.html")
    if not args.json:
        unexpected = _summary(console, cells)
        if out is not None:
            console.print(f"results: {out}")
        if report_path is not None:
            console.print(f"report: {report_path}")
    else:
        unexpected = int((~cells["as_expected"].astype(bool)).sum())
    return EXIT_UNEXPECTED if unexpected else EXIT_OK


def _cmd_check(args):
    from .engine import get

    theorem = get(args.id)  # unknown id -> RpcheckError with the closest ids
    result, out = _run(args, [theorem.id])
    return _finish(args, result, out)


def _cmd_verify(args):
    result, out = _run(args, None)
    return _finish(args, result, out)


def _cmd_constant(args):
    import pandas as pd

    from .engine import get
    from .engine.search import find_constant
    from .engine.store import read_csv_exact

    theorem = get(args.id)
    if not theorem.constant_search:
        raise RpcheckError(
            f"theorem {theorem.id!r} declares no O(.) target dimension (constant_search); "
            "`rpcheck list` shows the probabilistic lemmas that do."
        )
    cells = theorem.profiles[args.profile].cells
    indices = args.cell if args.cell is not None else range(len(cells))
    rows = []
    for k in indices:
        if not 0 <= k < len(cells):
            raise RpcheckError(
                f"`--cell` ({k}) must be in the range [0, {len(cells) - 1}] for profile {args.profile!r}."
            )
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
            old = read_csv_exact(out)
            keep = ~(old["theorem"].eq(theorem.id) & old["cell"].isin(table["cell"]))
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


def _cmd_report(args):
    from .engine import load_results
    from .engine.store import read_csv_exact
    from .report import write_report

    result = load_results(args.results)
    constants_csv = Path(args.results) / "constants.csv"
    constants = read_csv_exact(constants_csv) if constants_csv.exists() else None
    path = write_report(result, args.output or Path(args.results) / "report.html", constants=constants)
    print(f"report: {path}")
    return EXIT_OK


def _cmd_replay(args):
    from .engine import replay

    rep = replay(args.counterexample).to_dict()
    if args.json:
        print(json.dumps(rep, indent=1, default=str))
    else:
        for key in ("path", "theorem", "variant", "params", "trial", "seed"):
            print(f"{key}: {rep[key]}")
        for which in ("saved", "recomputed"):
            print(f"{which}:")
            for group, values in rep[which].items():
                print(f"  {group}: {json.dumps(values, default=str)}")
        print(
            f"bit-identical: {rep['matches']}; within 1e-9 relative: {rep['matches_close']}; "
            f"claim still violated: {rep['still_violated']}"
        )
    return EXIT_OK if rep["matches_close"] and rep["still_violated"] else EXIT_UNEXPECTED


def _cmd_data(args):
    from .datasets import describe, load_file

    ds = load_file(args.file, fmt=args.fmt, task=args.task, positive=args.positive)
    info = describe(ds)
    if args.json:
        print(json.dumps(info, indent=1, default=str))
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
    return EXIT_OK


_COMMANDS = {
    "list": _cmd_list,
    "show": _cmd_show,
    "check": _cmd_check,
    "verify": _cmd_verify,
    "constant": _cmd_constant,
    "report": _cmd_report,
    "replay": _cmd_replay,
    "data": _cmd_data,
}


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return _COMMANDS[args.command](args)
    except RpcheckError as exc:
        print(f"rpcheck: error: {exc}", file=sys.stderr)
        if args.debug:
            raise
        return EXIT_USAGE
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"rpcheck: error: {exc}", file=sys.stderr)
        if args.debug:
            raise
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rpcheck: interrupted (rerun with --resume and the same --out to continue)", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: one line, traceback only with --debug
        if args.debug:
            raise
        print(f"rpcheck: internal error: {type(exc).__name__}: {exc} (rerun with --debug)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
