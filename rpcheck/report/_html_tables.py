"""Tables of the HTML report (:mod:`rpcheck.report.html`): the cells table of a variant and the
measurement tables of ``decide_info`` (nested JSON as stacked tables)."""

from __future__ import annotations

import json
import math

from ._html_base import (
    AS_ABOVE_CHARS,
    MAX_JSON_COLUMNS,
    MAX_PARAM_COLUMNS,
    ROW_KEYS,
    _badge,
    _claim,
    _expected,
    _int,
    _num,
    _plabel,
    _shown_verdict,
    _str,
    _unexpected,
)
from ._text import esc as _e
from ._text import fmt_num as _fmt
from ._text import fmt_value, safe_href

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


#: Modes whose rows are decided without a sampling error (one certified counterexample refutes, a decide() hook
#: measures): their tables have no "rate [exact CI]" column; the claim column states what the draws support.
RATELESS_MODES = ("deterministic", "search", "report")


def _cells_table(rows, plist, varying, mode=""):
    """One row per cell. At most ``MAX_PARAM_COLUMNS`` parameter columns; more varying parameters share one
    wrapping column (so the table fits 1280 px). A table of a mode in ``RATELESS_MODES`` names its mode once in
    the header instead of a rate column."""
    one_col = len(varying) > MAX_PARAM_COLUMNS
    rate = mode not in RATELESS_MODES
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
    counts = "<th>failures / evaluated</th>" + ("<th>rate [exact CI]</th>" if rate else "")
    if not rate:
        counts = f"<th>failures / evaluated · {_e(mode)}</th>"
    head = ("<th>parameters</th>" if one_col else "".join(f"<th>{_e(k)}</th>" for k in varying)) + (
        counts
        + "".join(f"<th>{_e(k)}</th>" for k in optional)
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
        verdict = _badge(shown, unexpected=unexp, expected=_expected(r))  # the variant's heading tags its role
        body.append(
            f"<tr{' class=unexp-row' if unexp else ''}>"
            + (
                f'<td class="small">{_e(_plabel(p, varying))}</td>'
                if one_col
                else "".join(_num_td(fmt_value(p.get(k)), bare=True) for k in varying)
            )
            + f'<td>{_e(_fmt(r.get("failures")))} / {_e(_fmt(r.get("evaluated")))}'
            + (f'<div class="muted small">{_e(", ".join(notes))}</div>' if notes else "")
            + (f'</td><td>{_e(_fmt(_num(r.get("failure_rate"))))}{_e(ci)}</td>' if rate else "</td>")
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


