"""Shi et al. (2012), conclusion: the bounds extend to sub-Gaussian matrices (Section 6).

Statement
    "Similar bounds can be achieved for sub-Gaussian distribution as long as a tail bound similar to Lemma 10 holds
    (see Achlioptas, 2003)."
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Section 6; Achlioptas (2003) for the JL tails of these matrices.
Event (per trial: one Rademacher or Achlioptas-sparse R)
    |q(w) - 1| > eps (Lemma 10); c' outside [Lo, Up] (Theorem 5); E3 => band (deterministic, any matrix).
Claimed probability
    2E(n, eps) and 6E(n, eps) ("bound"); exact for axis-aligned w (0 for sign, Binomial(n, 1/3) law for sparse).
Parameters
    kind in {sign, sparse}, geometry in {dense, axis}, c = 0.527 (and -0.5), (n, eps) in {(30,.5), (100,.3),
    (300,.3), (1000,.1)}, d = 64; 600 trials per cell; Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.subgaussian")
def test_shi2012_subgaussian(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.subgaussian.thm6")
def test_shi2012_subgaussian_thm6(theorem_result):
    assert theorem_result.unexpected().empty
