"""Self-contained HTML verification report (inline CSS and hand-written SVG; no scripts, no network).

The report only presents what the engine produced (``RunResult.cells``, ``.trials``, ``.provenance``) plus
the theorem metadata from the registry (statements, citations, variants, findings). A results directory is
data someone may send you: every string from it is escaped (:func:`rpcheck.report._text.esc`), links are
made only from plain relative paths inside the results directory (:func:`~rpcheck.report._text.safe_href`),
and plot labels are plain text.

Layout: overview (first the decision rate and the undecided rows, :mod:`rpcheck.report.decision`; the
verdict strip per theorem and variant, unexpected rows first; counts; the run's error-rate statement) ->
contents -> findings -> empirical constants -> one section per paper with its theorems -> provenance
(collapsed). :func:`write_report` puts every plot (per variant, and per theorem the per-trial statistic/bound
distributions) on one companion page beside the report and the full "Paper vs rpcheck" table on another, each
linked from where it belongs; the report keeps that section's counts and disagreements. :func:`render_report`
keeps everything inline. Rows of role "measurement"
are shown as measured (no verdict); rows of role "self-check" and "control" are labelled and counted apart
from the theorem verdicts. The ``role``, ``claim`` and ``undetermined`` columns are used when present;
without them every row is a claim and the HOLDS claim is derived from the interval columns (marked as such).

Modules: this one assembles the page; :mod:`._html_base` (vocabulary, CSS, small helpers),
:mod:`._html_tables`, :mod:`._html_plots`, :mod:`._html_sections` (theorem, findings, paper-vs-rpcheck,
constants) and :mod:`._html_overview` (error statement, decision card, overview, provenance) build its parts.
They read the vocabulary of :mod:`rpcheck.report.model`.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from ..engine import store
from ..errors import RpcheckError
from ._html_base import _CSS, _Anchors, _str, _theorem_meta
from ._html_overview import _error_statement, _overview, _provenance
from ._html_plots import _Trials
from ._html_sections import (
    _constants_section,
    _findings,
    _pair_rows,  # noqa: F401 (the papers' checker tests read the pairs through it)
    _paper_vs_rpcheck,
    _theorem_section,
)
from ._text import esc as _e
from .decision import decision_rate

__all__ = ["render_report", "write_report", "render_theorem_section"]


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
#: end, a thead at its tbody, a tbody at the table's end: every table here is written as
#: ``<thead>...</thead><tbody>...</tbody></table>`` or without either): left out of the page, they are about
#: a tenth of a large report. Every string from the results is escaped, so these sequences occur only as tags.
_OPTIONAL_END_TAGS = ("</td>", "</th>", "</tr>", "</thead>", "</tbody>")


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
        inline (:func:`write_report` moves the plots and the full "Paper vs rpcheck" table to companion pages).
    """
    return _render(result, title=title, constants=constants)[0]


def _render(result, *, title="rpcheck verification report", constants=None, name=None):
    """``(report page, {file name: companion page})``. ``name``: the report's file name; with it, the plots go
    to the companion page ``<stem>-distributions.html`` and the full "Paper vs rpcheck" table to
    ``<stem>-paper-vs-rpcheck.html`` (each written only when it has content); ``None``: everything inline."""
    recs, trials, prov = _prepare(result)
    anchors = _Anchors()
    stem = None if name is None else Path(name).stem
    sink = None if name is None else (f"{stem}-distributions.html", {}, name)
    pv_name = None if name is None else f"{stem}-paper-vs-rpcheck.html"
    by_theorem = {}
    for r in recs:
        by_theorem.setdefault(r["theorem"], []).append(r)
    theorem_ids = list(by_theorem)
    papers = {}
    for tid in theorem_ids:
        papers.setdefault(by_theorem[tid][0]["paper"] or "(no paper)", []).append(tid)
    findings_html, finding_counts = _findings(recs, theorem_ids, anchors)
    decision = decision_rate(getattr(result, "cells", None), prov)
    overview = _overview(recs, theorem_ids, anchors, finding_counts, prov, decision)
    paper_vs, pv_page = _paper_vs_rpcheck(recs, anchors, None if name is None else (pv_name, name))
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
    extra = {}
    if sink is not None and sink[1]:
        extra[sink[0]] = _page(
            f"{title}: plots",
            f"<h1>{_e(title)}: plots per theorem</h1><p class='muted small'>Generated {generated}, companion of the "
            f"report {_e(name)} beside it: per theorem, the plots of its variants (failure rate against the swept "
            "parameter, exact law against Monte Carlo, the paper's numbers against this run's) and the quantiles "
            "of statistic / bound over the trials of each cell (median, 5%–95%, max) against the claim's line at "
            f"1.</p>{''.join(sink[1].values())}",
        )
    if pv_page:
        extra[pv_name] = _page(
            f"{title}: paper vs rpcheck",
            f"<h1>{_e(title)}: paper vs rpcheck</h1><p class='muted small'>Generated {generated}, companion of the "
            f"report {_e(name)} beside it (the theorem links lead into it).</p>{pv_page}",
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

    Two companion pages beside it keep the report small (together about a third of what it would be at the
    quick profile): ``<stem>-distributions.html`` holds every plot (per variant its sweeps and comparisons,
    per theorem the per-trial distributions of statistic / bound), linked from each variant and theorem by
    what it shows; ``<stem>-paper-vs-rpcheck.html`` the full table of the papers' numbers against this run's,
    whose counts and disagreements stay in the report. A page with nothing to show is not written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text, extra = _render(result, title=title, constants=constants, name=path.name)
    for name, page in extra.items():
        store.atomic_write_text(path.with_name(name), page)
    store.atomic_write_text(path, text)
    return path
