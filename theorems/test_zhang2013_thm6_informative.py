"""Zhang et al. (2013), Theorem 6 where its bound is informative (< 1).

The statement, the informative range, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm6_informative``); this file only runs the theorem at the
session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.thm6_informative")
def test_zhang2013_thm6_informative(theorem_result):
    assert theorem_result.unexpected().empty
