"""The decision rate of a run: how many rows with a declared expectation the run decided, and what the
undecided ones would need.

A row *has an expectation* when its declared expected verdict (``expected_declared``; ``expected`` in
tables without it) is HOLDS or VIOLATED. It is *decided* when its verdict is HOLDS or VIOLATED (whether or
not the one declared: an unexpected verdict is counted apart, as ``unexpected``), *undecided* when it is
INCONCLUSIVE, and *without evidence* when it is VACUOUS (no trial met the theorem's hypotheses). Claims
(role "claim", or no role column) and self-checks (role "self-check") are counted separately; negative
controls and measurements are not claims of a paper and are left out.

For every undecided row the entry says what it would take to decide it: its ``claim`` text (what the data
support, or what is missing) and, for rows of mode "bound", "exact" or "deterministic", an estimate of the
further draws the anytime-valid rule needs at the row's current rates (:func:`rpcheck.stats.trials_to_decide`,
at the run's alpha and family size from the provenance).

Used by the terminal summary and the ``--json`` document of ``check``/``verify`` and by the first card of
the HTML report, so that the three say the same.
"""

from __future__ import annotations

import json
import math

from .. import stats
from ..engine.plan import ANYTIME_SHARE
from ..stats import Verdict
from ._rows import as_number
from ._rows import role as row_role

__all__ = ["decision_rate", "decision_lines", "MAX_LISTED"]

#: The terminal summary lists at most this many undecided rows, then "... and N more".
MAX_LISTED = 20

_DECIDED = (Verdict.HOLDS.value, Verdict.VIOLATED.value)
_ESTIMATED_MODES = ("bound", "exact", "deterministic")


def _text(v):
    return "" if v is None or (isinstance(v, float) and v != v) else str(v)


def _int(v):
    try:
        v = float(v)
    except (TypeError, ValueError):
        return 0
    return 0 if v != v or math.isinf(v) else int(v)


def _params(row):
    p = row.get("params")
    if isinstance(p, dict):
        return p
    try:
        out = json.loads(p)
    except (TypeError, ValueError):
        out = None
    if isinstance(out, dict):
        return out
    return {str(k)[2:]: v for k, v in row.items() if str(k).startswith("p_") and _text(v)}


def _levels(prov):
    """``(alpha, m)`` for :func:`rpcheck.stats.trials_to_decide` from a run's provenance: the anytime-valid
    rule spends ``ANYTIME_SHARE * alpha`` on its e-values over the VIOLATED family; without a recorded
    alpha, ``(None, None)`` (no estimate)."""
    alpha = as_number(prov.get("alpha"))
    if alpha is None or not 0 < alpha < 1:
        return None, None
    fam = prov.get("family_size")
    if isinstance(fam, dict):
        m = max([_int(v) for v in fam.values()] or [1])
    else:
        m = _int(fam)
    m = max(1, m)
    if prov.get("stopping") == "anytime":
        alpha *= ANYTIME_SHARE
    return alpha, m


def _more_draws(row, alpha, m):
    """``(draws, verdict)``: the further draws the row needs at its current rates and the verdict they
    would give; ``(None, None)`` when no estimate applies (mode, missing promise or alpha), ``(inf, None)``
    when no number of draws decides it at its current rates."""
    mode = _text(row.get("mode"))
    if alpha is None or mode not in _ESTIMATED_MODES:
        return None, None
    promised = as_number(row.get("promised"))
    if mode != "deterministic" and (promised is None or not 0 <= promised <= 1):
        return None, None
    counts = stats.Counts(
        _int(row.get("failures")), _int(row.get("evaluated")), _int(row.get("undetermined")),
        _int(row.get("solver_errors")),
    )  # fmt: skip
    try:
        need = stats.trials_to_decide(mode, counts, promised, alpha=alpha, m=m)
    except Exception:  # noqa: BLE001 -- inconsistent counts in a results table: no estimate, never a crash
        return None, None
    if math.isinf(need.trials):
        return math.inf, None
    return int(need.trials), need.verdict.value


def _entry(row, alpha, m):
    draws, toward = _more_draws(row, alpha, m)
    if draws is None:
        need = ""
    elif math.isinf(draws):
        need = "no number of further draws decides it at the current rates"
    elif draws == 0:
        need = f"its counts already reach the anytime-valid threshold ({toward})"
    else:
        need = f"about {draws} more draws at the current rates ({toward})"
    return {
        "theorem": _text(row.get("theorem")),
        "variant": _text(row.get("variant")),
        "cell": _int(row.get("cell")),
        "params": _params(row),
        "mode": _text(row.get("mode")),
        "role": _text(row.get("role")) or "claim",
        "expected": _text(row.get("expected_declared")) or _text(row.get("expected")),
        "verdict": _text(row.get("verdict")),
        "claim": _text(row.get("claim")) or _text(row.get("vacuous_reason")),
        "more_draws": None if draws is None or math.isinf(draws) else draws,
        "decidable_by_draws": None if draws is None else not math.isinf(draws),
        "toward": toward,
        "needs": need,
    }


def _empty():
    return {"decided": 0, "total": 0, "undecided": [], "no_evidence": []}


def decision_rate(cells, provenance=None):
    """The decision rate of a cells table (see the module docstring).

    Returns ``{"decided", "total", "undecided", "no_evidence", "self_checks"}``: counts and row lists of
    the claims, and the same object (without ``self_checks``) for the self-checks. Each listed row is a
    dict with ``theorem``, ``variant``, ``cell``, ``params``, ``mode``, ``role``, ``expected`` (declared),
    ``verdict``, ``claim``, ``more_draws`` (int, or None when no estimate applies or no number decides
    it), ``decidable_by_draws`` (bool, or None without an estimate), ``toward`` (the verdict the draws
    would give) and ``needs`` (that estimate as a phrase, or "")."""
    prov = dict(provenance or {})
    alpha, m = _levels(prov)
    claims, self_checks = _empty(), _empty()
    if cells is None or not len(cells):
        return {**claims, "self_checks": self_checks}
    declared = "expected_declared" if "expected_declared" in cells.columns else "expected"
    for row in cells.to_dict("records"):
        exp = _text(row.get(declared))
        if exp not in _DECIDED:
            continue
        role = row_role(row)
        if role == "claim":
            bucket = claims
        elif role == "self-check":
            bucket = self_checks
        else:
            continue
        bucket["total"] += 1
        verdict = _text(row.get("verdict"))
        if verdict in _DECIDED:
            bucket["decided"] += 1
        elif verdict == Verdict.VACUOUS:
            bucket["no_evidence"].append(_entry(row, None, None))
        else:
            bucket["undecided"].append(_entry(row, alpha, m))
    return {**claims, "self_checks": self_checks}


def _row_line(e):
    params = " ".join(f"{k}={v}" for k, v in e["params"].items())
    what = "; ".join(t for t in (e["claim"], e["needs"]) if t)
    return (
        f"  {e['theorem']} · {e['variant']} cell {e['cell']}"
        + (f" ({params})" if params else "")
        + f": {e['verdict']}, expected {e['expected']}"
        + (f" -- {what}" if what else "")
    )


def _count_line(d, word):
    parts = [f"{len(d['undecided'])} undecided"]
    if d["no_evidence"]:
        parts.append(f"{len(d['no_evidence'])} vacuous (no evidence)")
    return f"decided {d['decided']} of {d['total']} {word} with an expectation; " + ", ".join(parts)


def decision_lines(decision, *, limit=MAX_LISTED):
    """The terminal lines of :func:`decision_rate`: the count line of the claims, that of the self-checks
    when there are any, then the undecided rows and the rows without evidence, one line each, at most
    ``limit`` per list, then "... and N more"."""
    lines = [_count_line(decision, "claims")]
    sc = decision.get("self_checks") or _empty()
    if sc["total"]:
        lines.append(_count_line(sc, "self-checks"))
    for label, rows in (
        ("undecided", decision["undecided"] + sc["undecided"]),
        ("vacuous (no evidence)", decision["no_evidence"] + sc["no_evidence"]),
    ):
        if not rows:
            continue
        lines.append(f"{label}:")
        lines += [_row_line(e) for e in rows[:limit]]
        if len(rows) > limit:
            lines.append(f"  ... and {len(rows) - limit} more")
    return lines
