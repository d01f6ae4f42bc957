"""Fuzzing the ``X``/``y`` arguments of every public sketch, solver and linear-algebra function.

For each function of :data:`FUNCTIONS` (the public callables of ``rpcheck.sketches``, ``rpcheck.svm`` and
``rpcheck.linalg`` that take data), ``X`` and ``y`` are drawn from argument *kinds*: a valid small array, and
the bad ones -- None, a 0-d scalar, a 3-d array, a malformed scipy.sparse matrix (an index beyond the width, a
reversed ``indptr``), NaN or inf entries, a string array, labels of the wrong length, 2-d labels. The contract:

- a bad kind of an argument the function reads ends in ``RpcheckError`` whose message names an argument in
  backquotes (never IndexError, TypeError, AttributeError, a scipy or cvxpy error, never a result);
- a valid call returns, or raises ``RpcheckError``/``SolverError`` (the solvers' documented failure: an
  uncertified point on degenerate data).

The sketches' and solvers' own fuzz tests (tests/sketches/test_fuzz_sketches.py, tests/svm/test_fuzz_svm.py)
check the values of successful calls; this one checks the doors. Derandomized (hypothesis' fixed seed, no
example database); the default run draws ``FAST`` examples, ``-m heavy`` draws ``HEAVY``; the counts by
kind and outcome are printed by ``test_fuzz_api_outcome_counts`` (pytest ``-s``). Not a statistical test:
any counterexample is a defect (false-alarm probability 0).
"""

import collections
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rpcheck import linalg, svm
from rpcheck.errors import RpcheckError, SolverError
from rpcheck.sketches import SKETCH_KINDS, fwht, make_sketch, supervised_scores

FAST = 150
HEAVY = 12_000
N, D, R = 6, 8, 3
NAMED = re.compile(r"`[A-Za-z_][A-Za-z_0-9]*`")
OUTCOMES = collections.Counter()

X_KINDS = ("valid", "valid-csr", "none", "0d", "1d", "3d", "nan", "inf", "str", "bad-index", "bad-indptr",
           "empty-rows")  # fmt: skip
Y_KINDS = ("valid", "none", "0d", "2d", "short", "nan", "str")
#: kinds that are valid input for a function reading the argument (1-d X is valid only for fwht)
GOOD_X = {"valid", "valid-csr"}
GOOD_Y = {"valid"}
#: kinds whose result is documented for some functions and refused by others: either outcome is allowed
#: (no rows: the sketches project zero rows to zero rows; string labels: the supervised scores accept any
#: discrete labels)
EITHER_X = {"empty-rows"}
EITHER_Y = {"str"}


def _x(kind, rng):
    X = rng.standard_normal((N, D))
    if kind == "valid":
        return X
    if kind == "valid-csr":
        X[np.abs(X) < 0.5] = 0.0
        return sp.csr_matrix(X)
    if kind == "none":
        return None
    if kind == "0d":
        return np.float64(1.5)
    if kind == "1d":
        return X[0]
    if kind == "3d":
        return X.reshape(2, N // 2, D)
    if kind == "nan":
        X[rng.integers(N), rng.integers(D)] = np.nan
        return X
    if kind == "inf":
        X[rng.integers(N), rng.integers(D)] = -np.inf
        return X
    if kind == "str":
        return X.astype(str)
    if kind in ("bad-index", "bad-indptr"):
        S = sp.csr_matrix(X)
        if kind == "bad-index":
            S.indices[rng.integers(S.nnz)] = rng.choice([D, 99, -1, 2**31 - 1])
        else:
            S.indptr = S.indptr[::-1].copy()
        return S
    if kind == "empty-rows":
        return np.zeros((0, D))
    raise AssertionError(kind)


def _y(kind, rng):
    y = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)
    rng.shuffle(y)
    return {"valid": y, "none": None, "0d": np.float64(1.0), "2d": y[:, None], "short": y[:-1],
            "nan": np.where(np.arange(N) == 0, np.nan, y), "str": y.astype(str)}[kind]  # fmt: skip


def _sketch(kind):
    def fn(X, y):
        sk = make_sketch(kind, D, R, rng=0)
        if sk.data_dependent:
            sk.fit(X, y)
        return sk.apply(X)

    return fn


def _quiet(fn):
    def call(X, y):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. RpcheckWarning of a valid but degenerate draw
            return fn(X, y)

    return call


#: name -> (callable(X, y), reads y)
FUNCTIONS = {
    **{f"sketch[{k}].apply": (_sketch(k), k in ("srht-supervised",)) for k in SKETCH_KINDS},
    "fwht": (lambda X, y: fwht(X), False),
    "supervised_scores": (lambda X, y: supervised_scores(X, y), True),
    "row_space_basis": (lambda X, y: linalg.row_space_basis(X), False),
    "embedding_distortion": (lambda X, y: linalg.embedding_distortion(X, np.ones((D, R))), False),
    "leverage_scores": (lambda X, y: linalg.leverage_scores(X, 2), False),
    "dlss_select": (lambda X, y: linalg.dlss_select(X, 2, 2, rng=0), False),
    "thin_q": (lambda X, y: linalg.thin_q(X), False),
    "centred_randomized_svd": (lambda X, y: linalg.centred_randomized_svd(X, 2, rng=0), False),
    "solve_svc": (lambda X, y: svm.solve_svc(X, y, 1.0), True),
    "solve_l2svc": (lambda X, y: svm.solve_l2svc(X, y, 1.0), True),
    "solve_crammer_singer": (lambda X, y: svm.solve_crammer_singer(X, y, 1.0), True),
    "solve_svr": (lambda X, y: svm.solve_svr(X, y, 1.0, 0.1), True),
    "solve_erm": (lambda X, y: svm.solve_erm(X, y, 0.1, "logistic"), True),
    "min_enclosing_ball": (lambda X, y: svm.min_enclosing_ball(X), False),
    "normalized_margin": (lambda X, y: svm.normalized_margin(X, y), True),
}


def _settings(n):
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip


def _kind(xkind, ykind, reads_y):
    """The kind a call is counted under: X's kind unless X is valid, then y's (when read), else "valid"."""
    if xkind not in GOOD_X:
        return xkind
    return f"y:{ykind}" if reads_y and ykind not in GOOD_Y else "valid"


def _check(name, xkind, ykind, seed):
    fn, reads_y = FUNCTIONS[name]
    rng = np.random.default_rng(seed)
    X, y = _x(xkind, rng), _y(ykind, rng)
    bad_x = xkind not in GOOD_X | EITHER_X and not (name == "fwht" and xkind == "1d")
    bad_y = reads_y and ykind not in GOOD_Y | EITHER_Y
    label = f"{name} X={xkind} y={ykind if reads_y else '-'}"
    try:
        _quiet(fn)(X, y)
    except RpcheckError as exc:
        assert NAMED.search(str(exc)), f"{label}: the error names no argument: {exc}"
        OUTCOMES[(_kind(xkind, ykind, reads_y), "RpcheckError")] += 1
        return
    except SolverError as exc:
        assert not (bad_x or bad_y), f"{label}: bad input reached the solver: {exc}"
        OUTCOMES[(_kind(xkind, ykind, reads_y), "SolverError")] += 1
        return
    except Exception as exc:  # noqa: BLE001 - the defect this test looks for
        pytest.fail(f"{label}: {type(exc).__name__}: {exc}")
    assert not (bad_x or bad_y), f"{label}: bad input gave a result instead of an RpcheckError"
    OUTCOMES[(_kind(xkind, ykind, reads_y), "result")] += 1


cases = st.tuples(st.sampled_from(sorted(FUNCTIONS)), st.sampled_from(X_KINDS), st.sampled_from(Y_KINDS),
                  st.integers(0, 2**32 - 1))  # fmt: skip


@_settings(FAST)
@given(cases)
def test_bad_x_or_y_is_a_named_rpcheck_error(case):
    _check(*case)


@pytest.mark.heavy
@_settings(HEAVY)
@given(cases)
def test_bad_x_or_y_is_a_named_rpcheck_error_heavy(case):
    _check(*case)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("xkind", X_KINDS)
def test_every_function_and_x_kind_once(name, xkind):
    """The full grid of functions and X kinds (valid y), so that no pair is left to chance."""
    _check(name, xkind, "valid", 0)


@pytest.mark.parametrize("name", sorted(n for n, (_, reads_y) in FUNCTIONS.items() if reads_y))
@pytest.mark.parametrize("ykind", Y_KINDS)
def test_every_labelled_function_and_y_kind_once(name, ykind):
    _check(name, "valid", ykind, 0)


def test_reported_holes_are_named_errors():
    """Inputs that would otherwise escape as IndexError or a solver's generic failure."""
    with pytest.raises(RpcheckError, match="`y`"):
        svm.solve_svc(np.eye(2), None, 1.0)
    with pytest.raises(RpcheckError, match="`X`"):
        make_sketch("srht-supervised", 5, 2, rng=0).fit(np.float64(1.5), [1, -1])
    from rpcheck.sketches.transformers import CountSketchRandomProjection

    S = sp.csr_matrix((np.ones(2), np.array([0, 99]), np.array([0, 1, 2])), shape=(2, 5), dtype=float)
    with pytest.raises(RpcheckError, match="`X`.*99"):
        CountSketchRandomProjection(1).fit(S)
    with pytest.raises(RpcheckError, match="`epsilon`"):
        svm.solve_svr(np.eye(3), np.array([1.0, -1.0, 0.5]), 1.0, 2.0**70, solver="CLARABEL")


def test_fuzz_api_outcome_counts():
    """Prints the counts by (argument kind, outcome) of the tests above (run with ``-s``)."""
    for key, n in sorted(OUTCOMES.items()):
        print(f"{key[0]:>14} {key[1]:>13} {n}")
