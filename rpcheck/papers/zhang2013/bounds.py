r"""Bounds of Zhang, Mahdavi, Jin, Yang and Zhu (COLT 2013), "Recovering the optimal solution by dual
random projection" (COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046).

The source text lost every inline formula. Values tagged [R] (reconstructed, unverified
against the published PDF) are **assumed** here and exposed as parameters:

- ``c = 1/4`` in the Corollary 7 / Theorems 1-5 condition ``m >= (r+1) log(2r/delta) / (c eps^2)`` [R]
  (the matrix-Laplace derivation gives an implied constant >= 0.378 for every r and eps <= 1/2, so 1/4 is
  provably safe);
- ``eps in (0, 1/2]`` and probability ``1 - delta`` (Cor. 7, Theorems 1, 2, 4, 5) [R];
- ``eps in (0, 1/3]`` and the extra failure term ``exp(-(d-r)/32)`` of Theorem 3 [R];
- ``c = 1/32`` in Theorem 6 [R], and the effective rank ``rbar`` (definition inferred, [D]).

Conventions: ``r = rank(X)``, ``m`` the number of random projections, ``lambda`` the regulariser of the
summed-loss primal (1), ``gamma`` the smoothness of the loss.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validation import check_int, check_interval

__all__ = [
    "C_COR7",
    "C_THM6",
    "cor7_min_dim",
    "cor7_eps",
    "cor7_failure_upper",
    "cor7_failure_lower",
    "thm1_bound",
    "thm2_bound",
    "thm3_bracket",
    "thm3_lower",
    "thm3_failure",
    "thm3_chi2_failure",
    "thm4_bound",
    "thm4_bound_tight",
    "thm5_bound",
    "thm5_iterations",
    "effective_rank",
    "thm6_bound",
    "thm6_eps",
    "thm6_min_dim",
]

#: Assumed constant of Corollary 7 and Theorems 1-5 ([R]; the matrix Laplace bound gives an implied constant >= 0.378).
C_COR7 = 0.25
#: Assumed constant of Theorem 6 ([R]; fits a Gaussian-covariance concentration bound with constant 32).
C_THM6 = 1.0 / 32.0


def _eps(eps, high=1.0):
    return check_interval("eps", eps, 0, high, closed="left" if high == 1.0 else "both")


def cor7_min_dim(r, eps, delta, c=C_COR7):
    r"""Smallest ``m`` with ``m >= (r + 1) log(2 r / delta) / (c eps^2)`` (Corollary 7, Theorems 1-5).

    Parameters
    ----------
    r : int
        Rank of the data, ``>= 1``.
    eps : float
        In ``(0, 1)`` (the paper states ``eps <= 1/2`` [R]).
    delta : float
        In ``(0, 1)``.
    c : float, default=1/4
        The constant ([R], assumed).

    Returns
    -------
    int

    Examples
    --------
    >>> cor7_min_dim(10, 0.5, 0.1)   # "m >= 933"
    933
    >>> cor7_min_dim(10, 0.25, 0.1)   # 3730.02
    3731
    """
    r = check_int("r", r, 1)
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    c = check_interval("c", c, 0, None, closed="neither")
    return int(math.ceil((r + 1) * math.log(2 * r / delta) / (c * eps * eps) - 1e-9))


def cor7_eps(r, m, delta, c=C_COR7):
    r"""The ``eps`` that Corollary 7 guarantees with ``m`` projections: ``sqrt((r+1) log(2r/delta) / (c m))``.

    >>> round(cor7_eps(10, 933, 0.1), 4)
    0.4999
    """
    r = check_int("r", r, 1)
    m = check_int("m", m, 1)
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    c = check_interval("c", c, 0, None, closed="neither")
    return math.sqrt((r + 1) * math.log(2 * r / delta) / (c * m))


def cor7_failure_upper(r, m, eps):
    r"""Rigorous upper bound on ``P(||A A^T/m - I||_2 > eps)`` for an ``r x m`` standard Gaussian ``A``.

    Matrix Laplace transform bound (Tropp, "User-friendly tail bounds for sums of random matrices", FoCM
    2012, Thm. 3.6, from Lieb's theorem) for ``W = (1/m) sum_k g_k g_k^T`` with i.i.d. ``g_k ~ N(0, I_r)``
    (the columns of ``A``). By rotational invariance
    ``E exp(theta g g^T) = (1 + ((1 - 2 theta)^{-r/2} - 1)/r) I`` (``theta < 1/2``), so

    .. math::

        P(\lambda_{max}(W) \ge 1 + \epsilon) \le \inf_{0 < \theta < m/2} r
            e^{-\theta (1 + \epsilon)} (1 + ((1 - 2\theta/m)^{-r/2} - 1)/r)^m,

        P(\lambda_{min}(W) \le 1 - \epsilon) \le \inf_{\theta > 0} r
            e^{\theta (1 - \epsilon)} (1 + ((1 + 2\theta/m)^{-r/2} - 1)/r)^m,

    and the sum of the two (capped at 1) bounds the failure probability of Corollary 7's event. The infima
    are taken numerically (any ``theta`` gives a valid bound, so an inexact minimiser only loosens it).

    >>> cor7_failure_upper(2, cor7_min_dim(2, 0.5, 0.1), 0.5) < 0.006   # m = 178 at c = 1/4
    True
    """
    from scipy.optimize import minimize_scalar

    r = check_int("r", r, 1)
    m = check_int("m", m, 1)
    eps = check_interval("eps", eps, 0, 1, closed="neither")

    def up(th):
        return math.log(r) - th * (1 + eps) + m * math.log1p(((1 - 2 * th / m) ** (-r / 2) - 1) / r)

    def lo(th):
        return math.log(r) + th * (1 - eps) + m * math.log1p(((1 + 2 * th / m) ** (-r / 2) - 1) / r)

    a = minimize_scalar(up, bounds=(1e-12, 0.5 * m * (1 - 1e-12)), method="bounded").fun
    b = minimize_scalar(lo, bounds=(1e-12, 1e3 * m), method="bounded").fun
    return min(1.0, math.exp(min(a, 0.0)) + math.exp(min(b, 0.0)))


def cor7_failure_lower(r, m, eps):
    r"""Rigorous lower bound on ``P(||A A^T/m - I||_2 > eps)`` for an ``r x m`` standard Gaussian ``A``.

    The diagonal entries ``W_ii = ||a_i||^2/m`` of ``W = A A^T/m`` are independent (the rows ``a_i`` are) with
    law ``chi2_m/m``, and ``||W - I||_2 >= max_i |W_ii - 1|`` (``lambda_min <= W_ii <= lambda_max``). So
    ``P(||W - I|| <= eps) <= P(|chi2_m/m - 1| <= eps)^r``; the complement is returned (exact chi-square cdf).

    >>> round(cor7_failure_lower(2, 12, 0.5), 3)   # c = 4: m = 12 at r = 2, eps = 1/2, delta = 0.1
    0.359
    """
    from scipy.stats import chi2

    r = check_int("r", r, 1)
    m = check_int("m", m, 1)
    eps = check_interval("eps", eps, 0, None, closed="neither")
    q = float(chi2.cdf(m * (1 + eps), m) - chi2.cdf(max(m * (1 - eps), 0.0), m))
    return float(-math.expm1(r * math.log(q))) if q > 0 else 1.0


def thm1_bound(eps):
    r"""Theorem 1: ``||sqrt(m) z* - R^T w*|| <= (sqrt(2) eps / sqrt(1 - eps)) ||R^T w*||``.

    The proof gives ``eps/(1-eps)``, which is smaller exactly when ``eps <= 1/2`` ([D], from the proof of Theorem 1).

    >>> round(thm1_bound(0.5), 6), thm2_bound(0.5)
    (1.0, 1.0)
    """
    eps = _eps(eps)
    return math.sqrt(2.0) * eps / math.sqrt(1.0 - eps)


def thm2_bound(eps):
    r"""Theorem 2 (and the per-draw form with ``eps_R``): ``||wtilde - w*|| <= eps/(1 - eps) ||w*||``.

    >>> thm2_bound(0.25)
    0.3333333333333333
    """
    eps = _eps(eps)
    return eps / (1.0 - eps)


def thm3_bracket(eps):
    r"""The bracket ``1 - eps sqrt(2 (1 + eps)) / (1 - eps)`` of Theorem 3 (positive only for eps < 0.3761).

    >>> round(thm3_bracket(1/3), 3), round(thm3_bracket(0.25), 3)
    (0.184, 0.473)
    """
    eps = _eps(eps)
    return 1.0 - eps * math.sqrt(2.0 * (1.0 + eps)) / (1.0 - eps)


def thm3_lower(eps, d, r, m):
    r"""Theorem 3: ``||what - w*|| >= (1/2) sqrt((d - r)/m) (1 - eps sqrt(2(1+eps))/(1-eps)) ||w*||``.

    >>> round(thm3_lower(1/3, 1005, 5, 100), 4)   # 0.5 * sqrt(10) * 0.1835
    0.2901
    """
    d = check_int("d", d, 1)
    r = check_int("r", r, 1, d)
    m = check_int("m", m, 1)
    return 0.5 * math.sqrt((d - r) / m) * thm3_bracket(eps)


def thm3_failure(delta, d, r):
    r"""Promised failure probability of Theorem 3: ``delta + exp(-(d - r)/32)`` ([R], assumed).

    >>> round(thm3_failure(0.1, 325, 5), 6)   # 0.1 + exp(-10)
    0.100045
    """
    delta = check_interval("delta", delta, 0, 1)
    return min(1.0, delta + math.exp(-(d - r) / 32.0))


def thm3_chi2_failure(eps, d, r, *, form="corrected"):
    r"""Exact failure probability of the chi-square step behind Theorem 3's bound (rpcheck's derivation).

    ``B = U_perp^T R_paper`` is independent of ``z*``, so ``||B z*||^2 / ||z*||^2 ~ chi2_{d-r}``.
    The printed bracket needs ``||B z*|| >= sqrt(d - r) ||z*|| / (2 sqrt(1 - eps))`` ([D]):

    - ``form="corrected"``: ``P = chi2.cdf((d - r) / (4 (1 - eps)), d - r)``, the probability that this
      needed event fails;
    - ``form="half_threshold"``: ``chi2.cdf((d - r)/4, d - r)``, the failure probability of the weaker event
      ``||B z*|| >= sqrt(d - r) ||z*|| / 2`` (it drops the ``sqrt(1 - eps)``).

    >>> round(thm3_chi2_failure(1/3, 17, 5), 4), round(thm3_chi2_failure(1/3, 17, 5, form="half_threshold"), 4)
    (0.0274, 0.0045)
    """
    from scipy.stats import chi2

    eps = _eps(eps)
    k = check_int("d - r", d - r, 1)
    scale = 1.0 / (1.0 - eps) if form == "corrected" else 1.0
    if form not in ("corrected", "half_threshold"):
        from ...errors import RpcheckError

        raise RpcheckError(f"`form` ({form!r}) must be one of 'corrected', 'half_threshold'.")
    return float(chi2.cdf(k * scale / 4.0, k))


def thm4_bound(eps):
    r"""Theorem 4: ``||U^T (what - w*)|| <= eps (1 + 1/(1 - eps)) ||w*||``.

    >>> thm4_bound(0.5)
    1.5
    """
    eps = _eps(eps)
    return eps * (1.0 + 1.0 / (1.0 - eps))


def thm4_bound_tight(eps):
    r"""Tighter per-draw form of Theorem 4 [D]: ``eps (1 + sqrt((1 + eps)/(1 - eps)))``, <= ``thm4_bound``.

    >>> round(thm4_bound_tight(0.5), 4)
    1.366
    """
    eps = _eps(eps)
    return eps * (1.0 + math.sqrt((1.0 + eps) / (1.0 - eps)))


def thm5_bound(eps, T):
    r"""Theorem 5: ``||wtilde_T - w*|| <= (eps/(1 - eps))^T ||w*||`` (one R for all T iterations).

    >>> round(thm5_bound(0.25, 3), 6)
    0.037037
    """
    T = check_int("T", T, 0)
    return thm2_bound(eps) ** T


def thm5_iterations(eps, target):
    r"""Iterations for relative error ``target``: ``ceil(log(1/target) / log((1 - eps)/eps))``.

    >>> thm5_iterations(0.25, 1e-6)
    13
    """
    eps = check_interval("eps", eps, 0, 0.5, closed="neither")
    target = check_interval("target", target, 0, 1, closed="neither")
    return int(math.ceil(math.log(1.0 / target) / math.log((1.0 - eps) / eps) - 1e-12))


def effective_rank(sigma, lam, gamma=1.0):
    r"""Effective rank ``rbar = sum_i sigma_i^2 / (lambda/gamma + sigma_i^2)`` of Theorem 6
    ([D]: forced by the bound on rbar in Section 5.3).

    >>> round(effective_rank([10.0, 1.0, 0.1], 1.0), 4)   # 100/101 + 1/2 + 0.01/1.01
    1.5
    """
    s = np.asarray(sigma, dtype=np.float64)
    lam = check_interval("lam", lam, 0, None, closed="neither")
    gamma = check_interval("gamma", gamma, 0, None, closed="neither")
    s2 = s * s
    return float(np.sum(s2 / (lam / gamma + s2)))


def thm6_bound(eps, lam, gamma, sigma_k):
    r"""Theorem 6: ``||wtilde - w*|| <= eps/(1-eps) (1 + sqrt(lambda)/(sqrt(gamma) sigma_k)) ||w*||``.

    >>> round(thm6_bound(0.5, 1.0, 1.0, 1.0), 6)
    2.0
    """
    sigma_k = check_interval("sigma_k", sigma_k, 0, None, closed="neither")
    return thm2_bound(eps) * (1.0 + math.sqrt(lam / gamma) / sigma_k)


def _thm6_factor(rbar, sigma1, lam, gamma, form):
    if form == "as_printed":
        return rbar * sigma1**2 / (lam / gamma + sigma1**2)
    if form == "conservative":
        return rbar
    from ...errors import RpcheckError

    raise RpcheckError(f"`form` ({form!r}) must be one of 'as_printed', 'conservative'.")


def thm6_min_dim(rbar, sigma1, lam, gamma, d, eps, delta, c=C_THM6, *, form="as_printed"):
    r"""Theorem 6's condition on ``m``.

    ``form="as_printed"``: ``m >= rbar sigma_1^2 log(2d/delta) / (c eps^2 (lambda/gamma + sigma_1^2))``;
    ``form="conservative"``: ``m >= rbar log(2d/delta) / (c eps^2)`` (the printed factor
    ``sigma_1^2/(lambda/gamma + sigma_1^2) <= 1`` makes the printed condition weaker).

    >>> thm6_min_dim(2.0, 1.0, 1.0, 1.0, 100, 0.5, 0.1, form="conservative")   # 2 log(2000) 32 * 4
    1946
    """
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    f = _thm6_factor(rbar, sigma1, lam, gamma, form)
    return int(math.ceil(f * math.log(2 * d / delta) / (c * eps * eps) - 1e-9))


def thm6_eps(m, rbar, sigma1, lam, gamma, d, delta, c=C_THM6, *, form="as_printed"):
    r"""The ``eps`` implied by ``m`` in Theorem 6 (inverse of :func:`thm6_min_dim`).

    >>> round(thm6_eps(1946, 2.0, 1.0, 1.0, 1.0, 100, 0.1, form="conservative"), 4)
    0.5
    """
    m = check_int("m", m, 1)
    f = _thm6_factor(rbar, sigma1, lam, gamma, form)
    return math.sqrt(f * math.log(2 * d / delta) / (c * m))
