"""Unit tests of alpcan2016.adversarial_game (rpcheck's minimal reconstruction of the adversarial learning game)."""

import math
import types

import numpy as np
import pytest

from rpcheck.engine import Verdict, run
from rpcheck.errors import RpcheckError, SolverError
from rpcheck.papers.alpcan2016 import adversarial_game as ag
from rpcheck.papers.alpcan2016 import xar


def test_matrix_game_without_saddle_has_the_closed_form_value():
    # rows minimise, columns maximise; 2x2 without a saddle: v = (ad - bc)/(a + d - b - c)
    G = np.array([[2.0, -1.0], [-1.0, 1.0]])
    lo, hi, p, q, maxmin, minmax = ag.matrix_game(G)
    assert lo <= 0.2 + 1e-9 and hi >= 0.2 - 1e-9 and hi - lo < 1e-7
    assert p == pytest.approx([0.4, 0.6], abs=1e-7) and q == pytest.approx([0.4, 0.6], abs=1e-7)
    assert (maxmin, minmax) == (-1.0, 1.0)


def test_matching_pennies_value_one_half():
    lo, hi, p, q, maxmin, minmax = ag.matrix_game(np.eye(2))
    assert 0.5 == pytest.approx(lo, abs=1e-8) == pytest.approx(hi, abs=1e-8)
    assert maxmin == 0.0 and minmax == 1.0


def test_pure_saddle_value():
    G = np.array([[3.0, 1.0], [4.0, 2.0], [5.0, 0.5]])
    lo, hi, p, q, maxmin, minmax = ag.matrix_game(G)
    assert maxmin == minmax == 3.0
    assert lo == pytest.approx(3.0, abs=1e-8) and hi == pytest.approx(3.0, abs=1e-8)
    assert p[0] == pytest.approx(1.0, abs=1e-8) and q[0] == pytest.approx(1.0, abs=1e-8)


def test_matrix_game_certificate_rejects_a_wrong_lp_point(monkeypatch):
    import scipy.optimize

    real = scipy.optimize.linprog

    def bad(c, **kw):
        res = real(c, **kw)
        x = res.x.copy()
        x[0], x[1] = x[1], x[0]  # swap two strategy weights: no longer optimal
        return types.SimpleNamespace(status=0, x=x, message="ok")

    monkeypatch.setattr(scipy.optimize, "linprog", bad)
    with pytest.raises(SolverError, match="gap"):
        ag.matrix_game(np.array([[2.0, -1.0], [-1.0, 1.0]]))


def test_margin_uninformative_bound():
    assert ag.margin_uninformative_bound(3, 512) == pytest.approx(0.0037, abs=2e-4)
    assert ag.margin_uninformative_bound(5, 40) == 1.0
    for name in ("quick", "ci", "standard", "full"):
        for cell in ag.THEOREM.profiles[name].cells:
            assert ag.margin_uninformative_bound(cell["rho"], cell["r_hi"]) <= 0.01, (name, cell)
            assert ag.THEOREM.variants[1].expected_for(cell) == Verdict.HOLDS


def test_adversary_rows():
    rng = np.random.default_rng(0)
    X, y, Z, V = xar._instance(20, 64, 3, math.inf, "haar", rng)
    rows = ag.adversary_rows(V, Z, 0.25)
    assert set(rows) == set(ag.ADVERSARIES) and all(r.shape == (3, 64) for r in rows.values())
    _, _, Wt = np.linalg.svd(Z, full_matrices=False)
    v = V @ Wt[0]
    A = np.eye(64) - 0.25 * np.outer(v, v)
    assert np.allclose(rows["shrink"], V.T @ A, atol=1e-14)
    assert np.linalg.norm(A - np.eye(64), 2) == pytest.approx(0.25, rel=1e-12)
    assert np.sum(np.all(rows["delete"] == 0, axis=0)) >= 16  # ceil(0.25 * 64) columns deleted
    assert np.allclose(rows["attenuate"], 0.5 * V.T)


def test_trial_pattern_and_controls():
    p = ag._cell(0.25, n=30, d=512, rho=3, r_lo=32, r_hi=512)
    rec = ag.trial(p, np.random.default_rng(5))
    assert set(rec.outcomes) == {v.name for v in ag.THEOREM.variants}
    for name in ("objective_bound", "margin_bound"):
        o = rec.outcomes[name]
        assert o.holds and not o.undetermined and not o.vacuous, name
    for name in ("objective_control", "margin_control"):
        o = rec.outcomes[name]
        assert not o.holds and not o.undetermined, name
    # the control's derivation: attenuate x gauss_hi has gamma~^2 = gamma~_R^2/4 <= (1 + e_R)/4 gamma^2
    e_R = rec.diagnostics["e.identity.gauss_hi"]
    assert rec.diagnostics["margin_ratio.attenuate.gauss_hi"] <= (1 + e_R) / 4 * (1 + 1e-6)
    assert rec.diagnostics["margin_ratio.attenuate.gauss_hi"] == pytest.approx(
        rec.diagnostics["margin_ratio.identity.gauss_hi"] / 4, rel=1e-5)
    assert rec.diagnostics["game_maxmin"] <= rec.diagnostics["game_value"] + 1e-7
    assert rec.diagnostics["game_value"] <= rec.diagnostics["game_minmax"] + 1e-7


def test_decide_info():
    p = ag._cell(0.5, n=30, d=512, rho=3, r_lo=32, r_hi=512)
    recs = [ag.trial(p, np.random.default_rng(s)) for s in range(2)]
    verdicts, info = ag.decide(recs, p)
    assert set(verdicts) == {"informative", "pure_saddle", "game_value"}
    assert 0.0 <= info["fraction_pure_saddle"] <= 1.0 and "identity.gauss_hi" in info


def test_domains():
    th = ag.THEOREM
    assert th.parameters["b"].problem(1.5) is not None
    with pytest.raises(RpcheckError, match="r_lo <= r_hi"):
        run(th, profile="quick", backend="serial", overrides={"r_lo": 1000})
