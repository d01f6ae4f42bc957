"""Self-contained HTML verification report (inline CSS and SVG; no scripts, no network resources).

The report only presents what the engine produced (``RunResult.cells``, ``.trials``, ``.provenance``) plus
the theorem metadata from the registry (statements, citations, variants, findings). Every string that
comes from a user, a parameter or a data file is escaped.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from . import plots

__all__ = ["render_report", "write_report"]

VERDICTS = ("HOLDS", "VIOLATED", "INCONCLUSIVE", "VACUOUS")

_CSS = """
:root{--ok:#1b7f3b;--bad:#b3261e;--inc:#8a6500;--vac:#5f5f5f;--bg:#fff;--fg:#1d1d1f;--mut:#666;--line:#ddd}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1180px;padding:24px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .3em;border-bottom:2px solid var(--line)}
h3{font-size:1.05em;margin:1.1em 0 .3em}
code,pre{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
pre.stmt{background:#f6f7f9;border-left:3px solid #4a6fa5;padding:8px 10px;white-space:pre-wrap;margin:.4em 0}
table{border-collapse:collapse;margin:.4em 0 1em;font-size:12.5px;width:100%}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f0f2f5}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.v{font-weight:700;padding:1px 6px;border-radius:3px;color:#fff;white-space:nowrap}
.v-HOLDS{background:var(--ok)}.v-VIOLATED{background:var(--bad)}.v-INCONCLUSIVE{background:var(--inc)}
.v-VACUOUS{background:var(--vac)}
.unexp{outline:3px solid #e8a200}
.muted{color:var(--mut)}.small{font-size:12px}
.cards{display:flex;gap:10px;flex-wrap:wrap;margin:.6em 0}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:130px}
.card b{font-size:1.5em;display:block}
.scroll{overflow-x:auto}
.plots{display:flex;flex-wrap:wrap;gap:10px}.plots svg{max-width:100%;height:auto}
nav ul{columns:2;font-size:13px}
@media print{body{max-width:none;padding:0}h2{break-before:auto}.theorem{break-inside:avoid-page}
 .v{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


def _e(x):
    """Escape anything for HTML text/attribute context."""
    return html.escape("" if x is None else str(x), quote=True)


def _fmt(x, digits=4):
    if x is None:
        return ""
    if isinstance(x, float | np.floating):
        if math.isnan(x):
            return ""
        if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
            return f"{x:.{digits - 1}e}"
        return f"{x:.{digits}g}"
    return str(x)


def _verdict(v, expected=None):
    v = "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
    cls = f"v v-{_e(v)}" if v in VERDICTS else "v"
    unexpected = expected not in (None, "", v) and not (isinstance(expected, float) and math.isnan(expected))
    extra = " unexp" if unexpected else ""
    title = f' title="expected {_e(expected)}"' if unexpected else ""
    return f'<span class="{cls}{extra}"{title}>{_e(v)}</span>'


def _theorem_meta(theorem_id):
    try:
        from ..engine import registry

        return registry.get(theorem_id)
    except Exception:  # a user theorem not in the registry: the tables still render
        return None


def _param_cols(df):
    return [c for c in df.columns if c.startswith("p_")]


def _cells_table(cells, *, base_href=""):
    pcols = _param_cols(cells)
    pcols = [c for c in pcols if cells[c].notna().any()]
    head = (
        "".join(f"<th>{_e(c[2:])}</th>" for c in pcols)
        + "<th>failures / evaluated</th><th>trials</th><th>vacuous</th><th>solver err.</th>"
        + "<th>rate</th><th>exact CI</th><th>promised</th><th>p-value</th><th>Holm α</th>"
        + "<th>stat q50 / q95 / max</th><th>worst slack</th><th>verdict</th><th>expected</th><th>evidence</th>"
    )
    rows = []
    for _, c in cells.iterrows():
        ci = f"[{_fmt(c.get('ci_low'))}, {_fmt(c.get('ci_high'))}]" if pd.notna(c.get("ci_low")) else ""
        stats = " / ".join(_fmt(c.get(k)) for k in ("stat_q50", "stat_q95", "stat_max"))
        cx = c.get("counterexample")
        evid = f'<a href="{_e(base_href + str(cx))}">counterexample</a>' if isinstance(cx, str) and cx else ""
        reason = c.get("vacuous_reason")
        if isinstance(reason, str) and reason:
            evid += f'<div class="muted small">{_e(reason)}</div>'
        exp = c.get("expected")
        exp = "" if exp is None or (isinstance(exp, float) and math.isnan(exp)) else exp
        rows.append(
            "<tr>"
            + "".join(f'<td class="num">{_e(_fmt(c.get(p)))}</td>' for p in pcols)
            + f'<td class="num">{_e(c.get("failures"))} / {_e(c.get("evaluated"))}</td>'
            + f'<td class="num">{_e(c.get("trials"))}</td><td class="num">{_e(c.get("vacuous_trials"))}</td>'
            + f'<td class="num">{_e(c.get("solver_errors"))}</td>'
            + f'<td class="num">{_e(_fmt(c.get("failure_rate")))}</td><td class="num">{_e(ci)}</td>'
            + f'<td class="num">{_e(_fmt(c.get("promised")))}</td><td class="num">{_e(_fmt(c.get("pvalue")))}</td>'
            + f'<td class="num">{_e(_fmt(c.get("alpha_adjusted")))}</td><td class="num">{_e(stats)}</td>'
            + f'<td class="num">{_e(_fmt(c.get("slack_min")))}</td>'
            + f"<td>{_verdict(c.get('verdict'), exp)}</td><td>{_e(exp)}</td><td>{evid}</td></tr>"
        )
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def _decide_tables(cells, seen):
    """Render the ``decide_info`` JSON column (what a report-mode variant's ``decide`` hook measured: tables of
    errors, margins, claims supported or contradicted). A table already shown for this theorem (``seen``) is
    not repeated."""
    if "decide_info" not in cells:
        return ""
    out = []
    for _, c in cells.iterrows():
        s = c.get("decide_info")
        if not isinstance(s, str) or len(s) <= 2 or s in seen:
            continue
        seen.add(s)
        try:
            data = json.loads(s)
        except ValueError:
            out.append(f"<pre>{_e(s)}</pre>")
            continue
        out.append(f'<div class="scroll">{_json_block(data)}</div>')
    return "".join(out)


def _json_block(data):
    scalar = (str, int, float, bool, type(None))
    if (
        isinstance(data, dict)
        and data
        and all(isinstance(v, list) and all(isinstance(x, scalar) for x in v) for v in data.values())
    ):
        try:
            return pd.DataFrame(data).to_html(index=False, escape=True, border=0, float_format=_fmt)
        except ValueError:
            pass
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        return pd.DataFrame(data).to_html(index=False, escape=True, border=0, float_format=_fmt)
    if isinstance(data, dict):
        rows = "".join(
            f"<tr><th>{_e(k)}</th><td>{_json_block(v) if isinstance(v, dict | list) else _e(_fmt(v))}</td></tr>"
            for k, v in data.items()
        )
        return f"<table>{rows}</table>"
    return f"<pre>{_e(json.dumps(data, indent=1, default=str))}</pre>"


def _theorem_section(tid, cells, trials, idx):
    meta = _theorem_meta(tid)
    parts = [f'<section class="theorem" id="{_e(_anchor(tid))}">']
    title = getattr(meta, "title", "") if meta else ""
    parts.append(f"<h2>{_e(tid)}{' — ' + _e(title) if title else ''}</h2>")
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
        vrows = "".join(
            f"<tr><td><code>{_e(v.name)}</code></td><td>{_e(v.mode)}</td><td>{_e(v.statement)}</td>"
            f"<td>{_e('; '.join(v.assumed))}</td><td>{_e(v.note)}</td></tr>"
            for v in meta.variants
        )
        parts.append(
            "<h3>Variants</h3><table><thead><tr><th>variant</th><th>mode</th><th>statement tested</th>"
            f"<th>assumed (reconstructed)</th><th>note</th></tr></thead><tbody>{vrows}</tbody></table>"
        )
    seen = set()
    for v_i, (variant, vc) in enumerate(cells.groupby("variant", sort=False)):
        mode = vc["mode"].iloc[0] if "mode" in vc else ""
        parts.append(f"<h3>Variant <code>{_e(variant)}</code> <span class='muted small'>({_e(mode)})</span></h3>")
        parts.append(_cells_table(vc))
        parts.append(_decide_tables(vc, seen))
        svgs = []
        if mode in ("bound", "exact"):
            for x in ("p_r", "p_n", "p_m", "p_k", "p_a", "p_eps"):
                svg = plots.failure_rate_svg(
                    vc, x, prefix=f"t{idx}v{v_i}{x}", title=f"{variant}: failure rate vs {x[2:]}"
                )
                if svg:
                    svgs.append(svg)
                    break
        if trials is not None and len(trials):
            svg = plots.statistic_svg(trials, variant, prefix=f"t{idx}v{v_i}s", title=f"{variant}: statistic vs bound")
            if svg:
                svgs.append(svg)
        if svgs:
            parts.append('<div class="plots">' + "".join(svgs) + "</div>")
    parts.append("</section>")
    return "".join(parts)


def _anchor(tid):
    return "t-" + "".join(ch if ch.isalnum() else "-" for ch in str(tid))


def _findings(cells, theorem_ids):
    rows = []
    for tid in theorem_ids:
        meta = _theorem_meta(tid)
        if meta is None or not meta.findings:
            continue
        tc = cells[cells["theorem"] == tid]
        for f in meta.findings:
            ev = tc[tc["variant"] == f.evidence_variant] if f.evidence_variant else tc.iloc[0:0]
            if len(ev):
                verdicts = ", ".join(f"{k}×{v}" for k, v in ev["verdict"].value_counts().items())
                fails = int(pd.to_numeric(ev["failures"], errors="coerce").fillna(0).sum())
                evaluated = int(pd.to_numeric(ev["evaluated"], errors="coerce").fillna(0).sum())
                expected_ok = bool(ev["as_expected"].all()) if "as_expected" in ev else True
                status = "confirmed" if expected_ok else "NOT reproduced in this run"
                links = [
                    f'<a href="{_e(cx)}">{_e(os.path.basename(cx))}</a>'
                    for cx in ev.get("counterexample", pd.Series(dtype=str)).dropna()
                    if isinstance(cx, str) and cx
                ][:3]
                if "mode" in ev and (ev["mode"] == "report").all():
                    evidence = f"{verdicts}; decided from the measurements in the theorem's section " + " ".join(links)
                else:
                    evidence = f"{verdicts}; {fails} failures in {evaluated} evaluated trials " + " ".join(links)
            else:
                status, evidence = "not run", ""
            rows.append(
                f'<tr><td><a href="#{_e(_anchor(tid))}">{_e(tid)}</a></td><td><code>{_e(f.key)}</code></td>'
                f"<td>{_e(f.summary)}<div class='muted small'>{_e(f.spec_ref)}</div></td>"
                f"<td><code>{_e(f.evidence_variant or '')}</code></td><td>{_e(status)}</td><td>{evidence}</td></tr>"
            )
    if not rows:
        return "<p class='muted'>No findings recorded for the theorems in this run.</p>"
    return (
        '<div class="scroll"><table><thead><tr><th>theorem</th><th>finding</th><th>what differs</th>'
        "<th>evidence variant</th><th>status</th><th>evidence</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _constants_section(constants):
    if constants is None or len(constants) == 0:
        return ""
    cols = [c for c in constants.columns if c not in ("evaluations",)]
    table = constants[cols].to_html(index=False, escape=True, border=0, float_format=_fmt, na_rep="")
    svg = plots.constants_svg(constants, prefix="const", title="implied constant per searched cell")
    return (
        "<h2>Empirical constants</h2><p class='small'>Smallest value of the target dimension whose exact "
        "one-sided upper confidence bound on the failure rate is at most delta (geometric grid, then bisection; "
        "re-tested on a fresh seed), and the implied constant c = empirical / formula, from <code>rpcheck "
        f"constant</code>.</p><div class='scroll'>{table}</div><div class='plots'>{svg}</div>"
    )


def render_report(result, *, title="rpcheck verification report", constants=None):
    """Render a RunResult (anything with ``cells``, ``trials`` and ``provenance``) to one HTML string.

    ``constants`` is an optional table written by ``rpcheck constant`` (one row per searched cell)."""
    cells = result.cells.copy()
    trials = getattr(result, "trials", None)
    prov = dict(getattr(result, "provenance", {}) or {})
    theorem_ids = list(dict.fromkeys(cells["theorem"])) if len(cells) else []
    counts = cells["verdict"].astype(str).value_counts() if len(cells) else pd.Series(dtype=int)
    unexpected = int((~cells["as_expected"].astype(bool)).sum()) if "as_expected" in cells and len(cells) else 0
    cards = "".join(
        f'<div class="card"><span class="v v-{v}">{v}</span><b>{int(counts.get(v, 0))}</b>cells</div>' for v in VERDICTS
    )
    cards += f'<div class="card">unexpected verdicts<b>{unexpected}</b></div>'
    env_rows = "".join(
        f"<tr><th>{_e(k)}</th><td>{_e(json.dumps(v) if isinstance(v, dict | list) else v)}</td></tr>"
        for k, v in prov.items()
    )
    nav = "".join(f'<li><a href="#{_e(_anchor(t))}">{_e(t)}</a></li>' for t in theorem_ids)
    sections = []
    for i, tid in enumerate(theorem_ids):
        tc = cells[cells["theorem"] == tid]
        tt = trials[trials["theorem"] == tid] if trials is not None and len(trials) else None
        if tt is not None:
            tt = tt.dropna(axis=1, how="all")
        sections.append(_theorem_section(tid, tc, tt, i))
    generated = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1><p class='muted'>Generated {generated}. Verdicts: HOLDS (data support the claim at the "
        "stated level), VIOLATED (data refute it), INCONCLUSIVE (neither), VACUOUS (the bound cannot be informative). "
        "Outlined verdicts differ from the expected one.</p>"
        f"<h2>Summary</h2><div class='cards'>{cards}</div>"
        f"<h3>Environment and provenance</h3><table>{env_rows}</table>"
        f"<h2>Findings</h2>{_findings(cells, theorem_ids)}"
        f"{_constants_section(constants)}"
        f"<h2>Theorems</h2><nav><ul>{nav}</ul></nav>" + "".join(sections) + "</body></html>\n"
    )


def write_report(result, path, *, title="rpcheck verification report", constants=None):
    """Render and write the report atomically (temporary file + ``os.replace``); returns the Path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = render_report(result, title=title, constants=constants)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".report-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
