"""Lei & Lan (2020): the JL lemma for the Achlioptas, count sketch and SRHT matrices at the r of each one's
published bound (``rpcheck show lei2020.jl_sketches``: the bounds, the derivation of the expected verdicts and
the power of the rows); this file runs the theorem at the session profile: every claim HOLDS, every control
(the 1/sqrt(r) normalisation dropped) VIOLATED."""

import pytest


@pytest.mark.theorem(id="lei2020.jl_sketches")
def test_lei2020_jl_sketches(theorem_result):
    assert theorem_result.unexpected().empty
