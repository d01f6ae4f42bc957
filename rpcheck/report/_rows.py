"""The row rules of the presentation model (:mod:`rpcheck.report.model` is their public home): the verdict
labels, the missing-value rules, and what a row of a cells table shows and where it is counted.

They sit below :mod:`rpcheck.report.decision` and :mod:`rpcheck.report.model` so that both read one rule.
"""

from __future__ import annotations

import json

from ..stats import ROLES, Verdict

__all__ = ["VERDICTS", "ROLES", "MEASURED", "is_missing", "as_text", "as_number", "role", "label", "bucket",
           "row_params"]  # fmt: skip

#: The verdict labels, in the order of every count the summaries print.
VERDICTS = tuple(v.value for v in Verdict)
#: What a row of role "measurement" shows instead of a verdict.
MEASURED = "measured"


def is_missing(x):
    """True for None, NaN (any float type) and pandas' NA/NaT (recognised without importing pandas)."""
    if x is None or type(x).__name__ in ("NAType", "NaTType"):
        return True
    try:
        return bool(x != x)
    except (TypeError, ValueError):  # arrays and other objects without a scalar comparison
        return False


def as_text(x):
    """``""`` for a missing value, else ``str(x)``."""
    return "" if is_missing(x) else str(x)


def as_number(x):
    """A float, or None for a missing or non-numeric value."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if v != v else v


def role(row):
    """The row's role: its ``role`` column when it is one of :data:`ROLES`, else "claim" (also for a table
    without a ``role`` column)."""
    r = as_text(row.get("role")).strip()
    return r if r in ROLES else "claim"


def label(row):
    """What a row shows: :data:`MEASURED` for role "measurement", else its verdict."""
    return MEASURED if role(row) == "measurement" else str(row["verdict"])


def bucket(row):
    """Where a row is counted: "self-checks", "controls", "measured", or (a claim) its mode."""
    r = role(row)
    if r == "self-check":
        return "self-checks"
    if r == "control":
        return "controls"
    if r == "measurement":
        return MEASURED
    return str(row["mode"])


def row_params(row):
    """The row's parameters with their own types, decoded from the canonical ``params`` JSON."""
    p = row.get("params")
    if isinstance(p, dict):
        return p
    try:
        return json.loads(p)
    except (TypeError, ValueError):
        return {c[2:]: row[c] for c in row.index if str(c).startswith("p_")}
