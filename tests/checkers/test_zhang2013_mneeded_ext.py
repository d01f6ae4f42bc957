"""Unit tests of zhang2013.m_needed and of zhang2013.thm2's extension (eps beyond 1/2, ranks 20 and 50).

Statistical tests state their false-alarm probability and use fixed seeds.
"""

import math

import numpy as np
import pytest
from scipy import stats

from rpcheck.engine import Verdict, get
from rpcheck.errors import RpcheckError
from rpcheck.papers.zhang2013 import bounds as B
from rpcheck.papers.zhang2013 import m_needed as M
from rpcheck.papers.zhang2013 import thm2
from rpcheck.papers.zhang2013._common import make_instance
from rpcheck.papers.zhang2013._recovery import draw
from rpcheck.svm.drp import drp, ridge_drp_closed_form, ridge_solution

CELL = {"n": 40, "d": 80, "r": 4, "target": 0.5, "delta": 0.1, "lam": 1.0, "loss": "square"}


# ------------------------------------------------------------------------------------------- m_needed
def test_factor_formula_equals_algorithm_1():
    """(lambda I_r + Z^T Z W)^{-1} Z^T y (the push-through form of (15)) equals Algorithm 1 (rpcheck.svm.drp)
    on the factor and the closed form (15) on the full X = Z V^T with R = V A (so that V^T R = A)."""
    rng = np.random.default_rng(0)
    inst = make_instance(30, 60, 3, rng=rng)
    A = rng.standard_normal((3, 11)) / math.sqrt(11)
    w = M.drp_square_factor(inst.Z, inst.y, 0.7, A @ A.T)
    assert np.allclose(w, drp(inst.Z, inst.y, 0.7, A, loss="square").w_tilde, rtol=1e-10, atol=1e-12)
    full = ridge_drp_closed_form(inst.X, inst.y, 0.7, inst.V @ A)
    assert np.allclose(inst.V @ w, full, rtol=1e-9, atol=1e-11)


def test_grid_is_log_spaced_and_ends_at_the_prescribed_m():
    g = M.m_grid(CELL)
    assert g[0] == CELL["r"] and g[-1] == M.prescribed_m(CELL) == B.cor7_min_dim(4, 1 / 3, 0.1, 0.25)
    assert all(b > a for a, b in zip(g, g[1:]))
    ratios = np.array(g[1:-1]) / np.array(g[:-2])
    assert np.all(ratios <= 2 ** 0.25 + 0.5 / g[0])  # quarter octaves (up to the ceiling)


def test_trial_outcomes_and_replay():
    a = M.trial(CELL, np.random.default_rng(3))
    b = M.trial(CELL, np.random.default_rng(3))
    assert a.outcomes == b.outcomes
    assert set(a.outcomes) == {v.name for v in M.THEOREM.variants}
    assert not a.outcomes["control_far_below"].holds and not a.outcomes["control_far_below"].undetermined
    # the trial's grid values: rel at the prescribed m is the last grid point
    g = M.m_grid(CELL)
    assert a.diagnostics[f"rel_{len(g) - 1:02d}"] == a.diagnostics["rel_at_m"]
    first = a.outcomes["m_needed"].statistic
    assert first in g or math.isinf(first)


def test_explicit_m_is_used_by_the_sufficient_row():
    """`rpcheck constant` varies m: the 'sufficient' row is evaluated at the cell's m; m = 2 < r fails."""
    rec = M.trial(dict(CELL, m=2), np.random.default_rng(1))
    assert rec.diagnostics["m"] == 2.0 and not rec.outcomes["sufficient"].holds


def test_control_derivation_lower_bound_and_law():
    """rel >= ||P_N b||/(rho ||b||) on the planted instance (checked on draws), and the derived failure
    probability is >= 1 - 6.4e-4 with the refutation power >= 0.999 in every profile cell; no planted draw is
    undetermined (the rounding allowance stays small at rho = 1e-3)."""
    rng = np.random.default_rng(5)
    for r in (2, 3, 8):
        for _ in range(20):
            rel, lo, hi, m_c = M.planted_far_below(r, 0.5, rng)
            assert m_c == r // 2 and lo <= rel <= hi and lo > 0.5 and hi < 1.001 * rel
    for prof in M.PROFILES.values():
        for cell in prof.cells:
            assert M.control_failure_lower(cell) >= 1 - 6.4e-4
            assert M._expected_control(cell) is Verdict.VIOLATED


def test_control_null_space_projection_is_beta_distributed():
    """||P_N b||^2/||b||^2 ~ Beta((r - m)/2, m/2) for the null space N of an r x m Gaussian (m < r), b fixed:
    KS test, false alarm 1e-3 (the law used by the control's derivation)."""
    rng = np.random.default_rng(2)
    r, m = 5, 2
    b = np.ones(r) / math.sqrt(r)
    q = []
    for _ in range(1500):
        G = rng.standard_normal((r, m))
        Q, _ = np.linalg.qr(G)  # range of W; N is its orthogonal complement
        q.append(1.0 - float(np.sum((Q.T @ b) ** 2)))
    assert stats.kstest(q, stats.beta((r - m) / 2, m / 2).cdf).pvalue > 1e-3


def test_sufficient_expectation_is_derived():
    for prof in M.PROFILES.values():
        for cell in prof.cells:
            assert M._expected_sufficient(cell) is Verdict.HOLDS
    # below the prescribed m there is no bound: reported
    assert M._expected_sufficient(dict(CELL, m=10)) is None


def test_decide_bracket():
    rng = np.random.default_rng(4)
    recs = [M.trial(CELL, rng) for _ in range(60)]
    verdicts, info = M.decide(recs, CELL)
    assert verdicts["m_needed"] is Verdict.INCONCLUSIVE
    g = info["grid"]
    assert info["m_T2"] == g[-1] and len(info["failures"]) == len(g)
    assert info["m_hat"] in g
    if info["m_lo"] is not None:
        assert info["m_lo"] < info["m_hat"]
    assert all(0 <= k <= 60 for k in info["failures"]) and info["trials"] == 60


def test_registered_and_domains():
    th = get("zhang2013.m_needed")
    assert th.constant_search["param"] == "m" and th.variant("sufficient").assumed
    assert th.cell_problem(dict(CELL, r=1)) is not None  # the control needs r >= 2
    assert th.cell_problem(dict(CELL, target=1.5)) is not None  # eps_t = t/(1+t) <= 1/2
    assert th.cell_problem(dict(CELL, loss="hinge")) is not None


# ------------------------------------------------------------------------------------------- thm2 extension
def test_thm2_extension_expectations():
    """eps > 1/2: reported (outside the stated range); eps <= 1/2 at c = 1/4: the derived HOLDS."""
    for prof in thm2.PROFILES.values():
        for cell in prof.cells:
            exp = thm2.expected_stated(cell)
            if cell["eps"] > 0.5 or cell["c"] > 0.25:
                assert exp is None
    for cell in thm2.EXTENSION["standard"]:
        if cell["eps"] <= 0.5 and cell["c"] == 0.25:
            assert thm2.expected_stated(cell) is Verdict.HOLDS
    th = get("zhang2013.thm2")
    assert th.cell_problem(dict(thm2.EXTENSION["ci"][0], eps=1.0)) is not None


def test_law_sampler_matches_sketch_law():
    """eps_R with A = V^T R drawn in law and from an explicit Gaussian R: same law (KS, false alarm 1e-3);
    the law sampler refuses non-Gaussian kinds and keep_R."""
    p = {"n": 20, "d": 40, "r": 3, "m": 12, "lam": 1.0, "loss": "square"}
    rng = np.random.default_rng(9)
    a = [draw(dict(p, sampler="law"), rng).eps_R for _ in range(600)]
    b = [draw(p, rng).eps_R for _ in range(600)]
    assert stats.ks_2samp(a, b).pvalue > 1e-3
    with pytest.raises(RpcheckError, match="sampler"):
        draw(dict(p, sampler="law", kind="srht"), rng)
    with pytest.raises(RpcheckError, match="sampler"):
        draw(dict(p, sampler="nope"), rng)


def test_ridge_reference_in_factor_coordinates():
    rng = np.random.default_rng(0)
    inst = make_instance(25, 50, 3, rng=rng)
    assert np.allclose(inst.V @ ridge_solution(inst.Z, inst.y, 1.0), ridge_solution(inst.X, inst.y, 1.0))
