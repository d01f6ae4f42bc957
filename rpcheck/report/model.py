"""The presentation model of a run: what every renderer of a run reads (the terminal summary of the CLI and
of the pytest plugin, the HTML report, the ``--json`` document).

- the vocabulary: :data:`VERDICTS` (the verdict labels in the order every count is printed),
  :data:`ROLES`, :data:`MEASURED` (what a row of role "measurement" shows instead of a verdict);
- the row rules: :func:`role` (the one rule: an unknown or missing role is "claim"), :func:`label`,
  :func:`bucket`, :func:`row_params`;
- the summaries: :func:`summary_counts` (the counts of a cells table), :func:`count_text`,
  :func:`summary_line`, :func:`theorem_summaries` (per theorem), :func:`error_rate_statement`;
- the JSON form: :func:`cell_records` and :func:`json_document` (``docs/json-schema.md``, version
  :data:`JSON_SCHEMA_VERSION`).

A cells table is the ``cells`` DataFrame of :class:`rpcheck.engine.RunResult`; a row is one of its rows (a
pandas Series) or a record dict. The vocabulary and the row rules are defined in :mod:`rpcheck.report._rows`
(below :mod:`rpcheck.report.decision`, which reads them too) and are public here. This module imports neither
pandas nor a renderer.
"""

from __future__ import annotations

import math

from ..engine.catalog import jsonable
from ..engine.plan import ANYTIME_SHARE
from ._rows import MEASURED, ROLES, VERDICTS, as_number, as_text, bucket, is_missing, label, role, row_params
from .decision import decision_rate

__all__ = [
    "JSON_SCHEMA_VERSION",
    "VERDICTS",
    "ROLES",
    "MEASURED",
    "is_missing",
    "as_text",
    "as_number",
    "role",
    "label",
    "bucket",
    "row_params",
    "summary_counts",
    "count_text",
    "summary_line",
    "theorem_summaries",
    "error_rate_statement",
    "cell_records",
    "decision_json",
    "json_document",
]

#: Version of the ``--json`` document of ``check``/``verify`` (docs/json-schema.md).
JSON_SCHEMA_VERSION = 1
def _ordered(d):
    order = {v: i for i, v in enumerate(VERDICTS)}
    return dict(sorted(d.items(), key=lambda kv: order.get(kv[0], 9)))


def summary_counts(cells):
    """Counts of a cells table, the one summary every interface prints (CLI, pytest plugin, JSON).

    Rows are counted by role (:func:`role`): ``claims`` by verdict and, in ``claims_by_mode``, by mode then
    verdict; ``self_checks`` and ``controls`` by verdict; ``measured`` (role "measurement": no verdict);
    ``unexpected`` (verdict differs from the expected one).
    """
    claims, by_mode, self_checks, controls, measured = {}, {}, {}, {}, 0
    roles = cells["role"].tolist() if "role" in cells.columns else [""] * len(cells)
    modes = cells["mode"].tolist() if "mode" in cells.columns else [""] * len(cells)
    for r, mode, verdict in zip(roles, modes, cells["verdict"].astype(str).tolist() if len(cells) else []):
        r = role({"role": r})
        if r == "measurement":
            measured += 1
            continue
        d = self_checks if r == "self-check" else controls if r == "control" else claims
        d[verdict] = d.get(verdict, 0) + 1
        if d is claims:
            m = by_mode.setdefault(as_text(mode) or "?", {})
            m[verdict] = m.get(verdict, 0) + 1
    return {
        "theorems": int(cells["theorem"].nunique()) if len(cells) else 0,
        "rows": int(len(cells)),
        "claims": _ordered(claims),
        "claims_by_mode": {k: _ordered(v) for k, v in sorted(by_mode.items())},
        "self_checks": _ordered(self_checks),
        "controls": _ordered(controls),
        "measured": measured,
        "unexpected": int((~cells["as_expected"].astype(bool)).sum()) if len(cells) else 0,
    }


def count_text(counts):
    """``'3 HOLDS, 1 VIOLATED'`` from ``{verdict: count}``, in :data:`VERDICTS` order."""
    return ", ".join(f"{n} {k}" for k, n in _ordered(counts).items())


def summary_line(counts):
    """One line from :func:`summary_counts`: claims per mode, self-checks, controls, measured, unexpected."""
    modes = counts.get("claims_by_mode") or {}
    claims = "; ".join(f"{m}: {count_text(c)}" for m, c in modes.items()) or count_text(counts["claims"]) or "none"
    parts = [f"claims ({claims})"]
    if counts["self_checks"]:
        parts.append(f"self-checks: {count_text(counts['self_checks'])}")
    if counts["controls"]:
        parts.append(f"controls: {count_text(counts['controls'])}")
    if counts["measured"]:
        parts.append(f"measured: {counts['measured']}")
    return f"{counts['theorems']} theorems, {counts['rows']} rows; " + "; ".join(parts) + (
        f"; unexpected: {counts['unexpected']}")


def theorem_summaries(cells):
    """Per theorem: counts by mode (claims) and by role (self-checks, controls, measured), unexpected, time."""
    out = {}
    for _, row in cells.iterrows():
        s = out.setdefault(
            row["theorem"], {"id": row["theorem"], "counts": {}, "unexpected": 0, "seconds": 0.0, "_cells": set()}
        )
        b = bucket(row)
        lab = label(row)
        if b == MEASURED:
            s["counts"].setdefault(MEASURED, 0)
            s["counts"][MEASURED] += 1
        else:
            d = s["counts"].setdefault(b, {})
            d[lab] = d.get(lab, 0) + 1
        s["unexpected"] += not bool(row["as_expected"])
        if row["cell"] not in s["_cells"]:  # `seconds` is the cell's total trial time, repeated per variant
            s["_cells"].add(row["cell"])
            s["seconds"] += as_number(row.get("seconds")) or 0.0
    for s in out.values():
        del s["_cells"]
    return list(out.values())


def stopping_rule(prov, alpha):
    """The multiple-testing rule of a run, from its provenance's ``stopping`` (the words of every renderer)."""
    if prov.get("stopping") == "anytime":
        return (
            f"anytime-valid: a cell stops once its rows are decided; e-values at {ANYTIME_SHARE * alpha:g} "
            f"(e-Bonferroni) plus Holm at {(1 - ANYTIME_SHARE) * alpha:g} over the rows of cells that ran every "
            "planned trial"
        )
    if prov.get("stopping") == "looks" or (prov.get("stopping") is None and prov.get("sequential") is True):
        return f"group-sequential: Bonferroni over the rows and the {prov.get('sequential_looks', 'K')} looks"
    return "Holm"


def error_rate_statement(prov):
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
    rule = f"{stopping_rule(prov, alpha)}; {fam_txt}"
    return (
        f"error rate: P(any false VIOLATED) <= {alpha} and P(any false HOLDS) <= {alpha} in this run (one family, "
        f"{rule}); a deterministic VIOLATED is a concrete, replayable counterexample"
    )


def cell_records(cells):
    """JSON records of the cells table with every parameter in its own type (from ``params``)."""
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
        params = row_params(row)
        rec["params"] = params
        for k, v in params.items():
            rec[f"p_{k}"] = v
        out.append(rec)
    return out


def decision_json(result):
    """The run's decision rate (:mod:`rpcheck.report.decision`), with non-finite numbers made JSON-safe."""
    return jsonable(decision_rate(result.cells, result.provenance))


def json_document(command, result, *, out=None, report_path=None, summaries=None, counts=None):
    """The ``--json`` document of ``check``/``verify`` (docs/json-schema.md).

    ``summaries`` and ``counts`` default to :func:`theorem_summaries` and :func:`summary_counts` of
    ``result.cells``."""
    summaries = theorem_summaries(result.cells) if summaries is None else summaries
    counts = summary_counts(result.cells) if counts is None else counts
    return {
        "schema_version": JSON_SCHEMA_VERSION,
        "command": command,
        "results": None if out is None else str(out),
        "report": None if report_path is None else str(report_path),
        "summary": {**counts, "error_rate": error_rate_statement(dict(result.provenance or {}))},
        "decision": decision_json(result),
        "theorems": summaries,
        "cells": cell_records(result.cells),
        "provenance": jsonable(dict(result.provenance or {})),
    }
