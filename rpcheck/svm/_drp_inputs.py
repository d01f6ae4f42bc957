"""The input contract of :mod:`rpcheck.svm.drp` (Algorithms 1 and 2, the exact oracles) and of the hinge dual
(:mod:`rpcheck.svm._drp_hinge`): one RpcheckError naming the argument, its value and what is allowed."""

from __future__ import annotations

import numpy as np

from .._validation import check_choice, check_interval, check_matrix
from ..errors import RpcheckError
from ._common import validate_targets


def _check_X(X, name="X"):
    X = check_matrix(name, X, allow_sparse=False)
    return np.ascontiguousarray(X, dtype=np.float64)


def _check_drp_inputs(X, y, lam, R, loss, losses):
    """The shared input contract of :func:`drp` and :func:`iterative_drp` (checked in this order)."""
    check_choice("loss", loss, losses)
    X = _check_X(X)
    n, d = X.shape
    return X, _check_targets(y, n, loss), _check_lam(lam), _check_R(R, d)


def _check_targets(y, n, loss):
    yy = validate_targets(y, n).astype(np.float64)
    if loss != "square" and not np.all(np.isin(yy, (-1.0, 1.0))):
        vals = np.unique(yy)[:5]
        raise RpcheckError(
            f"`y` must contain only the labels -1 and +1 for loss={loss!r}; found values {vals.tolist()}."
        )
    if not np.all(np.isfinite(yy)):
        raise RpcheckError("`y` contains NaN or infinite entries; all entries must be finite.")
    return yy


def _check_lam(lam):
    return check_interval("lam", lam, 0, None, closed="neither")


def _check_R(R, d):
    R = check_matrix("R", R, allow_sparse=True)
    if R.shape[0] != d:
        raise RpcheckError(f"`R` has {R.shape[0]} rows but X has {d} columns; R must have shape (d, m).")
    if hasattr(R, "toarray"):
        R = R.toarray()
    return np.asarray(R, dtype=np.float64)
