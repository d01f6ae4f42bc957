"""Shi et al. (2012), Figure 2 (Section 5.1): relative-error metrics P1 (cosine) and P2 (inner product).

Statement
    P1 = 1 - Pr(1-eps <= c'/c < 1+eps) and P2 = 1 - Pr(1-eps <= <Rw,Rx>/<w,x> <= 1+eps) decrease with n and eps;
    P1 is significantly smaller than P2; for obtuse angles neither "shrinks towards zero".
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Section 5.1 and Figure 2.
Event (per trial: one Gaussian R)
    c'/c outside [1-eps, 1+eps) (P1); <Rw,Rx>/<w,x> outside [1-eps, 1+eps] (P2).
Claimed probability
    exact P1 from the law of c' (Pearson r, N = n+1); exact P2 from n<Rw,Rx> = (1+c)/2 chi2_n - (1-c)/2 chi2_n;
    P1 < P2 by a paired z = 4 comparison where the exact gap gives the test power (else reported only).
Parameters
    c in {0.827, 0.527, -0.062, -0.0165}, eps in {0.1, 0.3}, n in {30, 150, 300}; c = -0.062 at n in {3000, 10^4};
    one d = 300 cell; 600 trials per cell; Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.fig2")
def test_shi2012_fig2(theorem_result):
    assert theorem_result.unexpected().empty
