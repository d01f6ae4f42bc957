"""Shi et al. (2012), the remark after Theorem 9: the one-parameter method's memory against L.

The statement, the variants and the derivation of each expected verdict are in the checker's module docstring
(``rpcheck show shi2012.thm9_memory``); this file only runs the theorem at the session profile and asserts what
the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.thm9_memory")
def test_shi2012_thm9_memory(theorem_result):
    assert theorem_result.unexpected().empty
