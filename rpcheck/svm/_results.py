"""Frozen result types of the exact solvers (``rpcheck.svm``).

Every array field is made read-only, so a result can be shared between checkers without copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

__all__ = ["KKTResiduals", "SVCResult", "L2SVCResult", "SVRResult", "BallResult", "MarginResult",
           "MulticlassResult", "JointMulticlassResult"]


def _freeze(obj):
    """Make every ndarray field of a frozen dataclass read-only (called from ``__post_init__``)."""
    for f in fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, np.ndarray):
            v.flags.writeable = False


class _Frozen:
    """Base of the result dataclasses: every ndarray field is made read-only once constructed."""

    def __post_init__(self):
        _freeze(self)


class _DualSupport(_Frozen):
    """A result with dual variables ``alpha >= 0`` (one per example)."""

    @property
    def support(self) -> np.ndarray:
        """Indices with ``alpha_i > 0`` (after the solver's threshold, where it has one)."""
        return np.flatnonzero(self.alpha > 0)


@dataclass(frozen=True)
class KKTResiduals:
    """Residuals of the four KKT conditions of a convex QP at a returned point.

    Each condition has an absolute residual (the largest violation, in the units of the condition)
    and a relative one (the absolute residual divided by the condition's natural scale, stated in
    :func:`rpcheck.svm.kkt.svc_kkt_residuals`). A point is a certified optimum at level ``tol`` when
    ``max_relative <= tol``.

    Attributes
    ----------
    primal_abs, primal_rel : float
        Primal feasibility: largest violation of the margin (or tube) constraints.
    dual_abs, dual_rel : float
        Dual feasibility: largest violation of the box ``0 <= alpha <= C`` and of the equality constraint.
    complementarity_abs, complementarity_rel : float
        Largest complementary-slackness product.
    gap_abs, gap_rel : float
        Duality gap ``primal value - dual value`` (signed in ``gap_abs``; ``gap_rel`` is its modulus
        over ``max(|P|, |D|)``).
    """

    primal_abs: float
    primal_rel: float
    dual_abs: float
    dual_rel: float
    complementarity_abs: float
    complementarity_rel: float
    gap_abs: float
    gap_rel: float

    @property
    def max_relative(self) -> float:
        """The largest of the four relative residuals."""
        return float(max(self.primal_rel, self.dual_rel, self.complementarity_rel, self.gap_rel))

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, eq=False)
class SVCResult(_DualSupport):
    """Solution of the linear SVM classification dual (Paul et al. 2014, eq. 3) with its certificate.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        Dual variables, in ``[0, C]``.
    w : ndarray of shape (d,)
        ``X^T (y * alpha)``, computed from the returned ``alpha``.
    b : float
        Bias (0 when ``bias=False``).
    objective : float
        Dual objective ``Z = sum(alpha) - ||w||^2 / 2`` evaluated at the returned ``alpha``.
    primal_objective : float
        ``||w||^2 / 2 + C ||xi||_1`` at ``(w, b, xi)`` (``||w||^2/2`` for hard margin).
    w_norm_sq, alpha_sum : float
        ``||w||^2`` and ``sum(alpha)``; they are equal iff the optimal slack is zero (the KKT conditions of eq. (3)).
    slack : ndarray of shape (n,)
        ``xi_i = max(0, 1 - y_i (w^T x_i + b))``.
    margin : float
        ``1 / ||w||`` (``inf`` when ``w = 0``).
    zero_slack : bool
        Separable regime certified: ``max(alpha) < C (1 - 1e-6)`` and ``max(xi) <= slack_tol``.
    slack_tol : float
        The tolerance used for ``xi ~ 0`` in ``zero_slack`` (derived from the primal residual).
    n_free, n_bounded : int
        Numbers of free (``0 < alpha < C``) and bounded (``alpha = C``) support vectors.
    bias_method : str
        ``"kkt"`` (from the polished KKT system), ``"median"`` (median over free SVs), ``"interval"``
        (midpoint of the KKT interval when no SV is free) or ``"none"`` (``bias=False``).
    kkt, kkt_unpolished : KKTResiduals
        Residuals at the returned point and at the interior-point solution before polishing.
    polished : bool
        Whether the polished point was accepted (it is only when it is feasible and its residuals are
        no worse).
    C : float
    bias : bool
    solver, status : str
    iterations : int
    solve_time : float
        Wall time in seconds of the whole call (canonicalisation, solve, polish, certificate).
    """

    alpha: np.ndarray
    w: np.ndarray
    b: float
    objective: float
    primal_objective: float
    w_norm_sq: float
    alpha_sum: float
    slack: np.ndarray
    margin: float
    zero_slack: bool
    slack_tol: float
    n_free: int
    n_bounded: int
    bias_method: str
    kkt: KKTResiduals
    kkt_unpolished: KKTResiduals
    polished: bool
    C: float
    bias: bool
    solver: str
    status: str
    iterations: int
    solve_time: float


@dataclass(frozen=True, eq=False)
class L2SVCResult(_DualSupport):
    """Solution of the L2-regularised squared-hinge (L2-loss) linear SVM that LIBLINEAR solves by default
    (``rpcheck.svm.solve_l2svc``), with its duality-gap and KKT certificate.

    Primal ``min_w 1/2 ||w||^2 + C sum_i max(0, 1 - y_i w^T x_i)^2``; dual
    ``max_{alpha >= 0} sum(alpha) - 1/2 ||X^T Y alpha||^2 - ||alpha||^2 / (4C)``.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        Dual variables, ``>= 0`` (no upper bound: the L2-loss dual has none).
    w : ndarray of shape (d,)
        ``X^T (y * alpha)`` without the bias coordinate.
    b : float
        0 when ``bias=False``; with ``bias=True`` the weight of the appended constant-1 feature
        (regularised, as LIBLINEAR's ``-B 1``).
    objective : float
        Dual objective at the returned ``alpha``.
    primal_objective : float
        Primal objective at the returned ``(w, b)``.
    gap, gap_rel : float
        ``primal_objective - objective`` (>= 0 by weak duality, up to rounding) and ``|gap| / primal``.
    w_error_bound : float
        Certified bound on ``||(w, b) - (w*, b*)||`` (the primal is 1-strongly convex):
        ``sqrt(2 max(gap, 0) + fp)`` with ``fp`` the rounding allowance of the gap.
    w_norm_sq : float
        ``||w||^2`` (bias coordinate excluded).
    margin : float
        ``1 / ||w||`` (``inf`` when ``w = 0``).
    slack : ndarray of shape (n,)
        ``xi_i = max(0, 1 - y_i (w^T x_i + b))``; at the optimum ``alpha_i = 2 C xi_i``.
    kkt_pg : float
        Largest |projected gradient| of the dual (``G_i = y_i f_i - 1 + alpha_i / (2C)``; ``G_i`` when
        ``alpha_i > 0``, ``min(G_i, 0)`` when ``alpha_i = 0``): 0 exactly at the optimum.
    kkt_pg_rel : float
        The same relative to the magnitudes summed in ``G_i``, ``1 + |x_i|^T |w| + alpha_i/(2C)`` (the
        certificate's criterion, <= 1e-6).
    complementarity : float
        ``max_i alpha_i |G_i|``.
    n_sv : int
        Number of ``alpha_i > 0``.
    polished : bool
        Whether the returned point came from the active-set polish (else from the DCD iterates).
    C : float
    bias : bool
    solver, status : str
    iterations : int
        DCD epochs run.
    solve_time : float
    """

    alpha: np.ndarray
    w: np.ndarray
    b: float
    objective: float
    primal_objective: float
    gap: float
    gap_rel: float
    w_error_bound: float
    w_norm_sq: float
    margin: float
    slack: np.ndarray
    kkt_pg: float
    kkt_pg_rel: float
    complementarity: float
    n_sv: int
    polished: bool
    C: float
    bias: bool
    solver: str
    status: str
    iterations: int
    solve_time: float


@dataclass(frozen=True, eq=False)
class SVRResult(_Frozen):
    """Solution of the linear epsilon-insensitive SVR dual (Paul et al. 2014, eq. 2 or, as printed, eq. 4).

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        ``alpha = a+ - a-`` in ``[-C, C]``, ``sum(alpha) = 0``.
    w : ndarray of shape (d,)
        ``X^T alpha``.
    b : float
    objective : float
        The dual objective of the chosen form at the returned ``alpha``:
        ``y^T alpha - eps ||alpha||_1 - ||w||^2/2`` (``form="correct"``) or
        ``y^T alpha - eps 1^T alpha - ||w||^2/2`` (``form="as_printed"``).
    primal_objective : float
        ``||w||^2/2 + C sum(xi)`` with ``xi_i = max(0, |y_i - f_i| - epsilon_effective)``.
    w_norm_sq : float
    margin : float
        ``1/||w||`` (``inf`` when ``w = 0``).
    slack : ndarray of shape (n,)
    in_tube : bool
        Every point is inside or on the tube (``max xi <= slack_tol``) and no ``|alpha_i|`` is at ``C``
        with positive slack; then ``y^T alpha - eps ||alpha||_1 = ||w||^2`` (the regime detector of the regression
        margin, Paul et al. 2014, Theorem 3.7).
    form : str
    epsilon : float
        The epsilon argument.
    epsilon_effective : float
        The epsilon the solved problem actually uses: ``epsilon`` for ``"correct"``, 0 for
        ``"as_printed"`` (its epsilon term vanishes on the feasible set).
    kkt, kkt_unpolished : KKTResiduals
    polished : bool
    C : float
    solver, status : str
    iterations : int
    solve_time : float
    """

    alpha: np.ndarray
    w: np.ndarray
    b: float
    objective: float
    primal_objective: float
    w_norm_sq: float
    margin: float
    slack: np.ndarray
    slack_tol: float
    in_tube: bool
    form: str
    epsilon: float
    epsilon_effective: float
    kkt: KKTResiduals
    kkt_unpolished: KKTResiduals
    polished: bool
    C: float
    solver: str
    status: str
    iterations: int
    solve_time: float


@dataclass(frozen=True, eq=False)
class BallResult(_Frozen):
    """Minimum enclosing ball of the rows of X (Paul et al. 2014, Section 1.5 of the spec).

    Attributes
    ----------
    radius : float
        ``max_i ||x_i - center||`` recomputed from the returned centre (an upper bound on the true B).
    radius_sq : float
        ``radius ** 2``.
    center : ndarray of shape (d,)
        ``sum_i lambda_i x_i``, a convex combination of the rows.
    weights : ndarray of shape (n,)
        The simplex dual variables ``lambda`` (``>= 0``, summing to 1).
    dual_value : float
        ``sum_i lambda_i ||x_i||^2 - ||X^T lambda||^2`` at the returned (exactly feasible) ``lambda``:
        a lower bound on ``B^2`` (weak duality).
    gap : float
        ``radius_sq - dual_value >= 0``: the certificate, ``B^2`` lies in ``[dual_value, radius_sq]``.
    gap_rel : float
        ``gap / radius_sq`` (0 when the radius is 0).
    polished : bool
    solver, status : str
    iterations : int
    solve_time : float
    """

    radius: float
    radius_sq: float
    center: np.ndarray
    weights: np.ndarray
    dual_value: float
    gap: float
    gap_rel: float
    polished: bool
    solver: str
    status: str
    iterations: int
    solve_time: float


@dataclass(frozen=True, eq=False)
class MarginResult(_Frozen):
    """Normalised margin of Shi et al. 2012 (Definition 2): no bias, unit-normalised points.

    Attributes
    ----------
    margin : float
        ``gamma* = max_u min_i y_i cos(u, x_i)`` when separable (``= 1/||w||`` at the hard-margin
        optimum). When the data are not separable through the origin it is ``min_i y_i cos(u, x_i) <= 0``
        at the returned direction (a lower bound on the max-min, which is non-convex there).
    w : ndarray of shape (d,)
        The hard-margin weight vector on the normalised points (``||w|| = 1/gamma*``); when not separable,
        the soft-margin (C=1, no bias) direction used for ``margin``.
    direction : ndarray of shape (d,)
        ``w / ||w||`` (zeros when ``w = 0``).
    separable : bool
    margin_lower, margin_upper : float
        Certified bracket of ``gamma*``: ``min_i y_i cos(w, x_i)`` and ``1/sqrt(2 Z)`` from the dual
        value ``Z`` (weak duality). ``margin_upper`` is ``nan`` when not separable.
    note : str
        Empty, or the explanation for a non-separable input.
    svc : SVCResult or None
        The underlying solve.
    """

    margin: float
    w: np.ndarray
    direction: np.ndarray
    separable: bool
    margin_lower: float
    margin_upper: float
    note: str = ""
    svc: SVCResult | None = field(default=None, repr=False)


@dataclass(frozen=True, eq=False)
class MulticlassResult(_Frozen):
    """Solution of the Crammer-Singer multiclass linear SVM (no bias) with its duality-gap certificate
    (:func:`rpcheck.svm.solve_crammer_singer`).

    Attributes
    ----------
    W : ndarray of shape (K, d)
        Row ``k`` is the weight vector of ``classes[k]``; ``W = alpha^T X`` from the returned ``alpha``.
    alpha : ndarray of shape (n, K)
        Dual variables: ``0 <= alpha[i, k_i] <= C`` for the true class ``k_i``, ``alpha[i, m] <= 0``
        otherwise, every row summing to 0.
    classes : ndarray of shape (K,)
        The sorted distinct labels; column/row ``k`` of ``alpha``/``W`` belongs to ``classes[k]``.
    primal : float
        ``||W||_F^2 / 2 + C sum_i xi_i`` with the exact slacks ``xi_i`` of ``W``.
    dual : float
        ``-||W||_F^2 / 2 - sum_{i, m != k_i} alpha[i, m]`` at the returned ``alpha`` (a lower bound on
        the optimum by weak duality).
    gap, gap_rel : float
        ``primal - dual`` (>= 0 up to rounding) and ``gap / primal``.
    fp_allowance : float
        Float64 rounding allowance on the gap (the certificate accepts ``gap <= tol * primal + fp``).
    w_error_bound : float
        ``sqrt(2 (max(gap, 0) + fp))``: ``||W - W*||_F`` is at most this (the primal is 1-strongly convex).
    slack : ndarray of shape (n,)
        ``xi_i = max_m (1 - delta_{k_i m} + w_m^T x_i - w_{k_i}^T x_i)`` (>= 0).
    violation : float
        Largest optimality violation of the sub-problems (Keerthi et al. 2008, eq. (12)) at the last epoch.
    iterations : int
        Epochs of the sequential dual method.
    """

    W: np.ndarray
    alpha: np.ndarray
    classes: np.ndarray
    primal: float
    dual: float
    gap: float
    gap_rel: float
    fp_allowance: float
    w_error_bound: float
    slack: np.ndarray
    violation: float
    C: float
    solver: str
    status: str
    iterations: int
    solve_time: float

    def decision_function(self, X) -> np.ndarray:
        """Scores ``X W^T`` of shape (m, K)."""
        return np.asarray(X @ self.W.T)

    def predict(self, X) -> np.ndarray:
        """``classes[argmax_k w_k^T x]`` (ties to the smallest index)."""
        return self.classes[np.argmax(self.decision_function(X), axis=1)]


@dataclass(frozen=True, eq=False)
class JointMulticlassResult(_Frozen):
    """Solution of the joint-feature multiclass linear SVM (one weight vector ``v``, class ``k`` of ``x`` scored
    by ``<v, phi(x, k)>``) with its duality-gap certificate (:func:`rpcheck.svm.solve_joint_multiclass`).

    Attributes
    ----------
    v : ndarray of shape (n,)
        The weight vector, ``v = sum_{i,k} alpha[i, k] phi(x_i, k)`` from the returned ``alpha``.
    alpha : ndarray of shape (m, K)
        Dual variables: ``0 <= alpha[i, y_i] <= C``, ``alpha[i, k] <= 0`` otherwise, every row summing to 0.
    primal : float
        ``||v||^2 / 2 + C sum_i xi_i`` with the exact slacks ``xi_i`` of ``v``.
    dual : float
        ``-||v||^2 / 2 - sum_{i, k != y_i} alpha[i, k]`` at the returned ``alpha`` (a lower bound on the
        optimum by weak duality).
    gap, gap_rel : float
        ``primal - dual`` (>= 0 up to rounding) and ``gap / primal``.
    fp_allowance : float
        Float64 rounding allowance on the gap (the certificate accepts ``gap <= tol * primal + fp``).
    v_error_bound : float
        ``sqrt(2 (max(gap, 0) + fp))``: ``||v - v*||`` is at most this (the primal is 1-strongly convex).
    slack : ndarray of shape (m,)
        ``xi_i = max(0, max_{k != y_i} 1 - <v, phi(x_i, y_i) - phi(x_i, k)>)``.
    """

    v: np.ndarray
    alpha: np.ndarray
    primal: float
    dual: float
    gap: float
    gap_rel: float
    fp_allowance: float
    v_error_bound: float
    slack: np.ndarray
    C: float
    solver: str
    status: str
    iterations: int
    solve_time: float

    def decision_function(self, Z) -> np.ndarray:
        """Scores ``<v, Z[i, k]>`` of shape (m, K) for joint features ``Z`` of shape (m, K, n)."""
        return np.asarray(Z, dtype=np.float64) @ self.v

    def predict(self, Z) -> np.ndarray:
        """``argmax_k <v, Z[i, k]>`` (class indices ``0..K-1``; ties to the smallest index)."""
        return np.argmax(self.decision_function(Z), axis=1)

    def certified_predict(self, Z):
        """``(pred, certain)``: :meth:`predict` and a mask of the rows whose prediction is also the one of the
        exact optimum ``v*``: ``s_a - s_b > ||Z[i, a] - Z[i, b]|| v_error_bound`` for the predicted ``a`` and
        every ``b != a`` (Cauchy-Schwarz on ``<v - v*, Z[i, a] - Z[i, b]>``)."""
        Z = np.asarray(Z, dtype=np.float64)
        S = Z @ self.v
        pred = np.argmax(S, axis=1)
        rows = np.arange(Z.shape[0])
        diff = Z[rows, pred][:, None, :] - Z
        slack = np.linalg.norm(diff, axis=2) * self.v_error_bound
        gapv = S[rows, pred][:, None] - S
        ok = gapv > slack
        ok[rows, pred] = True
        return pred, ok.all(axis=1)
