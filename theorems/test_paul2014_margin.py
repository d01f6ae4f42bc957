"""Paul et al. (2014), Theorem 3.5: margin preservation for classification, its proof chain, and the

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show paul2014.thm3.5``, ``rpcheck show paul2014.thm3.5.search``;
docs/papers/paul2014.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="paul2014.thm3.5")
def test_thm3_5_margin_and_proof_chain(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.thm3.5.search")
def test_thm3_5_soft_margin_search(theorem_result):
    assert theorem_result.unexpected().empty
