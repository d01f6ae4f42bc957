"""Unit tests of the Paul et al. (2014) checkers: bound functions against closed forms, certified solver
intervals against closed-form SVM/SVR optima, the fast paths against dense oracles, and every trial
function against its theorem's variant list (one small trial each)."""

import itertools
import math
import sys

import numpy as np
import pytest
import scipy.linalg as sla

from rpcheck.engine import Outcome, Verdict, registry
from rpcheck.engine.theorem import TrialRecord
from rpcheck.errors import RpcheckError
from rpcheck.linalg import thin_q
from rpcheck.papers.paul2014 import bounds as B
from rpcheck.papers.paul2014 import (
    embedding,
    main_ratio,
    margin,
    margin_search,
    repro_synthetic,
    sparsity,
)
from rpcheck.papers.paul2014._common import Interval, svc_bounds, svr_bounds

PAUL_IDS = [
    "paul2014.lemma3.1", "paul2014.lemma3.2", "paul2014.lemma3.3", "paul2014.lemma3.4", "paul2014.c1a",
    "paul2014.c2", "paul2014.c2.countsketch_exact", "paul2014.c3", "paul2014.thm3.5", "paul2014.thm3.5.search",
    "paul2014.c5", "paul2014.thm3.6", "paul2014.thm1.1", "paul2014.thm3.7", "paul2014.c11",
    "paul2014.repro.synthetic", "paul2014.repro.bundled", "paul2014.repro.hapmap", "paul2014.e11", "paul2014.e14",
    "paul2014.regression_tables", "paul2014.repro.rcv1", "paul2014.repro.rcv1_multiclass", "paul2014.repro.techtc",
]  # fmt: skip


# ------------------------------------------------------------------------------------------- bounds


def test_countsketch_collision_law_matches_enumeration():
    # exact enumeration of all r^rho hash assignments
    for rho, r in [(2, 3), (3, 4), (4, 4), (3, 7)]:
        collide = sum(len(set(h)) < rho for h in itertools.product(range(r), repeat=rho))
        assert B.countsketch_coherent_failure(rho, r) == pytest.approx(collide / r**rho, rel=1e-12)


def test_gaussian_embedding_failure_bound_formula():
    """The derived bound's formula, side by side by hand, and a simulation at an instance where it is not trivial
    (rho = 5, r = 400, eps = 1/2: 0.079): the simulated rate of e > eps (2000 draws of a 5 x 400 N(0, 1/r) matrix,
    the law of V^T R for any orthonormal V) stays below it (4 binomial standard errors). The bound's validity rests
    on the cited theorem (Gordon + concentration); the simulation is a sanity check only: the bound is loose
    (simulated rate 0 here), so it would not catch an error that keeps the value above the true rate."""
    rho, r, eps = 5, 400, 0.5
    bound = B.gaussian_embedding_failure_bound(rho, r, eps)
    assert 0.05 < bound < 0.1
    rng = np.random.default_rng(20261127)
    fails = 0
    for _ in range(2000):
        s = np.linalg.svd(rng.standard_normal((rho, r)) / math.sqrt(r), compute_uv=False)
        fails += max(abs(1 - s**2)) > eps
    assert fails / 2000 <= bound + 4 * math.sqrt(bound * (1 - bound) / 2000)
    # the two sides by hand at the full-only cell (40, 1918, 0.5): t+ = sqrt(1918)(sqrt(1.5) - 1) - sqrt(40)
    tp = math.sqrt(1918) * (math.sqrt(1.5) - 1) - math.sqrt(40)
    tm = math.sqrt(1918) * (1 - math.sqrt(0.5)) - math.sqrt(40)
    want = math.exp(-tp**2 / 2) + math.exp(-tm**2 / 2)
    assert B.gaussian_embedding_failure_bound(40, 1918, 0.5) == pytest.approx(want)
    assert B.gaussian_embedding_failure_bound(10, 9, 0.5) == 1.0  # r < rho: e >= 1 > eps always
    with pytest.raises(RpcheckError, match="eps"):
        B.gaussian_embedding_failure_bound(10, 100, 1.0)


def test_lemma34_full_only_cells_power_by_derivation():
    """Lemma 3.4's full-only cells (not in standard, so not piloted there): the expected HOLDS rests on the derived
    failure bound, with power >= 0.99 at the full profile's trials and level 5e-6 (embedding._expect_lemma)."""
    from rpcheck.stats import holds_power

    th = registry.get("paul2014.lemma3.4")
    std = [dict(c) for c in th.profiles["standard"].cells]
    full = th.profiles["full"]
    new = [c for c in full.cells if dict(c) not in std]
    assert len(new) == 4
    stated = next(v for v in th.variants if v.name == "stated")
    for c in new:
        assert stated.expected_for(c) is Verdict.HOLDS
        p = B.gaussian_embedding_failure_bound(c["rho"], c["r"], c["eps"])
        assert holds_power("bound", full.trials, p, c["delta"], 5e-6) >= 0.99, c


def test_c1a_expected_holds_has_power_by_derivation():
    """Every expected-HOLDS row of paul2014.c1a, every profile: the derived failure bound (any orthonormal V)
    gives support power >= 0.99 at the cell's own trial count and the first Holm step of a whole ``full``
    run (0.01/2,480 = 4.0e-6; the ledger's per-theorem level is larger)."""
    from rpcheck.stats import holds_power

    th = registry.get("paul2014.c1a")
    thresholds = {"general_delta": B.c1a_row_norm_bound, "as_printed": lambda rho, d, delta: (
        B.c1a_row_norm_bound_as_printed(rho, d))}
    for name, prof in th.profiles.items():
        if name not in ("standard", "full"):
            continue
        for c in prof.cells:
            n = prof.trials_for(c)
            for v in th.variants:
                if v.name not in thresholds:
                    continue
                assert v.expected_for(c) is Verdict.HOLDS
                b = thresholds[v.name](c["rho"], c["d"], c["delta"])
                p = 0.0 if c["coherence"] != "incoherent" else B.hdv_row_norm_tail_upper(c["rho"], c["d"], b)
                assert p <= 1.5e-10
                assert holds_power("bound", n, p, c["delta"], 0.01 / 2480) >= 0.99, (name, c, n)


def test_c1a_bound_general_delta():
    assert B.c1a_row_norm_bound(10, 1024, B.c1a_as_printed_delta()) == pytest.approx(
        B.c1a_row_norm_bound_as_printed(10, 1024), rel=1e-14
    )
    assert B.c1a_row_norm_bound(10, 1024, 0.01) > B.c1a_row_norm_bound(10, 1024, 0.05)


def _all_hdv_row_norms_sq(V):
    """Squared row norms of H D V for EVERY sign vector D (2^d of them; d <= 16): exact, no sampling."""
    d = V.shape[0]
    H = sla.hadamard(d) / math.sqrt(d)
    signs = 1.0 - 2.0 * ((np.arange(2**d)[:, None] >> np.arange(d)[None, :]) & 1)  # (2^d, d)
    HDV = np.einsum("ik,sk,kj->sij", H, signs, V)  # (2^d, d, rho)
    return np.einsum("sij,sij->si", HDV, HDV)


@pytest.mark.parametrize("case", ["flat", "random3", "hadamard2"])
def test_hdv_row_norm_tail_upper_against_exhaustive_signs(case):
    # exact tail probabilities over all 2^16 sign vectors, for orthonormal V of three shapes, against the derived
    # bound (union over rows) and its one-row form (the bound / d); every threshold where the bound says < 1
    d, rng = 16, np.random.default_rng(7)
    V = {
        "flat": np.full((d, 1), 1 / 4.0),  # H D V is e_1 for D = all ones: the worst case of a single row
        "random3": np.linalg.qr(rng.standard_normal((d, 3)))[0],
        "hadamard2": sla.hadamard(d)[:, [1, 2]] / 4.0,
    }[case]
    rho = V.shape[1]
    norms = _all_hdv_row_norms_sq(V)
    assert np.allclose(norms.sum(axis=1), rho) and np.allclose(norms.mean(axis=0), rho / d)  # A_i A_i^T = I/d
    checked = 0
    for b in np.linspace(rho / d, norms.max(), 40)[1:]:
        row_ub = B.hdv_row_norm_tail_upper(rho, d, b, one_row=True)  # the Chernoff step, before the union
        assert np.mean(norms > b, axis=0).max() <= row_ub
        assert np.mean(norms.max(axis=1) > b) <= B.hdv_row_norm_tail_upper(rho, d, b)
        checked += row_ub < 1
    assert checked >= 5
    # the loosest full-profile cell of paul2014.c1a: far below its promised delta
    assert B.hdv_row_norm_tail_upper(5, 1024, B.c1a_row_norm_bound(5, 1024, 0.001)) < 1e-14


@pytest.mark.parametrize("e", [0.01, 0.2, 0.45, 0.9])
def test_proof_factor_below_stated(e):
    assert B.margin_lower_proof(e) < B.margin_lower_stated(e)
    assert B.ratio_bound_proof(e) > B.ratio_bound_stated(e) if e < 0.5 else True


def test_target_dim_and_validation():
    assert B.target_dim("srht", 10, 1024, 0.5, 0.05, c=1.0) == math.ceil(B.eq7_srht(10, 1024, 0.5, 0.05))
    with pytest.raises(RpcheckError, match="eps"):
        B.eq10_gaussian(10, 0.6, 0.1)
    with pytest.raises(RpcheckError, match="kind"):
        B.target_shape("bogus", 10, 1024, 0.5, 0.1)
    assert B.thm11_failure_printed(0.1) == 2 * B.thm11_failure_corrected(0.1)


# ------------------------------------------------------------------------ certified solver intervals


def _contains(iv, x, rel=1e-12):
    return iv.lo - rel * (1 + abs(x)) <= x <= iv.hi + rel * (1 + abs(x))


@pytest.mark.parametrize("noise", [0.0, 1e-6, 1e-3])
def test_svc_bounds_contain_closed_form_hard(noise):
    # x = +-1 (1-D): alpha* = (1/2, 1/2), w* = 1, b* = 0, Z* = 1/2
    X = np.array([[1.0], [-1.0]])
    y = np.array([1.0, -1.0])
    rng = np.random.default_rng(0)
    b = svc_bounds(X, y, math.inf, np.array([0.5, 0.5]) + noise * rng.standard_normal(2), noise)
    assert _contains(b["Z"], 0.5) and _contains(b["wsq"], 1.0) and _contains(b["sum_alpha"], 1.0)
    assert _contains(b["slack_term"], 0.0)


@pytest.mark.parametrize("noise", [0.0, 1e-6, 1e-3])
def test_svc_bounds_contain_closed_form_soft(noise):
    # C = 1/4 < 1/2: alpha* = (C, C), w* = 1/2, xi* = (1/2, 1/2), C||xi||_1 = 1/4, Z* = 3/8, sum alpha = 1/2
    X = np.array([[1.0], [-1.0]])
    y = np.array([1.0, -1.0])
    C = 0.25
    rng = np.random.default_rng(1)
    b = svc_bounds(X, y, C, np.array([C, C]) - noise * np.abs(rng.standard_normal(2)), noise)
    assert _contains(b["Z"], 0.375) and _contains(b["wsq"], 0.25)
    assert _contains(b["sum_alpha"], 0.5) and _contains(b["slack_term"], 0.25)
    assert b["slack_term"].lo > 0  # the identity sum alpha = ||w||^2 is certified false


@pytest.mark.parametrize("noise", [0.0, 1e-4])
def test_svr_bounds_contain_closed_form(noise):
    # x = +-1, y = +-1, eps = 0.1, C large: w* = 0.9, b* = 0, Z* = w*^2/2 = 0.405
    X = np.array([[1.0], [-1.0]])
    y = np.array([1.0, -1.0])
    a = np.array([0.45, -0.45]) + noise
    b = svr_bounds(X, y, 100.0, 0.1, a, 0.0)
    assert _contains(b["Z"], 0.405) and _contains(b["wsq"], 0.81)


def test_svc_bounds_against_solver_on_random_problem():
    from rpcheck.svm import solve_svc

    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 4))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(30) > 0, 1.0, -1.0)
    res = solve_svc(X, y, 1.0)
    b = svc_bounds(X, y, 1.0, res.alpha, res.b)
    assert _contains(b["Z"], res.objective, rel=1e-9) and _contains(b["wsq"], res.w_norm_sq, rel=1e-6)
    assert b["gap"] < 1e-6 * (1 + abs(res.objective)) and not b["degenerate"]


# ------------------------------------------------------------------------------ evaluation logic


def _svc_like(wsq, sum_alpha, Z):
    return {"wsq": Interval(*wsq), "sum_alpha": Interval(*sum_alpha), "Z": Interval(*Z), "degenerate": False,
            "w_norm_sq": sum(wsq) / 2, "alpha_sum": sum(sum_alpha) / 2}  # fmt: skip


def test_evaluate_margin_certified_directions():
    e = 0.2
    orig = _svc_like((1.0, 1.0), (1.0, 1.0), (0.5, 0.5))
    # ||w~||^2 = 1.3 > ||w||^2/(1-e) = 1.25: gamma~^2 < (1-e) gamma^2 -> stated violated
    proj = _svc_like((1.3, 1.3), (1.3, 1.3), (0.65, 0.65))
    out = margin.evaluate_margin(e, orig, proj, q_u=1.0, q_Ru=1.1)
    assert not out["stated"].holds and not out["stated_sum_alpha"].holds
    assert out["upper"].holds and out["paux"].holds
    # an interval that straddles the boundary is neither a certified violation nor a certified hold:
    # undetermined (counted against the verdict tested)
    proj2 = _svc_like((1.2, 1.3), (1.2, 1.3), (0.6, 0.65))
    o2 = margin.evaluate_margin(e, orig, proj2, 1.0, 1.1)["stated"]
    assert not o2.holds and o2.undetermined
    # certified hold: ||w~||^2 <= 1.2 < 1.25
    proj3 = _svc_like((1.1, 1.2), (1.1, 1.2), (0.55, 0.6))
    o3 = margin.evaluate_margin(e, orig, proj3, 1.0, 1.1)["stated"]
    assert o3.holds and not o3.undetermined
    # e >= 1: stated is vacuous; e >= 1/2: proof is vacuous
    assert margin.evaluate_margin(1.2, orig, proj, 1.0, 1.1)["stated"].vacuous
    assert margin.evaluate_margin(0.6, orig, proj, 1.0, 1.1)["proof"].vacuous
    # P-aux violated when the measured deviation exceeds e ||u||^2
    assert not margin.evaluate_margin(0.05, orig, proj, 1.0, 1.1)["paux"].holds


def test_projected_data_has_exact_distortion():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((10, 3))
    V = np.linalg.svd(X, full_matrices=False)[2].T
    Q = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    t = np.array([1.0, -0.3, 0.5])
    XR, e = margin_search.projected_data(X, V, Q, t, 0.4)
    S = (Q * (1 + 0.4 * t)) @ Q.T
    R = V @ sla.sqrtm(S).real
    np.testing.assert_allclose(XR, X @ R, atol=1e-12)
    assert e == pytest.approx(np.max(np.abs(np.linalg.eigvalsh(np.eye(3) - R.T @ V @ V.T @ R))), abs=1e-12)


class _ScaledRotation:
    """Duck-typed sketch ``R = s Q`` (Q orthogonal): ``V^T R R^T V = s^2 I``, so e = |1 - s^2| exactly."""

    def __init__(self, Q, s):
        self.R = s * Q

    def apply(self, A):
        return np.asarray(A) @ self.R

    def matrix(self):
        return self.R


@pytest.mark.parametrize("s", [1.0, 0.5])
def test_svr_event_closed_form_scaling(s):
    # Thm 1.1, regression part: with R = s Q every projected point is s times a rotation of the original,
    # so in the zero-slack (tube) regime w~* = Q^T w*/s and gamma~^2/gamma^2 = s^2 = 1 - e exactly (the
    # (1 - e) bound is tight). eps = 0.5: s = 1 holds (ratio 1), s = 0.5 is a certified failure (ratio 1/4).
    rng = np.random.default_rng(11)
    d = 32
    Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
    out, ctrl, diags, arrays = main_ratio.svr_event(30, d, 4, 0.5, _ScaledRotation(Q, s), rng)
    assert not ctrl.holds and not ctrl.vacuous and not ctrl.undetermined
    assert diags["svr_in_tube"] == 1.0 and not out.vacuous
    assert diags["e_reg"] == pytest.approx(abs(1 - s**2), abs=1e-12)
    assert out.statistic == pytest.approx(s**2, rel=1e-6)
    assert out.bound == 0.5
    assert out.holds == (s == 1.0)
    assert arrays["X_reg"].shape == (30, d)


def test_hdv_row_norms_against_dense_hadamard():
    rng = np.random.default_rng(7)
    d, rho = 64, 3
    V = np.linalg.qr(rng.standard_normal((d, rho)))[0]
    D = rng.choice([-1.0, 1.0], size=d)
    H = sla.hadamard(d) / np.sqrt(d)
    dense = np.sum((H @ (D[:, None] * V)) ** 2, axis=1)
    np.testing.assert_allclose(embedding.hdv_row_norms_sq(V, D), dense, atol=1e-13)


@pytest.mark.parametrize(("d", "rho"), [(64, 1), (64, 16), (64, 40), (1024, 100), (8192, 40)])
def test_haar_hdv_row_norms_equal_the_formed_basis(d, rho):
    """c1a's one-pass path (R = chol(G^T G), X R = H D G) against the row norms of H D thin_q(G), the Haar basis
    orthonormal_basis forms, on the same G and D; at d = 64 also against the dense Hadamard product. (64, 40)
    has cond(G) ~ 9, (64, 16) ~ 3; the values agree to rounding."""
    rng = np.random.default_rng(20261127)
    for _ in range(3):
        G = rng.standard_normal((d, rho))
        D = rng.choice([-1.0, 1.0], size=d)
        fast = embedding.haar_hdv_row_norms_sq(G, D)
        V = thin_q(G)
        np.testing.assert_allclose(fast, embedding.hdv_row_norms_sq(V, D), rtol=1e-12, atol=1e-15)
        assert fast.sum() == pytest.approx(rho, rel=1e-12)  # ||H D V||_F^2 = rho
        if d == 64:
            H = sla.hadamard(d) / np.sqrt(d)
            np.testing.assert_allclose(fast, np.sum((H @ (D[:, None] * V)) ** 2, axis=1), rtol=1e-12, atol=1e-15)


def test_haar_hdv_row_norms_fall_back_when_ill_conditioned():
    """cond(R) > ONE_PASS_MAX_COND: the basis is formed (thin_q) and the values are still the exact ones."""
    rng = np.random.default_rng(5)
    G = rng.standard_normal((256, 4))
    G[:, 3] = G[:, 2] + 1e-6 * G[:, 3]  # cond(G) ~ 1e6
    D = rng.choice([-1.0, 1.0], size=256)
    R = sla.cholesky(G.T @ G, lower=False)
    assert np.linalg.cond(R) > embedding.ONE_PASS_MAX_COND
    np.testing.assert_allclose(embedding.haar_hdv_row_norms_sq(G, D), embedding.hdv_row_norms_sq(thin_q(G), D),
                               rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("d", "rho"), [(64, 4), (1024, 100), (65536, 10)])
def test_c1a_incoherent_trial_is_the_formed_basis_draw(d, rho):
    """c1a_trial's incoherent rows make the same generator calls as orthonormal_basis(d, rho, "incoherent")
    followed by the sign draw (the draws are bit-identical, the generator ends in the same state), and its value
    is the formed basis's max row norm to rounding; the declared "flat" coherence runs too."""
    from rpcheck.generators import orthonormal_basis

    for seed in range(3):
        ref = np.random.default_rng(seed)
        V = orthonormal_basis(d, rho, coherence="incoherent", rng=ref)
        D = ref.choice(np.array([-1.0, 1.0]), size=d)
        want = float(np.max(embedding.hdv_row_norms_sq(V, D)))
        rng = np.random.default_rng(seed)
        rec = embedding.c1a_trial({"d": d, "rho": rho, "delta": 0.05, "coherence": "incoherent"}, rng)
        assert rec.diagnostics["max_row_norm_sq"] == pytest.approx(want, rel=1e-13)
        assert rng.random() == ref.random()
    rec = embedding.c1a_trial({"d": 64, "rho": 4, "delta": 0.05, "coherence": "flat"}, np.random.default_rng(0))
    assert 4 / 64 <= rec.diagnostics["max_row_norm_sq"] <= 1.0


@pytest.mark.parametrize("coherence", embedding.BASIS_COHERENCES)
@pytest.mark.parametrize(("d", "rho"), [(64, 1), (64, 5), (1024, 40), (8192, 100)])
def test_c1a_closed_form_for_basis_columns_equals_the_transform(coherence, d, rho):
    """c1a_trial's ``m = rho/d`` for V of standard basis columns, against the FWHT of H D V (and, at d = 64, the
    dense Hadamard product) for several sign draws; and the trial's rows match it."""
    from rpcheck.generators import orthonormal_basis

    rng = np.random.default_rng(11)
    for _ in range(3):
        V = orthonormal_basis(d, rho, coherence=coherence, rng=rng)
        D = rng.choice([-1.0, 1.0], size=d)
        norms = embedding.hdv_row_norms_sq(V, D)
        np.testing.assert_allclose(norms, rho / d, rtol=1e-13)
        if d == 64:
            H = sla.hadamard(d) / np.sqrt(d)
            np.testing.assert_allclose(np.sum((H @ (D[:, None] * V)) ** 2, axis=1), rho / d, rtol=1e-13)
    rec = embedding.c1a_trial({"d": d, "rho": rho, "delta": 0.05, "coherence": coherence}, rng)
    assert rec.diagnostics["max_row_norm_sq"] == rho / d
    assert rec.outcomes["general_delta"].statistic == rho / d
    assert not rec.outcomes["bound_control"].holds


def test_countsketch_coherent_is_all_or_nothing():
    for i in range(30):
        rec = embedding.embedding_trial(
            embedding.embedding_cell("countsketch", 5, 256, 0.5, 0.1, coherence="coherent", r=20),
            np.random.default_rng(i),
        )
        e = rec.diagnostics["e"]
        assert e < 1e-12 or e >= 1 - 1e-12


def test_cw_cell_has_consistent_block_sizes():
    cell = embedding.embedding_cell("cw", 10, 1024, 0.5, 0.1)
    assert cell["q"] * cell["v"] * cell["a"] == cell["r"]


# ---------------------------------------------------------------------------------- report decides


def _rec(**diag):
    return TrialRecord(outcomes={}, diagnostics=diag)


def test_synthetic_decide_verdicts():
    params = {"family": "D1", "n": 200, "d": 5000, "folds": 3, "rs": "256,512", "methods": "RG"}
    base = {"e.RG.256": 2.0, "e.RG.512": 1.5, "err.RG.256": 0.3, "err.RG.512": 0.2,
            "gamma.RG.256": 5.0, "gamma.RG.512": 6.0}  # fmt: skip
    # 30/200 = 15% errors and gamma ~ 7.74: the paper's numbers are reproduced
    recs = [_rec(**base, **{"errcount.full": 30.0, "n_eval.full": 200.0, "gamma.full": g}) for g in (7.7, 7.78)]
    v, info = repro_synthetic.decide(recs, params)
    assert "timing" not in info  # records without timings (older result files): no Fig. 1 rows
    # agreement is not evidence of agreement (no equivalence test): INCONCLUSIVE, never HOLDS
    assert v["error_vs_paper"] == Verdict.INCONCLUSIVE and v["margin_vs_paper"] == Verdict.INCONCLUSIVE
    assert v["margin_trend"] == Verdict.HOLDS and v["error_trend"] == Verdict.HOLDS
    assert info["RG"]["256"]["paper_eps_out_%"] == 24.34 and "99%" in info["claim"]
    # 3 data sets: the 99% t interval is mean +- 9.92 SE = 5.25 +- 0.29, far from 7.74
    recs = [_rec(**base, **{"errcount.full": 96.0, "n_eval.full": 200.0, "gamma.full": g}) for g in (5.2, 5.25, 5.3)]
    v, _ = repro_synthetic.decide(recs, params)
    assert v["error_vs_paper"] == Verdict.VIOLATED and v["margin_vs_paper"] == Verdict.VIOLATED
    # 2 data sets: t quantile 63.7, the same spread no longer rejects
    v, _ = repro_synthetic.decide(recs[::2], params)
    assert v["margin_vs_paper"] == Verdict.INCONCLUSIVE


def test_synthetic_fig1_rows():
    """Fig. 1's statements beside the timings: the speedup at r = 1024 with its standard error (no agreement
    decided), t_rp / t_svm against 'very small' (<= 0.1), max/min t_run against 'nearly the same' (<= 1.2)."""
    params = {"family": "D2", "n": 250, "d": 10000, "folds": 3, "rs": "1024", "methods": "RG,CW"}
    base = {"e.RG.1024": 1.0, "e.CW.1024": 1.0, "err.RG.1024": 0.3, "err.CW.1024": 0.3, "gamma.RG.1024": 5.0,
            "gamma.CW.1024": 5.0, "errcount.full": 30.0, "n_eval.full": 200.0, "solver_errors": 0.0,
            "t_rp.RG.1024": 0.05, "t_rp.CW.1024": 0.01, "t_svm.RG.1024": 1.0}  # fmt: skip
    recs = [_rec(**base, **{"gamma.full": 7.0, "t_svm.full": tf, "t_svm.CW.1024": tc})
            for tf, tc in ((2.1, 1.5), (4.2, 1.5))]
    _, info = repro_synthetic.decide(recs, params)
    rows = {r["method"]: r for r in info["timing"]["fig1"]}
    rg = rows["RG, r = 1024: t_run(full) / t_run"]
    assert rg["paper_speedup"] == 9 and rg["speedup"] == pytest.approx(3.0) and rg["speedup_se"] == pytest.approx(1.0)
    assert "speedup_agrees" not in rg  # a timing is a measurement: no agreement decided
    small = rows["t_rp / t_svm, largest over methods and r"]
    assert small["trp_over_tsvm"] == pytest.approx(0.05) and small["trp_over_tsvm_agrees"] is True
    same = rows["r = 1024: max / min of the methods' t_run (RG, CW)"]
    assert same["trun_max_over_min"] == pytest.approx(1.51 / 1.05) and same["trun_max_over_min_agrees"] is False


def test_hapmap_decide_rows():
    """Fig. 2-3 rows: eps_out beside 2%, spread <= 2 points, t_rp ranking FHT < RS < RG < CW, t_run max/min <= 1.2."""
    from rpcheck.papers.paul2014 import repro_hapmap

    params = {"n": 250, "d": 4096, "rs": "512", "methods": "CW,RS,FHT,RG"}
    trp = {"FHT": 0.01, "RS": 0.02, "RG": 0.03, "CW": 0.04}
    diag = {"solver_errors": 0.0}
    for m, t in trp.items():
        diag |= {f"err.{m}.512": 1.0 + (m == "CW") * 3.0, f"undetermined.{m}.512": 0.0, f"t_rp.{m}.512": t,
                 f"t_svm.{m}.512": 1.0}  # fmt: skip
        diag |= {f"pop_err.{m}.512": 20.0 + (m == "RG") * 4.0, f"pop_undetermined.{m}.512": 0.1,
                 f"pop_t_svm.{m}.512": 1.0}  # fmt: skip
        for task in ("region", "population"):
            diag |= {f"ein.{task}.{m}.512": 0.0, f"ein_status.{task}.{m}.512": 1.0, f"primal.{task}.{m}.512": 0.01,
                     f"hm_bound.{task}.{m}.512": 0.3}  # fmt: skip
    diag["pop_solver_errors"] = 0.0
    diag["ein_status.population.RG.512"] = 0.0  # one population fit undetermined
    _, info = repro_hapmap.decide([_rec(**diag), _rec(**diag)], params)
    rows = {r["method"]: r for r in info["paper_vs"]}
    pop = rows["RG, r = 512, population labels (50 classes, stand-in)"]
    assert pop["paper_eps_out_population"] == 20 and pop["eps_out_population"] == 24
    assert rows["r = 512, population labels: spread of the methods' eps_out (points)"]["eps_out_spread_agrees"] is False
    assert info["population_undetermined_max"] == pytest.approx(0.1)
    reg = rows["region labels: largest training error over 8 fits"]
    assert reg["eps_in_max"] == 0 and reg["eps_in_max_agrees"] is True and reg["eps_in_zero_certified"] == "8 of 8 fits"
    assert rows["population labels: largest training error over 8 fits"]["eps_in_max_agrees"] is None
    cw = rows["CW, r = 512, region labels"]
    assert cw["paper_eps_out"] == 2 and cw["eps_out"] == 4
    assert rows["r = 512: spread of the methods' eps_out (points)"]["eps_out_spread_agrees"] is False  # 3 points
    order = rows["r = 512: t_rp ranking (means)"]
    assert order["trp_order"] == "FHT < RS < RG < CW" and order["trp_order_agrees"] is True
    assert rows["r = 512: max / min of the methods' t_run"]["trun_max_over_min_agrees"] is True  # 1.04/1.01


def test_hapmap_in_sample_rules():
    """in_sample: rule (a) P(W^) < C certifies every training prediction of W* (status +1; the control's shifted
    labels -1, eps_in 100%); a label conflict (two equal rows, two labels) makes P* >= C, so rule (a) is off and
    the status is never +1 (W* cannot classify both rows)."""
    from rpcheck.papers.paul2014 import repro_hapmap as H
    from rpcheck.svm import solve_crammer_singer

    g = np.random.default_rng(3)
    Z = g.standard_normal((30, 60))  # 30 generic rows in 60 dimensions: separable for any labels
    y = np.arange(30) % 3
    res = solve_crammer_singer(Z, y, 1000.0)
    e0, s0, rule = H.in_sample(res, Z, y, 1000.0)
    assert rule and s0 == 1 and e0 == 0.0 and res.primal < H._hard_margin_bound(Z) * (1 + 1e-9) < 1000.0
    e1, s1, _ = H.in_sample(res, Z, y, 1000.0, shift=1)
    assert s1 == -1 and e1 == 100.0
    Zc, yc = np.vstack([Z, Z[:1]]), np.append(y, (y[0] + 1) % 3)  # planted conflict
    resc = solve_crammer_singer(Zc, yc, 10.0)
    ec, sc, rulec = H.in_sample(resc, Zc, yc, 10.0)
    assert not rulec and sc != 1 and ec > 0
    assert H._hard_margin_bound(g.standard_normal((5, 3))) == math.inf  # more rows than columns


def test_hapmap_population_labels_and_n_train():
    """The trial's population ids are hapmap_like's (label="population"); n_train is stratified_split's size."""
    from rpcheck.papers.paul2014 import repro_hapmap as H
    from rpcheck.papers.paul2014._common import stratified_split
    from rpcheck.standins import hapmap_like

    for n in (150, 250, 1000):
        ds = hapmap_like(n=n, d=8, label="population", rng=1)
        assert np.array_equal(np.asarray(ds.y_raw), H._labels(n, "population"))
        reg = hapmap_like(n=n, d=8, label="region", rng=1)
        assert np.array_equal(np.asarray(reg.y_raw), H._labels(n, "region"))
        for task in ("region", "population"):
            lab = H._labels(n, task)
            assert stratified_split(lab, np.random.default_rng(0))[0].size == H.n_train(lab)
    ci = {"n": 250, "d": 4096, "rs": "512,1024,2048", "methods": "CW,RS,FHT,RG"}
    assert H._in_sample_expected(ci) == "HOLDS" and H.pop_r(ci) == 512
    assert H._in_sample_expected({**ci, "n": 1000, "d": 16384, "rs": "256,512"}) is None  # 256 < 665
    # population fits where certified (<= 1,500 population training rows, measured at full's r = 256) and inside
    # the solver's dense domain (n_tr 50 (r + 1) <= MAX_CELLS): every profile; not at 2,250 individuals with r = 512
    std = {"n": 1000, "d": 16384, "rs": "256,512,1024,2048", "methods": "CW,RS,FHT,RG"}
    assert H.pop_run(ci) and H.pop_run(std) and H.pop_run({**std, "n": 2250}) and H.pop_r({**std, "n": 2250}) == 256
    assert not H.pop_run({**std, "n": 2250, "rs": "512"})           # 1,500 x 50 x 513 > MAX_CELLS
    assert not H.pop_run({**std, "n": 2400, "d": 8192})             # 1,600 > POP_MAX_TRAIN training rows
    off = {"n": 2250, "d": 16384, "rs": "512", "methods": "RG"}
    diag = {"solver_errors": 0.0, "pop_solver_errors": 0.0, "err.RG.512": 1.0, "undetermined.RG.512": 0.0,
            "t_rp.RG.512": 0.1, "t_svm.RG.512": 1.0, "ein.region.RG.512": 0.0, "ein_status.region.RG.512": 1.0,
            "primal.region.RG.512": 0.002, "hm_bound.region.RG.512": math.inf}  # fmt: skip
    _, info = H.decide([_rec(**diag)], off)
    rows = {r["method"]: r for r in info["paper_vs"]}
    assert rows["population labels (50 classes)"]["eps_out_population"].startswith("not run at n = 2250, r = 512")
    assert rows["region labels: largest training error over 1 fits"]["eps_in_max_agrees"] is True


def test_rcv1_decide_rows():
    """Table IV rows (numeric at a Table IV r), the eps_out trend, Fig. 4's nnz rule (CW <= 1, others increasing),
    t_svm below full for CW only, CW's t_run below full."""
    from rpcheck.papers.paul2014 import repro_rcv1

    params = {"n": 2000, "d": 16384, "density": 0.003, "rs": "2048,4096", "methods": "CW,RG"}
    diag = {"solver_errors": 0.0, "err.full": 5.0, "gamma.full": 0.015, "t_svm.full": 1.0}
    for m, nnz, tsvm in (("CW", (0.98, 0.99), 0.2), ("RG", (40.0, 80.0), 3.0)):
        for r, e, z in zip((2048, 4096), (9.0, 8.0), nnz):
            diag |= {f"err.{m}.{r}": e, f"gamma.{m}.{r}": 0.016, f"t_rp.{m}.{r}": 0.01, f"t_svm.{m}.{r}": tsvm,
                     f"nnz.{m}.{r}": z}  # fmt: skip
    _, info = repro_rcv1.decide([_rec(**diag), _rec(**diag)], params)
    rows = {r["method"]: r for r in info["paper_vs"]}
    rg = rows["RG, r = 2048, stand-in 2000 x 16384"]
    assert rg["paper_eps_out"] == 9.24 and rg["paper_gamma"] == 0.0158 and rg["eps_out"] == 9.0
    assert rows["RG: eps_out along r = 2048, 4096"]["eps_out_trend_agrees"] is True
    assert rows["CW: nnz(X R) / nnz(X) along r = 2048, 4096 (Fig. 4)"]["nnz_ratio_agrees"] is True
    assert rows["RG: nnz(X R) / nnz(X) along r = 2048, 4096 (Fig. 4)"]["nnz_ratio_agrees"] is True
    below = rows["r = 2048: methods with t_svm below the full data's (1 s)"]
    assert below["tsvm_below_full"] == "CW" and below["tsvm_below_full_agrees"] is True
    assert rows["r = 4096: CW's t_run / full t_svm"]["cw_trun_over_full_agrees"] is True  # 0.21


def test_rcv1_multiclass_decide_rows():
    """Table III rows (eps_out and t_svm / full t_svm at a Table III r), the close-to-full row elsewhere, and the
    sentence rows shared with Table IV (eps_out trend, Fig. 4's nnz rule, t_svm below full for CW only, CW's
    t_run)."""
    from rpcheck.papers.paul2014 import repro_rcv1_multiclass as mc

    params = {"n": 450, "d": 16384, "density": 0.003, "classes": 5, "rs": "1024,2048", "methods": "CW,RG"}
    diag = {"solver_errors": 0.0, "err.full": 5.0, "undetermined.full": 0.0, "t_svm.full": 2.0}
    for m, nnz, tsvm in (("CW", (0.98, 0.99), 1.0), ("RG", (40.0, 80.0), 3.0)):
        for r, e, z in zip((1024, 2048), (9.0, 8.0), nnz):
            diag |= {f"err.{m}.{r}": e, f"undetermined.{m}.{r}": 0.01, f"t_rp.{m}.{r}": 0.5,
                     f"t_svm.{m}.{r}": tsvm, f"nnz.{m}.{r}": z}  # fmt: skip
    _, info = mc.decide([_rec(**diag), _rec(**diag)], params)
    assert info["undetermined_max"] == 0.01 and info["solver_errors"] == 0
    rows = {r["method"]: r for r in info["paper_vs"]}
    size = "stand-in 450 x 16384, 5 classes"
    full = rows[f"full data, {size}"]
    assert full["paper_eps_out"] == 11.83 and full["eps_out"] == 5.0
    rg = rows[f"RG, r = 2048, {size}"]
    assert rg["paper_eps_out"] == 17.47 and rg["eps_out"] == 8.0
    assert rg["paper_tsvm_over_full"] == pytest.approx(47.458 / 2.96) and rg["tsvm_over_full"] == 1.5
    assert rows[f"CW, r = 1024, {size}"]["eps_out_minus_full"] == 4.0  # r = 1024 is not in Table III
    assert rows["RG: eps_out along r = 1024, 2048"]["eps_out_trend_agrees"] is True
    assert "Table III has r = 2048" in rows[f"CW, r = 1024, {size}"]["paper_eps_out_minus_full"]
    assert rows["RG: nnz(X R) / nnz(X) along r = 1024, 2048 (Fig. 4)"]["nnz_ratio_agrees"] is True
    below = rows["r = 2048: methods with t_svm below the full data's (2 s)"]
    assert below["tsvm_below_full"] == "CW" and below["tsvm_below_full_agrees"] is True
    assert rows["r = 2048: CW's t_run / full t_svm"]["cw_trun_over_full_agrees"] is True  # 1.5 / 2
    trp = rows["CW: t_rp along r = 1024, 2048 (s)"]
    assert trp["cw_trp"] == "0.5, 0.5" and trp["cw_trp_agrees"] is None
    assert "0.0093, 0.0189, 0.0357" in trp["paper_cw_trp"]


def test_rcv1_multiclass_cell_cap_constraint():
    """The declared domains of the certified solver: the dense one on RS, FHT, RG's X R, n_train K (max r + 1) <=
    MAX_CELLS (the standard cell fits, one more class or ten more training rows do not), and the sparse one on the
    full data, n_train K + K d + 4 density d n_train <= MAX_SPARSE_CELLS (the paper-size CW cell of full fits
    and is exempt from the dense one; n_train exact from topic_counts and the stratified split)."""
    from rpcheck.papers.paul2014 import repro_rcv1_multiclass as mc
    from rpcheck.papers.paul2014._common import stratified_split
    from rpcheck.standins import topic_counts
    from rpcheck.svm.multiclass import MAX_CELLS, MAX_SPARSE_CELLS

    th = registry.get("paul2014.repro.rcv1_multiclass")
    cell = dict(th.profiles["standard"].cells[0])
    assert mc.n_train(900, 5) == 600 and 600 * 5 * 8_193 <= MAX_CELLS
    cap = next(c for c in th.constraints if "MAX_CELLS" in c.description and "dense" in c.description)
    assert cap.check(cell) and not cap.check({**cell, "classes": 6}) and not cap.check({**cell, "n": 920})
    paper = next(c for c in th.profiles["full"].cells if c["classes"] == 53)
    assert (paper["n"], paper["d"], paper["density"], paper["rs"], paper["methods"]) == (
        15_564, 47_236, 0.0014, "2048,4096,8192", "CW")
    assert cap.check(paper) and not cap.check({**paper, "methods": "CW,RG"})
    scap = next(c for c in th.constraints if "MAX_SPARSE_CELLS" in c.description)
    assert scap.check(paper) and mc.sparse_cells(paper) <= MAX_SPARSE_CELLS
    assert not scap.check({**paper, "density": 0.05})
    y = np.repeat(np.arange(5), topic_counts(900, 5))
    assert stratified_split(y, np.random.default_rng(0))[0].size == mc.n_train(900, 5)


def test_sparsity_decide():
    p = {"kind": "cw", "a": 4, "r": 64}
    recs = [_rec(ratio=3.0, dense_ratio=50.0)]
    assert sparsity.decide(recs, p)[0]["densification"] == Verdict.HOLDS
    assert sparsity.decide([_rec(ratio=5.0, dense_ratio=50.0)], p)[0]["densification"] == Verdict.VIOLATED


# ------------------------------------------------------------------ every trial matches its theorem

_SMALL = {
    "paul2014.repro.synthetic": {"family": "D1", "n": 40, "d": 200, "folds": 2, "rs": "16,32", "methods": "RG,CW"},
    "paul2014.repro.bundled": {"dataset": "diabetes", "kind": "gaussian", "rs": "5,20", "max_n": 80},
    "paul2014.repro.techtc": {"n": 40, "d": 1000, "folds": 2, "rs": "32,64", "C": 500.0, "boost": 0.3},
}


@pytest.mark.parametrize("theorem_id", PAUL_IDS)
def test_trial_outcomes_match_variants(theorem_id):
    th = registry.get(theorem_id)
    cell = _SMALL.get(theorem_id, th.profiles["quick"].cells[0])
    rec = th.trial(dict(cell), np.random.default_rng(0))
    assert set(rec.outcomes) == {v.name for v in th.variants}
    assert all(isinstance(o, Outcome) for o in rec.outcomes.values())
    assert all(np.isscalar(v) for v in rec.diagnostics.values())
    # the same seed replays the same trial (except wall-clock comparisons, listed by the module as TIMED_VARIANTS)
    rec2 = th.trial(dict(cell), np.random.default_rng(0))
    timed = set(getattr(sys.modules[th.trial.__module__], "TIMED_VARIANTS", ()))
    assert {k: o.holds for k, o in rec.outcomes.items() if k not in timed} == {
        k: o.holds for k, o in rec2.outcomes.items() if k not in timed}


def test_every_theorem_registered_with_both_numberings():
    for tid in PAUL_IDS:
        th = registry.get(tid)
        assert "arXiv" in th.citation.location and "TKDD" in th.citation.alt_location
        assert th.findings, tid


def test_bounds_doctests():
    import doctest

    failures, tried = doctest.testmod(B, verbose=False)
    assert tried > 20 and failures == 0


def test_bundled_trial_accepts_user_svmlight_file(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(11)
    X = rng.standard_normal((60, 6))
    y = np.where(X[:, 0] > 0, 1, -1)
    path = tmp_path / "toy.svm"
    dump_svmlight_file(X, y, str(path))
    th = registry.get("paul2014.repro.bundled")
    rec = th.trial({"dataset": f"file:{path}", "kind": "gaussian", "rs": "3,24", "max_n": 0}, rng)
    assert rec.outcomes["r_below_rho"].holds and not rec.outcomes["r_below_rho"].vacuous
    assert rec.outcomes["ball_given_e"].holds
    assert rec.diagnostics["rho"] == 6.0


# ------------------------------------------------------------------- planted-bug regressions (phase 2)


class _Ball:
    def __init__(self, lo, hi):
        self.dual_value, self.radius_sq = lo, hi


def test_thm36_stated_prob_compares_squared_radii():
    # B^2 = 4, B~^2 = 7 > (1 + 0.5) * 4 = 6: stated_prob must fail (certified). A comparison of B~ (= 2.65)
    # instead of B~^2 would hold: this test catches that fault. B~^2 = 5 < 6 holds.
    from rpcheck.papers.paul2014 import enclosing_ball as eb

    out = eb.evaluate_ball(0.1, 0.1, 5, 5, 1.0, 1.0, _Ball(4.0, 4.0), _Ball(7.0, 7.0), 0.5, e_other=0.3)
    assert not out["stated_prob"].holds and not out["stated_prob"].undetermined
    assert not out["prob_control"].holds and not out["prob_control"].undetermined
    assert not out["lower_control"].holds and not out["proof_step_control"].holds and not out["eB_control"].holds
    out = eb.evaluate_ball(0.1, 0.1, 5, 5, 1.0, 1.0, _Ball(4.0, 4.0), _Ball(5.0, 5.0), 0.5, e_other=0.3)
    assert out["stated_prob"].holds and out["stated_det"].holds is False  # 5 > (1 + 0.1) * 4
    assert not out["prob_control"].holds
    # straddling intervals are undetermined, not a benefit of the doubt
    out = eb.evaluate_ball(0.1, 0.1, 5, 5, 1.0, 1.0, _Ball(3.9, 4.0), _Ball(5.9, 6.1), 0.5)
    assert out["stated_prob"].undetermined and not out["stated_prob"].holds


def _flat_cell():
    t = registry.get("paul2014.lemma3.3")
    return next(c for c in t.profiles["ci"].cells if c["kind"] == "countsketch" and c["coherence"] == "flat")


def test_countsketch_embeds_the_flat_direction():
    # Lemma 3.3 at the derived r (P(e > eps) <= delta for every V) on V containing 1/sqrt(d): with independent
    # signs e ~ 2 sqrt(rho/r) ~ 0.1. A CountSketch whose signs are all +1 has E[R R^T] = I + (11^T - I)/r and
    # u^T R R^T u ~ 1 + (d - 1)/r ~ 1.93 for u = 1/sqrt(d) (d = 4096, r = 4400): e > eps in every draw, and this
    # test fails.
    cell = _flat_cell()
    rng = np.random.default_rng(2014)
    es = [embedding.embedding_trial(cell, rng).diagnostics["e"] for _ in range(5)]
    assert max(es) <= cell["eps"], es


def test_flat_cell_detects_all_plus_countsketch(monkeypatch):
    # The same cell with the sign fault planted (monkeypatched): the event fails in every draw.
    from rpcheck.sketches import countsketch as cs

    draw = cs.CWSketch._draw

    def plus_draw(self):
        draw(self)
        self.vals_ = np.abs(self.vals_)

    monkeypatch.setattr(cs.CWSketch, "_draw", plus_draw)
    cell = _flat_cell()
    rng = np.random.default_rng(2014)
    outs = [embedding.embedding_trial(cell, rng).outcomes["stated"] for _ in range(5)]
    assert all(not o.holds for o in outs) and min(o.statistic for o in outs) > 0.75  # ~ (d - 1)/r = 0.93


def test_c5_random_labels_separability_is_covers_count():
    from rpcheck.papers.paul2014 import norm_identity as ni

    # Cover (1965): n = 4 points in general position in R^1 with bias: P(Bin(3, 1/2) <= 1) = 1/2
    assert ni.p_separable(4, 1) == pytest.approx(0.5)
    assert ni.p_separable(40, 5) < 1e-5


def test_not_separable_projection_is_a_failure_of_margin_claims():
    out = margin.not_separable_outcomes(0.3)
    assert not out["stated"].holds and not out["stated"].vacuous
    assert not out["proof"].holds and not out["eq17"].holds and not out["obj_upper"].holds
    assert out["upper"].holds and out["eq16"].vacuous
    out = margin.not_separable_outcomes(1.2)
    assert out["stated"].vacuous and out["proof"].vacuous


def test_thm35_paux_unresolved_u_is_vacuous_not_a_counterexample():
    """Regression (ci calibration seed 42, cell 6): with labels so noisy that w~* = 0, u = X^T Y a~ is
    cancellation noise (||u||^2 = 5e-30 from summands of size ~1) outside the row space; paux then tested
    rounding and reported a false counterexample. Such draws are vacuous for paux (margin.PAUX_RESOLVED)."""
    from rpcheck.engine import registry
    from rpcheck.engine.runner import run_cell

    th = registry.get("paul2014.thm3.5")
    params = {"d": 256, "kind": "gaussian", "n": 40, "r": 64, "regime": "soft", "rho": 5}
    out = run_cell(th, params, trials=1, seed=42, backend="serial")
    paux = out.variants["paux"]
    assert paux.failures == 0 and paux.vacuous_trials == 1
