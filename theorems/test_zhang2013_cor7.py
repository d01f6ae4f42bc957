"""Zhang et al. (2013), Corollary 7: concentration of A A^T/m for Gaussian A (r x m).

Statement
    For 0 < eps <= 1/2 [R], with probability >= 1 - delta [R]: ||(1/m) A A^T - I||_2 <= eps provided
    m >= (r+1) log(2r/delta) / (c eps^2), c = 1/4 [R, assumed].
Source
    Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013 (arXiv:1211.3046), Corollary 7.
Event
    eps_R = ||A A^T/m - I||_2 <= eps, A A^T sampled exactly (Bartlett) or from an explicit Gaussian sketch.
Claimed probability
    1 - delta = 0.9 at m = rpcheck.bounds.zhang2013.cor7_min_dim(r, eps, delta, c=1/4): expected HOLDS, derived
    from the matrix Laplace bound (failure <= 0.0054, support-test power 1.000 at level 0.01/500). Cells with
    c = 4 (m/16): expected VIOLATED where the chi-square lower bound (>= 0.25) gives power >= 0.999 (r = 2, 5),
    reported for r = 20. The implied constant c_hat is a measurement. Control: eps_R <= eps/100 (fails w.p.
    >= 0.9985, expected VIOLATED).
Parameters
    ci: r in {2, 5, 20}, eps in {0.5, 0.25}, delta = 0.1, c in {1/4, 4}, plus r = 2 with the explicit sketch;
    400 trials per cell; family-wise alpha 0.01, root seed 0.
"""

import pytest


@pytest.mark.theorem(id="zhang2013.cor7")
def test_zhang2013_cor7(theorem_result):
    res = theorem_result
    ctrl = res.cells[res.cells["variant"] == "control_tightened"]
    assert (ctrl["verdict"] == "VIOLATED").all()
