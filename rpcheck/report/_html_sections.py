"""Sections of the HTML report (:mod:`rpcheck.report.html`): one theorem, the findings, the table
of the papers' numbers against rpcheck's, and the empirical constants."""

from __future__ import annotations

import json
from collections import Counter

from ..engine.theorem import FINDING_KINDS
from . import plots
from ._html_base import (
    AS_ABOVE_CHARS,
    COLLAPSE_ROWS,
    LETTERS,
    _int,
    _is_number,
    _key,
    _params,
    _plabel,
    _shown_verdict,
    _split_params,
    _str,
    _theorem_meta,
    _unexpected,
)
from ._html_plots import _ratio_plot, _variant_plots
from ._html_tables import _cells_table, _counterexample_html, _decide_tables, _num_td
from ._text import esc as _e
from ._text import fmt_num as _fmt
from ._text import fmt_value, safe_href
from .model import role as _role

# ---------------------------------------------------------------------------------------------------------
# sections


def _verdict_counts(rows):
    c = Counter(_shown_verdict(r) for r in rows)
    return ", ".join(f"{LETTERS.get(k, '?')} {_e(k)} {v}" for k, v in sorted(c.items()))


def _theorem_section(tid, rows_all, trials, anchors, *, heading="h3", companion=None):
    """One theorem: citation, statement, variants, and per variant its cells table, measurements and plots.
    ``rows_all`` are the theorem's cell records, ``trials`` a :class:`_Trials`. ``companion``: ``(file
    name, dict, report's file name)``: the theorem's plots (per variant, and its statistic/bound
    distributions) go to ``dict[anchor]`` (a companion page written beside the report, its heading linking
    back) and the section links to each, naming the plots; ``None``: they are inline."""
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
    elsewhere = []  # (companion mode) the theorem's part of the companion page
    href = _e(safe_href(companion[0]) or "") if companion is not None else ""
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
        table = _cells_table(rows, plist, varying, mode)
        if len(rows) > COLLAPSE_ROWS and not unexp:
            parts.append(f"<details><summary>{len(rows)} cells (table)</summary>{table}</details>")
        else:
            parts.append(table)
        parts.append(_decide_tables(rows, plist, varying, seen))
        shown, ratio = _variant_plots(tid, variant, mode, rows, plist, trials, varying, plotted)
        if shown and companion is not None:
            va = anchors("v", f"{tid} {variant}")
            elsewhere.append(
                f'<h3 id="{va}">Variant <code>{_e(variant)}</code></h3><div class="plots">'
                + "".join(svg for _, svg in shown) + "</div>"
            )
            what = "; ".join(t.removeprefix(f"{variant}: ") for t, _ in shown)
            parts.append(f'<p class="small">Plots: <a href="{href}#{va}">{_e(what)}</a>, on the companion page.</p>')
        elif shown:
            parts.append('<div class="plots">' + "".join(svg for _, svg in shown) + "</div>")
        ratios.extend(ratio)
    block = _ratio_plot(ratios)
    if companion is not None:
        name, sink, report = companion
        anchor = anchors("t", tid)
        if block:
            elsewhere.append(block.replace("<details>", "<details open>", 1))
            parts.append(
                f'<p class="small">Distribution of statistic / bound per cell ({len(ratios)} cells): '
                f'<a href="{href}#{anchor}">{_e(name)}</a>, beside this report.</p>'
            )
        if elsewhere:
            back = f'<a href="{_e(safe_href(report) or "")}#{anchor}">{_e(tid)}</a>'  # the theorem in the report
            sink[anchor] = f'<section id="{anchor}"><h2>{back}</h2>{"".join(elsewhere)}</section>'
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
    return f"<td>{_e(text)}</td>"  # small type: the table's class "pv" sets it for every cell


def _value_td(v):
    """A number right-aligned (:func:`_num_td`); a statement (a qualitative comparison) as wrapping text."""
    return _text_td(v) if isinstance(v, str) else _num_td(fmt_value(v))


def _data_kind(used):
    """"real data" for a row run on a paper's own file (its data text starts "real data:", as
    rpcheck.data_registry.DataSource labels it), else "stand-in"."""
    return "real data" if str(used).startswith("real data:") else "stand-in"


#: What "Paper vs rpcheck" says about its rows, the text of the section on either page.
_PV_INTRO = (
    "Every number a reproduction compares with the paper: the paper's value, this run's, their difference (± "
    "the two-sided 99% normal interval where the checker reports a standard error), the data (marked real data "
    "-- a paper's own file, named with its SHA-256 -- or stand-in) and the protocol with its solver and loss, "
    "and the verdicts of the rows that use the comparison. Where the paper gives no number (a figure without "
    "legible values, a sentence), its statement stands in the paper column and the difference column says "
    "whether this run agrees with it."
)


def _pv_table(groups, keep=lambda agrees: True, report=""):
    """The table of :func:`_paper_vs_rpcheck` over the pairs for which ``keep(agrees)`` is true (a group's
    shared cells span its kept rows); ``report``: the href of the report its theorem links lead into ("":
    this page)."""
    rows = []
    for first, last, pairs in groups:
        kept = [html_ for html_, agrees in pairs if keep(agrees)]
        span = f' rowspan="{len(kept)}"'
        for i, middle in enumerate(kept):
            rows.append(f"<tr>{first(span, report) if i == 0 else ''}{middle}{last(span) if i == 0 else ''}</tr>")
    table = (
        '<table class="pv fixed"><colgroup><col style="width:13%">'
        '<col style="width:12%"><col style="width:10%"><col style="width:14%"><col style="width:8%">'
        '<col style="width:11%"><col style="width:18%"><col style="width:14%"></colgroup><thead><tr>'
        "<th>theorem · cell</th><th>row</th><th>quantity</th><th>paper</th><th>rpcheck</th>"
        "<th>rpcheck − paper or agreement</th>"
        f"<th>data · protocol</th><th>verdicts</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return table, len(rows)


def _paper_vs_rpcheck(recs, anchors, companion=None):
    """One table over every reproduction in the run: the paper's number, ours, the difference (with a 99%
    normal interval where the checker reports a standard error), the data and protocol, and the verdicts of
    the rows that carry the comparison.

    Returns ``(section of the report, companion page body or "")``. ``companion``: ``(file name of the
    companion page, file name of the report)``: the full table goes to the companion page (its theorem links
    point back into the report) and the report's section keeps the counts (agree, disagree, no rule) and the
    rows that disagree with the paper; ``None``: the full table is in the section."""
    groups = {}
    for r in recs:
        s = r.get("decide_info")
        if isinstance(s, str) and "paper_" in s:
            groups.setdefault((r["theorem"], _key(_params(r)), s), []).append(r)
    built, counts = [], Counter()
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
        pairs = []
        for label, q, paper, ours, se, agrees in _pair_rows(data):
            if isinstance(paper, str):  # qualitative: the paper states a shape, not a number
                dtxt = _agreement_text(agrees) + (f" (ours ± {fmt_value(_Z99 * se)}, 99%)" if se is not None else "")
            else:
                diff = ours - paper
                dtxt = fmt_value(diff) if se is None else f"{fmt_value(diff)} ± {fmt_value(_Z99 * se)} (99%)"
                if agrees is not None:
                    dtxt += f"; {_agreement_text(agrees)}"
            counts[agrees] += 1
            pairs.append((
                f"<td>{_e(label)}</td><td>{_e(q)}</td>{_value_td(paper)}"
                f"{_value_td(ours)}{_text_td(dtxt) if isinstance(paper, str) else _num_td(dtxt)}",
                agrees,
            ))  # fmt: skip
        if not pairs:
            continue
        theorem = f'#{anchors("t", tid)}">{_e(tid)}</a><div class="small muted">{_e(cell)}</div>'
        data_html = (
            f"<div><b>{_data_kind(used)}</b></div>{_e(fmt_value(used))}"
            f"<div class='small muted'>{_e(fmt_value(how))}</div>"
        )
        built.append((
            lambda span, report, t=theorem: f'<td{span}><a href="{report}{t}</td>',
            lambda span, d=data_html, v=verdicts: f"<td{span}>{d}</td><td{span}>{_e(v)}</td>",
            pairs,
        ))  # fmt: skip
    if not built:
        return "", ""
    table, n = _pv_table(built, report="" if companion is None else _e(safe_href(companion[1]) or ""))
    tally = (
        f"{n} compared numbers: {counts[True]} agree, {counts[False]} disagree, {counts[None]} with no agreement "
        "rule here (a difference to read, or a trend across cells)"
    )
    head = f'<section id="paper-vs-rpcheck"><h2>Paper vs rpcheck</h2><p class="small">{_PV_INTRO}</p>'
    if companion is None:
        return f"{head}<details><summary>{n} compared numbers</summary>{table}</details></section>", ""
    name = _e(safe_href(companion[0]) or "")
    disagree, n_dis = _pv_table(built, keep=lambda agrees: agrees is False)
    if n_dis:
        disagree = f"<details><summary>the {n_dis} that disagree with the paper</summary>{disagree}</details>"
    section = (
        f'{head}<p>{_e(tally)}. Every compared number: <a href="{name}">{_e(companion[0])}</a>, beside this '
        f"report.</p>{disagree if n_dis else ''}</section>"
    )
    return section, f"{head}<p>{_e(tally)}.</p>{table}</section>"


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


