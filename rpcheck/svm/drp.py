r"""Dual random projection (Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013): exact oracles, certified solvers.

Conventions (read this first)
-----------------------------
The paper stores the data as ``X_paper in R^{d x n}`` (columns are examples) and uses a projection
``R_paper in R^{d x m}`` with N(0, 1) entries, applying the factor ``1/sqrt(m)`` separately
(``xhat_i = R_paper^T x_i / sqrt(m)``, eq. 5). rpcheck stores data with **rows as examples**,
``X in R^{n x d}`` (``X = X_paper^T``), and every sketch is scaled so that ``E[R R^T] = I_d``
(``rpcheck.sketches``), i.e. ``R = R_paper / sqrt(m)``. With these conventions

- the projected data are ``Xhat = X @ R`` (shape ``(n, m)``), the transpose of the paper's ``Xhat``;
- the projected primal variable ``z`` equals the paper's ``z*`` (eq. 6), the naive solution (10) is
  ``what = R @ z`` and the paper's "random measurements" ``sqrt(m) z* - R_paper^T w*`` (Theorem 1) become
  ``sqrt(m) (z - R^T w*)``;
- the recovery map (12) reads ``wtilde = -(1/lambda) X^T (y * alphahat) = (1/lambda) X^T (y * beta)``
  with the usual SVM multipliers ``beta = -alphahat in [0, 1]^n`` for the hinge loss.

The primal (1) has **no bias** and **summed** losses with weight ``lambda``: in C-form ``C = 1/lambda`` and
the C-form multipliers are ``beta / lambda`` (``rpcheck.svm.solve_svc(X, y, C=1/lam, bias=False)``).

Losses
------
``"square"``: ``l(u) = (1/2)(t - u)^2`` on the prediction ``u = x^T w``. With labels ``t = y in {-1, +1}``
this is the paper's ``(1/2)(1 - y x^T w)^2`` (ridge, Section 4.1, eqs. 14-15); real targets are allowed
(Theorem 6 is checked on regression targets: ``rpcheck.papers.zhang2013.thm6``). Everything is closed form.

``"hinge"``: ``l(u) = max(0, 1 - y u)``. Step 3 of Algorithm 1 (dual from the primal gradient) is
ill-defined at the kink, so the projected **dual** (7) is solved directly (Zhang et al. 2013, Sec. 3 and Sec. 5.2):

.. math::

    \max_{\beta \in [0,1]^n} \; \sum_i \beta_i (1 - c_i)
        - \frac{1}{2\lambda} \lVert \hat X^T (y \circ (\beta - \beta^0)) \rVert^2

(``c = 0, beta^0 = 0`` for Algorithm 1; the Algorithm 2 step otherwise), in factored form (the ``n x n``
Gram matrix is never formed) with Clarabel (posed directly, no cvxpy canonicalisation per solve), followed by a
float64 active-set polish.

``"logistic"``, ``"squared_hinge"``, ``"smoothed_hinge"`` (parameter ``mu``): Algorithm 1 as printed.
The projected primal (6) is solved by :func:`rpcheck.svm.erm.solve_erm` (Newton, certified by its
duality gap), the dual solution is built from the primal by Proposition 2, eq. (9),
``alphahat_i = l'(y_i xhat_i^T z)``, and mapped back by eq. (12). ``z`` is reported as
``-(1/lambda) Xhat^T (y * alphahat)`` (eq. (9)), which equals the Newton iterate up to the certificate.

Certificates
------------
For the smooth losses the certificate is the duality gap of (6)/(7) (:class:`rpcheck.svm.erm.ERMResult`
``.gap``, a rigorous bound on the primal suboptimality of ``z``). For the hinge duals the Frank-Wolfe gap

.. math:: \eta(\beta) = \max_{b \in [0,1]^n} \nabla L(\beta)^T (b - \beta)
          = \sum_i \max(g_i (1 - \beta_i), -g_i \beta_i), \qquad g = \nabla L(\beta),

is computed from the full-precision data (not from the truncated factor). It is zero exactly at the optimum,
bounds the suboptimality ``L(beta*) - L(beta)`` and, for Algorithm 1, equals the primal-dual gap of
(6)/(7). :func:`certified_recovery_bound` turns the gaps of the two duals into a rigorous per-draw version
of Theorem 2 (no tolerance guessed: the only slack comes from the certificate).

Layout
------
The hinge dual (solver, polish, certificate) is in :mod:`rpcheck.svm._drp_hinge` and the input checks in
:mod:`rpcheck.svm._drp_inputs`; this module holds the exact oracles, Algorithms 1 and 2 and the certified
Theorem 2, and re-exports the hinge dual's names.

References
----------
.. [1] L. Zhang, M. Mahdavi, R. Jin, T. Yang, S. Zhu, "Recovering the optimal solution by dual random
   projection", COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_choice, check_int, check_interval, check_matrix
from ..errors import RpcheckError
from ._drp_hinge import (
    _CLARABEL_TIGHT,  # noqa: F401 - importable from here
    HingeDualResult,
    _objective,  # noqa: F401 - importable from here
    _thin_factor,  # noqa: F401 - importable from here
    hinge_dual_gap,
    solve_hinge_dual,
)
from ._drp_inputs import _check_drp_inputs, _check_lam, _check_R, _check_targets, _check_X
from .erm import ERM_LOSSES, ERMResult, solve_erm

__all__ = [
    "LOSSES",
    "ITERATIVE_LOSSES",
    "HingeDualResult",
    "DRPResult",
    "IterativeDRPResult",
    "ridge_solution",
    "ridge_drp_closed_form",
    "solve_hinge_dual",
    "hinge_dual_gap",
    "drp",
    "iterative_drp",
    "naive_solution",
    "certified_recovery_bound",
]

#: Losses implemented by :func:`drp` (the smooth classification losses through :mod:`rpcheck.svm.erm`).
LOSSES = ("square", "hinge") + ERM_LOSSES
#: Losses implemented by :func:`iterative_drp` (all of :data:`LOSSES`).
ITERATIVE_LOSSES = LOSSES


# --------------------------------------------------------------------------------------- exact oracles
def ridge_solution(X, y, lam, *, form="auto"):
    r"""The exact optimum ``w*`` of the square-loss primal (1), eq. (14) of Zhang et al. 2013.

    .. math::

        w^* = (\lambda I_d + X^T X)^{-1} X^T y = X^T (\lambda I_n + X X^T)^{-1} y

    (rows of ``X`` are examples; the paper's ``(lambda I + X X^T)^{-1} X y`` with ``X`` stored ``d x n``).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
        Labels in {-1, +1} (the paper's ridge example) or real regression targets.
    lam : float
        ``lambda > 0``.
    form : {"auto", "primal", "dual"}, default="auto"
        ``"primal"`` solves the ``d x d`` system, ``"dual"`` the ``n x n`` (Woodbury) system, ``"auto"`` the
        smaller one. Both are solved by Cholesky factorisation of a positive definite matrix.

    Returns
    -------
    ndarray of shape (d,)

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]); y = np.array([1.0, -1.0, 1.0])
    >>> bool(np.allclose(ridge_solution(X, y, 0.5, form="primal"), ridge_solution(X, y, 0.5, form="dual")))
    True
    """
    X = _check_X(X)
    n, d = X.shape
    y = _check_targets(y, n, "square")
    lam = _check_lam(lam)
    check_choice("form", form, ("auto", "primal", "dual"))
    if form == "auto":
        form = "primal" if d <= n else "dual"
    import scipy.linalg as sla

    if form == "primal":
        A = X.T @ X
        A[np.diag_indices_from(A)] += lam
        return sla.solve(A, X.T @ y, assume_a="pos")
    K = X @ X.T
    K[np.diag_indices_from(K)] += lam
    return X.T @ sla.solve(K, y, assume_a="pos")


def ridge_drp_closed_form(X, y, lam, R):
    r"""The DRP solution for the square loss in closed form, eq. (15) of Zhang et al. 2013.

    .. math:: \tilde w = X^T (\lambda I_n + X R R^T X^T)^{-1} y

    (the paper prints ``S`` for ``R``; its ``R`` has N(0,1) entries and carries ``1/m``, ours is scaled so
    that ``E[R R^T] = I``). This is an exact, solver-free oracle for Algorithm 1 with the square loss.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
    lam : float
    R : ndarray or sparse matrix of shape (d, m)

    Returns
    -------
    ndarray of shape (d,)
    """
    X = _check_X(X)
    n, d = X.shape
    y = _check_targets(y, n, "square")
    lam = _check_lam(lam)
    R = _check_R(R, d)
    import scipy.linalg as sla

    Xh = X @ R
    K = Xh @ Xh.T
    K[np.diag_indices_from(K)] += lam
    return X.T @ sla.solve(K, y, assume_a="pos")


# ------------------------------------------------------------------------------------------ Algorithm 1
@dataclass(frozen=True, eq=False)
class DRPResult:
    r"""Output of Algorithm 1 (dual random projection).

    Attributes
    ----------
    w_tilde : ndarray of shape (d,)
        The recovered solution (12), ``(1/lambda) X^T dual_coef``; lies in the row space of X.
    w_naive : ndarray of shape (d,)
        The naive solution (10), ``R z``; lies in span(R).
    z : ndarray of shape (m,)
        Optimum of the projected primal (6) (equals the paper's ``z*``); ``z = R^T w_tilde`` (Prop. 2).
    dual_coef : ndarray of shape (n,)
        ``w_tilde = X^T dual_coef / lambda``: ``y * beta`` (hinge) or ``t - Xhat z`` (square).
    alpha : ndarray of shape (n,)
        The paper's dual variables ``alphahat*`` (sign convention ``alpha <= 0`` for classification):
        ``-beta`` (hinge), ``y * Xhat z - 1`` for labels / ``Xhat z - t`` for real targets (square).
    beta : ndarray of shape (n,) or None
        Multipliers ``-alpha >= 0`` (hinge: in ``[0, 1]``; also set for the smooth classification losses).
    dual : HingeDualResult, ERMResult or None
        The certified projected solve (hinge: the dual (7); smooth losses: the primal (6) with its duality
        gap; None for the closed-form square loss). ``dual.gap`` bounds the projected problem's
        suboptimality in both cases.
    loss : str
    lam : float
    """

    w_tilde: np.ndarray
    w_naive: np.ndarray
    z: np.ndarray
    dual_coef: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray | None
    dual: HingeDualResult | ERMResult | None
    loss: str
    lam: float


class _SquareSolver:
    """``(lam I + Xh^T Xh)^{-1}`` applied through the thin SVD of ``Xh`` (valid for any m vs n)."""

    def __init__(self, Xh, lam):
        _, s, Qt = np.linalg.svd(Xh, full_matrices=False)
        self.Q = Qt.T
        self.w = 1.0 / (lam + s**2)
        self.lam = lam

    def solve(self, b):
        qb = self.Q.T @ b
        return self.Q @ (self.w * qb) + (b - self.Q @ qb) / self.lam


def _is_labels(y):
    return bool(np.all(np.isin(y, (-1.0, 1.0))))


def drp(X, y, lam, R, *, loss="square", solver="CLARABEL", polish=True, mu=1.0):
    r"""Algorithm 1 of Zhang et al. 2013 (dual random projection).

    1. ``Xhat = X R`` (eq. 5 in rows-as-examples form);
    2. solve the projected problem (6)/(7): closed form for ``"square"``, the certified projected dual for
       ``"hinge"``, the certified primal (6) (:func:`rpcheck.svm.erm.solve_erm`) for the smooth losses;
    3. the dual solution ``alphahat*`` (Prop. 2, eq. 9);
    4. recover ``wtilde = -(1/lambda) X^T (y * alphahat*)`` (eq. 12).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Data, rows are examples (the paper's ``X`` transposed).
    y : ndarray of shape (n,)
        Labels in {-1, +1}; real targets are allowed for ``loss="square"``.
    lam : float
        ``lambda > 0``.
    R : ndarray or sparse matrix of shape (d, m)
        Projection scaled so that ``E[R R^T] = I`` (the paper's ``R / sqrt(m)``).
    loss : {"square", "hinge", "logistic", "squared_hinge", "smoothed_hinge"}, default="square"
    solver : str, default="CLARABEL"
        cvxpy solver for the hinge dual.
    polish : bool, default=True
    mu : float, default=1.0
        Smoothing parameter of ``"smoothed_hinge"`` (ignored otherwise).

    Returns
    -------
    DRPResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 3)) @ rng.standard_normal((3, 50)); y = np.sign(X[:, 0])
    >>> R = rng.standard_normal((50, 20)) / np.sqrt(20)
    >>> res = drp(X, y, 1.0, R)
    >>> bool(np.allclose(res.w_tilde, ridge_drp_closed_form(X, y, 1.0, R)))
    True
    """
    X, y, lam, R = _check_drp_inputs(X, y, lam, R, loss, LOSSES)
    n, d = X.shape
    Xh = X @ R
    if loss == "square":
        z = _SquareSolver(Xh, lam).solve(Xh.T @ y)
        coef = y - Xh @ z
        alpha = y * (Xh @ z) - 1.0 if _is_labels(y) else -coef
        beta = None
        dual = None
    elif loss in ERM_LOSSES:
        dual = solve_erm(Xh, y, lam, loss, mu=mu)  # (6), certified
        alpha = np.array(dual.alpha)  # eq. (9): alphahat_i = l'(y_i xhat_i^T z)
        beta = -alpha
        coef = y * beta
        z = (Xh.T @ coef) / lam  # eq. (9), z = -(1/lambda) Xhat^T D(y) alphahat
    else:
        dual = solve_hinge_dual(Xh, y, lam, solver=solver, polish=polish)
        beta = np.array(dual.beta)
        coef = y * beta
        alpha = -beta
        z = (Xh.T @ coef) / lam
    w_tilde = (X.T @ coef) / lam
    return DRPResult(
        w_tilde=w_tilde,
        w_naive=R @ z,
        z=z,
        dual_coef=coef,
        alpha=alpha,
        beta=beta,
        dual=dual,
        loss=loss,
        lam=lam,
    )


def naive_solution(R, z):
    r"""The naive solution (10) ``what = R_paper z* / sqrt(m) = R z`` (our ``R`` carries ``1/sqrt(m)``)."""
    R = check_matrix("R", R)
    z = np.asarray(z, dtype=np.float64)
    if z.shape != (R.shape[1],):
        raise RpcheckError(f"`z` must have shape ({R.shape[1]},) to match `R` {R.shape}; got {z.shape}.")
    return np.asarray(R @ z)


# ------------------------------------------------------------------------------------------ Algorithm 2
@dataclass(frozen=True, eq=False)
class IterativeDRPResult:
    r"""Output of Algorithm 2 (iterative DRP) with one projection ``R`` for every iteration.

    Attributes
    ----------
    w_path : ndarray of shape (T + 1, d)
        ``wtilde_0 = 0, wtilde_1, ..., wtilde_T``; ``wtilde_1`` is Algorithm 1's output.
    dual_coef_path : ndarray of shape (T + 1, n)
        Cumulative dual coefficients, ``wtilde_t = X^T dual_coef_path[t] / lambda``.
    gaps : ndarray of shape (T,)
        Frank-Wolfe gap of each hinge dual step, certified duality gap of each smooth-loss step (zeros for
        the closed-form square loss).
    steps : tuple of HingeDualResult or ERMResult
        The certified step solves (hinge and smooth losses).
    loss : str
    lam : float
    """

    w_path: np.ndarray
    dual_coef_path: np.ndarray
    gaps: np.ndarray
    steps: tuple = field(default=())
    loss: str = "square"
    lam: float = 1.0

    @property
    def w_tilde(self):
        return self.w_path[-1]


def iterative_drp(X, y, lam, R, n_iter, *, loss="square", solver="CLARABEL", polish=True, mu=1.0):
    r"""Algorithm 2 of Zhang et al. 2013 (iterative dual random projection), one ``R`` throughout.

    Reconstruction (from Zhang et al. 2013, Sec. 5.2): ``wtilde_0 = 0``; for ``t = 1..T``, with
    ``c_i = y_i x_i^T wtilde_{t-1}``, solve the step problem (13)

    .. math::

        z_t = \arg\min_z \frac{\lambda}{2} \lVert z + R^T \tilde w_{t-1} \rVert^2
              + \sum_i \ell(y_i \hat x_i^T z + c_i)

    and set ``wtilde_t = -(1/lambda) X^T (y * alphahat^t)`` with the cumulative dual
    ``alphahat^t_i = l'(y_i xhat_i^T z_t + c_i)`` (equivalently ``wtilde_t = wtilde_{t-1} + Deltatilde_t``).
    For the smooth losses the step (13) is solved by :func:`rpcheck.svm.erm.solve_erm` in the variable
    ``u = z + R^T wtilde_{t-1}`` with margin offsets ``o_i = c_i - y_i xhat_i^T R^T wtilde_{t-1}`` (then
    ``l(y_i xhat_i^T z + c_i) = l(y_i xhat_i^T u + o_i)`` and the regulariser is ``(lambda/2)||u||^2``), and
    its certified dual is the cumulative ``alphahat^t``. For the hinge loss the step is solved in the dual,
    ``beta^t = argmax_{[0,1]^n} (1 - c)^T beta - ||Xhat^T (y*(beta - beta^{t-1}))||^2 / (2 lambda)``.
    ``w*`` is a fixed point. For real targets ``t`` (square loss) ``y_i x^T w`` is replaced by ``x^T w``.

    Parameters
    ----------
    X, y, lam, R, loss, solver, polish, mu
        As in :func:`drp`.
    n_iter : int
        ``T >= 1``.

    Returns
    -------
    IterativeDRPResult
    """
    X, y, lam, R = _check_drp_inputs(X, y, lam, R, loss, ITERATIVE_LOSSES)
    n, d = X.shape
    T = check_int("n_iter", n_iter, 1)
    Xh = X @ R
    w_path = np.zeros((T + 1, d))
    coef_path = np.zeros((T + 1, n))
    gaps = np.zeros(T)
    steps = []
    if loss == "square":
        sq = _SquareSolver(Xh, lam)
        for t in range(1, T + 1):
            w_prev = w_path[t - 1]
            resid = y - X @ w_prev  # t - X wtilde_{t-1}
            z = sq.solve(Xh.T @ resid - lam * (R.T @ w_prev))
            coef_path[t] = resid - Xh @ z
            w_path[t] = (X.T @ coef_path[t]) / lam
    elif loss in ERM_LOSSES:
        for t in range(1, T + 1):
            w_prev = w_path[t - 1]
            c = y * (X @ w_prev)
            s_prev = R.T @ w_prev
            res = solve_erm(Xh, y, lam, loss, mu=mu, offset=c - y * (Xh @ s_prev))
            steps.append(res)
            gaps[t - 1] = res.gap
            coef_path[t] = -y * np.asarray(res.alpha)  # cumulative alphahat^t (eq. (23) with (12))
            w_path[t] = (X.T @ coef_path[t]) / lam
    else:
        beta_prev = np.zeros(n)
        for t in range(1, T + 1):
            c = y * (X @ w_path[t - 1])
            res = solve_hinge_dual(Xh, y, lam, c=c, beta0=beta_prev, solver=solver, polish=polish)
            steps.append(res)
            gaps[t - 1] = res.gap
            beta_prev = np.array(res.beta)
            coef_path[t] = y * beta_prev
            w_path[t] = (X.T @ coef_path[t]) / lam
    for a in (w_path, coef_path, gaps):
        a.flags.writeable = False
    return IterativeDRPResult(
        w_path=w_path, dual_coef_path=coef_path, gaps=gaps, steps=tuple(steps), loss=loss, lam=lam
    )


# --------------------------------------------------------------------------------- certified Theorem 2
def certified_recovery_bound(eps, target_norm, gap, lam):
    r"""Per-draw bound on ``||wtilde - w*||`` certified by the dual gaps (deterministic Theorem 2).

    From first-order optimality of the two duals up to their Frank-Wolfe gaps ``eta = eta_full + eta_proj``
    (the derivation of inequality (21) with the gaps carried along; Zhang et al. 2013, proof of Theorem 2):

    .. math::

        \lVert R^T e \rVert^2 \le \epsilon \lVert p \rVert \lVert e \rVert + \eta/\lambda, \qquad
        (1-\epsilon) \lVert e \rVert^2 \le \epsilon \lVert p \rVert \lVert e \rVert + \eta/\lambda,

    where ``e = wtilde - w*``, ``p = w*`` (Algorithm 1) or ``w* - wtilde_{t-1}`` (Algorithm 2 step), and
    ``eps = ||U^T R R^T U - I||`` on the row space of X. Hence

    .. math::

        \lVert e \rVert \le \frac{\epsilon \lVert p \rVert
            + \sqrt{\epsilon^2 \lVert p \rVert^2 + 4 (1-\epsilon) \eta / \lambda}}{2 (1 - \epsilon)},

    which is exactly ``eps/(1-eps) ||p||`` when ``eta = 0``.

    Parameters
    ----------
    eps : float
        In ``[0, 1)``.
    target_norm : float
        ``||p||``.
    gap : float
        ``eta >= 0`` (sum of the two duals' Frank-Wolfe gaps; 0 for exact closed forms).
    lam : float

    Returns
    -------
    float

    Examples
    --------
    >>> certified_recovery_bound(0.5, 2.0, 0.0, 1.0)
    2.0
    """
    eps = check_interval("eps", eps, 0, 1, closed="left")
    target_norm = check_interval("target_norm", target_norm, 0, None)
    gap = check_interval("gap", gap, 0, None)
    lam = _check_lam(lam)
    a = eps * target_norm
    return (a + math.sqrt(a * a + 4.0 * (1.0 - eps) * gap / lam)) / (2.0 * (1.0 - eps))
