r"""Certified solvers for L2-regularised linear ERM without bias, for smooth classification losses.

Problem (Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013, eq. (1)), rows of ``X`` are examples:

.. math::

    \min_{w \in \mathbb{R}^p} P(w) = \frac{\lambda}{2}\lVert w \rVert^2 + \sum_{i=1}^n \ell(y_i x_i^T w),

with **summed** losses as printed in (1) (an averaged objective ``(lambda'/2)||w||^2 + (1/n) sum l`` is the
same problem at ``lambda = n lambda'``), no bias, labels ``y_i in {-1, +1}``. Its dual (2) is

.. math::

    \max_{\alpha \in \Omega^n} D(\alpha) = -\sum_i \ell^*(\alpha_i)
        - \frac{1}{2\lambda} \lVert X^T (y \circ \alpha) \rVert^2,

and Proposition 1 (eq. (4)) links the optima: ``w* = -(1/lambda) X^T (y * alpha*)`` and
``alpha*_i = l'(y_i x_i^T w*)`` (sign convention ``alpha <= 0``; ``-alpha`` are the usual multipliers).
Applied to projected data ``Xhat = X R`` this is the projected problem (6)/(7), and Proposition 2 (eq. (9))
gives the dual solution that Algorithm 1 of the paper maps back with eq. (12).

Losses (``z = y x^T w`` is the margin; conjugates in the paper's form ``l(z) = max_{a in Omega} a z - l*(a)``;
``gamma`` is the smoothness constant, the Lipschitz constant of ``l'``)

- ``"logistic"``: ``l(z) = log(1 + exp(-z))``, ``Omega = [-1, 0]``,
  ``l*(a) = (-a) log(-a) + (1 + a) log(1 + a)``, ``gamma = 1/4``;
- ``"squared_hinge"``: ``l(z) = (1/2) max(0, 1 - z)^2``, ``Omega = (-inf, 0]``, ``l*(a) = a + a^2/2``,
  ``gamma = 1``;
- ``"smoothed_hinge"``: ``l(z) = 0`` for ``z >= 1``, ``(1 - z)^2/(2 mu)`` for ``1 - mu < z < 1``,
  ``1 - z - mu/2`` for ``z <= 1 - mu``; ``Omega = [-1, 0]``, ``l*(a) = a + (mu/2) a^2``, ``gamma = 1/mu``.

The smoothed hinge is the ``gamma``-smoothed hinge of S. Shalev-Shwartz and T. Zhang, "Stochastic dual
coordinate ascent methods for regularized loss minimization", JMLR 14:567-599 (2013), its smoothed-hinge
example (their ``gamma`` is ``mu`` here, to keep ``gamma`` for the smoothness constant of Zhang et al.'s
Theorem 6); ``mu -> 0`` gives the hinge loss. Every loss is convex and differentiable, as (1) requires.

Algorithm
---------
Newton's method with Armijo backtracking on the primal (full steps once the predicted decrease is below
``1e-12 |P|``, which float64 cannot resolve in ``P``), posed in the coordinates of the row space of
``X`` (thin SVD ``X = Q S P^T``, ``w = P v``: the optimum lies in the row space, Prop. 1), so the Newton
system is ``k x k`` with ``k = rank(X) <= min(n, p)``. The squared and smoothed hinge losses are not twice
differentiable at their kinks; their generalised Hessian is used (semismooth Newton), still with the
line search. The dual point is then formed from the primal by eq. (4), ``alpha_i = l'(y_i x_i^T w)``.

Certificate
-----------
For a dual-feasible ``alpha`` and ``w(alpha) = -(1/lambda) X^T (y * alpha)`` the duality gap splits into
Fenchel-Young terms, each non-negative (``u = X^T (y * alpha)``, ``z_i = y_i x_i^T w``):

.. math::

    P(w) - D(\alpha) = \sum_i \big[\ell(z_i) + \ell^*(\alpha_i) - \alpha_i z_i\big]
        + \frac{\lambda}{2} \lVert w + u/\lambda \rVert^2 ,

(the last term is 0 in exact arithmetic; it carries the rounding of ``w``). Each Fenchel-Young term is
evaluated in a cancellation-free closed form (a Bernoulli Kullback-Leibler divergence for the logistic loss,
a square for the squared and smoothed hinge), and a rounding allowance from the standard dot-product error
bound ``|fl(x^T w) - x^T w| <= gamma_p ||x|| ||w||`` (Higham, *Accuracy and Stability*, Sec. 3.1) is added:
``gap`` is a rigorous upper bound on ``P(w) - P(w*)``. Since ``P`` is ``lambda``-strongly convex,

.. math:: \lVert w - w^* \rVert \le \sqrt{2\,\mathrm{gap}/\lambda} .

Derived threshold: the result is **certified** when this radius is at most ``w_tol ||w||`` (default
``w_tol = 1e-6``), i.e. ``gap <= (lambda/2) (w_tol ||w||)^2``; otherwise :class:`rpcheck.errors.SolverError`.

References
----------
.. [1] L. Zhang, M. Mahdavi, R. Jin, T. Yang, S. Zhu, "Recovering the optimal solution by dual random
   projection", COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046. Eqs. (1), (2), (4), (6), (7), (9), (12).
.. [2] S. Shalev-Shwartz, T. Zhang, "Stochastic dual coordinate ascent methods for regularized loss
   minimization", JMLR 14:567-599, 2013 (smoothed hinge loss).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_int, check_interval, check_matrix, check_vector
from ..errors import RpcheckError, SolverError

__all__ = [
    "ERM_LOSSES",
    "ERMResult",
    "solve_erm",
    "erm_primal_objective",
    "erm_dual_objective",
    "erm_duality_gap",
    "loss_value",
    "loss_derivative",
    "loss_conjugate",
    "loss_smoothness",
]

#: Smooth classification losses of :func:`solve_erm`.
ERM_LOSSES = ("logistic", "squared_hinge", "smoothed_hinge")

_U = float(np.finfo(np.float64).eps) / 2.0  # unit roundoff
#: Below this relative size a predicted decrease (Newton decrement) is not resolvable in the objective
#: (a few hundred units of roundoff of the sum of n losses): full Newton steps are taken without line search.
_F_RESOLUTION = 1e-12


# ------------------------------------------------------------------------------------------ validation
def _check_loss(loss, mu):
    check_choice("loss", loss, ERM_LOSSES)
    mu = check_interval("mu", mu, 0, None, closed="neither", finite=True)
    return loss, mu


def _check_problem(X, y, lam):
    X = check_matrix("X", X, allow_sparse=False)
    X = np.ascontiguousarray(X, dtype=np.float64)
    n = X.shape[0]
    if n < 1 or X.shape[1] < 1:
        raise RpcheckError(f"`X` must have at least one row and one column; got shape {X.shape}.")
    yy = check_vector("y", y, n)
    if yy.dtype.kind not in "biuf" or not np.all(np.isin(yy, (-1, 1))):
        vals = np.unique(yy)[:5].tolist() if yy.dtype.kind in "biuf" else str(yy.dtype)
        raise RpcheckError(f"`y` must contain only the labels -1 and +1; found values {vals}.")
    lam = check_interval("lam", lam, 0, None, closed="neither", finite=True)
    return X, yy.astype(np.float64), lam


# ------------------------------------------------------------------------------------------ the losses
def loss_value(loss, z, mu=1.0):
    """``l(z)`` elementwise (``z`` the margins ``y_i x_i^T w``)."""
    loss, mu = _check_loss(loss, mu)
    return _value(loss, np.asarray(z, dtype=np.float64), mu)


def loss_derivative(loss, z, mu=1.0):
    """``l'(z)`` elementwise: the dual variables of eq. (4)/(9), ``alpha_i = l'(z_i) <= 0``."""
    loss, mu = _check_loss(loss, mu)
    return _deriv(loss, np.asarray(z, dtype=np.float64), mu)


def loss_conjugate(loss, a, mu=1.0):
    """``l*(a)`` elementwise; ``inf`` outside ``Omega``."""
    loss, mu = _check_loss(loss, mu)
    a = np.asarray(a, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if loss == "logistic":
            p = -a
            from scipy.special import xlogy

            out = xlogy(p, p) + xlogy(1.0 - p, 1.0 - p)
            return np.where((a >= -1.0) & (a <= 0.0), out, np.inf)
        if loss == "squared_hinge":
            return np.where(a <= 0.0, a + 0.5 * a * a, np.inf)
        return np.where((a >= -1.0) & (a <= 0.0), a + 0.5 * mu * a * a, np.inf)


def loss_smoothness(loss, mu=1.0):
    """The smoothness constant ``gamma`` (Lipschitz constant of ``l'``): 1/4, 1, ``1/mu``."""
    loss, mu = _check_loss(loss, mu)
    return {"logistic": 0.25, "squared_hinge": 1.0, "smoothed_hinge": 1.0 / mu}[loss]


def _value(loss, z, mu):
    if loss == "logistic":
        return np.logaddexp(0.0, -z)
    t = np.maximum(0.0, 1.0 - z)
    if loss == "squared_hinge":
        return 0.5 * t * t
    return np.where(t >= mu, t - 0.5 * mu, t * t / (2.0 * mu))


def _deriv(loss, z, mu):
    if loss == "logistic":
        from scipy.special import expit

        return -expit(-z)
    t = np.maximum(0.0, 1.0 - z)
    if loss == "squared_hinge":
        return -t
    return -np.minimum(1.0, t / mu)


def _hess(loss, z, mu):
    if loss == "logistic":
        from scipy.special import expit

        return expit(z) * expit(-z)
    if loss == "squared_hinge":
        return (z < 1.0).astype(np.float64)
    return ((z < 1.0) & (z > 1.0 - mu)).astype(np.float64) / mu


def _fenchel_young(loss, z, a, mu):
    """``l(z) + l*(a) - a z >= 0`` elementwise, in cancellation-free forms (``a`` in Omega)."""
    if loss == "logistic":
        from scipy.special import expit

        p = -a  # in [0, 1]
        q = expit(-z)  # -l'(z)
        q1 = expit(z)  # 1 - q, computed without cancellation
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            # KL(Bern(p) || Bern(q)) = p log(p/q) + (1-p) log((1-p)/(1-q)), each log as log1p of a difference
            t1 = np.where(p > 0, p * np.log1p((p - q) / q), 0.0)
            t2 = np.where(p < 1, (1.0 - p) * np.log1p((q - p) / q1), 0.0)
            out = t1 + t2
        # far tails: q or q1 underflows to 0 while p does not -> use the direct form (finite, exact enough)
        bad = ~np.isfinite(out)
        if np.any(bad):
            from scipy.special import xlogy

            zb, pb = z[bad], p[bad]
            out[bad] = np.logaddexp(0.0, -zb) + xlogy(pb, pb) + xlogy(1 - pb, 1 - pb) + pb * zb
        return np.maximum(out, 0.0)
    if loss == "squared_hinge":
        t = 1.0 - z
        # z < 1: (1/2)(t + a)^2;  z >= 1: (1/2) a (a + 2 t) with a <= 0, t <= 0
        return np.where(t > 0, 0.5 * (t + a) ** 2, 0.5 * a * (a + 2.0 * t))
    t = 1.0 - z
    return np.where(
        t <= 0,
        a * t + 0.5 * mu * a * a,  # l = 0: both terms >= 0
        np.where(t >= mu, (1.0 + a) * (t - 0.5 * mu * (1.0 - a)), (t + mu * a) ** 2 / (2.0 * mu)),
    )


def _feasible(loss, a):
    if loss == "squared_hinge":
        return bool(np.all(a <= 0.0))
    return bool(np.all((a >= -1.0) & (a <= 0.0)))


# ----------------------------------------------------------------------------------- objectives, gap
def erm_primal_objective(X, y, lam, w, loss, *, mu=1.0):
    """``P(w) = (lambda/2)||w||^2 + sum_i l(y_i x_i^T w)`` (eq. (1))."""
    X, y, lam = _check_problem(X, y, lam)
    loss, mu = _check_loss(loss, mu)
    w = _check_vec("w", w, X.shape[1])
    return float(0.5 * lam * (w @ w) + np.sum(_value(loss, y * (X @ w), mu)))


def erm_dual_objective(X, y, lam, alpha, loss, *, mu=1.0):
    """``D(alpha) = -sum_i l*(alpha_i) - ||X^T (y * alpha)||^2 / (2 lambda)`` (eq. (2)); ``-inf`` if
    ``alpha`` is outside ``Omega^n``."""
    X, y, lam = _check_problem(X, y, lam)
    loss, mu = _check_loss(loss, mu)
    a = _check_vec("alpha", alpha, X.shape[0])
    if not _feasible(loss, a):
        return -math.inf
    u = X.T @ (y * a)
    return float(-np.sum(loss_conjugate(loss, a, mu)) - (u @ u) / (2.0 * lam))


def _check_vec(name, v, k):
    v = np.asarray(v, dtype=np.float64)
    if v.shape != (k,):
        raise RpcheckError(f"`{name}` must have shape ({k},); got {v.shape}.")
    if not np.all(np.isfinite(v)):
        raise RpcheckError(f"`{name}` contains NaN or infinite entries; all entries must be finite.")
    return v


def _gap(X, y, lam, a, loss, mu, row_norms, o=0.0):
    """``(gap_bound, gap_computed, w)`` for a feasible ``a`` (see the module docstring); ``o`` the offsets."""
    u = X.T @ (y * a)
    w = -u / lam
    z = y * (X @ w) + o
    fy = _fenchel_young(loss, z, a, mu)
    resid = w + u / lam
    computed = float(np.sum(fy) + 0.5 * lam * (resid @ resid))
    # rounding allowance: margin errors dz_i <= gamma_p ||x_i|| ||w|| move each term by at most
    # |l'(z_i) - a_i| dz_i + (smooth/2) dz_i^2; each term and the sum carry a few more units of roundoff.
    p = X.shape[1]
    gam_p = p * _U / (1.0 - p * _U)
    dz = gam_p * row_norms * float(np.linalg.norm(w))
    smooth = {"logistic": 0.25, "squared_hinge": 1.0, "smoothed_hinge": 1.0 / mu}[loss]
    slope = np.abs(_deriv(loss, z, mu) - a)
    allowance = float(np.sum(slope * dz + 0.5 * smooth * dz * dz)) + 8.0 * (X.shape[0] + 4) * _U * float(np.sum(fy))
    return computed + allowance, computed, w


def _check_offset(offset, n):
    if offset is None:
        return np.zeros(n)
    return _check_vec("offset", offset, n)


def erm_duality_gap(X, y, lam, alpha, loss, *, mu=1.0, offset=None):
    r"""Certified duality gap of a dual point: a rigorous upper bound on ``P(w(alpha)) - P(w*)``.

    ``w(alpha) = -(1/lambda) X^T (y * alpha)`` (eq. (4)); see the module docstring for the Fenchel-Young
    form and the rounding allowance. Certifies a solution from any solver: pass
    ``alpha = loss_derivative(loss, y * (X @ w))``. ``offset``: as in :func:`solve_erm`.

    Returns
    -------
    (gap, w) : (float, ndarray of shape (p,))

    Raises
    ------
    RpcheckError
        Bad input, or ``alpha`` outside ``Omega^n``.
    """
    X, y, lam = _check_problem(X, y, lam)
    loss, mu = _check_loss(loss, mu)
    a = _check_vec("alpha", alpha, X.shape[0])
    o = _check_offset(offset, X.shape[0])
    if not _feasible(loss, a):
        dom = "(-inf, 0]" if loss == "squared_hinge" else "[-1, 0]"
        raise RpcheckError(f"`alpha` must lie in {dom}^n for loss={loss!r} (the dual domain Omega of eq. (2)).")
    gap, _, w = _gap(X, y, lam, a, loss, mu, np.linalg.norm(X, axis=1), o)
    return gap, w


# ------------------------------------------------------------------------------------------------ solver
@dataclass(frozen=True, eq=False)
class ERMResult:
    r"""A certified solution of the ERM problem (1) and its dual (2).

    Attributes
    ----------
    w : ndarray of shape (p,)
        The primal point ``w(alpha) = -(1/lambda) X^T (y * alpha)`` (the certified one).
    alpha : ndarray of shape (n,)
        Dual variables ``alpha_i = l'(y_i x_i^T w_newton) in Omega`` (eq. (4)/(9)), ``<= 0``.
    objective, dual_objective : float
        ``P(w)`` and ``D(alpha)``.
    gap : float
        Rigorous upper bound on ``P(w) - P(w*)`` (duality gap plus rounding allowance).
    gap_computed : float
        The duality gap as computed (without the allowance).
    gap_threshold : float
        ``(lambda/2)(w_tol ||w||)^2``: the certification threshold.
    radius : float
        ``sqrt(2 gap/lambda) >= ||w - w*||``.
    loss : str
    mu : float
    lam : float
    iterations : int
        Newton iterations.
    solve_time : float
    """

    w: np.ndarray
    alpha: np.ndarray
    objective: float
    dual_objective: float
    gap: float
    gap_computed: float
    gap_threshold: float
    radius: float
    loss: str
    mu: float
    lam: float
    iterations: int
    solve_time: float

    def __post_init__(self):
        self.w.flags.writeable = False
        self.alpha.flags.writeable = False

    @property
    def beta(self):
        """``-alpha``: the non-negative multipliers (``w = X^T (y * beta) / lambda``)."""
        return -self.alpha


def solve_erm(X, y, lam, loss, *, mu=1.0, w_tol=1e-6, max_iter=200, offset=None):
    r"""Solve ``min_w (lambda/2)||w||^2 + sum_i l(y_i x_i^T w)`` (Zhang et al. 2013, eq. (1)) with a certificate.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        Rows are examples (the paper's ``X`` transposed); no bias column is added.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    lam : float
        ``lambda > 0`` (summed losses: ``C = 1/lambda`` in C-form, e.g. sklearn's
        ``LogisticRegression(C=1/lam, fit_intercept=False)``).
    loss : {"logistic", "squared_hinge", "smoothed_hinge"}
    mu : float, default=1.0
        Smoothing parameter of ``"smoothed_hinge"`` (``mu > 0``; smoothness ``1/mu``); ignored otherwise.
    w_tol : float, default=1e-6
        Certified relative accuracy: the result satisfies ``||w - w*|| <= w_tol ||w||``.
    max_iter : int, default=200
        Newton iterations.
    offset : ndarray of shape (n,), optional
        Per-example margin offsets ``o_i``: the losses become ``l(y_i x_i^T w + o_i)`` (default 0). The dual
        becomes ``max -sum_i (l*(a_i) - a_i o_i) - ||X^T (y*a)||^2/(2 lambda)``, still with
        ``w = -(1/lambda) X^T (y * a)``, ``a_i = l'(y_i x_i^T w + o_i)``, and every Fenchel-Young term is taken
        at the shifted margin. This poses the step problems (13)/(23) of Algorithm 2
        (:func:`rpcheck.svm.drp.iterative_drp`).

    Returns
    -------
    ERMResult

    Raises
    ------
    RpcheckError
        Bad input (the message names the argument).
    SolverError
        The duality gap did not reach ``(lambda/2)(w_tol ||w||)^2`` within ``max_iter`` iterations.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5)); y = np.sign(X[:, 0] + 0.3 * rng.standard_normal(30))
    >>> res = solve_erm(X, y, 1.0, "logistic")
    >>> bool(res.radius <= 1e-6 * np.linalg.norm(res.w))
    True
    """
    t0 = time.perf_counter()
    X, y, lam = _check_problem(X, y, lam)
    loss, mu = _check_loss(loss, mu)
    w_tol = check_interval("w_tol", w_tol, 0, 1, closed="neither")
    max_iter = check_int("max_iter", max_iter, 1)
    n, p = X.shape
    o = _check_offset(offset, n)
    row_norms = np.linalg.norm(X, axis=1)
    Q, s, Pt = np.linalg.svd(X, full_matrices=False)
    keep = s > (s[0] * max(n, p) * _U * 2 if s.size and s[0] > 0 else np.inf)
    F = (Q[:, keep] * s[keep]) * y[:, None]  # margins z = F v, w = P v
    P = Pt[keep].T
    k = F.shape[1]

    def f(v):
        return 0.5 * lam * (v @ v) + float(np.sum(_value(loss, F @ v + o, mu)))

    v = np.zeros(k)
    fv = f(v)
    best = None
    stall = 0
    it = 0
    for it in range(1, max_iter + 1):
        z = F @ v + o
        g = lam * v + F.T @ _deriv(loss, z, mu)
        H = F.T @ (F * _hess(loss, z, mu)[:, None])
        H[np.diag_indices_from(H)] += lam
        try:
            step = -np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            step = -g / lam
        dec = -float(g @ step)  # Newton decrement squared
        # candidate certificate at the current point
        if it > 1 or k == 0:
            a = _deriv(loss, y * (X @ (P @ v)) + o, mu)
            gap, gap_c, w = _gap(X, y, lam, a, loss, mu, row_norms, o)
            thr = 0.5 * lam * (w_tol * float(np.linalg.norm(w))) ** 2
            if best is None or gap < 0.5 * best[0]:
                stall = 0
            else:
                stall += 1
            if best is None or gap < best[0]:
                best = (gap, gap_c, w, a, thr)
            # stop: far below the threshold, Newton step vanished, or no progress at working precision
            if best[0] <= 1e-4 * thr or dec <= 0.0 or (stall >= 3 and best[0] <= thr):
                break
        if k == 0:
            break
        if dec <= _F_RESOLUTION * max(1.0, abs(fv)):
            # The predicted decrease is below what P can resolve in float64, so Armijo cannot judge the step:
            # take the full Newton step (the iterate is in the quadratic-convergence region); the
            # certificate (kept as the best gap seen) decides whether it helped.
            v = v + step
            fv = f(v)
            continue
        tstep = 1.0
        while True:
            v_new = v + tstep * step
            f_new = f(v_new)
            if f_new <= fv - 1e-4 * tstep * dec or tstep < 1e-12:
                break
            tstep *= 0.5
        if f_new > fv:  # no decrease possible at working precision
            break
        v, fv = v_new, f_new
    if best is None:
        a = _deriv(loss, y * (X @ (P @ v)) + o, mu)
        gap, gap_c, w = _gap(X, y, lam, a, loss, mu, row_norms, o)
        best = (gap, gap_c, w, a, 0.5 * lam * (w_tol * float(np.linalg.norm(w))) ** 2)
    gap, gap_c, w, a, thr = best
    if not gap <= thr:
        raise SolverError(
            f"solve_erm(loss={loss!r}): duality gap {gap:.3e} above the certification threshold "
            f"(lambda/2)(w_tol ||w||)^2 = {thr:.3e} after {it} Newton iterations.",
            status="not_certified",
            solver="newton",
        )
    w = np.array(w)
    a = np.array(a)
    z = y * (X @ w) + o
    obj = float(0.5 * lam * (w @ w) + np.sum(_value(loss, z, mu)))
    u = X.T @ (y * a)
    dual = float(-np.sum(loss_conjugate(loss, a, mu) - a * o) - (u @ u) / (2.0 * lam))
    return ERMResult(
        w=w,
        alpha=a,
        objective=obj,
        dual_objective=dual,
        gap=float(gap),
        gap_computed=float(gap_c),
        gap_threshold=float(thr),
        radius=math.sqrt(2.0 * max(gap, 0.0) / lam),
        loss=loss,
        mu=mu,
        lam=lam,
        iterations=it,
        solve_time=time.perf_counter() - t0,
    )
