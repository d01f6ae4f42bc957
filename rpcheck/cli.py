"""The ``rpcheck`` command line: a thin presentation layer over ``rpcheck.engine``.

Exit codes: 0 every verdict is as expected; 1 some verdict is unexpected (or a replayed counterexample does
not reproduce); 2 usage, input or environment error (bad option, unknown theorem id, unreadable or corrupted
file, unwritable output, full disk, unreachable scheduler, dead worker process, a trial out of memory): one line
on stderr naming the argument, and whatever was completed stays checkpointed for ``--resume``; 3 internal error
(a bug: rerun with ``--debug`` for the traceback); 130 interrupted (SIGINT), 143 terminated (SIGTERM: the same
clean stop and ``--resume`` hint); 141 the reader closed stdout (``| head``).

Import cost: this module imports only the standard library, ``rpcheck.errors``, ``rpcheck.options``, the
theorem dataclasses and the catalog (:mod:`rpcheck.engine.catalog`, which caches the theorems' metadata that
``rpcheck list`` and ``rpcheck show`` print); numpy, pandas, scipy, cvxpy, numba, scikit-learn and rich are
imported by the commands that need them.

``--json`` output of ``check``/``verify`` follows ``docs/json-schema.md`` (field ``schema_version``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path

from . import __version__
from .engine.catalog import (
    builtin_index,
    builtin_info,
    jsonable,
    plugin_infos,
    resolve_theorem,
    theorem_info,
    unknown_id,
)
from .engine.theorem import ALL_PROFILES, PROFILES
from .errors import RpcheckError
from .options import (
    MAX_SEED,
    add_run_options,
    jobs_int,
    parse_assignment,
    parse_label,
    probability,
    seed_int,
    trials_int,
)

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 3, 130, 141
#: Version of the ``--json`` document of ``check``/``verify`` (docs/json-schema.md).
JSON_SCHEMA_VERSION = 1
_VERDICTS = ("HOLDS", "VIOLATED", "INCONCLUSIVE", "VACUOUS")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse's own convention)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser():
    parser = _Parser(prog="rpcheck", description="Verify theorems about random projections for linear SVMs.")
    parser.add_argument("--version", action="version", version=f"rpcheck {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="list the registered theorems (built-in and from installed plugins)")
    p.add_argument("--paper", default=None, help="only this paper (e.g. paul2014)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("show", help="statement, citation, variants, parameters, profiles and command lines")
    p.add_argument(
        "id",
        nargs="?",
        default=None,
        help="theorem id, or module:ATTRIBUTE of your own Theorem; with --markdown also a paper key "
        "(e.g. paul2014) or nothing (every paper)",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument(
        "--markdown",
        action="store_true",
        help="print the Markdown page (the text of docs/papers/, generated from the registry)",
    )

    p = sub.add_parser(
        "docs",
        help="write the Markdown pages of the registry: DIR/<paper>.md per paper and DIR/index.md",
    )
    p.add_argument("--out", default="docs/papers", metavar="DIR", help="output directory. Default: %(default)r")
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and name the pages that differ from a fresh rendering",
    )

    for name, helptext, profile in (
        ("check", "run one theorem and print one line per theorem (--details: a table per cell)", "ci"),
        ("verify", "run every registered theorem and write the HTML report (the main job)", "quick"),
    ):
        p = sub.add_parser(name, help=helptext)
        if name == "check":
            p.add_argument("id", help="theorem id, or module:ATTRIBUTE of your own Theorem (docs/tutorial.md)")
        add_run_options(p.add_argument, profile_default=profile, profiles=ALL_PROFILES)
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
        if name == "verify":
            p.add_argument("--no-report", action="store_true", help="do not write report.html")
        else:
            p.add_argument(
                "--until-decided",
                action="store_true",
                help="same as --stop until-decided: a cell whose rows are not all decided at its planned trials "
                "doubles them (up to 64 times; anytime-valid e-values at the whole --alpha; --budget ends it sooner)",
            )

    p = sub.add_parser(
        "constant",
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

    p = sub.add_parser("report", help="re-render the HTML report from saved results")
    p.add_argument("results", metavar="RESULTS", help="a results directory written by check/verify")
    p.add_argument("-o", "--output", default=None, help="output file (default: RESULTS/report.html)")

    p = sub.add_parser("replay", help="recompute a saved counterexample and print the quantities")
    p.add_argument("counterexample", metavar="COUNTEREXAMPLE")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser(
        "data",
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
    _add_calibrate_parser(sub)
    _add_bench_parser(sub)
    _add_advise_parser(sub)
    return parser


# --------------------------------------------------------------------------------------------- output


def _console():
    import shutil

    from rich.console import Console

    width = shutil.get_terminal_size((160, 24)).columns if sys.stdout.isatty() else 160
    return Console(highlight=False, soft_wrap=False, width=width)


def _fmt_value(v):
    """A parameter value as the user wrote it: ints as ints, floats compactly, lists as JSON."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return json.dumps(v)


def _row_params(row):
    """The row's parameters with their own types, decoded from the canonical ``params`` JSON."""
    p = row.get("params")
    if isinstance(p, dict):
        return p
    try:
        return json.loads(p)
    except (TypeError, ValueError):
        return {c[2:]: row[c] for c in row.index if str(c).startswith("p_")}


def _num(v):
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return None if v != v else v


def _text(v):
    return "" if v is None or (isinstance(v, float) and v != v) else str(v)


def _role(row):
    r = _text(row.get("role")) or "claim"
    return r


def _label(row):
    """What a row shows: ``measured`` for role "measurement", else its verdict."""
    return "measured" if _role(row) == "measurement" else str(row["verdict"])


def _bucket(row):
    role = _role(row)
    if role == "self-check":
        return "self-checks"
    if role == "control":
        return "controls"
    if role == "measurement":
        return "measured"
    return str(row["mode"])


def _count_text(counts):
    from .engine.loading import count_text

    return count_text(counts)


def _theorem_summaries(cells):
    """Per theorem: counts by mode (claims) and by role (self-checks, controls, measured), unexpected, time."""
    out = {}
    for _, row in cells.iterrows():
        s = out.setdefault(
            row["theorem"], {"id": row["theorem"], "counts": {}, "unexpected": 0, "seconds": 0.0, "_cells": set()}
        )
        b = _bucket(row)
        lab = _label(row)
        if b == "measured":
            s["counts"].setdefault("measured", 0)
            s["counts"]["measured"] += 1
        else:
            d = s["counts"].setdefault(b, {})
            d[lab] = d.get(lab, 0) + 1
        s["unexpected"] += not bool(row["as_expected"])
        if row["cell"] not in s["_cells"]:  # `seconds` is the cell's total trial time, repeated per variant
            s["_cells"].add(row["cell"])
            s["seconds"] += _num(row.get("seconds")) or 0.0
    for s in out.values():
        del s["_cells"]
    return list(out.values())


def _theorem_line(s, width):
    parts = []
    for b, c in s["counts"].items():
        parts.append(f"measured {c}" if b == "measured" else f"{b}: {_count_text(c)}")
    return f"{s['id']:<{width}}  " + " · ".join(parts) + f" · unexpected {s['unexpected']} · {s['seconds']:.1f} s"


def _error_rate_statement(prov):
    """The run's family-wise error-rate statement, from its provenance (alpha and the family's size)."""
    alpha = prov.get("alpha")
    fam = prov.get("family_size")
    if alpha is None:
        return "error rate: alpha not recorded in the provenance"
    if isinstance(fam, dict) and set(fam) >= {"violated", "holds"}:
        fam_txt = f"{fam['violated']} statistical rows tested for VIOLATED, {fam['holds']} for HOLDS"
    elif isinstance(fam, dict):
        fam_txt = ", ".join(f"{k} {v}" for k, v in fam.items())
    else:
        fam_txt = "size not recorded" if fam is None else f"{fam} rows"
    if prov.get("stopping") == "anytime":
        from .engine.plan import ANYTIME_SHARE

        rule = (
            f"anytime-valid: a cell stops once its rows are decided; e-values at {ANYTIME_SHARE * alpha:g} "
            f"(e-Bonferroni) plus Holm at {(1 - ANYTIME_SHARE) * alpha:g} over the rows of cells that ran every "
            f"planned trial; {fam_txt}"
        )
    elif prov.get("stopping") == "looks":
        rule = f"group-sequential: Bonferroni over the rows and looks; {fam_txt}"
    else:
        rule = f"Holm: {fam_txt}"
    return (
        f"error rate: P(any false VIOLATED) <= {alpha} and P(any false HOLDS) <= {alpha} in this run (one family, "
        f"{rule}); a deterministic VIOLATED is a concrete, replayable counterexample"
    )


def _unexpected_block(row):
    """Every informative column of an unexpected row, as a few lines."""
    params = " ".join(f"{k}={_fmt_value(v)}" for k, v in _row_params(row).items())
    head = f"UNEXPECTED {row['theorem']} · {row['variant']} ({row['mode']}, {_role(row)}) cell {row['cell']}: {params}"
    lines = [head]
    ci = ""
    if _num(row.get("ci_low")) is not None:
        ci = (
            f"CI [{row['ci_low']:.4g}, {row['ci_high']:.4g}] at {_num(row.get('confidence_level')) or float('nan'):.4g}"
        )
    prom = _num(row.get("promised"))
    lines.append(
        f"  failures {row['failures']}/{row['evaluated']} evaluated of {row['trials']} trials"
        + (f", {int(row['solver_errors'])} solver errors" if int(row.get("solver_errors", 0) or 0) else "")
        + (f", {int(row['undetermined'])} undetermined" if int(_num(row.get("undetermined")) or 0) else "")
        + (f", {int(row['vacuous_trials'])} vacuous" if int(row.get("vacuous_trials", 0) or 0) else "")
        + (f"; {ci}" if ci else "")
        + (f"; promised {prom:.4g}" if prom is not None else "")
    )
    lines.append(f"  verdict {_label(row)}, expected {_text(row.get('expected')) or '(none)'}")
    for col in ("claim", "vacuous_reason", "counterexample", "assumed", "decide_info"):
        t = _text(row.get(col))
        if t:
            lines.append(f"  {col}: {t}")
    return lines


def _print_cells(console, cells):
    from rich.table import Table

    colors = {"HOLDS": "green", "VIOLATED": "red", "INCONCLUSIVE": "yellow", "VACUOUS": "bright_black"}
    has_role = "role" in cells.columns
    has_claim = "claim" in cells.columns
    for (tid, variant), g in cells.groupby(["theorem", "variant"], sort=False):
        first = g.iloc[0]
        role = f", {_role(first)}" if has_role else ""
        t = Table(title=f"{tid} · {variant} ({first['mode']}{role})", title_justify="left", show_lines=False)
        rows_params = [_row_params(row) for _, row in g.iterrows()]
        pnames = list(dict.fromkeys(k for p in rows_params for k in p))
        for c in pnames:
            t.add_column(c)
        cols = ["fail/eval", "CI", "promised", "verdict", "expected"] + (["claim"] if has_claim else [])
        for c in cols:
            t.add_column(c)
        for (_, row), params in zip(g.iterrows(), rows_params):
            ci = "" if _num(row.get("ci_low")) is None else f"[{row['ci_low']:.3g}, {row['ci_high']:.3g}]"
            prom = _num(row.get("promised"))
            v = _label(row)
            mark = "" if row.get("as_expected", True) else " ✗"
            cells_txt = [
                f"{row['failures']}/{row['evaluated']}",
                ci,
                "" if prom is None else f"{prom:.3g}",
                f"[{colors.get(v, 'white')}]{v}[/]{mark}",
                _text(row.get("expected")),
            ] + ([_text(row.get("claim"))] if has_claim else [])
            t.add_row(*[_fmt_value(params.get(c, "")) for c in pnames], *cells_txt)
        console.print(t)


def _cell_records(cells):
    """JSON records of the cells table with every parameter in its own type (from ``params``)."""
    import math

    out = []
    for _, row in cells.iterrows():
        rec = {}
        for col, v in row.items():
            col = str(col)
            if col.startswith("p_"):
                continue
            if hasattr(v, "item"):  # numpy scalar -> Python
                v = v.item()
            if isinstance(v, float) and not math.isfinite(v):
                v = None if v != v else ("inf" if v > 0 else "-inf")
            rec[col] = v
        params = _row_params(row)
        rec["params"] = params
        for k, v in params.items():
            rec[f"p_{k}"] = v
        out.append(rec)
    return out


def _decision_json(result):
    """The run's decision rate (rpcheck.report.decision), with non-finite numbers made JSON-safe."""
    from .report.decision import decision_rate

    return jsonable(decision_rate(result.cells, result.provenance))


def _json_document(args, result, out, report_path, summaries, counts):
    return {
        "schema_version": JSON_SCHEMA_VERSION,
        "command": args.command,
        "results": None if out is None else str(out),
        "report": None if report_path is None else str(report_path),
        "summary": {**counts, "error_rate": _error_rate_statement(dict(result.provenance or {}))},
        "decision": _decision_json(result),
        "theorems": summaries,
        "cells": _cell_records(result.cells),
        "provenance": jsonable(dict(result.provenance or {})),
    }


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


# --------------------------------------------------------------------------------------------- validation


def _check_out_dir(path, flag="--out"):
    """``path`` is (or is created as) a writable directory; RpcheckError naming ``flag`` otherwise."""
    if not str(path).strip():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) must be a directory path.")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) exists and is not a directory.")
    import tempfile

    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=p, prefix=".rpcheck-write-test.")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise RpcheckError(f"`{flag}` ({str(path)!r}) is not a writable directory: {exc.strerror or exc}.") from None
    return p


def _check_out_file(path, flag):
    if not str(path).strip():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) must be a file path.")
    p = Path(path)
    if p.is_dir():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) is a directory; give a file path.")
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise RpcheckError(f"`{flag}` ({str(path)!r}): {str(parent)!r} is not a directory.")
            if p.parent == parent:  # the file is written there (through a temporary file): probe it
                import tempfile

                try:
                    fd, probe = tempfile.mkstemp(dir=parent, prefix=".rpcheck-write-test.")
                    os.close(fd)
                    os.unlink(probe)
                except OSError as exc:
                    raise RpcheckError(
                        f"`{flag}` ({str(path)!r}) cannot be written: its directory {str(parent)!r} is not "
                        f"writable ({exc.strerror or type(exc).__name__})."
                    ) from None
            break
    return p


def _check_scheduler(args):
    if args.scheduler is None:
        return
    if args.backend != "dask":
        raise RpcheckError(f"`--scheduler` ({args.scheduler!r}) is only used with `--backend dask`.")
    import re
    import socket

    m = re.fullmatch(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+):(\d{1,5})", args.scheduler.strip())
    if not m or not 0 < int(m.group(3)) < 65536:
        raise RpcheckError(
            f"`--scheduler` ({args.scheduler!r}) must be a Dask scheduler address like 'tcp://HOST:8786'."
        )
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RpcheckError("`--backend dask` needs dask.distributed: pip install 'rpcheck[dask]'.") from None
    host, port = m.group(2).strip("[]"), int(m.group(3))
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as exc:
        raise RpcheckError(
            f"`--scheduler` ({args.scheduler!r}): cannot connect ({exc.strerror or type(exc).__name__}); "
            "is the scheduler running at that address?"
        ) from None


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


def _check_override_types(theorems, overrides, profile):
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
                    f"(e.g. {name}={_fmt_value(seen[0])})."
                )


def _check_run_args(args, theorems):
    if args.resume and args.out is None:
        raise RpcheckError("`--resume` needs `--out DIR` (the directory of the interrupted run).")
    _check_scheduler(args)
    if args.out is not None:
        _check_out_dir(args.out)
        # a corrupted checkpoint on --resume is named by the engine (rpcheck.engine.store) before any trial
    if args.overrides and theorems is not None:
        _check_override_types(theorems, args.overrides, args.profile)


# --------------------------------------------------------------------------------------------- commands


def _cmd_list(args):
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
    _console().print(table)
    return EXIT_OK


def _show_info(ref):
    if ":" in ref or not ref:
        return theorem_info(resolve_theorem(ref), source="module")
    info = builtin_info(ref)
    if info is not None:
        return info
    from .engine import plugins

    try:
        return theorem_info(plugins.resolve(ref, builtins=False), source="plugin")
    except RpcheckError:
        from .engine import registry

        raise unknown_id(ref, set(builtin_index()) | set(registry.registered_ids())) from None


def _show_markdown(ref):
    """``show --markdown``: every paper (no id), one paper's page (a paper key) or one theorem's section."""
    from .engine import registry
    from .report import markdown

    if ref is None:
        pages = markdown.render_pages()
        return "\n".join(pages[name] for name in ["index.md", *(f"{p}.md" for p in registry.builtin_papers())])
    if ref in registry.builtin_papers():
        return markdown.paper_markdown(ref, markdown.builtin_theorems())
    t = resolve_theorem(ref)
    return markdown.theorem_markdown(t, level=1, ref=ref if ":" in ref else t.id)


def _cmd_show(args):
    if args.markdown:
        sys.stdout.write(_show_markdown(args.id))
        return EXIT_OK
    if args.id is None:
        raise RpcheckError("`show` needs a theorem id (`rpcheck list` shows them), or --markdown for every paper.")
    info = _show_info(args.id)
    if args.json:
        print(json.dumps(info, indent=1))
        return EXIT_OK
    c = info["citation"]
    out = [
        f"{info['id']} — {info['title']}",
        f"Cite: {c['authors']} ({c['year']}), {c['title']}. {c['venue']}.",
        f"Location: {c['location']}"
        + (f" (other numbering: {c['alt_location']})" if c.get("alt_location") else "")
        + (f"; {c['equations']}" if c.get("equations") else ""),
        f"Kind: {info['kind']}" + ("" if info["source"] == "built-in" else f" (from {info['source']})"),
        "",
        "Statement as printed:",
        textwrap.indent(info["statement"] or "(none)", "  "),
        "",
        "Variants (mode, role, expected verdict):",
    ]
    for v in info["variants"]:
        exp = v["expected"] or "none (open question: only reported)"
        out.append(f"  - {v['name']} [{v['mode']}, {v['role']}; expected {exp}]: {v['statement']}")
        if v["assumed"]:
            out.append(f"      assumed: {'; '.join(v['assumed'])}")
        if v["note"]:
            out.append(f"      note: {v['note']}")
    if info["parameters"]:
        out += ["", "Parameters (declared domains):"]
        for name, p in info["parameters"].items():
            out.append(f"  {name}: " + ", ".join(f"{k}={_fmt_value(v)}" for k, v in p.items()))
    if info["constraints"]:
        out += ["", "Constraints:"] + [f"  - {d}" for d in info["constraints"]]
    out += ["", "Profiles:"]
    for name, p in info["profiles"].items():
        out.append(
            f"  {name}: {len(p['cells'])} cells x {p.get('trials_text', str(p['trials']) + ' trials')}; "
            f"parameters: {', '.join(p['parameters'])}"
        )
    if info["tolerance"]:
        out += ["", f"Numerical tolerance: {info['tolerance']:g} ({info['tolerance_note'] or 'no note'})"]
    if info["findings"]:
        out += ["", "Findings tested:"] + [
            f"  - {f['key']} ({f['kind']}; {f['location']}; printed: \"{f['quote']}\"): {f['summary']}"
            for f in info["findings"]
        ]
    out += ["", "Run it:"] + [f"  {cmd}" for cmd in info["commands"]]
    print("\n".join(out))
    return EXIT_OK


def _cmd_docs(args):
    """Write (or with --check compare) docs/papers: exit 1 when --check finds stale pages."""
    from .report import markdown

    pages = markdown.render_pages()
    if args.check:
        stale = markdown.stale_pages(args.out, pages)
        if stale:
            print(
                f"{len(stale)} page(s) in {args.out} differ from the registry: {', '.join(stale)}; "
                f"regenerate with `rpcheck docs --out {args.out}`"
            )
            return EXIT_UNEXPECTED
        print(f"{len(pages)} pages in {args.out} are up to date")
        return EXIT_OK
    _check_out_dir(args.out, "--out")
    written = markdown.write_pages(args.out, pages)
    print(f"wrote {len(written)} pages to {args.out}: {', '.join(p.name for p in written)}")
    return EXIT_OK


def _run(args, theorems):
    from . import engine

    out = args.out
    if out is None and args.command == "verify":
        import datetime as _dt

        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        out = str(Path("reports") / stamp)
        _check_out_dir(out, "--out (default reports/<timestamp>)")
    args._out = out
    ctx, callback = _progress_runner(args.quiet or args.json)
    with _worker_policy(), ctx:
        result = engine.run(
            theorems,
            profile=args.profile,
            overrides=_run_overrides(args),
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
    return result, out


def parse_data_assignment(text):
    """``--data NAME=PATH`` -> ``(NAME, PATH)`` (checked by rpcheck.data_registry.data_setting, which names an
    unknown set); ``--data FILE`` (no ``=``, an existing path, or a left side that is no name) -> ``("", FILE)``,
    the user's own data."""
    import re

    from .data_registry import REGISTRY

    name, eq, path = text.partition("=")
    looks_named = bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name.strip())) and not Path(text).exists()
    if eq and (name.strip() in {d.name for d in REGISTRY} or looks_named):
        if not path.strip():
            raise argparse.ArgumentTypeError(f"expected NAME=PATH (NAME a registered data set), got {text!r}")
        return name.strip(), path.strip()
    if not text.strip():
        raise argparse.ArgumentTypeError("expected NAME=PATH (NAME a registered data set) or a data FILE, got ''")
    return "", text


def _user_data_file(args):
    """The one ``--data FILE`` of ``rpcheck check`` (None without one); refused beside NAME=PATH entries and
    in ``verify``."""
    files = [p for n, p in getattr(args, "data", None) or () if not n]
    if not files:
        return None
    if args.command != "check":
        raise RpcheckError(f"`--data` ({files[0]!r}): a data FILE is for `rpcheck check ID --data FILE`; "
                           "`verify` takes NAME=PATH with NAME a registered data set (`rpcheck data list`).")
    if len(files) > 1 or len(files) != len(args.data):
        raise RpcheckError(f"`--data` ({', '.join(map(repr, (p for _, p in args.data)))}): give one data FILE, "
                           "or NAME=PATH entries of registered data sets, not both.")
    return files[0]


def _run_overrides(args):
    """``--set`` values plus ``--data``'s mapping as the override ``data_source`` (rpcheck.engine.data)."""
    overrides = dict(args.overrides)
    named = [(n, p) for n, p in getattr(args, "data", None) or () if n]
    if named:
        from .data_registry import data_setting

        overrides["data_source"] = data_setting(dict(named))
    return overrides or None


@contextmanager
def _worker_policy():
    """The engine's worker-pool policy seen from the command line (rpcheck.engine.backends): SIGTERM stops
    a run exactly like SIGINT (exit 143 instead of 130), and a capped ``--jobs`` is said in one line."""
    import logging

    from .engine.backends import stop_on_signals

    log = logging.getLogger("rpcheck.workers")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("rpcheck: note: %(message)s"))
    log.addHandler(handler)
    try:
        with stop_on_signals():
            yield
    finally:
        log.removeHandler(handler)


def render_summary(result, *, details=False, quiet=False, out=None, report_path=None, console=None):
    """Lines of the terminal summary of a run (one per theorem, the unexpected rows in full, the summary).

    With ``details`` the per-(theorem, variant) tables are printed first (through ``console``)."""
    cells = result.cells
    lines = []
    if details and console is not None:
        _print_cells(console, cells)
    summaries = _theorem_summaries(cells)
    if not quiet and summaries:
        width = max(len(s["id"]) for s in summaries)
        lines += [_theorem_line(s, width) for s in summaries]
    if len(cells):
        for _, row in cells[~cells["as_expected"].astype(bool)].iterrows():
            lines += _unexpected_block(row)
    from .engine.loading import summary_counts, summary_line
    from .report.decision import decision_lines, decision_rate

    counts = summary_counts(cells)
    lines += decision_lines(decision_rate(cells, result.provenance))
    lines.append(summary_line(counts))
    lines.append(_error_rate_statement(dict(result.provenance or {})))
    if out is not None:
        lines.append(f"results: {out}")
    if report_path is not None:
        lines.append(f"report: {report_path}")
    return lines, summaries, counts


def _finish(args, result, out):
    report_path = None
    if args.command == "verify" and not getattr(args, "no_report", False) and out is not None:
        from .report import write_report

        report_path = write_report(result, Path(out) / "report.html")
    console = None if args.json else _console()
    lines, summaries, counts = render_summary(
        result, details=args.details and not args.json, quiet=args.quiet, out=out, report_path=report_path,
        console=console,
    )  # fmt: skip
    if args.json:
        print(json.dumps(_json_document(args, result, out, report_path, summaries, counts), indent=1))
    else:
        for line in lines:
            print(line)
    return EXIT_UNEXPECTED if counts["unexpected"] else EXIT_OK


def _cmd_check(args):
    theorem = resolve_theorem(args.id)  # unknown id -> RpcheckError with the closest ids
    _check_run_args(args, [theorem])
    data_file = _user_data_file(args)
    if data_file is not None:
        return _check_on_data(args, theorem, data_file)
    result, out = _run(args, [theorem])
    return _finish(args, result, out)


def _check_on_data(args, theorem, data_file):
    """``rpcheck check ID --data FILE``: the engine builds the theorem's cells for the file
    (:func:`rpcheck.engine.userdata.run_on_data`); the summary's first line names the file."""
    from .engine import userdata

    if theorem.data_cells is None:  # before loading anything: one line naming the theorems that accept data
        userdata.data_theorem(theorem, {}, args.profile)
    args._out = args.out
    ctx, callback = _progress_runner(args.quiet or args.json)
    with _worker_policy(), ctx:
        result, info = userdata.run_on_data(
            theorem, data_file, profile=args.profile, out=args.out, overrides=dict(args.overrides) or None,
            trials=args.trials, seed=args.seed, backend=args.backend, jobs=args.jobs, scheduler=args.scheduler,
            resume=args.resume, alpha=args.alpha, progress=callback, stopping=args.stop, budget=args.budget,
        )  # fmt: skip
    if not args.json:
        print(userdata.data_label(info))
    return _finish(args, result, args.out)


def _cmd_verify(args):
    from .engine import plugins, registry

    plugins.load_entry_points()
    registry.load_builtins()
    _check_run_args(args, registry.all_theorems() if args.overrides else None)
    _user_data_file(args)  # a data FILE is for `check`: one line here
    theorems = None
    if args.profile not in PROFILES:
        from .engine.data import select_for_profile

        selected, skipped = select_for_profile(registry.all_theorems(), args.profile, explicit=False)
        theorems = [th.id for th in selected]
        if skipped and not args.quiet and not args.json:
            print(f"profile {args.profile!r}: running {len(selected)} theorems ({', '.join(theorems)}); skipping "
                  f"{len(skipped)} without a {args.profile!r} profile (PROFILES.md says which data-driven ones and "
                  "why)")
    result, out = _run(args, theorems)
    return _finish(args, result, out)


def _cmd_constant(args):
    import pandas as pd

    from .engine.constant import find_constant
    from .engine.store import read_csv_exact

    theorem = resolve_theorem(args.id)
    if not theorem.constant_search:
        raise RpcheckError(
            f"theorem {theorem.id!r} declares no O(.) target dimension (constant_search); "
            "`rpcheck list` shows the probabilistic lemmas that do."
        )
    if args.out is not None:
        _check_out_file(args.out, "--out")
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


def _load_results_checked(path):
    """``load_results`` with every way a results directory can be unreadable turned into one RpcheckError."""
    from .engine import load_results
    from .results import CELL_COLUMNS, TRIAL_COLUMNS

    p = Path(path)
    if not p.exists():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) does not exist.")
    if not p.is_dir():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) is not a results directory written by check/verify.")
    if not (p / "provenance.json").is_file():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) has no provenance.json: not a complete results directory.")
    from .engine.store import read_table

    def unreadable(exc):
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return RpcheckError(f"`RESULTS` ({str(path)!r}) holds unreadable result files ({msg}).")

    from .engine.loading import trial_table_files

    files = trial_table_files(p)  # one trials table per theorem, or (older results) one for the run
    tables = [(p, "cells", CELL_COLUMNS)] + [(d, stem, TRIAL_COLUMNS) for d, stem in (files or [(p, "trials")])]
    for where, name, cols in tables:
        try:
            table = read_table(where, name)
        except FileNotFoundError:
            raise RpcheckError(
                f"`RESULTS` ({str(path)!r}) has no {name} table: not a complete results directory."
            ) from None
        except PermissionError:
            raise
        except Exception as exc:  # parsing untrusted files: pyarrow, pandas and json raise many types
            raise unreadable(exc) from None
        missing = [c for c in cols if c not in table.columns]
        if missing:
            raise RpcheckError(
                f"`RESULTS` ({str(path)!r}): the {name} table lacks the columns {missing} (corrupted, or written by "
                "an incompatible rpcheck)."
            )
    try:
        result = load_results(p)
    except (RpcheckError, PermissionError):
        raise
    except Exception as exc:  # parsing untrusted files: pyarrow, pandas and json raise many types
        raise unreadable(exc) from None
    if not isinstance(result.provenance, dict):
        raise RpcheckError(f"`RESULTS` ({str(path)!r}): provenance.json is not a JSON object.")
    bad = sorted(set(map(str, result.cells["verdict"])) - set(_VERDICTS))
    if bad:
        raise RpcheckError(f"`RESULTS` ({str(path)!r}): unknown verdicts {bad} in the cells table.")
    return result


def _cmd_report(args):
    from .engine.store import read_csv_exact
    from .report import write_report

    result = _load_results_checked(args.results)
    output = args.output if args.output is not None else str(Path(args.results) / "report.html")
    _check_out_file(output, "-o/--output")
    constants_csv = Path(args.results) / "constants.csv"
    constants = None
    if constants_csv.exists():
        try:
            constants = read_csv_exact(constants_csv)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RpcheckError(f"`RESULTS` ({args.results!r}): constants.csv is unreadable ({exc}).") from None
    try:
        path = write_report(result, output, constants=constants)
    except OSError as exc:  # the atomic write's hidden temporary file is not what the user named
        raise RpcheckError(
            f"`-o/--output` ({str(output)!r}) could not be written: {exc.strerror or type(exc).__name__}."
        ) from None
    print(f"report: {path}")
    return EXIT_OK


def _is_int(v, low=0, high=MAX_SEED):
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _check_counterexample(path):
    """Load a counterexample file and validate its metadata; resolve its theorem through the registry and
    the installed entry points only (the ``module`` field of the file is never imported).

    Returns the Theorem.
    """
    from .engine import load_counterexample, plugins

    p = Path(path)
    if not p.exists():
        raise RpcheckError(f"`COUNTEREXAMPLE` ({str(path)!r}) does not exist.")
    if not p.is_file():
        raise RpcheckError(f"`COUNTEREXAMPLE` ({str(path)!r}) is not a file.")
    what = f"`COUNTEREXAMPLE` ({str(path)!r})"
    try:
        ce = load_counterexample(p)
        meta = ce.meta
    except PermissionError:
        raise
    except Exception as exc:  # parsing an untrusted file: zipfile, numpy and json raise many types
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise RpcheckError(f"{what} is not a counterexample file written by rpcheck ({msg}).") from None
    if not isinstance(meta, dict):
        raise RpcheckError(f"{what}: its metadata is not a JSON object.")
    problems = []
    if not isinstance(meta.get("theorem"), str) or not meta.get("theorem"):
        problems.append("theorem (a theorem id)")
    if not isinstance(meta.get("variant"), str):
        problems.append("variant (a variant name)")
    params = None
    try:
        params = json.loads(meta.get("params"))
    except (TypeError, ValueError):
        pass
    if not isinstance(params, dict):
        problems.append("params (canonical JSON of a dict)")
    if not _is_int(meta.get("trial")):
        problems.append("trial (an integer >= 0)")
    if not _is_int(meta.get("seed")):
        problems.append("seed (an integer in [0, 2**63))")
    outcomes = meta.get("outcomes")
    if not isinstance(outcomes, dict) or not all(
        isinstance(o, dict) and {"holds", "statistic", "bound", "vacuous"} <= set(o) for o in outcomes.values()
    ):
        problems.append("outcomes ({variant: {holds, statistic, bound, vacuous}})")
    diags = meta.get("diagnostics")
    if not isinstance(diags, dict) or not all(isinstance(v, int | float) or v is None for v in diags.values()):
        problems.append("diagnostics ({name: number})")
    if problems:
        raise RpcheckError(f"{what}: invalid or missing metadata fields: {'; '.join(problems)}.")
    try:
        th = plugins.resolve(meta["theorem"])
    except RpcheckError as exc:
        raise RpcheckError(
            f"{what} names theorem {meta['theorem']!r}, which is neither built in nor provided by an installed "
            f"plugin ({exc}); replay never imports modules named in the file."
        ) from None
    names = [v.name for v in th.variants]
    if meta["variant"] not in names:
        raise RpcheckError(f"{what}: variant {meta['variant']!r} is not one of {th.id}'s variants {names}.")
    known = [set(c) for prof in th.profiles.values() for c in prof.cells]
    if known and set(params) not in known:
        raise RpcheckError(f"{what}: params {sorted(params)} are not the parameters of {th.id} ({sorted(known[0])}).")
    return th


def _cmd_replay(args):
    from .engine import replay

    _check_counterexample(args.counterexample)  # registers the theorem: replay() then imports nothing
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
    if args.file in ("fetch", "list"):
        return _cmd_data_registry(args)
    if args.names:
        raise RpcheckError(f"`data FILE` takes one file; got extra arguments {args.names} (the actions are "
                           "`data fetch NAME...` and `data list`; write ./fetch for a file named fetch).")  # fmt: skip
    from .datasets import describe, load_file

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


def _cmd_data_registry(args):
    from . import data_registry as reg

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


_COMMANDS = {
    "list": _cmd_list,
    "show": _cmd_show,
    "docs": _cmd_docs,
    "check": _cmd_check,
    "verify": _cmd_verify,
    "constant": _cmd_constant,
    "report": _cmd_report,
    "replay": _cmd_replay,
    "data": _cmd_data,
}


# --------------------------------------------------------------------------------------------- calibrate


def _add_calibrate_parser(sub):
    """``rpcheck calibrate``: the profile under K fresh root seeds (rpcheck.engine.calibrate)."""
    from .options import BACKENDS

    p = sub.add_parser(
        "calibrate",
        help="run a profile under K fresh root seeds; per row, how often the verdict differed from the expected",
    )
    p.add_argument("--profile", choices=PROFILES, default="quick", help="Run size. Default: %(default)r")
    p.add_argument("--seeds", required=True, metavar="SEEDS", help="root seeds: a range 1-20 or a list 1,5,7")
    p.add_argument(
        "--theorem", dest="theorems", action="append", default=None, metavar="ID",
        help="only this theorem (repeatable; default: every registered theorem)",
    )  # fmt: skip
    p.add_argument(
        "--out", default=None, metavar="DIR", help="calibration directory (default reports/calibrate-<profile>)"
    )
    p.add_argument("--jobs", type=jobs_int, default=None, metavar="N")
    p.add_argument("--backend", choices=BACKENDS, default="processes")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler for --backend dask")
    p.add_argument("--alpha", type=probability, default=0.01, metavar="A", help="family-wise level of each run")
    p.add_argument("--quiet", action="store_true", help="no per-seed lines")


def _cmd_calibrate(args):
    """Exit 1 if any row of any seed is unexpected (like verify), else 0."""
    from .engine import plugins, registry
    from .engine.calibrate import calibrate, parse_seeds

    seeds = parse_seeds(args.seeds)
    _check_scheduler(args)
    if args.theorems:
        theorems = [resolve_theorem(t) for t in args.theorems]
    else:
        plugins.load_entry_points()
        registry.load_builtins()
        theorems = None
    out = args.out if args.out is not None else str(Path("reports") / f"calibrate-{args.profile}")
    _check_out_dir(out, "--out")
    args._out = out

    def on_seed(seed, status, cells):
        if args.quiet:
            return
        u = int((~cells["as_expected"].astype(bool)).sum()) if len(cells) else 0
        what = "complete, read back" if status == "complete" else "ran"
        print(f"seed {seed}: {what} ({Path(out) / f'seed-{seed}'}); {len(cells)} rows, {u} unexpected", flush=True)

    with _worker_policy():
        res = calibrate(
            theorems, profile=args.profile, seeds=seeds, out=out, backend=args.backend, jobs=args.jobs,
            scheduler=args.scheduler, alpha=args.alpha, on_seed=on_seed,
        )  # fmt: skip
    for line in res.unexpected_lines():
        print(line)
    print(res.summary_line())
    print(f"calibration: {Path(out) / 'calibration.csv'}")
    return EXIT_UNEXPECTED if res.unexpected else EXIT_OK


_COMMANDS["calibrate"] = _cmd_calibrate


# --------------------------------------------------------------------------------------------- advise


def _add_advise_parser(sub):
    """``rpcheck advise FILE``: the smallest r per sketch kind (rpcheck.advise)."""
    p = sub.add_parser(
        "advise",
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


def _cmd_advise(args):
    from . import advise as adv

    if args.out is not None:
        _check_out_dir(args.out)
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


_COMMANDS["advise"] = _cmd_advise


def _add_bench_parser(sub):
    """``rpcheck bench``: per-theorem trial rate and time shares (rpcheck.engine.bench)."""
    p = sub.add_parser(
        "bench",
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


def _cmd_bench(args):
    """Exit 0; the table flags theorems whose fixed overhead exceeds 20% (rpcheck.engine.bench)."""
    from .engine import plugins, registry
    from .engine.bench import CATEGORIES, FIXED_LIMIT, bench

    if args.out is not None:
        _check_out_file(args.out, "--out")
        if Path(args.out).exists():
            raise RpcheckError(
                f"`--out` ({args.out!r}) exists; rpcheck bench does not overwrite files. Give a new path."
            )
    if args.ids:
        theorems = [resolve_theorem(t) for t in args.ids]
    else:
        plugins.load_entry_points()
        theorems = registry.all_theorems()
    short = {"sketch": "sketch", "solve": "solve", "certificate": "cert", "canonicalisation": "canon",
             "trial": "trial", "engine": "engine", "other": "other"}  # fmt: skip
    if not args.json:
        head = f"{'theorem':34} {'cells':>5} {'trials':>7} {'wall s':>8} {'trials/s':>9} " + " ".join(
            f"{short[c]:>6}" for c in CATEGORIES) + "  fixed outside fixed* per-trial per-run s"
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

        from .engine.store import atomic_write_text

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


_COMMANDS["bench"] = _cmd_bench


def _one_line(text):
    return " ".join(str(text).split())


def _resume_hint(args):
    out = getattr(args, "_out", None) or getattr(args, "out", None)
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
        return _COMMANDS[args.command](args)
    except BrokenPipeError:  # stdout closed by the reader (`rpcheck list | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as exc:  # SIGINT, or SIGTERM through rpcheck.engine.backends.stop_on_signals
        signum = getattr(exc, "signum", None)
        what = "" if signum is None else f" (signal {signum})"
        print(f"rpcheck: interrupted{what}{_resume_hint(args) if args else ''}", file=sys.stderr)
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
        print(f"rpcheck: error: {what}{where}{_resume_hint(args)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        from concurrent.futures.process import BrokenProcessPool

        if args is not None and args.debug:
            raise
        if getattr(exc, "memory", False):  # engine TrialError: a trial ran out of memory (its cell is too large)
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"rpcheck: error: {first} (the cell's parameters are too large for this machine; reduce them)"
                  f"{_resume_hint(args)}", file=sys.stderr)  # fmt: skip
            return EXIT_USAGE
        if isinstance(exc, BrokenProcessPool):
            print(
                "rpcheck: error: a worker process died (killed by a signal, or out of memory?)"
                f"{_resume_hint(args) or '; rerun with --out DIR to checkpoint completed chunks'}",
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
    from . import _heap

    _heap.FREEZE_IMPORT_HEAP = True
    return main()


if __name__ == "__main__":
    sys.exit(console_main())
