"""The named KKT checks detect each violated condition and name the worst index and its value."""

import numpy as np
import pytest
from _svm_data import RTOL_CERT, SOLVER, soft_data

from rpcheck.svm import solve_svc
from rpcheck.svm.kkt import (
    KKTViolationError,
    check_complementarity,
    check_dual_feasibility,
    check_duality_gap,
    check_primal_feasibility,
    check_svc_result,
)


@pytest.fixture(scope="module")
def solved():
    X, y = soft_data(50, 4, seed=7)
    return X, y, solve_svc(X, y, 1.0, solver=SOLVER)


def test_optimum_passes_all_checks(solved):
    X, y, res = solved
    checks = check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
    names = ["primal feasibility", "dual feasibility", "complementarity", "duality gap"]
    assert [c.name for c in checks] == names
    assert all(checks)


def test_dual_feasibility_box_names_index(solved):
    X, y, res = solved
    alpha = res.alpha.copy()
    alpha[7] = 1.5  # above C = 1
    msg = r"dual feasibility: VIOLATED; worst alpha at index 7 \(value 1\.5\)"
    with pytest.raises(KKTViolationError, match=msg):
        check_dual_feasibility(alpha, y, 1.0, bias=False, atol=1e-9, rtol=0)
    alpha = res.alpha.copy()
    alpha[3] = -0.25
    out = check_dual_feasibility(alpha, y, 1.0, bias=False, atol=1e-9, rtol=0, raise_on_failure=False)
    assert not out and out.worst_index == 3 and out.worst_value == -0.25 and out.residual == 0.25


def test_dual_feasibility_equality(solved):
    X, y, res = solved
    alpha = res.alpha + 1e-3 * (y > 0)  # breaks y^T alpha = 0 but stays inside the box where possible
    alpha = np.clip(alpha, 0, 1.0)
    out = check_dual_feasibility(alpha, y, 1.0, atol=1e-9, rtol=0, raise_on_failure=False)
    assert not out and out.worst_index == "y^T alpha"
    # without bias the equality is not a constraint
    assert check_dual_feasibility(alpha, y, 1.0, bias=False, atol=1e-9, rtol=0)


def test_primal_feasibility_hard_margin():
    X = np.array([[2.0, 0.0], [-2.0, 0.0], [0.5, 0.0]])
    y = np.array([1, -1, 1])
    w = np.array([1.0, 0.0])  # point 2 has margin 0.5 < 1
    with pytest.raises(KKTViolationError, match=r"index 2 \(value 0\.5\)"):
        check_primal_feasibility(X, y, w, 0.0, None, atol=1e-9, rtol=0)
    assert check_primal_feasibility(X, y, w, 0.0, [0.0, 0.0, 0.5], atol=1e-9, rtol=0)


def test_complementarity_detects_wrong_b(solved):
    X, y, res = solved
    out = check_complementarity(X, y, res.alpha, res.w, res.b + 0.1, res.slack, 1.0, atol=1e-9, rtol=0,
                                raise_on_failure=False)
    assert not out and isinstance(out.worst_index, int) and res.alpha[out.worst_index] > 0


def test_duality_gap():
    assert check_duality_gap(1.0, 1.0 - 1e-12, atol=0, rtol=1e-9)
    with pytest.raises(KKTViolationError, match=r"duality gap: VIOLATED.*value 0\.1"):
        check_duality_gap(1.1, 1.0, atol=0, rtol=1e-9)


def test_suboptimal_alpha_fails_certificate(solved):
    """A feasible but suboptimal alpha (scaled towards 0) fails the gap and complementarity checks."""
    X, y, res = solved
    alpha = 0.9 * res.alpha
    w = X.T @ (y * alpha)
    from rpcheck.svm.kkt import svc_kkt_residuals

    kkt, xi, P, D = svc_kkt_residuals(X, y, alpha, w, res.b, 1.0)
    assert kkt.gap_rel > 1e-3 and kkt.complementarity_rel > 1e-3
    assert not check_duality_gap(P, D, atol=0, rtol=1e-6, raise_on_failure=False)
