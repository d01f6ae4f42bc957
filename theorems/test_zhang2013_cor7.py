"""Zhang et al. (2013), Corollary 7: concentration of A A^T/m for Gaussian A (r x m).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show zhang2013.cor7``; docs/papers/zhang2013.md); this file only runs the
theorem at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="zhang2013.cor7")
def test_zhang2013_cor7(theorem_result):
    res = theorem_result
    ctrl = res.cells[res.cells["variant"] == "control_tightened"]
    assert (ctrl["verdict"] == "VIOLATED").all()
