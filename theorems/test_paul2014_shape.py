"""Paul et al. (2014): the shape of the O(.) target dimensions of eqs. (7), (9) and (10).

The statement, the bracket search, the rule with its error rate and the derivation of each expected verdict are
in the checker's module docstring (``rpcheck show paul2014.shape``; docs/papers/paul2014.md); this file only runs
the theorem at the session profile and asserts what the table must show: every claim row HOLDS (the implied
constant does not grow by sqrt(8) along any axis) and every control (the axis variable's power lowered by one)
VIOLATED."""

import pytest


@pytest.mark.theorem(id="paul2014.shape")
def test_paul2014_shape(theorem_result):
    assert theorem_result.unexpected().empty
