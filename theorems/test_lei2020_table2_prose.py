"""Lei & Lan (2020): the comparative sentences of Sec. 4, quoted verbatim, against the paper's own Table 2 (Welch
tests from the printed mean +- std for 'significant'). The sentences, the events, the Welch test's assumptions
and false-alarm probability, the derivation of each expected verdict and the perturbations of the negative
controls are in the checker's module docstring (``rpcheck show lei2020.table2_prose``); this file runs the
theorem at the session profile and asserts that every row is as derived."""

import pytest


@pytest.mark.theorem(id="lei2020.table2_prose")
def test_lei2020_table2_prose(theorem_result):
    assert theorem_result.unexpected().empty
