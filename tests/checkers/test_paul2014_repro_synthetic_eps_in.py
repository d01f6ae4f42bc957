"""paul2014.repro.synthetic: Sec. 4.1.1's "eps_in is zero for all three data families" (training errors of
every certified fit, pooled, with the exact 99% interval)."""

import numpy as np
import pytest

from rpcheck.engine import TrialRecord
from rpcheck.papers.paul2014 import repro_synthetic
from rpcheck.report.html import _pair_rows

PARAMS = {"family": "D1", "n": 24, "d": 300, "folds": 2, "rs": "4,64", "methods": "RG"}


def test_trial_counts_training_predictions():
    rec = repro_synthetic.trial(PARAMS, np.random.default_rng(3))
    d = rec.diagnostics
    # every training row of every fold is predicted once per fit type: (folds - 1) * n = 24
    assert d["n_in.full"] == d["n_in.RG.4"] == d["n_in.RG.64"] == 24.0
    # 12 Gaussian training rows in d = 300 are independent: separable, and the module docstring's argument
    # (an error needs a primal objective > C = 1000) gives no training error on the full data or at r = 64 >= 12
    assert d["errin.full"] == 0.0 and d["errin.RG.64"] == 0.0
    # r = 4 < 12 training rows: not guaranteed; only a count
    assert 0.0 <= d["errin.RG.4"] <= 24.0


def _rec(errin_full, errin_rg):
    diag = {"errcount.full": 5.0, "n_eval.full": 24.0, "gamma.full": 1.0, "e.RG.4": 1.0, "err.RG.4": 0.2,
            "gamma.RG.4": 0.5, "errin.full": errin_full, "n_in.full": 24.0, "errin.RG.4": errin_rg,
            "n_in.RG.4": 24.0}  # fmt: skip
    return TrialRecord(outcomes={}, diagnostics=diag)


def test_decide_rows_pool_counts_and_agree_only_at_zero():
    params = {**PARAMS, "rs": "4"}
    _, info = repro_synthetic.decide([_rec(0.0, 0.0), _rec(0.0, 3.0)], params)
    rows = {r["method"].split(":")[0]: r for r in info["eps_in"]}
    assert rows["full data"]["eps_in_%"] == 0.0 and rows["full data"]["eps_in_%_agrees"] is True
    assert rows["full data"]["eps_in_ci99_%"][0] == 0.0 and 0 < rows["full data"]["eps_in_ci99_%"][1] < 20
    rg = rows["RG, r = 4"]
    assert rg["eps_in_%"] == pytest.approx(100 * 3 / 48) and rg["eps_in_%_agrees"] is False
    assert "3 errors in 48 training predictions" in rg["method"]
    # the report turns them into qualitative Paper vs rpcheck rows (the sentence beside our rate)
    pr = [row for row in _pair_rows(info) if row[1] == "eps_in_%"]
    assert len(pr) == 2 and pr[0][2] == repro_synthetic.PAPER_EPS_IN and {row[5] for row in pr} == {True, False}


def test_decide_without_in_sample_counts_has_no_rows():
    rec = _rec(0.0, 0.0)
    for k in ("errin.full", "n_in.full", "errin.RG.4", "n_in.RG.4"):
        del rec.diagnostics[k]
    _, info = repro_synthetic.decide([rec, rec], {**PARAMS, "rs": "4"})
    assert "eps_in" not in info


def test_sec5_rows_report_distortion_and_error_gap():
    params = {**PARAMS, "rs": "4"}
    recs = [_rec(0.0, 0.0), _rec(0.0, 0.0)]
    recs[0].diagnostics["e.RG.4"] = 0.7  # one draw below 1: the bounds are not vacuous there
    for rec in recs:
        rec.diagnostics["rho"] = 24.0
    _, info = repro_synthetic.decide(recs, params)
    (row,) = info["sec5_rank"]
    assert row["method"] == "r = 4 (rho = 24)" and row["sec5_rank_agrees"] is None
    assert row["sec5_rank"].startswith("e >= 0.7 in every draw (below 1")
    # eps_out(RG, r = 4) = 20%, full data 5 / 24 = 20.83%: a gap of -0.833 points
    assert "= -0.833 to -0.833 points over RG" in row["sec5_rank"]
    recs[0].diagnostics["e.RG.4"] = 1.2
    _, info = repro_synthetic.decide(recs, params)
    assert "every bound vacuous" in info["sec5_rank"][0]["sec5_rank"]
