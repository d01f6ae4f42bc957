"""Hypothesis properties: every result the solvers return passes its own certificate.

Derandomized (tests/conftest.py), so each run is reproducible; a failure is a real counterexample.
"""

import numpy as np
from _svm_data import SOLVER, SOLVER_QP
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rpcheck.errors import NotSeparableError
from rpcheck.svm import min_enclosing_ball, normalized_margin, solve_svc, solve_svr
from rpcheck.svm.kkt import check_svc_result

# integers / 8 keep the data exactly representable and away from denormals; shrinks towards 0
_coords = st.integers(-40, 40).map(lambda v: v / 8.0)


@st.composite
def labelled(draw, min_n=2, max_n=12, max_d=4):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(arrays(np.float64, (n, d), elements=_coords))
    y = draw(arrays(np.int64, (n,), elements=st.sampled_from([-1, 1])))
    y[0], y[1] = 1, -1
    return X, y


@given(labelled(), st.sampled_from([0.01, 0.3, 1.0, 10.0, 1e3]), st.booleans())
def test_svc_result_is_certified(data, C, bias):
    X, y = data
    res = solve_svc(X, y, C, bias=bias, solver=SOLVER)
    check_svc_result(res, X, y, atol=1e-12, rtol=1e-7)
    assert np.all((res.alpha >= 0) & (res.alpha <= C))
    if res.zero_slack:
        assert res.alpha.max() < C


@given(labelled())
def test_hard_margin_certified_or_not_separable(data):
    X, y = data
    try:
        res = solve_svc(X, y, np.inf, solver=SOLVER)
    except NotSeparableError:
        return
    check_svc_result(res, X, y, atol=1e-12, rtol=1e-7)
    assert res.zero_slack


@given(labelled(min_n=2, max_n=10), st.sampled_from([0.1, 1.0, 10.0]), st.sampled_from([0.0, 0.1, 1.0]))
def test_svr_result_is_certified(data, C, eps):
    X, y = data
    yr = X.sum(axis=1) + y * 0.25
    res = solve_svr(X, yr, C, eps, solver=SOLVER_QP)
    assert res.kkt.max_relative <= 1e-7
    assert np.all(np.abs(res.alpha) <= C)


@given(arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 4)), elements=_coords))
def test_ball_contains_points_and_is_certified(X):
    res = min_enclosing_ball(X, solver=SOLVER_QP)
    d = np.sqrt(np.sum((X - res.center) ** 2, axis=1))
    assert np.all(d <= res.radius * (1 + 1e-12) + 1e-12)
    assert res.gap >= -1e-12 * max(res.radius_sq, 1.0) and res.gap_rel <= 1e-7


@given(labelled(max_d=3))
def test_normalized_margin_bracket(data):
    X, y = data
    assume(np.all(np.any(X != 0, axis=1)))
    res = normalized_margin(X, y, solver=SOLVER)
    assert res.margin_lower <= res.margin_upper + 1e-12
    assert -1.0 - 1e-12 <= res.margin <= 1.0 + 1e-12
    if res.separable:
        assert res.margin > 0 and res.margin_upper - res.margin_lower <= 1e-6 * res.margin
    else:
        assert res.margin <= 0 and res.note
