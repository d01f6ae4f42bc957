"""Shi et al. (2012): union-bound bookkeeping and non-vacuity regions (n thresholds of Theorems 6, 8, 9 and Lemma 10).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.bookkeeping``; docs/papers/shi2012.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.bookkeeping")
def test_shi2012_bookkeeping(theorem_result):
    assert theorem_result.unexpected().empty
