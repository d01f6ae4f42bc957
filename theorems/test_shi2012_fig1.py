"""Shi et al. (2012), Figure 1: the unnormalised margin is not preserved by random projection.

Statement
    Points (+-a, +-1) labelled by the sign of the second coordinate, projected by a random R in R^{1 x 2}:
    the probability that the projection is separable is (angle between the dashed lines)/pi = (2/pi) arctan(1/a),
    which tends to 0 as a grows, while the (D1) margin stays 1 and the D2 margin is 1/sqrt(1 + a^2).
Source
    Shi, Shen, Hill, van den Hengel, ICML 2012, Section 2.1 and Figure 1.
Event (per trial: one 1 x 2 R)
    projected 4 points NOT separable (Gaussian row; and the i.i.d. Uniform[-1, 1] pitfall, rate 1/(2a)).
Claimed probability
    1 - (2/pi) arctan(1/a) (mode "exact"); 1 - 1/(2a) for the uniform-entries pitfall; margins deterministic.
Parameters
    a in {0.5, 1, 1.5, 2, 3, 5, 10, 100}; 3000 trials per cell; Holm at 0.01; root seed 0.
"""

import pytest


@pytest.mark.theorem(id="shi2012.fig1")
def test_shi2012_fig1(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.fig1.margins")
def test_shi2012_fig1_margins(theorem_result):
    assert theorem_result.unexpected().empty
