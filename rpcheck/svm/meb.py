r"""Minimum enclosing ball with a duality certificate: the data radius B = min_x* max_i ||x_i - x*||_2 of
Paul et al. 2014 (Sec. 1.1.1; used in Theorems 1.1 and 3.6).

The simplex dual

.. math::

    B^2 = \max_{\lambda \ge 0,\ 1^T\lambda = 1}\ \sum_i \lambda_i \|x_i\|^2 - \|X^T\lambda\|^2,
    \qquad x_B = X^T\lambda^*,

is solved in factored form on the centred data (the problem is translation invariant and centring
improves its conditioning), then polished on the active set: the support points are equidistant from
the centre, which is a linear system in :math:`\lambda_S`. The radius is *recomputed* as
:math:`\max_i \|x_i - c\|` from the returned centre (an upper bound on B for any c), and the dual value at
the returned, exactly feasible :math:`\lambda` is a lower bound on :math:`B^2` (it equals
:math:`\sum_i\lambda_i\|x_i - X^T\lambda\|^2`, computed that way to avoid cancellation). ``gap`` is the
width of that bracket.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._threads import single_thread_blas
from ..errors import SolverError
from ._common import (
    DEFAULT_SOLVER,
    FALLBACK_SOLVER,
    check_finite_outputs,
    check_solver,
    factor_rows,
    max_row_norm,
    run_problem,
    validate_bool,
    validate_X,
)
from ._common import solver_options as _solver_options
from ._ipm import box_qp_ipm
from ._results import BallResult

__all__ = ["min_enclosing_ball"]

_SET_TOL = 1e-6
_MAX_POLISH = 4000
_ACCEPT_REL = 1e-5
# OSQP's stopping tolerances for this dual. At the package's OSQP default (1e-9) OSQP hit its 400k
# iteration limit on about a third of the inputs with n >= 290 (e.g. n=320, d=60: 400k iterations,
# 60-110 s, status user_limit, also with unit-scaled data and other rho); at 1e-7 it stops after ~125
# iterations, and its own active-set polish (and ours) then give a relative gap ~1e-16. Only the
# solver's stopping rule changes: the returned point is still certified by the duality gap below.
# When that certificate fails, the solve is repeated at the package default.
_OSQP_MEB = {"eps_abs": 1e-7, "eps_rel": 1e-7}


def _evaluate(Xc, lam):
    """Centre, radius^2 (max distance^2) and dual value for a simplex point ``lam`` (centred data)."""
    lam = np.clip(lam, 0.0, None)
    s = lam.sum()
    lam = lam / s if s > 0 else np.full(lam.shape, 1.0 / lam.size)
    c = Xc.T @ lam
    dist2 = np.einsum("ij,ij->i", Xc - c, Xc - c)
    return lam, c, float(np.max(dist2)), float(np.dot(lam, dist2))


def _polish(Xc, lam, c, r2):
    """Solve ``2 K_SS lam_S + s 1 = diag(K_SS)``, ``1^T lam_S = 1`` on two guesses of the support set."""
    dist2 = np.einsum("ij,ij->i", Xc - c, Xc - c)
    guesses = [lam > _SET_TOL * lam.max(), dist2 >= r2 * (1 - 1e-6)]
    out = []
    for S in guesses:
        idx = np.flatnonzero(S)
        if idx.size == 0 or idx.size > _MAX_POLISH:
            continue
        XS = Xc[idx]
        K = XS @ XS.T
        m = idx.size
        M = np.empty((m + 1, m + 1))
        M[:m, :m] = 2.0 * K
        M[:m, m] = 1.0
        M[m, :m] = 1.0
        M[m, m] = 0.0
        rhs = np.concatenate([np.diag(K), [1.0]])
        z0 = np.concatenate([lam[idx], [float(np.dot(lam, dist2)) - 0.0]])
        try:
            dz = sla.lstsq(M, rhs - M @ z0, lapack_driver="gelsd")[0]
        except (np.linalg.LinAlgError, ValueError):
            continue
        lS = (z0 + dz)[:m]
        if np.any(lS < -1e-12):
            continue
        new = np.zeros_like(lam)
        new[idx] = np.clip(lS, 0.0, None)
        out.append(new)
    return out


def _solve_cvxpy(Xc, solver, options):
    import cvxpy as cp

    n = Xc.shape[0]
    G = factor_rows(Xc / max_row_norm(Xc))  # unit scale; lambda is scale invariant
    norms = np.einsum("ij,ij->i", G, G)
    lam_v = cp.Variable(n)
    prob = cp.Problem(
        cp.Maximize(norms @ lam_v - cp.sum_squares(G.T @ lam_v)), [lam_v >= 0, cp.sum(lam_v) == 1]
    )
    status, iters = run_problem(prob, solver, options)
    if status not in ("optimal", "optimal_inaccurate") or lam_v.value is None:
        raise SolverError(
            f"{solver} returned status {status!r} for the enclosing-ball dual.", status=status, solver=solver,
        )
    return np.asarray(lam_v.value, dtype=np.float64).ravel(), status, iters


def _solve_ipm(Xc, options):
    """The simplex dual as ``min 1/2 ||sqrt(2) G^T lam||^2 - diag(G G^T)^T lam``, ``1^T lam = 1``,
    ``lam >= 0`` (rpcheck.svm._ipm), on unit-scale data."""
    n = Xc.shape[0]
    with single_thread_blas():  # small dense factorisation: one BLAS thread (rpcheck._threads)
        G = factor_rows(Xc / max_row_norm(Xc))
    norms = np.einsum("ij,ij->i", G, G)
    lam, status, iters = box_qp_ipm(np.sqrt(2.0) * G, -norms, np.inf, e=np.ones(n), r=1.0,
                                    x0=np.full(n, 1.0 / n), **(options or {}))
    if status not in ("optimal", "optimal_inaccurate", "user_limit"):
        raise SolverError(f"IPM returned status {status!r} for the enclosing-ball dual.", status=status,
                          solver="IPM")
    return lam, status, iters


def _certify(Xc, lam, polish, solver, status):
    lam, c, r2, dual = _evaluate(Xc, lam)
    polished = False
    if polish:
        for cand in _polish(Xc, lam, c, r2):
            l1, c1, r21, d1 = _evaluate(Xc, cand)
            if r21 - d1 <= r2 - dual:
                lam, c, r2, dual, polished = l1, c1, r21, d1, True
    gap = r2 - dual
    gap_rel = gap / r2 if r2 > 0 else 0.0
    if not gap_rel <= _ACCEPT_REL:
        raise SolverError(
            f"{solver} returned status {status!r} but the enclosing-ball certificate fails: relative gap "
            f"{gap_rel:.2e} > {_ACCEPT_REL:g}", status=status, solver=solver,
        )
    return lam, c, r2, dual, gap, gap_rel, polished


def _run(Xc, solver, polish, solver_options):
    """(lam, c, r2, dual, gap, gap_rel, polished, solver, status, iterations) for one solver choice."""
    if solver == "IPM":
        lam, status, iters = _solve_ipm(Xc, solver_options)
    elif solver == "OSQP" and not solver_options:
        try:
            lam, status, iters = _solve_cvxpy(Xc, solver, _solver_options(solver, _OSQP_MEB))
            return (*_certify(Xc, lam, polish, solver, status), solver, status, iters)
        except SolverError:  # see _OSQP_MEB: repeat at the package's default tolerance
            lam, status, iters = _solve_cvxpy(Xc, solver, _solver_options(solver))
    else:
        lam, status, iters = _solve_cvxpy(Xc, solver, _solver_options(solver, solver_options))
    return (*_certify(Xc, lam, polish, solver, status), solver, status, iters)


def min_enclosing_ball(X, *, solver=DEFAULT_SOLVER, polish=True, solver_options=None):
    r"""Minimum enclosing ball of the rows of X, certified by weak duality.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Sparse input is densified (the centre is dense anyway).
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM"}, default="AUTO"
        As in :func:`rpcheck.svm.solve_svc`: "AUTO" runs rpcheck's IPM and falls back to Clarabel only
        when the IPM's point fails the certificate. OSQP runs at ``eps_abs = eps_rel = 1e-7`` here (its
        polish then finds the exact active set; at 1e-9 it hit its iteration limit on n >= 290) and is
        repeated at the package default 1e-9 when the certificate fails.
    polish : bool, default=True
        Polish on the support set (equidistance linear system, float64).
    solver_options : dict, optional
        Options of the solver (for "IPM"/"AUTO": ``tol``, ``max_iter``); given options replace the
        OSQP rule above.

    Returns
    -------
    BallResult
        ``radius`` (``max_i ||x_i - center||``), ``radius_sq``, ``center``, ``weights`` (lambda),
        ``dual_value`` (certified lower bound on ``B^2``), ``gap = radius_sq - dual_value``.

    Raises
    ------
    RpcheckError
        Bad input (non-finite entries, empty or non-2-d X, largest row norm outside
        ``[1e-150, 1e150]``, unknown solver, non-bool ``polish``, bad ``solver_options``).
    SolverError
        The solver failed or the relative gap exceeds 1e-5.

    Examples
    --------
    >>> import numpy as np
    >>> res = min_enclosing_ball(np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5]]))
    >>> round(res.radius, 8), np.round(res.center, 8)
    (1.0, array([1., 0.]))
    """
    t0 = time.perf_counter()
    X = validate_X(X)
    solver = check_solver(solver)
    polish = validate_bool("polish", polish)
    _solver_options(solver, solver_options)  # validates the dict
    Xd = X.toarray() if sp.issparse(X) else X
    n = Xd.shape[0]
    mean = Xd.mean(axis=0)
    Xc = Xd - mean
    ctx = f"min_enclosing_ball: n={n}, d={Xd.shape[1]}, solver={solver!r}"
    if n == 1 or not np.any(Xc):
        lam = np.full(n, 1.0 / n)
        status, iters, used = "trivial", 0, solver
        lam, c, r2, dual = _evaluate(Xc, lam)
        gap, gap_rel, polished = r2 - dual, 0.0, False
    else:
        try:
            if solver == "AUTO":
                try:
                    out = _run(Xc, "IPM", polish, solver_options)
                except SolverError as first:
                    try:
                        out = _run(Xc, FALLBACK_SOLVER, polish, None)
                    except SolverError as exc:
                        raise SolverError(f"solver='AUTO': IPM failed ({first}); {FALLBACK_SOLVER} failed "
                                          f"too ({exc})", status=exc.status, solver="AUTO") from None
            else:
                out = _run(Xc, solver, polish, solver_options)
        except SolverError as exc:
            raise type(exc)(f"{exc} [{ctx}]", status=exc.status, solver=exc.solver) from None
        lam, c, r2, dual, gap, gap_rel, polished, used, status, iters = out
        if r2 > 0:
            gap_rel = gap / r2
    center = mean + c
    check_finite_outputs(ctx, f"largest row norm {max_row_norm(Xd):.3g}", center=center, radius_sq=r2,
                         dual_value=dual, weights=lam)
    return BallResult(
        radius=float(np.sqrt(r2)),
        radius_sq=float(r2),
        center=center,
        weights=lam,
        dual_value=float(dual),
        gap=float(gap),
        gap_rel=float(gap_rel),
        polished=polished,
        solver=used,
        status=status,
        iterations=int(iters),
        solve_time=time.perf_counter() - t0,
    )
