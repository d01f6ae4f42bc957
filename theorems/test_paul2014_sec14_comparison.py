"""Paul et al. (2014), Sec. 1.4: the relative-error guarantee against Shi et al.'s additive one.

The statement, the rows and the derivation of each expected verdict are in the checker's module docstring
(``rpcheck show paul2014.sec14_comparison``); this file only runs the theorem at the session profile and asserts
what the table must show."""

import pytest


@pytest.mark.theorem(id="paul2014.sec14_comparison")
def test_paul2014_sec14_comparison(theorem_result):
    assert theorem_result.unexpected().empty
