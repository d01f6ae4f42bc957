r"""Exact linear epsilon-insensitive SVR (Paul et al. 2014, eqs. 2 and 4) with a KKT certificate.

``form="correct"`` solves eq. (2),

.. math::

    \max_\alpha\ y^T\alpha - \epsilon\|\alpha\|_1 - \tfrac12\|X^T\alpha\|^2
    \quad\text{s.t.}\quad 1^T\alpha = 0,\ -C \le \alpha \le C,

(the standard dual with :math:`\alpha = a^+ - a^-`, for which :math:`\|\alpha\|_1 = 1^T(a^+ + a^-)` at the
optimum). ``form="as_printed"`` solves eq. (4) as printed, whose term :math:`\epsilon 1^T\alpha` vanishes
on the feasible set, so it *is* the epsilon = 0 SVR (spec paul2014 §1.3, §6 item 3); its certificate is
computed with ``epsilon_effective = 0``.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_interval, check_matrix
from ..errors import RpcheckError, SolverError
from ._common import check_solver, factor_rows, run_problem, validate_C, validate_X
from ._common import solver_options as _solver_options
from ._results import SVRResult
from .kkt import decision_values, svr_kkt_residuals
from .svc import pl_argmin

__all__ = ["solve_svr", "SVR_FORMS"]

SVR_FORMS = ("correct", "as_printed")

_SET_TOL = 1e-6
_ACCEPT_REL = 1e-5


def _svr_bias(g, y, alpha, C, eps):
    """b from the free alphas (``0 < |alpha_i| < C``): median of ``y_i - g_i - eps sign(alpha_i)``;
    with none free, the exact minimiser of ``sum_i (|y_i - g_i - b| - eps)_+``."""
    amax = float(np.max(np.abs(alpha), initial=0.0))
    free = (np.abs(alpha) > _SET_TOL * amax) & (np.abs(alpha) < C * (1 - _SET_TOL))
    r = y - g
    if np.any(free):
        return float(np.median(r[free] - eps * np.sign(alpha[free]))), "median"
    return pl_argmin(r - eps, r + eps), "interval"


def solve_svr(X, y, C, epsilon, *, form="correct", solver="CLARABEL", solver_options=None):
    r"""Solve the linear SVR dual, in the correct form (Paul eq. 2) or as printed (Paul eq. 4).

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
    y : array_like of shape (n,)
        Real targets.
    C : float
        Box bound, ``C > 0`` (finite).
    epsilon : float
        Width of the insensitive tube, ``epsilon >= 0``.
    form : {"correct", "as_printed"}, default="correct"
    solver : {"CLARABEL", "OSQP", "SCS"}, default="CLARABEL"
    solver_options : dict, optional

    Returns
    -------
    SVRResult
        ``alpha``, ``w = X^T alpha``, ``b``, ``objective`` (the form's dual objective at the returned
        alpha), ``w_norm_sq``, ``margin = 1/||w||``, ``slack``, ``in_tube``, ``kkt``.

    Raises
    ------
    RpcheckError
        Bad input (shapes, non-finite entries, ``C <= 0`` or infinite, ``epsilon < 0``, unknown
        form or solver).
    SolverError
        The solver failed or its point does not pass the KKT certificate at relative level 1e-5.

    Notes
    -----
    Regime detector (spec C9): strong duality gives
    :math:`y^T\alpha - \epsilon\|\alpha\|_1 = \|w\|^2 + C\|\xi\|_1`, so
    ``y^T alpha - eps ||alpha||_1 = ||w||^2`` exactly when every point is inside or on the tube (``in_tube``).
    """
    t0 = time.perf_counter()
    X = validate_X(X)
    n = X.shape[0]
    yv = check_matrix("y", y, ndim=1, allow_sparse=False)
    if yv.shape[0] != n:
        raise RpcheckError(f"`y` has length {yv.shape[0]} but X has {n} rows; they must match.")
    yv = np.asarray(yv, dtype=np.float64)
    C = validate_C(C)
    if np.isinf(C):
        raise RpcheckError("`C` (inf) must be finite for the SVR (the epsilon-tube may be infeasible).")
    epsilon = check_interval("epsilon", epsilon, 0, None, closed="left")
    if np.isinf(epsilon):
        raise RpcheckError("`epsilon` (inf) must be finite.")
    form = check_choice("form", form, SVR_FORMS)
    solver = check_solver(solver)
    import cvxpy as cp

    G = factor_rows(X)
    Gt = sp.csr_matrix(G).T.tocsr() if sp.issparse(G) else np.ascontiguousarray(G.T)
    a = cp.Variable(n)
    eps_term = cp.norm1(a) if form == "correct" else cp.sum(a)
    obj = cp.Maximize(yv @ a - epsilon * eps_term - 0.5 * cp.sum_squares(Gt @ a))
    prob = cp.Problem(obj, [cp.sum(a) == 0, a >= -C, a <= C])
    status, iters = run_problem(prob, solver, _solver_options(solver, solver_options))
    if status not in ("optimal", "optimal_inaccurate"):
        raise SolverError(
            f"{solver} returned status {status!r} for the SVR dual.", status=status, solver=solver
        )
    alpha = np.clip(np.asarray(a.value, dtype=np.float64).ravel(), -C, C)
    eps_eff = epsilon if form == "correct" else 0.0
    w = np.asarray(X.T @ alpha, dtype=np.float64).ravel()
    g = decision_values(X, w, 0.0)
    b, _ = _svr_bias(g, yv, alpha, C, eps_eff)
    kkt, xi, P, D = svr_kkt_residuals(X, yv, alpha, w, b, C, eps_eff)
    if kkt.max_relative > _ACCEPT_REL:
        raise SolverError(
            f"{solver} returned status {status!r} but the SVR KKT certificate fails: max relative residual "
            f"{kkt.max_relative:.2e} > {_ACCEPT_REL:g} ({kkt})",
            status=status, solver=solver,
        )
    w_norm_sq = float(np.dot(w, w))
    if form == "correct":
        objective = D
    else:  # eq. (4) as printed: the epsilon term multiplies 1^T alpha (~0 on the feasible set)
        objective = float(np.dot(yv, alpha)) - epsilon * float(np.sum(alpha)) - 0.5 * w_norm_sq
    r_scale = max(1.0, float(np.max(np.abs(yv), initial=0.0)))
    slack_tol = r_scale * max(1e-8, kkt.max_relative)
    return SVRResult(
        alpha=alpha,
        w=w,
        b=float(b),
        objective=float(objective),
        primal_objective=float(P),
        w_norm_sq=w_norm_sq,
        margin=float(1.0 / np.sqrt(w_norm_sq)) if w_norm_sq > 0 else float("inf"),
        slack=xi,
        slack_tol=float(slack_tol),
        in_tube=bool(float(np.max(xi, initial=0.0)) <= slack_tol),
        form=form,
        epsilon=float(epsilon),
        epsilon_effective=float(eps_eff),
        kkt=kkt,
        C=float(C),
        solver=solver,
        status=status,
        iterations=iters,
        solve_time=time.perf_counter() - t0,
    )
