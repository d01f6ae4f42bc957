"""Argument validation at public boundaries.

Every failure raises :class:`rpcheck.errors.RpcheckError` with one message naming the argument, the value
received and the allowed values, e.g. "`eps` (1.5) must be in the interval (0, 1)."
"""

import numbers

import numpy as np
import scipy.sparse as sp

from .errors import RpcheckError

__all__ = [
    "check_interval",
    "check_int",
    "check_choice",
    "check_matrix",
    "check_labels",
    "check_consistent_length",
]


def _fmt(value):
    return repr(value) if isinstance(value, str) else f"{value}"


def check_interval(name, value, low=None, high=None, *, closed="both"):
    """Check that the real number ``value`` lies in the interval between ``low`` and ``high``.

    ``closed`` is one of "both", "left", "right", "neither". ``None`` bounds are infinite.
    Returns ``float(value)``.

    >>> check_interval("eps", 0.5, 0, 1, closed="neither")
    0.5
    >>> check_interval("eps", 1.5, 0, 1, closed="neither")
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `eps` (1.5) must be in the interval (0, 1).
    """
    if closed not in ("both", "left", "right", "neither"):
        raise RpcheckError(f"`closed` ({closed!r}) must be one of 'both', 'left', 'right', 'neither'.")
    lb = "[" if closed in ("both", "left") and low is not None else "("
    rb = "]" if closed in ("both", "right") and high is not None else ")"
    domain = f"{lb}{'-inf' if low is None else low}, {'inf' if high is None else high}{rb}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be a real number in the interval {domain}.")
    v = float(value)
    ok = not np.isnan(v)
    if ok and low is not None:
        ok = v >= low if lb == "[" else v > low
    if ok and high is not None:
        ok = v <= high if rb == "]" else v < high
    if not ok:
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be in the interval {domain}.")
    return v


def check_int(name, value, low=None, high=None):
    """Check that ``value`` is an integer in the closed range [low, high]; return ``int(value)``.

    >>> check_int("r", 0, 1)
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `r` (0) must be an integer >= 1.
    """
    if low is not None and high is not None:
        domain = f"in the range [{low}, {high}]"
    elif low is not None:
        domain = f">= {low}"
    elif high is not None:
        domain = f"<= {high}"
    else:
        domain = ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be an integer {domain}".rstrip() + ".")
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise RpcheckError(f"`{name}` ({v}) must be an integer {domain}.")
    return v


def check_choice(name, value, choices):
    """Check that ``value`` is one of ``choices``; the message lists them.

    >>> check_choice("form", "x", ("correct", "as_printed"))
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `form` ('x') must be one of 'correct', 'as_printed'.
    """
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be one of {listed}.")
    return value


def check_matrix(name, X, *, allow_sparse=True, dtype=(np.float64, np.float32), ndim=2, copy=False):
    """Validate a data matrix: ``ndim``-dimensional, real, finite, dense ndarray or scipy.sparse.

    Integer and boolean input is converted to float64; float32 and float64 are kept. Sparse input is
    returned in its own format (entries checked). Raises one RpcheckError naming ``name``.
    """
    if sp.issparse(X):
        if not allow_sparse:
            raise RpcheckError(f"`{name}` must be a dense array; got a scipy.sparse {X.format} matrix.")
        if X.ndim != 2:
            raise RpcheckError(f"`{name}` must be 2-dimensional; got ndim={X.ndim}.")
        if X.dtype not in dtype:
            X = X.astype(np.float64)
        elif copy:
            X = X.copy()
        data = X.data
        if data.size and not np.all(np.isfinite(data)):
            raise RpcheckError(f"`{name}` contains NaN or infinite entries; all entries must be finite.")
        return X
    try:
        A = np.asarray(X)
    except Exception as exc:  # ragged lists etc.
        raise RpcheckError(f"`{name}` must be a {ndim}-dimensional real array; could not convert: {exc}") from None
    if A.dtype.kind not in "biuf":
        raise RpcheckError(f"`{name}` must hold real numbers; got dtype {A.dtype}.")
    if A.ndim != ndim:
        raise RpcheckError(f"`{name}` must be {ndim}-dimensional; got an array of shape {A.shape} (ndim={A.ndim}).")
    if A.dtype not in dtype:
        A = A.astype(np.float64)
    elif copy:
        A = A.copy()
    if not np.all(np.isfinite(A)):
        bad = np.argwhere(~np.isfinite(A))[0]
        raise RpcheckError(
            f"`{name}` contains NaN or infinite entries (first at index {tuple(int(i) for i in bad)}); "
            "all entries must be finite."
        )
    return A


def check_labels(name, y, *, n=None):
    """Validate binary labels in {-1, +1} with both classes present; returns a float64 vector."""
    yy = np.asarray(y)
    if yy.ndim != 1:
        raise RpcheckError(f"`{name}` must be 1-dimensional; got shape {yy.shape}.")
    if n is not None and yy.shape[0] != n:
        raise RpcheckError(f"`{name}` has length {yy.shape[0]} but X has {n} rows; they must match.")
    if yy.dtype.kind not in "biuf" or not np.all(np.isin(yy, (-1, 1))):
        vals = np.unique(yy)[:5]
        raise RpcheckError(f"`{name}` must contain only the labels -1 and +1; found values {vals.tolist()}.")
    if np.all(yy == yy[0]):
        raise RpcheckError(f"`{name}` must contain both classes -1 and +1; got only {int(yy[0])}.")
    return yy.astype(np.float64)


def check_consistent_length(**arrays):
    """Check that the first dimensions agree: ``check_consistent_length(X=X, y=y)``."""
    lengths = {k: (v.shape[0] if hasattr(v, "shape") else len(v)) for k, v in arrays.items()}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"`{k}` has {v}" for k, v in lengths.items())
        raise RpcheckError(f"inconsistent numbers of rows: {desc}; they must match.")
