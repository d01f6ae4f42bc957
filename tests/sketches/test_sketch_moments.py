r"""E[R R^T] = I_d for every data-oblivious kind, by averaging N independent draws.

For each kind the per-draw entry Z_kl = (R R^T)_kl has a known mean (delta_kl) and variance sigma_kl^2,
derived in each construction's docstring:

=====================  ======================  =========================  ================================
kind                   off-diagonal var        diagonal var               bound b on |Z - E Z|
=====================  ======================  =========================  ================================
gaussian               1/r                     2/r                        unbounded (chi-square tails)
sign                   1/r                     0 (exactly 1)              1
sparse (density s)     1/r                     (1/s - 1)/r                1/s
srht, replace=True     1/r                     0                          1
srht, replace=False    (d'-r)/(r(d'-1))        0                          1
countsketch            1/r                     0                          1
cw (q, v, a)           1/(q v a) = 1/r         0                          1
=====================  ======================  =========================  ================================

Bounded kinds use Bernstein's inequality for the mean of N i.i.d. draws,
P(|mean - mu| >= t) <= 2 exp(-N t^2 / (2 sigma^2 + 2 b t / 3)), solved for t at per-entry level
alpha/m (m = d(d+1)/2 tested entries, Bonferroni). Gaussian entries use Laurent & Massart (2000): the
average of N draws is chi2_{Nr}/(Nr) on the diagonal and (chi2_{Nr} - chi2'_{Nr})/(2 N r) off it (since
g g' = ((g+g')^2 - (g-g')^2)/4), giving |dev| <= (2 sqrt(M x) + 2x)/M, resp. (2 sqrt(M x) + x)/M, M = N r,
with probability >= 1 - 2 e^{-x}, resp. 1 - 4 e^{-x}. Entries with zero variance must equal 1 exactly (to
rounding). Overall false-alarm probability of each test: ALPHA = 1e-6 (rigorous, no normal approximation);
seeds fixed.
"""

import numpy as np
import pytest
from _sketch_cases import OBLIVIOUS, case_id, dense

from rpcheck.sketches import make_sketch

ALPHA = 1e-6
N_DRAWS = 3000
D = 12  # not a power of two: the SRHT family is tested through its padding (d' = 16)
R_DIM = 6


def _variance_and_bound(kind, params, d, r):
    """(off-diagonal var, diagonal var, b) of one draw of (R R^T)_kl, see the module docstring."""
    if kind == "gaussian":
        return 1 / r, 2 / r, None
    if kind == "sparse":
        s = make_sketch("sparse", d, r, rng=0, **params).density
        return 1 / r, (1 / s - 1) / r, 1 / s
    if kind == "srht" and not params["replace"]:
        dp = 1 << (d - 1).bit_length()
        return (dp - r) / (r * (dp - 1)), 0.0, 1.0
    return 1 / r, 0.0, 1.0  # sign, srht with replacement, countsketch, cw


def _bernstein_t(var, b, n, x):
    # positive root of n t^2 = x (2 var + 2 b t / 3)
    return (b * x / 3 + np.sqrt((b * x / 3) ** 2 + 2 * n * var * x)) / n


@pytest.mark.parametrize("case", OBLIVIOUS, ids=case_id)
def test_expected_gram_is_identity(case):
    kind, params = case
    if kind == "cw":
        params = {"q": 1, "v": 3, "a": 2}  # r = 6
    d, r, n = D, R_DIM, N_DRAWS
    if kind == "sparse" and params["density"] == 0.05:
        n = 4 * N_DRAWS  # diagonal variance (1/s - 1)/r = 3.2 needs more draws for an informative bound
    rng = np.random.default_rng(2024)
    acc = np.zeros((d, d))
    for _ in range(n):
        Rm = dense(make_sketch(kind, d, r, rng=rng, **params).matrix())
        acc += Rm @ Rm.T
    dev = acc / n - np.eye(d)
    m = d * (d + 1) // 2
    var_off, var_diag, b = _variance_and_bound(kind, params, d, r)
    if b is None:  # Gaussian, Laurent-Massart
        M = n * r
        x_off, x_diag = np.log(4 * m / ALPHA), np.log(2 * m / ALPHA)
        t_off = (2 * np.sqrt(M * x_off) + x_off) / M
        t_diag = (2 * np.sqrt(M * x_diag) + 2 * x_diag) / M
    else:
        x = np.log(2 * m / ALPHA)
        t_off = _bernstein_t(var_off, b, n, x)
        t_diag = _bernstein_t(var_diag, b, n, x) if var_diag > 0 else 1e-12
    off = ~np.eye(d, dtype=bool)
    assert np.abs(dev[off]).max() <= t_off, (np.abs(dev[off]).max(), t_off)
    assert np.abs(np.diag(dev)).max() <= t_diag, (np.abs(np.diag(dev)).max(), t_diag)
    # the tolerance is informative: a scaling error of 10% on R (21% on R R^T) would be detected
    assert max(t_off, t_diag) < 0.2


def test_sample_variance_matches_derived_variance():
    """Guard the variance column itself: mean of Z_kl^2 over draws for sign and srht w/o replacement.

    Z^2 lies in [0, 1], so Hoeffding at N=3000 gives |mean - E| <= sqrt(ln(2/alpha)/(2N)) = 0.049 with
    probability >= 1 - alpha = 1 - 1e-6, for a single pre-chosen entry (0, 1).
    """
    n = N_DRAWS
    tol = np.sqrt(np.log(2 / ALPHA) / (2 * n))
    for kind, params, expected in [
        ("sign", {}, 1 / 4),
        ("srht", {"replace": False}, (16 - 4) / (4 * 15)),
        ("countsketch", {}, 1 / 4),
    ]:
        rng = np.random.default_rng(99)
        z2 = np.empty(n)
        for i in range(n):
            Rm = dense(make_sketch(kind, 16, 4, rng=rng, **params).matrix())
            z2[i] = (Rm[0] @ Rm[1]) ** 2
        assert abs(z2.mean() - expected) <= tol, (kind, z2.mean(), expected)
