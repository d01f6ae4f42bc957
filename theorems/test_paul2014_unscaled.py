import pytest


@pytest.mark.theorem(id="paul2014.unscaled")
def test_paul2014_unscaled(theorem_result):
    assert theorem_result.unexpected().empty
