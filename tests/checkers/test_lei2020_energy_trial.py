"""lei2020.energy: the planted-fault control fails on every data family, including "spiky" (X^T X diagonal)."""

import numpy as np
import pytest

from rpcheck.papers.lei2020 import energy


@pytest.mark.parametrize("data", ["scaled", "lowrank", "spiky", "gaussian"])
@pytest.mark.parametrize("d", [2, 4, 8])
def test_control_fails_and_claims_hold(data, d):
    for seed in range(5):
        rec = energy.trial({"n": 6, "d": d, "data": data}, np.random.default_rng(seed))
        assert not rec.outcomes["control_planted"].holds  # "spiky" included (the visibility rule)
        assert rec.outcomes["mean"].holds and rec.outcomes["variance"].holds
