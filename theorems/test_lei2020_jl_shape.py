"""Lei & Lan (2020): the shape of the JL lemma's r = O(log n / eps^2) (Sec. 2, Lemma (JL)).

The statement, the bracket search, the rule with its error rate and the derivation of each expected verdict are
in the checker's module docstring (``rpcheck show lei2020.jl.shape``; docs/papers/lei2020.md); this file only runs
the theorem at the session profile and asserts what the table must show: both claim rows HOLD (the implied
constant does not grow by sqrt(8) along n or eps) and both controls (one power of the axis variable missing) are
VIOLATED."""

import pytest


@pytest.mark.theorem(id="lei2020.jl.shape")
def test_lei2020_jl_shape(theorem_result):
    assert theorem_result.unexpected().empty
