"""The terminal renderer of the presentation model (:mod:`rpcheck.report.model`): the console, the progress
bar, the per-(theorem, variant) tables and the summary lines of a run.

rich is imported by the functions that draw with it, so that importing this module stays cheap.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys

from ..report import model
from ..report.decision import decision_lines, decision_rate

__all__ = ["console", "fmt_value", "progress_runner", "print_cells", "render_summary"]

#: rich colour of each verdict label in the tables.
COLORS = {"HOLDS": "green", "VIOLATED": "red", "INCONCLUSIVE": "yellow", "VACUOUS": "bright_black"}


def console():
    """A rich console as wide as the terminal (160 columns when stdout is not a terminal)."""
    from rich.console import Console

    width = shutil.get_terminal_size((160, 24)).columns if sys.stdout.isatty() else 160
    return Console(highlight=False, soft_wrap=False, width=width)


def fmt_value(v):
    """A parameter value as the user wrote it: ints as ints, floats compactly, lists as JSON."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return json.dumps(v)


def theorem_line(s, width):
    """One line of a per-theorem summary (:func:`rpcheck.report.model.theorem_summaries`)."""
    parts = []
    for b, c in s["counts"].items():
        parts.append(f"{model.MEASURED} {c}" if b == model.MEASURED else f"{b}: {model.count_text(c)}")
    return f"{s['id']:<{width}}  " + " · ".join(parts) + f" · unexpected {s['unexpected']} · {s['seconds']:.1f} s"


def unexpected_block(row):
    """Every informative column of an unexpected row, as a few lines."""
    num, text = model.as_number, model.as_text
    params = " ".join(f"{k}={fmt_value(v)}" for k, v in model.row_params(row).items())
    head = (f"UNEXPECTED {row['theorem']} · {row['variant']} ({row['mode']}, {model.role(row)}) cell {row['cell']}: "
            f"{params}")  # fmt: skip
    lines = [head]
    ci = ""
    if num(row.get("ci_low")) is not None:
        ci = f"CI [{row['ci_low']:.4g}, {row['ci_high']:.4g}] at {num(row.get('confidence_level')) or float('nan'):.4g}"
    prom = num(row.get("promised"))
    lines.append(
        f"  failures {row['failures']}/{row['evaluated']} evaluated of {row['trials']} trials"
        + (f", {int(row['solver_errors'])} solver errors" if int(row.get("solver_errors", 0) or 0) else "")
        + (f", {int(row['undetermined'])} undetermined" if int(num(row.get("undetermined")) or 0) else "")
        + (f", {int(row['vacuous_trials'])} vacuous" if int(row.get("vacuous_trials", 0) or 0) else "")
        + (f"; {ci}" if ci else "")
        + (f"; promised {prom:.4g}" if prom is not None else "")
    )
    lines.append(f"  verdict {model.label(row)}, expected {text(row.get('expected')) or '(none)'}")
    for col in ("claim", "vacuous_reason", "counterexample", "assumed", "decide_info"):
        t = text(row.get(col))
        if t:
            lines.append(f"  {col}: {t}")
    return lines


def print_cells(console, cells):
    """A rich table per (theorem, variant) of the cells table: parameters, failures, interval, verdict."""
    from rich.table import Table

    num, text = model.as_number, model.as_text
    has_role = "role" in cells.columns
    has_claim = "claim" in cells.columns
    for (tid, variant), g in cells.groupby(["theorem", "variant"], sort=False):
        first = g.iloc[0]
        role = f", {model.role(first)}" if has_role else ""
        t = Table(title=f"{tid} · {variant} ({first['mode']}{role})", title_justify="left", show_lines=False)
        rows_params = [model.row_params(row) for _, row in g.iterrows()]
        pnames = list(dict.fromkeys(k for p in rows_params for k in p))
        for c in pnames:
            t.add_column(c)
        cols = ["fail/eval", "CI", "promised", "verdict", "expected"] + (["claim"] if has_claim else [])
        for c in cols:
            t.add_column(c)
        for (_, row), params in zip(g.iterrows(), rows_params):
            ci = "" if num(row.get("ci_low")) is None else f"[{row['ci_low']:.3g}, {row['ci_high']:.3g}]"
            prom = num(row.get("promised"))
            v = model.label(row)
            mark = "" if row.get("as_expected", True) else " ✗"
            cells_txt = [
                f"{row['failures']}/{row['evaluated']}",
                ci,
                "" if prom is None else f"{prom:.3g}",
                f"[{COLORS.get(v, 'white')}]{v}[/]{mark}",
                text(row.get("expected")),
            ] + ([text(row.get("claim"))] if has_claim else [])
            t.add_row(*[fmt_value(params.get(c, "")) for c in pnames], *cells_txt)
        console.print(t)


def progress_runner(quiet):
    """Return (context manager, callback) for a live progress bar, or a no-op pair when quiet."""
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


def render_summary(result, *, details=False, quiet=False, out=None, report_path=None, console=None):
    """Lines of the terminal summary of a run (one per theorem, the unexpected rows in full, the summary).

    With ``details`` the per-(theorem, variant) tables are printed first (through ``console``).

    Returns
    -------
    (lines, summaries, counts)
        The lines, :func:`rpcheck.report.model.theorem_summaries` and
        :func:`rpcheck.report.model.summary_counts` of ``result.cells``.
    """
    cells = result.cells
    lines = []
    if details and console is not None:
        print_cells(console, cells)
    summaries = model.theorem_summaries(cells)
    if not quiet and summaries:
        width = max(len(s["id"]) for s in summaries)
        lines += [theorem_line(s, width) for s in summaries]
    if len(cells):
        for _, row in cells[~cells["as_expected"].astype(bool)].iterrows():
            lines += unexpected_block(row)
    counts = model.summary_counts(cells)
    lines += decision_lines(decision_rate(cells, result.provenance))
    lines.append(model.summary_line(counts))
    lines.append(model.error_rate_statement(dict(result.provenance or {})))
    if out is not None:
        lines.append(f"results: {out}")
    if report_path is not None:
        lines.append(f"report: {report_path}")
    return lines, summaries, counts
