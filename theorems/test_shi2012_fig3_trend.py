import pytest


@pytest.mark.theorem(id="shi2012.fig3_4.trend")
def test_fig3_trend(theorem_result):
    assert theorem_result.unexpected().empty
