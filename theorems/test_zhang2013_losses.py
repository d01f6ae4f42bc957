"""Zhang et al. (2013), Theorem 2 for the smooth classification losses (logistic, squared hinge, smoothed hinge).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.losses``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.losses")
def test_zhang2013_losses(theorem_result):
    assert theorem_result.unexpected().empty
    assert (theorem_result.cells["solver_errors"] == 0).all()
