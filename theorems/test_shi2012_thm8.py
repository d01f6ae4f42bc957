"""Shi et al. (2012), Theorem 8 (multiclass normalised margin) and the gap in its final step (Issue I6).

Statement
    If S is separable by multiclass normalised margin gamma in (0, 1] (Definition 7), then for delta, eps in (0, 1)
    and n > 12/(3eps^2 - 2eps^3) ln(6Lm/delta), with probability >= 1 - delta, S' = {(R x_i, y_i)} is separable by
    margin -(1+3eps)/(1-eps^2) + sqrt(1-eps^2)/(1+eps) + (1+eps)/(1-eps) gamma.
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Theorem 8 and its proof.
Event (per trial: one Gaussian R shared by all points and classes)
    projected witness margin min_i [cos(Ru_{y_i}, Rx_i) - max_{y'} cos(Ru_{y'}, Rx_i)] below the printed bound
    (or the corrected bound of I6); on all Lemma-10 events of the proof: below K + A c_y - B c_max (per point).
Claimed probability
    failure <= 6 L m E(n, eps); deterministic steps: zero exceptions, except the printed final step on the C12
    construction (u_1 ⟂ x, u_2 = -x, gamma = 1, n = 3), expected VIOLATED.
Parameters
    L = 3, m = 15, d = 20, (gamma, eps, n) in {(.8,.3,400), (.8,.1,3000), (.3,.2,1500), (.8,.3,150)};
    C12: eps in {.4,.5,.6} at n = 3, and n = 20 (reported). Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.thm8")
def test_shi2012_thm8(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.thm8.final_step")
def test_shi2012_thm8_final_step(theorem_result):
    assert theorem_result.unexpected().empty
