"""Shi et al. (2012), the remark after Theorem 8: unnormalised against normalised multiclass margin.

The statement, the variants and the derivation of each expected verdict are in the checker's module docstring
(``rpcheck show shi2012.unnormalised_margin``); this file only runs the theorem at the session profile and asserts
what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.unnormalised_margin")
def test_shi2012_unnormalised_margin(theorem_result):
    assert theorem_result.unexpected().empty
