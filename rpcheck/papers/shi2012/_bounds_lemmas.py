r"""Lemma 10 and Lemma 4 of Shi et al. (2012): the bounds and exact laws of ``||R x||^2`` and ``<R w, R x>``.

Part of :mod:`rpcheck.papers.shi2012.bounds` (notation and references there), which re-exports every name.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..._validation import check_choice, check_int, check_interval
from ...errors import RpcheckError

#: Fourth moment ``E[r^4]`` of a unit-variance entry: Gaussian, Rademacher ("sign") and Achlioptas' sparse
#: ``{-sqrt 3, 0, +sqrt 3}`` with probabilities ``{1/6, 2/3, 1/6}`` ("sparse"), the names of ``make_sketch``.
ENTRY_FOURTH_MOMENT = {"gaussian": 3.0, "sign": 1.0, "sparse": 3.0}


def _eps(eps, *, closed="neither"):
    return check_interval("eps", eps, 0, 1, closed=closed)


def exponent(n, eps):
    """The exponent ``(n/2)(eps^2/2 - eps^3/3)``, written as ``n(3 eps^2 - 2 eps^3)/12`` (C14).

    >>> round(exponent(100, 0.3), 6)
    1.8
    >>> math.isclose(exponent(7, 0.4), (7 / 2) * (0.4**2 / 2 - 0.4**3 / 3))
    True
    """
    eps = _eps(eps)
    return n * (3 * eps**2 - 2 * eps**3) / 12.0


def tail_e(n, eps):
    """``E(n, eps) = exp(-(n/2)(eps^2/2 - eps^3/3))``, the unit of every probability in [1]_.

    >>> round(tail_e(768, 0.1) * 6, 4)        # Theorem 5 becomes non-vacuous near n = 768 at eps = 0.1
    0.9998
    """
    return math.exp(-exponent(n, eps))


def lemma10_failure_bound(n, eps):
    """Lemma 10 of [1]_: ``P(|‖Rx‖²/‖x‖² - 1| > eps) <= 2 E(n, eps)`` (not clipped at 1).

    >>> round(lemma10_failure_bound(1000, 0.1), 3)
    0.194
    """
    return 2.0 * tail_e(n, eps)


def lemma10_tail_bound(n, eps, side, *, form="log"):
    r"""The one-sided bounds in the proof of Lemma 10 of [1]_ (Dasgupta--Gupta).

    Parameters
    ----------
    n : int
    eps : float in (0, 1)
    side : {"lower", "upper"}
        ``"lower"`` bounds ``P(‖Rx‖² <= (1-eps)‖x‖²)``; ``"upper"`` bounds ``P(‖Rx‖² >= (1+eps)‖x‖²)``
        (the paper prints "<=" inside the second probability, Issue I1; the upper tail is meant).
    form : {"log", "polynomial"}
        ``"log"``: ``exp((n/2)(eps + ln(1-eps)))`` resp. ``exp((n/2)(-eps + ln(1+eps)))``;
        ``"polynomial"``: ``exp(-n eps^2/4)`` resp. ``E(n, eps)``, which are larger.

    >>> lo, up = lemma10_tail_bound(300, 0.3, "lower"), lemma10_tail_bound(300, 0.3, "upper")
    >>> lo < lemma10_tail_bound(300, 0.3, "lower", form="polynomial") and up < tail_e(300, 0.3)
    True
    """
    eps = _eps(eps)
    check_choice("side", side, ("lower", "upper"))
    check_choice("form", form, ("log", "polynomial"))
    if side == "lower":
        return math.exp(n / 2 * (eps + math.log1p(-eps))) if form == "log" else math.exp(-n * eps**2 / 4)
    return math.exp(n / 2 * (-eps + math.log1p(eps))) if form == "log" else tail_e(n, eps)


def lemma10_exact_failure(n, eps, side="both"):
    """Exact ``P(q < 1-eps)``, ``P(q > 1+eps)`` or their sum for ``q = ‖Rx‖²/‖x‖² ~ chi²_n/n`` (Gaussian R).

    >>> round(lemma10_exact_failure(1000, 0.1), 4)       # exact 0.0253 vs the bound 2E = 0.194
    0.0253
    """
    from scipy import stats
    n = check_int("n", n, 1)
    eps = _eps(eps)
    check_choice("side", side, ("both", "lower", "upper"))
    lo = stats.chi2.cdf(n * (1 - eps), n)
    up = stats.chi2.sf(n * (1 + eps), n)
    return float({"both": lo + up, "lower": lo, "upper": up}[side])


def lemma10_exact_failure_achlioptas_axis(n, eps, side="both"):
    """Exact Lemma-10 failure for Achlioptas' sparse entries and an axis-aligned ``x = e_j`` (C16).

    Then ``‖Rx‖² = 3 B / n`` with ``B ~ Binomial(n, 1/3)`` (the number of non-zeros in column j).

    >>> lemma10_exact_failure_achlioptas_axis(3, 0.5)    # 3B/3 = B, fails unless B = 1
    0.5555555555555556
    """
    from scipy import stats
    n = check_int("n", n, 1)
    eps = _eps(eps)
    check_choice("side", side, ("both", "lower", "upper"))
    b = np.arange(n + 1)
    q = 3.0 * b / n
    pmf = stats.binom.pmf(b, n, 1.0 / 3.0)
    lo = float(pmf[q < 1 - eps].sum())
    up = float(pmf[q > 1 + eps].sum())
    return {"both": lo + up, "lower": lo, "upper": up}[side]


def lemma4_variance(w, x, n, *, entries="gaussian"):
    r"""Exact ``Var(<Rw, Rx>)`` for ``R(i,j) = r_ij/sqrt(n)`` with i.i.d. zero-mean unit-variance ``r_ij``.

    .. math:: \mathrm{Var} = \big(\|w\|^2\|x\|^2 + \langle w,x\rangle^2
              + (\mu_4 - 3)\textstyle\sum_j w_j^2 x_j^2\big)/n

    (not in [1]_; used for the tolerance of the Lemma-4 checker; verified by
    :func:`inner_product_moments_exact`).

    >>> lemma4_variance(np.array([1.0, 0]), np.array([1.0, 0]), 4, entries="sign")   # r^2 = 1: no variance
    0.0
    """
    check_choice("entries", entries, tuple(ENTRY_FOURTH_MOMENT))
    n = check_int("n", n, 1)
    w = np.asarray(w, dtype=float)
    x = np.asarray(x, dtype=float)
    mu4 = ENTRY_FOURTH_MOMENT[entries]
    val = (w @ w) * (x @ x) + (w @ x) ** 2 + (mu4 - 3.0) * float(np.sum(w**2 * x**2))
    return float(val / n)


def lemma4_sign_axis_tail(n, z):
    r"""Exact ``P(|<Rw, Rx> - <w, x>| > z sd)`` for Rademacher entries and an axis-aligned pair.

    With ``w = a e_1``, ``x = b (c e_1 + s e_2)`` (``s = sqrt(1 - c^2) > 0``) and ``R(i, j) = r_ij / sqrt(n)``,
    ``r_ij = +-1``: ``<Rw, Rx> = a b (c + (s/n) sum_i r_i1 r_i2)`` and the products ``r_i1 r_i2`` are i.i.d.
    signs, so ``<Rw, Rx> - <w, x> = (a b s / n)(2K - n)`` with ``K ~ Bin(n, 1/2)`` and sd ``= a b s / sqrt(n)``
    (:func:`lemma4_variance`). Hence the standardised deviation is the lattice variable ``(2K - n)/sqrt(n)``
    and the tail is an exact binomial sum, which is not the normal value ``2(1 - Phi(z))``.

    >>> round(lemma4_sign_axis_tail(50, 1.959963984540054), 4)     # normal approximation: 0.05
    0.0649
    """
    n = check_int("n", n, 1)
    z = float(z)
    if not (z >= 0 and math.isfinite(z)):
        raise RpcheckError(f"`z` ({z!r}) must be a finite number >= 0.")
    from scipy.stats import binom

    # |2K - n| > z sqrt(n)  <=>  K < (n - z sqrt(n))/2  or  K > (n + z sqrt(n))/2
    half = z * math.sqrt(n) / 2.0
    lo = math.ceil(n / 2.0 - half) - 1  # largest K with K < n/2 - half
    hi = math.floor(n / 2.0 + half) + 1  # smallest K with K > n/2 + half
    return float(binom.cdf(lo, n, 0.5) + binom.sf(hi - 1, n, 0.5))


def inner_product_moments_exact(w, x, *, entries="gaussian"):
    """Exact mean and variance of ``(r.w)(r.x)`` for ONE row ``r`` of i.i.d. entries, by enumeration.

    Rademacher and Achlioptas entries are enumerated over all ``2^d`` / ``3^d`` sign patterns; Gaussian
    entries by the tensor 3-point Gauss--Hermite rule, which is exact for polynomials of degree <= 5 in each
    coordinate (the integrand has degree <= 4). Then ``<Rw,Rx>`` is the mean of ``n`` i.i.d. copies, so
    its mean is the same and its variance is this variance divided by ``n``. Intended for ``d <= 8``.

    Returns
    -------
    mean, variance : float

    >>> inner_product_moments_exact(np.array([1.0, 2.0]), np.array([3.0, -1.0]), entries="sign")
    (1.0, 25.0)
    """
    check_choice("entries", entries, tuple(ENTRY_FOURTH_MOMENT))
    w = np.asarray(w, dtype=float)
    x = np.asarray(x, dtype=float)
    d = w.shape[0]
    if d > 10:
        raise RpcheckError(f"`w` has d={d} entries; exact enumeration supports d <= 10.")
    if entries == "sign":
        vals, probs = np.array([-1.0, 1.0]), np.array([0.5, 0.5])
    elif entries == "sparse":
        vals, probs = np.array([-math.sqrt(3), 0.0, math.sqrt(3)]), np.array([1 / 6, 2 / 3, 1 / 6])
    else:  # probabilists' Gauss-Hermite, 3 nodes: 0, +-sqrt(3), weights 2/3, 1/6, 1/6
        vals, probs = np.array([-math.sqrt(3), 0.0, math.sqrt(3)]), np.array([1 / 6, 2 / 3, 1 / 6])
    k = len(vals)
    idx = np.array(list(itertools.product(range(k), repeat=d)))
    rows = vals[idx]
    p = np.prod(probs[idx], axis=1)
    prod = (rows @ w) * (rows @ x)
    mean = float(p @ prod)
    var = float(p @ (prod - mean) ** 2)
    return mean, var
