"""shi2012.fig3_4: the pieces its protocol rests on (rpcheck/checkers/shi2012/fig3_4.py docstring)."""

import numpy as np
import pytest

from rpcheck.checkers.shi2012 import fig3_4 as f
from rpcheck.svm import solve_crammer_singer


@pytest.mark.parametrize("n", [5, 15, 40])
def test_projected_features_have_the_gram_matrix_of_R_x(n):
    """X M with M = Q G + (I - Q Q^T) H (any H) equals T G; for n > k the compressed features keep T G's Gram."""
    X, _, T, *_ = f._fig3_data(3)
    Q = np.linalg.qr(X.T)[0]
    rng = np.random.default_rng(3)
    G = rng.standard_normal((Q.shape[1], n)) / np.sqrt(n)
    H = rng.standard_normal((X.shape[1], n))
    M = Q @ G + (np.eye(X.shape[1]) - Q @ Q.T) @ H
    RX = X @ M
    np.testing.assert_allclose(RX, T @ G, atol=1e-12 * np.abs(RX).max())
    F = f._projected_features(T, n, np.random.default_rng(4))
    G2 = np.random.default_rng(4).standard_normal((T.shape[1], n)) / np.sqrt(n)
    np.testing.assert_allclose(F @ F.T, (T @ G2) @ (T @ G2).T, atol=1e-12 * np.abs(F @ F.T).max())


def test_standins_are_hard_margin_separable_and_k2_d7_is_twice_binary():
    for L in (2, 3):
        X, y, T, g_norm, g_un, soft, W = f._fig3_data(L)
        assert soft <= 1e-9 and g_norm > 0 and g_un > 0
        assert np.allclose(X[:, 0], np.repeat(f.OFFSETS[L], f.PER_CLASS))   # parallel hyperplanes x_1 = b_k
    # K = 2: W = [-v/2; v/2], so D7 = 2 min_i s_i cos(v, x_i)
    X, y, *_ = f._fig3_data(2)
    Xn = X / np.linalg.norm(X, axis=1)[:, None]
    res = solve_crammer_singer(Xn, y, f.C_HARD)
    v = res.W[1] - res.W[0]
    s = np.where(y == 1, 1.0, -1.0)
    cosv = s * (Xn @ v) / np.linalg.norm(v)
    assert f._d7(X, y, res.W) == pytest.approx(2 * cosv.min(), abs=1e-9)


def test_thm9_pairs_and_gamma():
    Tv, gu, cz, m = f._thm9_data()
    assert m == 15 and cz.size == 30 and Tv.shape[0] == 31
    assert 0 < gu <= 1 and cz.min() >= gu / np.sqrt(6) - 1e-12      # cos(u, z) >= gamma/sqrt(2L) (proof of Thm 9)
