"""paul2014.e11: one trial's outcomes agree with the derivations of the module docstring, and the
derived identity of LIBLINEAR's problem is checked independently of the checker's own arithmetic."""

import numpy as np
import pytest

from rpcheck.checkers.paul2014 import e11
from rpcheck.svm import solve_l2svc


@pytest.mark.parametrize("cell", e11.PROFILES["quick"].cells, ids=lambda c: c["data"])
def test_one_trial_matches_the_derivations(cell):
    rec = e11.trial(dict(cell), np.random.default_rng(5))
    out, diag = rec.outcomes, rec.diagnostics
    expected = {v.name: v.expected for v in e11.THEOREM.variants}
    for name in ("identity_l2", "identity_l2_derived", "identity_l2_control"):
        o = out[name]
        assert not o.undetermined and not o.vacuous, name
        assert o.holds == (expected[name].name == "HOLDS"), name
    # the paper's identity is off by ||alpha||^2/(2C) / sum(alpha) > 0, far above the certified residual
    assert out["identity_l2"].statistic > 1e3 * out["identity_l2"].bound
    for side in e11.SIDES:
        assert diag[f"l2_gap_rel.{side}"] <= 1e-9
        assert 0 < diag[f"l2_identity_excess_rel.{side}"] < 1
        assert diag[f"margin_ratio.{side}"] == pytest.approx(
            diag[f"margin_l2.{side}"] / diag[f"margin_l1.{side}"], rel=1e-12)
        assert diag[f"err_diff.{side}"] == pytest.approx(diag[f"err_l2.{side}"] - diag[f"err_l1.{side}"])
        # two labellings of the same test points: |err_l2 - err_l1| <= disagreement (percentage points)
        assert abs(diag[f"err_diff.{side}"]) <= diag[f"disagree.{side}"] + 1e-9
        assert {f"{q}_{side}" for q in e11.QUANTITIES} <= set(out)


def test_excess_identity_independently():
    """sum alpha - ||w||^2 = ||alpha||^2/(2C) > 0 on separable data too (alpha_i = 2C xi_i > 0 for the
    support vectors): the paper's identity fails for LIBLINEAR's problem even in the hard-margin regime
    of eq. (3), where it holds for eq. (3) itself."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 4))
    u = rng.standard_normal(4)
    y = np.sign(X @ u)
    X += 0.5 * y[:, None] * u[None, :] / np.linalg.norm(u)
    for C in (0.1, 10.0, 1e4):
        res = solve_l2svc(X, y, C)
        excess = res.alpha.sum() - res.w_norm_sq
        assert excess == pytest.approx(res.alpha @ res.alpha / (2 * C), rel=1e-8)
        assert excess > 0


def test_decide_reports_intervals():
    cell = dict(e11.PROFILES["quick"].cells[0])
    recs = [e11.trial(cell, np.random.default_rng(i)) for i in range(4)]
    verdicts, info = e11.decide(recs, cell)
    assert verdicts == {}
    for side in e11.SIDES:
        for q in e11.QUANTITIES:
            v = info[f"{q}_{side}"]
            assert v["ci99"][0] <= v["mean"] <= v["ci99"][1]
    assert "NOT the real" not in info["data"]  # synthetic data are not a stand-in
