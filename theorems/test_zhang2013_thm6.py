"""Zhang et al. (2013), Theorem 6: full-rank data, effective rank rbar.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm6``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import json

import numpy as np
import pytest


@pytest.mark.theorem(id="zhang2013.thm6")
def test_zhang2013_thm6(theorem_result):
    res = theorem_result
    rows = res.cells[(res.cells["variant"] == "scaling") & (res.cells["p_lam"] == 100.0)]
    info = [json.loads(s) for s in rows["decide_info"]]
    m = np.array([i["m"] for i in info], dtype=float)
    rel = np.array([i["median_rel"] for i in info])
    slope = float(np.polyfit(np.log(m), np.log(rel), 1)[0])
    print(f"zhang2013.thm6: fitted exponent of the median error in m: {slope:.3f} (sqrt scaling: -0.5)")
    assert slope < 0
