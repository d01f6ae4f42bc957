"""Zhang et al. (2013), Theorem 6: full-rank data, effective rank rbar.

Statement
    If w* lies in the span of the first k singular vectors and l is gamma-smooth: for 0 < eps <= 1/2 [R],
    w.p. >= 1 - delta [R], ||wtilde - w*|| <= eps/(1-eps)(1 + sqrt(lambda)/(sqrt(gamma) sigma_k))||w*|| provided
    m >= rbar sigma_1^2 log(2d/delta)/(c eps^2 (lambda/gamma + sigma_1^2)), c = 1/32 [R],
    rbar = sum sigma_i^2/(lambda/gamma + sigma_i^2) [D].
Source
    Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013, Theorem 6 and Section 5.3.
Event
    rel = ||wtilde - w*||/||w*|| <= the bound at eps(m) (printed and conservative conditions); VACUOUS where
    eps(m) > 1/2.
Claimed probability
    1 - delta = 0.9: VACUOUS where eps(m) > 1/2 (lambda = 100 with m in {100, 400}; the lambda = 0.01 regime,
    implied eps ~ 8); reported where eps(m) <= 1/2 (lambda = 100, m = 1600: no rigorous bound on Theorem 6's
    failure probability supports an expected HOLDS). Control (planted rank-1, rel <= 1e-8): VIOLATED. Scaling: the slope of log median rel
    against log m (lambda = 100, m in {100, 400, 1600}) is reported and must be negative (error decreases).
Parameters
    ci: square loss (gamma = 1), regression targets in span(u_1..u_3), n = 100, d = 2000 (in the bound),
    sigma_i = 10/i, 80 trials per cell; family-wise alpha 0.01, root seed 0.
"""

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
