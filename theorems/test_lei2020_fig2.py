"""Lei & Lan (2020), Fig. 2 (Sec. 4, 'Impact of parameter r'): the proposed methods above the other four at
every r (``lei2020.fig2``, mode "report"; statement, rule and expected verdicts in the checker's module
docstring, ``rpcheck show lei2020.fig2``)."""

import pytest


@pytest.mark.theorem(id="lei2020.fig2")
def test_fig2(theorem_result):
    assert theorem_result.unexpected().empty
    assert (theorem_result.cells["solver_errors"] == 0).all()
