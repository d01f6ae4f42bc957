"""Zhang et al. (2013), Theorem 2 for the smooth classification losses (logistic, squared hinge, smoothed hinge).

Statement
    For a convex differentiable loss (Section 2) and 0 < eps <= 1/2 [R], with probability >= 1 - delta [R],
    ||wtilde - w*|| <= eps/(1-eps) ||w*|| provided m >= (r+1) log(2r/delta)/(c eps^2), c = 1/4 [R]; per draw [D]:
    <= eps_R/(1-eps_R) ||w*|| whenever eps_R = ||V^T R R^T V - I|| < 1.
Source
    Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013, Theorem 2, eqs. (1), (2), (4), (9), (12), (17)-(21).
Event
    ||wtilde - w*|| <= the bound, for the exact optima certified to lie in an interval (duality gaps of
    rpcheck.svm.erm, strong convexity).
Claimed probability
    stated: 1 - delta = 1/2 at m = cor7_min_dim(r, 1/2, 1/2, 1/4): HOLDS (derived P(fail) <= 0.053, support
    power > 0.9999 at 90 trials). per_draw: 1 (deterministic, HOLDS). Controls: the naive solution R z
    (derived VIOLATED), planted rank-1 square loss (VIOLATED).
Parameters
    ci: n = 60, d = 1000, r = 3, lambda in {0.05, 1}, m = 160, mu = 0.5 (smoothed hinge); 90 trials per cell;
    alpha 0.01, root seed 0.
"""

import pytest


@pytest.mark.theorem(id="zhang2013.losses")
def test_zhang2013_losses(theorem_result):
    assert theorem_result.unexpected().empty
    assert (theorem_result.cells["solver_errors"] == 0).all()
