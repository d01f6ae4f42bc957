"""Shi et al. (2012), conclusion: the bounds extend to sub-Gaussian matrices (Section 6).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.subgaussian``, ``rpcheck show shi2012.subgaussian.thm6``;
docs/papers/shi2012.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="shi2012.subgaussian")
def test_shi2012_subgaussian(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.subgaussian.thm6")
def test_shi2012_subgaussian_thm6(theorem_result):
    assert theorem_result.unexpected().empty
