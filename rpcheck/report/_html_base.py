"""Vocabulary, CSS and small helpers of the HTML report (:mod:`rpcheck.report.html`): verdict
letters and badges, the missing-value rules of untrusted cells, parameters, anchors and the claim column."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from ..engine import registry
from ._text import esc as _e
from ._text import fmt_num as _fmt
from ._text import fmt_value
from .model import VERDICTS
from .model import role as _role

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
span[class^=v-]{font-weight:700;padding:0 5px;border-radius:3px;color:#fff;white-space:nowrap;display:inline-block}
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
i[class^=v-]{display:inline-block;min-width:1.25em;text-align:center;font:normal 700 11px/1.4 "DejaVu Sans Mono",
monospace;color:#fff;border-radius:2px;padding:0 1px}
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
 span[class^=v-],i[class^=v-]{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


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
    """The verdict as a coloured label, ``<span class=v-HOLDS>HOLDS</span>``; an unexpected one outlined, with
    the expected verdict beside it."""
    cls = f"v-{v}" if v in VERDICTS or v == "MEASURED" else "v-x"
    if unexpected:
        return (
            f'<span class="{cls} unexp" title="expected {_e(expected)}">{_e(v)}</span>'
            f' <span class="small">(expected {_e(expected) or "—"})</span>'
        )
    return f"<span class={cls}>{_e(v)}</span>"


def _letter(v, *, unexpected=False, title=""):
    """One letter of a verdict strip, ``<i class=v-HOLDS>H</i>``: the letter and its colour say the verdict,
    so only an unexpected letter (marked "!", outlined) carries a ``title`` (the cell and the expected
    verdict)."""
    cls = f"v-{v}" if v in VERDICTS or v == "MEASURED" else "v-x"
    letter = LETTERS.get(v, "?")
    if unexpected:
        return f'<i class="{cls} unexp" title="{_e(title)}">{_e(letter)}!</i>'
    return f"<i class={cls}>{_e(letter)}</i>"


def _theorem_meta(theorem_id):
    try:
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


