r"""Bounds and closed forms for Lei & Lan 2020, "Improved Subsampled Randomized Hadamard Transform for
Linear SVM" (AAAI 2020).

The paper itself gives no failure probability and no constant. Every function below is therefore marked

- **DERIVED**: proved here from the paper's definitions (the derivation is in the Notes), or
- **IMPORTED**: taken from the cited literature, with the source named.

Notation (Sec. 3): ``X_r = X D H`` is the rotated data, ``c_j = ||X_r(:, j)||^2`` its column energies
(``sum_j c_j = ||X||_F^2``), ``K = X X^T = X_r X_r^T`` and ``K~`` the Gram matrix of the sketched data.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validation import check_int, check_interval
from ...errors import RpcheckError

__all__ = [
    "sampled_sq_error",
    "nps_sq_error",
    "uniform_without_replacement_sq_error",
    "sampled_entry_variance",
    "prop2_bound",
    "rotated_energy_moments",
    "flattening_bound",
    "flattening_failure_upper",
    "dkm_frobenius_bound",
    "dkm_beta",
    "dual_perturbation_bound",
    "selection_dual_gap_bound",
    "jl_min_dim",
]


def _energies(c):
    c = np.asarray(c, dtype=np.float64)
    if c.ndim != 1 or c.size == 0 or np.any(c < 0) or not np.all(np.isfinite(c)):
        raise RpcheckError("`c` (column energies) must be a non-empty 1-D array of finite values >= 0.")
    return c


def sampled_sq_error(c, K_fro_sq, p, r):
    r"""Exact E||K~ - K||_F^2 for i.i.d. sampling with replacement with probabilities ``p`` (eq. 5).

    IMPORTED: Drineas, Kannan & Mahoney (2006), "Fast Monte Carlo algorithms for matrices I", Lemma 4
    (the tool of Lei & Lan's Prop. 1 proof), instantiated with A = X_r, B = X_r^T (Proposition 1):

    .. math:: E||K~ - K||_F^2 = \frac{1}{r}\Big(\sum_j \frac{c_j^2}{p_j} - ||K||_F^2\Big).

    Verified against exact enumeration of all multisets in ``rpcheck.papers.lei2020.prop1`` and ``.replacement``.

    Parameters
    ----------
    c : array_like of shape (d,)
        Column energies of X_r.
    K_fro_sq : float
        ||K||_F^2 = ||X X^T||_F^2.
    p : array_like of shape (d,)
        Sampling probabilities (sum 1); ``p_j > 0`` wherever ``c_j > 0`` (otherwise the estimator is biased
        and the formula does not apply: RpcheckError).
    r : int
        Number of draws.

    Examples
    --------
    The d=2 example X_r = diag(1, sqrt 2), r = 1, K = diag(1, 2):

    >>> round(sampled_sq_error([1, 2], 5.0, [1/3, 2/3], 1), 12)  # nps
    4.0
    >>> round(sampled_sq_error([1, 2], 5.0, [0.2, 0.8], 1), 12)
    5.0
    """
    c = _energies(c)
    p = np.asarray(p, dtype=np.float64)
    r = check_int("r", r, 1)
    if p.shape != c.shape or np.any(p < 0) or abs(p.sum() - 1) > 1e-9:
        raise RpcheckError("`p` must be a probability vector (>= 0, summing to 1) of the same length as `c`.")
    if np.any((p == 0) & (c > 0)):
        raise RpcheckError(
            "`p` is 0 on a column with energy > 0: the sampled Gram matrix is then biased and "
            "DKM Lemma 4 does not apply."
        )
    m = p > 0
    return float((np.sum(c[m] ** 2 / p[m]) - K_fro_sq) / r)


def nps_sq_error(fro_sq_X, K_fro_sq, r):
    r"""Minimum over p of E||K~ - K||_F^2, attained by nps p_j = c_j / sum c (corrected Prop. 1).

    DERIVED (Proposition 1): Cauchy-Schwarz on :func:`sampled_sq_error` gives the minimiser p ~ c and

    .. math:: E^* = \frac{1}{r}\big(||X||_F^4 - ||X X^T||_F^2\big) \ge 0.

    >>> nps_sq_error(3.0, 5.0, 1)
    4.0
    """
    r = check_int("r", r, 1)
    return float((fro_sq_X**2 - K_fro_sq) / r)


def uniform_without_replacement_sq_error(c, K_fro_sq, r):
    r"""Exact E||K~ - K||_F^2 for uniform SRHT sampling WITHOUT replacement, scale d/r (eq. 2).

    DERIVED (derivation below): the finite-population correction of the with-replacement value,

    .. math:: E||K~ - K||_F^2 = \frac{d-r}{d-1}\,\frac{1}{r}\Big(d\sum_j c_j^2 - ||K||_F^2\Big),

    verified by enumerating all r-subsets in ``rpcheck.papers.lei2020.replacement``. For d = 1 (so r = 1)
    the sample is the whole population and the error is 0.

    >>> round(uniform_without_replacement_sq_error([1, 2], 5.0, 1), 12)
    5.0
    >>> uniform_without_replacement_sq_error([1, 2], 5.0, 2)
    0.0
    """
    c = _energies(c)
    d = c.size
    r = check_int("r", r, 1, d)
    if d == 1 or r == d:
        return 0.0
    return float((d - r) / (d - 1) * (d * np.sum(c**2) - K_fro_sq) / r)


def sampled_entry_variance(Xr, p, r):
    r"""Exact entrywise variance Var[K~_ij] of the with-replacement estimator (F1).

    IMPORTED: Drineas, Kannan & Mahoney (2006), Lemma 3:
    Var[K~_ij] = (1/r) ( sum_k X_r[i,k]^2 X_r[j,k]^2 / p_k - K_ij^2 ).

    >>> float(sampled_entry_variance(np.diag([1.0, 10.0]), [1/101, 100/101], 1)[0, 0])  # nps
    100.0
    """
    Xr = np.asarray(Xr, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    r = check_int("r", r, 1)
    m = p > 0
    A = Xr[:, m] ** 2
    K = Xr @ Xr.T
    return (A @ (A / p[m]).T - K**2) / r


def prop2_bound(c, selected):
    r"""Right-hand side of Prop. 2 (eq. 7): sum of the energies of the UNSELECTED columns.

    Stated in the paper (Lei & Lan 2020, Prop. 2, eq. 7) for any 0/1 diagonal P:
    ||X_r P X_r^T - X X^T||_F <= sum_{j: P_jj = 0} c_j. Proof: triangle inequality (Proposition 2); the
    sharper DERIVED chain is ||K - K~||_2 <= ||K - K~||_F <= trace(K - K~) = this value.

    >>> prop2_bound([1.0, 0.81, 0.81], [True, False, False])
    1.62
    """
    c = _energies(c)
    sel = np.asarray(selected, dtype=bool)
    if sel.shape != c.shape:
        raise RpcheckError("`selected` must be a boolean mask of the same length as `c`.")
    return float(np.sum(c[~sel]))


def rotated_energy_moments(X):
    r"""Mean and variance over the Rademacher diagonal D of each rotated column energy c_j (derivation below).

    DERIVED (exact; verified by enumerating all 2^d sign vectors):

    .. math:: E_D c_j = ||X||_F^2 / d, \qquad
              Var_D c_j = \frac{2}{d^2}\sum_{k \ne l} (X^T X)_{kl}^2   \quad (\text{every } j).

    ``X`` must already have a power-of-two number of columns.

    >>> rotated_energy_moments(np.array([[1.0, 1.0]]))
    (1.0, 1.0)
    """
    X = np.asarray(X, dtype=np.float64)
    d = X.shape[1]
    if d & (d - 1):
        raise RpcheckError(f"`X` has d={d} columns; the rotated energies need d a power of two (pad first).")
    G = X.T @ X
    off = np.sum(G**2) - np.sum(np.diag(G) ** 2)
    return float(np.sum(X**2) / d), float(2.0 * off / d**2)


def flattening_bound(n, d, delta):
    r"""Upper bound on max_j c_j / ||X||_F^2 holding with probability >= 1 - delta over D.

    DERIVED (Hoeffding for each entry of x_i^T D H, then a union bound over the n d entries):
    P(|(x_i^T D H)_j| >= tau ||x_i||) <= 2 exp(-tau^2 d / 2), so with probability >= 1 - delta every
    (x_i^T D H)_j^2 <= 2 ln(2nd/delta) ||x_i||^2 / d, and summing over i,

    .. math:: \max_j c_j \le \frac{2\ln(2nd/\delta)}{d}\,||X||_F^2.

    >>> round(flattening_bound(100, 128, 0.1), 6)
    0.194577
    """
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    return 2.0 * math.log(2.0 * n * d / delta) / d


def flattening_failure_upper(n, d, delta):
    r"""Upper bound on the probability that the :func:`flattening_bound` event fails, for ANY data X with n rows
    (padded dimension ``d`` = d'); the power backing of the expected HOLDS of ``lei2020.flattening``.

    DERIVED (Gaussian linearisation of a Rademacher quadratic form). Fix a column j of the rotation: with
    h_j in {-1, 1}^d the j-th column of the unnormalised Hadamard matrix and D = diag(s), the column energy is
    c_j = ||X eps||^2 / d with eps = diag(h_j) s a Rademacher vector. For g ~ N(0, I_n) independent of eps
    and 0 <= lam < 1 / (2 ||X||_F^2),

    .. math::
        E\,e^{\lambda ||X\epsilon||^2} = E_\epsilon E_g\, e^{\sqrt{2\lambda}\, g^T X \epsilon}
        = E_g \prod_k \cosh(\sqrt{2\lambda}\, g^T x_k) \le E_g\, e^{\lambda ||X^T g||^2}
        = \prod_i (1 - 2\lambda\sigma_i^2)^{-1/2}

    (cosh t <= e^{t^2/2}; sigma_i the singular values of X). The logarithm of the right side is convex in
    (sigma_i^2), so on {sigma_i^2 >= 0, sum_i sigma_i^2 = F = ||X||_F^2} it is largest at a vertex (rank one):
    at most (1 - 2 lam F)^{-1/2}. Markov's inequality at lam F = (1 - 1/K)/2 (K > 1) gives
    P(c_j >= K F / d) <= sqrt(K) e^{-(K-1)/2}, and a union bound over the d columns

    .. math:: P\Big(\max_j c_j \ge \frac{K}{d} ||X||_F^2\Big) \le d\,\sqrt{K}\,e^{-(K-1)/2}.

    At the bound's K = 2 ln(2nd/delta) this is sqrt(e K) delta / (2n): the union over the n rows in the
    bound's derivation makes it looser than its delta by that factor (0.02-0.08 on lei2020.flattening's grids).
    Returns the bound capped at 1 (it is vacuous for K <= 1).

    >>> round(flattening_failure_upper(200, 4096, 0.01), 7)
    0.0002535
    """
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    k = 2.0 * math.log(2.0 * n * d / delta)
    if k <= 1.0:
        return 1.0
    return min(1.0, d * math.sqrt(k) * math.exp(-(k - 1.0) / 2.0))


def dkm_beta(c):
    r"""beta of DKM Theorem 1 for UNIFORM sampling p_j = 1/d: beta = ||X||_F^2 / (d max_j c_j) (derivation below).

    ``beta <= 1`` exactly (``sum c <= d max c``); the floating-point sum can exceed ``d max c`` by an ulp
    when the energies are equal (e.g. seven energies 0.7 give 1.0000000000000002), so the quotient is
    capped at 1, the exact value in that case.

    >>> dkm_beta([1.0, 1.0, 2.0, 0.0])
    0.5
    >>> dkm_beta([0.7] * 7)
    1.0
    """
    c = _energies(c)
    return min(float(c.sum() / (c.size * c.max())), 1.0)


def dkm_frobenius_bound(fro_sq_X, r, delta, *, beta=1.0):
    r"""High-probability bound on ||K~ - K||_F for i.i.d. sampling (derivation below).

    IMPORTED: Drineas, Kannan & Mahoney (2006), "Fast Monte Carlo algorithms for matrices I: approximating
    matrix multiplication", SIAM J. Comput. 36(1), Theorem 1. If p_k >= beta |A^(k)| |B_(k)| / sum_k'
    |A^(k')||B_(k')| then, with eta = 1 + sqrt((8/beta) ln(1/delta)), with probability >= 1 - delta
    ||AB - CR||_F <= eta / sqrt(beta c) ||A||_F ||B||_F. Here A = X_r, B = X_r^T, c = r draws, so

    .. math:: ||K~ - K||_F \le \frac{1 + \sqrt{(8/\beta)\ln(1/\delta)}}{\sqrt{\beta r}}\,||X||_F^2 .

    nps has beta = 1; uniform p = 1/d has beta = :func:`dkm_beta`.

    >>> round(dkm_frobenius_bound(1.0, 16, 0.1), 6)
    1.322983
    """
    r = check_int("r", r, 1)
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    beta = check_interval("beta", beta, 0, 1, closed="right")
    eta = 1.0 + math.sqrt(8.0 / beta * math.log(1.0 / delta))
    return float(eta / math.sqrt(beta * r) * fro_sq_X)


def dual_perturbation_bound(n, C, spectral_norm):
    r"""Bound on |OPT(K) - OPT(K~)| for the SVM dual (3)/(4) (derivation below).

    DERIVED: the feasible sets of (3) and (4) coincide, so the optimal values differ by at most
    sup_{alpha in F} 1/2 |alpha^T Y (K - K~) Y alpha| <= (n C^2 / 2) ||K - K~||_2 (||alpha||^2 <= n C^2).

    >>> dual_perturbation_bound(10, 0.5, 2.0)
    2.5
    """
    n = check_int("n", n, 1)
    C = check_interval("C", C, 0, None, closed="neither")
    return 0.5 * n * C**2 * float(spectral_norm)


def selection_dual_gap_bound(n, C, lambda_max):
    r"""Bound on OPT(K~) - OPT(K) >= 0 for a no-rescale 0/1 column selection (top-r, supervised).

    DERIVED (derivation below): K - K~ is PSD, so f_{K~}(alpha) >= f_K(alpha) for every alpha, whence
    0 <= OPT~ - OPT <= sup_F 1/2 alpha^T Y (K - K~) Y alpha <= (n C^2 / 2) lambda_max(K - K~).

    >>> selection_dual_gap_bound(4, 1.0, 0.25)
    0.5
    """
    return dual_perturbation_bound(n, C, lambda_max)  # the same sup over F, with lambda_max for ||.||_2


def jl_min_dim(n, eps, delta):
    r"""Target dimension for the all-pairs JL event with failure probability <= delta (derivation below).

    IMPORTED: Dasgupta & Gupta (2003), "An elementary proof of a theorem of Johnson and Lindenstrauss",
    Lemma 2.2: for R with i.i.d. N(0, 1/r) entries (or a scaled random orthonormal subspace) and any u,
    P(| ||R^T u||^2/||u||^2 - 1 | > eps) <= 2 exp(-r (eps^2/2 - eps^3/3) / 2). A union bound over the
    n(n-1)/2 pairs gives all-pairs success >= 1 - delta when

    .. math:: r \ge \frac{2 \ln(n(n-1)/\delta)}{\epsilon^2/2 - \epsilon^3/3}.

    Squared distortion <= eps implies the paper's unsquared form, since sqrt(1 +- eps) lies in
    [1 - eps, 1 + eps]. The paper (Lemma "JL") gives neither the constant nor the probability.

    >>> jl_min_dim(30, 0.5, 0.1)
    218
    """
    n = check_int("n", n, 2)
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    return int(math.ceil(2.0 * math.log(n * (n - 1) / delta) / (eps**2 / 2 - eps**3 / 3)))
