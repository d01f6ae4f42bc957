"""Paul et al. (2014), Sec. 4 reproductions: synthetic recipe (Table I), bundled real data, HapMap and RCV1 stand-ins.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show paul2014.repro.synthetic``, ``... repro.bundled``, ``... repro.hapmap``;
docs/papers/paul2014.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="paul2014.repro.synthetic")
def test_synthetic_table_i(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.repro.bundled")
def test_bundled_real_data(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.repro.hapmap")
def test_hapmap_standin_figs_2_3(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.repro.rcv1")
def test_rcv1_standin_table_iv(theorem_result):
    assert theorem_result.unexpected().empty
