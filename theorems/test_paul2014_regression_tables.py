import pytest


@pytest.mark.theorem(id="paul2014.regression_tables")
def test_paul2014_regression_tables(theorem_result):
    assert theorem_result.unexpected().empty
