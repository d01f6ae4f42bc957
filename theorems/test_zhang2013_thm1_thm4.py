"""Zhang et al. (2013), Theorems 1 and 4: random measurements and the naive solution inside span(X).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm1``, ``rpcheck show zhang2013.thm4``;
docs/papers/zhang2013.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="zhang2013.thm1")
def test_zhang2013_thm1(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="zhang2013.thm4")
def test_zhang2013_thm4(theorem_result):
    assert theorem_result.unexpected().empty
