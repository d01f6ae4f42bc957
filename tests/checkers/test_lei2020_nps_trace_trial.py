"""lei2020.nps_trace: the no-rescale control fails on every data family, including "spiky" with r = d'
(flat energies after the rotation make 1/sqrt(r p) the identity; the standard cell d = 50, r = 64)."""

import numpy as np
import pytest

from rpcheck.papers.lei2020 import nps_trace


@pytest.mark.parametrize("data", ["scaled", "lowrank", "spiky", "gaussian"])
@pytest.mark.parametrize(("d", "r"), [(50, 64), (64, 64), (50, 8), (256, 300), (8, 8)])
def test_control_fails_and_identities_hold(data, d, r):
    for seed in range(5):
        rec = nps_trace.trial({"n": 20, "d": d, "r": r, "data": data}, np.random.default_rng(seed))
        assert not rec.outcomes["control_no_rescale"].holds  # "spiky" with r = d' included
        assert rec.outcomes["column_norms"].holds and rec.outcomes["trace"].holds
