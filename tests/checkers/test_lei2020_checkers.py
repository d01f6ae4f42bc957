"""Structure and single-trial behaviour of the Lei & Lan (2020) theorems (fast, deterministic seeds)."""

import numpy as np
import pytest

import rpcheck.papers.lei2020  # noqa: F401  (registers the theorems)
from rpcheck.engine import PROFILES, registry
from rpcheck.engine.theorem import Verdict

LEI = [t for t in registry.all_theorems() if t.paper == "lei2020"]


def test_all_lei_theorems_registered():
    ids = {t.id for t in LEI}
    assert ids == {
        "lei2020.rotation", "lei2020.energy", "lei2020.flattening", "lei2020.unbiased", "lei2020.prop1",
        "lei2020.replacement", "lei2020.dkm", "lei2020.nps_trace", "lei2020.prop2", "lei2020.topr",
        "lei2020.supervised", "lei2020.toy", "lei2020.selection_dual", "lei2020.dual_perturbation",
        "lei2020.comparison", "lei2020.rsweep", "lei2020.fig2", "lei2020.stability", "lei2020.table2", "lei2020.jl",
        "lei2020.sparse_scale", "lei2020.dlss", "lei2020.toy_accuracy", "lei2020.timing",
        "lei2020.sparse_baselines", "lei2020.jl.shape", "lei2020.jl_sketches", "lei2020.table2_prose",
    }  # fmt: skip


@pytest.mark.parametrize("th", LEI, ids=lambda t: t.id)
def test_theorem_contract(th):
    names = {v.name for v in th.variants}
    for f in th.findings:
        assert f.evidence_variant in names, (th.id, f.key)
    for prof in PROFILES:
        for cell in th.profiles[prof].cells:
            for v in th.variants:
                exp = v.expected_for(cell)
                assert exp is None or isinstance(exp, Verdict)
                if v.mode == "bound":
                    assert 0 < v.delta_for(cell) < 1


CHEAP = ["lei2020.rotation", "lei2020.energy", "lei2020.flattening", "lei2020.unbiased", "lei2020.prop1",
         "lei2020.replacement", "lei2020.dkm", "lei2020.nps_trace", "lei2020.prop2", "lei2020.topr",
         "lei2020.supervised", "lei2020.toy", "lei2020.table2"]  # fmt: skip


#: controls that fail with probability < 1 per draw (toy: SRHT picks the discriminative coordinate w.p. 1/2)
_FAILS_ONLY_SOMETIMES = {"control_srht_always_discriminative"}


@pytest.mark.parametrize("tid", CHEAP)
def test_quick_cell_trial_matches_expected_deterministic_verdicts(tid):
    """One trial of the first quick cell: every deterministic variant expected HOLDS holds, and the
    printed statements expected VIOLATED fail (they fail on every draw of these cells)."""
    th = registry.get(tid)
    cell = dict(th.profiles["quick"].cells[0])
    rec = th.trial(dict(cell), np.random.default_rng(0))
    assert set(rec.outcomes) == {v.name for v in th.variants}
    for v in th.variants:
        o = rec.outcomes[v.name]
        exp = v.expected_for(cell)
        if v.mode != "deterministic" or o.vacuous or v.name in _FAILS_ONLY_SOMETIMES:
            continue
        if exp == Verdict.HOLDS:
            assert o.holds, (v.name, o)
        elif exp == Verdict.VIOLATED:
            assert not o.holds, (v.name, o)


def test_svm_trials_run_and_hold():
    th = registry.get("lei2020.dual_perturbation")
    rec = th.trial(dict(th.profiles["quick"].cells[0]), np.random.default_rng(1))
    assert rec.outcomes["bound"].holds
    th = registry.get("lei2020.selection_dual")
    rec = th.trial(dict(n=24, d=32, r=8, C=np.inf, noise=0.0), np.random.default_rng(2))
    assert rec.outcomes["margin_shrinks"].holds and not rec.outcomes["margin_shrinks"].vacuous


def test_toy_srht_choice_is_fair_coin():
    """Toy example: over 200 seeded trials the SRHT pick of the discriminative coordinate is Bin(200, 1/2);
    two-sided exact binomial test at 1e-4 (false alarm <= 1e-4)."""
    from scipy.stats import binomtest

    th = registry.get("lei2020.toy")
    k = sum(
        th.trial({"n_per_class": 20}, np.random.default_rng(i)).outcomes["srht_picks_useless_half"].holds
        for i in range(200)
    )
    assert binomtest(k, 200, 0.5).pvalue > 1e-4


def test_comparison_decide_on_synthetic_records():
    from rpcheck.engine import TrialRecord
    from rpcheck.papers.lei2020 import comparison as e

    rng = np.random.default_rng(0)
    methods = ["all", "pca", "gaussian", "achlioptas", "countsketch", "srht", "srht-nps", "srht-topr",
               "srht-supervised", "srht-supervised-largest"]  # fmt: skip
    base = dict(zip(methods, [99, 97, 90, 90, 90, 90, 91, 95, 96, 80]))
    recs = []
    for _ in range(8):  # 8 repetitions: the sign test's smallest p-value 2^-8 is below its level 0.01
        diag = {}
        for m in methods:
            diag[f"acc.{m}"] = base[m] + rng.normal(0, 0.5)
            diag[f"time.{m}"] = 1.0
            diag[f"C.{m}"] = 1.0
        recs.append(TrialRecord(outcomes=e.sentence_outcomes(diag), diagnostics=diag))
    verdicts, info = e.decide(recs, {"dataset": "breast_cancer", "r": 8, "folds": 3, "c_grid": "ci"})
    assert verdicts["c17_topr_gt_srht"] == Verdict.HOLDS
    assert verdicts["c21_supervised_best"] == Verdict.HOLDS
    assert verdicts["c21_largest_ge_srht"] == Verdict.VIOLATED
    assert verdicts["c22_all_best"] == Verdict.HOLDS
    assert len(info["summary"]) == len(methods)
    assert "sign test" in info["claim"] and "0.01" in info["claim"]
    # 5 repetitions cannot reach the level: 2^-5 = 0.031 > 0.01
    verdicts, _ = e.decide(recs[:5], {"dataset": "breast_cancer", "r": 8, "folds": 3, "c_grid": "ci"})
    assert verdicts["c17_topr_gt_srht"] == Verdict.INCONCLUSIVE


def test_sign_test_levels():
    from scipy.stats import binom

    from rpcheck.papers.lei2020._empirical import sign_test

    assert sign_test(7, 7)[0] == Verdict.HOLDS and sign_test(0, 7)[0] == Verdict.VIOLATED
    assert sign_test(6, 6)[0] == Verdict.INCONCLUSIVE  # 2^-6 = 0.0156 > 0.01
    # size: under p = 1/2 the probability of HOLDS is <= 0.01 for every n
    for n in range(1, 40):
        rej = [k for k in range(n + 1) if sign_test(k, n)[0] == Verdict.HOLDS]
        assert not rej or binom.sf(min(rej) - 1, n, 0.5) <= 0.01


@pytest.mark.parametrize("th", LEI, ids=lambda t: t.id)
def test_parameters_declared_and_every_profile_cell_valid(th):
    """Every lei2020 theorem declares its parameter domains and every cell of every profile is inside them
    (the Theorem constructor also checks this at import)."""
    assert th.parameters is not None
    for prof in PROFILES:
        for cell in th.profiles[prof].cells:
            assert th.cell_problem(cell) is None, (prof, cell)
            assert set(cell) <= set(th.parameters), (prof, cell)


def test_r_grids_resolve_against_the_data_set():
    from rpcheck.papers.lei2020 import _empirical as e

    # the paper's Fig. 3 grid {d/64, ..., d/2} with d the padded dimension: mushrooms d = 112 -> d' = 128
    assert e.paper_r_grid(112) == (2, 4, 8, 16, 32, 64)
    assert e.paper_r_grid(30) == (1, 2, 4, 8, 16)  # breast_cancer: 32/64 < 1 is dropped
    assert e.resolve_r_values("paper", "digits") == (1, 2, 4, 8, 16, 32)
    st, rs = registry.get("lei2020.stability"), registry.get("lei2020.rsweep")
    # r = 64 > d' = 32 on breast_cancer is an invalid cell
    assert "not satisfied" in st.cell_problem({"dataset": "breast_cancer", "r_values": "2,64", "c_grid": "ci"})
    assert "not satisfied" in st.cell_problem({"dataset": "breast_cancer", "r_values": "3,8", "c_grid": "ci"})
    assert st.cell_problem({"dataset": "breast_cancer", "r_values": "paper", "c_grid": "paper"}) is None
    assert "not satisfied" in rs.cell_problem(
        {"dataset": "breast_cancer", "r_values": "2,8,64", "folds": 3, "c_grid": "ci"}
    )
    cmpth = registry.get("lei2020.comparison")
    assert "not satisfied" in cmpth.cell_problem({"dataset": "breast_cancer", "r": 64, "folds": 3, "c_grid": "ci"})


def test_invalid_cell_is_an_error_at_construction():
    import dataclasses

    from rpcheck.engine import Profile
    from rpcheck.errors import RpcheckError

    st = registry.get("lei2020.stability")
    bad = dict(st.profiles)
    bad["standard"] = Profile(cells=({"dataset": "breast_cancer", "r_values": "2,4,64", "c_grid": "paper"},), trials=1)
    with pytest.raises(RpcheckError, match="r_values"):
        dataclasses.replace(st, profiles=bad)


@pytest.mark.parametrize("case", ["gaussian", "near_coincident", "tiny", "huge", "lowrank"])
def test_jl_pair_distances_match_the_difference_formula(case):
    """lei2020.jl's Gram-based pair distances equal the difference formula to 1e-10 relative, including
    near-coincident points (recomputed from their differences) and extreme scales (rescaled first)."""
    from rpcheck.papers.lei2020.jl import _pair_distances

    rng = np.random.default_rng(7)
    X = {
        "gaussian": rng.standard_normal((60, 4096)),
        "near_coincident": np.vstack([np.full((1, 50), 1e3), np.full((1, 50), 1e3) + 1e-9 * rng.standard_normal(50),
                                      rng.standard_normal((5, 50))]),
        "tiny": rng.standard_normal((20, 64)) * 1e-200,
        "huge": rng.standard_normal((20, 64)) * 1e200,
        "lowrank": rng.standard_normal((40, 3)) @ rng.standard_normal((3, 500)) + 1e6,
    }[case]
    i, j = np.triu_indices(X.shape[0], 1)
    s = 2.0 ** np.round(np.log2(np.max(np.abs(X))))  # the reference at unit scale (exact power of 2)
    D = (X[i] - X[j]) / s
    ref = np.sqrt(np.einsum("ij,ij->i", D, D)) * s
    got = _pair_distances(X)
    assert np.all(np.abs(got / ref - 1.0) <= 1e-10)


#: per-row levels at or below the first Holm step of each profile's suite-wide family (as in the power comments)
_LEVELS = {"quick": 1e-4, "ci": 1.4e-5, "standard": 5e-6, "full": 5e-6}


def test_jl_gaussian_expected_holds_by_derivation():
    """lei2020.jl's ``gaussian`` row is expected HOLDS in every cell of every profile; the backing is the exact
    chi-square union bound (jl.gaussian_failure_upper), with power >= 0.99 at each profile's trials and level.
    The bound itself: for one pair at r = 164, eps = 1/2, a simulation of chi2_r / r (200,000 draws) never leaves
    [0.25, 2.25], consistent with the exact tail 2e-17 (a sanity check; the bound is exact arithmetic)."""
    from scipy.special import gammainc, gammaincc

    from rpcheck.papers.lei2020.jl import gaussian_failure_upper
    from rpcheck.stats import holds_power

    th = registry.get("lei2020.jl")
    gauss = next(v for v in th.variants if v.name == "gaussian")
    for name, prof in th.profiles.items():
        for cell in prof.cells:
            assert gauss.expected_for(cell) is Verdict.HOLDS
            p = gaussian_failure_upper(cell)
            assert p <= 1e-13
            assert holds_power("bound", prof.trials, p, cell["delta"], _LEVELS[name]) >= 0.99, (name, cell)
    r = 164
    one = gammainc(r / 2, r * 0.25 / 2) + gammaincc(r / 2, r * 2.25 / 2)
    assert gaussian_failure_upper({"n": 10, "eps": 0.5, "delta": 0.1}) == pytest.approx(45 * one)
    q = np.random.default_rng(11).chisquare(r, 200_000) / r
    assert q.min() > 0.25 and q.max() < 2.25


def test_dkm_expected_holds_by_derivation():
    """lei2020.dkm's ``nps`` and ``uniform_with`` rows are expected HOLDS in every cell of every profile; the
    backing is dkm.derived_failure_upper (McDiarmid: P(fail) <= delta^8 for any data), with power >= 0.99 at each
    profile's trials and level. The derivation's two data-dependent steps are checked by simulation (gaussian
    data, 2,000 nps draws at r = 4): the exact variance and a tail at a threshold where the bound is not small."""
    from rpcheck.papers.lei2020 import _common as c
    from rpcheck.papers.lei2020.dkm import derived_failure_upper
    from rpcheck.sketches import make_sketch
    from rpcheck.stats import holds_power

    th = registry.get("lei2020.dkm")
    rows = [v for v in th.variants if v.name in ("nps", "uniform_with")]
    assert len(rows) == 2
    for name, prof in th.profiles.items():
        for cell in prof.cells:
            p = derived_failure_upper(cell["delta"])
            assert p == pytest.approx(cell["delta"] ** 8) and p <= 1.0001e-8
            for v in rows:
                assert v.expected_for(cell) is Verdict.HOLDS
            assert holds_power("bound", prof.trials, p, cell["delta"], _LEVELS[name]) >= 0.99, (name, cell)
    # (1) for nps the variance step is exact, E ||K~ - K||_F^2 = (F^2 - ||K||_F^2) / r: checked to 5 standard
    # errors (two-sided false alarm 6e-7). (2) The McDiarmid step at a threshold s F / sqrt(r) in place of the
    # bound (beta = 1): P(||K~ - K||_F > s F / sqrt(r)) <= exp(-(s - 1)^2), 0.105 at s = 2.5; the simulated
    # rate must not exceed it.
    rng = np.random.default_rng(20261127)
    r, s, n_draws = 4, 2.5, 2000
    X = c.make_data("gaussian", 30, 32, rng)
    K, F = X @ X.T, float(np.sum(X**2))
    sq = np.empty(n_draws)
    for i in range(n_draws):
        Z = make_sketch("srht-nps", 32, r, rng=rng).fit(X).apply(X)
        sq[i] = np.linalg.norm(Z @ Z.T - K) ** 2
    want = (F**2 - np.linalg.norm(K) ** 2) / r
    assert abs(sq.mean() - want) <= 5 * sq.std(ddof=1) / np.sqrt(n_draws)
    assert np.mean(np.sqrt(sq) > s * F / np.sqrt(r)) <= np.exp(-((s - 1) ** 2))


def test_flattening_expected_holds_by_derivation():
    """lei2020.flattening's ``bound`` row is expected HOLDS in every cell; at standard and full the backing is
    rpcheck.papers.lei2020.bounds.flattening_failure_upper (P(fail) <= sqrt(e K) delta / (2n) for ANY data, K =
    2 ln(2nd'/delta)), with power >= 0.999 at each profile's trials and level; quick and ci keep their pilots
    (the derivation alone gives 0.90 and 0.94 there). The derivation's per-column step P(c_j d'/F >= K) <=
    sqrt(K) e^{-(K-1)/2} and its union bound are checked exactly: all 2^16 sign vectors at d = 16, on each data
    family of the checker and on the rank-one flat row (the worst case of the derivation), with the library's
    rotation tied to the formula c_j = ||X diag(h_j) s||^2 / d'."""
    from scipy.linalg import hadamard

    from rpcheck.papers.lei2020 import _common as c
    from rpcheck.papers.lei2020.bounds import flattening_bound, flattening_failure_upper
    from rpcheck.sketches import make_sketch
    from rpcheck.sketches._fwht import next_pow2
    from rpcheck.stats import holds_power

    th = registry.get("lei2020.flattening")
    bound = next(v for v in th.variants if v.name == "bound")
    for name in ("standard", "full"):
        prof = th.profiles[name]
        for cell in prof.cells:
            d_pad = next_pow2(cell["d"])
            p = flattening_failure_upper(cell["n"], d_pad, cell["delta"])
            k = 2 * np.log(2 * cell["n"] * d_pad / cell["delta"])
            assert p == pytest.approx(np.sqrt(np.e * k) * cell["delta"] / (2 * cell["n"]))
            assert p <= 0.05 * cell["delta"]
            assert bound.expected_for(cell) is Verdict.HOLDS
            assert holds_power("bound", prof.trials, p, cell["delta"], _LEVELS[name]) >= 0.999, (name, cell)

    d = 16
    H = hadamard(d).astype(float)
    S = 1.0 - 2.0 * ((np.arange(1 << d)[:, None] >> np.arange(d)) & 1)  # every sign vector, one per row
    rng = np.random.default_rng(20261127)
    data = {kind: c.make_data(kind, 6, d, rng) for kind in ("gaussian", "scaled", "lowrank", "spiky")}
    data["rank_one_flat"] = np.ones((1, d))
    ks = np.array([1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0])
    for kind, X in data.items():
        F = float(np.sum(X**2))
        # c_j for every sign vector: (2^16, d') energies of X diag(s) H / sqrt(d')
        E = np.einsum("snj,snj->sj", *(2 * [np.einsum("nk,sk,kj->snj", X, S, H) / np.sqrt(d)]))
        ratio = E * d / F  # c_j d' / F, mean 1 over the signs
        assert np.allclose(ratio.mean(axis=0), 1.0)
        per_col = (ratio[:, :, None] >= ks).mean(axis=0)  # exact P(c_j d'/F >= K), shape (d', len(ks))
        assert np.all(per_col <= np.sqrt(ks) * np.exp(-(ks - 1) / 2)), kind
        union = (ratio.max(axis=1)[:, None] >= ks).mean(axis=0)
        assert np.all(union <= np.minimum(1, d * np.sqrt(ks) * np.exp(-(ks - 1) / 2))), kind
        for n_rows, delta in ((1, 0.5), (X.shape[0], 0.5), (X.shape[0], 0.9)):
            exact = np.mean(E.max(axis=1) / F > flattening_bound(n_rows, d, delta))
            assert exact <= flattening_failure_upper(n_rows, d, delta), (kind, n_rows, delta)
        sk = make_sketch("srht-topr", d, 1, rng=rng).fit(X)
        s = np.asarray(sk.signs_, dtype=float)
        direct = np.sum((X @ np.diag(s) @ H) ** 2, axis=0) / d
        assert np.allclose(np.sort(sk.column_energies_), np.sort(direct), rtol=1e-12, atol=1e-12 * F)


def test_table2_table3_fig3_arithmetic():
    """The exact numbers behind lei2020.table2's split and Fig. 3 grid rows (module docstring)."""
    from fractions import Fraction

    from rpcheck.papers.lei2020 import table2 as t

    assert t.train_fraction("mushrooms") == Fraction(6000, 8124)
    assert round(float(t.train_fraction("mushrooms")), 4) == 0.7386
    assert all(round(float(t.train_fraction(k)), 3) == 0.670 for k in ("real-sim", "rcv1-binary", "news20-binary"))
    assert not any(t.reads_as_70(t.train_fraction(k)) for k in t.SPLIT_70_30)
    assert t.reads_as_70(Fraction(5687, 8124))  # round(0.7 * 8124) = 5687
    assert [float(v) for v in t.fig3_r_grid(112)] == [1.75, 3.5, 7.0, 14.0, 28.0, 56.0]
    assert [int(v) for v in t.fig3_r_grid(128)] == [2, 4, 8, 16, 32, 64]


def test_rotation_alg1_prediction_instance():
    """The fixed instance of lei2020.rotation's Alg. 1 prediction rows: w = 1, b = -2 (by hand)."""
    from rpcheck.papers.lei2020 import rotation as rot

    w, b = rot._alg1_model()
    assert np.allclose(w, [1.0], atol=1e-8) and abs(b + 2.0) < 1e-8
    out = rot._alg1_prediction_outcomes()
    assert not out["alg1_prediction_as_printed"].holds
    assert out["alg1_prediction_with_bias"].holds
    assert not out["control_prediction_flipped_bias"].holds


@pytest.mark.parametrize("data", ["spiky", "gaussian"])
def test_prop2_control_fails_when_every_rotated_column_has_the_same_energy(data):
    """On "spiky" data (rows c_i e_j) the rotation gives every column energy ||X||_F^2 / d', so every r-subset
    minimises eq. (7)'s RHS and the planted "a random subset minimises it" is true there. The control must still fail,
    on the tightened bound (a) alone. Both data kinds, several draws: the control fails on each."""
    th = registry.get("lei2020.prop2")
    cell = {"n": 60, "d": 128, "r": 16, "data": data}
    for seed in range(5):
        rec = th.trial(dict(cell), np.random.default_rng(seed))
        assert rec.diagnostics["energies_tied"] == float(data == "spiky")
        assert not rec.outcomes["control_planted"].holds
