"""shi2012.fig3_4.trend: the paired grid, the decision rule, its negative control and the power behind every
expected verdict (rpcheck/papers/shi2012/fig3_trend.py docstring)."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict
from rpcheck.papers.shi2012 import fig3_4 as f34
from rpcheck.papers.shi2012 import fig3_trend as t


def test_parse_grid_and_constraint():
    assert t.parse_grid("10,20,40,80") == (10, 20, 40, 80)
    for bad in ("10", "20,10", "10,10", "0,5", "a,b", ""):
        assert t.parse_grid(bad) == ()
    assert not t.THEOREM.cell_problem({"n_grid": "10,20", "eps": 0.1})
    assert "n_grid" in t.THEOREM.cell_problem({"n_grid": "20,10", "eps": 0.1})


def test_paired_grid_is_the_papers_projection_at_every_n():
    """The ratios of the trial at n_j are those of R_n = (first n_j rows of one N(0,1) matrix)/sqrt(n_j) applied
    to the points themselves (not the rotated coordinates): the rotation argument and the nesting agree."""
    grid = (5, 12, 30)
    rec = t.trial({"n_grid": "5,12,30", "eps": 0.1}, np.random.default_rng(11))
    rng = np.random.default_rng(11)
    for L in (2, 3):
        X, y, T, g_norm, g_un, _, _ = f34._fig3_data(L)
        Q = np.linalg.qr(X.T)[0]                            # X = T Q^T
        Gmax = rng.standard_normal((T.shape[1], grid[-1]))   # the trial's draw: Q^T R_max^T
        # an R_max with Q^T R_max^T = Gmax: R_max^T = Q Gmax + (I - Q Q^T) H for any H
        H = np.random.default_rng(5).standard_normal((X.shape[1], grid[-1]))
        Rmax_T = Q @ Gmax + (np.eye(X.shape[1]) - Q @ Q.T) @ H
        nm = "fig3a" if L == 2 else "fig3c"
        un = "fig3b" if L == 2 else "fig3d"
        for j, n in enumerate(grid):
            F = X @ (Rmax_T[:, :n] / math.sqrt(n))           # rows R_n x_i
            gn, gu, _, _ = f34._margins(F, y)
            assert rec.diagnostics[f"{nm}.r{j}"] == pytest.approx(gn / g_norm, abs=1e-6)
            assert rec.diagnostics[f"{un}.r{j}"] == pytest.approx(gu / g_un, rel=1e-6)


def test_rule_agrees_disagrees_and_not_decided():
    T = 400
    rng = np.random.default_rng(0)
    # P = 0.6, 0.3, 0.1 nested (a draw kept at n_j stays kept): every step a clean decrease
    u = rng.random(T)
    F = np.stack([u < 0.6, u < 0.3, u < 0.1], axis=1)
    assert t.panel_decision(F)[0] is Verdict.HOLDS
    assert t.panel_decision(F[:, ::-1])[0] is Verdict.VIOLATED          # the control's planted fault
    # flat at 0 after the first step: the decrease there cannot be shown -> not decided
    F2 = np.stack([u < 0.6, np.zeros(T, bool), np.zeros(T, bool)], axis=1)
    assert t.panel_decision(F2)[0] is Verdict.INCONCLUSIVE
    # independent draws with equal P: no verdict either way (false alarm <= ALPHA_PANEL per direction)
    F3 = rng.random((T, 3)) < 0.4
    assert t.panel_decision(F3)[0] is Verdict.INCONCLUSIVE


def test_step_power_matches_simulation_of_the_rule():
    rng = np.random.default_rng(3)
    p10, p01, T = 0.12, 0.03, 150
    hits = 0
    for _ in range(2000):
        u = rng.random(T)
        F = np.stack([u < p10 + 0.2, (u >= p10) & (u < p10 + 0.2 + p01)], axis=1)   # decrease p10, increase p01
        hits += t.panel_decision(F, alpha=0.01)[1][0]["p_dec"] <= 0.01
    pw = t.step_power(p10, p01, T, 0.01)
    assert abs(hits / 2000 - pw) < 4 * math.sqrt(pw * (1 - pw) / 2000) + 1e-3


def test_every_expected_verdict_has_its_power():
    """Controls are expected VIOLATED in every profile cell: their power must be >= 0.99 there; a claim is
    expected HOLDS only where its power is >= 0.99 (computed at the fewest trials running the cell)."""
    for name, prof in t.THEOREM.profiles.items():
        for cell in prof.cells:
            pw = t.powers(cell["n_grid"], cell["eps"], t.c.smallest_trials(t._PROFILES, cell))
            assert pw is not None, (name, cell)
            for panel in f34.PANELS:
                assert pw[panel][1] >= t.POWER_TARGET, (name, cell, panel)
                names = [v.name for v in t.THEOREM.variants]
                exp = t.THEOREM.variants[names.index(f"trend_{panel}")].expected_for(cell)
                assert (exp is Verdict.HOLDS) == (pw[panel][0] >= t.POWER_TARGET)


def test_decide_fills_the_paper_vs_rows():
    p = {"n_grid": "10,20,40,80", "eps": 0.1}
    recs = [t.trial(p, np.random.default_rng(np.random.SeedSequence(9, spawn_key=(i,)))) for i in range(30)]
    verdicts, info = t.decide(recs, p)
    assert set(verdicts) == {v.name for v in t.THEOREM.variants}
    rows = info["paper_vs"]
    assert len(rows) == 4 and all("P_trend_agrees" in r and r["paper_P_trend"] for r in rows)
    for r, panel in zip(rows, f34.PANELS):
        assert r["P_trend_agrees"] == {Verdict.HOLDS: True, Verdict.VIOLATED: False}.get(verdicts[f"trend_{panel}"])


def _step_power_as_before(p10, p01, trials, level):
    """``step_power`` in scalar form: scalar calls, one D at a time (the oracle of the array
    form, which must give the same bits)."""
    from scipy.stats import binom

    pd = p10 + p01
    if pd <= 0:
        return 0.0
    q = p10 / pd
    total = 0.0
    for D in range(1, trials + 1):
        wD = binom.pmf(D, trials, pd)
        if wD < 1e-16:
            continue
        ks = np.arange(D + 1)
        crit = binom.sf(ks - 1, D, 0.5) <= level
        if crit.any():
            total += wD * float(binom.sf(int(ks[crit][0]) - 1, D, q))
    return float(total)


def _power_calls():
    """Every (p10, p01, trials, level) that ``powers`` evaluates for a cell of a profile, plus edge cases."""
    calls = {(0.2, 0.0, 100, 0.01), (0.01, 0.01, 100, 0.01), (0.0, 0.3, 40, 0.05), (0.5, 0.5, 7, 0.2)}
    for prof in t._PROFILES.values():
        for cell in prof.cells:
            pil = t.PILOT.get((cell["n_grid"], cell["eps"]))
            if pil is None:
                continue
            trials = t._smallest_trials(cell)
            for name in t.PANELS:
                st = pil[name]
                for b, cc in st:
                    p10, p01 = t._pessimistic(b, cc, pil["draws"])
                    calls |= {(p10, p01, trials, t.ALPHA_PANEL), (p10, p01, trials, t.ALPHA_PANEL / len(st))}
    return sorted(calls)


def test_step_power_gives_the_bits_of_its_scalar_form():
    """Every power behind an expected verdict (each profile cell's calls) is bit for bit what the scalar,
    one-D-at-a-time form computed."""
    calls = _power_calls()
    assert len(calls) > 20
    for args in calls:
        assert t.step_power(*args) == _step_power_as_before(*args), args
