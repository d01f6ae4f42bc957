"""Unit tests for the C6 (band width), C16 (sub-Gaussian Theorem 6) checkers of Shi et al. (2012) and the
negative controls added to thm6, thm9 and subgaussian: the derivations quoted in the module docstrings are
recomputed here (so an edit that breaks one is caught), and every planted bug is shown to be caught."""

import math

import numpy as np
import pytest
from scipy import stats as sps

import rpcheck.papers.shi2012  # noqa: F401  (registers the theorems)
from rpcheck.engine import registry
from rpcheck.errors import RpcheckError
from rpcheck.papers.shi2012 import _common as c
from rpcheck.papers.shi2012 import _thm6, thm6, thm9
from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import subgaussian as sg
from rpcheck.papers.shi2012 import subgaussian_thm6 as sg6
from rpcheck.papers.shi2012 import thm5_band_width as bw
from rpcheck.papers.shi2012 import thm5_measured_band as mb
from rpcheck.stats import Verdict, violated_power


# ------------------------------------------------------------------------------------------- band width (a)
@pytest.mark.parametrize("eps", [0.01, 0.1, 0.3, 0.5, 0.9])
def test_printed_width_is_linear_with_the_derived_slope(eps):
    cc = np.linspace(-0.99, 0.99, 199)
    w = B.thm5_band_width(cc, eps)
    slope = np.diff(w) / np.diff(cc)
    assert np.allclose(slope, -4 * eps / (1 - eps**2), rtol=1e-9, atol=1e-12)
    closed = (2 * eps * (1 - cc) + 1 - math.sqrt(1 - eps**2)) / (1 + eps) + 2 * eps * (1 - cc) / (1 - eps)
    assert np.allclose(w, closed, atol=1e-14)


@pytest.mark.parametrize("eps", [0.05, 0.3, 0.34, 0.4, 0.5, 0.6, 0.7, 0.71, 0.9])
def test_clipped_width_increases_exactly_where_derived(eps):
    rec = bw.trial({"eps": eps}, None)
    increasing = not rec.outcomes["width_clipped_acute"].holds
    assert increasing == (1 / 3 < eps < 1 / math.sqrt(2))
    assert bw._clipped_expected({"eps": eps}) is (Verdict.VIOLATED if increasing else Verdict.HOLDS)
    assert rec.outcomes["width_as_printed"].holds
    assert not rec.outcomes["width_control"].holds      # the planted slope swap is caught


def test_band_width_constraint_refuses_unresolvable_eps():
    th = registry.get("shi2012.thm5.band_width")
    assert th.cell_problem({"eps": 0.3336}) is not None    # increasing stretch 6e-4 < 1e-3
    assert th.cell_problem({"eps": 0.33}) is None
    with pytest.raises(RpcheckError):
        B.thm5_band_width(0.5, 1.0)


# ---------------------------------------------------------------------------------------- measured band (b)
def test_order_statistic_tails_match_simulation():
    # P(X_(B+1-k) >= a) = P(Bin(B, P(X >= a)) >= k) for a continuous law (uniform here)
    rng = np.random.default_rng(0)
    Bs, k, a = 50, 3, 0.9
    X = np.sort(rng.random((200_000, Bs)), axis=1)
    emp = np.mean(X[:, Bs - k] >= a)
    assert emp == pytest.approx(B._order_stat_tail("beyond", Bs, k, 1 - a), abs=5 * math.sqrt(0.25 / 200_000))
    emp2 = np.mean(X[:, k - 1] >= a / 10)      # P(lo >= b) = P(Bin(B, P(X < b)) <= k - 1)
    assert emp2 == pytest.approx(B._order_stat_tail("inside", Bs, k, a / 10), abs=5 * math.sqrt(0.25 / 200_000))


def test_measured_band_bound_is_an_upper_bound_by_simulation():
    # a pair where pbar is not tiny, so the simulated rate is informative: (0.1, 0.527), n = 30, B = 200
    pbar, _ = B.measured_band_failure_bound(0.1, 0.527, 30, 200, 10)
    assert 0.05 < pbar < 0.5
    rng = np.random.default_rng(1)
    T = 2000
    fails = sum(mb._widths(0.527, 30, 200, rng) >= mb._widths(0.1, 30, 200, rng) for _ in range(T))
    # one-sided: the rate must not exceed pbar (z = 5)
    assert fails / T <= pbar + 5 * math.sqrt(pbar * (1 - pbar) / T)


def test_measured_band_documented_powers():
    for p, pbar, hp, vp_ctrl, vp_mirror in mb.power_table("ci"):
        assert pbar <= 4e-4
        assert hp >= 0.9947 and vp_ctrl >= 0.99 and vp_mirror >= 0.99
        assert mb._shrinks_expected(p) is Verdict.HOLDS


def test_mirror_widths_are_exchangeable():
    # W(c) and W(-c) have the same law: a negated batch has the same band width
    rng = np.random.default_rng(2)
    G = rng.standard_normal(1000)
    G.sort()
    k = 50
    w = G[1000 - k] - G[k - 1]
    Gm = np.sort(-G)
    assert Gm[1000 - k] - Gm[k - 1] == pytest.approx(w, abs=1e-15)


# --------------------------------------------------------------------------------------- sub-Gaussian Thm 6
def test_achlioptas_sparse_axis_tails_below_e():
    for n in (1, 2, 3, 10, 30, 100, 300, 1000):
        for eps in np.linspace(0.01, 0.99, 50):
            e = B.tail_e(n, eps)
            assert B.lemma10_exact_failure_achlioptas_axis(n, eps, "lower") <= e
            assert B.lemma10_exact_failure_achlioptas_axis(n, eps, "upper") <= e


def test_axis_data_has_the_planted_margin_and_is_two_sparse():
    X, y, u, gu = sg6._thm6_data("axis", 20, 40, 0.6)
    assert gu == pytest.approx(0.6, abs=1e-14)
    assert np.all(np.count_nonzero(X, axis=1) <= 2) and np.count_nonzero(u) == 1
    assert np.all(y * (X @ u) / np.linalg.norm(X, axis=1) >= 0.6 - 1e-12)


def test_subgaussian_thm6_true_rate_bound_numbers():
    p = {"kind": "sign", "geometry": "dense", "gamma": 0.9, "eps": 0.3, "n": 300, "m": 20, "d": 40}
    pbar, ep = sg6.thm6_true_rate_bound(p, "as_printed")
    assert ep == pytest.approx(0.811, abs=1e-3) and pbar == pytest.approx(1.2e-8, rel=0.05)
    gu = sg6._thm6_data("dense", 20, 40, 0.9)[3]
    # eps' is the largest one whose as-proved margin still implies the printed claim
    assert B.thm6_margin_bound(gu, ep, "as_proved") >= B.thm6_margin_bound(gu, 0.3) - 1e-12
    assert B.thm6_margin_bound(gu, min(ep + 1e-3, 0.999), "as_proved") < B.thm6_margin_bound(gu, 0.3)
    pbar2, ep2 = sg6.thm6_true_rate_bound(p, "as_proved")
    assert ep2 == pytest.approx(0.3, abs=1e-9) and pbar2 == pytest.approx(82 * B.tail_e(300, 0.3), rel=1e-6)


def test_subgaussian_thm6_proof_structure_holds_on_event_draws_any_kind():
    for kind in ("sign", "sparse"):
        for geom in ("dense", "axis"):
            p = {"kind": kind, "geometry": geom, "gamma": 0.6, "eps": 0.3, "n": 60, "m": 20, "d": 40}
            rng = np.random.default_rng(3)
            seen = 0
            for _ in range(300):
                rec = sg6.trial(p, rng)
                o = rec.outcomes["proof_structure"]
                if not o.vacuous:
                    seen += 1
                    assert o.holds
                assert not rec.outcomes["margin_sign_control"].holds     # planted sign bug always caught
            assert seen >= 1


# -------------------------------------------------------------------------------- controls of the audit
def _all_cells(th):
    return [(dict(p), prof.trials) for prof in th.profiles.values() for p in prof.cells]


def test_thm6_control_derivation():
    tau = 2e-3 / (1 - 1e-3)
    for p, T in _all_cells(thm6.THEOREM):
        gu = _thm6.data(p["m"], p["d"], p["gamma"])[3]
        pf = B.projected_cosine_cdf(gu - tau, gu, p["n"])
        assert pf >= 0.3779
        assert violated_power("bound", T, pf, 0.05, c.POWER_LEVEL) >= 0.99


def test_thm9_control_derivation():
    for p, T in _all_cells(thm9.THM9):
        X, y, W, gu, Z, Zw, pairs = thm9._data(p["m"], p["d"], p["L"], p["gamma"])
        u = W.reshape(-1)
        cstar = float(((Z @ u) / (np.linalg.norm(Z, axis=1) * np.linalg.norm(u))).min())
        pf = B.projected_cosine_cdf(B.thm9_margin_bound(gu, thm9.EPS_CONTROL, p["L"]), cstar, p["n"])
        assert pf >= 0.464
        assert violated_power("bound", T, pf, 0.05, c.POWER_LEVEL) >= 0.99


def test_subgaussian_control_derivation_cantelli():
    for p, T in _all_cells(sg.THEOREM):
        w, _ = c.fixed_pair(p["c"], p["d"], p["geometry"])
        var = B.lemma4_variance(w, w, p["n"], entries=p["kind"]) / float(w @ w) ** 2
        assert var <= 2 / p["n"] + 1e-15
        t = 1 - (1 + p["eps"]) / p["n"]
        holds_at_most = var / (var + t * t)
        assert holds_at_most <= 0.069
        assert violated_power("bound", T, 1 - holds_at_most, 0.05, c.POWER_LEVEL) >= 0.99


def test_subgaussian_control_cantelli_against_the_exact_sparse_law():
    # axis-aligned w, Achlioptas entries: q = 3 Bin(n, 1/3)/n exactly; the control's event is q <= (1+eps)/n
    for n, eps in ((30, 0.5), (100, 0.3)):
        exact = sps.binom.cdf(math.floor((1 + eps) / 3), n, 1 / 3)
        t = 1 - (1 + eps) / n
        assert exact <= (2 / n) / (2 / n + t * t)


def test_every_shi_theorem_with_a_new_control_has_it_expected_violated():
    for tid, name in (("shi2012.thm6", "witness_control"), ("shi2012.thm9", "as_proved_control"),
                      ("shi2012.subgaussian", "lemma10_control"), ("shi2012.subgaussian.thm6", "margin_sign_control"),
                      ("shi2012.thm5.band_width", "width_control"), ("shi2012.thm5.measured_band", "shrinks_control")):
        v = registry.get(tid).variant(name)
        assert v.role == "control"
        for p, _ in _all_cells(registry.get(tid)):
            assert v.expected_for(p) is Verdict.VIOLATED


def test_public_helpers_validate_their_arguments():
    with pytest.raises(RpcheckError, match="gamma"):
        sg6.thm6_eps_prime(1.5, 0.3, "as_printed")
    with pytest.raises(RpcheckError, match="form"):
        sg6.thm6_eps_prime(0.5, 0.3, "printed")
    with pytest.raises(RpcheckError, match="not a cell"):
        sg6.thm6_true_rate_bound({"kind": "gauss", "geometry": "dense", "gamma": 0.9, "eps": 0.3, "n": 300, "m": 20,
                                 "d": 40}, "as_printed")
    with pytest.raises(RpcheckError, match="profile"):
        mb.power_table("fast")
    with pytest.raises(RpcheckError, match="k"):
        B.measured_band_failure_bound(0.1, 0.5, 30, 200, 150)


def _measured_band_thresholds_as_before(c_wide, c_narrow, n, Bs, k):
    """The threshold search of ``measured_band_failure_bound`` in its direct form: the wide band's
    widths recomputed at every ``r``, one ``np.interp`` call per candidate (the oracle of the hoisted form)."""
    rw, Fw = B._cosine_quantile_table(c_wide, n)
    rn, Fn = B._cosine_quantile_table(c_narrow, n)

    def q(r, F, p):
        return float(np.interp(p, F, r))

    best = (math.inf, None)
    kb = k / Bs
    for r in np.geomspace(kb * 1e-3, kb * 0.999, 60):
        a2, b2 = q(rn, Fn, 1 - r), q(rn, Fn, r)
        cands = np.linspace(kb * 1.001, 0.499, 400)
        widths = np.array([q(rw, Fw, 1 - s) - q(rw, Fw, s) for s in cands])
        ok = np.flatnonzero(widths >= a2 - b2)
        if not ok.size:
            continue
        s = cands[ok[-1]]
        approx = 2 * B._order_stat_tail("beyond", Bs, k, r) + 2 * B._order_stat_tail("inside", Bs, k, s)
        if approx < best[0]:
            best = (approx, (q(rw, Fw, 1 - s), q(rw, Fw, s), a2, b2))
    return best[1]


@pytest.mark.parametrize("args", sorted({(cl["c_wide"], cl["c_narrow"], cl["n"], cl.get("B", 200))
                                         for th in [registry.get("shi2012.thm5.measured_band")]
                                         for prof in th.profiles.values() for cl in prof.cells}
                                        | {(0.1, 0.527, 30, 200), (0.527, 0.827, 30, 200), (-0.3, 0.9, 5, 60)}))
def test_measured_band_bound_equals_its_unhoisted_search(args):
    """The widths hoisted out of the threshold loop give bit for bit the thresholds (and so the bound) of the
    loop that recomputed them: every profile cell's expected verdict rests on this bound."""
    c_wide, c_narrow, n, Bs = args
    k = Bs // 20
    bound, thr = B.measured_band_failure_bound(c_wide, c_narrow, n, Bs, k)
    old = _measured_band_thresholds_as_before(c_wide, c_narrow, n, Bs, k)
    if old is None:
        assert bound == 1.0 and all(math.isnan(t) for t in thr)
    else:
        assert thr == old
