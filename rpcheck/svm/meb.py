r"""Minimum enclosing ball (the data radius B of Paul et al. 2014, spec §1.5) with a duality certificate.

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

from ..errors import SolverError
from ._common import CVXPY_SOLVERS, check_solver, factor_rows, run_problem, validate_X
from ._common import solver_options as _solver_options
from ._results import BallResult

__all__ = ["min_enclosing_ball"]

_SET_TOL = 1e-6
_MAX_POLISH = 4000
_ACCEPT_REL = 1e-5


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


def min_enclosing_ball(X, *, solver="CLARABEL", polish=True, solver_options=None):
    r"""Minimum enclosing ball of the rows of X, certified by weak duality.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Sparse input is densified (the centre is dense anyway).
    solver : {"CLARABEL", "OSQP", "SCS"}, default="CLARABEL"
    polish : bool, default=True
        Polish on the support set (equidistance linear system, float64).
    solver_options : dict, optional

    Returns
    -------
    BallResult
        ``radius`` (``max_i ||x_i - center||``), ``radius_sq``, ``center``, ``weights`` (lambda),
        ``dual_value`` (certified lower bound on ``B^2``), ``gap = radius_sq - dual_value``.

    Raises
    ------
    RpcheckError
        Bad input (non-finite entries, empty X, unknown solver).
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
    solver = check_solver(solver, CVXPY_SOLVERS)
    Xd = X.toarray() if sp.issparse(X) else X
    n = Xd.shape[0]
    mean = Xd.mean(axis=0)
    Xc = Xd - mean
    status, iters = "optimal", 0
    if n == 1 or not np.any(Xc):
        lam = np.full(n, 1.0 / n)
        status = "trivial"
    else:
        import cvxpy as cp

        G = factor_rows(Xc)
        norms = np.einsum("ij,ij->i", G, G)
        lam_v = cp.Variable(n)
        prob = cp.Problem(
            cp.Maximize(norms @ lam_v - cp.sum_squares(G.T @ lam_v)), [lam_v >= 0, cp.sum(lam_v) == 1]
        )
        status, iters = run_problem(prob, solver, _solver_options(solver, solver_options))
        if status not in ("optimal", "optimal_inaccurate"):
            raise SolverError(
                f"{solver} returned status {status!r} for the enclosing-ball dual.",
                status=status, solver=solver,
            )
        lam = np.asarray(lam_v.value, dtype=np.float64).ravel()
    lam, c, r2, dual = _evaluate(Xc, lam)
    polished = False
    if polish and status != "trivial":
        for cand in _polish(Xc, lam, c, r2):
            l1, c1, r21, d1 = _evaluate(Xc, cand)
            if r21 - d1 <= r2 - dual:
                lam, c, r2, dual, polished = l1, c1, r21, d1, True
    gap = r2 - dual
    gap_rel = gap / r2 if r2 > 0 else 0.0
    if gap_rel > _ACCEPT_REL:
        raise SolverError(
            f"{solver} returned status {status!r} but the enclosing-ball certificate fails: relative gap "
            f"{gap_rel:.2e} > {_ACCEPT_REL:g}", status=status, solver=solver,
        )
    return BallResult(
        radius=float(np.sqrt(r2)),
        radius_sq=float(r2),
        center=mean + c,
        weights=lam,
        dual_value=float(dual),
        gap=float(gap),
        gap_rel=float(gap_rel),
        polished=polished,
        solver=solver,
        status=status,
        iterations=int(iters),
        solve_time=time.perf_counter() - t0,
    )
