"""Fuzzing the public svm API: every outcome is a certified result or a named error.

For random (often degenerate) inputs -- all-zero or constant X, duplicated points, one point, labels
outside {-1, +1}, extreme magnitudes (1e-300 .. 1e308), NaN/inf, C <= 0, mismatched shapes -- each of
``solve_svc``, ``solve_svr``, ``min_enclosing_ball`` and ``normalized_margin`` must either

- return a result whose scalar outputs are finite (``margin`` may be inf exactly when ``w = 0``) and
  whose certificate passes (KKT relative residual / relative gap <= 1e-5, the solvers' own acceptance
  level), or
- raise ``RpcheckError`` or ``SolverError`` (incl. ``NotSeparableError``) whose message names an argument
  in backquotes or lists the arguments (``[solve_svc: n=..., C=...]``),

never another exception type, never a silent inf/nan. The default run is derandomized (hypothesis'
fixed seed, no example database) at 60 examples per function; ``-m heavy`` runs 1500 per function.
This is not a statistical test: any counterexample is a defect, so its false-alarm probability is 0.
"""

import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import min_enclosing_ball, normalized_margin, solve_svc, solve_svr

SOLVERS = ("AUTO", "IPM", "CLARABEL")
_COMMON = dict(derandomize=True, database=None, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LIGHT = settings(max_examples=60, **_COMMON)
HEAVY = settings(max_examples=1500, **_COMMON)

_MAGS = (0.0, 1e-300, 1e-160, 1e-6, 1.0, 1e6, 1e160, 1e308)


@st.composite
def matrices(draw):
    kind = draw(st.sampled_from(["gauss", "zero", "constant", "duplicates", "one_row", "nonfinite",
                                 "bad_ndim", "empty"]))
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    scale = draw(st.sampled_from(_MAGS))
    if kind == "gauss":
        X = rng.standard_normal((n, d))
    elif kind == "zero":
        X = np.zeros((n, d))
    elif kind == "constant":
        X = np.ones((n, d))
    elif kind == "duplicates":
        X = np.tile(rng.standard_normal((1, d)), (n, 1))
        X[: n // 2] += rng.standard_normal((n // 2, d))
    elif kind == "one_row":
        X = rng.standard_normal((1, d))
    elif kind == "nonfinite":
        X = rng.standard_normal((n, d))
        X[rng.integers(X.shape[0]), rng.integers(d)] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    elif kind == "bad_ndim":
        return draw(st.sampled_from([np.float64(3.0), np.ones(n), np.ones((n, d, 2))]))
    else:
        X = np.zeros((0, d))
    with np.errstate(over="ignore", invalid="ignore"):
        return X * scale if scale != 1.0 else X  # 0 * inf = nan is a non-finite entry too


@st.composite
def labels(draw, n):
    kind = draw(st.sampled_from(["pm1", "pm1", "pm1", "constant", "bad_value", "wrong_len", "nonfinite"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    if kind == "pm1":
        return np.where(rng.random(n) < 0.5, -1.0, 1.0)
    if kind == "constant":
        return np.ones(n)
    if kind == "bad_value":
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        y[rng.integers(n) if n else 0:][:1] = draw(st.sampled_from([0.0, 2.0, 0.5]))
        return y
    if kind == "wrong_len":
        return np.ones(n + 1)
    y = np.ones(n)
    if n:
        y[0] = np.nan
    return y


C_VALUES = st.sampled_from([1.0, 1e-3, 1e3, np.inf, 0.0, -1.0, np.nan, 1e-300, 1e308, True, "big"])
_NAMED = re.compile(r"`\w+`|\[(solve_svc|solve_svr|min_enclosing_ball|SVCProblem\.solve): ")


def _n(X):
    return int(X.shape[0]) if getattr(X, "ndim", 0) >= 1 else 1


def _outcome(fn):
    """Run ``fn``; return the result, or None after checking that the error is allowed and named."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn()
        except (RpcheckError, SolverError) as exc:
            assert _NAMED.search(str(exc)), f"{type(exc).__name__} names no argument: {exc}"
            return None


def _finite(**values):
    for k, v in values.items():
        assert np.all(np.isfinite(np.asarray(v, dtype=float))), f"output {k} is not finite: {v}"


def _check_svc(res):
    if res is None:
        return
    _finite(alpha=res.alpha, w=res.w, b=res.b, objective=res.objective, primal=res.primal_objective)
    assert res.kkt.max_relative <= 1e-5
    assert np.isfinite(res.margin) or res.w_norm_sq == 0


def _svc_case(data):
    X = data.draw(matrices())
    y = data.draw(labels(_n(X)))
    C = data.draw(C_VALUES)
    bias = data.draw(st.booleans())
    solver = data.draw(st.sampled_from(SOLVERS))
    _check_svc(_outcome(lambda: solve_svc(X, y, C, bias=bias, solver=solver)))


def _svr_case(data):
    X = data.draw(matrices())
    n = _n(X)
    y = data.draw(st.sampled_from(["gauss", "zero", "huge", "nan", "wrong_len"]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    y = {"gauss": rng.standard_normal(n), "zero": np.zeros(n), "huge": np.full(n, 1e300),
         "nan": np.full(n, np.nan), "wrong_len": np.zeros(n + 2)}[y]
    C = data.draw(C_VALUES)
    eps = data.draw(st.sampled_from([0.0, 0.1, 10.0, -1.0, np.inf, 1e300]))
    form = data.draw(st.sampled_from(["correct", "as_printed"]))
    solver = data.draw(st.sampled_from(SOLVERS))
    res = _outcome(lambda: solve_svr(X, y, C, eps, form=form, solver=solver))
    if res is not None:
        _finite(alpha=res.alpha, w=res.w, b=res.b, objective=res.objective, primal=res.primal_objective)
        assert res.kkt.max_relative <= 1e-5


def _meb_case(data):
    X = data.draw(matrices())
    solver = data.draw(st.sampled_from(SOLVERS))
    polish = data.draw(st.sampled_from([True, False, "yes"]))
    res = _outcome(lambda: min_enclosing_ball(X, solver=solver, polish=polish))
    if res is not None:
        _finite(center=res.center, radius=res.radius, dual=res.dual_value, weights=res.weights)
        assert res.gap_rel <= 1e-5


def _margin_case(data):
    X = data.draw(matrices())
    y = data.draw(labels(_n(X)))
    solver = data.draw(st.sampled_from(SOLVERS))
    res = _outcome(lambda: normalized_margin(X, y, solver=solver))
    if res is not None:
        _finite(margin=res.margin, w=res.w, lower=res.margin_lower)
        assert res.margin_lower <= res.margin_upper + 1e-9 * max(1.0, abs(res.margin_upper))


CASES = {"svc": _svc_case, "svr": _svr_case, "meb": _meb_case, "margin": _margin_case}


@pytest.mark.parametrize("fn", list(CASES))
@LIGHT
@given(data=st.data())
def test_fuzz(fn, data):
    CASES[fn](data)


@pytest.mark.heavy
@pytest.mark.parametrize("fn", list(CASES))
@HEAVY
@given(data=st.data())
def test_fuzz_heavy(fn, data):
    CASES[fn](data)
