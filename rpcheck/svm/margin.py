r"""The normalised margin of Shi et al. 2012 (Definition 2).

.. math::

    \gamma^* = \max_{u \ne 0}\ \min_i\ y_i \cos(u, x_i)

equals the hard-margin SVM *without bias* on the unit-normalised points
:math:`\hat x_i = x_i/\|x_i\|`: :math:`\gamma^* = 1/\|u^*\|` where :math:`u^*` solves
:math:`\min \tfrac12\|u\|^2` s.t. :math:`y_i u^T\hat x_i \ge 1`. Its dual (no equality constraint) is
unbounded iff the points are not separable through the origin.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..errors import NotSeparableError, RpcheckError, SolverError
from ._common import DEFAULT_SOLVER, check_solver, validate_labels, validate_X
from ._results import MarginResult
from .svc import solve_svc

__all__ = ["normalized_margin"]


def _min_cos(Xh, y, u):
    nu = float(np.linalg.norm(u))
    if nu == 0:
        return 0.0
    return float(np.min(y * np.asarray(Xh @ u).ravel()) / nu)


def normalized_margin(X, y, *, solver=DEFAULT_SOLVER, solver_options=None):
    r"""Normalised (cosine) margin of a labelled sample, Shi et al. 2012, Definition 2.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Points; no row may be zero (its cosine is undefined).
    y : array_like of shape (n,)
        Labels in {-1, +1}; a single class is allowed (there is no bias).
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM"}, default="AUTO"
        As :func:`rpcheck.svm.solve_svc`.
    solver_options : dict, optional

    Returns
    -------
    MarginResult
        ``margin``, ``w``, ``direction``, ``separable``, the certified bracket
        ``[margin_lower, margin_upper]`` and a ``note``.

    Notes
    -----
    Separable case: ``margin = 1/||w||`` at the certified hard-margin optimum; ``margin_lower`` is
    :math:`\min_i y_i\cos(w, x_i)` and ``margin_upper`` is :math:`1/\sqrt{2Z}` with ``Z`` the dual value
    (weak duality: :math:`Z \le \|u^*\|^2/2`).

    Not separable through the origin (hard-margin dual unbounded, or an exact LP says so): never raises;
    returns ``separable=False`` and ``margin`` = :math:`\min_i y_i\cos(u, x_i) \le 0` at the soft-margin
    (C = 1, no bias) direction ``u``. Since the max-min is then <= 0 and computing it exactly is a
    non-convex problem, ``margin`` is a lower bound and ``margin_upper`` is 0.

    Examples
    --------
    >>> import numpy as np
    >>> res = normalized_margin(np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1, 1]))
    >>> res.separable, round(res.margin, 8)
    (True, 0.70710678)
    """
    X = validate_X(X)
    y = validate_labels(y, X.shape[0], both_classes=False)
    solver = check_solver(solver)
    if sp.issparse(X):
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    else:
        norms = np.linalg.norm(X, axis=1)
    if np.any(norms == 0):
        i = int(np.flatnonzero(norms == 0)[0])
        raise RpcheckError(f"`X` row {i} is zero; the normalised margin (a cosine) needs non-zero points.")
    Xh = sp.diags(1.0 / norms) @ X if sp.issparse(X) else X / norms[:, None]
    try:
        res = solve_svc(Xh, y, np.inf, bias=False, solver=solver, solver_options=solver_options)
    except NotSeparableError:
        soft = solve_svc(Xh, y, 1.0, bias=False, solver=solver, solver_options=solver_options)
        u = soft.w
        val = _min_cos(Xh, y, u)
        if val > 0:
            raise SolverError(
                "inconsistent solver outputs: the hard-margin solve reported non-separable data but the "
                f"soft-margin direction separates them (min cosine {val:.3e} > 0)",
                status="inconsistent", solver=solver,
            ) from None
        nu = float(np.linalg.norm(u))
        return MarginResult(
            margin=val,
            w=u,
            direction=u / nu if nu > 0 else np.zeros_like(u),
            separable=False,
            margin_lower=val,
            margin_upper=0.0,
            note=(
                "not separable through the origin: no u has y_i <u, x_i> > 0 for every i (the hard-margin "
                "dual is unbounded). margin = min_i y_i cos(u, x_i) <= 0 at the soft-margin (C=1, no bias) "
                "direction u, a lower bound on the (non-convex) max-min; the max-min itself is <= 0."
            ),
            svc=soft,
        )
    w = res.w
    nw = float(np.linalg.norm(w))
    lower = _min_cos(Xh, y, w)
    upper = float(1.0 / np.sqrt(2.0 * res.objective)) if res.objective > 0 else float("inf")
    return MarginResult(
        margin=float(1.0 / nw),
        w=w,
        direction=w / nw,
        separable=True,
        margin_lower=lower,
        margin_upper=upper,
        note="",
        svc=res,
    )
