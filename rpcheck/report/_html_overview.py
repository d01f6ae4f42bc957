"""Overview of the HTML report (:mod:`rpcheck.report.html`): the error-rate statement, the decision
card, the verdict strips and counts, and the provenance."""

from __future__ import annotations

import json
import math
from collections import Counter

from ._html_base import (
    _badge,
    _expected,
    _int,
    _letter,
    _num,
    _plabel,
    _shown_verdict,
    _str,
    _theorem_meta,
    _unexpected,
)
from ._text import esc as _e
from ._text import fmt_num as _fmt
from .decision import MAX_LISTED
from .model import ROLES, VERDICTS, stopping_rule
from .model import role as _role


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
            rule = _e(stopping_rule(prov, alpha))
            parts.append(
                f"One multiple-testing family for the whole run (the rows of mode bound or exact), at α = {a}: "
                f"{rule[0].upper() + rule[1:]}. Over the <b>{_e(mv)}</b> refutation tests: P(any false VIOLATED "
                f"among them) ≤ {a}; "
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
                _letter(  # the variant heads the strip; the title of an unexpected letter names its cell
                    _shown_verdict(x),
                    unexpected=_unexpected(x),
                    title=f"cell {_fmt(x.get('cell'))}: {_shown_verdict(x)} (expected {_expected(x)})",
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
        f'<p class="small">Strip legend: {legend}; one letter per cell, in the order of the cells tables; a letter '
        'with "!" and an orange outline differs from the expected verdict (hover for the cell). Self-checks and '
        "negative controls are tagged and counted apart from the theorem verdicts; measured rows carry no verdict. "
        "Rows with unexpected verdicts come first.</p>"
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


