r"""Exact rational oracles for the square loss: ridge regression and Algorithm 2 of Zhang et al. (2013).

Every float64 number is a dyadic rational, so a float64 instance ``(X, y, lambda, R)`` has an exact solution.
The functions here compute it with Python integers and :class:`fractions.Fraction` (no rounding at all):
products of float64 matrices are formed from their integer mantissas (:func:`exact_product`), small linear
systems are solved by Gaussian elimination over the rationals, and the spectral norm of a symmetric rational
matrix is enclosed by a Rayleigh quotient (below) and an exact positive-definiteness test (above)
(:func:`spectral_norm_enclosure`).

Algorithm 2 with the square loss in closed form
-----------------------------------------------
With ``G = X^T X``, ``b = X^T y``, ``H = lambda I + G`` (so ``w* = H^{-1} b``, eq. (14)) and ``M = R R^T``, the
step of :func:`rpcheck.svm.drp.iterative_drp` (the closed form of the step problem (13)) is

.. math::

    z_t = (\lambda I_m + R^T G R)^{-1} R^T q_t, \quad q_t = b - H \tilde w_{t-1}, \qquad
    \tilde w_t = \tilde w_{t-1} + (\lambda I_d + G M)^{-1} q_t

(push-through identity ``(lambda I_m + R^T G R)^{-1} R^T = R^T (lambda I_d + G M)^{-1}``; ``lambda I + G M`` is
invertible since ``G M`` is similar to the PSD ``M^{1/2} G M^{1/2}``). Hence the error ``d_t = wtilde_t - w*``
obeys ``d_t = K d_{t-1}`` with ``K = I - (lambda I + G M)^{-1} H`` and ``d_0 = -w*``: only ``d x d`` rational
algebra, so the functions are meant for the factored form of a low-rank instance (``d`` = the rank).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._validation import check_int, check_interval, check_matrix
from ..errors import RpcheckError
from ._common import validate_targets

__all__ = [
    "MAX_EXACT_DIM",
    "dyadic",
    "exact_product",
    "solve_exact",
    "is_positive_definite",
    "spectral_norm_enclosure",
    "distortion_enclosure",
    "ExactRidgePath",
    "ridge_iterative_drp_exact",
]

#: Largest dimension ``d`` of the rational ``d x d`` systems (the cost grows like ``d^3`` big-integer products
#: whose size grows with ``d``; the factored form of the checkers has ``d`` = the rank, at most 10).
MAX_EXACT_DIM = 64


def dyadic(a):
    """``(ints, e)`` with ``a == ints * 2**e`` exactly: ``ints`` an object array of Python integers of ``a``'s
    shape, ``e`` one common exponent (float64 numbers are dyadic rationals; ``np.frexp`` gives each as a 53-bit
    integer mantissa times a power of two)."""
    a = np.asarray(a, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise RpcheckError("`a` contains NaN or infinite entries; exact arithmetic needs finite numbers.")
    mant, ex = np.frexp(a)
    ints = (mant * 2.0**53).astype(np.int64)  # exact: |mant| < 1, 53 significant bits
    nz = ints != 0
    if not nz.any():
        return np.zeros(a.shape, dtype=object), 0
    e0 = int(ex[nz].min()) - 53
    shift = np.where(nz, ex - 53 - e0, 0)
    return ints.astype(object) << shift.astype(object), e0  # object arrays: Python integers, no overflow


def _scaled(v, e):
    """``v * 2**e`` as a Fraction (``v`` an integer)."""
    return Fraction(int(v) << e) if e >= 0 else Fraction(int(v), 1 << -e)


def _ints(a):
    """Rows of Python integers of a 2-D object array."""
    return [[int(v) for v in row] for row in np.atleast_2d(a)]


def exact_product(a, b):
    """The exact product ``a @ b`` of two float64 matrices (2-D), as a list of rows of Fractions."""
    p, e = _int_product(a, b)
    return [[_scaled(v, e) for v in row] for row in p]


def _int_product(a, b):
    """``(P, e)`` with ``a @ b == P * 2**e`` exactly, ``P`` rows of Python integers."""
    ai, ea = dyadic(np.atleast_2d(a))
    bi, eb = dyadic(np.atleast_2d(b))
    if ai.shape[1] != bi.shape[0]:
        raise RpcheckError(f"`a` {ai.shape} and `b` {bi.shape} cannot be multiplied.")
    return _ints(ai @ bi), ea + eb


def _bareiss(a, n, *, pivot):
    """Fraction-free Gaussian elimination (Bareiss) in place on the integer rows ``a`` (``n`` pivot columns, any
    number of further columns). Every division is exact, and the ``k``-th pivot is the ``k``-th leading
    principal minor of the (row-permuted) matrix. Returns False at a zero pivot (with ``pivot``: only when the
    matrix is singular)."""
    prev = 1
    for k in range(n):
        if a[k][k] == 0:
            i = next((i for i in range(k + 1, n) if a[i][k] != 0), None) if pivot else None
            if i is None:
                return False
            a[k], a[i] = a[i], a[k]
        ak, akk = a[k], a[k][k]
        for i in range(k + 1, n):
            ai, aik = a[i], a[i][k]
            for j in range(k + 1, len(ai)):
                ai[j] = (akk * ai[j] - aik * ak[j]) // prev
            ai[k] = 0
        prev = akk
    return True


def _solve_int(A, B):
    """``(X, det)`` with ``A X = det B`` over the integers (``A`` nonsingular, ``det = +-det(A)``; Cramer's rule
    makes ``det A^{-1} B`` integral). Raises RpcheckError when ``A`` is singular."""
    n, m = len(A), len(B[0])
    a = [list(A[i]) + list(B[i]) for i in range(n)]
    if not _bareiss(a, n, pivot=True):
        raise RpcheckError("the matrix of the exact solve is singular; a nonsingular matrix is required.")
    det = a[n - 1][n - 1]
    X = [[0] * m for _ in range(n)]
    for i in range(n - 1, -1, -1):
        for c in range(m):
            s = det * a[i][n + c] - sum(a[i][j] * X[j][c] for j in range(i + 1, n))
            q, rem = divmod(s, a[i][i])
            if rem:  # impossible for a nonsingular A (Cramer); guards the arithmetic
                raise RpcheckError("inexact division in the fraction-free back substitution.")
            X[i][c] = q
    return X, det


def _common_denominator(rows):
    """``(ints, L)`` with ``rows == ints / L`` (rows of Fractions or integers; ``L`` the lcm of the
    denominators)."""
    L = math.lcm(*(Fraction(v).denominator for row in rows for v in row))
    return [[int(Fraction(v) * L) for v in row] for row in rows], L


def solve_exact(A, B):
    """``A^{-1} B`` over the rationals (``A`` a nonsingular square list of rows, ``B`` a list of rows with as
    many rows as ``A``; entries Fractions or integers), by fraction-free elimination on the rows scaled to
    integers. Raises RpcheckError when ``A`` is singular."""
    Ai, La = _common_denominator(A)
    Bi, Lb = _common_denominator(B)
    X, det = _solve_int(Ai, Bi)
    return [[Fraction(v * La, det * Lb) for v in row] for row in X]


def is_positive_definite(S):
    """Exactly whether the symmetric rational matrix ``S`` (list of rows) is positive definite: Sylvester's
    criterion, every leading principal minor ``> 0``, the minors being the pivots of fraction-free elimination
    without pivoting on ``S`` scaled to integers."""
    a, _ = _common_denominator(S)
    n = len(a)
    if not _bareiss(a, n, pivot=False):
        return False
    return all(a[k][k] > 0 for k in range(n))


def spectral_norm_enclosure(S):
    r"""Rational ``(lo, hi)`` with ``lo <= ||S||_2 <= hi`` for a symmetric rational matrix ``S`` (list of rows).

    ``lo``: ``|x^T S x| / x^T x`` for the float64 eigenvector ``x`` of the eigenvalue largest in modulus (any
    Rayleigh quotient lies in ``[lambda_min, lambda_max]``). ``hi``: the float64 norm enlarged by a relative
    ``2^-40`` and checked exactly, ``hi I - S`` and ``hi I + S`` positive definite (:func:`is_positive_definite`)
    iff every eigenvalue lies in ``(-hi, hi)``; the margin grows by ``2^10`` until the check passes, and the
    Frobenius norm (an upper bound, rounded up) ends the search. The width is about ``2^-40`` relative.
    """
    Si, L = _common_denominator(S)
    n = len(Si)
    Sf = np.array([[float(Fraction(v, L)) for v in row] for row in Si], dtype=np.float64)
    vals, vecs = np.linalg.eigh(Sf)
    k = int(np.argmax(np.abs(vals)))
    xi = _ints(dyadic(vecs[:, k].reshape(1, n))[0])[0]
    xx = sum(v * v for v in xi)
    xSx = sum(xi[i] * sum(Si[i][j] * xi[j] for j in range(n)) for i in range(n))
    lo = Fraction(abs(xSx), xx * L) if xx else Fraction(0)
    base = Fraction(float(np.max(np.abs(vals))))
    for margin_exp in (40, 30, 20, 10):
        hi = base * (1 + Fraction(1, 1 << margin_exp)) + Fraction(1, 1 << 1074)
        hn, hd = hi.numerator, hi.denominator  # hd L (hi I -+ S) = hn L I -+ hd Si
        plus = [[(hn * L if i == j else 0) + hd * Si[i][j] for j in range(n)] for i in range(n)]
        minus = [[(hn * L if i == j else 0) - hd * Si[i][j] for j in range(n)] for i in range(n)]
        if is_positive_definite(plus) and is_positive_definite(minus):
            return lo, max(hi, lo)
    fro2 = Fraction(sum(v * v for row in Si for v in row), L * L)
    hi = Fraction(math.isqrt(fro2.numerator * fro2.denominator) + 1, fro2.denominator)  # >= sqrt(fro2)
    return lo, max(hi, lo)


def distortion_enclosure(A):
    """Rational ``(lo, hi)`` enclosing ``||A A^T - I||_2`` for a float64 matrix ``A`` (``r x m``): the product is
    exact (:func:`exact_product`), the norm enclosed by :func:`spectral_norm_enclosure`."""
    A = check_matrix("A", A, allow_sparse=False)
    Mi, e = _int_product(A, np.asarray(A, dtype=np.float64).T)
    if e >= 0:
        S, L = [[(v << e) - (i == j) for j, v in enumerate(row)] for i, row in enumerate(Mi)], 1
    else:
        L = 1 << -e
        S = [[v - (L if i == j else 0) for j, v in enumerate(row)] for i, row in enumerate(Mi)]
    return spectral_norm_enclosure([[Fraction(v, L) for v in row] for row in S])


@dataclass(frozen=True, eq=False)
class ExactRidgePath:
    r"""Algorithm 2 with the square loss in exact arithmetic (:func:`ridge_iterative_drp_exact`).

    Attributes
    ----------
    w_star : tuple of Fraction
        The exact optimum ``w* = (lambda I + X^T X)^{-1} X^T y`` of (1).
    norm_sq : Fraction
        ``||w*||^2``.
    err_sq : tuple of Fraction
        ``||wtilde_t - w*||^2`` for ``t = 0..T`` (``wtilde_0 = 0``, so ``err_sq[0] = norm_sq``).
    diff : ndarray of shape (T + 1, d)
        ``wtilde_t - w*`` rounded to float64 (each entry correctly rounded from its exact value).
    """

    w_star: tuple
    norm_sq: Fraction
    err_sq: tuple
    diff: np.ndarray

    @property
    def coef(self):
        """``w*`` rounded to float64."""
        return np.array([float(v) for v in self.w_star])

    @property
    def norm(self):
        """``||w*||`` (float64 of the exact square root's neighbourhood; for display)."""
        return math.sqrt(float(self.norm_sq))

    @property
    def err(self):
        """``||wtilde_t - w*||`` for ``t = 0..T`` (float64; for display, the certified comparisons use
        :attr:`err_sq`)."""
        return np.sqrt(np.array([float(v) for v in self.err_sq]))


def ridge_iterative_drp_exact(X, y, lam, R, n_iter):
    r"""Algorithm 2 of Zhang et al. (2013) with the square loss, evaluated exactly on the float64 inputs.

    The same iteration as :func:`rpcheck.svm.drp.iterative_drp` with ``loss="square"`` (module docstring:
    ``d_t = K d_{t-1}``, ``K = I - (lambda I + G M)^{-1} (lambda I + G)``, ``d_0 = -w*``), with every operation
    over the rationals: ``G = X^T X``, ``b = X^T y`` and ``M = R R^T`` are exact products of the float64
    inputs, ``w*`` and ``K`` exact solves, and ``d_t = N^t v_0 / (D^t D_0)`` is carried on integers
    (``K = N / D``, ``d_0 = v_0 / D_0``), so no quantity is rounded. For ``d <= MAX_EXACT_DIM`` (the factored
    form ``X = Z`` (``n x r``), ``R = V^T R`` (``r x m``) of a rank-``r`` instance).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
        Labels or real targets.
    lam : float
        ``lambda > 0``.
    R : ndarray of shape (d, m)
    n_iter : int
        ``T >= 1``.

    Returns
    -------
    ExactRidgePath

    Examples
    --------
    >>> X = np.array([[1.0], [2.0]]); y = np.array([1.0, -1.0]); R = np.array([[0.5, 0.5]])
    >>> path = ridge_iterative_drp_exact(X, y, 1.0, R, 2)
    >>> path.w_star, path.err_sq[1]  # w* = -1/6; wtilde_1 = -1/3.5, M = 1/2
    ((Fraction(-1, 6),), Fraction(25, 1764))
    """
    X = check_matrix("X", X, allow_sparse=False)
    n, d = X.shape
    if d > MAX_EXACT_DIM:
        raise RpcheckError(
            f"`X` has d={d} columns; exact arithmetic is for the factored form, d <= {MAX_EXACT_DIM}."
        )
    yy = validate_targets(y, n).astype(np.float64).reshape(n, 1)
    lam = check_interval("lam", lam, 0, None, closed="neither", finite=True)
    R = check_matrix("R", R, allow_sparse=False)
    if R.shape[0] != d:
        raise RpcheckError(f"`R` has {R.shape[0]} rows but X has {d} columns; R must have shape (d, m).")
    T = check_int("n_iter", n_iter, 1)
    # Integers with one power of two each: G = Gi 2^eg, b = bi 2^eb, M = Mi 2^em, lambda = li 2^el.
    Gi, eg = _int_product(X.T, X)
    bi, eb = _int_product(X.T, yy)
    Mi, em = _int_product(R, np.asarray(R, dtype=np.float64).T)
    li, el = _lam_ints(lam)
    GMi = [[sum(Gi[i][k] * Mi[k][j] for k in range(d)) for j in range(d)] for i in range(d)]
    eh, ep = min(eg, el), min(eg + em, el)
    Hi = [[(Gi[i][j] << (eg - eh)) + ((li << (el - eh)) if i == j else 0) for j in range(d)] for i in range(d)]
    Pi = [[(GMi[i][j] << (eg + em - ep)) + ((li << (el - ep)) if i == j else 0) for j in range(d)] for i in range(d)]
    # w* = H^{-1} b = Xw / detH * 2^(eb - eh); d_0 = -w* = v / D0.
    Xw, det_h = _solve_int(Hi, bi)
    v = [-row[0] for row in Xw]
    D0 = det_h
    if eb >= eh:
        v = [x << (eb - eh) for x in v]
    else:
        D0 <<= eh - eb
    # K = I - P^{-1} H = I - (Y / detP) 2^(eh - ep) = N / D.
    Y, det_p = _solve_int(Pi, Hi)
    c = eh - ep
    if c >= 0:
        N = [[(det_p if i == j else 0) - (Y[i][j] << c) for j in range(d)] for i in range(d)]
        D = det_p
    else:
        N = [[((det_p << -c) if i == j else 0) - Y[i][j] for j in range(d)] for i in range(d)]
        D = det_p << -c
    w_star = tuple(Fraction(-x, D0) for x in v)
    norm_sq = Fraction(sum(x * x for x in v), D0 * D0)
    err_sq, diff = [norm_sq], [[x / D0 for x in v]]
    den = D0
    for _ in range(T):
        v = [sum(N[i][j] * v[j] for j in range(d)) for i in range(d)]
        den *= D
        err_sq.append(Fraction(sum(x * x for x in v), den * den))
        diff.append([x / den for x in v])  # int / int: correctly rounded
    return ExactRidgePath(w_star=w_star, norm_sq=norm_sq, err_sq=tuple(err_sq), diff=np.array(diff))


def _lam_ints(lam):
    """``(li, el)`` with ``lam == li * 2**el`` (``lam`` a float64)."""
    ints, e = dyadic(np.array([[float(lam)]]))
    return int(ints[0, 0]), e
