"""Shi et al. (2012), Lemma 10 (Dasgupta--Gupta tail bound), its one-sided forms and the exact chi² law.

Statement
    For any x in R^d and R in R^{n x d} with i.i.d. N(0, 1/n) entries, eps in (0, 1):
    Pr(1 - eps <= ||Rx||^2/||x||^2 <= 1 + eps) >= 1 - 2 exp(-(n/2)(eps^2/2 - eps^3/3)).
Source
    Q. Shi, C. Shen, R. Hill, A. van den Hengel, "Is margin preserved after random projection?", ICML 2012,
    Lemma 10 and its proof (one-sided bounds; the printed "<=" in the upper-tail event is Issue I1).
Event (per trial: one R)
    q = ||Rx||^2/||x||^2 for a fixed dense x in R^16; failure |q - 1| > eps (one-sided: q <= 1 - eps, q >= 1 + eps).
Claimed probability
    failure <= 2E(n, eps) (mode "bound"); exact failure chi2.cdf(n(1-eps), n) + chi2.sf(n(1+eps), n) (mode "exact").
Parameters
    n in {10, 30, 100, 300, 1000, 3000}, eps in {0.05, ..., 0.5}; promised values from
    ``rpcheck.bounds.shi2012.lemma10_failure_bound`` / ``lemma10_tail_bound`` / ``lemma10_exact_failure``.
    Family-wise false alarm 0.01 (Holm over the theorem's cells), root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.lemma10")
def test_shi2012_lemma10(theorem_result):
    assert theorem_result.unexpected().empty
