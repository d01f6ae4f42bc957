"""Shi et al. (2012), Theorem 6 (binary normalised margin preservation): witness and optimal margin.

Statement
    If S (m points) is separable by normalised margin gamma in (0, 1], then for delta, eps in (0, 1) and
    n > 12/(3eps^2 - 2eps^3) ln(6m/delta), with probability >= 1 - delta, S' = {(R x_i, y_i)} is separable by
    normalised margin gamma - 2eps/(1-eps).
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Theorem 6 and its proof (Issue I5: the proof gives
    A gamma - 2eps/(1-eps)).
Event (per trial: one Gaussian R shared by the m points and the witness u)
    min_i y_i cos(Ru, R x_i) < bound (witness); certified gamma*(S') < gamma*(S) - 2eps/(1-eps) (optimal, SVM).
Claimed probability
    failure <= 6 m E(n, eps) (``rpcheck.bounds.shi2012.union_failure_bound("thm6", ...)``); cells outside the
    non-vacuity region (bound <= 0 or 6mE >= 1) are VACUOUS.
Parameters
    m = 20, d = 40, (gamma, eps, n) in {(.9,.3,300), (.9,.3,432), (.6,.2,700), (.3,.1,2500), (.6,.3,432),
    (.9,.3,100), (.3,.3,300)}; Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.thm6")
def test_shi2012_thm6(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.thm6.svm")
def test_shi2012_thm6_svm(theorem_result):
    assert theorem_result.unexpected().empty
