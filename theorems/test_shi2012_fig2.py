"""Shi et al. (2012), Figure 2 (Section 5.1): relative-error metrics P1 (cosine) and P2 (inner product).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show shi2012.fig2``; docs/papers/shi2012.md); this file only runs the theorem
at the session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="shi2012.fig2")
def test_shi2012_fig2(theorem_result):
    assert theorem_result.unexpected().empty
