"""Zhang et al. (2013), Theorem 2 and its remark "m = O(r log r)": the m needed for a target error against r.

Statement
    For 0 < eps <= 1/2 [R], with probability >= 1 - delta [R], ||wtilde - w*|| <= eps/(1-eps) ||w*|| provided
    m >= (r+1) log(2r/delta)/(c eps^2), c = 1/4 [R]; the text reads this as m = O(r log r) and conjectures that
    r log r is optimal.
Source
    Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013, Theorem 2 and the remark after it; eqs. (14), (15), (17)-(21).
Event
    sufficient: ||wtilde - w*|| <= t ||w*|| at Theorem 2's m for eps = t/(1+t) (square loss, closed forms).
    m_needed: the smallest m of a quarter-octave grid with P(rel > t) <= delta (measurement; bracket at 99%).
Claimed probability
    sufficient: 1 - delta = 0.9, HOLDS (derived: P(fail) <= P(eps_R > eps) <= 1.9e-3, matrix Laplace bound).
    Control (the same check at m = floor(r/2) on a planted instance, P(fail) >= 1 - 1e-4): VIOLATED.
    Slope of log m_hat against log r: reported (printed), next to the slope of the prescribed m.
Parameters
    ci: r in {4, 8, 16, 32}, t = 1/2, delta = 0.1, lambda = 1, n = 100, square loss, 200 trials per cell;
    alpha 0.01, root seed 0.
"""

import json
import math

import numpy as np
import pytest


@pytest.mark.theorem(id="zhang2013.m_needed")
def test_zhang2013_m_needed(theorem_result):
    res = theorem_result
    assert (res.cells["solver_errors"] == 0).all()
    rows = res.cells[res.cells["variant"] == "m_needed"]
    info = [json.loads(s) for s in rows["decide_info"]]
    for target in sorted({i["target"] for i in info}):
        sel = [i for i in info if i["target"] == target and i["m_hat"] is not None and i["delta"] == 0.1]
        if len(sel) < 2:
            continue
        r = np.array([i["r"] for i in sel], dtype=float)
        m_hat = np.array([i["m_hat"] for i in sel], dtype=float)
        m_t2 = np.array([i["m_T2"] for i in sel], dtype=float)
        slope = float(np.polyfit(np.log(r), np.log(m_hat), 1)[0])
        slope_t2 = float(np.polyfit(np.log(r), np.log(m_t2), 1)[0])
        slope_rlogr = float(np.polyfit(np.log(r), np.log(r * np.log(r)), 1)[0])
        for i in sel:
            print(f"  r={i['r']:>3} m_hat={i['m_hat']:>6} bracket=({i['m_lo']}, {i['m_hi']}] m_T2={i['m_T2']} "
                  f"m_T2/m_hat={i['m_T2_over_m_hat']:.1f} m_hat/r={i['m_hat_over_r']:.2f} c_hat={i['c_hat']:.2f}")
        print(f"zhang2013.m_needed (t={target}): slope of log m_hat vs log r {slope:.3f}; prescribed m "
              f"{slope_t2:.3f}; r log r {slope_rlogr:.3f}")
        assert math.isfinite(slope)
        # the bracket is consistent with the point estimate (both from the same counts)
        for i in sel:
            assert i["m_lo"] is None or i["m_lo"] < i["m_hat"]
