"""paul2014.pca: Table V's two halves (C = 500 and C = 1) and Sec. 4.2's running-time sentences."""

import numpy as np
import pytest

from rpcheck.engine import Outcome, TrialRecord
from rpcheck.papers.paul2014 import pca
from rpcheck.papers.paul2014.tables import TABLE_II
from rpcheck.report.html import _pair_rows

PARAMS = {"n": 60, "d": 1000, "folds": 2, "r": 128}


@pytest.mark.parametrize("C", pca.C_VALUES)
def test_trial_identity_holds_and_control_fails_at_both_c(C):
    # The derivation of full_rank_pca_equals_full does not involve C: it must hold at both halves of Table V.
    rec = pca.trial({**PARAMS, "C": C}, np.random.default_rng(11))
    assert rec.outcomes["full_rank_pca_equals_full"].holds
    assert not rec.outcomes["identity_control"].holds


def _records(trg, tpca, k=4):
    diag = {f"eps_out.{m}": 0.0 for m in pca.METHODS}
    diag |= {f"t_run.{m}": 1.0 for m in pca.METHODS}
    diag |= {f"trun_ratio.{m}": 1.5 for m in ("pca32", "pca64", "pca_rank")}
    out = []
    for i in range(k):
        d = dict(diag, **{"t_run.rg": trg + i, "t_run.pca_rank": tpca})
        out.append(TrialRecord(outcomes={"identity_control": Outcome(False)}, diagnostics=d))
    return out


def test_decide_c500_uses_table_ii_and_table_v():
    _, info = pca.decide(_records(2.0, 1.0), {**PARAMS, "C": 500.0})
    assert info["pca_rank"]["paper_eps_out"] == 17.35 and info["full"]["paper_eps_out"] == 17.35
    assert info["rg"]["paper_eps_out"] == 24.59  # Table II, RG, r = 128
    assert TABLE_II["r"][0] == 128
    assert info["pca32"]["paper_trun_ratio"] == pytest.approx(86.73 / TABLE_II["t_run"]["RG"][0])
    assert info["pca32"]["trun_ratio"] == pytest.approx(1.0 / 3.5)  # mean t_run 1.0 over mean RG t_run 3.5
    assert info["pca32"]["trun_ratio_median"] == 1.5 and info["pca32"]["trun_ratio_se"] > 0
    s = info["sec4_2_sentence"][0]
    assert s["paper_trun_rg_minus_pca_rank"] == 0.19
    # per-pair differences 1, 2, 3, 4: mean 2.5, se = sd / 2
    assert s["trun_rg_minus_pca_rank"] == pytest.approx(2.5)
    assert s["trun_rg_minus_pca_rank_se"] == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)


def test_decide_c1_uses_table_v_c1_and_says_rg_is_not_printed():
    _, info = pca.decide(_records(2.0, 1.0), {**PARAMS, "C": 1.0})
    assert [info[m]["paper_eps_out"] for m in ("pca32", "pca64", "pca_rank", "full")] == [13.33, 15.72, 17.21, 17.21]
    assert info["rg"]["paper_eps_out"].startswith("not printed") and info["rg"]["eps_out_agrees"] is None
    assert info["pca_rank"]["paper_trun_ratio"].startswith("not printed")
    assert info["sec4_2_sentence"][0]["paper_trun_rg_minus_pca_rank"] == 0.43
    assert "C = 1" in info["protocol"]
    rows = _pair_rows(info)
    q = {(lab, qq): (paper, ours, se) for lab, qq, paper, ours, se, _ in rows}
    assert q[("rg", "eps_out")][0].startswith("not printed")  # a text row, not decided
    assert q[("pca32", "eps_out")][:2] == (13.33, 0.0)
    lab = "Sec. 4.2, C = 1: t_run(RG) - t_run(full-rank PCA), seconds"
    assert q[(lab, "trun_rg_minus_pca_rank")][:2] == (0.43, 2.5)


def test_c_domain():
    assert pca.THEOREM.parameters["C"].problem(2.0) is not None
    assert pca.THEOREM.parameters["C"].problem(1.0) is None


def test_ratio_of_means_delta_method():
    b = np.array([1.0, 2.0, 3.0, 4.0])
    R, se = pca._ratio_of_means(2 * b, b)
    assert R == 2.0 and se == pytest.approx(0.0, abs=1e-15)  # proportional pairs: no uncertainty in the ratio
    a = np.array([2.0, 1.0, 4.0, 5.0])
    R, se = pca._ratio_of_means(a, b)
    ma, mb = a.mean(), b.mean()
    va, vb, cab = a.var(ddof=1), b.var(ddof=1), np.cov(a, b)[0, 1]
    assert R == pytest.approx(ma / mb)
    assert se == pytest.approx(ma / mb * np.sqrt((va / ma**2 + vb / mb**2 - 2 * cab / (ma * mb)) / 4))
    # large-sample check: the delta-method se matches the spread of the ratio over independent replications
    rng = np.random.default_rng(0)
    reps = []
    for _ in range(2000):
        x = rng.gamma(4.0, 1.0, 50)
        reps.append(pca._ratio_of_means(1.5 * x + rng.normal(0, 0.5, 50), x)[0])
    x = rng.gamma(4.0, 1.0, 50)
    _, se1 = pca._ratio_of_means(1.5 * x + rng.normal(0, 0.5, 50), x)
    assert se1 == pytest.approx(np.std(reps), rel=0.3)


def _dense_pca(Xtr, Xte, k):
    """The oracle: np.linalg.svd of the centred training fold, V formed, both folds projected on V_k."""
    mu = Xtr.mean(axis=0)
    _, s, Vt = np.linalg.svd(Xtr - mu, full_matrices=False)
    return s, (Xtr - mu) @ Vt[:k].T, (Xte - mu) @ Vt[:k].T


@pytest.mark.parametrize(("n_tr", "d", "inner"), [(27, 400, None), (40, 30, None), (30, 500, 7)])
def test_svd_through_qr_equals_the_dense_svd(n_tr, d, inner):
    # wide (rank n - 1 after centring), tall (d < n), and rank-deficient (inner dimension 7) training folds
    rng = np.random.default_rng(5)
    if inner is None:
        Xtr, rank = rng.standard_normal((n_tr, d)), min(n_tr - 1, d)
    else:
        Xtr, rank = rng.standard_normal((n_tr, inner)) @ rng.standard_normal((inner, d)), inner
    Xtr += rng.standard_normal(d)  # an offset the centring removes
    Xte = rng.standard_normal((9, d))
    mu = Xtr.mean(axis=0)
    U, s, Wt, TQ, r = pca._svd(Xtr - mu, Xte - mu)
    s_ref, _, _ = _dense_pca(Xtr, Xte, 1)
    expect = int(np.sum(s_ref > s_ref[0] * max(Xtr.shape) * np.finfo(float).eps))
    assert r == expect == rank
    np.testing.assert_allclose(s, s_ref, rtol=0, atol=1e-12 * s_ref[0])
    for k in (1, 5, "rank"):
        Ztr, Zte = pca._pca(U, s, Wt, TQ, r, k)
        kk = r if k == "rank" else k
        _, Ztr_ref, Zte_ref = _dense_pca(Xtr, Xte, kk)
        sign = np.sign(np.sum(Ztr * Ztr_ref, axis=0))  # singular vectors are defined up to sign
        assert Ztr.shape == (n_tr, kk) and Zte.shape == (9, kk) and np.all(sign != 0)
        scale = np.abs(Ztr_ref).max()
        np.testing.assert_allclose(Ztr * sign, Ztr_ref, rtol=0, atol=1e-11 * scale)
        np.testing.assert_allclose(Zte * sign, Zte_ref, rtol=0, atol=1e-11 * max(scale, np.abs(Zte_ref).max()))
