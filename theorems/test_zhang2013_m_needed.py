"""Zhang et al. (2013), Theorem 2 and its remark "m = O(r log r)": the m needed for a target error against r.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.m_needed``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

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
