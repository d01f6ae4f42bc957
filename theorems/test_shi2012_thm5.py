"""Shi et al. (2012), Theorem 5 (angle preservation): band (4), exact law, proof structure.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.thm5``; docs/papers/shi2012.md); this file only runs the theorem
at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.thm5")
def test_shi2012_thm5(theorem_result):
    assert theorem_result.unexpected().empty
