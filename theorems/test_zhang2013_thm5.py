"""Zhang et al. (2013), Theorem 5: iterative dual random projection (Algorithm 2) with one R.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm5``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.thm5")
def test_zhang2013_thm5(theorem_result):
    res = theorem_result
    assert (res.cells["solver_errors"] == 0).all()
