r"""Certified intervals of SVM optima from a solver's returned point (Paul et al. 2014, eqs. 2-5).

Construction
------------
For the SVC dual (eq. 3) at a returned ``alpha`` we build, independently of the solver's own status:

1. an **exactly dual-feasible** point ``a``: clip to ``[0, C]``, then scale down the larger class so that
   ``y^T a = 0`` holds exactly (scaling down keeps the box); its dual value
   ``D = 1^T a - 1/2 ||G^T Y a||^2`` is a lower bound on ``Z_opt`` (weak duality);
2. an **exactly primal-feasible** point: ``w = G^T Y a``, the solver's ``b``, ``xi = (1 - y(Gw + b))_+``
   (soft margin, ``P = 1/2||w||^2 + C 1^T xi``), or, for the hard margin, ``(w, b)/m`` with
   ``m = min_i y_i (w^T g_i + b) > 0`` (``P = 1/2||w||^2/m^2``); ``P >= Z_opt``.

So ``Z_opt in [D, P]`` and ``g = P - D >= P - P_opt``. The primal is ``1/2||w||^2`` plus terms linear in
``(b, xi)`` over a convex set, hence 1-strongly convex in ``w``: ``1/2 ||w_p - w*||^2 <= P - P_opt <= g``,
so ``||w*|| in [||w_p|| - sqrt(2g), ||w_p|| + sqrt(2g)]``. ``w*`` is unique, so the derived quantities
``sum alpha* = Z_opt + 1/2||w*||^2`` and ``C||xi*||_1 = Z_opt - 1/2||w*||^2`` are well defined and get
intervals too. A claimed inequality is counted as violated only when the intervals **certify** it
(e.g. ``gamma~^2 >= (1-e) gamma^2`` fails only if ``lower(||w*||^2) > upper(||w~*||^2) / (1-e)`` ... in the
direction that is stated per variant). Rounding: every value is a sum of at most ``n d`` products, so its
floating-point error is below ``n d u`` times the sum of absolute terms (``u = 2^-53``); ``FP_REL = 1e-10``
relative to the scale of the compared quantities covers this for every size used (``n d <= 1e6``).

An instance is **degenerate** (counted in the diagnostics, reported, and made vacuous, never silently
dropped) when ``||w_p||^2 < W_MIN`` or the certified relative error ``sqrt(2g)/||w_p||`` exceeds
``DEGENERATE_REL``: then the solver's point cannot resolve the margin (a spurious violation at
``||w||^2 ~ 1e-9`` was seen in development).

The same construction is used for the SVR dual (eq. 2; ``sum a = 0`` enforced by scaling the larger of
the positive and negative parts) with ``P = 1/2||w||^2 + C sum (|y - Gw - b| - eps)_+`` and
``D = y^T a - eps ||a||_1 - 1/2 ||G^T a||^2``, and for the enclosing ball the solver's own certificate
``B^2 in [dual_value, radius_sq]`` (``rpcheck.svm.BallResult``).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["FP_REL", "W_MIN", "DEGENERATE_REL", "Interval", "svc_bounds", "svr_bounds"]

#: Relative floating-point allowance (see the module docstring).
FP_REL = 1e-10
#: Below this ||w||^2 an instance is degenerate (a spurious violation was seen at 1e-9 in development).
W_MIN = 1e-8
#: Certified relative error of ||w|| above which an instance is degenerate.
DEGENERATE_REL = 0.05


class Interval:
    """A closed interval ``[lo, hi]`` certified to contain an exact quantity."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo = float(lo)
        self.hi = float(hi)

    def __repr__(self):
        return f"Interval({self.lo!r}, {self.hi!r})"

    @property
    def mid(self):
        return 0.5 * (self.lo + self.hi)

    def scale(self, c):
        """``c * [lo, hi]`` for ``c >= 0``."""
        return Interval(c * self.lo, c * self.hi)


def _balance(a, pos, neg):
    """Scale down the heavier of the index sets ``pos``/``neg`` so their sums agree exactly."""
    sp_, sn_ = a[pos].sum(), a[neg].sum()
    if sp_ > sn_ and sp_ > 0:
        a[pos] *= sn_ / sp_
    elif sn_ > sp_ and sn_ > 0:
        a[neg] *= sp_ / sn_
    return a


def _w_interval(wp_norm, g, scale):
    s = math.sqrt(2.0 * max(g, 0.0) + FP_REL * scale)
    return Interval(max(wp_norm - s, 0.0), wp_norm + s), s


def svc_bounds(G, y, C, alpha, b):
    """Certified bounds for the SVC dual (eq. 3 / eq. 5) at a solver point (see the module docstring).

    Parameters
    ----------
    G : ndarray of shape (n, k)
        The data the dual was solved for (``X``, a factor ``G`` with ``G G^T = X X^T``, or ``X R``).
    y : ndarray of shape (n,)
    C : float
        ``np.inf`` for the hard margin.
    alpha : ndarray of shape (n,)
    b : float

    Returns
    -------
    dict
        ``Z`` (Interval for Z_opt), ``wsq`` (||w*||^2), ``sum_alpha`` (sum alpha*), ``slack_term``
        (C ||xi*||_1), ``gap`` (P - D), ``w_norm_sq`` (||w_p||^2 at the certified primal point),
        ``degenerate`` (bool), ``a`` (the exactly feasible dual point) and ``w`` (its ``G^T Y a``).
    """
    G = np.asarray(G, dtype=float)
    y = np.asarray(y, dtype=float)
    a = np.clip(np.asarray(alpha, dtype=float), 0.0, C)
    a = _balance(a, y > 0, y < 0)
    w = G.T @ (y * a)
    wsq = float(w @ w)
    D = float(a.sum() - 0.5 * wsq)
    m = y * (G @ w + b)
    if np.isinf(C):
        mmin = float(m.min()) if m.size else 0.0
        if mmin <= 0:
            P = math.inf
            wp_sq = wsq
        else:
            wp_sq = wsq / mmin**2
            P = 0.5 * wp_sq
        slack_sum = 0.0
    else:
        xi = np.maximum(0.0, 1.0 - m)
        slack_sum = float(xi.sum())
        P = 0.5 * wsq + C * slack_sum
        wp_sq = wsq
    scale = abs(D) + (abs(P) if math.isfinite(P) else 0.0) + float(a.sum()) + wsq + 1.0
    g = P - D
    fp = FP_REL * scale
    if not math.isfinite(g):
        wint = Interval(0.0, math.inf)
        s = math.inf
    else:
        wint, s = _w_interval(math.sqrt(wp_sq), g, scale)
    Z = Interval(D - fp, P + fp)
    wsq_int = Interval(wint.lo**2, wint.hi**2)
    degenerate = bool(wp_sq < W_MIN or not math.isfinite(s) or s > DEGENERATE_REL * math.sqrt(wp_sq))
    return {
        "Z": Z,
        "wsq": wsq_int,
        "sum_alpha": Interval(Z.lo + 0.5 * wsq_int.lo, Z.hi + 0.5 * wsq_int.hi),
        "slack_term": Interval(Z.lo - 0.5 * wsq_int.hi, Z.hi - 0.5 * wsq_int.lo),
        "gap": float(g),
        "w_norm_sq": float(wp_sq),
        "alpha_sum": float(a.sum()),
        "degenerate": degenerate,
        "a": a,
        "w": w,
        "fp": fp,
    }


def svr_bounds(G, y, C, epsilon, alpha, b):
    """Certified bounds for the SVR dual (eq. 2 with ``epsilon``; eq. 4 is eq. 2 with ``epsilon = 0``).

    Returns a dict with ``Z``, ``wsq``, ``gap``, ``w_norm_sq``, ``degenerate``, ``a``, ``w`` as in
    :func:`svc_bounds`.
    """
    G = np.asarray(G, dtype=float)
    y = np.asarray(y, dtype=float)
    a = np.clip(np.asarray(alpha, dtype=float), -C, C)
    pos, neg = a > 0, a < 0
    # scale the heavier signed part so that sum(a) = 0 exactly (keeps |a_i| <= C)
    sp_, sn_ = a[pos].sum(), -a[neg].sum()
    if sp_ > sn_ and sp_ > 0:
        a[pos] *= sn_ / sp_
    elif sn_ > sp_ and sn_ > 0:
        a[neg] *= sp_ / sn_
    w = G.T @ a
    wsq = float(w @ w)
    D = float(y @ a - epsilon * np.abs(a).sum() - 0.5 * wsq)
    resid = np.abs(y - G @ w - b)
    P = 0.5 * wsq + C * float(np.maximum(0.0, resid - epsilon).sum())
    scale = abs(D) + abs(P) + wsq + float(np.abs(y) @ np.abs(a)) + 1.0
    g = P - D
    fp = FP_REL * scale
    wint, s = _w_interval(math.sqrt(wsq), g, scale)
    return {
        "Z": Interval(D - fp, P + fp),
        "wsq": Interval(wint.lo**2, wint.hi**2),
        "gap": float(g),
        "w_norm_sq": wsq,
        "degenerate": bool(wsq < W_MIN or s > DEGENERATE_REL * math.sqrt(wsq)),
        "a": a,
        "w": w,
        "fp": fp,
    }
