"""Unit tests of the Zhang et al. (2013) checkers and bounds (fast; the statistical runs are in theorems/).

Statistical tests here state their false-alarm probability and use fixed seeds.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rpcheck.engine import get
from rpcheck.errors import RpcheckError
from rpcheck.papers.zhang2013 import algorithms, cor7, thm1, thm2, thm3, thm3_chi2, thm4, thm5, thm6
from rpcheck.papers.zhang2013 import bounds as B
from rpcheck.papers.zhang2013._common import (
    distortion_from_A,
    make_instance,
    projected_data_norm,
    wishart_gram,
)
from rpcheck.strategies import low_rank_matrices, sketch_seeds

#: Level of the goodness-of-fit tests below (false-alarm probability per test, fixed seeds).
ALPHA_GOF = 1e-3

SMALL = {"n": 30, "d": 120, "r": 2, "eps": 0.5, "delta": 0.1, "c": 4.0, "lam": 1.0}


def _norm_tol(Z, A):
    (n, r), m = Z.shape, A.shape[1]
    return 10 * (n * r + m) * (np.finfo(np.float64).eps / 2) * np.linalg.norm(Z) * np.linalg.norm(A)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 60), r=st.integers(1, 12), m=st.integers(1, 300), cond=st.sampled_from([1.0, 10.0, 1e6]),
       seed=st.integers(0, 2**32 - 1))
def test_projected_data_norm_equals_direct_norm(n, r, m, cond, seed):
    """||Z A||_2 through the thin QR of Z equals the direct n x m norm to rounding. Tolerance from the rounding
    model: the product errs by at most gamma_k ||Z||_F ||A||_F (Higham 2002, Thm 3.5, k = r), Householder QR has
    backward error gamma_{c n r} ||Z||_F (Thm 19.4) and each SVD's largest singular value is backward stable, so
    the two values differ by at most 10 (n r + m) u ||Z||_F ||A||_F (constants rounded up)."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, r)) * np.geomspace(1.0, 1.0 / cond, r)[None, :]
    A = rng.standard_normal((r, m))
    assert abs(projected_data_norm(Z, A) - np.linalg.norm(Z @ A, 2)) <= _norm_tol(Z, A)


def test_projected_data_norm_on_the_checkers_instances():
    """On make_instance's data (Z = U diag(s), U Haar), at one full-profile shape of thm1-thm4 (n = 200, d = 4,000,
    r = 10, m = 1,338) and two smaller ones, the QR route agrees with the direct norm within the rounding model's
    bound above."""
    rng = np.random.default_rng(20261128)
    for n, d, r, m in [(200, 4000, 10, 1338), (200, 4000, 50, 700), (30, 120, 2, 40)]:
        inst = make_instance(n, d, r, rng=rng)
        A = rng.standard_normal((r, m)) / math.sqrt(m)
        direct = np.linalg.norm(inst.Z @ A, 2)
        assert abs(projected_data_norm(inst.Z, A) - direct) <= _norm_tol(inst.Z, A)


def test_bartlett_sampler_matches_explicit_gaussian_law():
    """eps_R from the Bartlett construction and from an explicit r x m Gaussian A have the same law
    (two-sample KS test, false alarm ALPHA_GOF)."""
    r, m, N = 3, 20, 1500
    rng = np.random.default_rng(11)
    a = [np.max(np.abs(np.linalg.eigvalsh(wishart_gram(r, m, rng=rng)) - 1)) for _ in range(N)]
    b = [distortion_from_A(rng.standard_normal((r, m)) / math.sqrt(m)) for _ in range(N)]
    assert stats.ks_2samp(a, b).pvalue > ALPHA_GOF


def test_wishart_gram_moments():
    # E[W] = I, Var(W_11) = 2/m: mean over N draws within 5 standard errors (false alarm < 1e-6)
    r, m, N = 4, 30, 4000
    rng = np.random.default_rng(3)
    W = np.array([wishart_gram(r, m, rng=rng) for _ in range(N)])
    se_diag = math.sqrt(2 / m / N)
    assert np.all(np.abs(W.mean(axis=0)[np.diag_indices(r)] - 1) < 5 * se_diag)
    assert abs(W[:, 0, 0].var() - 2 / m) < 5 * (2 / m) * math.sqrt(2 / N) * 2


def test_chi2_statistic_has_the_exact_law():
    """m ||(I - V V^T) R z||^2 / ||z||^2 ~ chi2_{d-r} given z (KS test, false alarm ALPHA_GOF)."""
    p = {"n": 30, "d": 15, "r": 3, "m": 6, "eps": 1 / 3, "lam": 1.0, "loss": "square"}
    rng = np.random.default_rng(5)
    q = [thm3_chi2.trial(p, rng).outcomes["corrected"].statistic for _ in range(400)]
    assert stats.kstest(q, stats.chi2(df=12).cdf).pvalue > ALPHA_GOF


@pytest.mark.parametrize("mod", [thm1, thm2, thm4, thm5])
@pytest.mark.parametrize("loss", ["square", "hinge"])
def test_per_draw_variants_hold_on_small_draws(mod, loss):
    p = dict(SMALL, loss=loss, T=3)
    rng = np.random.default_rng(7)
    for _ in range(3):
        rec = mod.trial(p, rng)
        assert set(rec.outcomes) == {v.name for v in mod.THEOREM.variants}
        for name, o in rec.outcomes.items():
            if name.startswith("per_") or name in ("identity", "margin"):
                assert o.holds or o.vacuous, (mod.THEOREM_ID, name, o)


def test_trials_replay_bit_identically():
    p = dict(SMALL, loss="hinge")
    a = thm2.trial(p, np.random.default_rng(123))
    b = thm2.trial(p, np.random.default_rng(123))
    assert a.outcomes == b.outcomes


def test_thm3_trial_and_implication():
    p = {"n": 30, "d": 400, "r": 2, "eps": 1 / 3, "delta": 0.1, "c": 0.25, "lam": 1.0, "loss": "square"}
    rec = thm3.trial(p, np.random.default_rng(2))
    assert rec.outcomes["stated"].holds
    assert rec.outcomes["implication"].holds or rec.outcomes["implication"].vacuous
    # naive error ~ sqrt(d/m) ||w*|| (Theorem 3 discussion)
    assert 0.5 < rec.diagnostics["naive_times_sqrt_m_over_d"] < 2.0


def test_thm6_trial_and_vacuity():
    p = {"n": 40, "d": 2000, "p": 1.0, "s1": 10.0, "lam": 0.01, "k": 3, "m": 100, "delta": 0.1}
    rec = thm6.trial(p, np.random.default_rng(0))
    assert rec.outcomes["stated"].vacuous and rec.outcomes["conservative"].vacuous
    assert rec.diagnostics["w_star_tail"] < 1e-10  # w* in span(v_1..v_k) exactly


def test_algorithms_trial_all_hold():
    p = {"n": 30, "d": 100, "r": 3, "m": 15, "lam": 1.0}
    rec = algorithms.trial(p, np.random.default_rng(0))
    assert all(o.holds for o in rec.outcomes.values()), rec.outcomes


def test_cor7_implied_and_empirical_constant():
    rec = cor7.trial({"r": 2, "eps": 0.5, "delta": 0.1, "c": 0.25, "m": 178}, np.random.default_rng(0))
    assert rec.outcomes["stated"].holds == (rec.diagnostics["eps_R"] <= 0.5)
    out = cor7.empirical_constant(2, 0.5, 0.1, trials=300, rng=0)
    # measured ~1.0-1.3; > 1/4 with overwhelming probability at 300 draws per m
    assert out["c_emp"] > B.C_COR7 and out["m_emp"] < out["m_printed"]


def test_registered_ids_and_assumed_constants():
    for tid in ("zhang2013.cor7", "zhang2013.thm1", "zhang2013.thm2", "zhang2013.thm3", "zhang2013.thm3.chi2",
                "zhang2013.thm4", "zhang2013.thm5", "zhang2013.thm6", "zhang2013.alg", "zhang2013.losses",
                "zhang2013.m_needed"):
        th = get(tid)
        for v in th.variants:
            if v.mode == "bound" and v.role == "claim":
                assert v.assumed, (tid, v.name)  # every [R] constant is recorded
        for f in th.findings:
            assert f.evidence_variant in {v.name for v in th.variants}


# ------------------------------------------------------------------------------------------- bounds
def test_thm3_extra_term_dominates_exact_chi2_failure():
    """Theorem 3's extra failure term: the corrected chi-square failure is <= exp(-(d-r)/32) for d - r >= 2 (eps <= 1/3)
    and d - r >= 6 (eps <= 1/2), checked exactly for d - r up to 5000."""
    ks = np.unique(np.r_[np.arange(2, 200), np.geomspace(200, 5000, 60).astype(int)])
    for eps, kmin in ((1 / 3, 2), (0.5, 6)):
        for k in ks[ks >= kmin]:
            assert B.thm3_chi2_failure(eps, int(k) + 3, 3) <= math.exp(-k / 32), (eps, k)


def test_bound_relations():
    for eps in np.linspace(0.01, 0.5, 50):
        assert B.thm2_bound(eps) <= B.thm1_bound(eps) + 1e-15  # Theorem 1 needs eps <= 1/2
        assert B.thm4_bound_tight(eps) <= B.thm4_bound(eps) + 1e-15
    assert B.thm3_bracket(0.37608) > 0 > B.thm3_bracket(0.37609)  # root 0.376086
    assert B.cor7_eps(5, B.cor7_min_dim(5, 0.3, 0.05), 0.05) <= 0.3


def test_bounds_bad_input():
    with pytest.raises(RpcheckError, match="`eps`"):
        B.cor7_min_dim(3, 1.5, 0.1)
    with pytest.raises(RpcheckError, match="`delta`"):
        B.cor7_min_dim(3, 0.5, 0.0)
    with pytest.raises(RpcheckError, match="`form`"):
        B.thm3_chi2_failure(0.3, 10, 2, form="printed")
    with pytest.raises(RpcheckError, match="`form`"):
        B.thm6_min_dim(1.0, 1.0, 1.0, 1.0, 10, 0.5, 0.1, form="x")
    with pytest.raises(RpcheckError, match="`r`"):
        B.cor7_min_dim(0, 0.5, 0.1)


def test_make_instance_exact_rank_and_nondegenerate_hinge():
    inst = make_instance(50, 80, 4, rng=np.random.default_rng(0))
    s = np.linalg.svd(inst.X, compute_uv=False)
    assert s[3] > 1e-6 * s[0] and s[4] < 1e-12 * s[0]
    assert np.allclose(inst.V.T @ inst.V, np.eye(4))


# --------------------------------------------------------------- property test on strategy-drawn data


@settings(max_examples=25)
@given(
    X=low_rank_matrices(min_rows=8, max_rows=30, min_cols=10, max_cols=60, max_rank=4, tail=0.0),
    seed=sketch_seeds(),
    m_factor=st.integers(8, 24),  # eps_R ~ 2 sqrt(1/f) + 1/f < 1 for most draws
    log_lam=st.floats(-1.5, 1.5),
    loss=st.sampled_from(["square", "hinge"]),
)
def test_per_draw_theorems_1_2_4_on_exact_rank_data(X, seed, m_factor, log_lam, loss):
    """Deterministic forms of Theorems 1, 2 and 4 (certified by the dual gaps) for every draw with eps_R < 1."""
    from rpcheck.linalg import embedding_distortion, row_space_basis
    from rpcheck.sketches import make_sketch
    from rpcheck.svm.drp import certified_recovery_bound, drp, ridge_solution, solve_hinge_dual

    rng = np.random.default_rng(seed)
    n, d = X.shape
    V = row_space_basis(X)
    rho = V.shape[1]
    y = np.where(X @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n) >= 0, 1.0, -1.0)
    if loss == "hinge" and np.all(y == y[0]):
        y[0] = -y[0]
    lam = 10.0**log_lam
    R = np.asarray(make_sketch("gaussian", d, m_factor * rho, rng=rng).matrix())
    eps = embedding_distortion(V, R)
    if eps >= 1:
        return  # the per-draw bounds are claimed only for eps_R < 1
    if loss == "square":
        ws, gap = ridge_solution(X, y, lam), 0.0
    else:
        full = solve_hinge_dual(X, y, lam)
        ws, gap = X.T @ (y * full.beta) / lam, full.gap
    res = drp(X, y, lam, R, loss=loss)
    if loss == "hinge":
        gap += res.dual.gap
    wn = np.linalg.norm(ws)
    if wn == 0:
        return
    kappa = (max(np.linalg.norm(X, 2), np.linalg.norm(X @ R, 2)) ** 2 + lam) / lam
    tol = max(1e-9, 10 * np.finfo(float).eps * kappa**2) * wn
    B2 = certified_recovery_bound(eps, wn, gap, lam)
    e = res.w_tilde - ws
    assert np.linalg.norm(e) <= B2 + tol  # Theorem 2
    rt = np.sqrt(eps * wn * B2 + gap / lam)
    assert np.linalg.norm(R.T @ e) <= rt + tol  # Theorem 1 (numerator)
    assert np.linalg.norm(V.T @ (res.w_naive - ws)) <= eps * wn + np.sqrt(1 + eps) * rt + tol  # Theorem 4


@pytest.mark.parametrize("eps", [0.05, 0.25, 0.5])
def test_thm1_stated_bound_is_the_printed_one_for_exact_duals(eps):
    # The certificate excess is measured against the exact-dual value eps/sqrt(1-eps) ||w*|| of cert_RT (measured
    # against eps^(3/2)/sqrt(1-eps) ||w*||, "stated" would test a bound 29% (eps=1/2) to 41% (eps=1/4) looser than the
    # printed sqrt(2) eps/sqrt(1-eps)). With gap 0 the excess is exactly 0.
    from rpcheck.papers.zhang2013._recovery import Draw

    for w_norm in (1e-3, 1.0, 7.5):
        dr = Draw(w_norm=w_norm, gap=0.0, lam=0.1)
        assert math.isclose(dr.cert_RT(eps), eps * w_norm / math.sqrt(1 - eps), rel_tol=1e-12)
        assert math.isclose(thm1.stated_bound(dr, eps), B.thm1_bound(eps), rel_tol=1e-12)
    # a positive duality gap enlarges the bound, by exactly the certified excess
    dr = Draw(w_norm=1.0, gap=1e-6, lam=0.1)
    assert thm1.stated_bound(dr, eps) > B.thm1_bound(eps)


def test_certified_interval_outcomes_are_undetermined_when_straddling():
    from rpcheck.papers.zhang2013._recovery import certify_le, ratio_interval

    assert certify_le(0.1, 0.2, 0.3, 0.3, 0.15, 0.3).holds
    o = certify_le(0.4, 0.5, 0.3, 0.3, 0.45, 0.3)
    assert not o.holds and not o.undetermined
    o = certify_le(0.25, 0.35, 0.3, 0.3, 0.29, 0.3)  # straddles: neither certified
    assert o.undetermined
    lo, hi = ratio_interval(1.0, 0.1, 2.0, 0.5)
    assert lo == pytest.approx(0.9 / 2.5) and hi == pytest.approx(1.1 / 1.5)
    assert ratio_interval(1.0, 0.1, 0.5, 0.5)[1] == math.inf


def test_hinge_recovery_radii_from_the_gaps():
    """u_full = sqrt(2 eta_full/lam) + fp ||w*|| (strong convexity) and u_wt = sqrt(2 eta_proj/lam)/sqrt(1-eps_R)
    (+ rounding); with eps_R >= 1 an inexact projected dual gives an infinite radius."""
    from types import SimpleNamespace

    from rpcheck.papers.zhang2013._recovery import Draw

    res = SimpleNamespace(z=np.array([3.0, 4.0]), w_tilde=np.array([1.0, 0.0]))
    kw = dict(lam=2.0, res=res, gap_full=1e-6, gap_proj=4e-6, fp=0.0, w_norm=1.0)
    dr = Draw(eps_R=0.75, **kw)
    assert dr.u_full == pytest.approx(math.sqrt(1e-6)) and dr.u_z == pytest.approx(math.sqrt(4e-6))
    assert dr.u_wt == pytest.approx(math.sqrt(4e-6) / 0.5)
    assert Draw(eps_R=1.2, **kw).u_wt == math.inf


def test_cor7_expectations_are_derived():
    """Every expected verdict of cor7 "stated" rests on a rigorous bound and a power computation at the row
    level 0.01/500, and the negative control fails with probability >= 0.9985 in every cell (power >= 0.999)."""
    th = get("zhang2013.cor7")
    for pname, prof in th.profiles.items():
        for cell in prof.cells:
            r, m, eps, delta = cell["r"], cell["m"], cell["eps"], cell["delta"]
            exp = th.variant("stated").expected_for(cell)
            if exp is not None and exp.value == "HOLDS":
                assert cor7.power_holds(prof.trials, B.cor7_failure_upper(r, m, eps), delta) >= 0.99
            if exp is not None and exp.value == "VIOLATED":
                assert cor7.power_violated(prof.trials, B.cor7_failure_lower(r, m, eps), delta) >= 0.999
            if cell["c"] <= 0.25:
                assert exp is not None and exp.value == "HOLDS", (pname, cell)
            p_ctrl = cor7._control_failure(cell)
            assert p_ctrl >= 0.9977 and cor7.power_violated(prof.trials, p_ctrl, delta) >= 0.999, (pname, cell)


def test_cor7_failure_bounds_bracket_the_monte_carlo_rate():
    # lower <= P(eps_R > eps) <= upper; 4000 exact Bartlett draws at c = 1 (m = 45, r = 2, eps = 1/2): the
    # Monte Carlo rate must lie in [lower - 5 se, upper + 5 se] (false alarm < 1e-6)
    rng = np.random.default_rng(0)
    r, eps, m = 2, 0.5, 45
    e = np.array([np.max(np.abs(np.linalg.eigvalsh(wishart_gram(r, m, rng=rng)) - 1)) for _ in range(4000)])
    p = float(np.mean(e > eps))
    se = math.sqrt(0.25 / 4000)
    assert B.cor7_failure_lower(r, m, eps) - 5 * se <= p <= B.cor7_failure_upper(r, m, eps) + 5 * se


@pytest.mark.parametrize("mod", [thm1, thm2, thm4, thm5])
def test_planted_controls_fail(mod):
    """The planted rank-1 controls: control_per_draw fails whenever eps_R < 0.33 (certain over the run),
    control_stated (rel <= 1e-8) fails in every draw."""
    from scipy.stats import chi2

    from rpcheck.papers.zhang2013._recovery import planted_controls

    rng = np.random.default_rng(1)
    for m in (7, 12, 17, 66, 263):
        # P(eps_R < 0.33) >= 0.46 for m >= 7 (used in the derivation)
        assert chi2.cdf(1.33 * m, m) - chi2.cdf(0.67 * m, m) >= 0.46
        for _ in range(50):
            out = planted_controls(m, rng, theorem4=(mod is thm4))
            assert not out["control_stated"].holds
            o = out["control_per_draw"]
            if not o.vacuous and (o.bound < 0.33 * (1 + 1 / 0.67) / 4 if mod is thm4 else o.bound < 0.33 / (2 * 0.67)):
                assert not o.holds
    names = {v.name: v for v in mod.THEOREM.variants}
    assert names["control_per_draw"].role == "control" and names["control_stated"].role == "control"


def test_thm3_control_fails_every_draw():
    p = {"n": 30, "d": 400, "r": 2, "eps": 1 / 3, "delta": 0.1, "c": 0.25, "lam": 1.0, "loss": "square"}
    rec = thm3.trial(p, np.random.default_rng(4))
    o = rec.outcomes["control_stated"]
    assert not o.holds and not o.undetermined and o.statistic > o.bound


# ------------------------------------------------------------------------------------------- losses
def test_losses_trial_certified_and_naive_control():
    """zhang2013.losses: one trial per smooth loss; the duality gaps are tiny, the per-draw bound holds with
    a certified interval, and the naive solution R z fails it (the control's derivation)."""
    from rpcheck.papers.zhang2013 import losses

    for loss in ("logistic", "squared_hinge", "smoothed_hinge"):
        p = {"n": 40, "d": 1000, "r": 2, "eps": 0.5, "delta": 0.5, "c": 0.25, "lam": 1.0, "loss": loss, "mu": 0.5}
        rec = losses.trial(p, np.random.default_rng(3))
        assert rec.diagnostics["gap_full"] < 1e-12 and rec.diagnostics["gap_proj"] < 1e-12
        assert rec.diagnostics["rel_lo"] <= rec.diagnostics["rel_err"] <= rec.diagnostics["rel_hi"]
        assert rec.outcomes["per_draw"].holds and not rec.outcomes["per_draw"].undetermined
        assert not rec.outcomes["naive_per_draw"].holds and not rec.outcomes["naive_per_draw"].undetermined
        assert rec.diagnostics["naive_rel_lo"] <= rec.diagnostics["naive_rel"]


def test_losses_naive_control_derivation():
    """The derived per-draw miss probability of the naive control is < 0.41 in every profile cell, so 90 trials
    miss with probability < 1e-34; naive_expected says VIOLATED everywhere."""
    from rpcheck.papers.zhang2013 import losses

    f = losses.naive_expected(losses.PROFILES)
    for prof in losses.PROFILES.values():
        for cell in prof.cells:
            assert losses.naive_miss_bound(cell) < 0.41
            assert f(cell) == losses.Verdict.VIOLATED


def test_losses_domain_rejects_square_and_hinge():
    from rpcheck.papers.zhang2013 import losses

    assert set(losses.THEOREM.parameters["loss"].choices) == {"logistic", "squared_hinge", "smoothed_hinge"}


def test_losses_naive_expectation_needs_gaussian():
    from rpcheck.papers.zhang2013 import losses

    f = losses.naive_expected(losses.PROFILES)
    cell = dict(losses.PROFILES["ci"].cells[0])
    assert f(cell) == losses.Verdict.VIOLATED
    cell["kind"] = "sign"
    assert f(cell) is None
