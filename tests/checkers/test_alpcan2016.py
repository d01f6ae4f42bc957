"""Unit tests of the Alpcan et al. (2016) X A R checker."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rpcheck.checkers.alpcan2016 import xar
from rpcheck.errors import RpcheckError
from rpcheck.generators import haar_orthonormal
from rpcheck.linalg import embedding_distortion


def _basis(d=40, rho=4, seed=0):
    rng = np.random.default_rng(seed)
    V = haar_orthonormal(d, rho, rng=rng)
    Z = rng.standard_normal((20, rho))
    return V, Z, rng


@pytest.mark.parametrize("family,b", [("perturb", 0.3), ("shrink", 0.5), ("shrink", 1.0)])
def test_adversary_budget(family, b):
    V, Z, rng = _basis()
    A = xar.adversary_map(family, 40, b, V, Z, rng=rng)
    assert np.linalg.norm(A - np.eye(40), 2) == pytest.approx(b, rel=1e-10)


def test_shrink_one_makes_the_bound_vacuous_for_every_R():
    V, Z, rng = _basis()
    A = xar.adversary_map("shrink", 40, 1.0, V, Z, rng=rng)
    for _ in range(5):
        R = rng.standard_normal((40, 200)) / np.sqrt(200)
        assert embedding_distortion(V, VtR=V.T @ A @ R) >= 1.0


def test_delete_and_scale():
    V, Z, rng = _basis()
    A = xar.adversary_map("delete", 40, 0.25, V, Z, rng=rng)
    assert np.sum(np.diag(A) == 0) == 10
    assert np.allclose(xar.adversary_map("scale", 40, 0.5, V, Z, rng=rng), 1.5 * np.eye(40))
    with pytest.raises(RpcheckError, match="`family`"):
        xar.adversary_map("rotate", 40, 0.5, V, Z, rng=rng)


@pytest.mark.parametrize("family,b", [("identity", 0.0), ("shrink", 1.0)])
def test_trial_outcomes(family, b):
    p = {"n": 30, "d": 64, "rho": 4, "r": 64, "family": family, "b": b}
    rec = xar.trial(p, np.random.default_rng(1))
    assert set(rec.outcomes) == {v.name for v in xar.THEOREM.variants}
    assert rec.outcomes["eq16"].holds and rec.outcomes["reverse"].holds
    if family == "shrink":
        assert rec.outcomes["quoted"].vacuous and rec.diagnostics["e"] >= 1
    else:
        assert rec.outcomes["quoted"].holds and rec.outcomes["quadform"].holds


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**32 - 1),
    r=st.sampled_from([8, 32, 96]),
    scale=st.floats(0.0, 3.0),
)
def test_eq16_and_reverse_for_arbitrary_A(seed, r, scale):
    """Paul et al. (16) and its reverse hold for every T = A R, A an arbitrary (here Gaussian-perturbed and
    rescaled) matrix, whether or not e < 1; the quoted form holds whenever e < 1. Deterministic claims:
    a failure is a certified counterexample (hypothesis shrinks it)."""
    p = {"n": 24, "d": 32, "rho": 3, "r": r, "family": "perturb", "b": scale}
    rec = xar.trial(p, np.random.default_rng(seed))
    o = rec.outcomes
    assert o["eq16"].holds and o["reverse"].holds
    if rec.diagnostics["e"] < 1:
        assert o["quoted"].holds and o["quadform"].holds


def test_identity_failure_bound_closed_form():
    # Davidson-Szarek union bound: trials * exp(-r t^2/2), t = sqrt(2) - 1 - sqrt(rho/r); 1 when t <= 0

    t = math.sqrt(2) - 1 - math.sqrt(8 / 256)
    assert xar.identity_failure_bound(8, 256, 50) == pytest.approx(50 * math.exp(-256 * t * t / 2), rel=1e-14)
    assert xar.identity_failure_bound(10, 50, 1) == 1.0  # sqrt(10/50) > sqrt(2) - 1
    assert xar.identity_failure_bound(8, 64, 50) == 1.0  # capped
    # the bound is a valid upper bound: Monte Carlo P(s_max(V^T R)^2 >= 2) at (rho, r) = (8, 64) is ~0.02
    rng = np.random.default_rng(3)
    G = rng.standard_normal((4000, 8, 64)) / 8.0
    p = np.mean(np.linalg.svd(G, compute_uv=False)[:, 0] ** 2 >= 2)
    assert p <= math.exp(-64 * (math.sqrt(2) - 1 - math.sqrt(8 / 64)) ** 2 / 2)


@pytest.mark.parametrize("family,b", [("identity", 0.0), ("shrink", 1.0), ("scale", 0.5)])
def test_quadform_control_fails(family, b):
    # ||a~^T Y X T||^2 <= (1 + e)||a~^T Y X||^2, so q_u <= q_Tu/100 fails whenever e < 99
    p = {"n": 30, "d": 64, "rho": 4, "r": 64, "family": family, "b": b}
    rec = xar.trial(p, np.random.default_rng(2))
    o = rec.outcomes["control_quadform"]
    assert rec.diagnostics["e"] < 99 and not o.holds and not o.undetermined
