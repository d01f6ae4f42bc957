import pytest


@pytest.mark.theorem(id="lei2020.sparse_scale")
def test_lei2020_sparse_scale(theorem_result):
    assert theorem_result.unexpected().empty
