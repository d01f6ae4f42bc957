"""Unit tests of the Alpcan et al. (2016) X A R checker."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rpcheck.errors import RpcheckError
from rpcheck.generators import haar_orthonormal
from rpcheck.linalg import embedding_distortion
from rpcheck.papers.alpcan2016 import xar
from rpcheck.stats import Verdict


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
    p = xar._cell(family, b, n=30, d=64, rho=4, r=64)
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
    C=st.sampled_from([1.0, 500.0, math.inf]),
)
def test_eq16_and_reverse_for_arbitrary_A(seed, r, scale, C):
    """Paul et al. (16) and its reverse hold for every T = A R, A an arbitrary (here Gaussian-perturbed and
    rescaled) matrix, whether or not e < 1; the quoted form holds whenever e < 1. Deterministic claims:
    a failure is a certified counterexample (hypothesis shrinks it)."""
    p = xar._cell("perturb", scale, n=24, d=32, rho=3, r=r, C=C)
    rec = xar.trial(p, np.random.default_rng(seed))
    o = rec.outcomes
    assert not any(x.undetermined for x in o.values())
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
    p = xar._cell(family, b, n=30, d=64, rho=4, r=64)
    rec = xar.trial(p, np.random.default_rng(2))
    o = rec.outcomes["control_quadform"]
    assert rec.diagnostics["e"] < 99 and not o.holds and not o.undetermined


def test_sampling_matrix_is_unbiased_and_samples_columns():
    rng = np.random.default_rng(0)
    d, r = 16, 8
    acc = np.zeros((d, d))
    for _ in range(4000):
        T = xar.sampling_matrix(d, r, rng=rng)
        assert np.count_nonzero(T) == r and np.allclose(np.sum(T != 0, axis=0), 1)
        acc += T @ T.T
    assert np.allclose(acc / 4000, np.eye(d), atol=0.1)  # E[T T^T] = I (entries (d/r) Bin(r, 1/d)/...)


def test_hadamard_basis_has_flat_leverage():
    V = xar.hadamard_basis(64, 5, rng=np.random.default_rng(1))
    assert np.allclose(V.T @ V, np.eye(5), atol=1e-14)
    assert np.allclose(np.sum(V * V, axis=1), 5 / 64, rtol=1e-14)


def test_coherent_sampling_is_always_vacuous():
    # V = I[:, :rho], d >= 4 r: every eigenvalue of V^T T T^T V is (d/r) c_j in {0} U [4, inf): e >= 1
    rng = np.random.default_rng(4)
    V = np.eye(256)[:, :5]
    for _ in range(200):
        T = xar.sampling_matrix(256, 64, rng=rng)
        assert embedding_distortion(V, VtR=V.T @ T) >= 1.0
    p = xar._cell("identity", 0.0, d=512, sketch="sample", basis="coherent")
    assert xar.always_vacuous(p) and not xar.always_vacuous(dict(p, d=256))
    rec = xar.trial(p, np.random.default_rng(5))
    assert rec.outcomes["quoted"].vacuous and rec.outcomes["eq16"].holds


def test_sampling_failure_bound_closed_form_and_validity():
    # Hadamard basis: L = rho/d, mu = r/rho
    mu = 128 / 5
    b = xar.sampling_failure_bound(5, 128, 512, 5 / 512, 100)
    assert b == pytest.approx(100 * 5 * (math.exp(-mu) + (math.e / 4) ** mu), rel=1e-12)
    assert b < 0.03
    # valid upper bound at a small size where it is not vacuous per draw: Monte Carlo P(e >= 1)
    rng = np.random.default_rng(6)
    d, rho, r = 64, 2, 48
    V = xar.hadamard_basis(d, rho, rng=rng)
    hits = sum(embedding_distortion(V, VtR=V.T @ xar.sampling_matrix(d, r, rng=rng)) >= 1 for _ in range(3000))
    assert hits / 3000 <= xar.sampling_failure_bound(rho, r, d, rho / d, 1)


@pytest.mark.parametrize("C", [500.0, math.inf])
def test_large_C_and_hard_margin(C):
    p = xar._cell("identity", 0.0, n=30, d=64, rho=4, r=64, C=C)
    rec = xar.trial(p, np.random.default_rng(3))
    o = rec.outcomes
    assert all(o[v].holds and not o[v].undetermined for v in ("eq16", "reverse", "quoted", "quadform"))
    assert not o["control_quadform"].holds


def test_not_separable_outcomes():
    out = xar._not_separable(0.5, {})
    assert not out["quoted"].holds and out["reverse"].holds and out["eq16"].vacuous
    assert xar._not_separable(1.5, {})["quoted"].vacuous


def test_cell_domains():
    th = xar.THEOREM
    for prof in th.profiles.values():
        assert prof.trials >= 90
        for c in prof.cells:
            assert th.cell_problem(c) is None
    assert "power of 2" in th.cell_problem(xar._cell("identity", 0.0, d=100, sketch="sample", basis="hadamard"))
    assert th.cell_problem(xar._cell("identity", 0.0, C=0.0)) is not None
    with pytest.raises(RpcheckError):
        xar.adversary_map("nope", 8, 0.1, np.eye(8)[:, :2], np.ones((3, 2)), rng=np.random.default_rng(0))


# ---------------------------------------------------------------- alpcan2016.margin (Thm 3.5 with T = A R)

from rpcheck.papers.alpcan2016 import margin  # noqa: E402


def test_margin_trial_hard_identity():
    p = xar._cell("identity", 0.0, n=30, d=64, rho=4, r=64, C=math.inf)
    rec = margin.trial(p, np.random.default_rng(0))
    o = rec.outcomes
    assert set(o) == {v.name for v in margin.THEOREM.variants}
    assert rec.diagnostics["e"] < 1
    assert o["stated"].holds and o["upper"].holds and not o["stated"].undetermined
    assert not o["margin_control"].holds and not o["margin_control"].undetermined
    assert not o["upper_control"].holds and not o["upper_control"].undetermined


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), b=st.floats(0.0, 0.6), r=st.sampled_from([16, 48, 96]))
def test_margin_bounds_hold_for_arbitrary_A_hard_margin(seed, b, r):
    """Hard margin: (1 - e) gamma^2 <= gamma~^2 (e < 1) and gamma~^2 <= (1 + e) gamma^2 (every T), derived in the
    module docstring; a failure is a certified counterexample."""
    p = xar._cell("perturb", b, n=24, d=32, rho=3, r=r, C=math.inf)
    rec = margin.trial(p, np.random.default_rng(seed))
    o = rec.outcomes
    assert o["upper"].holds and not o["upper"].undetermined
    if rec.diagnostics["e"] < 1:
        assert o["stated"].holds and not o["stated"].undetermined
        assert rec.diagnostics["proj_not_separable"] == 0.0  # e < 1 keeps the data separable (derived)


def test_margin_vacuous_and_not_separable_paths():
    # shrink b = 1 kills the top direction: e >= 1, stated vacuous; upper still decided
    p = xar._cell("shrink", 1.0, n=30, d=64, rho=4, r=64, C=math.inf)
    for s in range(4):
        rec = margin.trial(p, np.random.default_rng(s))
        assert rec.diagnostics["e"] >= 1 and rec.outcomes["stated"].vacuous and rec.outcomes["upper"].holds
        assert not rec.outcomes["margin_control"].holds
    th = margin.THEOREM
    assert th.variant("stated").expected_for(p) == Verdict.VACUOUS
    assert th.variant("upper").expected_for(p) == Verdict.HOLDS
    assert th.variant("stated").expected_for(dict(p, C=1.0)) is None


def test_margin_profiles_attainable():
    for prof in margin.THEOREM.profiles.values():
        assert prof.trials >= 90
        for c in prof.cells:
            assert margin.THEOREM.cell_problem(c) is None
