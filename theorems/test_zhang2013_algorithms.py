"""Zhang et al. (2013), Algorithms 1 and 2 (dual random projection): oracle agreement and certificates.

Statement
    Algorithm 1: xhat = R^T x/sqrt(m), solve (6)/(7), alphahat from (9), wtilde = -(1/lambda) X D(y) alphahat
    (12); square loss: wtilde = X (lambda I + X^T R R^T X/m)^{-1} y (15), w* from (14). Algorithm 2 iterates
    with one R (reconstructed from Section 5.2).
Source
    Zhang, Mahdavi, Jin, Yang, Zhu, COLT 2013, Sections 3-4, eqs. (5)-(15).
Event
    eq15/eq14/factor/alg2_step1 agree within max(1e-9, 10 u kappa^2) relative; hinge projected dual certified
    (Frank-Wolfe gap <= 1e-8 relative, beta in the box); z = R^T wtilde for the hinge loss.
Claimed probability
    1 (deterministic identities of the implementation): HOLDS in every cell.
Parameters
    ci: n = 50, d = 300, rank 4, m in {20, 100}, lambda in {0.1, 10}, Gaussian R; 90 trials per cell
    (the deterministic HOLDS needs >= 90 draws).
"""

import pytest


@pytest.mark.theorem(id="zhang2013.alg")
def test_zhang2013_algorithms(theorem_result):
    assert theorem_result.unexpected().empty
