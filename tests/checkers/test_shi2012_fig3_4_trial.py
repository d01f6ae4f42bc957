"""shi2012.fig3_4: the pieces its protocol rests on (rpcheck/papers/shi2012/fig3_4.py docstring)."""

import numpy as np
import pytest

from rpcheck.papers.shi2012 import fig3_4 as f
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


def test_one_parameter_features_are_theorem9s_R_on_e_y_kron_x():
    """<v, R_y x> = <v, R (e_y (x) x)> with R = [R_1 .. R_L] (Theorem 9's block layout); the solver's result is
    certified and its predictions are the argmax of those scores."""
    Xtr, ytr, Xte, yte = f._digits(100)
    res, ok, certain = f._one_parameter(Xtr, ytr, Xte, yte, 16, 0.1, np.random.default_rng(2))
    Rb = np.random.default_rng(2).standard_normal((10, 16, 64)) / 4.0
    R = np.hstack(list(Rb))                                   # n x (L d)
    x, yv = Xte[3], 7
    np.testing.assert_allclose(R @ np.kron(np.eye(10)[yv], x), Rb[yv] @ x, atol=1e-12)
    assert res.gap <= 1e-9 * res.primal + res.fp_allowance
    Z = np.einsum("knd,id->ikn", Rb, Xte)
    np.testing.assert_array_equal(ok, np.argmax(Z @ res.v, axis=1) == yte)
    assert certain.shape == ok.shape


def test_fig4_gain_rule():
    assert f.gain_agrees(0.01, 0.2) is True and f.gain_agrees(-0.3, -0.01) is False
    assert f.gain_agrees(-0.1, 0.1) is None
    # every trial identical: only the test-point component remains; it is the exact per-point sd / sqrt(N)
    m, se, lo, hi = f.paired_gain([50] * 10, [20] * 10, n_test=500)
    d = np.r_[np.ones(50), -np.ones(20), np.zeros(430)]
    assert m == pytest.approx(0.06) and se == pytest.approx(d.std(ddof=1) / np.sqrt(500))
    assert lo == pytest.approx(m - f.Z99 * se) and hi == pytest.approx(m + f.Z99 * se)


def test_fig4_decide_counts_uncertified_predictions_both_ways():
    """With every one-parameter prediction uncertified (v* = 0: ties), 'agrees' cannot follow (counted wrong)
    and 'DISAGREES' cannot either (counted right): not decided, whatever the tie-broken gain."""
    p = f._f4(32, m_train=100)
    base = {"fig4.accuracy": 0.8, "fig4.accuracy_original": 0.84, "fig4.uncertain": 0.0,
            "fig4.accuracy_one_parameter": 0.1, "fig4.uncertain_one_parameter": 500.0}
    for b in ("original", "projected"):
        base.update({f"fig4.onep_vs_{b}_plus": 10.0, f"fig4.onep_vs_{b}_minus": 380.0,
                     f"fig4.onep_vs_{b}_plus_lo": 0.0, f"fig4.onep_vs_{b}_minus_lo": 420.0,
                     f"fig4.onep_vs_{b}_plus_hi": 80.0, f"fig4.onep_vs_{b}_minus_hi": 0.0})
    recs = [f.TrialRecord(outcomes={}, diagnostics=dict(base)) for _ in range(20)]
    _, info = f.decide(recs, p)
    rows = info["paper_vs"]
    assert [r["accuracy_gain_agrees"] for r in rows] == [None, None]
    assert all(r["accuracy_gain"] < 0 and r["accuracy_gain_se"] is None for r in rows)
