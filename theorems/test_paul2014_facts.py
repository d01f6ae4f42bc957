"""Paul et al. (2014): deterministic facts C3 (r < rho), C5 (norm identity), C11 (sparsity), and

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show paul2014.c3``, ``rpcheck show paul2014.c5``, ``rpcheck show
paul2014.c11``, ``rpcheck show paul2014.thm3.7``; docs/papers/paul2014.md); this file only runs the theorem at the
session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="paul2014.c3")
def test_c3_rank_deficiency(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.c5")
def test_c5_norm_identity(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.c11")
def test_c11_sparsity(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.thm3.7")
def test_thm3_7_regression(theorem_result):
    assert theorem_result.unexpected().empty
