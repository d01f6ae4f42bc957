"""Zhang et al. (2013), Theorem 2: dual random projection recovers w* on rank-r data.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm2``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.thm2")
def test_zhang2013_thm2(theorem_result):
    res = theorem_result
    assert (res.cells["solver_errors"] == 0).all()
