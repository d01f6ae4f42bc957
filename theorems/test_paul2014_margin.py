"""Paul et al. (2014), Theorem 3.5: margin preservation for classification, its proof chain, and the
soft-margin search.

Statement
    If ||V^T V - V^T R R^T V||_2 <= eps then gamma~*^2 >= (1 - eps) gamma*^2, gamma = 1/||w*||.
    Proof: (16) Z_opt >= Z~_opt - e/2 ||X^T Y a~||^2, (17) Z_opt >= Z~_opt - e/(2(1-e)) ||w~*||^2,
    (21) gamma~^2 >= ((1-2e)/(1-e)) gamma^2. Derived (not in the paper): Z~ <= ((1-e)/(1-2e)) Z, Z~ >= (1-e) Z.
Source
    Paul, Boutsidis, Magdon-Ismail, Drineas (2014): arXiv v5 Theorem 3.5 = TKDD Theorem 3.9;
    duals (3), (5); proof eqs. (12)-(21).
Event
    Deterministic given the measured e of each draw: each inequality, compared with certified intervals
    (duality gap + strong convexity of the primal in w), vacuous when e >= 1 (or e >= 1/2 for the
    (1-2e) forms) or when the instance is degenerate (counted).
Claimed probability
    1 (deterministic). Expected: every variant HOLDS with zero slack (hard margin); (16), (17), P-aux and
    the objective corollaries HOLD with soft margin too; the stated bound with soft margin is open
    (searched: INCONCLUSIVE); the upper bound gamma~^2 <= (1+e) gamma^2 is searched and reported. A
    projected problem that is not separable fails every claim that needs its margin. Controls (role
    "control") run each event function with a constant the certified statistic exceeds by a factor 2.
Parameters
    ci: n = 40, d = 256, rho = 5, r in {64, 128, 256}, Gaussian and SRHT, hard (C = inf) and soft (15%
    label flips, C = 1), 20 trials per cell; search: R = V S^{1/2} with e_max in {0.25, 0.45},
    n in [8, 24], d in [2, 5].
"""

import pytest


@pytest.mark.theorem(id="paul2014.thm3.5")
def test_thm3_5_margin_and_proof_chain(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.thm3.5.search")
def test_thm3_5_soft_margin_search(theorem_result):
    assert theorem_result.unexpected().empty
