"""shi2012.fig2.trend: the exact-law inequalities (and an independent oracle of the closed form at tiny
values), the paired grid, the decision rule, its negative controls and the power behind every expected verdict
(rpcheck/papers/shi2012/fig2_trend.py docstring)."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict
from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import fig2_trend as t
from rpcheck.papers.shi2012 import fig3_trend as t3


def test_constraint_and_registration():
    assert not t.THEOREM.cell_problem({"n_grid": "30,60"})
    assert "n_grid" in t.THEOREM.cell_problem({"n_grid": "60,30"})
    assert t.PAPER_GRID == "30,60,90,120,150,180,210,240,270,300"       # Section 5.1: n = {30, 60, ..., 300}
    assert len(t.SERIES) == t.N_MC == 13


def test_exact_law_trends_hold_on_the_papers_grid_and_controls_are_refuted():
    """Every inequality the sentences assert is certified on the closed forms (the docstring's table), and
    every swapped inequality refuted: exact claims HOLDS, their controls VIOLATED."""
    ex = t.exact_checks(t.PAPER_GRID)
    assert {k: len(v) for k, v in ex.items()} == {"exact_n_p1": 36, "exact_n_p2": 36, "exact_eps": 40,
                                                  "exact_faster_below": 20, "exact_faster_ratio": 18}
    for name, items in ex.items():
        assert all(sign == 1 for *_, sign in items), name
        assert t._exact_verdict(items) is Verdict.HOLDS
        assert t._exact_verdict(items, reversed_=True) is Verdict.VIOLATED
        # the smallest relative gap is far above the margin: >= 5% (P2, c = 0.527, eps = 0.1, 270 -> 300)
        assert min((b - a) / b for _, a, b, _ in items) > 0.05, name
    # a few values of the docstring's table
    assert t.exact_p("p1", 0.827, 30, 0.1) == pytest.approx(0.145, abs=5e-4)
    assert t.exact_p("p2", 0.527, 300, 0.1) == pytest.approx(0.419, abs=5e-4)
    assert t.exact_p("p1", 0.827, 300, 0.3) == pytest.approx(7.78e-19, rel=1e-2)


def _p1_lower_oracle(r, c, n):
    """``P(c' <= r)`` for r in (0, 1) by a route independent of the Pearson-r density: with unit w, x and
    rows (a_l, b_l), b = c a + s z (s = sqrt(1 - c^2), z independent), c' <= r iff
    ``c rho + s z_1 <= k sqrt(Q)`` with ``rho = ||a|| ~ chi_n``, ``z_1 ~ N(0, 1)``, ``Q ~ chi2_{n-1}``,
    ``k = r s / sqrt(1 - r^2)``: a 2-D quadrature of a normal cdf."""
    from scipy import integrate, special, stats

    s = math.sqrt(1 - c * c)
    k = r * s / math.sqrt(1 - r * r)
    chi, q = stats.chi(n), stats.chi2(n - 1)

    def inner(rho):
        return integrate.quad(lambda Q: q.pdf(Q) * special.ndtr((k * math.sqrt(Q) - c * rho) / s),
                              q.ppf(1e-14), q.isf(1e-14), epsabs=0, epsrel=1e-11, limit=200)[0]

    return integrate.quad(lambda rho: chi.pdf(rho) * inner(rho), chi.ppf(1e-14), chi.isf(1e-14),
                          epsabs=0, epsrel=1e-10, limit=200)[0]


@pytest.mark.parametrize("c,n,eps", [(0.527, 300, 0.3), (0.827, 90, 0.3)])
def test_exact_p1_tiny_values_match_an_independent_oracle(c, n, eps):
    """P1 at 3e-4 and 7e-7 (the smallest values the exact rows compare that the oracle's 1e-14 truncation
    resolves): the closed form agrees to 1e-6 relative (measured 3e-10, 7e-9)."""
    oracle = _p1_lower_oracle((1 - eps) * c, c, n)
    if (1 + eps) * c < 1:                                      # the upper side: P(c' >= (1 + eps) c)
        oracle += 1 - _p1_lower_oracle((1 + eps) * c, c, n)
    assert B.fig2_p1_exact(c, n, eps) == pytest.approx(oracle, rel=1e-6)


def test_paired_grid_is_the_papers_projection_at_every_n():
    """The ratios at n_j are those of R_n = (first n_j rows of one N(0, 1) matrix)/sqrt(n_j) applied to w and x
    themselves; the same R projects both pairs."""
    grid = (3, 7, 20)
    rec = t.trial({"n_grid": "3,7,20"}, np.random.default_rng(5))
    Z = np.random.default_rng(5).standard_normal((20, 2))
    w = np.array([1.0, 0.0])
    for ci, cc in enumerate(t.COS):
        x = np.array([cc, math.sqrt(1 - cc * cc)])
        for j, n in enumerate(grid):
            R = Z[:n] / math.sqrt(n)
            rw, rx = R @ w, R @ x
            cos_p = (rw @ rx) / np.linalg.norm(rw) / np.linalg.norm(rx)
            assert rec.diagnostics[f"r1.{ci}.{j}"] == pytest.approx(cos_p / cc, rel=1e-12)
            assert rec.diagnostics[f"r2.{ci}.{j}"] == pytest.approx((rw @ rx) / (w @ x), rel=1e-12)


def test_eps_nesting_draw_by_draw():
    """f(eps = 0.3) <= f(eps = 0.1) on every draw (the kept intervals nest): the mc_eps rows' p01 = 0."""
    recs = [t.trial({"n_grid": "30,60"}, np.random.default_rng(i)) for i in range(300)]
    F = t._indicators(recs, 2)
    for m in t.METRICS:
        for cc in t.COS:
            assert not np.any(F[(m, cc, 0.3)] & ~F[(m, cc, 0.1)])


def test_rule_agrees_disagrees_and_not_decided():
    T = 500
    u = np.random.default_rng(0).random(T)
    assert t.pairs_decision([(u < 0.6, u < 0.3), (u < 0.3, u < 0.1)])[0] is Verdict.HOLDS
    assert t.pairs_decision([(u < 0.3, u < 0.6), (u < 0.1, u < 0.3)])[0] is Verdict.VIOLATED   # planted
    z = np.zeros(T, bool)
    assert t.pairs_decision([(u < 0.6, u < 0.3), (z, z)])[0] is Verdict.INCONCLUSIVE          # flat at 0
    v = np.random.default_rng(1).random((T, 2)) < 0.4
    assert t.pairs_decision([(v[:, 0], v[:, 1])])[0] is Verdict.INCONCLUSIVE                 # equal P


@pytest.mark.parametrize("p10,p01,T,level", [(0.12, 0.03, 150, 0.01), (0.2, 0.15, 400, 7.7e-4),
                                             (0.005, 0.0, 2000, 7.7e-4), (0.06, 0.05, 1000, 1e-4)])
def test_vectorised_step_power_equals_the_fig3_oracle(p10, p01, T, level):
    assert t.step_power(p10, p01, T, level) == pytest.approx(t3.step_power(p10, p01, T, level), abs=1e-12)


def test_step_power_matches_simulation_of_the_rule():
    rng = np.random.default_rng(3)
    p10, p01, T = 0.12, 0.03, 150
    hits = 0
    for _ in range(2000):
        u = rng.random(T)
        fa, fb = u < p10 + 0.2, (u >= p10) & (u < p10 + 0.2 + p01)      # decrease p10, increase p01
        hits += t.pairs_decision([(fa, fb)], alpha=0.01)[1][0]["p_dec"] <= 0.01
    pw = t.step_power(p10, p01, T, 0.01)
    assert abs(hits / 2000 - pw) < 4 * math.sqrt(pw * (1 - pw) / 2000) + 1e-3


def test_pilot_of_the_ci_grid_is_remeasured():
    """PILOT["30,60,90"] is what its comment says: 2,000 paired draws on SeedSequence(20122, spawn_key=(i,))."""
    g = t.parse_grid(t.CI_GRID)
    recs = [t.trial({"n_grid": t.CI_GRID}, np.random.default_rng(np.random.SeedSequence(20122, spawn_key=(i,))))
            for i in range(2000)]
    F = t._indicators(recs, len(g))
    for name, (kind, _) in t.SERIES.items():
        if kind == "eps":
            continue
        _, steps = t.pairs_decision([(F[A][:, jA], F[Bc][:, jB]) for _, A, Bc, jA, jB in t.comparisons(name, g)])
        assert tuple((s["b"], s["c"]) for s in steps) == t.PILOT[t.CI_GRID][name], name


def test_every_expected_verdict_has_its_power():
    """Controls are expected VIOLATED in every profile cell: their power must be >= 0.99 there; a claim is
    expected HOLDS only where its power is >= 0.99 (at the fewest trials running the cell)."""
    names = [v.name for v in t.THEOREM.variants]
    for prof_name, prof in t.THEOREM.profiles.items():
        for cell in prof.cells:
            pw = t.powers(cell["n_grid"], t.c.smallest_trials(t._PROFILES, cell))
            assert pw is not None, (prof_name, cell)
            for name in t.SERIES:
                assert pw[name][1] >= t.POWER_TARGET, (prof_name, cell, name)
                exp = t.THEOREM.variants[names.index(name)].expected_for(cell)
                assert (exp is Verdict.HOLDS) == (pw[name][0] >= t.POWER_TARGET), (prof_name, cell, name)
            for name in t.EXACT:
                assert t.THEOREM.variants[names.index(name)].expected_for(cell) is Verdict.HOLDS
                assert t.THEOREM.variants[names.index(f"{name}_reversed")].expected_for(cell) is Verdict.VIOLATED
    # the ci grid: every Monte Carlo claim expected HOLDS
    ci = t.THEOREM.profiles["ci"].cells[0]
    assert all(t.THEOREM.variants[names.index(n)].expected_for(ci) is Verdict.HOLDS for n in t.SERIES)


def test_decide_fills_the_paper_vs_rows():
    p = {"n_grid": t.CI_GRID}
    recs = [t.trial(p, np.random.default_rng(np.random.SeedSequence(9, spawn_key=(i,)))) for i in range(40)]
    verdicts, info = t.decide(recs, p)
    assert set(verdicts) == {v.name for v in t.THEOREM.variants}
    rows = info["paper_vs"]
    assert len(rows) == 8 + 4 + 2
    for r in rows:
        q = "faster" if "paper_faster" in r else "trend"
        assert r[f"paper_{q}"] and isinstance(r[q], str) and r[f"{q}_agrees"] in (True, False, None)
    # the unresolvable series (P1 at cos 0.827, eps 0.3) is reported from the exact law only
    assert any("no power" in r.get("trend", "") for r in rows)
    assert info["exact_n_p1"]["certified"] == info["exact_n_p1"]["inequalities"] == 8
