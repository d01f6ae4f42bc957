"""Zhang et al. (2013), Theorem 3: the naive solution what = R z* / sqrt(m) fails, and its chi-square step.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.thm3``, ``rpcheck show zhang2013.thm3.chi2``;
docs/papers/zhang2013.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="zhang2013.thm3")
def test_zhang2013_thm3(theorem_result):
    res = theorem_result
    assert (res.cells["solver_errors"] == 0).all()


@pytest.mark.theorem(id="zhang2013.thm3.chi2")
def test_zhang2013_thm3_chi2(theorem_result):
    res = theorem_result
    assert res.unexpected().empty
    # the derived law is confirmed where its equivalence test is powered (d - r = 1), and the weaker event's law
    # is refuted for the needed event where the exact test is powered (d - r = 8 and 12)
    assert (res.cells.loc[res.cells["variant"] == "corrected", "verdict"] == "HOLDS").sum() >= 1
    assert (res.cells.loc[res.cells["variant"] == "half_threshold_law", "verdict"] == "VIOLATED").sum() >= 2
