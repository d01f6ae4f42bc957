"""Shi et al. (2012), Theorem 8 (multiclass normalised margin) and the gap in its final step (Issue I6).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.thm8``, ``rpcheck show shi2012.thm8.final_step``;
docs/papers/shi2012.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="shi2012.thm8")
def test_shi2012_thm8(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.thm8.final_step")
def test_shi2012_thm8_final_step(theorem_result):
    assert theorem_result.unexpected().empty
