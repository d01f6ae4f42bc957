r"""Bounds, thresholds and exact oracles for Shi, Shen, Hill and van den Hengel (ICML 2012),
"Is margin preserved after random projection?".

Notation is the paper's: ``n`` is the projected dimension, ``d`` the original one, ``m`` the number of
points, ``L`` the number of classes, ``eps`` the distortion. Every probability in the paper is a multiple of

.. math:: E(n, \epsilon) = \exp\!\big(-\tfrac{n}{2}(\epsilon^2/2 - \epsilon^3/3)\big)
          = \exp\!\big(-n(3\epsilon^2 - 2\epsilon^3)/12\big).

The projection (paper, before Lemma 4) is ``R`` in ``R^{n x d}`` with i.i.d. ``N(0, 1/n)`` entries, acting as
``x -> R x``. ``rpcheck.sketches.make_sketch("gaussian", d, n)`` returns ``M`` of shape ``(d, n)`` with
``E[M M^T] = I_d`` and acts as ``X @ M``; hence ``M = R^T`` in distribution (same scale), which is how the
checkers use it.

Besides the printed bounds this module holds exact laws used as oracles:

- Lemma 10: ``||Rx||^2/||x||^2 ~ chi^2_n / n`` (:func:`lemma10_exact_failure`).
- Theorem 5: ``c' = cos(Rw, Rx)`` is the uncentred sample correlation of ``n`` i.i.d. bivariate normal pairs
  with correlation ``c``; its law is the Pearson ``r`` law with ``N = n + 1`` samples
  (:func:`projected_cosine_pdf`, :func:`projected_cosine_cdf`, :func:`thm5_exact_failure`).
- Figure 1: the separability rate ``(2/pi) arctan(1/a)`` (:func:`fig1_separable_probability`).

References
----------
.. [1] Q. Shi, C. Shen, R. Hill, A. van den Hengel, "Is margin preserved after random projection?",
   ICML 2012.
.. [2] S. Dasgupta, A. Gupta, "An elementary proof of a theorem of Johnson and Lindenstrauss", 2003.
.. [3] H. Hotelling, "New light on the correlation coefficient and its transforms", JRSS B 15, 1953
   (the hypergeometric form of the density of Pearson's r).
"""

from __future__ import annotations

import math

import numpy as np

from ..._validation import check_choice, check_int, check_interval
from ...errors import RpcheckError

__all__ = [
    "tail_e",
    "exponent",
    "lemma10_failure_bound",
    "lemma10_tail_bound",
    "lemma10_exact_failure",
    "lemma10_exact_failure_achlioptas_axis",
    "lemma4_variance",
    "lemma4_sign_axis_tail",
    "inner_product_moments_exact",
    "ENTRY_FOURTH_MOMENT",
    "thm5_band",
    "thm5_failure_bound",
    "thm5_n_min",
    "projected_cosine_pdf",
    "projected_cosine_cdf",
    "thm5_exact_failure",
    "thm5_band_width",
    "measured_band_failure_bound",
    "proof9_first_step_holds",
    "fig2_p1_exact",
    "fig2_p2_exact",
    "thm6_margin_bound",
    "thm6_eps_max",
    "thm8_margin_bound",
    "thm8_point_bound",
    "thm8_eps_max",
    "thm9_margin_bound",
    "thm9_eps_max",
    "union_failure_bound",
    "union_count",
    "true_union_count_thm6",
    "n_threshold",
    "fig1_separable_probability",
    "fig1_uniform_separable_probability",
    "fig1_normalized_margin",
]

from ._bounds_lemmas import (  # noqa: F401  (re-exported: the module's public names and the shared _eps)
    ENTRY_FOURTH_MOMENT,
    _eps,
    exponent,
    inner_product_moments_exact,
    lemma4_sign_axis_tail,
    lemma4_variance,
    lemma10_exact_failure,
    lemma10_exact_failure_achlioptas_axis,
    lemma10_failure_bound,
    lemma10_tail_bound,
    tail_e,
)


# --------------------------------------------------------------------------------------------- Theorem 5
def thm5_band(c, eps):
    r"""The band (4) of Theorem 5 of [1]_: ``(Lo, Up)`` with

    .. math:: Lo = \frac{1+\epsilon}{1-\epsilon} c - \frac{2\epsilon}{1-\epsilon}, \qquad
              Up = 1 - \frac{\sqrt{1-\epsilon^2}}{1+\epsilon} + \frac{\epsilon}{1+\epsilon}
                   + \frac{1-\epsilon}{1+\epsilon} c.

    Works elementwise on arrays ``c``. ``Lo = 1 - A(1-c)`` with ``A = (1+eps)/(1-eps)``.

    >>> lo, up = thm5_band(0.527, 0.3)
    >>> round(lo, 4), round(up, 4)
    (0.1216, 0.7807)
    """
    eps = _eps(eps)
    c = np.asarray(c, dtype=float)
    lo = (1 + eps) / (1 - eps) * c - 2 * eps / (1 - eps)
    up = 1 - math.sqrt(1 - eps**2) / (1 + eps) + eps / (1 + eps) + (1 - eps) / (1 + eps) * c
    if lo.ndim == 0:
        return float(lo), float(up)
    return lo, up


def thm5_failure_bound(n, eps):
    """Theorem 5's promised failure probability ``6 E(n, eps)`` (three Lemma-10 events; not clipped).

    >>> round(thm5_failure_bound(1000, 0.1), 2)
    0.58
    """
    return 6.0 * tail_e(n, eps)


def thm5_n_min(eps):
    """Smallest real ``n`` at which ``6 E(n, eps) < 1``: ``12 ln 6 / (3 eps^2 - 2 eps^3)`` (C15).

    >>> [round(thm5_n_min(e), 1) for e in (0.1, 0.3, 0.5)]
    [767.9, 99.5, 43.0]
    """
    eps = _eps(eps)
    return 12 * math.log(6) / (3 * eps**2 - 2 * eps**3)


def _log_pdf_phi(phi, c, n):
    """log of the density of ``phi = arccos(c')`` on (0, pi) (Hotelling's form with N = n + 1)."""
    from scipy import special
    N = n + 1
    r = np.cos(phi)
    logc = (
        math.log(N - 2)
        + special.gammaln(N - 1)
        - 0.5 * math.log(2 * math.pi)
        - special.gammaln(N - 0.5)
        + (N - 1) / 2 * math.log1p(-c * c)
    )
    with np.errstate(divide="ignore"):
        val = (
            logc
            + (n - 2) * np.log(np.sin(phi))
            - (N - 1.5) * np.log1p(-c * r)
            + np.log(special.hyp2f1(0.5, 0.5, N - 0.5, (1 + c * r) / 2))
        )
    return val


def _check_c_n(c, n):
    c = check_interval("c", c, -1, 1, closed="neither")
    n = check_int("n", n, 1)
    return c, n


def projected_cosine_pdf(r, c, n):
    r"""Density of ``c' = cos(Rw, Rx)`` for Gaussian ``R`` (n rows) and ``cos(w, x) = c``.

    ``c'`` is the uncentred sample correlation of ``n`` i.i.d. pairs ``N(0, [[1, c], [c, 1]])``; its law is
    that of Pearson's ``r`` from ``N = n + 1`` samples with correlation ``rho = c`` (Section 3, [3]_):

    .. math:: f(r) = \frac{(N-2)\Gamma(N-1)}{\sqrt{2\pi}\Gamma(N-\frac12)} (1-\rho^2)^{\frac{N-1}{2}}
              (1-r^2)^{\frac{N-4}{2}} (1-\rho r)^{-(N-\frac32)}
              {}_2F_1\!\big(\tfrac12, \tfrac12; N-\tfrac12; \tfrac{1+\rho r}{2}\big).

    Requires ``n >= 2`` (for ``n = 1``, ``c'`` is ``+-1``). Evaluated in logarithms.

    >>> round(float(projected_cosine_pdf(0.0, 0.0, 3)), 6)        # n = 3: c' uniform on (-1, 1)
    0.5
    """
    c, n = _check_c_n(c, n)
    if n < 2:
        raise RpcheckError(f"`n` ({n}) must be >= 2 for a density; for n = 1, c' = +-1.")
    r = np.asarray(r, dtype=float)
    out = np.zeros_like(r)
    inside = np.abs(r) < 1
    phi = np.arccos(r[inside])
    # density of r = density of phi / sin(phi)
    out[inside] = np.exp(_log_pdf_phi(phi, c, n) - np.log(np.sin(phi)))
    return out if out.ndim else float(out)


def projected_cosine_cdf(r, c, n, *, upper=False):
    """``P(c' <= r)`` (or ``P(c' > r)`` when ``upper``) by adaptive quadrature of the density in
    ``phi = arccos(c')`` (which removes the endpoint singularity at ``n = 2``).

    The tail that is integrated is the one named, so tiny tail probabilities keep their relative accuracy
    (``quad`` with ``epsrel=1e-10``). ``n = 1`` is exact: ``P(c' = 1) = 1/2 + arcsin(c)/pi``.

    >>> round(projected_cosine_cdf(0.0, 0.3, 1), 6) == round(0.5 - math.asin(0.3) / math.pi, 6)
    True
    """
    from scipy import integrate
    c, n = _check_c_n(c, n)
    r = float(r)
    if n == 1:
        p_plus = 0.5 + math.asin(c) / math.pi
        if upper:
            return p_plus if r < 1 else 0.0
        return 0.0 if r < -1 else (1.0 - p_plus if r < 1 else 1.0)
    if r <= -1:
        return 1.0 if upper else 0.0
    if r >= 1:
        return 0.0 if upper else 1.0
    phi0 = math.acos(r)
    a, b = (0.0, phi0) if upper else (phi0, math.pi)

    def f(phi):
        return math.exp(float(_log_pdf_phi(np.array([phi]), c, n)[0]))

    # the mode of phi is near arccos(c); tell quad where the mass is
    mode = math.acos(c)
    points = [p for p in (mode,) if a < p < b]
    val, _ = integrate.quad(f, a, b, epsabs=0.0, epsrel=1e-10, limit=500, points=points or None)
    return float(min(max(val, 0.0), 1.0))


def thm5_exact_failure(c, n, eps, side="both"):
    """Exact ``P(c' < Lo(c, eps))``, ``P(c' > Up(c, eps))`` or their sum (Gaussian R): Theorem 5's failure.

    >>> round(thm5_exact_failure(0.527, 30, 0.1), 4)    # exact 0.4695 (Monte Carlo 0.4705)
    0.4695
    """
    lo, up = thm5_band(c, eps)
    check_choice("side", side, ("both", "lower", "upper"))
    p_lo = projected_cosine_cdf(lo, c, n) if side in ("both", "lower") else 0.0
    p_up = projected_cosine_cdf(up, c, n, upper=True) if side in ("both", "upper") else 0.0
    return p_lo + p_up


def thm5_band_width(c, eps, *, clipped=False):
    r"""Width ``Up(c, eps) - Lo(c, eps)`` of Theorem 5's band (4) (elementwise in ``c``).

    As printed it is linear in ``c``:
    ``Up - Lo = [2 eps (1-c) + 1 - sqrt(1-eps^2)]/(1+eps) + 2 eps (1-c)/(1-eps)``, slope ``-4 eps/(1-eps^2)``
    (strictly decreasing: "the smaller acute angle, the better the preservation", Section 6). With
    ``clipped=True`` the band is first intersected with ``[-1, 1]`` (what it says about ``c' = cos(Rw, Rx)``):
    ``min(Up, 1) - max(Lo, -1)``, which increases in ``c`` wherever ``Lo <= -1 < Up < 1``.

    >>> round(float(thm5_band_width(0.5, 0.1)), 6)     # (0.1 + 1 - sqrt(0.99))/1.1 + 0.1/0.9
    0.206577
    >>> w = thm5_band_width(np.array([0.1, 0.2]), 0.5, clipped=True)    # Lo <= -1 for c <= 1/3
    >>> bool(w[1] > w[0])
    True
    """
    lo, up = thm5_band(c, eps)
    lo, up = np.asarray(lo), np.asarray(up)
    if clipped:
        lo, up = np.maximum(lo, -1.0), np.minimum(up, 1.0)
    w = up - lo
    return float(w) if w.ndim == 0 else w


def _order_stat_tail(kind, B, k, p):
    """Exact order-statistic tails for ``B`` i.i.d. draws (continuous law), ``k``-th smallest ``lo`` and
    ``k``-th largest ``hi``; ``p`` is the tail mass of the threshold on the side named."""
    from scipy import stats
    if kind == "beyond":   # P(hi >= a) with p = P(X >= a), or P(lo <= b) with p = P(X <= b)
        return float(stats.binom.sf(k - 1, B, p))
    return float(stats.binom.cdf(k - 1, B, p))  # "inside": P(hi <= a) with p = P(X > a), P(lo >= b) likewise


def _cosine_quantile_table(c, n, size=4001):
    """Approximate quantile function of ``c'`` (trapezoid rule of the density in ``phi``); used only to
    *choose* thresholds -- every probability reported is then computed exactly."""
    phi = np.linspace(1e-9, math.pi - 1e-9, size)
    f = np.exp(_log_pdf_phi(phi, c, n))
    F = np.concatenate([[0.0], np.cumsum((f[1:] + f[:-1]) / 2 * np.diff(phi))])
    F = F / F[-1]
    r = np.cos(phi)           # decreasing in phi; P(c' >= r(phi)) = F(phi)
    return r[::-1], (1.0 - F)[::-1]    # increasing r, P(c' <= r)


def measured_band_failure_bound(c_wide, c_narrow, n, B, k):
    r"""Exact upper bound on ``P(W_narrow >= W_wide)``, where ``W_c = X_(B+1-k) - X_(k)`` is the width of the
    empirical central band of ``B`` i.i.d. draws of ``c' = cos(Rw, Rx)`` at ``cos(w, x) = c`` (Gaussian R with
    ``n`` rows; law :func:`projected_cosine_cdf`), the two batches independent.

    For thresholds ``a2 > b2`` and ``a1 > b1`` with ``a2 - b2 <= a1 - b1``: if ``hi_2 < a2``, ``lo_2 > b2``,
    ``hi_1 > a1`` and ``lo_1 < b1`` then ``W_2 < a2 - b2 <= a1 - b1 < W_1``. So (union bound)

    .. math:: P(W_2 \ge W_1) \le P(hi_2 \ge a_2) + P(lo_2 \le b_2) + P(hi_1 \le a_1) + P(lo_1 \ge b_1),

    each term an exact binomial tail: ``P(hi >= a) = P(Bin(B, P(c' >= a)) >= k)``,
    ``P(hi <= a) = P(Bin(B, P(c' > a)) <= k - 1)`` and likewise for ``lo``. The thresholds are the
    ``r``/``1-r`` quantiles of the narrow law and the ``r'``/``1-r'`` quantiles of the wide law, ``(r, r')``
    chosen on a grid (from a tabulated quantile function); the four probabilities at the chosen thresholds are
    then evaluated with the exact law. Returns ``(bound, (a1, b1, a2, b2))``.

    >>> p, _ = measured_band_failure_bound(0.527, 0.827, 30, 200, 10)
    >>> 1e-5 < p < 1e-4       # 8.3e-5: 200 draws per batch, central 90% bands
    True
    """
    for name, v in (("c_wide", c_wide), ("c_narrow", c_narrow)):
        check_interval(name, v, -1, 1, closed="neither")
    n = check_int("n", n, 2)
    B = check_int("B", B, 2)
    k = check_int("k", k, 1, (B - 1) // 2)
    rw, Fw = _cosine_quantile_table(c_wide, n)
    rn, Fn = _cosine_quantile_table(c_narrow, n)

    def q(r, F, p):
        return float(np.interp(p, F, r))

    best = (math.inf, None)
    kb = k / B
    # candidate tail masses r' of the wide band and their quantile-band widths (the same for every r below;
    # np.interp on the array gives each element exactly as the scalar call does)
    cands = np.linspace(kb * 1.001, 0.499, 400)
    widths = np.interp(1 - cands, Fw, rw) - np.interp(cands, Fw, rw)
    for r in np.geomspace(kb * 1e-3, kb * 0.999, 60):
        a2, b2 = q(rn, Fn, 1 - r), q(rn, Fn, r)
        t2 = a2 - b2
        # the largest r' whose quantile band is still >= t2
        ok = np.flatnonzero(widths >= t2)
        if not ok.size:
            continue
        s = cands[ok[-1]]
        a1, b1 = q(rw, Fw, 1 - s), q(rw, Fw, s)
        approx = 2 * _order_stat_tail("beyond", B, k, r) + 2 * _order_stat_tail("inside", B, k, s)
        if approx < best[0]:
            best = (approx, (a1, b1, a2, b2))
    if best[1] is None:
        return 1.0, (math.nan,) * 4
    a1, b1, a2, b2 = best[1]
    if not (a2 - b2 <= a1 - b1):
        return 1.0, best[1]
    exact = (_order_stat_tail("beyond", B, k, projected_cosine_cdf(a2, c_narrow, n, upper=True))
             + _order_stat_tail("beyond", B, k, projected_cosine_cdf(b2, c_narrow, n))
             + _order_stat_tail("inside", B, k, projected_cosine_cdf(a1, c_wide, n, upper=True))
             + _order_stat_tail("inside", B, k, projected_cosine_cdf(b1, c_wide, n)))
    return min(1.0, exact), (a1, b1, a2, b2)


def proof9_first_step_holds(s, t, cp, eps):
    r"""The first inequality of eq. (9) in the proof of Theorem 5 (Issue I2), evaluated per draw:

    .. math:: \|s a' - t b'\|^2 = s^2 + t^2 - 2 s t c' \le
              \|\sqrt{1-\epsilon}\, a' - \sqrt{1+\epsilon}\, b'\|^2 = 2 - 2\sqrt{1-\epsilon^2}\, c'

    with ``s = ‖Rx‖/‖x‖``, ``t = ‖Rw‖/‖w‖``, ``a' = Rx/‖Rx‖``, ``b' = Rw/‖Rw‖``, ``c' = <a', b'>``.
    Returns the pair ``(lhs, rhs)``; the paper claims ``lhs <= rhs`` whenever (7) holds.

    >>> lhs, rhs = proof9_first_step_holds(math.sqrt(1.3), math.sqrt(1.3), 0.0, 0.3)
    >>> lhs > rhs          # both norms at the upper end, orthogonal: the step is false
    True
    """
    lhs = s * s + t * t - 2 * s * t * cp
    rhs = 2.0 - 2.0 * math.sqrt(1 - eps * eps) * cp
    return lhs, rhs


def fig2_p1_exact(c, n, eps):
    """Exact ``P1 = 1 - P(1-eps <= c'/c < 1+eps)`` of Figure 2 (Section 5.1 of [1]_; a *relative* error of the
    projected cosine, not the band (4)), from the law of ``c'``. For ``c < 0`` the kept interval of ``c'`` is
    ``((1+eps)c, (1-eps)c]``.

    >>> round(fig2_p1_exact(0.827, 30, 0.1), 3), round(fig2_p1_exact(-0.062, 300, 0.3), 3)   # exact .145 .745
    (0.145, 0.747)
    """
    c, n = _check_c_n(c, n)
    eps = _eps(eps)
    if c == 0:
        raise RpcheckError("`c` (0.0) must be non-zero: the relative error c'/c is undefined at c = 0.")
    lo, hi = sorted(((1 - eps) * c, (1 + eps) * c))
    return projected_cosine_cdf(lo, c, n) + projected_cosine_cdf(hi, c, n, upper=True)


def fig2_p2_exact(c, n, eps):
    r"""Exact ``P2 = 1 - P(1-eps <= <Rw,Rx>/<w,x> <= 1+eps)`` of Figure 2 for Gaussian ``R``.

    With unit ``w, x`` and rows ``(a_l, b_l) ~ N(0, [[1, c], [c, 1]])``, ``a b = ((a+b)^2 - (a-b)^2)/4`` and
    ``a+b``, ``a-b`` are independent, so ``n <Rw,Rx> = U - V`` with ``U = (1+c)/2 chi^2_n`` and
    ``V = (1-c)/2 chi^2_n`` independent. ``P(U - V in [lo, hi]) = E_V[F_U(hi + V) - F_U(lo + V)]`` is one
    adaptive quadrature.

    >>> round(fig2_p2_exact(0.827, 100, 0.1), 4)        # Monte Carlo (20000 draws): 0.523
    0.5236
    """
    from scipy import integrate, stats
    c, n = _check_c_n(c, n)
    eps = _eps(eps)
    if c == 0:
        raise RpcheckError("`c` (0.0) must be non-zero: the relative error <Rw,Rx>/<w,x> is undefined at c "
                           "= 0.")
    lo, hi = sorted(((1 - eps) * n * c, (1 + eps) * n * c))
    su, sv = (1 + c) / 2, (1 - c) / 2

    def f(v):
        return stats.chi2.pdf(v / sv, n) / sv * (stats.chi2.cdf((hi + v) / su, n) - stats.chi2.cdf((lo + v) / su, n))

    top = stats.chi2.isf(1e-16, n) * sv
    mid = n * sv
    kept = 0.0
    for a, b in ((0.0, mid), (mid, top)):
        val, _ = integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-10, limit=400)
        kept += val
    return float(min(max(1.0 - kept, 0.0), 1.0))


# ----------------------------------------------------------------------------------------- Theorems 6, 8, 9
def thm6_margin_bound(gamma, eps, form="as_printed"):
    """Theorem 6 of [1]_: projected normalised margin ``gamma - 2eps/(1-eps)`` ("as_printed"), or the
    bound the proof gives, ``A gamma - 2eps/(1-eps) = gamma - 2eps(1-gamma)/(1-eps)`` ("as_proved", I5).

    >>> round(thm6_margin_bound(0.9, 0.3), 4), round(thm6_margin_bound(0.9, 0.3, "as_proved"), 4)
    (0.0429, 0.8143)
    """
    eps = _eps(eps)
    check_choice("form", form, ("as_printed", "as_proved"))
    if form == "as_printed":
        return gamma - 2 * eps / (1 - eps)
    return (1 + eps) / (1 - eps) * gamma - 2 * eps / (1 - eps)


def thm6_eps_max(gamma, form="as_printed"):
    """Non-vacuity region of Theorem 6 (C15): the margin bound is > 0 iff ``eps < thm6_eps_max``;
    ``gamma/(2+gamma)`` as printed, ``gamma/(2-gamma)`` for the proved bound (I5).

    >>> round(thm6_eps_max(1.0), 4), round(thm6_eps_max(0.5), 4), thm6_eps_max(1.0, "as_proved")
    (0.3333, 0.2, 1.0)
    """
    gamma = check_interval("gamma", gamma, 0, 1, closed="right")
    check_choice("form", form, ("as_printed", "as_proved"))
    return gamma / (2 + gamma) if form == "as_printed" else gamma / (2 - gamma)


def thm8_margin_bound(gamma, eps, form="as_printed"):
    r"""Theorem 8 of [1]_: the projected multiclass margin.

    ``"as_printed"``: :math:`-\frac{1+3\epsilon}{1-\epsilon^2} + \frac{\sqrt{1-\epsilon^2}}{1+\epsilon}
    + \frac{1+\epsilon}{1-\epsilon}\gamma`;
    ``"corrected"`` (Issue I6, what the proof supports for any signs of the cosines):
    :math:`-\frac{1+7\epsilon}{1-\epsilon^2} + \frac{\sqrt{1-\epsilon^2}}{1+\epsilon}
    + \frac{1+\epsilon}{1-\epsilon}\gamma`.

    >>> round(thm8_margin_bound(1.0, 0.1), 3), round(thm8_margin_bound(1.0, 0.5), 3)
    (0.814, 0.244)
    """
    eps = _eps(eps)
    check_choice("form", form, ("as_printed", "corrected"))
    k = 3 if form == "as_printed" else 7
    return -(1 + k * eps) / (1 - eps**2) + math.sqrt(1 - eps**2) / (1 + eps) + (1 + eps) / (1 - eps) * gamma


def thm8_point_bound(c_y, c_max, eps):
    r"""Per-point bound the proof of Theorem 8 actually yields (I6): on the Lemma-10 events of the pairs
    ``(u_y, x)`` and ``(u_{y'}, x)``,

    .. math:: \text{margin}' \ge Lo(c_y) - Up(c_{max}) = K + A c_y - B c_{max},\quad
              K = -\frac{1+3\epsilon}{1-\epsilon^2} + \frac{\sqrt{1-\epsilon^2}}{1+\epsilon}.

    >>> round(thm8_point_bound(0.0, -1.0, 0.5), 3)     # C12: Lo(0) - Up(-1)
    -2.423
    """
    lo, _ = thm5_band(c_y, eps)
    _, up = thm5_band(c_max, eps)
    return lo - up


def thm8_eps_max(gamma, form="as_printed"):
    """Largest eps with ``thm8_margin_bound(gamma, eps, form) > 0`` (the bound decreases in eps); 0 if none.

    >>> [round(thm8_eps_max(g), 3) for g in (1.0, 0.8, 0.5, 0.3, 0.1)]     # 0.707 .358 .167 .088 .026
    [0.707, 0.358, 0.167, 0.088, 0.026]
    """
    from scipy import optimize
    gamma = check_interval("gamma", gamma, 0, 1, closed="right")
    check_choice("form", form, ("as_printed", "corrected"))

    def f(e):
        return thm8_margin_bound(gamma, e, form)

    # As eps -> 1 the numerator -(1+k eps) + (1+eps)^2 gamma tends to -k-1+4 gamma <= 0 (the value at
    # gamma = 1, as printed, tends to -1/2), so f changes sign once on (0, 1); 1 - 1e-6 avoids cancellation.
    lo, hi = 1e-12, 1 - 1e-6
    if f(lo) <= 0:
        return 0.0
    return float(optimize.brentq(f, lo, hi, xtol=1e-14))


def thm9_margin_bound(gamma, eps, L):
    """Theorem 9 of [1]_, eq. (6): ``-2eps/(1-eps) + (1+eps) gamma / (sqrt(2L)(1-eps))``.

    >>> round(thm9_margin_bound(0.841, 0.15, 3), 4)      # about 0.111
    0.1116
    """
    eps = _eps(eps)
    L = check_int("L", L, 2)
    return -2 * eps / (1 - eps) + (1 + eps) * gamma / (math.sqrt(2 * L) * (1 - eps))


def thm9_eps_max(gamma, L):
    """Non-vacuity of Theorem 9 (C15): bound > 0 iff ``eps < g/(2-g)``, ``g = gamma/sqrt(2L)``.

    >>> [round(thm9_eps_max(1.0, L), 3) for L in (2, 3, 5, 10)]
    [0.333, 0.256, 0.188, 0.126]
    """
    L = check_int("L", L, 2)
    g = gamma / math.sqrt(2 * L)
    return g / (2 - g)


_UNION = {"thm5": lambda m, L: 1, "thm6": lambda m, L: m, "thm8": lambda m, L: L * m,
          "thm9": lambda m, L: m * (L - 1)}


def union_count(theorem, m=1, L=2):
    """The count ``N`` charged ``6 E`` each by the proof: 1 (Thm 5), m (Thm 6), Lm (Thm 8), m(L-1) (Thm 9).

    >>> union_count("thm8", m=15, L=3), union_count("thm9", m=10, L=3)
    (45, 20)
    """
    check_choice("theorem", theorem, tuple(_UNION))
    return _UNION[theorem](m, L)


def union_failure_bound(theorem, n, eps, m=1, L=2):
    """Promised failure probability ``6 N E(n, eps)`` (not clipped at 1).

    >>> round(union_failure_bound("thm6", 2052, 0.1, m=1), 3)
    0.05
    """
    return 6.0 * union_count(theorem, m, L) * tail_e(n, eps)


def true_union_count_thm6(m):
    """Number of Lemma-10 events Theorem 6's proof really needs, times 2E: u, the m points and the m
    differences ``xhat_i - uhat``: ``(4m + 2) E`` against the charged ``6 m E`` (C14).

    >>> true_union_count_thm6(20)
    82
    """
    m = check_int("m", m, 1)
    return 4 * m + 2


def n_threshold(eps, N, delta):
    """``12 ln(6 N / delta) / (3 eps^2 - 2 eps^3)``: the paper's requirement is ``n >`` this, which is
    exactly where ``6 N E(n, eps) < delta`` (C14).

    >>> [round(n_threshold(0.1, N, 0.05)) for N in (1, 10, 100)]      # 2052 3039 4025
    [2052, 3039, 4025]
    """
    eps = _eps(eps)
    N = check_int("N", N, 1)
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    return 12.0 * math.log(6.0 * N / delta) / (3 * eps**2 - 2 * eps**3)


# --------------------------------------------------------------------------------------------- Figure 1
def fig1_separable_probability(a):
    """Figure 1 of [1]_: ``P(separable) = (2/pi) arctan(1/a)`` for the 4 points ``(+-a, +-1)`` projected on
    a rotation-invariant random line (Gaussian 1 x 2 R): separable iff ``|r2| > a |r1|``.

    >>> fig1_separable_probability(1.0)
    0.5
    >>> round(fig1_separable_probability(2.0), 4)
    0.2952
    """
    a = check_interval("a", a, 0, None, closed="neither")
    return 2.0 / math.pi * math.atan(1.0 / a)


def fig1_uniform_separable_probability(a):
    """The pitfall of C8: with i.i.d. Uniform[-1, 1] entries (not rotation invariant),
    ``P(|r2| > a|r1|) = 1/(2a)`` for ``a >= 1`` (and ``1 - a/2`` for ``a < 1``).

    >>> fig1_uniform_separable_probability(5.0)
    0.1
    """
    a = check_interval("a", a, 0, None, closed="neither")
    return 1.0 / (2.0 * a) if a >= 1 else 1.0 - a / 2.0


def fig1_normalized_margin(a):
    """D2 optimal normalised margin of the Figure-1 data: ``1/sqrt(1 + a^2)`` (the D1 margin stays 1).

    >>> round(fig1_normalized_margin(1.0), 6)
    0.707107
    """
    a = check_interval("a", a, 0, None, closed="neither")
    return 1.0 / math.sqrt(1.0 + a * a)
