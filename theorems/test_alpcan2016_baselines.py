"""Alpcan et al. (2016): the JL and Arriaga-Vempala baselines they restate.

The statement, the imported constants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show alpcan2016.baselines``); this file only runs the theorem at the session
profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="alpcan2016.baselines")
def test_alpcan2016_baselines(theorem_result):
    assert theorem_result.unexpected().empty
