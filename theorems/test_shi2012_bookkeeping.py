"""Shi et al. (2012): union-bound bookkeeping and non-vacuity regions (the n thresholds of Theorems 6, 8, 9 and Lemma 10).

Statement
    The n thresholds n > 12/(3eps^2 - 2eps^3) ln(6N/delta) (N = m, Lm, m(L-1)) are where 6 N E(n, eps) < delta;
    the margin bounds of Theorems 6, 8, 9 are positive exactly below the stated eps thresholds.
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Theorems 5, 6, 8, 9 and Lemma 10.
Event (per trial: random eps, gamma, m, L, delta, n)
    each identity / region equivalence / domination (2E >= exact chi^2 tail, 6E >= exact Pearson-r tail).
Claimed probability
    deterministic: zero exceptions (relative tolerance 1e-10).
Parameters
    n_max in {500, 5000}; 60 trials per cell.
"""

import pytest


@pytest.mark.theorem(id="shi2012.bookkeeping")
def test_shi2012_bookkeeping(theorem_result):
    assert theorem_result.unexpected().empty
