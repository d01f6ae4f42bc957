"""Paul et al. (2014), Theorem 3.6 (enclosing ball) and Theorem 1.1 (main ratio theorem).

Statement
    Thm 3.6: with prob >= 1 - delta (SRHT, r as in eq. 7) B~^2 <= (1 + eps) B^2; proof step
    max_i ||R^T(x_i - x_B)||^2 <= (1 + e_B) B^2; derived: e_B = e, B~^2 >= (1 - e) B^2.
    Thm 1.1: with prob >= 1 - 2 delta, B~^2/gamma~^2 <= ((1+eps)/(1-eps)) B^2/gamma^2.
Source
    Paul, Boutsidis, Magdon-Ismail, Drineas (2014): arXiv v5 Theorem 3.6 = TKDD Theorem 3.11 (eqs. (7),
    (22)); Theorem 1.1 (both numberings; eq. (7)).
Event
    Per draw of R: the inequalities with the measured e (deterministic variants) or with eps (probabilistic
    variants), compared via certified MEB intervals [dual_value, radius_sq] and certified ||w*||^2.
Claimed probability
    Thm 3.6: 1 - delta. Thm 1.1: 1 - 2 delta as printed, 1 - delta tested too (e_B = e makes the union
    bound unnecessary). Deterministic variants: 1. A projected problem that is not separable is a failure
    of the ratio events. Controls (role "control") call the same event functions with a constant the
    certified statistic exceeds by a factor 2 (prob_control runs stated_prob's own event function, so a
    fault in it, e.g. comparing B~ instead of B~^2, flips the control). det_proof is reported in the
    small_r cells (no derived bound on P(e < 1/2) there).
Parameters
    ci: n = 40, d = 512, rho = 5 (+ affine offset), eps = 0.5, delta = 0.2, SRHT (eq. 7) and Gaussian
    (eq. 10) at r = ceil(c f) with CI_CONSTANTS, plus small-r cells (e near 1) for the deterministic variants.
"""

import pytest


@pytest.mark.theorem(id="paul2014.thm3.6")
def test_thm3_6_enclosing_ball(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.thm1.1")
def test_thm1_1_main_ratio(theorem_result):
    assert theorem_result.unexpected().empty
