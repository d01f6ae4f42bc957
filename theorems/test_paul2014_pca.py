import pytest


@pytest.mark.theorem(id="paul2014.pca")
def test_paul2014_pca(theorem_result):
    assert theorem_result.unexpected().empty
