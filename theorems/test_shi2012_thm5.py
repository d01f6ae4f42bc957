"""Shi et al. (2012), Theorem 5 (angle preservation): band (4), exact law, proof structure.

Statement
    For w, x in R^d with <w, x> > 0, eps in (0, 1), with probability >= 1 - 6 exp(-(n/2)(eps^2/2 - eps^3/3)):
    (1+eps)/(1-eps) c - 2eps/(1-eps) <= cos(Rw, Rx) <= 1 - sqrt(1-eps^2)/(1+eps) + eps/(1+eps) + (1-eps)/(1+eps) c.
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Theorem 5, eq. (4); proof eqs. (7)-(12) (Issues I2, I3).
Event (per trial: one Gaussian R projecting x, w and xhat - what)
    c' = cos(Rw, Rx) outside [Lo(c, eps), Up(c, eps)]; proof_structure: E3 (three Lemma-10 events) => band;
    proof_step_9: E3 => first inequality of (9).
Claimed probability
    failure <= 6E(n, eps) ("bound"); exact failure from the Pearson-r law with N = n + 1 ("exact");
    zero exceptions for proof_structure; proof_step_9 expected VIOLATED for c <= 0.6 (I2).
Parameters
    c in {-0.5, 0.1, 0.527, 0.827}, (n, eps) in {(10,.3), (30,.1), (30,.3), (100,.1), (300,.1)} (exact power) and
    {(300,.3), (100,.5), (1000,.1)} (6E < 1); d = 2 (exact by rotation invariance) plus two d = 50 cells.
    Family-wise false alarm 0.01 (Holm), root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.thm5")
def test_shi2012_thm5(theorem_result):
    assert theorem_result.unexpected().empty
