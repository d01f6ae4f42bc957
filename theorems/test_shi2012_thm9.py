"""Shi et al. (2012), Theorem 9 (one-parameter method): printed vs proved denominator, Kronecker order (I7).

Statement
    If S is separable by margin gamma in (0, 1], then for delta, eps and n > 12/(3eps^2 - 2eps^3) ln(6m(L-1)/delta),
    "there exists v" with Pr(for all (x, y), y' != y: (<v, R_y x> - <v, R_y' x>)/(||v|| sqrt(||R_y x||^2 +
    ||R_y' x||^2)) >= -2eps/(1-eps) + (1+eps) gamma/(sqrt(2L)(1-eps))) >= 1 - delta.
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Theorem 9, eq. (6), and its proof.
Event (per trial: one R = [R_1, ..., R_L], v = R u)
    minimum over (point, wrong class) of the printed statistic (or of cos(Ru, Rz), the proved one) below the bound.
Claimed probability
    failure <= 6 m (L-1) E(n, eps); Kronecker identities deterministic (block order HOLDS, printed order VIOLATED).
Parameters
    L = 3, m = 10, d = 20, (gamma, eps, n) in {(.8,.15,1100), (.8,.15,300), (.5,.2,1100)}; Holm at 0.01; seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.thm9")
def test_shi2012_thm9(theorem_result):
    assert theorem_result.unexpected().empty
