r"""KKT certificates for the linear SVM and SVR duals, as named checks.

The soft-margin SVM (Paul et al. 2014, eq. 3 and its primal) has the KKT conditions

.. math::

    &\text{primal feasibility:}\quad y_i(w^T x_i + b) \ge 1 - \xi_i,\ \xi_i \ge 0, \\
    &\text{dual feasibility:}\quad 0 \le \alpha_i \le C,\ y^T\alpha = 0 \text{ (with bias)}, \\
    &\text{stationarity:}\quad w = X^T Y \alpha \text{ (exact by construction here)}, \\
    &\text{complementarity:}\quad \alpha_i\,(y_i f_i - 1 + \xi_i) = 0,\ (C - \alpha_i)\,\xi_i = 0,

with :math:`f_i = w^T x_i + b`. Summing the complementarity products gives the duality gap exactly,

.. math::

    \sum_i \alpha_i (y_i f_i - 1 + \xi_i) + (C - \alpha_i)\xi_i
    = \underbrace{\|w\|^2 + C\|\xi\|_1 - \textstyle\sum_i \alpha_i}_{P - D} + b\, y^T\alpha ,

so the norm identity :math:`\sum\alpha = \|w\|^2 + C\|\xi\|_1` (the KKT conditions of Paul et al. 2014, eq. (3))
holds up to ``n * complementarity_abs + |b| |y^T alpha|``: that is the tolerance the tests use.

Each ``check_*`` function returns a :class:`CheckResult` and, by default, raises
:class:`KKTViolationError` (an ``AssertionError``) naming the worst index and its value when the
residual exceeds ``atol + rtol * scale`` (the style of cvxpy's ``solver_test_helpers``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._results import KKTResiduals

__all__ = [
    "CheckResult",
    "KKTViolationError",
    "check_primal_feasibility",
    "check_dual_feasibility",
    "check_complementarity",
    "check_duality_gap",
    "check_svc_result",
    "svc_kkt_residuals",
    "svr_kkt_residuals",
    "decision_values",
]

_TINY = 1e-300


class KKTViolationError(AssertionError):
    """A KKT condition is violated beyond its tolerance; the message names the worst index and value."""


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one named KKT check.

    Attributes
    ----------
    name : str
    ok : bool
    residual : float
        Largest absolute violation.
    scale : float
        The scale used for the relative tolerance.
    tolerance : float
        ``atol + rtol * scale``.
    worst_index : int or str or None
        Index of the worst violation (``"y^T alpha"`` for the equality constraint, None for the gap).
    worst_value : float
        The value of the offending quantity at ``worst_index``.
    message : str
    """

    name: str
    ok: bool
    residual: float
    scale: float
    tolerance: float
    worst_index: object
    worst_value: float
    message: str

    def __bool__(self):
        return self.ok


def _finish(name, residual, scale, atol, rtol, worst_index, worst_value, what, raise_on_failure):
    tol = float(atol + rtol * scale)
    ok = bool(residual <= tol)
    msg = (
        f"{name}: {'ok' if ok else 'VIOLATED'}; worst {what} at index {worst_index!r} "
        f"(value {worst_value:.6g}); residual {residual:.3e} vs tolerance {tol:.3e} "
        f"(atol={atol:g}, rtol={rtol:g}, scale={scale:.3e})"
    )
    res = CheckResult(name, ok, float(residual), float(scale), tol, worst_index, float(worst_value), msg)
    if not ok and raise_on_failure:
        raise KKTViolationError(msg)
    return res


def decision_values(X, w, b=0.0):
    """``f = X w + b`` for dense or sparse X, as a float64 vector."""
    f = X @ w
    return np.asarray(f, dtype=np.float64).ravel() + b


def _as_slack(slack, n):
    return np.zeros(n) if slack is None else np.asarray(slack, dtype=np.float64)


def check_primal_feasibility(X, y, w, b=0.0, slack=None, *, atol=1e-9, rtol=1e-9, raise_on_failure=True):
    r"""Check :math:`y_i(w^T x_i + b) \ge 1 - \xi_i` and :math:`\xi_i \ge 0` for every i.

    ``slack=None`` means hard margin (:math:`\xi = 0`). The residual of point i is
    ``max(0, 1 - xi_i - y_i f_i, -xi_i)``; scale ``max(1, max_i |y_i f_i|)``.
    """
    yf = np.asarray(y, dtype=np.float64) * decision_values(X, w, b)
    xi = _as_slack(slack, yf.shape[0])
    r = np.maximum(np.maximum(1.0 - xi - yf, -xi), 0.0)
    i = int(np.argmax(r)) if r.size else 0
    scale = max(1.0, float(np.max(np.abs(yf), initial=0.0)))
    return _finish(
        "primal feasibility", float(r[i]) if r.size else 0.0, scale, atol, rtol, i,
        float(yf[i]) if r.size else 0.0, "margin y_i f_i", raise_on_failure,
    )


def check_dual_feasibility(alpha, y, C, *, bias=True, atol=1e-9, rtol=1e-9, raise_on_failure=True):
    r"""Check :math:`0 \le \alpha_i \le C` and, with ``bias``, :math:`y^T\alpha = 0`.

    For the SVR dual pass ``y=None`` and ``C`` as the bound of :math:`|\alpha_i|`: the box is
    :math:`-C \le \alpha_i \le C` and the equality :math:`1^T\alpha = 0`. Scale: ``max_i |alpha_i|``.
    """
    a = np.asarray(alpha, dtype=np.float64)
    if y is None:  # SVR: -C <= alpha <= C, 1^T alpha = 0
        box = np.maximum(np.abs(a) - C, 0.0)
        eq = float(np.sum(a))
        eq_name = "1^T alpha"
    else:
        box = np.maximum(np.maximum(-a, a - C), 0.0)
        eq = float(np.dot(np.asarray(y, dtype=np.float64), a))
        eq_name = "y^T alpha"
    i = int(np.argmax(box)) if box.size else 0
    worst, idx, val = (float(box[i]), i, float(a[i])) if box.size else (0.0, 0, 0.0)
    if bias and abs(eq) > worst:
        worst, idx, val = abs(eq), eq_name, eq
    scale = float(np.max(np.abs(a), initial=0.0))
    return _finish("dual feasibility", worst, scale, atol, rtol, idx, val, "alpha", raise_on_failure)


def _svc_comp_terms(yf, alpha, slack, C):
    g = yf - 1.0 + slack
    t1 = np.abs(alpha * g)
    t2 = np.zeros_like(t1) if np.isinf(C) else np.abs((C - alpha) * slack)
    return np.maximum(t1, t2)


def check_complementarity(X, y, alpha, w, b, slack, C, *, atol=1e-9, rtol=1e-9, raise_on_failure=True):
    r"""Check :math:`\alpha_i (y_i f_i - 1 + \xi_i) = 0` and :math:`(C - \alpha_i)\xi_i = 0`.

    The residual of point i is the larger modulus of the two products (the second is dropped for
    ``C = inf``, where primal feasibility forces :math:`\xi = 0`). Scale:
    ``max_i alpha_i * max(1, max_i |y_i f_i|)``.
    """
    a = np.asarray(alpha, dtype=np.float64)
    yf = np.asarray(y, dtype=np.float64) * decision_values(X, w, b)
    xi = _as_slack(slack, a.shape[0])
    terms = _svc_comp_terms(yf, a, xi, C)
    i = int(np.argmax(terms)) if terms.size else 0
    scale = float(np.max(np.abs(a), initial=0.0)) * max(1.0, float(np.max(np.abs(yf), initial=0.0)))
    return _finish(
        "complementarity", float(terms[i]) if terms.size else 0.0, scale, atol, rtol, i,
        float(a[i]) if terms.size else 0.0, "alpha_i", raise_on_failure,
    )


def check_duality_gap(primal_value, dual_value, *, atol=1e-9, rtol=1e-9, raise_on_failure=True):
    r"""Check :math:`|P - D| \le atol + rtol \max(|P|, |D|)` for a primal value P and a dual value D.

    For the SVM, :math:`P = \|w\|^2/2 + C\|\xi\|_1` and :math:`D = \sum\alpha - \|w\|^2/2`.
    """
    P, D = float(primal_value), float(dual_value)
    gap = P - D
    scale = max(abs(P), abs(D))
    return _finish("duality gap", abs(gap), scale, atol, rtol, None, gap, "P - D", raise_on_failure)


def svc_kkt_residuals(X, y, alpha, w, b, C, *, bias=True):
    """All four KKT residuals of an SVC point ``(alpha, w, b)``, with ``xi = max(0, 1 - y f)``.

    Returns ``(KKTResiduals, slack, primal_value, dual_value)``. The relative residuals use the scales
    of the ``check_*`` functions of this module.
    """
    a = np.asarray(alpha, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64)
    yf = yv * decision_values(X, w, b)
    w_norm_sq = float(np.dot(w, w))
    hard = np.isinf(C)
    xi = np.maximum(1.0 - yf, 0.0)
    # primal feasibility: with xi defined as the hinge, only the hard margin (xi must be 0) can fail
    p_abs = float(np.max(xi, initial=0.0)) if hard else 0.0
    p_scale = max(1.0, float(np.max(np.abs(yf), initial=0.0)))
    a_scale = float(np.max(np.abs(a), initial=0.0))
    box = np.maximum(np.maximum(-a, a - C), 0.0) if not hard else np.maximum(-a, 0.0)
    d_abs = float(np.max(box, initial=0.0))
    if bias:
        d_abs = max(d_abs, abs(float(np.dot(yv, a))))
    slack_for_comp = np.zeros_like(xi) if hard else xi
    terms = _svc_comp_terms(yf, a, slack_for_comp, C)
    c_abs = float(np.max(terms, initial=0.0))
    c_scale = a_scale * p_scale
    D = float(np.sum(a)) - 0.5 * w_norm_sq
    P = 0.5 * w_norm_sq + (0.0 if hard else float(C) * float(np.sum(xi)))
    gap = P - D
    g_scale = max(abs(P), abs(D))
    res = KKTResiduals(
        primal_abs=p_abs,
        primal_rel=p_abs / p_scale,
        dual_abs=d_abs,
        dual_rel=d_abs / max(a_scale, _TINY) if d_abs > 0 else 0.0,
        complementarity_abs=c_abs,
        complementarity_rel=c_abs / max(c_scale, _TINY) if c_abs > 0 else 0.0,
        gap_abs=gap,
        gap_rel=abs(gap) / max(g_scale, _TINY) if gap != 0 else 0.0,
    )
    return res, (np.zeros_like(xi) if hard else xi), P, D


def svr_kkt_residuals(X, y, alpha, w, b, C, epsilon):
    r"""KKT residuals of the epsilon-insensitive SVR at ``(alpha, w, b)`` (Paul et al. eq. 2).

    With :math:`r_i = y_i - w^T x_i - b`, :math:`\xi_i = (r_i - \epsilon)_+`,
    :math:`\xi^*_i = (-r_i - \epsilon)_+`, :math:`a^\pm = (\pm\alpha)_+`, the complementarity products
    are :math:`a^+_i(\epsilon + \xi_i - r_i)`, :math:`a^-_i(\epsilon + \xi^*_i + r_i)`,
    :math:`(C - a^+_i)\xi_i` and :math:`(C - a^-_i)\xi^*_i`. Primal value
    :math:`\|w\|^2/2 + C\sum(\xi + \xi^*)`, dual value :math:`y^T\alpha - \epsilon\|\alpha\|_1 - \|w\|^2/2`.

    Returns ``(KKTResiduals, slack, primal_value, dual_value)`` with ``slack = xi + xi*``.
    """
    a = np.asarray(alpha, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64)
    r = yv - decision_values(X, w, b)
    xi = np.maximum(r - epsilon, 0.0)
    xs = np.maximum(-r - epsilon, 0.0)
    ap, am = np.maximum(a, 0.0), np.maximum(-a, 0.0)
    terms = np.maximum.reduce(
        [np.abs(ap * (epsilon + xi - r)), np.abs(am * (epsilon + xs + r)), np.abs((C - ap) * xi),
         np.abs((C - am) * xs)]
    )
    w_norm_sq = float(np.dot(w, w))
    a_scale = float(np.max(np.abs(a), initial=0.0))
    r_scale = max(1.0, float(np.max(np.abs(yv), initial=0.0)), epsilon)
    d_abs = max(float(np.max(np.maximum(np.abs(a) - C, 0.0), initial=0.0)), abs(float(np.sum(a))))
    c_abs = float(np.max(terms, initial=0.0))
    D = float(np.dot(yv, a)) - epsilon * float(np.sum(np.abs(a))) - 0.5 * w_norm_sq
    P = 0.5 * w_norm_sq + float(C) * float(np.sum(xi + xs))
    gap = P - D
    g_scale = max(abs(P), abs(D))
    res = KKTResiduals(
        primal_abs=0.0,  # the slacks are defined as the hinge of the tube residual: always feasible
        primal_rel=0.0,
        dual_abs=d_abs,
        dual_rel=d_abs / max(a_scale, _TINY) if d_abs > 0 else 0.0,
        complementarity_abs=c_abs,
        complementarity_rel=c_abs / max(a_scale * r_scale, _TINY) if c_abs > 0 else 0.0,
        gap_abs=gap,
        gap_rel=abs(gap) / max(g_scale, _TINY) if gap != 0 else 0.0,
    )
    return res, xi + xs, P, D


def check_svc_result(result, X, y, *, atol=1e-9, rtol=1e-7, raise_on_failure=True):
    """Run the four named checks on an :class:`~rpcheck.svm.SVCResult` against its data.

    Returns the list of four :class:`CheckResult` (raises on the first failure by default).
    """
    hard = np.isinf(result.C)
    slack = None if hard else result.slack
    return [
        check_primal_feasibility(X, y, result.w, result.b, slack, atol=atol, rtol=rtol,
                                 raise_on_failure=raise_on_failure),
        check_dual_feasibility(result.alpha, y, result.C, bias=result.bias, atol=atol, rtol=rtol,
                               raise_on_failure=raise_on_failure),
        check_complementarity(X, y, result.alpha, result.w, result.b, slack, result.C, atol=atol,
                              rtol=rtol, raise_on_failure=raise_on_failure),
        check_duality_gap(result.primal_objective, result.objective, atol=atol, rtol=rtol,
                          raise_on_failure=raise_on_failure),
    ]
