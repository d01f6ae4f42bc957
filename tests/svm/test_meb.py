"""min_enclosing_ball: closed forms, the duality bracket, and a cross-check against miniball."""

import miniball
import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import SEEDS, rounding
from _svm_data import SOLVER_QP as SOLVER

from rpcheck.svm import min_enclosing_ball


def _check_certificate(res, X):
    """radius is max_i ||x_i - c|| (recomputed), and dual_value <= B^2 <= radius_sq with a tiny gap."""
    Xd = X.toarray() if sp.issparse(X) else np.asarray(X, float)
    d2 = np.sum((Xd - res.center) ** 2, axis=1)
    scale = float(np.max(np.sum((Xd - Xd.mean(0)) ** 2, axis=1)))
    assert res.radius_sq == pytest.approx(d2.max(), rel=1e-12, abs=rounding(Xd.shape[1], scale))
    assert res.dual_value <= res.radius_sq + rounding(Xd.shape[0], scale)
    assert abs(res.weights.sum() - 1) < 1e-12 and np.all(res.weights >= 0)
    np.testing.assert_allclose(res.center, Xd.T @ res.weights, atol=1e-9 * (1 + np.abs(Xd).max()))
    assert res.gap_rel <= 1e-7


def test_two_points():
    X = np.array([[0.0, 0.0, 1.0], [2.0, 2.0, 1.0]])
    res = min_enclosing_ball(X, solver=SOLVER)
    np.testing.assert_allclose(res.center, [1.0, 1.0, 1.0], atol=1e-10)
    assert res.radius == pytest.approx(np.sqrt(2), rel=1e-10)


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_regular_simplex(k):
    """Vertices e_1..e_k: centre (1/k) 1, B^2 = 1 - 1/k, weights uniform."""
    res = min_enclosing_ball(np.eye(k), solver=SOLVER)
    assert res.radius_sq == pytest.approx(1 - 1 / k, rel=1e-10)
    np.testing.assert_allclose(res.center, 1 / k, atol=1e-10)
    np.testing.assert_allclose(res.weights, 1 / k, atol=1e-8)


def test_interior_points_do_not_matter():
    """Points on the unit circle plus interior points: B = 1, centre 0 (antipodal pair present)."""
    t = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    rng = np.random.default_rng(0)
    X = np.vstack([np.c_[np.cos(t), np.sin(t)], [[-1.0, 0.0]], 0.5 * rng.uniform(-1, 1, (20, 2))])
    res = min_enclosing_ball(X, solver=SOLVER)
    assert res.radius == pytest.approx(1.0, rel=1e-9)
    np.testing.assert_allclose(res.center, 0.0, atol=1e-9)
    assert np.all(res.weights[9:] < 1e-9)  # interior points carry no weight


def test_single_point_and_duplicates():
    r1 = min_enclosing_ball(np.array([[3.0, -1.0]]))
    assert r1.radius == 0.0 and r1.gap == 0.0
    np.testing.assert_array_equal(r1.center, [3.0, -1.0])
    r2 = min_enclosing_ball(np.tile([1.0, 2.0], (5, 1)))
    assert r2.radius == 0.0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,d", [(10, 2), (50, 3), (40, 5)])
def test_against_miniball(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.uniform(0.5, 2, d) + 3.0  # affine offset
    res = min_enclosing_ball(X, solver=SOLVER)
    _check_certificate(res, X)
    c_mb, r2_mb = miniball.get_bounding_ball(X, epsilon=1e-10, rng=np.random.default_rng(seed))
    # the exact B^2 lies in [dual_value, radius_sq]; miniball's circumsphere is exact up to rounding
    fp = rounding(n * d, res.radius_sq)
    assert res.dual_value - fp <= r2_mb <= res.radius_sq + fp + 1e-10 * r2_mb
    # centre: for any c with max_i ||x_i - c||^2 = R^2, ||c - c*||^2 <= R^2 - B^2 (Badoiu-Clarkson), so
    # ||c - c_mb|| <= sqrt(radius_sq - dual_value) + sqrt(miniball's own excess)
    r2_mb_actual = np.max(np.sum((X - c_mb) ** 2, axis=1))
    bound = np.sqrt(res.gap + fp) + np.sqrt(max(r2_mb_actual - res.dual_value, 0) + fp)
    assert np.linalg.norm(res.center - c_mb) <= bound


def test_high_dimension_and_sparse():
    """d > n uses the thin-QR factor; sparse input is densified; both are certified and agree."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((15, 200))
    res = min_enclosing_ball(X, solver=SOLVER)
    _check_certificate(res, X)
    Xs = sp.random(30, 50, density=0.1, random_state=1, format="csr")
    rs = min_enclosing_ball(Xs, solver=SOLVER)
    rd = min_enclosing_ball(Xs.toarray(), solver=SOLVER)
    _check_certificate(rs, Xs)
    assert rs.radius_sq == pytest.approx(rd.radius_sq, rel=1e-9)


def test_translation_and_scaling_equivariance():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((30, 4))
    r0 = min_enclosing_ball(X, solver=SOLVER)
    r1 = min_enclosing_ball(3.0 * X + 100.0, solver=SOLVER)
    assert r1.radius == pytest.approx(3.0 * r0.radius, rel=1e-9)
    np.testing.assert_allclose(r1.center, 3.0 * r0.center + 100.0, rtol=1e-9)
