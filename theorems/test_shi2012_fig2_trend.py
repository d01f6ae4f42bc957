import pytest


@pytest.mark.theorem(id="shi2012.fig2.trend")
def test_fig2_trend(theorem_result):
    assert theorem_result.unexpected().empty
