"""rpcheck.svm.exact: exact rational oracles for the square loss, against independent exact oracles (sympy's
rational linear algebra, Fraction sums) and the float64 solvers they certify."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from rpcheck.errors import RpcheckError
from rpcheck.svm.drp import iterative_drp, ridge_solution
from rpcheck.svm.exact import (
    MAX_EXACT_DIM,
    distortion_enclosure,
    dyadic,
    exact_product,
    is_positive_definite,
    ridge_iterative_drp_exact,
    solve_exact,
    spectral_norm_enclosure,
)

finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


def _q(x):
    return sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)


def _sym(a):
    return sympy.Matrix([[_q(float(v)) for v in row] for row in np.atleast_2d(a)])


def _frac(x):
    x = sympy.Rational(x)
    return Fraction(int(x.p), int(x.q))


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, min_size=1, max_size=12))
def test_dyadic_is_exact(xs):
    """Every float64 (zeros, subnormals, huge and tiny magnitudes) is ints * 2**e exactly."""
    ints, e = dyadic(np.array(xs))
    for x, i in zip(xs, ints):
        assert Fraction(int(i)) * Fraction(2) ** e == Fraction(x)


def test_dyadic_extremes_and_refusal():
    xs = [0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, -1.0, 0.1]
    ints, e = dyadic(np.array(xs))
    assert [Fraction(int(i)) * Fraction(2) ** e for i in ints] == [Fraction(x) for x in xs]
    with pytest.raises(RpcheckError, match="NaN or infinite"):
        dyadic(np.array([1.0, np.nan]))


def test_exact_product_equals_fraction_sums():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 7)) * np.geomspace(1e-30, 1e30, 7)
    b = rng.standard_normal((7, 2))
    p = exact_product(a, b)
    for i in range(3):
        for j in range(2):
            assert p[i][j] == sum(Fraction(a[i, k]) * Fraction(b[k, j]) for k in range(7))


def test_solve_exact_against_sympy():
    rng = np.random.default_rng(1)
    for n, m in [(1, 1), (3, 2), (6, 3)]:
        A = rng.standard_normal((n, n))
        B = rng.standard_normal((n, m))
        X = solve_exact([[Fraction(v) for v in row] for row in A], [[Fraction(v) for v in row] for row in B])
        ref = _sym(A).LUsolve(_sym(B))
        assert [[_frac(ref[i, j]) for j in range(m)] for i in range(n)] == X
    with pytest.raises(RpcheckError, match="singular"):
        solve_exact([[1, 2], [2, 4]], [[1], [1]])


def test_is_positive_definite_exact_at_the_boundary():
    assert is_positive_definite([[2, 1], [1, 2]])
    assert not is_positive_definite([[1, 1], [1, 1]])  # eigenvalue exactly 0
    eps = Fraction(1, 2**200)
    assert is_positive_definite([[1, 1], [1, 1 + eps]])  # det = 2^-200 > 0
    assert not is_positive_definite([[1, 1], [1, 1 - eps]])
    assert not is_positive_definite([[-1]])


def test_spectral_norm_enclosure_contains_the_exact_norm():
    """2 x 2 symmetric: ||S|| = |a + c|/2 + sqrt(((a - c)/2)^2 + b^2) exactly (sympy), enclosed with relative
    width <= 2^-39; 4 x 4: sympy's exact eigenvalues."""
    rng = np.random.default_rng(2)
    for _ in range(20):
        a, b, c = (Fraction(float(v)) for v in rng.standard_normal(3))
        S = [[a, b], [b, c]]
        lo, hi = spectral_norm_enclosure(S)
        exact = sympy.Abs(_q(a + c)) / 2 + sympy.sqrt((_q(a - c) / 2) ** 2 + _q(b) ** 2)
        assert _q(lo) <= exact <= _q(hi)
        assert hi - lo <= hi * Fraction(1, 2**39)
    W = rng.standard_normal((4, 4))
    Sf = (W + W.T) / 2
    S = [[Fraction(float(v)) for v in row] for row in Sf]
    lo, hi = spectral_norm_enclosure(S)
    eig = [sympy.Abs(v) for v in _sym(Sf).eigenvals()]
    top = max(eig, key=lambda v: float(sympy.N(v, 50)))
    assert float(sympy.N(_q(lo) - top, 60)) <= 0 <= float(sympy.N(_q(hi) - top, 60))


def test_distortion_enclosure_brackets_the_float_distortion():
    from rpcheck.linalg import embedding_distortion

    rng = np.random.default_rng(3)
    for r, m in [(1, 5), (2, 400), (3, 66)]:
        A = rng.standard_normal((r, m)) / math.sqrt(m)
        lo, hi = distortion_enclosure(A)
        f = float(embedding_distortion(np.eye(r), VtR=A))
        assert float(lo) <= hi and abs(f - float(lo)) <= 1e-14 and abs(f - float(hi)) <= 1e-11


def _instance(n, r, m, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, r)) * np.sqrt(n) * np.geomspace(1, 0.1, r)
    y = np.where(rng.standard_normal(n) >= 0, 1.0, -1.0)
    R = rng.standard_normal((r, m)) / math.sqrt(m)
    return X, y, R


def test_exact_reference_against_sympy_and_the_float_solve():
    """w* of the exact path equals sympy's exact solve of (lam I + X^T X) w = X^T y, and the float64 ridge
    solution lies within the float64 rounding allowance used for it (fp_tolerance(kappa) ||w*||, kappa =
    (||X||^2 + lam)/lam)."""
    from rpcheck.papers.zhang2013._common import fp_tolerance

    for n, r, m, lam in [(40, 2, 400, 1.0), (12, 3, 30, 0.01), (9, 1, 4, 100.0)]:
        X, y, R = _instance(n, r, m, seed=n)
        path = ridge_iterative_drp_exact(X, y, lam, R, 2)
        Xs, ys = _sym(X), _sym(y.reshape(-1, 1))
        ref = (_q(lam) * sympy.eye(r) + Xs.T * Xs).LUsolve(Xs.T * ys)
        assert tuple(_frac(v) for v in ref) == path.w_star
        assert path.norm_sq == sum(w * w for w in path.w_star) == path.err_sq[0]
        kappa = (np.linalg.norm(X, 2) ** 2 + lam) / lam
        w_float = ridge_solution(X, y, lam)
        assert np.linalg.norm(w_float - path.coef) <= fp_tolerance(kappa) * path.norm
        assert np.linalg.norm(w_float - path.coef) <= 1e-13 * path.norm  # the float solve is in fact far better


def test_exact_path_is_algorithm_2_step_by_step():
    """The ``d x d`` recursion equals Algorithm 2's step in its printed ``m``-dimensional closed form (the one
    ``iterative_drp`` implements: z = (lam I + Xh^T Xh)^{-1}(Xh^T (y - X w) - lam R^T w), w' = X^T (y - X w -
    Xh z)/lam), evaluated in sympy's exact arithmetic: an independent check of the push-through identity."""
    X, y, R = _instance(6, 2, 5, seed=7)
    lam, T = 0.5, 3
    path = ridge_iterative_drp_exact(X, y, lam, R, T)
    Xs, ys, Rs, lq = _sym(X), _sym(y.reshape(-1, 1)), _sym(R), _q(lam)
    Xh = Xs * Rs
    w = sympy.zeros(2, 1)
    wstar = sympy.Matrix([_q(v) for v in path.w_star])
    for t in range(1, T + 1):
        resid = ys - Xs * w
        z = (lq * sympy.eye(5) + Xh.T * Xh).LUsolve(Xh.T * resid - lq * Rs.T * w)
        w = Xs.T * (resid - Xh * z) / lq
        dvec = w - wstar
        assert _frac((dvec.T * dvec)[0, 0]) == path.err_sq[t]
        assert np.allclose(path.diff[t], [float(v) for v in dvec], rtol=1e-15, atol=0)


def test_exact_path_against_iterative_drp():
    """The float64 implementation follows the exact path up to its own rounding: each step rounds quantities of
    size ``||X|| ||y|| / lam`` (the residual and ``X^T coef / lam``), so the iterates deviate by a modest multiple
    of ``u ||X|| ||y|| / lam`` (bound: 1e-12, about 9,000 u). Relative to ``||w*||`` that can reach 3e-10 when
    the labels are unrelated to ``X`` (small ``w*``, the first case): the computed path's rounding is not small
    against ``1e-9 ||w*||``, which is why the checker evaluates the exact path."""
    for n, r, m, T in [(40, 2, 400, 4), (60, 3, 1049, 6)]:
        X, y, R = _instance(n, r, m, seed=m)
        path = ridge_iterative_drp_exact(X, y, 1.0, R, T)
        it = iterative_drp(X, y, 1.0, R, T)
        scale = np.linalg.norm(X, 2) * np.linalg.norm(y)
        dev = np.linalg.norm(np.asarray(it.w_path) - path.coef[None, :] - path.diff, axis=1)
        assert np.all(dev <= 1e-12 * scale), dev / scale
        e_float = np.linalg.norm(np.asarray(it.w_path) - ridge_solution(X, y, 1.0)[None, :], axis=1)
        assert np.all(np.abs(e_float - path.err) <= 1e-12 * scale)


def test_rank_one_closed_form():
    """Rank 1 (scalars G = x^T x, b = x^T y, M = R R^T): w* = b/(lam + G) and
    d_t = (1 - (lam + G)/(lam + G M))^t d_0, d_0 = -w*, exactly."""
    X, y, R = _instance(5, 1, 3, seed=11)
    lam = 2.0
    path = ridge_iterative_drp_exact(X, y, lam, R, 3)
    G = sum(Fraction(v) ** 2 for v in X[:, 0])
    b = sum(Fraction(a) * Fraction(c) for a, c in zip(X[:, 0], y))
    M = sum(Fraction(v) ** 2 for v in R[0])
    L = Fraction(lam)
    w = b / (L + G)
    k = 1 - (L + G) / (L + G * M)
    assert path.w_star == (w,)
    assert list(path.err_sq) == [(k**t * w) ** 2 for t in range(4)]


def test_exact_path_validation():
    X, y, R = _instance(5, 2, 3, seed=1)
    with pytest.raises(RpcheckError, match="`R` has 3 rows"):
        ridge_iterative_drp_exact(X, y, 1.0, np.ones((3, 4)), 2)
    with pytest.raises(RpcheckError, match="`lam`"):
        ridge_iterative_drp_exact(X, y, 0.0, R, 2)
    with pytest.raises(RpcheckError, match="`n_iter`"):
        ridge_iterative_drp_exact(X, y, 1.0, R, 0)
    with pytest.raises(RpcheckError, match=f"d <= {MAX_EXACT_DIM}"):
        ridge_iterative_drp_exact(np.ones((2, MAX_EXACT_DIM + 1)), np.ones(2), 1.0, np.ones((MAX_EXACT_DIM + 1, 2)), 1)
    with pytest.raises(RpcheckError, match="`X`"):
        ridge_iterative_drp_exact(np.array([[np.nan, 1.0]]), np.ones(1), 1.0, np.ones((2, 2)), 1)
