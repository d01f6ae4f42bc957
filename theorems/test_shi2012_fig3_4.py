import pytest


@pytest.mark.theorem(id="shi2012.fig3_4")
def test_fig3_4(theorem_result):
    assert theorem_result.unexpected().empty
