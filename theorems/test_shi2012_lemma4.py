"""Shi et al. (2012), Lemma 4 (mean preservation) with the exact variance, Gaussian/Rademacher/Achlioptas.

Statement
    For any w, x in R^d and R in R^{n x d} with i.i.d. N(0, 1/n) entries: E(<Rw, Rx>) = <w, x>  (eq. 3).
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Lemma 4; the proof uses only independence, zero mean and unit
    variance (Lemma 4 and its proof), so Rademacher ("sign") and Achlioptas ("sparse") entries are tested too.
Event (per trial: one sketch of n B columns = the mean of B independent n-row projections)
    |z| > sqrt(20) (Chebyshev) or |z| > 1.96 (normal approximation), z = (mean - <w,x>)/sd with the exact
    sd = sqrt(lemma4_variance(w, x, n B)); and the exact enumeration of one row's moments.
Claimed probability
    <= 0.05 (Chebyshev, "bound"); = 0.05 (normal approximation, "exact", assumed); enumeration deterministic.
Parameters
    kind in {gaussian, sign, sparse}, geometry in {dense, axis}, c in {0.527, -0.5}, n = 30, B = 50, d = 16;
    400 trials per cell; Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.lemma4")
def test_shi2012_lemma4(theorem_result):
    assert theorem_result.unexpected().empty
