"""normalized_margin (Shi et al. 2012, Definition 2): closed forms, bracket, non-separable inputs."""

import numpy as np
import pytest
import scipy.sparse as sp
from _svm_data import SEEDS, SOLVER

from rpcheck.errors import RpcheckError
from rpcheck.svm import normalized_margin


def test_one_dimensional_separable_is_one():
    """In 1-D a separable sample has normalised margin exactly 1 (Shi et al. 2012, Definition 2)."""
    res = normalized_margin(np.array([[2.0], [0.5], [-1.0], [-3.0]]), [1, 1, -1, -1], solver=SOLVER)
    assert res.separable and res.margin == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("theta", [0.3, 1.0, 2.0, 3.0])
def test_two_points_same_label(theta):
    """x1, x2 at angle theta, both +1: the best u bisects them, margin cos(theta/2)."""
    X = np.array([[1.0, 0.0], [np.cos(theta), np.sin(theta)]]) * [[2.0], [0.5]]
    res = normalized_margin(X, [1, 1], solver=SOLVER)
    assert res.margin == pytest.approx(np.cos(theta / 2), rel=1e-9)
    assert res.margin_lower <= res.margin * (1 + 1e-12) and res.margin <= res.margin_upper * (1 + 1e-12)


@pytest.mark.parametrize("theta", [0.3, 1.0, 2.5])
def test_two_points_opposite_labels(theta):
    """x1 (+1) and x2 (-1) at angle theta: x1 and -x2 are at angle pi - theta, margin sin(theta/2)."""
    X = np.array([[1.0, 0.0], [np.cos(theta), np.sin(theta)]])
    res = normalized_margin(X, [1, -1], solver=SOLVER)
    assert res.margin == pytest.approx(np.sin(theta / 2), rel=1e-9)


@pytest.mark.parametrize("a", [1.0, 2.0, 10.0])
def test_shi_figure1_counterexample(a):
    """Points (+-a, +-1) labelled by the second coordinate: gamma_norm = 1/sqrt(1 + a^2)."""
    X = np.array([[-a, 1.0], [a, 1.0], [-a, -1.0], [a, -1.0]])
    res = normalized_margin(X, [1, 1, -1, -1], solver=SOLVER)
    assert res.margin == pytest.approx(1 / np.sqrt(1 + a * a), rel=1e-9)
    np.testing.assert_allclose(np.abs(res.direction), [0.0, 1.0], atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_scale_invariance_and_bracket(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 5))
    u = rng.standard_normal(5)
    y = np.where(X @ u >= 0, 1, -1)
    r0 = normalized_margin(X, y, solver=SOLVER)
    r1 = normalized_margin(X * rng.uniform(0.1, 10, (30, 1)), y, solver=SOLVER)  # per-row scaling
    assert r0.separable and r1.separable
    assert r1.margin == pytest.approx(r0.margin, rel=1e-8)
    assert r0.margin_lower <= r0.margin_upper * (1 + 1e-12)
    assert (r0.margin_upper - r0.margin_lower) <= 1e-7 * r0.margin
    rs = normalized_margin(sp.csr_matrix(X), y, solver=SOLVER)
    assert rs.margin == pytest.approx(r0.margin, rel=1e-8)


def test_not_separable_through_origin():
    """x and -x with the same label: no u has y <u, x> > 0 for both; never raises."""
    X = np.array([[1.0, 2.0], [-1.0, -2.0], [0.5, 0.1]])
    res = normalized_margin(X, [1, 1, -1], solver=SOLVER)
    assert not res.separable
    assert res.margin <= 0.0 and res.margin_upper == 0.0 and res.margin_lower == res.margin
    assert "not separable through the origin" in res.note


def test_separable_with_bias_but_not_through_origin():
    X = np.array([[1.0, 0.0], [2.0, 0.0]])
    res = normalized_margin(X, [1, -1], solver=SOLVER)
    assert not res.separable and res.margin <= 0


def test_zero_row_rejected():
    with pytest.raises(RpcheckError, match=r"`X` row 1 is zero"):
        normalized_margin(np.array([[1.0, 0.0], [0.0, 0.0]]), [1, -1])
