"""Paul et al. (2014), Theorem 3.6 (enclosing ball) and Theorem 1.1 (main ratio theorem).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show paul2014.thm3.6``, ``rpcheck show paul2014.thm1.1``;
docs/papers/paul2014.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="paul2014.thm3.6")
def test_thm3_6_enclosing_ball(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.thm1.1")
def test_thm1_1_main_ratio(theorem_result):
    assert theorem_result.unexpected().empty
