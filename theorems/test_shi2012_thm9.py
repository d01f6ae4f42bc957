"""Shi et al. (2012), Theorem 9 (one-parameter method): printed vs proved denominator, Kronecker order (I7).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.thm9``; docs/papers/shi2012.md); this file only runs the theorem
at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.thm9")
def test_shi2012_thm9(theorem_result):
    assert theorem_result.unexpected().empty
