import pytest


@pytest.mark.theorem(id="paul2014.e14")
def test_paul2014_e14(theorem_result):
    assert theorem_result.unexpected().empty
