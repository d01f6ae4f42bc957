"""lei2020.jl.shape: the in-law pair distortions against the pairwise differences, and the control's bands."""

import math

import numpy as np
import pytest

from rpcheck.engine import Outcome, TrialRecord, Verdict
from rpcheck.papers.lei2020 import jl_shape


def test_pair_distortions_equal_the_pairwise_differences():
    n, r, draws = 5, 30, 3
    e = jl_shape.pair_distortions(n, r, draws, np.random.default_rng(2))
    G = np.random.default_rng(2).standard_normal((draws, n, r))
    for m in range(draws):
        ref = max(abs(np.linalg.norm(G[m, i] - G[m, j]) / math.sqrt(2 * r) - 1)
                  for i in range(n) for j in range(i + 1, n))
        assert e[m] == pytest.approx(ref, rel=1e-12, abs=1e-13)


def _record(near, far, n=400):
    d = {}
    for name, evals in (("near", near), ("far", far)):
        d[f"{name}.evaluations"] = float(len(evals))
        for j, (r, k) in enumerate(evals):
            d[f"{name}.r{j:02d}"], d[f"{name}.k{j:02d}"], d[f"{name}.n{j:02d}"] = float(r), float(k), float(n)
    return TrialRecord(outcomes={"scaling": Outcome(True), "wrong_power": Outcome(True)}, diagnostics=d)


@pytest.mark.parametrize("axis", ["n", "eps"])
def test_control_is_the_claim_with_the_far_band_times_eight(axis):
    p = {"axis": axis, "n": 8, "eps": 0.25, "delta": 0.2, "draws": 400}
    near, far = jl_shape.endpoints(p)
    fn, ff = jl_shape.formula(near["n"], near["eps"]), jl_shape.formula(far["n"], far["eps"])
    rec = _record([(round(0.9 * fn), 240), (round(1.1 * fn), 0)], [(round(0.9 * ff), 240), (round(1.1 * ff), 0)])
    v, info = jl_shape.decide([rec], p)
    assert v["scaling"] is Verdict.HOLDS and v["wrong_power"] is Verdict.VIOLATED
    assert info["wrong_power"]["ratio_lower"] == pytest.approx(8 * info["scaling"]["ratio_lower"])
