"""Shi et al. (2012), Lemma 10 (Dasgupta--Gupta tail bound), its one-sided forms and the exact chi² law.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.lemma10``; docs/papers/shi2012.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.lemma10")
def test_shi2012_lemma10(theorem_result):
    assert theorem_result.unexpected().empty
