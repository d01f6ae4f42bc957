import pytest


@pytest.mark.theorem(id="paul2014.e11")
def test_paul2014_e11(theorem_result):
    assert theorem_result.unexpected().empty
