"""Self-contained HTML verification report (inline CSS and hand-written SVG; no scripts, no network).

The report only presents what the engine produced (``RunResult.cells``, ``.trials``, ``.provenance``) plus
the theorem metadata from the registry (statements, citations, variants, findings). A results directory is
data someone may send you: every string from it is escaped (:func:`rpcheck.report._text.esc`), links are
made only from plain relative paths inside the results directory (:func:`~rpcheck.report._text.safe_href`),
and plot labels are plain text.

Layout: overview (first the decision rate and the undecided rows, :mod:`rpcheck.report.decision`; the
verdict strip per theorem and variant, unexpected rows first; counts; the run's error-rate statement) ->
contents -> findings -> empirical constants -> one section per paper with its theorems -> provenance
(collapsed). :func:`write_report` puts the per-trial statistic/bound distributions on a companion page beside
the report (linked from each theorem); :func:`render_report` keeps them inline. Rows of role "measurement"
are shown as measured (no verdict); rows of role "self-check" and "control" are labelled and counted apart
from the theorem verdicts. The ``role``, ``claim`` and ``undetermined`` columns are used when present;
without them every row is a claim and the HOLDS claim is derived from the interval columns (marked as such).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from . import plots
from ._text import esc as _e
from ._text import fmt_num as _fmt
from ._text import fmt_value, safe_href
from .model import ROLES, VERDICTS
from .model import role as _role

__all__ = ["render_report", "write_report", "render_theorem_section"]

#: Letters of the verdict strip (readable without colour).
LETTERS = {"HOLDS": "H", "VIOLATED": "V", "INCONCLUSIVE": "I", "VACUOUS": "∅", "MEASURED": "M"}
#: Parameter names preferred as the x axis of a sweep plot, in order (ties of equal coverage).
SWEEP_ORDER = ("r", "n", "m", "eps", "k", "d", "rho", "s", "c", "p", "q", "a", "gamma", "lam", "C")
#: Columns / parameters that carry the target dimension prescribed by a theorem's formula (vertical marker).
PRESCRIBED_COLUMNS = ("r_prescribed", "r_formula", "prescribed_r", "formula_r")
#: With more varying parameters than this, a cells table shows them in one wrapping "parameters" column.
MAX_PARAM_COLUMNS = 4
#: A text longer than this repeated in the next row of a table's column is shown as "as above".
AS_ABOVE_CHARS = 40
#: A measurement table (decide() output) wider than this many columns is split into stacked tables.
MAX_JSON_COLUMNS = 8
#: Column names that name the rows of a measurement table (repeated in each part of a split table).
ROW_KEYS = ("method", "name", "label", "quantity", "row", "dataset", "panel", "r")
#: Variant tables longer than this are collapsed (unless a row is unexpected).
COLLAPSE_ROWS = 16

_CSS = """
:root{--ok:#1b7f3b;--bad:#b3261e;--inc:#8a6500;--vac:#5f5f5f;--mea:#35608f;--bg:#fff;--fg:#1d1d1f;--mut:#5c5c5c;
--line:#d9d9d9}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1240px;padding:20px 24px;overflow-wrap:anywhere}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;margin:1.6em 0 .4em;border-bottom:2px solid var(--line)}
h3{font-size:1.1em;margin:1.4em 0 .3em;border-bottom:1px solid var(--line)}h4{font-size:1em;margin:1em 0 .3em}
code,pre{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
pre.stmt{background:#f6f7f9;border-left:3px solid #4a6fa5;padding:8px 10px;margin:.4em 0}
table{border-collapse:collapse;margin:.4em 0 1em;font-size:12.5px;width:100%;table-layout:auto}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f0f2f5;overflow-wrap:normal}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.num.long{white-space:normal;overflow-wrap:anywhere;min-width:8em}
.cells td,.nums td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.cells td:nth-last-child(-n+2),.cells td.small{text-align:left;white-space:normal}
.cells td.long,.nums td.long{white-space:normal;overflow-wrap:anywhere;min-width:8em}
.decide th,.decide td,.decide .nums td{white-space:normal;overflow-wrap:anywhere;min-width:0}
.v{font-weight:700;padding:0 5px;border-radius:3px;color:#fff;white-space:nowrap;display:inline-block}
.v-HOLDS{background:var(--ok)}.v-VIOLATED{background:var(--bad)}.v-INCONCLUSIVE{background:var(--inc)}
.v-VACUOUS{background:var(--vac)}.v-MEASURED{background:var(--mea)}.v-x{background:#333}
.unexp{outline:3px solid #e8a200;outline-offset:1px}
tr.unexp-row>td:first-child{box-shadow:inset 4px 0 #e8a200}
tr.kind-row>th{text-align:left;background:#eef2f7;font-size:1.02em}
blockquote.printed{margin:0 0 .2em;padding:.1em .5em;border-left:3px solid #9aa5b1;font-family:Georgia,serif;
font-style:italic}
.muted{color:var(--mut)}.small{font-size:12px}
.cards{display:flex;gap:8px;flex-wrap:wrap;margin:.6em 0}
.card{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:120px}
.card b{font-size:1.4em;display:block}
.card.decision{flex-basis:100%}.card.decision b{display:inline;font-size:1.2em}
.big{font-size:1.15em;display:block;font-weight:600}
.strip{display:inline-flex;flex-wrap:wrap;gap:2px;align-items:center;margin:1px 10px 1px 0}
.strip code{margin-right:3px}
.c{display:inline-block;min-width:1.25em;text-align:center;font:700 11px/1.4 "DejaVu Sans Mono",monospace;
color:#fff;border-radius:2px;padding:0 1px}
.tag{font-size:11px;border:1px solid var(--mut);border-radius:3px;padding:0 3px;color:var(--mut);white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}
.plots{display:flex;flex-wrap:wrap;gap:10px;margin:.4em 0}.plots svg{max-width:100%;height:auto}
nav#toc>ul{columns:3 260px;font-size:13px;padding-left:1.2em}nav#toc li{break-inside:avoid}
nav#toc ul ul{padding-left:1em}
details>summary{cursor:pointer;color:#234;margin:.3em 0}
.claim,.cells td:last-child{font-size:12px}
.err{background:#fff4e5;border-left:3px solid #e8a200;padding:6px 10px}
.pv td,.pv th{font-size:12px;overflow-wrap:anywhere}
table.fixed{table-layout:fixed}table.fixed td.num{white-space:normal;overflow-wrap:anywhere}
@media print{body{max-width:none;padding:0}.theorem{break-inside:avoid-page}details{display:block}
 .v,.c{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


# ---------------------------------------------------------------------------------------------------------
# small helpers


def _is_missing(x):
    return x is None or (isinstance(x, float | np.floating) and math.isnan(x)) or x is pd.NA or x is pd.NaT


def _str(x):
    return "" if _is_missing(x) else str(x)


def _num(x):
    """Float or NaN (strings, None and garbage from a crafted directory become NaN)."""
    if isinstance(x, bool | np.bool_):
        return float(x)
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _int(x):
    v = _num(x)
    return int(v) if math.isfinite(v) else None


def _shown_verdict(row):
    """The verdict as presented: "MEASURED" for role measurement, else the verdict column."""
    if _role(row) == "measurement":
        return "MEASURED"
    return _str(row.get("verdict"))


def _expected(row):
    return _str(row.get("expected"))


def _unexpected(row):
    if "as_expected" in row and not _is_missing(row.get("as_expected")):
        v = row.get("as_expected")
        if isinstance(v, str):
            return v.strip().lower() in ("false", "0", "no")
        return not bool(v)
    exp = _expected(row)
    return bool(exp) and exp != _str(row.get("verdict"))


def _badge(v, *, unexpected=False, expected=""):
    cls = f"v v-{v}" if v in VERDICTS or v == "MEASURED" else "v v-x"
    if unexpected:
        return (
            f'<span class="{cls} unexp" title="expected {_e(expected)}">{_e(v)}</span>'
            f' <span class="small">(expected {_e(expected) or "—"})</span>'
        )
    return f'<span class="{cls}">{_e(v)}</span>'


def _letter(v, *, unexpected=False, title=""):
    cls = f"c v-{v}" if v in VERDICTS or v == "MEASURED" else "c v-x"
    letter = LETTERS.get(v, "?")
    if unexpected:
        cls += " unexp"
        letter += "!"
    return f'<span class="{cls}" title="{_e(title)}">{_e(letter)}</span>'


def _theorem_meta(theorem_id):
    try:
        from ..engine import registry

        return registry.get(theorem_id)
    except Exception:  # a user theorem not in the registry (or a crafted id): the tables still render
        return None


class _Anchors:
    """Unique, inert ids for theorem and paper sections (alphanumerics and '-' only)."""

    def __init__(self):
        self.ids = {}
        self.used = set()

    def __call__(self, kind, key):
        k = (kind, key)
        if k not in self.ids:
            base = kind + "-" + "".join(ch if (ch.isascii() and ch.isalnum()) else "-" for ch in str(key))[:80]
            a, i = base, 2
            while a in self.used:
                a, i = f"{base}-{i}", i + 1
            self.used.add(a)
            self.ids[k] = a
        return self.ids[k]


def _params(row):
    """The cell's parameters with their types: decoded canonical ``params`` JSON, else the ``p_`` columns."""
    s = row.get("params")
    if isinstance(s, str) and s:
        try:
            d = json.loads(s)
            if isinstance(d, dict):
                return {str(k): v for k, v in d.items()}
        except ValueError:
            pass
    out = {}
    for k, v in row.items():
        if isinstance(k, str) and k.startswith("p_"):
            if isinstance(v, list | tuple | np.ndarray) or not _is_missing(v):
                out[k[2:]] = v.item() if isinstance(v, np.generic) else v
    return out


def _key(v):
    try:
        return json.dumps(v, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(v)


def _split_params(plist):
    """(names that vary, {name: value} fixed in every row) over a list of parameter dicts."""
    names = list(dict.fromkeys(k for p in plist for k in p))
    varying, fixed = [], {}
    for k in names:
        vals = {_key(p.get(k)) for p in plist}
        if len(vals) > 1 or any(k not in p for p in plist):
            varying.append(k)
        else:
            fixed[k] = plist[0][k]
    return varying, fixed


def _plabel(p, names):
    return ", ".join(f"{k}={fmt_value(p.get(k))}" for k in names if k in p)


def _is_number(v):
    return (
        isinstance(v, int | float | np.integer | np.floating)
        and not isinstance(v, bool | np.bool_)
        and (math.isfinite(float(v)))
    )


# ---------------------------------------------------------------------------------------------------------
# claims


def _claim(row):
    """``(text, derived)``: the ``claim`` column when present, else a statement derived from the interval
    columns for HOLDS rows (``derived=True``), else ``("", False)``."""
    c = _str(row.get("claim")).strip()
    if c:
        return c, False
    if _shown_verdict(row) != "HOLDS":
        return "", False
    mode = _str(row.get("mode"))
    ev, hi, lo = _int(row.get("evaluated")), _num(row.get("ci_high")), _num(row.get("ci_low"))
    conf = _num(row.get("confidence_level"))
    if mode == "bound":
        a_h = _num(row.get("alpha_adjusted_holds"))
        level = f"{_fmt(100 * (1 - a_h), 4)}%" if math.isfinite(a_h) else "the stated level"
        return f"P(fail) ≤ {_fmt(hi)} at {level} (promised {_fmt(_num(row.get('promised')))})", True
    if mode == "exact":
        return f"failure rate in [{_fmt(lo)}, {_fmt(hi)}], exact law {_fmt(_num(row.get('promised')))}", True
    if mode in ("deterministic", "search"):
        level = f" at {_fmt(100 * conf, 4)}%" if math.isfinite(conf) else ""
        return f"no counterexample in {ev} draws: P(counterexample) ≤ {_fmt(hi)}{level}", True
    return "", False


# ---------------------------------------------------------------------------------------------------------
# tables


def _counterexample_html(path):
    path = _str(path)
    if not path:
        return ""
    href = safe_href(path)
    name = _e(path.rsplit("/", 1)[-1].rsplit("__", 1)[-1])  # "<theorem>__<variant>__cell0.npz" -> "cell0.npz"
    if href is None:
        why = "not linked: not a relative path inside the results directory"
        return f'<span class="small" title="{why}">{_e(path)}</span>'
    return f'<a href="{_e(href)}">{name}</a>'  # the full path: the link's own target


def _num_td(text, *, bare=False):
    """A right-aligned cell that does not break numbers; long values (lists, long strings) may wrap.
    ``bare``: in a table of class "nums" or "cells", whose stylesheet aligns its cells (no class per cell)."""
    if bare:
        return f'<td{" class=long" if len(text) > 18 else ""}>{_e(text)}</td>'
    return f'<td class="num{" long" if len(text) > 18 else ""}">{_e(text)}</td>'


def _cells_table(rows, plist, varying):
    """One row per cell. At most ``MAX_PARAM_COLUMNS`` parameter columns; more varying parameters share one
    wrapping column (so the table fits 1280 px)."""
    one_col = len(varying) > MAX_PARAM_COLUMNS
    optional = {  # columns shown only when some row of the table has a value
        "promised": [_fmt(_num(r.get("promised"))) for r in rows],
        "p-value (Holm α)": [
            _fmt(_num(r.get("pvalue"))) + (f" ({_fmt(a)})" if math.isfinite(a := _num(r.get("alpha_adjusted"))) else "")
            for r in rows
        ],
        "statistic q50 / q95 / max": [
            " / ".join(_fmt(_num(r.get(k))) for k in ("stat_q50", "stat_q95", "stat_max")).strip(" /") for r in rows
        ],
        "worst slack": [_fmt(_num(r.get("slack_min"))) for r in rows],
    }
    optional = {k: v for k, v in optional.items() if any(v)}
    head = ("<th>parameters</th>" if one_col else "".join(f"<th>{_e(k)}</th>" for k in varying)) + (
        "<th>failures / evaluated</th><th>rate [exact CI]</th>" + "".join(f"<th>{_e(k)}</th>" for k in optional)
        + "<th>verdict</th><th>claim · evidence</th>"
    )
    body, prev_claim = [], None
    for j, (r, p) in enumerate(zip(rows, plist)):
        shown = _shown_verdict(r)
        unexp = _unexpected(r)
        notes = []
        for col, word in (("trials", "trials"), ("vacuous_trials", "vacuous"), ("solver_errors", "solver errors"),
                          ("undetermined", "undetermined")):  # fmt: skip
            n = _int(r.get(col))
            if col == "trials":
                if n is not None and n != _int(r.get("evaluated")):
                    notes.append(f"{n} trials")
            elif n:
                notes.append(f"{n} {word}")
        lo, hi = _num(r.get("ci_low")), _num(r.get("ci_high"))
        ci = f" [{_fmt(lo)}, {_fmt(hi)}]" if math.isfinite(lo) or math.isfinite(hi) else ""
        claim, derived = _claim(r)
        ev = []
        if claim and claim == prev_claim and len(claim) > AS_ABOVE_CHARS:
            ev.append('<span class="muted">as above</span>')  # a long claim repeated row after row: once
        elif claim:
            ev.append(f'{_e(claim)}{" <span class=muted>(derived)</span>" if derived else ""}')
        prev_claim = claim
        cx = _counterexample_html(r.get("counterexample"))
        if cx:
            ev.append(f"<div>counterexample: {cx}</div>")
        reason = _str(r.get("vacuous_reason"))
        if reason:
            ev.append(f'<div class="muted small">{_e(reason)}</div>')
        role = _role(r)
        tag = f' <span class="tag">{_e(role)}</span>' if role in ("self-check", "control") else ""
        verdict = _badge(shown, unexpected=unexp, expected=_expected(r)) + tag
        body.append(
            f"<tr{' class=unexp-row' if unexp else ''}>"
            + (
                f'<td class="small">{_e(_plabel(p, varying))}</td>'
                if one_col
                else "".join(_num_td(fmt_value(p.get(k)), bare=True) for k in varying)
            )
            + f'<td>{_e(_fmt(r.get("failures")))} / {_e(_fmt(r.get("evaluated")))}'
            + (f'<div class="muted small">{_e(", ".join(notes))}</div>' if notes else "")
            + f'</td><td>{_e(_fmt(_num(r.get("failure_rate"))))}{_e(ci)}</td>'
            + "".join(f"<td>{_e(v[j])}</td>" for v in optional.values())
            + f"<td>{verdict}</td><td>{''.join(ev)}</td></tr>"
        )
    body = "".join(body)
    return f'<div class=scroll><table class="cells"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _col_groups(cols, repeat_first):
    """The columns of a measurement table in groups of at most ``MAX_JSON_COLUMNS``, each rendered as its
    own table (stacked, so that a wide table fits the page); ``repeat_first``: the first column (the rows'
    key) leads every group."""
    k = MAX_JSON_COLUMNS
    if len(cols) <= k:
        return [cols]
    if repeat_first:
        return [[cols[0], *cols[1:][i : i + k - 1]] for i in range(0, len(cols) - 1, k - 1)]
    return [cols[i : i + k] for i in range(0, len(cols), k)]


def _json_block(data, depth=0):
    """A decoded ``decide_info`` value as nested tables (every key and value escaped); a table with more
    than ``MAX_JSON_COLUMNS`` columns is split into stacked tables of that many."""
    scalar = (str, int, float, bool, type(None))
    if depth > 6:
        return f"<pre>{_e(json.dumps(data, default=str))}</pre>"
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        out, cols_all = [], list(dict.fromkeys(k for v in data for k in v))
        key = _row_key(data, cols_all) if len(cols_all) > MAX_JSON_COLUMNS else None
        if key is not None:
            cols_all = [key] + [c for c in cols_all if c != key]
        for cols in _col_groups(cols_all, key is not None):
            number = len(cols_all) > MAX_JSON_COLUMNS and key is None
            head = ("<th>#</th>" if number else "") + "".join(f"<th>{_e(c)}</th>" for c in cols)
            body = "".join(
                "<tr>" + (f"<td>{i + 1}</td>" if number else "")
                + "".join(f"<td>{_as_above(v.get(c), data[i - 1].get(c) if i else None, depth)}</td>" for c in cols)
                + "</tr>"
                for i, v in enumerate(data)
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "".join(out)
    if (
        isinstance(data, dict)
        and data
        and all(isinstance(v, list) and all(isinstance(x, scalar) for x in v) for v in data.values())
        and len({len(v) for v in data.values()}) == 1
    ):
        n = len(next(iter(data.values())))
        out = []
        for cols in _col_groups(list(data), True):
            head = "".join(f"<th>{_e(c)}</th>" for c in cols)
            body = "".join(
                "<tr>" + "".join(_num_td(fmt_value(data[c][i]), bare=True) for c in cols) + "</tr>" for i in range(n)
            )
            out.append(f"<table class=nums><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "".join(out)
    if (
        isinstance(data, dict)
        and data
        and all(isinstance(v, dict) for v in data.values())
        and all(all(isinstance(x, scalar) for x in v.values()) for v in data.values())
    ):  # {row: {col: scalar}}: one table (per group of columns)
        out = []
        for cols in _col_groups(list(dict.fromkeys(k for v in data.values() for k in v)), False):
            head = "<th></th>" + "".join(f"<th>{_e(c)}</th>" for c in cols)
            body = "".join(
                f"<tr><th>{_e(k)}</th>" + "".join(_num_td(fmt_value(v.get(c)), bare=True) for c in cols) + "</tr>"
                for k, v in data.items()
            )
            out.append(f"<table class=nums><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "".join(out)
    if isinstance(data, dict):
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_cellval(v, depth)}</td></tr>" for k, v in data.items())
        return f"<table>{rows}</table>"
    return _cellval(data, depth)


def _row_key(data, cols):
    """The column that names the rows of a list of records split into several tables: the first of
    ``ROW_KEYS`` present in every row, else the first column with a short value in every row, else None
    (the rows are then numbered)."""
    present = [c for c in cols if all(_str(v.get(c)) != "" for v in data)]
    for c in ROW_KEYS:
        if c in present:
            return c
    return next((c for c in present if all(len(fmt_value(v.get(c))) <= 40 for v in data)), None)


def _as_above(v, above, depth):
    """A cell of a column: "as above" when it repeats the long string of the row above, else its value."""
    if isinstance(v, str) and v == above and len(v) > AS_ABOVE_CHARS:
        return '<span class="muted">as above</span>'
    return _cellval(v, depth)


def _cellval(v, depth):
    if (
        isinstance(v, dict | list)
        and v
        and any(isinstance(x, dict | list) for x in (v.values() if isinstance(v, dict) else v))
    ):
        return _json_block(v, depth + 1)
    if isinstance(v, dict):
        return _json_block(v, depth + 1) if v else "{}"
    return _e(fmt_value(v))


def _decide_tables(rows, plist, varying, seen):
    """The ``decide_info`` JSON (what a report-mode variant's ``decide`` hook measured), one block per
    distinct value, labelled with the cell's parameters; a block already shown for this theorem is not
    repeated."""
    out = []
    for r, p in zip(rows, plist):
        s = r.get("decide_info")
        if not isinstance(s, str) or len(s) <= 2 or s in seen:
            continue
        seen.add(s)
        label = _plabel(p, varying)
        try:
            data = json.loads(s)
            if isinstance(data, dict) and _str(data.get("claim")).strip() == _str(r.get("claim")).strip():
                data = {k: v for k, v in data.items() if k != "claim"}  # shown in the cells table already
            body = _json_block(data)
        except (ValueError, RecursionError):
            body = f"<pre>{_e(s)}</pre>"
        out.append(
            f'<div class="decide"><div class="small muted">{_e(label) or "measurements"}</div>'
            f'<div class="scroll">{body}</div></div>'
        )
    return "".join(out)


# ---------------------------------------------------------------------------------------------------------
# plots of one variant


def _sweep_axis(plist):
    """The numeric parameter that varies within groups of cells whose other parameters are equal, with
    the groups: ``(name, [[row indices], ...])`` or ``(None, [])``."""
    varying, _ = _split_params(plist)
    best = (0, None, [])
    for k in varying:
        if not all(_is_number(p.get(k)) for p in plist if k in p):
            continue
        others = [o for o in varying if o != k]
        groups = {}
        for i, p in enumerate(plist):
            if k in p:
                groups.setdefault(tuple(_key(p.get(o)) for o in others), []).append(i)
        good = [g for g in groups.values() if len({_key(plist[i][k]) for i in g}) >= 2]
        score = sum(len(g) for g in good)
        rank = SWEEP_ORDER.index(k) if k in SWEEP_ORDER else len(SWEEP_ORDER)
        if good and (score, -rank) > (best[0], -(SWEEP_ORDER.index(best[1]) if best[1] in SWEEP_ORDER else 99)):
            best = (score, k, good)
    return best[1], best[2]


def _prescribed(row, params):
    for k in PRESCRIBED_COLUMNS:
        v = params.get(k, row.get(k))
        if _is_number(v):
            return float(v), k
    return None


def _variant_plots(tid, variant, mode, rows, plist, trials, varying, plotted):
    svgs, hidden = [], []
    name = str(variant)
    if mode in ("bound", "exact"):
        x, groups = _sweep_axis(plist)
        if x is not None:
            others = [o for o in varying if o != x]
            chunks = [groups[i : i + len(plots.SERIES_COLORS)] for i in range(0, len(groups), len(plots.SERIES_COLORS))]
            for ci_, chunk in enumerate(chunks):
                series, markers = [], []
                for g in chunk:
                    g = sorted(g, key=lambda i: float(plist[i][x]))
                    s = {
                        "label": _plabel(plist[g[0]], others) or "all cells",
                        "x": [float(plist[i][x]) for i in g],
                        "y": [_num(rows[i].get("failure_rate")) for i in g],
                        "lo": [_num(rows[i].get("ci_low")) for i in g],
                        "hi": [_num(rows[i].get("ci_high")) for i in g],
                        "tips": [
                            f"{_plabel(plist[i], varying)}: {_fmt(rows[i].get('failures'))}/"
                            f"{_fmt(rows[i].get('evaluated'))} failures, {_shown_verdict(rows[i])}"
                            for i in g
                        ],
                    }
                    prom = [_num(rows[i].get("promised")) for i in g]
                    if any(math.isfinite(v) for v in prom):
                        s["promised"] = prom
                    series.append(s)
                    for i in g:
                        pr = _prescribed(rows[i], plist[i])
                        if pr and (pr[0], f"{pr[1]} = {_fmt(pr[0])} (theorem's formula)") not in markers:
                            markers.append((pr[0], f"{pr[1]} = {_fmt(pr[0])} (theorem's formula)"))
                part = f" ({ci_ + 1}/{len(chunks)})" if len(chunks) > 1 else ""
                promised_label = "exact probability" if mode == "exact" else "promised failure probability δ"
                svgs.append(
                    plots.sweep_svg(
                        series,
                        x_label=x,
                        title=f"{name}: failure rate vs {x}{part}",
                        markers=markers,
                        promised_label=promised_label,
                    )  # fmt: skip
                )
    if mode == "exact":
        frows = [
            {
                "label": _plabel(p, varying) or f"cell {_fmt(r.get('cell'))}",
                "est": _num(r.get("failure_rate")),
                "lo": _num(r.get("ci_low")),
                "hi": _num(r.get("ci_high")),
                "ref": _num(r.get("promised")),
            }  # fmt: skip
            for r, p in zip(rows, plist)
        ]
        svgs.append(
            plots.forest_svg(
                frows,
                x_label="probability",
                title=f"{name}: exact law vs Monte Carlo",
                est_label="Monte Carlo rate",
                interval_label="exact CI",
                ref_label="exact law",
            )  # fmt: skip
        )
    pairs = _paper_pairs(rows, plist, varying, plotted)
    for quantity, prs in pairs.items():
        svgs.append(
            plots.forest_svg(
                [{"label": lab, "est": ours, "ref": paper} for lab, paper, ours in prs],
                x_label=quantity,
                title=f"{name}: {quantity}, paper vs this run",
                est_label="this run",
                ref_label="paper",
            )  # fmt: skip
        )
    ratio = _ratio_rows(tid, variant, rows, plist, varying, trials)
    control = bool(rows) and _role(rows[0]) == "control"
    for r in ratio:  # plotted once per theorem (_ratio_plot), each row labelled with its variant
        r["label"] = f"{name} · {r['label']}"
        r["control"] = control
    hidden.extend(ratio)
    return [s for s in svgs if s], hidden


#: Rows per statistic/bound plot (a theorem with more cells gets several plots in the same collapsed block).
RATIO_ROWS_PER_PLOT = 60


def _ratio_plot(ratios):
    """One collapsed block per theorem: the quantiles of statistic / bound over the trials of every cell of
    every variant (one forest row each, labelled "variant · cell"), against the claim's line at 1."""
    if not ratios:
        return ""
    # the negative controls (built to exceed the bound, often by orders of magnitude) on their own axis
    chunks = []
    for group, what in (([r for r in ratios if not r.get("control")], ""),
                        ([r for r in ratios if r.get("control")], ", negative controls")):  # fmt: skip
        parts = [group[i : i + RATIO_ROWS_PER_PLOT] for i in range(0, len(group), RATIO_ROWS_PER_PLOT)]
        chunks += [(c, what + (f" ({k + 1}/{len(parts)})" if len(parts) > 1 else "")) for k, c in enumerate(parts)]
    svgs = [
        plots.forest_svg(
            chunk,
            x_label="statistic / bound per trial",
            title="statistic / bound per cell" + suffix,
            est_label="median",
            interval_label="5%–95% of trials",
            ref_label="max",
            ref_line=1.0,
            ref_line_label="claim: ≤ 1",
            log=10,
            width=760,
            label_width=300,
        )  # fmt: skip
        for chunk, suffix in chunks
    ]
    return (
        f"<details><summary>Distribution of statistic / bound per cell ({len(ratios)} cells, every variant)</summary>"
        '<div class="plots">' + "".join(svgs) + "</div></details>"
    )


def _paper_pairs(rows, plist, varying, plotted):
    """``{quantity: [(label, paper value, our value)]}`` from ``decide_info`` keys ``paper_<q>`` beside
    ``<q>`` (reproductions of a paper's table)."""
    out = {}
    seen = set()

    def walk(d, path):
        if not isinstance(d, dict):
            return
        for k, v in d.items():
            if isinstance(k, str) and k.startswith("paper_") and k[6:] in d:
                ours = d[k[6:]]
                if _is_number(v) and _is_number(ours):
                    key = (k[6:], "/".join(path))
                    if key not in seen:
                        seen.add(key)
                        out.setdefault(k[6:], []).append(("/".join(path) or "value", float(v), float(ours)))
            elif isinstance(v, dict):
                walk(v, [*path, str(k)])

    for r, p in zip(rows, plist):
        s = r.get("decide_info")
        if isinstance(s, str) and "paper_" in s and s not in plotted:
            plotted.add(s)
            try:
                data = json.loads(s)
            except (ValueError, RecursionError):
                continue
            lab = _plabel(p, varying)
            walk(data, [lab] if lab else [])
    return out


class _Trials:
    """The sampled trials per theorem: ``RunResult.trial_tables`` (one table per theorem), or a one-table
    ``trials`` frame split once by theorem (row indices; selecting a few columns first keeps it fast)."""

    def __init__(self, trials=None, tables=None):
        self.tables = {_str(k): v for k, v in (tables or {}).items()}
        self.df = trials if trials is not None and len(trials) and {"theorem", "cell"} <= set(trials.columns) else None
        self.index = {}
        if self.df is not None:
            keys = [_str(x) for x in self.df["theorem"]]
            for i, k in enumerate(keys):
                self.index.setdefault(k, []).append(i)

    def columns(self, tid, cols):
        """``cell`` and ``cols`` of theorem ``tid``'s trials, or None when a column is absent."""
        t = self.tables.get(tid)
        if t is not None:
            return t[["cell", *cols]] if len(t) and all(c in t.columns for c in cols) else None
        if self.df is None or tid not in self.index or any(c not in self.df.columns for c in cols):
            return None
        return self.df[["cell", *cols]].iloc[self.index[tid]]


def _ratio_rows(tid, variant, rows, plist, varying, trials):
    """Per cell: quantiles of statistic / bound over the ok trials (only where every bound is > 0)."""
    s_col, b_col = f"{variant}.statistic", f"{variant}.bound"
    sub = trials.columns(tid, [s_col, b_col]) if trials is not None else None
    if sub is None or sub.empty:
        return []
    t = pd.DataFrame(
        {
            "cell": sub["cell"].to_numpy(),
            "s": pd.to_numeric(sub[s_col], errors="coerce").to_numpy(float),
            "b": pd.to_numeric(sub[b_col], errors="coerce").to_numpy(float),
        }
    )
    t = t[np.isfinite(t["s"]) & np.isfinite(t["b"]) & (t["b"] > 0)]
    if t.empty:
        return []
    t["q"] = t["s"] / t["b"]
    g = t.groupby("cell")["q"]
    qs = g.quantile([0.05, 0.5, 0.95]).unstack()
    mx = g.max()
    cnt = g.size()
    out = []
    for r, p in zip(rows, plist):
        c = r.get("cell")
        if c not in qs.index or cnt.get(c, 0) < 5:
            continue
        out.append(
            {
                "label": _plabel(p, varying) or f"cell {_fmt(c)}",
                "est": float(qs.loc[c, 0.5]),
                "lo": float(qs.loc[c, 0.05]),
                "hi": float(qs.loc[c, 0.95]),
                "ref": float(mx[c]),
                "tip": f"{int(cnt[c])} trials",
            }  # fmt: skip
        )
    return out


# ---------------------------------------------------------------------------------------------------------
# sections


def _verdict_counts(rows):
    c = Counter(_shown_verdict(r) for r in rows)
    return ", ".join(f"{LETTERS.get(k, '?')} {_e(k)} {v}" for k, v in sorted(c.items()))


def _theorem_section(tid, rows_all, trials, anchors, *, heading="h3", companion=None):
    """One theorem: citation, statement, variants, and per variant its cells table, measurements and plots.
    ``rows_all`` are the theorem's cell records, ``trials`` a :class:`_Trials`. ``companion``: ``(file
    name, dict)``: the theorem's statistic/bound distributions go to ``dict[anchor]`` (a companion page
    written beside the report) and the section links there; ``None``: they are inline."""
    meta = _theorem_meta(tid)
    sub = "h4" if heading == "h3" else "h3"
    title = getattr(meta, "title", "") if meta else ""
    parts = [f'<section class="theorem" id="{anchors("t", tid)}">']
    parts.append(f"<{heading}>{_e(tid)}{' — ' + _e(title) if title else ''}</{heading}>")
    n_unexp = sum(_unexpected(r) for r in rows_all)
    parts.append(
        f'<p class="small">{len(rows_all)} rows: {_verdict_counts(rows_all)}'
        + (f'; <b class="unexp">{n_unexp} unexpected</b>' if n_unexp else "")
        + "</p>"
    )
    if meta is not None:
        cit = meta.citation
        loc = _e(cit.location) + (f" (other numbering: {_e(cit.alt_location)})" if cit.alt_location else "")
        eq = f", {_e(cit.equations)}" if cit.equations else ""
        parts.append(
            f'<p class="small">{_e(cit.authors)} ({_e(cit.year)}). <i>{_e(cit.title)}</i>. {_e(cit.venue)}. '
            f"<b>{loc}</b>{eq}. Kind: {_e(meta.kind)}.</p>"
        )
        parts.append(f'<pre class="stmt">{_e(meta.statement)}</pre>')
        if meta.tolerance_note:
            parts.append(
                f'<p class="small">Numerical tolerance: {_e(_fmt(meta.tolerance))} — {_e(meta.tolerance_note)}</p>'
            )
        if getattr(meta, "notes", ""):
            parts.append(f'<p class="small">{_e(meta.notes)}</p>')
        vrows, above = [], ("", "")
        for v in meta.variants:
            cols = ("; ".join(v.assumed), v.note)
            shown = [
                '<span class="muted">as above</span>' if t == a and len(t) > AS_ABOVE_CHARS else _e(t)
                for t, a in zip(cols, above)
            ]
            above = cols
            vrows.append(
                f"<tr><td><code>{_e(v.name)}</code></td><td>{_e(getattr(v, 'role', 'claim'))}</td>"
                f"<td>{_e(v.mode)}</td><td>{_e(v.statement)}</td><td>{shown[0]}</td><td>{shown[1]}</td></tr>"
            )
        vrows = "".join(vrows)
        parts.append(
            '<details class="variants"><summary>Variants: statements tested, assumptions, notes</summary><table><thead>'
            "<tr><th>variant</th><th>role</th><th>mode</th><th>statement tested</th><th>assumed</th>"
            f"<th>note</th></tr></thead><tbody>{vrows}</tbody></table></details>"
        )
    seen, plotted, ratios = set(), set(), []
    by_variant = {}
    for r in rows_all:
        by_variant.setdefault(r["variant"], []).append(r)
    for variant, rows in by_variant.items():
        plist = [_params(r) for r in rows]
        varying, fixed = _split_params(plist)
        mode = _str(rows[0].get("mode"))
        role = _role(rows[0])
        tag = f' <span class="tag">{_e(role)}</span>' if role != "claim" else ""
        unexp = sum(_unexpected(r) for r in rows)
        parts.append(
            f"<{sub}>Variant <code>{_e(variant)}</code>{tag} <span class='muted small'>({_e(mode)}; "
            f"{_verdict_counts(rows)}{'; ' + str(unexp) + ' unexpected' if unexp else ''})</span></{sub}>"
        )
        if fixed:
            parts.append(f'<p class="small muted">In every cell: {_e(_plabel(fixed, list(fixed)))}</p>')
        table = _cells_table(rows, plist, varying)
        if len(rows) > COLLAPSE_ROWS and not unexp:
            parts.append(f"<details><summary>{len(rows)} cells (table)</summary>{table}</details>")
        else:
            parts.append(table)
        parts.append(_decide_tables(rows, plist, varying, seen))
        shown, ratio = _variant_plots(tid, variant, mode, rows, plist, trials, varying, plotted)
        if shown:
            parts.append('<div class="plots">' + "".join(shown) + "</div>")
        ratios.extend(ratio)
    block = _ratio_plot(ratios)
    if block and companion is not None:
        name, sink = companion
        anchor = anchors("t", tid)
        block = block.replace("<details>", "<details open>", 1)
        sink[anchor] = f'<section id="{anchor}"><h2>{_e(tid)}</h2>{block}</section>'
        href = _e(safe_href(name) or "")
        parts.append(
            f'<p class="small">Distribution of statistic / bound per cell ({len(ratios)} cells): '
            f'<a href="{href}#{anchor}">{_e(name)}</a>, beside this report.</p>'
        )
    else:
        parts.append(block)
    parts.append("</section>")
    return "".join(parts)


#: Group headings of the findings table, one per kind of :data:`rpcheck.engine.theorem.FINDING_KINDS`.
_KIND_HEADINGS = {"paper error": "Paper errors", "proof gap": "Proof gaps", "ambiguity": "Ambiguities",
                  "notation": "Notation", "observation": "Observations"}


def _findings(recs, theorem_ids, anchors):
    """The findings table: one group per kind, paper errors first (``FINDING_KINDS`` order), each finding
    with the printed text it disputes, its location in the paper, the summary and the evidence variant's
    verdicts in this run."""
    from ..engine.theorem import FINDING_KINDS

    rows, status_count = {kind: [] for kind in FINDING_KINDS}, Counter()
    for tid in theorem_ids:
        meta = _theorem_meta(tid)
        if meta is None or not meta.findings:
            continue
        tc = [r for r in recs if r["theorem"] == tid]
        for f in meta.findings:
            ev = [r for r in tc if r["variant"] == str(f.evidence_variant)] if f.evidence_variant else []
            if ev:
                verdicts = ", ".join(f"{k} ×{v}" for k, v in Counter(_shown_verdict(r) for r in ev).items())
                fails = sum(_int(r.get("failures")) or 0 for r in ev)
                evaluated = sum(_int(r.get("evaluated")) or 0 for r in ev)
                ok = not any(_unexpected(r) for r in ev)
                status = "confirmed" if ok else "NOT reproduced in this run"
                links = [_counterexample_html(r.get("counterexample")) for r in ev if _str(r.get("counterexample"))][:3]
                if all(_str(r.get("mode")) == "report" for r in ev):
                    evidence = f"{_e(verdicts)}; decided from the measurements in the theorem's section"
                else:
                    evidence = f"{_e(verdicts)}; {fails} failures in {evaluated} evaluated trials"
                if links:
                    evidence += "<div>" + " ".join(links) + "</div>"
            elif not f.evidence_variant:
                status, evidence = "no evidence variant", ""
            else:
                status, evidence = "not run", ""
            status_count[status] += 1
            cls = ' class="unexp-row"' if status.startswith("NOT") else ""
            rows[f.kind].append(
                f'<tr{cls}><td><a href="#{anchors("t", tid)}">{_e(tid)}</a><div><code>{_e(f.key)}</code></div></td>'
                f"<td><blockquote class='printed'>{_e(f.quote)}</blockquote>"
                f"<div class='muted small'>{_e(f.location)}</div></td><td>{_e(f.summary)}</td>"
                f"<td><code>{_e(f.evidence_variant or '')}</code></td><td>{_e(status)}</td><td>{evidence}</td></tr>"
            )
    if not any(rows.values()):
        return "<p class='muted'>No findings recorded for the theorems in this run.</p>", status_count
    body = []
    for kind in FINDING_KINDS:
        if rows[kind]:
            heading = f"{_KIND_HEADINGS[kind]} ({len(rows[kind])})"
            body.append(f'<tr class="kind-row"><th colspan="6">{_e(heading)}</th></tr>')
            body += rows[kind]
    html_ = (
        "<p class='muted'>Grouped by kind: <b>paper error</b> (a printed statement, number or formula is false), "
        "<b>proof gap</b> (the printed proof does not establish the statement), <b>ambiguity</b> (readings that "
        "differ in their consequences), <b>notation</b> (how a symbol must be read), <b>observation</b> (a "
        "measured or derived fact about the paper's claims that is not an error of the paper).</p>"
        '<table class="findings"><colgroup><col style="width:13%"><col style="width:24%"><col style="width:33%">'
        '<col style="width:9%"><col style="width:7%"><col style="width:14%"></colgroup><thead><tr>'
        "<th>theorem · finding</th><th>printed (and where)</th><th>what differs from the paper</th>"
        "<th>evidence variant</th><th>status</th><th>evidence</th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    return html_, status_count


#: z quantile of the two-sided 99% normal interval used for "ours - paper" when a standard error is reported
_Z99 = 2.5758293035489004


def _pair_rows(data, path=()):
    """``(label, quantity, paper, ours, se, agrees)`` from a decide_info tree: a key ``paper_<q>`` beside
    ``<q>`` or ``<q>_mean`` (optional ``<q>_se``), in nested dicts and in lists of dicts (labelled by their
    ``method``, ``dataset`` or ``r`` entry). ``agrees`` is None for these numeric rows.

    A qualitative comparison (a figure with no legible numbers, a sentence of the paper) is a key
    ``paper_<q>`` holding the paper's statement as text beside ``<q>`` (our number or text) and
    ``<q>_agrees`` (True, False, or None when no rule decides it here, e.g. a trend across cells); only keys
    with ``<q>_agrees`` beside
    them make such rows, so other ``paper_*`` text (notes, data set names) never does."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str) and k.startswith("paper_") and _is_number(v):
                q = k[6:]
                ours_key = q if q in data else (f"{q}_mean" if f"{q}_mean" in data else None)
                if ours_key == f"{q}_mean" and f"paper_{q}_mean" in data:
                    continue  # ``paper_<q>_mean`` beside ``<q>_mean`` makes this row already (no duplicate)
                if ours_key is not None and _is_number(data[ours_key]):
                    se = data.get(f"{q}_se")
                    agrees = data.get(f"{q}_agrees")
                    out.append(("/".join(path) or "value", q, float(v), float(data[ours_key]),
                                float(se) if _is_number(se) else None,
                                agrees if isinstance(agrees, bool) else None))  # fmt: skip
            elif isinstance(k, str) and k.startswith("paper_") and isinstance(v, str) and f"{k[6:]}_agrees" in data:
                q = k[6:]
                ours = data.get(q)
                if _is_number(ours) or isinstance(ours, str):
                    se = data.get(f"{q}_se")
                    agrees = data[f"{q}_agrees"]
                    out.append(("/".join(path) or "value", q, v, float(ours) if _is_number(ours) else ours,
                                float(se) if _is_number(se) and _is_number(ours) else None,
                                agrees if isinstance(agrees, bool) else None))  # fmt: skip
            elif isinstance(v, dict | list):
                out += _pair_rows(v, (*path, str(k)) if isinstance(v, dict) else path)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict):
                lab = next((str(item[x]) for x in ("method", "dataset", "r") if x in item), "")
                out += _pair_rows(item, (*path, lab) if lab else path)
    return out


def _agreement_text(agrees):
    return {True: "agrees", False: "DISAGREES", None: "not decided"}[agrees]


def _text_td(text):
    return f"<td class='small'>{_e(text)}</td>"


def _value_td(v):
    """A number right-aligned (:func:`_num_td`); a statement (a qualitative comparison) as wrapping text."""
    return _text_td(v) if isinstance(v, str) else _num_td(fmt_value(v))


def _data_kind(used):
    """"real data" for a row run on a paper's own file (its data text starts "real data:", as
    rpcheck.data_registry.DataSource labels it), else "stand-in"."""
    return "real data" if str(used).startswith("real data:") else "stand-in"


def _paper_vs_rpcheck(recs, anchors):
    """One table over every reproduction in the run: the paper's number, ours, the difference (with a 99%
    normal interval where the checker reports a standard error), the data and protocol, and the verdicts of
    the rows that carry the comparison."""
    groups = {}
    for r in recs:
        s = r.get("decide_info")
        if isinstance(s, str) and "paper_" in s:
            groups.setdefault((r["theorem"], _key(_params(r)), s), []).append(r)
    rows = []
    for (tid, _, s), rr in groups.items():
        try:
            data = json.loads(s)
        except (ValueError, RecursionError):
            continue
        if not isinstance(data, dict):
            continue
        params = _params(rr[0])
        used = data.get("data") or params.get("dataset") or params.get("family") or params.get("data") or ""
        how = data.get("protocol") or data.get("solver") or ""
        if len(rr) <= 3:
            verdicts = ", ".join(f"{_str(x.get('variant'))}: {_shown_verdict(x)}" for x in rr)
        else:
            verdicts = f"{len(rr)} rows: " + ", ".join(
                f"{v} ×{k}" for v, k in Counter(_shown_verdict(x) for x in rr).items()
            )
        n_unexp = sum(_unexpected(x) for x in rr)
        if n_unexp:
            verdicts += f"; {n_unexp} unexpected"
        cell = ", ".join(f"{k}={fmt_value(v)}" for k, v in params.items())
        pairs = _pair_rows(data)
        for i, (label, q, paper, ours, se, agrees) in enumerate(pairs):
            if isinstance(paper, str):  # qualitative: the paper states a shape, not a number
                dtxt = _agreement_text(agrees) + (f" (ours ± {fmt_value(_Z99 * se)}, 99%)" if se is not None else "")
            else:
                diff = ours - paper
                dtxt = fmt_value(diff) if se is None else f"{fmt_value(diff)} ± {fmt_value(_Z99 * se)} (99%)"
                if agrees is not None:
                    dtxt += f"; {_agreement_text(agrees)}"
            span = f' rowspan="{len(pairs)}"'
            first = (
                f'<td{span}><a href="#{anchors("t", tid)}">{_e(tid)}</a><div class="small muted">{_e(cell)}</div></td>'
                if i == 0
                else ""
            )
            last = (
                f"<td{span}><div><b>{_data_kind(used)}</b></div>{_e(fmt_value(used))}"
                f"<div class='small muted'>{_e(fmt_value(how))}</div></td>"
                f"<td{span} class='small'>{_e(verdicts)}</td>"
                if i == 0
                else ""
            )
            rows.append(
                f"<tr>{first}<td>{_e(label)}</td><td>{_e(q)}</td>{_value_td(paper)}"
                f"{_value_td(ours)}{_text_td(dtxt) if isinstance(paper, str) else _num_td(dtxt)}{last}</tr>"
            )
    if not rows:
        return ""
    return (
        '<section id="paper-vs-rpcheck"><h2>Paper vs rpcheck</h2><p class="small">Every number a reproduction '
        "compares with the paper: the paper's value, this run's, their difference (± the two-sided 99% normal "
        "interval where the checker reports a standard error), the data (marked real data -- a paper's own file, "
        "named with its SHA-256 -- or stand-in) and the protocol with its solver and loss, and the verdicts of "
        "the rows that use the comparison. Where the paper gives no number (a figure without legible values, a "
        "sentence), its statement stands in the paper column and the difference column says whether this run "
        "agrees with it.</p><details><summary>"
        f"{len(rows)} compared numbers</summary><table class=\"pv fixed\"><colgroup><col style=\"width:13%\">"
        '<col style="width:12%"><col style="width:10%"><col style="width:14%"><col style="width:8%">'
        '<col style="width:11%"><col style="width:18%"><col style="width:14%"></colgroup><thead><tr>'
        "<th>theorem · cell</th><th>row</th><th>quantity</th><th>paper</th><th>rpcheck</th>"
        "<th>rpcheck − paper or agreement</th>"
        f"<th>data · protocol</th><th>verdicts</th></tr></thead><tbody>{''.join(rows)}</tbody></table></details>"
        "</section>"
    )


def _constants_section(constants):
    if constants is None or len(constants) == 0:
        return ""
    cols = [c for c in constants.columns if c not in ("evaluations",)]
    head = "".join(f"<th>{_e(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(_num_td(fmt_value(v)) for v in rec.values()) + "</tr>"
        for rec in constants[cols].to_dict("records")
    )
    svg = plots.constants_svg(constants)
    return (
        '<h2 id="constants">Empirical constants</h2><p class="small">Smallest value of the target dimension whose '
        "exact one-sided upper confidence bound on the failure rate is at most delta (geometric grid, then bisection; "
        "re-tested on a fresh seed), and the implied constant c = empirical / formula, from <code>rpcheck "
        f"constant</code>.</p><div class=scroll><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
        "</table></div>"
        f"<div class='plots'>{svg}</div>"
    )


def _error_statement(prov):
    """The run's error-rate statement from the provenance (alpha, family sizes, sequential looks)."""
    alpha = _num(prov.get("alpha"))
    fam = prov.get("family_size")
    parts = []
    if isinstance(prov.get("family"), str) and prov["family"]:
        parts.append(_e(prov["family"]))
    if math.isfinite(alpha):
        a = _e(_fmt(alpha))
        if isinstance(fam, dict) and ("violated" in fam or "holds" in fam):
            mv, mh = _int(fam.get("violated")), _int(fam.get("holds"))
            if prov.get("sequential") in (True, "true", "True"):
                looks = _e(_fmt(prov.get("sequential_looks")))
                rule = f"Bonferroni at level α/(m·K) at each of K = {looks} looks"
            else:
                rule = "Holm–Bonferroni"
            parts.append(
                f"One multiple-testing family for the whole run (the rows of mode bound or exact). {rule} at "
                f"α = {a} over the <b>{_e(mv)}</b> refutation tests: P(any false VIOLATED among them) ≤ {a}; "
                f"and, separately, over the <b>{_e(mh)}</b> support tests of the bound rows: P(any false HOLDS "
                f"among them) ≤ {a}. A VIOLATED of mode deterministic or search is a concrete, replayable "
                "counterexample (no sampling error); the claim beside every HOLDS states what the data support."
            )
        else:
            parts.append(f"α = {a}; the family size is not recorded in the provenance of this run.")
    else:
        parts.append("The provenance of this run records no α: the verdicts carry no stated error rate here.")
    return '<p class="err">Error rates. ' + " ".join(parts) + "</p>"


def _decision_rows(entries, anchors):
    rows = "".join(
        f'<tr><td><a href="#{anchors("t", e["theorem"])}">{_e(e["theorem"])}</a> · <code>{_e(e["variant"])}</code> '
        f'cell {_e(e["cell"])}<div class="small muted">{_e(_plabel(e["params"], list(e["params"])))}</div></td>'
        f'<td>{_badge(e["verdict"])} expected {_e(e["expected"])}</td>'
        f'<td class="small">{_e("; ".join(t for t in (e["claim"], e["needs"]) if t))}</td></tr>'
        for e in entries
    )
    return (
        '<table class="fixed"><colgroup><col style="width:34%"><col style="width:18%"><col></colgroup><thead><tr>'
        f"<th>row</th><th>verdict</th><th>what would decide it</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _decision_card(decision, anchors):
    """The first card of the overview: the run's decision rate (rpcheck.report.decision) and the rows it left
    undecided or without evidence, each with what would decide it."""
    from .decision import MAX_LISTED

    def count(d, word):
        extra = f", {len(d['no_evidence'])} vacuous (no evidence)" if d["no_evidence"] else ""
        return (f"decided <b>{d['decided']}</b> of {d['total']} {word} with an expected verdict (HOLDS or VIOLATED); "
                f"{len(d['undecided'])} undecided{extra}")  # fmt: skip

    sc = decision["self_checks"]
    head = count(decision, "claims") + (f"<br>{count(sc, 'self-checks')}" if sc["total"] else "")
    parts = [f'<div class="card decision" id="decision"><span class="big">Decision rate</span>{head}']
    for label, rows in (
        ("Undecided", decision["undecided"] + sc["undecided"]),
        ("Vacuous (no evidence)", decision["no_evidence"] + sc["no_evidence"]),
    ):
        if not rows:
            continue
        parts.append(f"<h4>{label} ({len(rows)})</h4>{_decision_rows(rows[:MAX_LISTED], anchors)}")
        if len(rows) > MAX_LISTED:
            parts.append(
                f"<details><summary>… and {len(rows) - MAX_LISTED} more</summary>"
                f"{_decision_rows(rows[MAX_LISTED:], anchors)}</details>"
            )
    parts.append("</div>")
    return "".join(parts)


def _overview(recs, theorem_ids, anchors, finding_counts, prov, decision=None):
    by_role = {r: [x for x in recs if _role(x) == r] for r in ROLES}
    claim_counts = Counter(_str(x.get("verdict")) for x in by_role["claim"])
    cards = "".join(
        f'<div class="card">{_badge(v)}<b>{int(claim_counts.get(v, 0))}</b>theorem verdicts</div>' for v in VERDICTS
    )
    other = [v for v in claim_counts if v not in VERDICTS]
    if other:
        cards += f'<div class="card">other verdict values<b>{sum(claim_counts[v] for v in other)}</b></div>'
    n_unexp = sum(_unexpected(x) for x in recs)
    for role, word in (("self-check", "self-checks"), ("control", "negative controls")):
        rr = by_role[role]
        if rr:
            ok = sum(not _unexpected(x) for x in rr)
            cards += f'<div class="card">{word}<b>{len(rr)}</b>{ok} as expected</div>'
    if by_role["measurement"]:
        cards += f'<div class="card">{_badge("MEASURED")}<b>{len(by_role["measurement"])}</b>measured, no verdict</div>'
    cards += f'<div class="card">unexpected verdicts<b>{n_unexp}</b>of {len(recs)} rows</div>'
    nf = sum(finding_counts.values())
    fdetail = ", ".join(f"{v} {k}" for k, v in finding_counts.items())
    metas = [m for m in map(_theorem_meta, theorem_ids) if m is not None]
    n_err = sum(f.kind == "paper error" for m in metas for f in m.findings)
    fdetail += f"; {n_err} paper error{'s' if n_err != 1 else ''}" if nf else ""
    cards += f'<div class="card"><a href="#findings">findings</a><b>{nf}</b>{_e(fdetail)}</div>'

    trows = []
    for order, tid in enumerate(theorem_ids):
        tc = [x for x in recs if x["theorem"] == tid]
        meta = _theorem_meta(tid)
        paper = _str(tc[0].get("paper")) if tc else ""
        strips, unexp = [], 0
        variants = list(dict.fromkeys(_str(x.get("variant")) for x in tc))
        for v in variants:
            vr = [x for x in tc if _str(x.get("variant")) == v]
            role = _role(vr[0])
            tag = f'<span class="tag">{_e(role)}</span>' if role != "claim" else ""
            letters = "".join(
                _letter(
                    _shown_verdict(x),
                    unexpected=_unexpected(x),
                    title=f"cell {_fmt(x.get('cell'))}: {_shown_verdict(x)}"  # the variant heads the strip
                    + (f" (expected {_expected(x)})" if _unexpected(x) else ""),
                )  # fmt: skip
                for x in vr
            )
            unexp += sum(_unexpected(x) for x in vr)
            strips.append(f'<span class="strip"><code>{_e(v)}</code>{tag}{letters}</span>')
        title = getattr(meta, "title", "") if meta else ""
        trows.append(
            (
                -unexp, order,
                f'<tr{" class=unexp-row" if unexp else ""}><td>{_e(paper)}</td><td><a href="#{anchors("t", tid)}">'
                f'{_e(tid)}</a><div class="small muted">{_e(title)}</div></td><td>{"".join(strips)}</td>'
                f'<td class="num">{unexp or ""}</td></tr>',
            )
        )  # fmt: skip
    trows.sort(key=lambda t: (t[0], t[1]))
    legend = " ".join(f"{_letter(v)} {_e(v.lower())}" for v in (*VERDICTS, "MEASURED"))
    table = (
        '<table class="overview"><colgroup><col style="width:9%"><col style="width:24%"><col><col style="width:7%">'
        "</colgroup><thead><tr><th>paper</th><th>theorem</th><th>verdict per cell, by variant</th>"
        f"<th>unexp.</th></tr></thead><tbody>{''.join(t[2] for t in trows)}</tbody></table>"
    )
    if decision is not None:
        cards = _decision_card(decision, anchors) + cards
    return (
        f'<section id="overview"><h2>Overview</h2><div class="cards">{cards}</div>{_error_statement(prov)}'
        f'<p class="small">Strip legend: {legend}; a letter with "!" and an orange outline differs from the expected '
        "verdict (hover for the cell). Self-checks and negative controls are tagged and counted apart from the "
        "theorem verdicts; measured rows carry no verdict. Rows with unexpected verdicts come first.</p>"
        f"{table}</section>"
    )


def _provenance(prov):
    rows = "".join(
        f"<tr><th>{_e(k)}</th><td>{_e(json.dumps(v, default=str) if isinstance(v, dict | list) else v)}</td></tr>"
        for k, v in prov.items()
    )
    return (
        '<details id="provenance"><summary><b>Provenance</b>: versions, solver, seed, profile, git commit, times, '
        f'α, backend</summary><table class="pv">{rows}</table></details>'
    )


def _prepare(result):
    """(cell records with ``theorem``/``variant``/``paper`` as strings, :class:`_Trials`, provenance dict)."""
    cells = getattr(result, "cells", None)
    recs = cells.to_dict("records") if cells is not None and len(cells) else []
    for r in recs:
        for col in ("theorem", "variant", "paper"):
            r[col] = _str(r.get(col))
    prov = getattr(result, "provenance", None)
    prov = dict(prov) if isinstance(prov, dict) or hasattr(prov, "items") else {}
    tables = getattr(result, "trial_tables", None)
    if tables is not None:  # a RunResult: per-theorem tables (never its one-table ``trials`` of every theorem)
        return recs, _Trials(tables=tables), prov
    return recs, _Trials(getattr(result, "trials", None)), prov


#: End tags HTML makes optional (a cell ends at the next cell or row, a row at the next row or the table's
#: end): left out of the page, they are about a tenth of a large report. Every string from the results is
#: escaped, so these sequences occur only as tags.
_OPTIONAL_END_TAGS = ("</td>", "</th>", "</tr>")


def _page(title, body):
    for tag in _OPTIONAL_END_TAGS:
        body = body.replace(tag, "")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>{body}</body></html>\n"
    )


def render_report(result, *, title="rpcheck verification report", constants=None):
    """Render a RunResult (anything with ``cells``, ``trials`` and ``provenance``) to one HTML string.

    Parameters
    ----------
    result : RunResult or similar
    title : str
    constants : pandas.DataFrame, optional
        The table written by ``rpcheck constant`` (one row per searched cell).

    Returns
    -------
    str
        A complete HTML document: no scripts, no external resources, every data string escaped, every plot
        inline (:func:`write_report` moves the per-trial distributions to a companion page).
    """
    return _render(result, title=title, constants=constants)[0]


def _render(result, *, title="rpcheck verification report", constants=None, companion=None):
    """``(report page, companion page or None)``. ``companion``: the file name of the companion page that
    receives the statistic/bound distributions (``None``: inline, no companion page)."""
    recs, trials, prov = _prepare(result)
    anchors = _Anchors()
    sink = None if companion is None else (companion, {})
    by_theorem = {}
    for r in recs:
        by_theorem.setdefault(r["theorem"], []).append(r)
    theorem_ids = list(by_theorem)
    papers = {}
    for tid in theorem_ids:
        papers.setdefault(by_theorem[tid][0]["paper"] or "(no paper)", []).append(tid)
    findings_html, finding_counts = _findings(recs, theorem_ids, anchors)
    from .decision import decision_rate

    decision = decision_rate(getattr(result, "cells", None), prov)
    overview = _overview(recs, theorem_ids, anchors, finding_counts, prov, decision)
    paper_vs = _paper_vs_rpcheck(recs, anchors)
    toc = ['<li><a href="#overview">Overview</a></li><li><a href="#findings">Findings</a></li>']
    if paper_vs:
        toc.append('<li><a href="#paper-vs-rpcheck">Paper vs rpcheck</a></li>')
    if constants is not None and len(constants):
        toc.append('<li><a href="#constants">Empirical constants</a></li>')
    sections = []
    for paper, tids in papers.items():
        pid = anchors("p", paper)
        toc.append(
            f'<li><a href="#{pid}">{_e(paper)}</a><ul>'
            + "".join(f'<li><a href="#{anchors("t", t)}">{_e(t)}</a></li>' for t in tids)
            + "</ul></li>"
        )
        meta = _theorem_meta(tids[0])
        cite = ""
        if meta is not None:
            c = meta.citation
            cite = f' <span class="small muted">— {_e(c.authors)} ({_e(c.year)}), <i>{_e(c.title)}</i></span>'
        sections.append(f'<section class="paper" id="{pid}"><h2>{_e(paper)}{cite}</h2>')
        for tid in tids:
            sections.append(_theorem_section(tid, by_theorem[tid], trials, anchors, companion=sink))
        sections.append("</section>")
    toc.append('<li><a href="#provenance">Provenance</a></li>')
    generated = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    body = (
        f"<h1>{_e(title)}</h1><p class='muted small'>Generated {generated}. Verdicts: HOLDS (the data support the "
        "claim at the stated level), VIOLATED (the data refute it), INCONCLUSIVE (neither), VACUOUS (the bound "
        "cannot be informative), measured (a measurement with no decision rule).</p>"
        f'{overview}<nav id="toc"><h2>Contents</h2><ul>{"".join(toc)}</ul></nav>'
        f'<section id="findings"><h2>Findings</h2>{findings_html}</section>{paper_vs}'
        f"{_constants_section(constants)}{''.join(sections)}<h2>Provenance</h2>{_provenance(prov)}"
    )
    extra = None
    if sink is not None and sink[1]:
        extra = _page(
            f"{title}: distributions",
            f"<h1>{_e(title)}: statistic / bound per cell</h1><p class='muted small'>Generated {generated}, companion "
            "of the report beside it: per theorem, the quantiles of statistic / bound over the trials of each cell "
            f"(median, 5%–95%, max) against the claim's line at 1.</p>{''.join(sink[1].values())}",
        )
    return _page(title, body), extra


def render_theorem_section(result, theorem_id, *, full_page=True):
    """Render one theorem's section on its own (e.g. for a paper's supplementary material).

    Parameters
    ----------
    result : RunResult or similar
    theorem_id : str
    full_page : bool
        ``True`` (default): a complete, self-contained HTML document (styles inline, the run's error-rate
        statement and provenance included). ``False``: the ``<section>`` fragment alone (it expects the
        report's stylesheet).

    Returns
    -------
    str
    """
    recs, trials, prov = _prepare(result)
    tc = [r for r in recs if r["theorem"] == str(theorem_id)]
    if not tc:
        from ..errors import RpcheckError

        known = ", ".join(repr(t) for t in dict.fromkeys(r["theorem"] for r in recs))
        raise RpcheckError(f"`theorem_id` ({str(theorem_id)!r}) has no rows in this result; it has: {known}.")
    anchors = _Anchors()
    section = _theorem_section(str(theorem_id), tc, trials, anchors, heading="h2")
    if not full_page:
        return section
    body = f"{section}<h2>Error rates and provenance</h2>{_error_statement(prov)}{_provenance(prov)}"
    return _page(f"rpcheck: {theorem_id}", body)


def write_report(result, path, *, title="rpcheck verification report", constants=None):
    """Render and write the report atomically (temporary file + ``os.replace``, with the permissions of an
    ordinary new file: ``0o666`` minus the umask, not ``mkstemp``'s ``0o600``); returns the Path.

    The per-trial distributions of statistic / bound (a plot row per cell, collapsed and secondary) go to a
    companion page ``<stem>-distributions.html`` beside it, linked from each theorem's section, so that the
    report stays small (about 15% of its size at the quick profile); without distributions, no companion."""
    from ..engine.store import atomic_write_text

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    companion = path.with_name(f"{path.stem}-distributions.html")
    text, extra = _render(result, title=title, constants=constants, companion=companion.name)
    if extra is not None:
        atomic_write_text(companion, extra)
    atomic_write_text(path, text)
    return path
