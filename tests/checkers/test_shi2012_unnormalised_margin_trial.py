"""Unit tests of shi2012.unnormalised_margin: the Crammer-Singer margin against a direct loop, and one trial."""

import numpy as np
import pytest

from rpcheck.papers.shi2012 import unnormalised_margin as T


def test_unnormalised_margin_against_a_loop():
    rng = np.random.default_rng(0)
    X, U = rng.standard_normal((12, 5)), rng.standard_normal((3, 5))
    y = rng.integers(0, 3, 12)
    want = min(X[i] @ U[y[i]] - max(X[i] @ U[k] for k in range(3) if k != y[i]) for i in range(12))
    assert T.unnormalised_margin(X, y, U) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_one_trial_matches_the_derivation(seed):
    cell = T.THEOREM.profiles["ci"].cells[0]
    rec = T.trial(cell, np.random.default_rng(seed))
    dg = rec.diagnostics
    assert dg["normalised_A"] == pytest.approx(cell["gamma_a"], abs=1e-9)
    assert dg["normalised_B"] == pytest.approx(cell["gamma_b"], abs=1e-9)
    assert dg["unnormalised_A"] == pytest.approx(2 * cell["gamma_b"], abs=1e-9)
    assert dg["unnormalised_B"] == pytest.approx(cell["gamma_b"], abs=1e-9)
    o = rec.outcomes
    assert o["decoupled"].holds and o["witness_scaling"].holds
    assert not o["control_monotone"].holds and not o["control_scale_free"].holds


def test_exact_margin_data_has_the_margin_at_every_point():
    from rpcheck.generators import multiclass_margins

    X, y, U = T.exact_margin_data(15, 4, 9, 0.3, np.random.default_rng(1))
    assert set(y.tolist()) == {0, 1, 2, 3}
    assert np.allclose(np.linalg.norm(X, axis=1), 1)
    assert np.allclose(multiclass_margins(X, y, U), 0.3, atol=1e-12)
