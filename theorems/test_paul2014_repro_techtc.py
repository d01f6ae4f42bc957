import pytest


@pytest.mark.theorem(id="paul2014.repro.techtc")
def test_paul2014_repro_techtc(theorem_result):
    assert theorem_result.unexpected().empty
