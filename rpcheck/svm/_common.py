"""Shared plumbing of the solvers: validation, solver options, status handling, factorisation."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_interval, check_matrix, check_vector
from ..errors import RpcheckError, SolverError

__all__ = ["SOLVERS", "DEFAULT_SOLVER", "solver_options", "run_problem", "validate_X", "validate_labels", "factor_rows"]

#: Solvers the exact layer supports (all installed with rpcheck's dependencies). "IPM" is rpcheck's own
#: dense interior-point method (``rpcheck.svm._ipm``) for every dual of the package; "AUTO" (the default)
#: runs the IPM and, only when its point fails the KKT certificate, Clarabel through cvxpy. Whatever
#: solver produced it, a returned result has passed the same certificate. CLARABEL, OSQP and SCS stay
#: selectable as independent cross-checks.
SOLVERS = ("AUTO", "CLARABEL", "OSQP", "SCS", "IPM")
DEFAULT_SOLVER = "AUTO"
#: The fallback of "AUTO" when the IPM's point is not certified.
FALLBACK_SOLVER = "CLARABEL"
#: Data scales (largest row norm of X, |y| for the SVR, C times the squared row norm) must lie in
#: [1/LIMIT, LIMIT]: the dual variables scale like 1/||x||^2 and C, the objective like C ||x||^2 n, so
#: beyond 1e+-150 they (or their products in the certificate) leave float64's range (1e+-308).
SCALE_LIMIT = 1e150

# Tolerances per solver. Clarabel (interior point) runs at tightened tolerances; the float64 KKT polish
# (svc.py, meb.py) brings well-conditioned problems to ~1e-12. OSQP and SCS are first-order methods
# and need tight settings to certify at 1e-7 (the issue asks for eps_abs = eps_rel = 1e-9).
def _osqp_polish_key():
    try:
        import osqp

        return "polishing" if int(osqp.__version__.split(".")[0]) >= 1 else "polish"
    except Exception:  # pragma: no cover - osqp is a dependency
        return "polish"


_OPTIONS = {
    # Clarabel stops when EITHER the absolute (default 1e-8) or the relative gap is met; on small-scale
    # duals (small C, objective ~1e-2) the absolute test stops at ~1e-6 relative accuracy and the
    # active set cannot be identified for polishing. Make the relative tests govern.
    "CLARABEL": {"tol_gap_abs": 1e-14, "tol_gap_rel": 1e-10, "tol_feas": 1e-10},
    # adaptive rho stalls on some soft-margin duals (osqp 1.1: 400k iterations without converging on
    # n=100, d=3, C=1, where a fixed rho=1 converges in ~2k); a fixed rho is used.
    "OSQP": {
        "eps_abs": 1e-9, "eps_rel": 1e-9, "max_iter": 400_000, _osqp_polish_key(): True,
        "adaptive_rho": False, "rho": 1.0,
    },
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 400_000},
    "IPM": {},
    "AUTO": {},
}
#: Options the IPM accepts (``rpcheck.svm._ipm.box_qp_ipm``).
IPM_OPTIONS = ("tol", "max_iter")


def solver_options(solver, extra=None):
    """Default options for ``solver`` updated with the user's ``extra`` dict (validated: a dict, and for
    "IPM"/"AUTO", whose options go to the IPM, only the keys of ``IPM_OPTIONS``)."""
    if extra is not None and not isinstance(extra, dict):
        raise RpcheckError(f"`solver_options` ({extra!r}) must be a dict or None.")
    if extra and solver in ("IPM", "AUTO"):
        unknown = sorted(set(extra) - set(IPM_OPTIONS))
        if unknown:
            raise RpcheckError(
                f"`solver_options` has keys {unknown} that the IPM does not accept; allowed keys for "
                f"solver={solver!r}: {', '.join(IPM_OPTIONS)}."
            )
    opts = dict(_OPTIONS[solver])
    if extra:
        opts.update(extra)
    return opts


def check_solver(solver, allowed=SOLVERS):
    """Upper-cased solver name; an unknown name raises RpcheckError quoting the argument as given."""
    if isinstance(solver, str) and solver.upper() in allowed:
        return solver.upper()
    return check_choice("solver", solver, allowed)


def run_problem(prob, solver, options):
    """Solve a cvxpy problem; return ``(status, iterations)``. A solver crash raises SolverError.

    Unbounded / infeasible statuses are returned (the caller decides what they mean).
    """
    import cvxpy as cp

    try:
        prob.solve(solver=solver, **options)
    except cp.error.SolverError as exc:
        raise SolverError(f"{solver} failed: {exc}", status="solver_error", solver=solver) from exc
    stats = prob.solver_stats
    iters = int(stats.num_iters) if stats is not None and stats.num_iters is not None else -1
    return str(prob.status), iters


def validate_X(X, name="X", *, return_norm=False):
    """A finite 2-d float64 array (or CSR matrix) with >= 1 row and column whose largest row norm is 0
    or lies in ``[1/SCALE_LIMIT, SCALE_LIMIT]``; with ``return_norm`` the pair ``(X, max_row_norm(X))`` (so
    that callers need not recompute it: one pass over X)."""
    X = check_matrix(name, X)
    if X.shape[0] < 1:
        raise RpcheckError(f"`{name}` must have at least one row; got shape {X.shape}.")
    if X.shape[1] < 1:
        raise RpcheckError(f"`{name}` must have at least one column; got shape {X.shape}.")
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    rmax = max_row_norm(X)
    if rmax > SCALE_LIMIT or 0 < rmax < 1.0 / SCALE_LIMIT:
        raise RpcheckError(
            f"`{name}` has largest row norm {rmax:.3g}; it must be 0 (all-zero X) or in "
            f"[{1 / SCALE_LIMIT:g}, {SCALE_LIMIT:g}] (the dual variables scale like 1/||x||^2 and would "
            "leave float64's range): rescale X."
        )
    return (X, rmax) if return_norm else X


def max_row_norm(X):
    """``max_i ||x_i||`` computed without overflow (rows scaled by their largest entry)."""
    if sp.issparse(X):
        amax = float(np.max(np.abs(X.data), initial=0.0))
        if amax == 0:
            return 0.0
        Y = X / amax
        return amax * float(np.sqrt(np.max(np.asarray(Y.multiply(Y).sum(axis=1)).ravel(), initial=0.0)))
    amax = float(np.max(np.abs(X), initial=0.0))
    if amax == 0:
        return 0.0
    Y = X / amax
    return amax * float(np.sqrt(np.max(np.einsum("ij,ij->i", Y, Y), initial=0.0)))


def validate_C_scale(C, X, *, rmax=None):
    """Refuse a finite ``C`` whose scale-free size ``C max_i ||x_i||^2`` (``C`` for an all-zero X) is
    outside ``[1/SCALE_LIMIT, SCALE_LIMIT]``; ``C = inf`` always passes. ``rmax``: ``max_row_norm(X)`` if the
    caller has it."""
    if np.isinf(C):
        return C
    r = max_row_norm(X) if rmax is None else rmax
    eff = C * r * r if r > 0 else C  # all-zero X: alpha ~ C itself
    if not (1.0 / SCALE_LIMIT <= eff <= SCALE_LIMIT):
        raise RpcheckError(
            f"`C` ({C:g}) times the squared largest row norm of X ({r:.3g}^2, or 1 for an all-zero X) is "
            f"{eff:.3g}; it must be in "
            f"[{1 / SCALE_LIMIT:g}, {SCALE_LIMIT:g}] (or C = inf for the hard margin): beyond that the dual "
            "variables or the objective leave float64's range."
        )
    return C


def check_finite_outputs(where, inputs, **values):
    """Raise RpcheckError naming the first output in ``values`` that is not finite (NaN or +-inf).

    ``inputs`` is a short description of the arguments (e.g. ``"C=1e+300, max row norm 1"``).
    """
    for name, v in values.items():
        a = np.asarray(v, dtype=np.float64)
        if not np.all(np.isfinite(a)):
            raise RpcheckError(
                f"{where}: the output `{name}` is not finite ({'contains ' if a.ndim else ''}"
                f"{a.ravel()[~np.isfinite(a.ravel())][0]!r}) for the inputs {inputs}; outputs must be finite "
                "float64 numbers: rescale X (and C) towards unit size."
            )


def check_kkt_certificate(kkt, accept_rel, *, solver, status, what="KKT"):
    """Raise :class:`SolverError` when the KKT residuals ``kkt`` (:class:`rpcheck.svm.KKTResiduals`) of a
    returned point exceed ``accept_rel`` (the largest relative residual a certified result may have)."""
    if kkt.max_relative > accept_rel:
        raise SolverError(
            f"{solver} returned status {status!r} but the {what} certificate fails: max relative residual "
            f"{kkt.max_relative:.2e} > {accept_rel:g} ({kkt})",
            status=status, solver=solver,
        )


def validate_targets(y, n, *, name="y", dtype_message=None):
    """A 1-dimensional real vector of length n (one entry per row of X), as an array; ``dtype_message`` is
    the error text for a non-numeric dtype (default: "must hold real numbers")."""
    yy = check_vector(name, y, n)
    if yy.dtype.kind not in "biuf":
        raise RpcheckError(dtype_message or f"`{name}` must hold real numbers; got dtype {yy.dtype}.")
    return yy


def validate_labels(y, n, *, both_classes=True, name="y"):
    """Labels in {-1, +1}, length n; both classes required iff ``both_classes``."""
    yy = np.asarray(y)
    yy = validate_targets(
        yy, n, name=name,
        dtype_message=(f"`{name}` must contain only the labels -1 and +1; got dtype {yy.dtype} (values "
                       f"{yy.ravel()[:5].tolist()})."),
    )
    bad = ~np.isin(yy, (-1, 1))
    if np.any(bad):
        vals = np.unique(yy).tolist()
        offending = np.unique(yy[bad])[:5].tolist()
        raise RpcheckError(
            f"`{name}` must contain only the labels -1 and +1; found values {vals[:5]} "
            f"(not allowed: {offending}, first at index {int(np.flatnonzero(bad)[0])})."
        )
    if both_classes and np.all(yy == yy[0]):
        raise RpcheckError(
            f"`{name}` must contain both classes -1 and +1 (with bias=True the constraint y^T alpha = 0 "
            f"forces alpha = 0 otherwise); got only {int(yy[0])}."
        )
    return yy.astype(np.float64)


def validate_C(C):
    return check_interval("C", C, 0, None, closed="neither") if not (
        isinstance(C, numbers.Real) and not isinstance(C, bool) and C == np.inf
    ) else float("inf")


def validate_bool(name, value):
    if not isinstance(value, bool | np.bool_):
        raise RpcheckError(f"`{name}` ({value!r}) must be True or False.")
    return bool(value)


def factor_rows(X):
    """A matrix G with ``G G^T = X X^T`` and few columns, for the factored dual objective.

    Sparse X is returned as is (its non-zeros are the cheapest factor). Dense X with ``d > n`` is
    replaced by ``R^T`` from the thin QR factorisation ``X^T = Q R`` (n x n); otherwise X itself.
    """
    if sp.issparse(X):
        return X
    n, d = X.shape
    if d > n:
        R = np.linalg.qr(X.T, mode="r")  # (n, n) upper triangular; X X^T = R^T R
        return np.ascontiguousarray(R.T)
    return X


def stage_budget(stages, k, max_iter, done):
    """Epoch budget of stage ``k`` of a coordinate-descent run certified between stages: what is left of
    ``max_iter`` after ``done`` epochs, capped by ``stages[k]`` (uncapped after the last stage); <= 0 when
    nothing is left."""
    left = max_iter - done
    return min(left, stages[k]) if k < len(stages) else left
