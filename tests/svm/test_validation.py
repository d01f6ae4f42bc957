"""Bad input: one RpcheckError naming the argument (and the allowed values)."""

import numpy as np
import pytest

from rpcheck.errors import RpcheckError
from rpcheck.svm import SVCProblem, min_enclosing_ball, normalized_margin, solve_svc, solve_svr

X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
Y = np.array([1, 1, -1, -1])


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"y": [1, 2, -1, -1]}, r"`y` must contain only the labels -1 and \+1; found values \[-1, 1, 2\]"),
        ({"y": [1, 1, 1, 1]}, r"`y` must contain both classes -1 and \+1"),
        ({"y": [1, -1, 1]}, r"`y` has length 3 but X has 4 rows"),
        ({"X": np.array([[1.0, np.nan]] * 4)}, r"`X` contains NaN or infinite entries"),
        ({"X": np.array([[1.0, np.inf]] * 4)}, r"`X` contains NaN or infinite entries"),
        ({"X": np.ones(4)}, r"`X` must be 2-dimensional"),
        ({"C": 0.0}, r"`C` \(0.0\) must be in the interval \(0, inf\)"),
        ({"C": -1}, r"`C` \(-1\) must be in the interval \(0, inf\)"),
        ({"C": float("nan")}, r"`C` \(nan\) must be in the interval"),
        ({"C": "big"}, r"`C` \('big'\) must be a real number"),
        ({"solver": "ECOS_BB"}, r"`solver` \('ECOS_BB'\) must be one of 'AUTO', 'CLARABEL', 'OSQP', 'SCS', 'IPM'"),
        ({"bias": "yes"}, r"`bias` \('yes'\) must be True or False"),
    ],
)
def test_solve_svc_bad_input(kwargs, match):
    args = {"X": X, "y": Y, "C": 1.0}
    args.update(kwargs)
    with pytest.raises(RpcheckError, match=match):
        solve_svc(args.pop("X"), args.pop("y"), args.pop("C"), **args)


def test_one_class_allowed_without_bias():
    res = solve_svc(X[:2], [1, 1], 1.0, bias=False)
    assert res.bias is False and res.alpha.shape == (2,)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"epsilon": -0.1}, r"`epsilon` \(-0.1\) must be in the interval \[0, inf\)"),
        ({"form": "typo"}, r"`form` \('typo'\) must be one of 'correct', 'as_printed'"),
        ({"C": np.inf}, r"`C` \(inf\) must be finite"),
        ({"y": [1.0, 2.0]}, r"`y` has length 2 but X has 4 rows"),
        ({"y": [1.0, np.nan, 0.0, 1.0]}, r"`y` contains NaN or infinite entries"),
    ],
)
def test_solve_svr_bad_input(kwargs, match):
    args = {"X": X, "y": np.array([1.0, 0.5, -1.0, 0.0]), "C": 1.0, "epsilon": 0.1}
    args.update(kwargs)
    with pytest.raises(RpcheckError, match=match):
        solve_svr(args.pop("X"), args.pop("y"), args.pop("C"), args.pop("epsilon"), **args)


def test_meb_and_margin_bad_input():
    with pytest.raises(RpcheckError, match=r"`X` contains NaN"):
        min_enclosing_ball(np.array([[np.nan, 1.0]]))
    with pytest.raises(RpcheckError, match=r"`solver` \('gurobi'\)"):
        min_enclosing_ball(X, solver="gurobi")
    with pytest.raises(RpcheckError, match=r"`y` must contain only the labels"):
        normalized_margin(X, [0, 1, 1, 1])


def test_svcproblem_bad_input():
    with pytest.raises(RpcheckError, match=r"`n` \(0\) must be an integer >= 1"):
        SVCProblem(0, 3, C=1.0)
    with pytest.raises(RpcheckError, match=r"`C` \(-2\) must be in the interval"):
        SVCProblem(3, 3, C=-2)
