import pytest


@pytest.mark.theorem(id="lei2020.sparse_baselines")
def test_lei2020_sparse_baselines(theorem_result):
    assert theorem_result.unexpected().empty
