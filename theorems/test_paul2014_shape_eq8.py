"""Paul et al. (2014): the shape of the O(.) target dimension of eq. (8), CountSketch on the coherent row space.

The statement, the search, the rule with its error rate and the derivation of each expected verdict are in the
checker's module docstring (``rpcheck show paul2014.shape_eq8``); this file only runs the theorem at the session
profile and asserts what the table must show: the claim rows HOLD along rho and eps and are VIOLATED along delta
(the implied constant grows like 1/delta over log(1/delta)^2), every control (a wrong exponent) VIOLATED."""

import pytest


@pytest.mark.theorem(id="paul2014.shape_eq8")
def test_paul2014_shape_eq8(theorem_result):
    assert theorem_result.unexpected().empty
