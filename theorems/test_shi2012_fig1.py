"""Shi et al. (2012), Figure 1: the unnormalised margin is not preserved by random projection.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.fig1``, ``rpcheck show shi2012.fig1.margins``;
docs/papers/shi2012.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="shi2012.fig1")
def test_shi2012_fig1(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="shi2012.fig1.margins")
def test_shi2012_fig1_margins(theorem_result):
    assert theorem_result.unexpected().empty
