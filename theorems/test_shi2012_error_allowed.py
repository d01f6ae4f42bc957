"""Shi et al. (2012), "Error allowed margin": Theorem 6 on the separable subset with a tolerance.

The statement, the reading checked, the derivation of each expected verdict and the profiles are in the checker's
module docstring (``rpcheck show shi2012.error_allowed``); this file only runs the theorem at the session profile
and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.error_allowed")
def test_shi2012_error_allowed(theorem_result):
    assert theorem_result.unexpected().empty
