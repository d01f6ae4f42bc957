r"""Exact linear SVM classification (Paul et al. 2014, eq. 3) with a KKT certificate.

The dual

.. math::

    Z = \max_{\alpha}\ 1^T\alpha - \tfrac12 \|X^T Y \alpha\|_2^2
    \quad\text{s.t.}\quad y^T\alpha = 0\ (\text{bias}),\quad 0 \le \alpha \le C

is posed to cvxpy in factored form (``sum_squares(G^T (y * alpha))`` with ``G G^T = X X^T``) so the
n x n Gram matrix is never formed, solved by an interior-point method (Clarabel by default), and then
*polished*: the free support vectors are identified and the KKT linear system of the equality-constrained
QP on the free set is solved in float64. The polished point is kept only when it is feasible and its
KKT residuals are no worse. Every returned quantity is recomputed from the returned ``alpha``.

Along a C path on the same data (the C grid of one cross-validation fold), ``warm_start`` hands the previous
result's free and bounded sets to the same float64 active-set method at the new C; its point is returned only
when it passes the certificate at 1e-9 relative (else the cold solve runs unchanged). On 13,494 x 256
projections of the rcv1-binary stand-in (lei2020.sparse_scale) the warm point is accepted at all ten C values
after the first of the paper's grid 2^-5..2^5 (0.04-0.10 s against 0.8-1.4 s cold; w equal to 3e-15 relative).

``solver="DCD"`` solves the same dual without densifying a sparse X: dual coordinate descent (Hsieh et al. 2008)
inside a method of multipliers for ``y^T alpha = 0`` (Rockafellar 1976), compiled (``rpcheck.svm._dcd_svc``); its
points go through the same :func:`_finalize` (certificate, polish on CSR rows kept sparse). See
``rpcheck.svm._svc_dcd._solve_dcd``.

The module holds the solve paths (validation, AUTO, the IPM, cvxpy, the warm start, :class:`SVCProblem`); the
float64 polish and the certificate every path shares are in :mod:`rpcheck.svm._svc_polish`, the DCD path in
:mod:`rpcheck.svm._svc_dcd`. Names of those modules that other code imports from here stay importable here.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from .._threads import single_thread_blas
from ..errors import NotSeparableError, RpcheckError, SolverError
from ._common import (
    DEFAULT_SOLVER,
    FALLBACK_SOLVER,
    SOLVERS,
    check_solver,
    factor_rows,
    max_row_norm,
    run_problem,
    validate_bool,
    validate_C,
    validate_C_scale,
    validate_labels,
    validate_X,
)
from ._common import solver_options as _solver_options
from ._svc_dcd import DCD_OPTIONS, _solve_dcd_checked
from ._svc_polish import (
    _ACCEPT_REL,  # noqa: F401 - importable from here
    _MAX_POLISH_FREE,
    _WARM_ACCEPT,
    _check_warm,
    _finalize,
    _not_separable,
    _polish,
    _separable_lp,
    _sets,
    _solve_free,  # noqa: F401 - importable from here; _polish looks it up in _svc_polish
    _solve_free_lowrank,  # noqa: F401 - importable from here
    _with_context,
    pl_argmin,  # noqa: F401 - importable from here (rpcheck.svm.svr)
)

__all__ = ["solve_svc", "SVCProblem", "SVC_SOLVERS", "DCD_OPTIONS"]

#: Solvers of :func:`solve_svc`: the shared ones of ``rpcheck.svm._common.SOLVERS`` plus "DCD" (dual coordinate
#: descent with a method-of-multipliers loop on ``y^T alpha = 0``, :mod:`rpcheck.svm._svc_dcd`; sparse-safe).
SVC_SOLVERS = SOLVERS + ("DCD",)

# A warm start's active-set method (``_solve_warm``) gives up -- and the cold solve runs -- once its free set
# exceeds max(_WARM_MAX_GROWTH * max(|F| of the warm result, d + 2), _WARM_FREE_FLOOR). A guess that is right
# keeps its free set nearly unchanged (the certified result has at most about d + 1 free points on generic
# data); a wrong one adds hundreds of margin violators at once and then cycles through max_rounds of
# O(|F| d^2) solves without certifying. Below the floor a round is at most a 513-square least-squares solve, so
# small problems are never cut (measured along Table 2 C paths: benchmarks/warm_guard_bench.py loses no
# accepted warm start). Performance only: the returned point is certified either way.
_WARM_MAX_GROWTH = 4
_WARM_FREE_FLOOR = 512


# statuses whose point is handed to the certificate (which then accepts or raises SolverError)
_USABLE = ("optimal", "optimal_inaccurate", "user_limit")


def _check_status(status, solver, C, bias, X, y, value):
    if np.isinf(C):
        if status in ("unbounded", "unbounded_inaccurate"):
            raise _not_separable(bias, status, solver, "the dual is unbounded")
        if status != "optimal" and not _separable_lp(X, y, bias):
            raise _not_separable(bias, status, solver, "LP certificate")
    if status not in _USABLE or value is None:
        raise SolverError(
            f"{solver} returned status {status!r} for the SVC dual.", status=status, solver=solver
        )


def _alpha_cap(X, y, bias):
    r"""An upper bound on every optimal alpha_i, from an L1-minimal separating hyperplane (HiGHS LP).

    If ``w0`` (with some b0) separates the data, then for any C (including inf)
    :math:`\sum_i\alpha^*_i = \|w^*\|^2 + C\|\xi^*\|_1 \le 2P^* \le 2P(w_0, b_0, 0) = \|w_0\|^2`,
    so the box :math:`\alpha \le \|w_0\|^2` contains the optimum and does not change the problem.
    First-order solvers (OSQP, SCS) converge badly on the hard-margin dual (no upper bound) or with
    ``C`` far above the optimal alphas; the cap fixes their scaling. Returns None when the data are
    not separable (the LP is infeasible).
    """
    n, d = X.shape
    A = -(sp.diags(y) @ sp.csr_matrix(X))
    A = sp.hstack([A, -A] + ([sp.csr_matrix(-y[:, None])] if bias else []), format="csr")
    c = np.concatenate([np.ones(2 * d), np.zeros(1 if bias else 0)])
    bounds = [(0, None)] * (2 * d) + ([(None, None)] if bias else [])
    res = linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    if res.status != 0:
        return None
    w0 = res.x[:d] - res.x[d : 2 * d]
    return float(np.dot(w0, w0)) * (1.0 + 1e-6) + 1e-12


def _box(X, y, C, bias, solver):
    """The upper bound on alpha passed to the solver (see _alpha_cap); None for no bound."""
    if solver == "CLARABEL":
        return None if np.isinf(C) else C
    cap = _alpha_cap(X, y, bias)
    if cap is None:
        if np.isinf(C):
            raise _not_separable(bias, "infeasible", solver, "LP certificate")
        return C
    return min(C, cap)


def _validate(X, y, C, bias, solver, polish, solvers=SOLVERS):
    """The validated arguments and ``max_row_norm(X)`` (one pass over X for validation and data scale)."""
    X, rmax = validate_X(X, return_norm=True)
    bias = validate_bool("bias", bias)
    y = validate_labels(y, X.shape[0], both_classes=bias)
    C = validate_C_scale(validate_C(C), X, rmax=rmax)
    solver = check_solver(solver, solvers)
    polish = validate_bool("polish", polish)
    return X, y, C, bias, solver, polish, rmax


def _auto(run_ipm, run_fallback, ctx):
    """The "AUTO" policy: the IPM's result if certified; else the fallback solver's (Clarabel).

    NotSeparableError (an LP-certified property of the data) is never retried. When both fail, the
    SolverError names both solvers and the arguments.
    """
    try:
        return run_ipm()
    except NotSeparableError as exc:
        raise _with_context(exc, ctx) from None
    except SolverError as exc:
        first = exc
    try:
        return run_fallback()
    except NotSeparableError as exc:
        raise _with_context(exc, ctx) from None
    except SolverError as exc:
        raise SolverError(
            f"solver='AUTO': IPM failed ({first}); {FALLBACK_SOLVER} failed too ({exc}) [{ctx}]",
            status=exc.status, solver="AUTO",
        ) from None


def solve_svc(X, y, C, *, bias=True, solver=DEFAULT_SOLVER, polish=True, solver_options=None, warm_start=None):
    r"""Solve the linear SVM dual (Paul et al. 2014, eq. 3) exactly and certify it by its KKT conditions.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix of shape (n, d)
        Rows are the points (original or projected ``X R``).
    y : array_like of shape (n,)
        Labels in {-1, +1}; both classes are required when ``bias=True``.
    C : float
        Box bound, ``C > 0``; ``np.inf`` is the hard margin (no upper bound on alpha).
    bias : bool, default=True
        Include the unregularised bias (the constraint ``y^T alpha = 0``).
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM", "DCD"}, default="AUTO"
        "IPM": rpcheck's dense interior-point method (Woodbury, ``O(n k^2)`` per iteration,
        ``k = min(n, d)``), 3-30x faster than Clarabel through cvxpy (BENCHMARKS.md, "SVM solvers") and
        certified the same way. "AUTO" runs the IPM and falls back to Clarabel only when the IPM's point
        fails the certificate (``result.solver`` says which one was certified). CLARABEL, OSQP and SCS
        (through cvxpy) are independent cross-checks. "DCD" (never chosen by "AUTO"): dual coordinate
        descent (Hsieh et al. 2008) inside a method of multipliers for ``y^T alpha = 0``, compiled, on dense
        or CSR X without densifying it (the polish forms only the Gram matrix of the free set); certified by
        the same KKT certificate (see ``_solve_dcd``). Finite ``C`` only (``C = inf`` raises RpcheckError).
        For large sparse data (all features of a text set); on small dense data the IPM is the better choice.
    polish : bool, default=True
        Polish the interior-point solution by solving the KKT system on the free set (float64).
    solver_options : dict, optional
        Extra keyword arguments for ``cvxpy.Problem.solve`` (override the defaults of
        ``rpcheck.svm._common``); for "IPM" and "AUTO" the IPM's ``tol`` and ``max_iter``; for "DCD"
        ``tol`` (default 1e-9, in [1e-15, 1e-3]: largest |projected gradient| and multiplier step, margin units,
        at which the certificate is first tried) and ``max_iter`` (default 100,000 epochs, >= 1).
    warm_start : SVCResult, optional
        A result of ``solve_svc`` on the same ``(X, y)`` and ``bias`` at another ``C`` (a C path, e.g. the
        grid of a cross-validation fold). Its free and bounded sets start the float64 active-set method of
        the polish at the new ``C`` (alpha_U = C); the point it reaches is returned only if it passes the
        KKT certificate at relative level ``1e-9`` (stricter than the ``1e-5`` of every result), with
        ``status="warm_start"`` and ``iterations=0``. Otherwise -- and always for ``C = inf``, a warm start
        at ``C = inf``, with ``polish=False`` or a solver other than "AUTO" / "IPM" -- the cold solve runs
        exactly as without ``warm_start``. The warm start only guesses the active sets: a result on other
        data costs a few float64 solves and is rejected by the certificate. With ``solver="DCD"`` the warm
        start is the starting point instead: its alpha clipped to ``[0, C]`` and made feasible for
        ``y^T alpha = 0`` (the class with the larger sum scaled down), its ``b`` the first multiplier; the result
        is the certified optimum either way (``iterations`` counts the epochs it still took).

    Returns
    -------
    SVCResult
        ``alpha``, ``w = X^T (y * alpha)``, ``b``, ``objective`` (Z at the returned alpha),
        ``w_norm_sq``, ``alpha_sum``, ``slack``, ``margin = 1/||w||``, ``zero_slack``, ``kkt``,
        ``kkt_unpolished`` and solver statistics.

    Raises
    ------
    RpcheckError
        Bad input (labels, shapes, non-finite entries, ``C <= 0``, unknown solver), a data scale outside
        float64's safe range (largest row norm of X, or ``C`` times its square, outside
        ``[1e-150, 1e150]``), or an output that is not finite (named).
    NotSeparableError
        ``C = inf`` on data that are not separable (with the bias, or through the origin without it);
        detected from an unbounded dual or, when the solver is inconclusive, by an exact LP.
    SolverError
        The solver failed, or its point does not pass the KKT certificate at relative level 1e-5.

    Notes
    -----
    The bias is the median of ``y_i - w^T x_i`` over the free support vectors
    (``1e-6 max(alpha) < alpha_i < C (1 - 1e-6)``), or comes directly from the polished KKT system. When
    no support vector is free (all at 0 or C, possible in the soft-margin case) b is not determined by
    the KKT equalities; it is then the exact minimiser of the hinge sum
    :math:`\sum_i (1 - y_i(w^T x_i + b))_+` for the returned w (the midpoint of the minimising interval),
    which is the primal-optimal bias for that w (LIBSVM's midpoint rule restricted to optimal values).

    The identity :math:`\sum\alpha = \|w\|^2 + C\|\xi\|_1` (the KKT conditions of Paul et al. 2014, eq. (3)) and
    strong duality :math:`Z = \|w\|^2/2 + C\|\xi\|_1` hold up to ``n * kkt.complementarity_abs + |b| * kkt.dual_abs``
    (see :mod:`rpcheck.svm.kkt`).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]]); y = np.array([1, -1])
    >>> res = solve_svc(X, y, np.inf)
    >>> np.round(res.w, 8), round(res.margin, 8)
    (array([1., 0.]), 1.0)
    """
    t0 = time.perf_counter()
    X, y, C, bias, solver, polish, rmax = _validate(X, y, C, bias, solver, polish, SVC_SOLVERS)
    if solver == "DCD":
        return _solve_dcd_checked(X, y, C, bias, polish, solver_options, warm_start, t0)
    options = _solver_options(solver, solver_options)
    ctx = f"solve_svc: n={X.shape[0]}, d={X.shape[1]}, C={C:g}, bias={bias}, solver={solver!r}"
    if warm_start is not None:
        _check_warm(warm_start, X.shape[0])
        if solver in ("AUTO", "IPM") and polish:
            res = _solve_warm(X, y, C, bias, warm_start, t0)
            if res is not None:
                return res
    if solver == "AUTO":
        return _auto(
            lambda: _solve_ipm(X, y, C, bias, polish, options, t0, rmax),
            lambda: _solve_cvxpy(X, y, C, bias, polish, FALLBACK_SOLVER, _solver_options(FALLBACK_SOLVER), t0,
                                 rmax),
            ctx,
        )
    try:
        if solver == "IPM":
            return _solve_ipm(X, y, C, bias, polish, options, t0, rmax)
        return _solve_cvxpy(X, y, C, bias, polish, solver, options, t0, rmax)
    except SolverError as exc:
        raise _with_context(exc, ctx) from None


def _solve_cvxpy(X, y, C, bias, polish, solver, options, t0, rmax=None):
    import cvxpy as cp

    n = X.shape[0]
    sc = _data_scale(X, C, rmax)
    G = factor_rows(X) * sc
    A = (sp.csr_matrix(G).T @ sp.diags(y)).tocsr() if sp.issparse(G) else G.T * y[None, :]
    a = cp.Variable(n)
    cons = [a >= 0]
    ub = _box(X, y, C, bias, solver)
    if ub is not None:
        cons.append(a <= ub / sc**2)
    if bias:
        cons.append(y @ a == 0)
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(A @ a)), cons)
    status, iters = run_problem(prob, solver, options)
    _check_status(status, solver, C, bias, X, y, a.value)
    return _finalize(X, y, a.value * sc**2, C, bias, polish, solver, status, iters, t0)



def _data_scale(X, C=np.inf, rmax=None):
    r"""``s = 1 / max_i ||x_i||`` (1 for an all-zero X).

    The dual on ``(s X, C / s^2)`` has the solution ``alpha / s^2`` (the primal objective only changes by
    the factor ``1/s^2`` with ``w' = w / s``), so the solvers work on data of unit scale, where their
    absolute tolerances are meaningful, and ``alpha`` is mapped back exactly afterwards.
    """
    m = max_row_norm(X) if rmax is None else rmax
    s = 1.0 / m if m > 0 and np.isfinite(1.0 / m) else 1.0
    if np.isfinite(C):  # keep the scaled box C / s^2 <= 1e6: interior-point methods dislike huge bounds
        s = max(s, float(np.sqrt(C / 1e6)))
    return s


def _dense_factor(X):
    """Dense G with ``G G^T = X X^T`` and at most min(n, d) columns (for the IPM)."""
    n, d = X.shape
    if not sp.issparse(X):
        return factor_rows(X)
    if d <= n:
        return X.toarray()
    K = (X @ X.T).toarray()
    lam, V = np.linalg.eigh(K)
    keep = lam > lam.max(initial=0.0) * 1e-14 * n
    return V[:, keep] * np.sqrt(lam[keep])[None, :]


def _solve_ipm(X, y, C, bias, polish, options, t0, rmax=None):
    from ._ipm import _ipm, single_thread_blas

    sc = _data_scale(X, C, rmax)
    # the factorisation, the IPM and the certificate are small dense products: one BLAS thread
    # (rpcheck._threads; a 1000 x 100 QR takes 0.1 s with 2 threads on a loaded 2-core machine, 6.5 ms with 1)
    with single_thread_blas():
        A = np.ascontiguousarray(_dense_factor(X) * (sc * y)[:, None])
        alpha, status, iters = _ipm(A, -np.ones(A.shape[0]), C / sc**2, e=y if bias else None, r=0.0,
                                    **(options or {}))
        if status == "numerical_error":
            raise SolverError("IPM: non-finite iterates or a singular Newton system", status=status,
                              solver="IPM")
        alpha = alpha * sc**2
        if np.isinf(C) and status in ("unbounded", "user_limit", "optimal_inaccurate"):
            if not _separable_lp(X, y, bias):
                raise _not_separable(bias, status, "IPM", "LP certificate")
        if status == "unbounded":
            raise SolverError("IPM: the multipliers diverged on separable data", status=status, solver="IPM")
        return _finalize(X, y, alpha, C, bias, polish, "IPM", status, iters, t0)


def _solve_warm(X, y, C, bias, warm, t0):
    """The certified optimum at ``C`` from the active sets of ``warm`` (a result at another C), or None.

    The guess ``alpha_U = C`` on warm's bounded set U, warm's free values (clipped to [0, C]) on its free set
    F and 0 elsewhere goes through the polish's active-set method (solve the KKT equalities on F, move
    violators between the sets, repeat); :func:`_finalize` then certifies the point exactly as a cold solve's.
    Returned only when the certificate is at most ``_WARM_ACCEPT``; None (run the cold solve) otherwise, and
    also as soon as the free set grows past max(``_WARM_MAX_GROWTH`` max(|F|, d + 2), ``_WARM_FREE_FLOOR``) (a
    wrong guess: see the constants).
    """
    if np.isinf(C) or np.isinf(warm.C) or bool(warm.bias) != bias:
        return None
    free, upper = _sets(np.asarray(warm.alpha, dtype=np.float64), warm.C)
    alpha0 = np.where(upper, C, np.clip(warm.alpha, 0.0, C))
    alpha0[~(free | upper)] = 0.0
    grown = _WARM_MAX_GROWTH * max(int(np.count_nonzero(free)), X.shape[1] + 2)
    max_free = min(_MAX_POLISH_FREE, max(grown, _WARM_FREE_FLOOR))
    with single_thread_blas():
        out = _polish(X, y, alpha0, float(warm.b), C, bias, free, max_free=max_free)
        if out is None:
            return None
        try:
            res = _finalize(X, y, out[0], C, bias, True, "IPM", "warm_start", 0, t0)
        except (SolverError, RpcheckError):  # not certified, or not finite: the cold solve decides
            return None
    return res if res.kkt.max_relative <= _WARM_ACCEPT else None



class SVCProblem:
    r"""A canonicalised, parametrised SVC dual for repeated solves on data of one shape.

    The data enter through ``cvxpy.Parameter`` objects in a DPP-compliant way: ``A = X^T diag(y)``
    (d x n) multiplies the variable (parameter-affine times parameter-free) and ``y`` appears in the
    linear equality ``y^T alpha = 0``. cvxpy therefore canonicalises once (the first ``solve``) and
    later solves only refill the solver's matrices.

    Parameters
    ----------
    n, d : int
        Shape of the data.
    C : float
        Box bound (``np.inf`` for hard margin).
    bias : bool, default=True
    solver : {"AUTO", "CLARABEL", "OSQP", "SCS", "IPM"}, default="AUTO"
        As in :func:`solve_svc`.
    polish : bool, default=True
    solver_options : dict, optional

    Notes
    -----
    Sparse X is densified (the parameter is dense). Results are identical to :func:`solve_svc` up to
    solver tolerance and are certified the same way. With ``solver="IPM"`` or ``"AUTO"`` there is
    nothing to canonicalise (``problem`` is None) and ``solve`` calls the IPM directly ("AUTO" falls
    back to a fresh Clarabel solve when the IPM's point is not certified).

    At n=200, r=50 the reuse removes cvxpy's ~10 ms of canonicalisation per solve but the Clarabel
    solve itself (~10 ms) remains, so the per-solve gain is about 1.4-1.6x; ``solver="IPM"`` (no cvxpy
    at all) is faster than both.

    References
    ----------
    .. [1] cvxpy, "Disciplined Parametrized Programming", https://www.cvxpy.org/tutorial/dpp/index.html
       (a parameter-affine expression times a parameter-free one is DPP, so ``A @ alpha`` with
       ``A = cp.Parameter((d, n))`` is).

    Examples
    --------
    >>> import numpy as np
    >>> prob = SVCProblem(2, 2, C=np.inf)
    >>> res = prob.solve(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]))
    >>> round(res.margin, 8)
    1.0
    """

    def __init__(self, n, d, *, C, bias=True, solver=DEFAULT_SOLVER, polish=True, solver_options=None):
        from .._validation import check_int

        self.n = check_int("n", n, 1)
        self.d = check_int("d", d, 1)
        self.C = validate_C(C)
        self.bias = validate_bool("bias", bias)
        self.solver = check_solver(solver)
        self.polish = validate_bool("polish", polish)
        self._options = _solver_options(self.solver, solver_options)
        self.problem = None
        if self.solver in ("IPM", "AUTO"):  # nothing to canonicalise: the IPM works on the data directly
            return
        import cvxpy as cp

        self._A = cp.Parameter((self.d, self.n), name="XtY")
        self._y = cp.Parameter(self.n, name="y")
        self._a = cp.Variable(self.n, name="alpha")
        cons = [self._a >= 0]
        self._ub = None
        if self.solver != "CLARABEL" or not np.isinf(self.C):  # C / s^2 or the cap: data-dependent
            self._ub = cp.Parameter(nonneg=True, name="alpha_ub")
            cons.append(self._a <= self._ub)
        if self.bias:
            cons.append(self._y @ self._a == 0)
        obj = cp.Maximize(cp.sum(self._a) - 0.5 * cp.sum_squares(self._A @ self._a))
        self.problem = cp.Problem(obj, cons)
        assert self.problem.is_dcp(dpp=True)

    def solve(self, X, y):
        """Solve for data ``(X, y)`` of shape ``(n, d)``; returns an :class:`SVCResult`."""
        from ..errors import RpcheckError

        t0 = time.perf_counter()
        X, y, C, bias, solver, polish, rmax = _validate(X, y, self.C, self.bias, self.solver, self.polish)
        if X.shape != (self.n, self.d):
            raise RpcheckError(
                f"`X` has shape {X.shape} but this SVCProblem was built for {(self.n, self.d)}."
            )
        ctx = f"SVCProblem.solve: n={self.n}, d={self.d}, C={C:g}, bias={bias}, solver={solver!r}"
        if solver == "AUTO":
            return _auto(
                lambda: _solve_ipm(X, y, C, bias, polish, self._options, t0, rmax),
                lambda: _solve_cvxpy(X, y, C, bias, polish, FALLBACK_SOLVER,
                                     _solver_options(FALLBACK_SOLVER), t0, rmax),
                ctx,
            )
        try:
            if solver == "IPM":
                return _solve_ipm(X, y, C, bias, polish, self._options, t0, rmax)
            return self._solve_dpp(X, y, C, bias, solver, polish, t0)
        except SolverError as exc:
            raise _with_context(exc, ctx) from None

    def _solve_dpp(self, X, y, C, bias, solver, polish, t0):
        Xd = X.toarray() if sp.issparse(X) else X
        sc = _data_scale(Xd, C)
        self._A.value = Xd.T * (sc * y)[None, :]
        self._y.value = y
        if self._ub is not None:
            self._ub.value = _box(X, y, C, bias, solver) / sc**2
        status, iters = run_problem(self.problem, solver, self._options)
        _check_status(status, solver, C, bias, X, y, self._a.value)
        alpha = None if self._a.value is None else self._a.value * sc**2
        return _finalize(X, y, alpha, C, bias, polish, solver, status, iters, t0)
