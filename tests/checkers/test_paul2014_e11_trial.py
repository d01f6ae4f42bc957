"""paul2014.e11: one trial's outcomes agree with the derivations of the module docstring, and the
derived identity of LIBLINEAR's problem is checked independently of the checker's own arithmetic."""

import numpy as np
import pytest

from rpcheck.papers.paul2014 import e11
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
    assert "paper_vs" not in info  # Table IV rows only for the RCV1 stand-in cells


def _fake_info():
    return {f"{q}_{side}": {"mean": m, "se": 0.1} for side in e11.SIDES
            for q, m in (("err_l2", 5.0 if side == "full" else 9.0), ("margin_l2", 0.02))}  # fmt: skip


@pytest.mark.parametrize("r, numeric", [(256, False), (2048, True)])
def test_table_iv_rows_for_the_rcv1_standin(r, numeric):
    """Table IV beside the stand-in: the full-data pair always; the projected pair only at a Table IV r."""
    params = {"data": "rcv1", "kind": "gaussian", "n": 180, "d": 1200, "r": r, "C": 10.0}
    rows = e11._paper_vs(_fake_info(), params)
    assert rows[0]["paper_eps_out"] == 4.51 and rows[0]["paper_gamma"] == 0.0152 and rows[0]["eps_out"] == 5.0
    if numeric:
        assert rows[1]["paper_eps_out"] == 9.24 and rows[1]["paper_gamma"] == 0.0158  # RG at r = 2048
    else:
        assert rows[1]["eps_out_minus_full"] == pytest.approx(4.0) and rows[1]["eps_out_minus_full_agrees"] is None
        assert "not a Table IV r" in rows[1]["method"]
    assert all("stand-in" in row["method"] for row in rows)


@pytest.mark.parametrize("data", ["rcv1", "techtc"])
def test_sparse_stand_in_equals_the_densified_path(data):
    """The stand-ins stay CSR through the trial (the products then cost their nonzeros); the oracle densifies them
    first. Same matrix, same certified optima: every measurement agrees to rounding, the
    labels (errors, disagreements) exactly, and the identity checks decide the same."""
    import scipy.sparse as sp

    from rpcheck.papers.paul2014._common import stratified_split

    cell = {"data": data, "kind": "gaussian", "n": 180, "d": 1200, "r": 256, "C": 10.0 if data == "rcv1" else 500.0,
            "density": 0.02, "rho": 5}
    X, y = e11._instance(cell, np.random.default_rng(3))
    assert sp.issparse(X)
    tr, te = stratified_split(y, np.random.default_rng(4))
    Xd = X.toarray()
    np.testing.assert_allclose(e11._row_norms(X), np.linalg.norm(Xd, axis=1), rtol=1e-14)
    vs, idents, _ = e11._solve_pair(X[tr], y[tr], X[te], y[te], cell["C"])
    vd, identd, _ = e11._solve_pair(Xd[tr], y[tr], Xd[te], y[te], cell["C"])
    for q in e11.QUANTITIES:
        if q.startswith(("err", "disagree")):
            assert vs[q] == vd[q], q
        else:
            assert vs[q] == pytest.approx(vd[q], rel=1e-9), q
    for k in idents:
        (ds_, rs_, _), (dd_, rd_, _) = idents[k], identd[k]
        assert (abs(ds_) <= rs_) == (abs(dd_) <= rd_), k
