"""Zhang et al. (2013), Algorithms 1 and 2 (dual random projection): oracle agreement and certificates.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.alg``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.alg")
def test_zhang2013_algorithms(theorem_result):
    assert theorem_result.unexpected().empty
