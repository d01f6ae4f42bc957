"""Shi et al. (2012), Theorem 6 (binary normalised margin preservation): witness and optimal margin.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.thm6``, ``rpcheck show shi2012.thm6.svm``;
docs/papers/shi2012.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="shi2012.thm6")
def test_shi2012_thm6(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.thm6.svm")
def test_shi2012_thm6_svm(theorem_result):
    assert theorem_result.unexpected().empty
