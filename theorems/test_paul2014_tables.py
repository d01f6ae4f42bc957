import pytest


@pytest.mark.theorem(id="paul2014.tables")
def test_paul2014_tables(theorem_result):
    assert theorem_result.unexpected().empty
