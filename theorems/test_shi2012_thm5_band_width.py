import pytest


@pytest.mark.theorem(id="shi2012.thm5.band_width")
def test_band_width(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.thm5.measured_band")
def test_measured_band(theorem_result):
    assert theorem_result.unexpected().empty
