"""Unit tests for the Shi et al. (2012) checkers: conventions, instances, single trials, proof-structure
identities, and the C12 counterexample. Statistical checks use fixed seeds and z = 5 (false alarm < 6e-7)."""

import json
import math

import numpy as np
import pytest

import rpcheck.papers.shi2012  # noqa: F401  (registers the theorems)
from rpcheck.engine import Outcome, TrialRecord, registry
from rpcheck.engine.runner import canonical_json, trial_rng
from rpcheck.papers.shi2012 import _common as c
from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import fig1, thm8_final_step, thm9

SHI_IDS = [t for t in registry.ids() if t.startswith("shi2012.")]


def test_all_theorems_registered():
    expected = {"shi2012.lemma4", "shi2012.lemma10", "shi2012.thm5", "shi2012.thm6", "shi2012.thm6.svm",
                "shi2012.thm8", "shi2012.thm8.final_step", "shi2012.thm9", "shi2012.fig1", "shi2012.fig1.margins",
                "shi2012.subgaussian", "shi2012.bookkeeping", "shi2012.thm5.band_width", "shi2012.thm5.measured_band",
                "shi2012.subgaussian.thm6", "shi2012.fig3_4", "shi2012.fig3_4.trend", "shi2012.fig2.trend"}
    assert expected <= set(SHI_IDS)


def test_projection_convention_matches_paper_scale():
    # rows of project(I_d) are R e_j; the paper's R has i.i.d. N(0, 1/n) entries, so n ||R||_F^2 ~ chi2_{dn}
    d, n = 40, 300
    M = c.project(np.eye(d), n, np.random.default_rng(0))
    assert M.shape == (d, n)
    stat = n * float(np.sum(M**2))
    assert abs(stat - d * n) <= 5 * math.sqrt(2 * d * n)


@pytest.mark.parametrize("geometry", ["dense", "axis"])
@pytest.mark.parametrize("cc", [-0.5, 0.0, 0.527, 0.99])
def test_fixed_pair(geometry, cc):
    w, x = c.fixed_pair(cc, 16, geometry)
    assert np.linalg.norm(w) == pytest.approx(2.0) and np.linalg.norm(x) == pytest.approx(0.5)
    assert c.cosine(w, x) == pytest.approx(cc, abs=1e-14)
    if geometry == "axis":
        assert np.count_nonzero(w) == 1 and np.count_nonzero(x) <= 2
    w2, x2 = c.fixed_pair(cc, 16, geometry)
    assert np.array_equal(w, w2) and np.array_equal(x, x2)  # fixed per cell


def test_expect_bound():
    assert c.expect_bound(1.3) is c.VAC
    assert c.expect_bound(0.3, applies=False) is c.VAC
    assert c.expect_bound(0.3) is c.H
    assert c.expect_bound(1e-4) is None
    # the documented certifiability of P_CERT at 600 trials with zero failures
    assert (1 - c.P_CERT) ** 600 < 1e-5


@pytest.mark.parametrize("theorem_id", SHI_IDS)
def test_one_trial_per_ci_cell_is_complete_and_replays(theorem_id):
    th = registry.get(theorem_id)
    for params in th.profiles["ci"].cells:
        canonical = canonical_json(params)
        decoded = json.loads(canonical)
        rec = th.trial(decoded, trial_rng(th.id, canonical, 0, 0))
        assert isinstance(rec, TrialRecord)
        assert set(rec.outcomes) == {v.name for v in th.variants}
        assert all(isinstance(o, Outcome) for o in rec.outcomes.values())
        rec2 = th.trial(decoded, trial_rng(th.id, canonical, 0, 0))
        for k, o in rec.outcomes.items():
            o2 = rec2.outcomes[k]
            assert o.holds == o2.holds and o.vacuous == o2.vacuous
            assert (o.statistic == o2.statistic) or (math.isnan(o.statistic) and math.isnan(o2.statistic))
        for v in th.variants:  # expected verdicts and promised values evaluate on every cell
            v.expected_for(decoded)
            if v.mode in ("bound", "exact"):
                assert v.delta_for(decoded) >= 0


def test_every_finding_names_a_variant():
    for tid in SHI_IDS:
        th = registry.get(tid)
        names = {v.name for v in th.variants}
        for f in th.findings:
            assert f.evidence_variant in names, (tid, f.key)


def test_theorem5_band_follows_from_the_three_norm_events_any_angle():
    """Spec C4/I3: for ANY vectors a' = Rx/|x|, b' = Rw/|w| (any matrix), E3 => Lo <= c' <= Up.
    Vectorised over bivariate Gaussian draws at small n (many E3 draws with c' near the band)."""
    rng = np.random.default_rng(5)
    n, T = 4, 400_000
    for cc in (-0.9, -0.3, 0.0, 0.4, 0.9):
        for eps in (0.2, 0.5, 0.8):
            a = rng.standard_normal((T, n)) / math.sqrt(n)
            b = (cc * a + math.sqrt(1 - cc * cc) * rng.standard_normal((T, n)) / math.sqrt(n))
            s2, t2 = (a * a).sum(1), (b * b).sum(1)
            q3 = ((a - b) ** 2).sum(1) / (2 - 2 * cc)
            e3 = (np.abs(s2 - 1) <= eps) & (np.abs(t2 - 1) <= eps) & (np.abs(q3 - 1) <= eps)
            cp = (a * b).sum(1) / np.sqrt(s2 * t2)
            lo, up = B.thm5_band(cc, eps)
            assert e3.sum() > 1000
            assert np.all((cp[e3] >= lo - c.TOL) & (cp[e3] <= up + c.TOL))
            # the paper's first step of (9) fails on some of these draws (I2) for non-extreme c
            if cc <= 0.4:
                lhs, rhs = B.proof9_first_step_holds(np.sqrt(s2), np.sqrt(t2), cp, eps)
                assert np.any((lhs > rhs + c.TOL) & e3)


def test_c12_counterexample_is_found_and_replayable():
    params = {"c1": 0.0, "eps": 0.5, "n": 3}
    found = None
    for seed in range(5000):
        rec = thm8_final_step.trial(params, np.random.default_rng(seed))
        o = rec.outcomes["printed_step"]
        if not o.vacuous and not o.holds:
            found = seed
            break
    assert found is not None
    rec = thm8_final_step.trial(params, np.random.default_rng(found))
    V, RV = rec.artifacts["V"], rec.artifacts["RV"]
    q = np.einsum("ij,ij->i", RV, RV) / np.einsum("ij,ij->i", V, V)
    assert np.all(np.abs(q - 1) <= 0.5)                               # every Lemma-10 event holds
    assert rec.outcomes["printed_step"].statistic < B.thm8_margin_bound(1.0, 0.5)   # yet below 0.244
    assert rec.outcomes["corrected_point_step"].holds and rec.outcomes["corrected_worst_step"].holds


def test_thm9_kronecker_block_order():
    X, y, W, gu, Z, Zw, pairs = thm9._data(10, 20, 3, 0.8)
    u = W.reshape(-1)
    assert np.allclose(u[:20], W[0]) and np.allclose(u[40:], W[2])
    i, yi, yp = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    gap = np.einsum("ij,ij->i", W[yi], X[i]) - np.einsum("ij,ij->i", W[yp], X[i])
    assert np.allclose(Z @ u, gap, atol=1e-12)
    assert not np.allclose(Zw @ u, gap, atol=1e-3)        # NumPy's kron(x, e_y): x-major, inconsistent
    # the paper's tensor product read as vec(x e_y^T) (column y of x e_y^T is x) is the block layout
    for x, a in ((X[0], 0), (X[1], 2)):
        assert np.array_equal(np.outer(x, np.eye(3)[a]).reshape(-1, order="F"), np.kron(np.eye(3)[a], x))
    # cos(u, z) >= gamma/sqrt(2L) (proof of Theorem 9)
    cosuz = (Z @ u) / (np.linalg.norm(Z, axis=1) * np.linalg.norm(u))
    assert np.all(cosuz >= gu / math.sqrt(6) - 1e-12)


def test_lemma4_block_decomposition_is_exact():
    # <Mw, Mx> for one sketch with n B columns = mean of B independent n-row projections sqrt(B) M_b
    rng = np.random.default_rng(2)
    d, n, Bk = 6, 5, 7
    w, x = rng.standard_normal(d), rng.standard_normal(d)
    M = c.project(np.eye(d), n * Bk, rng)
    blocks = [math.sqrt(Bk) * M[:, b * n:(b + 1) * n] for b in range(Bk)]
    mean = np.mean([(w @ Mb) @ (x @ Mb) for Mb in blocks])
    assert mean == pytest.approx((w @ M) @ (x @ M), rel=1e-12)


def test_fig1_separability_rule():
    rng = np.random.default_rng(3)
    for a in (0.5, 1.0, 3.0):
        X, y = c.fig1_points(a)
        for _ in range(200):
            r = rng.standard_normal(2)
            assert fig1._separable_1d(X @ r, y) == (abs(r[1]) > a * abs(r[0]))


def test_bad_kind_is_rejected():
    from rpcheck.errors import RpcheckError

    with pytest.raises(RpcheckError):
        c.project(np.eye(3), 4, 0, kind="nonsense")


def test_lemma4_clt_sign_axis_uses_the_exact_lattice_law():
    # Regression: mean_clt tested the normal value 0.05 as an exact probability. For sign entries on the
    # axis pair z = (2K - nB)/sqrt(nB), K ~ Bin(nB, 1/2): at nB = 50 the exact tail is 0.0649, not 0.05.
    import math

    from rpcheck.engine import get, trial_rng
    from rpcheck.papers.shi2012 import bounds as b

    th = get("shi2012.lemma4")
    v = th.variant("mean_clt")
    cell = {"kind": "sign", "geometry": "axis", "c": 0.527, "n": 1, "B": 50, "d": 16}
    assert v.delta_for(cell) == pytest.approx(0.0649086470722, rel=1e-9)
    # this cell runs only in the "full" profile (10,000 trials): the equivalence test's power there decides
    from rpcheck.papers.shi2012 import _common as cm

    assert v.expected_for(cell) == ("HOLDS" if cm.equivalence_power(v.delta_for(cell), 10000) >= 0.99 else None)
    # at ci (nB = 1500, 400 trials) the power is ~0: reported, not asserted
    ci_cell = {"kind": "sign", "geometry": "axis", "c": 0.527, "n": 30, "B": 50, "d": 16}
    assert cm.equivalence_power(v.delta_for(ci_cell), 400) < 0.01 and v.expected_for(ci_cell) is None
    assert v.expected_for({**cell, "kind": "gaussian"}) is None  # normal approximation only: reported
    # the trial's z is on the lattice (2K - N)/sqrt(N)
    for i in range(20):
        z = th.trial(cell, trial_rng(th.id, cell, i, 0)).diagnostics["z"]
        k = (z * math.sqrt(50) + 50) / 2
        assert k == pytest.approx(round(k), abs=1e-9)
    # closed form against brute-force enumeration of the binomial law
    from scipy.stats import binom

    N = 37
    brute = sum(binom.pmf(k, N, 0.5) for k in range(N + 1) if abs(2 * k - N) > 1.959963984540054 * math.sqrt(N))
    assert b.lemma4_sign_axis_tail(N, 1.959963984540054) == pytest.approx(brute, rel=1e-12)


def test_lemma4_clt_quantile_is_scipys_to_the_bit():
    """Z_CLT is a literal (importing scipy.stats for one constant cost 0.5 s of every cold start)."""
    from scipy import stats

    from rpcheck.papers.shi2012 import lemma4

    assert lemma4.Z_CLT == float(stats.norm.isf(0.025))
