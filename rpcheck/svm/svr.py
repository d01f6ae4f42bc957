r"""Exact linear epsilon-insensitive SVR (Paul et al. 2014, eqs. 2 and 4) with a KKT certificate.

``form="correct"`` solves eq. (2),

.. math::

    \max_\alpha\ y^T\alpha - \epsilon\|\alpha\|_1 - \tfrac12\|X^T\alpha\|^2
    \quad\text{s.t.}\quad 1^T\alpha = 0,\ -C \le \alpha \le C,

(the standard dual with :math:`\alpha = a^+ - a^-`, for which :math:`\|\alpha\|_1 = 1^T(a^+ + a^-)` at the
optimum). ``form="as_printed"`` solves eq. (4) as printed, whose term :math:`\epsilon 1^T\alpha` vanishes
on the feasible set, so it *is* the epsilon = 0 SVR (Paul et al. 2014, Sec. 1.1.2: eq. (4) writes
epsilon 1^T alpha where eq. (2) has epsilon ||alpha||_1); its certificate is computed with
``epsilon_effective = 0``.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._validation import check_choice, check_interval, check_matrix
from ..errors import RpcheckError, SolverError
from ._common import (
    DEFAULT_SOLVER,
    FALLBACK_SOLVER,
    SCALE_LIMIT,
    check_finite_outputs,
    check_kkt_certificate,
    check_solver,
    factor_rows,
    max_row_norm,
    run_problem,
    validate_bool,
    validate_C,
    validate_X,
)
from ._common import solver_options as _solver_options
from ._ipm import box_qp_ipm
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


def _polish_svr(X, y, alpha, b, C, eps, *, max_rounds=8):
    """KKT system on the free set F (``0 < |alpha_i| < C``), with the bounded alphas fixed at +-C:
    ``y_i - x_i^T w - b = eps sign(alpha_i)`` for i in F and ``1^T alpha = 0``; minimum-norm correction.

    The free set is guessed from the solver's point; a guess can be wrong at a degenerate optimum (an alpha
    of 1e-6 that is 0 at the optimum, or one just inside C). So the system is re-solved up to
    ``max_rounds`` times, each round moving the free alphas whose solution changes sign to 0 and those
    beyond the box to +-C (a primal active-set step). The caller accepts the result only through the KKT
    certificate. Returns ``(alpha, b)`` or None when no round keeps the signs and the box."""
    amax = float(np.max(np.abs(alpha), initial=0.0))
    free = (np.abs(alpha) > _SET_TOL * amax) & (np.abs(alpha) < C * (1 - _SET_TOL))
    bounded = np.abs(alpha) >= C * (1 - _SET_TOL)
    F, U = np.flatnonzero(free), np.flatnonzero(bounded)
    sF, sU = np.sign(alpha[F]), np.sign(alpha[U])
    z_b = b
    for _ in range(max_rounds):
        if F.size == 0 or F.size > 4000:
            return None
        aU = C * sU
        XF = X[F].toarray() if sp.issparse(X) else X[F]
        wU = np.asarray(X[U].T @ aU, dtype=np.float64).ravel() if U.size else np.zeros(X.shape[1])
        m = F.size
        M = np.empty((m + 1, m + 1))
        M[:m, :m] = XF @ XF.T
        M[:m, m] = 1.0
        M[m, :m] = 1.0
        M[m, m] = 0.0
        r = np.concatenate([y[F] - eps * sF - XF @ wU, [-float(np.sum(aU))]])
        z0 = np.concatenate([np.clip(alpha[F], -C, C), [z_b]])
        try:
            z = z0 + sla.lstsq(M, r - M @ z0, lapack_driver="gelsd")[0]
        except (np.linalg.LinAlgError, ValueError):
            return None
        aF = z[:m]
        flipped, over = aF * sF < 0, np.abs(aF) > C
        if not (np.any(flipped) or np.any(over)):
            out = np.zeros_like(alpha)
            out[U] = aU
            out[F] = aF
            return out, float(z[m])
        # one active-set step: sign changes leave F for 0, box violations leave F for +-C
        U = np.concatenate([U, F[over & ~flipped]])
        sU = np.concatenate([sU, sF[over & ~flipped]])
        keep = ~(flipped | over)
        F, sF, z_b = F[keep], sF[keep], float(z[m])
    return None


def _svr_scales(X, yv, eps_eff):
    """``(s_x, s_y)``: 1 / largest row norm of X and 1 / max(|y|, eps) (1 where that is 0); see
    :func:`_svr_ipm` for the scaled problem and the map back."""
    rx = max_row_norm(X)
    ry = max(float(np.max(np.abs(yv), initial=0.0)), eps_eff)
    return (1.0 / rx if rx > 0 else 1.0), (1.0 / ry if ry > 0 else 1.0)


def _svr_cvxpy(X, yv, C, epsilon, eps_eff, form, solver, options):
    """The dual through cvxpy on the unit-scale problem of :func:`_svr_ipm` (solvers' absolute
    tolerances then mean the same at every data scale: unscaled, Clarabel's point failed the
    certificate at X, y ~ 1e-6)."""
    import cvxpy as cp

    n = X.shape[0]
    sx, sy = _svr_scales(X, yv, eps_eff)
    G = factor_rows(X * sx)
    Gt = sp.csr_matrix(G).T.tocsr() if sp.issparse(G) else np.ascontiguousarray(G.T)
    a = cp.Variable(n)
    eps_term = cp.norm1(a) if form == "correct" else cp.sum(a)
    Cs = C * sy / sx**2
    obj = cp.Maximize((yv * sy) @ a - epsilon * sy * eps_term - 0.5 * cp.sum_squares(Gt @ a))
    prob = cp.Problem(obj, [cp.sum(a) == 0, a >= -Cs, a <= Cs])
    status, iters = run_problem(prob, solver, options)
    if status not in ("optimal", "optimal_inaccurate") or a.value is None:
        raise SolverError(
            f"{solver} returned status {status!r} for the SVR dual.", status=status, solver=solver
        )
    return np.asarray(a.value, dtype=np.float64).ravel() * (sx**2 / sy), status, iters


def _svr_ipm(X, yv, C, eps_eff, options):
    r"""The SVR dual on ``x = (a^+, a^-)`` in ``[0, C]^{2n}`` (rpcheck.svm._ipm): minimise
    :math:`	frac12\|G^T(a^+ - a^-)\|^2 - y^T(a^+ - a^-) + \epsilon 1^T(a^+ + a^-)` subject to
    :math:`1^T a^+ - 1^T a^- = 0`, on data scaled to unit size: ``X' = s_x X``, ``y' = s_y y``,
    ``eps' = s_y eps``, ``C' = C s_y / s_x^2`` has the solution ``alpha' = alpha s_y / s_x^2``
    (substitute ``w' = w s_y / s_x``, ``b' = b s_y``, ``xi' = xi s_y`` in the primal)."""
    Xd = X.toarray() if sp.issparse(X) else X
    sx, sy = _svr_scales(Xd, yv, eps_eff)
    G = factor_rows(Xd * sx)
    n = G.shape[0]
    ys, es, Cs = yv * sy, eps_eff * sy, C * sy / sx**2
    A = np.vstack([G, -G])
    q = np.concatenate([es - ys, es + ys])
    e = np.concatenate([np.ones(n), -np.ones(n)])
    x, status, iters = box_qp_ipm(A, q, Cs, e=e, r=0.0, **(options or {}))
    if status not in ("optimal", "optimal_inaccurate", "user_limit"):
        raise SolverError(f"IPM returned status {status!r} for the SVR dual.", status=status, solver="IPM")
    return (x[:n] - x[n:]) * (sx**2 / sy), status, iters


#: ``epsilon`` may be at most this multiple of ``max |y|``: beyond it ``y_i +- epsilon`` rounds to ``+-epsilon``
#: in float64 (unit roundoff 2**-53), the tube constraints no longer see y, and the cvxpy solvers fail with
#: generic statuses (measured: CLARABEL "try another solver" at epsilon = 2**70 with |y| ~ 1).
EPS_Y_RATIO = 2.0**52


def solve_svr(X, y, C, epsilon, *, form="correct", solver=DEFAULT_SOLVER, polish=True, solver_options=None):
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
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM"}, default="AUTO"
        As in :func:`rpcheck.svm.solve_svc` ("AUTO": rpcheck's IPM, Clarabel only when the IPM's point
        fails the certificate).
    polish : bool, default=True
        Solve the KKT system on the free set in float64 after the interior-point solve; kept only when
        the signs and the box are preserved and the residuals are no worse.
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
        form or solver), a data scale outside ``[1e-150, 1e150]`` (largest row norm of X, ``max |y|``,
        ``epsilon``, ``C`` times the squared row norm times ``max |y|``), or an output that is not finite.
    SolverError
        The solver failed or its point does not pass the KKT certificate at relative level 1e-5.

    Notes
    -----
    Regime detector (the regression margin of Paul et al. 2014, Theorem 3.7): strong duality gives
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
    ymax = float(np.max(np.abs(yv), initial=0.0))
    if ymax > SCALE_LIMIT:
        raise RpcheckError(f"`y` has an entry of magnitude {ymax:.3g}; entries must be at most "
                           f"{SCALE_LIMIT:g} in magnitude (rescale y).")
    C = validate_C(C)
    if np.isinf(C):
        raise RpcheckError("`C` (inf) must be finite for the SVR (the epsilon-tube may be infeasible).")
    epsilon = check_interval("epsilon", epsilon, 0, None, closed="left")
    if epsilon > SCALE_LIMIT:
        raise RpcheckError(f"`epsilon` ({epsilon:g}) must be finite and at most {SCALE_LIMIT:g}.")
    if ymax > 0 and epsilon > EPS_Y_RATIO * ymax:
        raise RpcheckError(
            f"`epsilon` ({epsilon:g}) is more than 2**52 times max |y| ({ymax:.3g}): y vanishes in y_i +- epsilon "
            "in float64, so the problem no longer depends on y (every point lies in the tube: w = 0, alpha = 0); "
            f"use epsilon <= {EPS_Y_RATIO * ymax:.3g}."
        )
    form = check_choice("form", form, SVR_FORMS)
    polish = validate_bool("polish", polish)
    solver = check_solver(solver)
    options = _solver_options(solver, solver_options)
    eps_eff = epsilon if form == "correct" else 0.0
    rx = max_row_norm(X)
    cx = C * rx * rx if rx > 0 else C  # all-zero X: alpha ~ C itself
    eff = cx * max(ymax, eps_eff)
    ok = 1.0 / SCALE_LIMIT <= cx <= SCALE_LIMIT and eff <= SCALE_LIMIT
    if max(ymax, eps_eff) > 0 and not ok:
        raise RpcheckError(
            f"`C` ({C:g}) with X of largest row norm {rx:.3g} and max(|y|, epsilon) = {max(ymax, eps_eff):.3g}: "
            f"C ||x||^2 must be in [{1 / SCALE_LIMIT:g}, {SCALE_LIMIT:g}] and C ||x||^2 max(|y|, eps) at most "
            f"{SCALE_LIMIT:g} (the dual variables and the objective scale like these): rescale."
        )
    ctx = f"solve_svr: n={n}, d={X.shape[1]}, C={C:g}, epsilon={epsilon:g}, form={form!r}, solver={solver!r}"

    def run(which, opts):
        if which == "IPM":
            a, st, it = _svr_ipm(X, yv, C, eps_eff, opts)
        else:
            a, st, it = _svr_cvxpy(X, yv, C, epsilon, eps_eff, form, which, opts)
        return _svr_certify(X, yv, a, C, epsilon, eps_eff, form, polish, which, st, it, t0, ctx)

    try:
        if solver != "AUTO":
            return run(solver, options)
        try:
            return run("IPM", options)
        except SolverError as first:
            try:
                return run(FALLBACK_SOLVER, _solver_options(FALLBACK_SOLVER))
            except SolverError as exc:
                raise SolverError(f"solver='AUTO': IPM failed ({first}); {FALLBACK_SOLVER} failed too "
                                  f"({exc})", status=exc.status, solver="AUTO") from None
    except SolverError as exc:
        raise type(exc)(f"{exc} [{ctx}]", status=exc.status, solver=exc.solver) from None


def _svr_certify(X, yv, alpha, C, epsilon, eps_eff, form, polish, solver, status, iters, t0, ctx):
    alpha = np.clip(alpha, -C, C)
    w = np.asarray(X.T @ alpha, dtype=np.float64).ravel()
    g = decision_values(X, w, 0.0)
    b, _ = _svr_bias(g, yv, alpha, C, eps_eff)
    kkt, xi, P, D = svr_kkt_residuals(X, yv, alpha, w, b, C, eps_eff)
    kkt0, polished = kkt, False
    if polish:
        cands = [_polish_svr(X, yv, alpha, b, C, eps_eff)]
        if float(np.max(np.abs(alpha), initial=0.0)) <= 1e-8 * C:
            # every alpha may be solver noise around the optimum alpha = 0 (all points inside the
            # tube): try it; b is then any minimiser of the tube hinge
            z = np.zeros_like(alpha)
            cands.append((z, pl_argmin(yv - eps_eff, yv + eps_eff)))
        for out in cands:
            if out is None:
                continue
            a1, b1 = out
            w1 = np.asarray(X.T @ a1, dtype=np.float64).ravel()
            k1, xi1, P1, D1 = svr_kkt_residuals(X, yv, a1, w1, b1, C, eps_eff)
            if k1.max_relative <= kkt.max_relative:
                alpha, w, b, kkt, xi, P, D = a1, w1, b1, k1, xi1, P1, D1
                polished = True
    check_kkt_certificate(kkt, _ACCEPT_REL, solver=solver, status=status, what="SVR KKT")
    w_norm_sq = float(np.dot(w, w))
    if form == "correct":
        objective = D
    else:  # eq. (4) as printed: the epsilon term multiplies 1^T alpha (~0 on the feasible set)
        objective = float(np.dot(yv, alpha)) - epsilon * float(np.sum(alpha)) - 0.5 * w_norm_sq
    check_finite_outputs(ctx, "see the arguments", alpha=alpha, w=w, b=b, objective=objective,
                         primal_objective=P, w_norm_sq=w_norm_sq)
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
        kkt_unpolished=kkt0,
        polished=polished,
        C=float(C),
        solver=solver,
        status=status,
        iterations=iters,
        solve_time=time.perf_counter() - t0,
    )
