"""Lei & Lan (2020): SVM dual under projection (claims 9, 10), through the certified solver.

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show lei2020.selection_dual``, ``rpcheck show lei2020.dual_perturbation``;
docs/papers/lei2020.md); this file only runs the theorem at the session profile and asserts what the table must
show."""

import pytest


@pytest.mark.theorem(id="lei2020.selection_dual")
def test_lei2020_selection_dual(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.dual_perturbation")
def test_lei2020_dual_perturbation(theorem_result):
    assert theorem_result.unexpected().empty
