r"""The Crammer-Singer multiclass linear SVM (Crammer and Singer 2001, JMLR 2; LIBLINEAR ``-s 4``), solved
in the dual and certified by the duality gap.

Problem (no bias), with classes :math:`1..K` and :math:`k_i` the class of :math:`x_i`:

.. math::

    \min_{W, \xi}\ \tfrac12 \|W\|_F^2 + C \sum_i \xi_i \quad \text{s.t.}\quad
    w_{k_i}^T x_i - w_m^T x_i \ge e_i^m - \xi_i\ \ \forall i, m, \qquad e_i^m = 1 - \delta_{k_i m}.

For a given :math:`W` the exact slack is :math:`\xi_i(W) = \max_m (e_i^m + w_m^T x_i - w_{k_i}^T x_i)`
(:math:`\ge 0`, the :math:`m = k_i` term being 0), so the primal objective of any :math:`W` is
:math:`P(W) = \tfrac12\|W\|_F^2 + C\sum_i \xi_i(W)`.

Dual (Keerthi et al. 2008, KDD, eq. (3)-(4)): with :math:`C_i^m = C` if :math:`m = k_i` and 0 otherwise,

.. math::

    \min_\alpha\ f(\alpha) = \tfrac12 \sum_m \|w_m(\alpha)\|^2 + \sum_{i,m} e_i^m \alpha_i^m
    \quad\text{s.t.}\quad \alpha_i^m \le C_i^m,\ \ \sum_m \alpha_i^m = 0,
    \qquad w_m(\alpha) = \sum_i \alpha_i^m x_i,

and the dual objective is :math:`D(\alpha) = -f(\alpha) \le P^* \le P(W)` (weak duality).

Algorithm
---------
The sequential dual method (Keerthi et al. 2008, Algorithm 1, without shrinking): epochs over the examples
in a random order; each example's sub-problem (a ``K``-variable QP on a simplex-like set, their eq. (8)) is
solved **exactly** by the sort-based method of Crammer and Singer (2001, Sec. 6), as LIBLINEAR's
``Solver_MCSVM_CS`` does (compiled in :mod:`rpcheck.svm._cs`). Epochs run in stages of growing budgets;
after each stage an **active-set polish** (``_polish_alpha``: the KKT system restricted to the current
supports, exact when they are the optimal ones) and then the iterate itself are certified. The method
converges linearly and can crawl near ties (measured: relative gap stuck near 1e-5 after 6,000 epochs on 60
points, K = 4), which the polish cuts short; after ``_IPM_AFTER`` epochs without a certificate and for
small problems, an interior-point solve of the primal QP (Clarabel) supplies a dual point from its
constraint multipliers, which is certified as it is or polished by further epochs from there.

Sparse input
------------
A sparse ``X`` stays CSR end to end (float64, duplicates summed, sorted indices; the caller's matrix is
copied, never changed): the epochs run the CSR kernel :func:`rpcheck.svm._cs.cs_epochs_csr` (``O(K nnz(x_i))``
per example instead of ``O(K d)``; on the same data it computes bit for bit what the dense kernel does, see
:mod:`rpcheck.svm._cs`), the certificate forms ``W = (X^T alpha)^T`` and the scores ``X W^T`` as sparse-dense
products and the row norms from the stored values, the polish forms ``X_t X_t^T`` of its active rows as a
sparse product (then dense, at most ``MAX_POLISH`` unknowns), and the Clarabel fallback densifies (only below
``MAX_IPM_CELLS``). Domain: a dense ``X`` needs ``n K (d + 1) <= MAX_CELLS`` (an epoch's ``n K d``
multiply-adds); a sparse one ``n K + K d + nnz(X) <= MAX_SPARSE_CELLS`` (the float64 arrays held: alpha and
the scores ``n K``, ``W`` ``K d``, X's values ``nnz``; about 200 MB). Measured (one run, CPU seconds by
``time.process_time`` on a loaded shared 2-core machine, indicative): a 2,000 x 20,000 RCV1-like stand-in at
0.3% (120,018 non-zeros), 10 classes, C = 10: dense 15.95 s, CSR 1.67-1.73 s, both 25 epochs, the same
certified primal (difference 3e-13) and ``||W_csr - W_dense||_F = 4e-14``.

Rows with ``x_i = 0`` have a linear sub-problem (``min_m e_i^m alpha_i^m``) the epochs skip; its optimum
``alpha_i^{k_i} = C``, ``-C`` on one other class (``xi_i = 1`` at every ``W``) is set before the first epoch.

Certificate
-----------
At the returned ``alpha`` (made exactly feasible: the off-class entries are ``<= 0`` by construction, the
true-class entry is set to minus their sum and capped at ``C``, the others rescaled if it was capped) with
``W = alpha^T X``, the gap ``P(W) - D(alpha) = ||W||_F^2 + C sum_i xi_i(W) + sum_{i,m} e_i^m alpha_i^m``
must satisfy ``gap <= tol * P(W) + fp``, ``tol = 1e-9`` by default; ``fp`` is the float64 rounding
allowance ``4 (n + d + K + 2) eps`` times the magnitudes summed (objective terms and the margins
``|w_m^T x_i| <= ||w_m|| ||x_i||``), about ``(n + d) 1e-16`` relative, far below ``tol``. Otherwise
:class:`rpcheck.errors.SolverError`.

Derived consequence: :math:`P` is 1-strongly convex in :math:`W` (Frobenius norm), so
:math:`\tfrac12 \|W - W^*\|_F^2 \le P(W) - P^* \le P(W) - D(\alpha)`; ``w_error_bound = sqrt(2 (gap + E))``
bounds ``||W - W*||_F`` and every score ``w_m^T x`` to ``||x|| w_error_bound``, with ``E`` the rigorous
rounding bound below (``_rounding_bound``), not the acceptance allowance ``fp``.

w_error_bound: the rounding bound ``E``
---------------------------------------
The returned ``W^ = fl(alpha^T X)`` is the primal point; the exact quantity is
``G = P(W^) - D(alpha) = 1/2 ||W^||^2 + 1/2 ||alpha^T X||^2 + C sum_i xi_i(W^) + e^T alpha`` and the computed one
``gap^``. With ``gamma_k = k eps / (1 - k eps)`` (the bound of a length-k sum or dot product in any order,
Higham 2002, Sec. 3.1): (i) ``|fl(x_i^T w_m) - x_i^T w_m| <= gamma_d |x_i|^T |w_m|`` and the margin
``h_im = x_i^T w_m - x_i^T w_{k_i} + 1``, computed as ``fl(fl(s_m - s_k) + 1)``, has error at most
``err_im = gamma_d (|x_i|^T|w_m| + |x_i|^T|w_{k_i}|) + 3 eps (1 + |s_m| + |s_k|)``; since ``max`` and
``max(0, .)`` are 1-Lipschitz, ``|xi^_i - xi_i| <= max_m err_im``, and it is 0 when ``h^_im + err_im < 0`` for
every ``m != k_i`` (then ``xi_i = xi^_i = 0``), so only the near-active rows count; (ii) the sum of the slacks
adds ``gamma_n sum xi^``; (iii) ``||W^ - alpha^T X||_F <= gamma_n || |alpha|^T |X| ||_F =: dW`` (column dot
products of length n), so ``1/2 ||alpha^T X||^2 <= 1/2 ||W^||^2 + ||W^|| dW + dW^2 / 2``; (iv) ``||W^||^2`` and
``e^T alpha`` as sums of ``K d`` and ``n K`` terms of one sign err by ``gamma_{Kd}`` and ``gamma_{nK}``
relatively; (v) the few final additions and products by ``4 eps`` of the magnitudes. ``E`` is their sum (the
``|x|^T|w|`` and ``|alpha|^T|X|`` products computed in float64 are divided by ``1 - gamma`` to bound the exact
ones; everything inflated by 1e-6 relatively for the rounding of ``E`` itself), so ``G <= gap^ + E``. On
sparse rows the dot length ``d`` is kept (valid: ``nnz(x_i) <= d``). ``tests/svm/test_multiclass_csr.py``
checks ``G <= gap^ + E`` with ``G`` in extended precision. The acceptance test is ``gap <= tol P + fp`` (``E``
sharpens only ``w_error_bound``). Example (paul2014.repro.hapmap's full-size r = 2048 RG fit, seed 11, 1,500 x
2,048 training rows, K = 5, C = 1000): ``P = 2.0e-3``, ``gap^ = 2.9e-10`` (relative 1.4e-7, accepted because
``fp = 2.8e-5``, its margin term ``C g_ 2 max||w_m|| sum ||x_i||`` being 2.84e-5 of it), ``E = 1.2e-6``
(690 of 1,500 rows near-active), so ``w_error_bound`` is 1.6e-3 with ``E`` against 7.5e-3 with ``fp``, and
no test prediction is undetermined against 93.2% with ``fp``. The relative gap itself cannot reach 1e-9 there:
``C`` times one rounding of an ``O(1)`` margin per support vector, ``1000 x 690 x 1.1e-16 = 7.7e-11``, is
already 4e-8 of ``P``.

``K = 2`` (derived, used in the tests): with :math:`v = w_2 - w_1` the constraints read
:math:`s_i v^T x_i \ge 1 - \xi_i` (:math:`s_i = \pm 1`), and for fixed :math:`v` the smallest
:math:`\|w_1\|^2 + \|w_2\|^2` is :math:`\|v\|^2/2` (at :math:`w_2 = -w_1 = v/2`). Hence
:math:`P_{CS}(C) = \tfrac12 P_{bin}(2C)` with :math:`v^*` the no-bias hinge-loss SVM solution at
:math:`C' = 2C` and :math:`W^* = [-v^*/2; v^*/2]`.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp

from .._threads import single_thread_blas
from .._validation import check_int, check_interval, check_vector
from ..errors import RpcheckError, SolverError
from ._common import check_finite_outputs, stage_budget, validate_C_scale, validate_X
from ._results import MulticlassResult

__all__ = ["solve_crammer_singer", "cs_primal_objective", "MAX_CELLS", "MAX_SPARSE_CELLS"]

#: Epoch budgets of the successive stages (a certificate after each; the last runs the rest of max_iter).
_STAGES = tuple(int(10 * 1.5 ** k) for k in range(14))   # 10, 15, 22, ..., 1946 epochs
#: An epoch also ends the stage when every sub-problem violation is <= this (margin units).
_V_STOP = 1e-13
_EPS = np.finfo(np.float64).eps
_SEED = 0x5EED_C5C5
#: After this many epochs without a certificate, an interior-point solve (Clarabel) of the primal gives a
#: dual point (then polished by further epochs), when n K (d + 1) <= MAX_IPM_CELLS.
_IPM_AFTER = 2000
MAX_IPM_CELLS = 200_000
#: The polish is tried once the largest sub-problem violation is below this (margin units); before, its
#: guessed supports are rarely right.
_POLISH_FROM = 1e-2
#: The polish solves a dense system of the T active pairs and B bound examples; above ``T + B = MAX_POLISH``
#: unknowns it is skipped. Forming it costs T^2 d and solving it (T + B)^3 / 3; its matrix takes 8 (T + B)^2
#: bytes (512 MiB at the limit) and the solve one copy of it (the Gram and class-coefficient blocks are formed
#: in place, ``_kkt_solve``). History: 800 pairs, which a 1,500-point, 5-class, 2,048-dimensional separable
#: problem exceeds (921 pairs; the sequential dual method then stalled at a relative gap near 0.3 for 20,000
#: epochs, SolverError after 217 CPU s; the polish at 921 pairs certifies it after 25 epochs, 0.8 CPU s); then
#: 4,000 pairs (T alone), which 50-class C = 1000 problems of 650 and 1,500 points in 512 and 256 dimensions
#: (a genotype-like stand-in) exceed: 4,278 and 4,943 pairs at the certified polish; with SDM alone they stalled
#: at relative gaps of 1.6e-2 and 1.4e-2 after 2,000 epochs (SolverError, 22.8 and 25.4 CPU s); with the polish
#: they are certified after 25 and 80 epochs, 4.3 and 11.7 CPU s, peak resident memory of the process 0.51 and
#: 0.63 GB (one measurement each on a loaded machine, indicative). Every system the 4,000-pair limit allowed
#: (T <= 4,000, so T + B <= 8,000) is still solved, in the same order.
MAX_POLISH = 8192
#: Rows of the class-coefficient block formed at a time in ``_kkt_solve`` (a 1024 x T temporary).
_POLISH_BLOCK = 1024
#: Largest n * K * (d + 1) accepted for a dense ``X`` (an epoch costs n K d multiply-adds; about 200 MB of
#: float64 as cells).
MAX_CELLS = 25_000_000
#: Largest n K + K d + nnz(X) accepted for a sparse ``X`` (kept CSR): the float64 arrays the solver holds
#: besides X's indices, alpha and the scores (n K), W (K d) and the values of X (nnz); about 200 MB.
MAX_SPARSE_CELLS = 25_000_000


def _encode_labels(y, n):
    yy = check_vector("y", y, n)
    if yy.dtype.kind not in "biuf" or (yy.dtype.kind == "f" and not np.all(np.isfinite(yy) & (yy == np.round(yy)))):
        raise RpcheckError(f"`y` must contain integer class labels; got dtype {yy.dtype} with values "
                           f"{np.unique(yy)[:5].tolist()}.")
    classes, yk = np.unique(yy, return_inverse=True)
    if classes.size < 2:
        raise RpcheckError(f"`y` must contain at least 2 distinct classes; got {classes.tolist()}.")
    return classes, yk.astype(np.int64)


def _slacks(S, yk):
    n, K = S.shape
    sy = S[np.arange(n), yk]
    M = S - sy[:, None] + 1.0
    M[np.arange(n), yk] = 0.0
    return np.maximum(M.max(axis=1), 0.0)


def cs_primal_objective(W, X, y, C, classes=None):
    """``P(W) = ||W||_F^2 / 2 + C sum_i xi_i(W)`` with the exact slacks (see the module docstring).

    ``W`` has one row per class of ``classes`` (default: the sorted distinct labels of ``y``). Used to score
    any candidate ``W`` (e.g. another solver's) against the certified dual bound.
    """
    X = validate_X(X)
    cl, yk = _encode_labels(y, X.shape[0])
    if classes is not None:
        cl = np.asarray(classes)
        idx = np.searchsorted(cl, np.asarray(y))
        if np.any(idx >= cl.size) or np.any(cl[np.minimum(idx, cl.size - 1)] != np.asarray(y)):
            raise RpcheckError("`classes` must contain every label of `y`.")
        yk = idx.astype(np.int64)
    W = np.asarray(W, dtype=np.float64)
    if W.ndim != 2 or W.shape != (cl.size, X.shape[1]):
        raise RpcheckError(f"`W` must have shape ({cl.size}, {X.shape[1]}); got {W.shape}.")
    S = np.asarray(X @ W.T)
    return 0.5 * float(np.sum(W * W)) + C * float(_slacks(S, yk).sum())


def _feasible(alpha, yk, C):
    """Project the iterate onto the dual feasible set exactly (see the module docstring)."""
    n = alpha.shape[0]
    a = np.minimum(alpha, 0.0)
    rows = np.arange(n)
    a[rows, yk] = 0.0
    s = -a.sum(axis=1)                     # >= 0
    over = s > C
    if np.any(over):
        a[over] *= (C / s[over])[:, None]
        s = np.where(over, C, s)
    a[rows, yk] = s
    return a


def _sq_norms(X):
    """Squared row norms: the dense path's einsum; for CSR the sum of each row's squared stored values."""
    if sp.issparse(X):
        return np.add.reduceat(np.append(X.data * X.data, 0.0), X.indptr[:-1]) * (np.diff(X.indptr) > 0)
    return np.einsum("ij,ij->i", X, X)


def _weights(a, X):
    """``W = a^T X`` (K, d), C-contiguous; for CSR X as ``(X^T a)^T`` (a sparse-dense product)."""
    if sp.issparse(X):
        return np.ascontiguousarray(np.asarray(X.T @ a).T)
    return a.T @ X


def _certificate(X, yk, alpha, C, K):
    n, d = X.shape
    a = _feasible(alpha, yk, C)
    W = _weights(a, X)                     # (K, d)
    S = np.asarray(X @ W.T)
    xi = _slacks(S, yk)
    wsq = float(np.sum(W * W))
    E = np.ones((n, K))
    E[np.arange(n), yk] = 0.0
    ea = float(np.sum(E * a))              # <= 0
    P = 0.5 * wsq + C * float(xi.sum())
    D = -0.5 * wsq - ea
    xn = np.sqrt(_sq_norms(X)) if sp.issparse(X) else np.linalg.norm(X, axis=1)
    wn = float(np.max(np.linalg.norm(W, axis=1)))
    g_ = 4.0 * (n + d + K + 2) * _EPS
    fp = g_ * (abs(P) + abs(D) + wsq + abs(ea)) + C * g_ * 2.0 * wn * float(xn.sum())
    return {"a": a, "W": W, "xi": xi, "P": P, "D": D, "gap": P - D, "fp": fp, "S": S, "wsq": wsq, "ea": ea}


def _gamma(k):
    """``gamma_k = k eps / (1 - k eps)``: the relative error bound of a length-``k`` sum or dot product in any
    order (Higham 2002, Sec. 3.1; pairwise, blocked and FMA evaluations satisfy it too)."""
    return k * _EPS / (1.0 - k * _EPS)


#: Relative inflation of the rounding bound's own computed terms (each is computed with a relative error of
#: at most (n + d + K + 10) eps, far below 1e-6 for every accepted size).
_BOUND_INFLATE = 1.0 + 1e-6


def _rounding_bound(X, yk, cert, C):
    """A rigorous bound ``E`` with ``P(W^) - D(alpha) <= gap^ + E`` for the certificate's computed values (the
    derivation is in the module docstring, "w_error_bound"). Used for ``w_error_bound`` only; the acceptance
    test ``gap <= tol P + fp`` is unchanged."""
    n, d = X.shape
    W, a, S, xi = cert["W"], cert["a"], cert["S"], cert["xi"]
    rows = np.arange(n)
    gd, gn = _gamma(d), _gamma(n)
    Xa = abs(X) if sp.issparse(X) else np.abs(X)
    A = np.asarray(Xa @ np.abs(W).T) / (1.0 - gd)            # >= |x_i|^T |w_m| (sum of non-negative terms)
    sy = S[rows, yk]
    Sa = np.abs(S)
    err = gd * (A + A[rows, yk][:, None]) + 3.0 * _EPS * (1.0 + Sa + Sa[rows, yk][:, None])
    err[rows, yk] = 0.0
    h = S - sy[:, None] + 1.0                                # as _slacks computes it
    h[rows, yk] = -np.inf
    near = np.any(h + err * _BOUND_INFLATE >= 0.0, axis=1)   # elsewhere xi_i = xi^_i = 0 exactly
    e_xi = float(err[near].max(axis=1).sum()) if np.any(near) else 0.0
    B = np.asarray(Xa.T @ np.abs(a)) / (1.0 - gn)            # (d, K) >= |alpha|^T |X|, transposed
    dW = gn * float(np.linalg.norm(B))                       # >= ||W^ - alpha^T X||_F
    wsq, ea, sxi = cert["wsq"], abs(cert["ea"]), float(xi.sum())
    wn = math.sqrt(wsq / (1.0 - _gamma(W.size)))
    E = (_gamma(W.size) / (1.0 - _gamma(W.size)) * wsq + wn * dW + 0.5 * dW * dW
         + C * (e_xi + gn * sxi) + _gamma(a.size) * ea
         + 4.0 * _EPS * (abs(cert["P"]) + abs(cert["D"]) + wsq + C * sxi + ea))
    return E * _BOUND_INFLATE


def _validate(X, y, C, tol, max_iter):
    X = validate_X(X)
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)  # canonical: duplicates summed, indices sorted
        X.sum_duplicates()
        X.sort_indices()
    classes, yk = _encode_labels(y, X.shape[0])
    C = check_interval("C", C, 0, None, closed="neither", finite=True)
    C = validate_C_scale(C, X)
    tol = check_interval("tol", tol, 1e-15, 1e-3)
    max_iter = check_int("max_iter", max_iter, 1)
    n, d, K = X.shape[0], X.shape[1], classes.size
    if sp.issparse(X):
        cells = n * K + K * d + X.nnz
        if cells > MAX_SPARSE_CELLS:
            raise RpcheckError(f"`X` (sparse) with {n} rows, {d} columns, {X.nnz} non-zeros and {K} classes needs "
                               f"n K + K d + nnz = {cells} cells; at most MAX_SPARSE_CELLS = {MAX_SPARSE_CELLS} "
                               "are allowed.")
    else:
        cells = n * K * (d + 1)
        if cells > MAX_CELLS:
            raise RpcheckError(f"`X` with {n} rows, {d} columns and {K} classes needs "
                               f"n K (d + 1) = {cells} cells; at most {MAX_CELLS} are allowed.")
    return X, classes, yk, C, tol, max_iter


def solve_crammer_singer(X, y, C, *, tol=1e-9, max_iter=20_000):
    r"""Solve the Crammer-Singer multiclass linear SVM (no bias) exactly in the dual, with a gap certificate.

    Parameters
    ----------
    X : array_like or sparse matrix of shape (n, d)
        Rows are the points. Dense: ``n K (d + 1) <= MAX_CELLS``. Sparse: kept CSR end to end (float64,
        duplicates summed, sorted indices; epochs cost ``O(K nnz)``), ``n K + K d + nnz <= MAX_SPARSE_CELLS``.
    y : array_like of shape (n,)
        Integer class labels, at least 2 distinct values; ``classes = np.unique(y)``.
    C : float
        Loss weight, ``0 < C < inf``.
    tol : float, default=1e-9
        Relative duality gap the certificate requires, ``gap <= tol * primal + fp``; in ``[1e-15, 1e-3]``.
    max_iter : int, default=20000
        Maximum number of epochs (passes over the examples), ``>= 1``.

    Returns
    -------
    MulticlassResult
        ``W`` (K, d), ``alpha`` (n, K), ``classes``, ``primal``, ``dual``, ``gap``, ``gap_rel``,
        ``w_error_bound``, ``slack``, ``iterations``.

    Raises
    ------
    RpcheckError
        Bad input (named argument, value and allowed values).
    SolverError
        No iterate passed the certificate within ``max_iter`` epochs.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]]); y = np.array([0, 1])
    >>> res = solve_crammer_singer(X, y, 10.0)  # K = 2: v = w_1 - w_0 = (-1, 0), W = [v/-2; v/2]
    >>> np.round(res.W, 9).tolist(), round(res.primal, 9)
    ([[0.5, 0.0], [-0.5, 0.0]], 0.25)
    """
    t0 = time.perf_counter()
    X, classes, yk, C, tol, max_iter = _validate(X, y, C, tol, max_iter)
    with single_thread_blas():
        return _solve(X, classes, yk, C, tol, max_iter, t0)


def _solve(X, classes, yk, C, tol, max_iter, t0):
    from ._cs import cs_epochs, cs_epochs_csr  # lazy: numba kernels, compiled on first use

    n, d = X.shape
    K = classes.size
    sq = _sq_norms(X)
    if sp.issparse(X):
        csr = (X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data)

        def run(alpha, W, left, seed):
            return cs_epochs_csr(*csr, yk, float(C), sq, alpha, W, left, _V_STOP, seed)
    else:
        def run(alpha, W, left, seed):
            return cs_epochs(X, yk, float(C), sq, alpha, W, left, _V_STOP, seed)
    alpha = np.zeros((n, K))
    # Rows with x_i = 0 (sq = 0; the epochs skip them): their sub-problem is linear, min sum_m e_i^m alpha_i^m,
    # with the optimum alpha_i^{k_i} = C and -C on one other class (xi_i = 1 whatever W; they add nothing to
    # W). Set here once; before, they stayed at 0 and left a gap of C each (SolverError).
    z = np.flatnonzero(sq <= 0.0)
    if z.size:
        alpha[z, yk[z]] = C
        alpha[z, (yk[z] + 1) % K] = -C
    W = np.zeros((K, d))
    epochs, viol, best, tried_ipm = 0, math.inf, None, False
    tried = {}                             # polish systems solved so far (see _polish_alpha)
    for k in range(len(_STAGES) + 1):
        left = stage_budget(_STAGES, k, max_iter, epochs)
        if left <= 0:
            break
        ran, viol = run(alpha, W, left, _SEED + epochs)
        epochs += int(ran)
        for pol in (_polish_alpha(X, yk, alpha, C, K, W, tried) if viol <= _POLISH_FROM else ()):
            pc = _certificate(X, yk, pol, C, K)
            if pc["gap"] <= tol * pc["P"] + pc["fp"]:
                return _result(pc, classes, C, epochs, viol, t0, n, d, solver="SDM+polish", X=X, yk=yk)
        cert = _certificate(X, yk, alpha, C, K)
        if best is None or cert["gap"] / cert["P"] < best["gap"] / best["P"]:
            best = cert
        if cert["gap"] <= tol * cert["P"] + cert["fp"]:
            return _result(cert, classes, C, epochs, viol, t0, n, d, X=X, yk=yk)
        if viol <= _V_STOP:
            break
        W = cert["W"].copy()              # drop the drift of the incremental updates
        alpha = cert["a"].copy()
        if epochs >= _IPM_AFTER and n * K * (d + 1) <= MAX_IPM_CELLS and not tried_ipm:
            tried_ipm = True
            a_ipm = _ipm_alpha(X, yk, C, K)
            if a_ipm is not None:
                cert = _certificate(X, yk, a_ipm, C, K)
                if cert["gap"] / cert["P"] < best["gap"] / best["P"]:
                    best = cert
                if cert["gap"] <= tol * cert["P"] + cert["fp"]:
                    return _result(cert, classes, C, epochs, viol, t0, n, d, solver="SDM+Clarabel", X=X, yk=yk)
                alpha = cert["a"].copy()  # polish: the sequential dual method warm-started at the IPM point
                W = cert["W"].copy()
    raise SolverError(
        f"solve_crammer_singer: no certified point after {epochs} epochs (max_iter={max_iter}): relative gap "
        f"{best['gap'] / best['P']:.2e} (tol {tol:g}) [n={n}, d={d}, K={K}, C={C:g}]",
        status="not_certified", solver="SDM",
    )


def _n_bound(ii, bound, n):
    """Number of bound examples with an active pair: the ``B`` of :func:`_kkt_solve`'s system."""
    return int(np.count_nonzero(bound & (np.bincount(ii, minlength=n) > 0)))


def _kkt_solve(X, yk, C, n, ii, mm, bound):
    """Solve the KKT system of the active pairs ``(ii, mm)`` with the bound examples ``bound`` (see
    :func:`_polish_alpha`); returns ``lambda`` (length ``len(ii)``) or None."""
    T = ii.size
    yt = yk[ii]
    bset = np.flatnonzero(bound & (np.bincount(ii, minlength=n) > 0))
    B = bset.size
    # <g_t, g_s> = cf_ts <x_i, x_j> with cf = E E^T, E_t = e_{k_i} - e_m (exact small integers; + 0.0 makes a
    # -0.0 a +0.0): formed block by block in place on the Gram matrix, so the peak is the Gram matrix, the
    # system's matrix and the solver's copy of it (no T x T temporaries besides).
    Xt = X[ii]
    G = (Xt @ Xt.T).toarray() if sp.issparse(Xt) else Xt @ Xt.T
    E = np.zeros((T, int(max(yk.max(), mm.max())) + 1))
    E[np.arange(T), yt] = 1.0
    E[np.arange(T), mm] = -1.0
    for lo in range(0, T, _POLISH_BLOCK):
        cfb = E[lo:lo + _POLISH_BLOCK] @ E.T
        cfb += 0.0
        G[lo:lo + _POLISH_BLOCK] *= cfb
    del cfb
    Mx = np.zeros((T + B, T + B))
    Mx[:T, :T] = G
    del G
    return _bordered_solve(Mx, ii, bset, n, C)


def _bordered_solve(Mx, ii, bset, n, C):
    """Complete and solve the polish's KKT system: ``Mx`` holds the pairs' Gram block in ``Mx[:T, :T]``
    (``T = len(ii)``); the border couples each active pair to its bound example (``bset``, of ``n`` examples),
    whose row says ``sum_{t in i} lambda_t = C``. Returns ``lambda`` or None (non-finite). Shared with
    :mod:`rpcheck.svm.joint`."""
    T, B = ii.size, bset.size
    pos = np.full(n, -1)
    pos[bset] = np.arange(B)
    tb = pos[ii]
    sel = np.flatnonzero(tb >= 0)
    Mx[sel, T + tb[sel]] = 1.0
    Mx[T + tb[sel], sel] = 1.0
    rhs = np.concatenate([np.ones(T), np.full(B, float(C))])
    try:
        sol = np.linalg.solve(Mx, rhs)
    except np.linalg.LinAlgError:
        sol = np.linalg.lstsq(Mx, rhs, rcond=None)[0]
    return sol[:T] if np.all(np.isfinite(sol)) else None


def _polish_alpha(X, yk, alpha, C, K, W, tried=None):
    """Active-set polish: the exact optimum if the guessed supports are those of an optimum.

    With active pairs ``t = (i, m)``, ``m != k_i`` (multipliers ``lambda_t = -alpha_i^m > 0``, so their
    constraints are tight) and the examples at the bound ``alpha_i^{k_i} = C`` (slack ``xi_i`` free), the KKT
    conditions are the linear system ``sum_s <g_t, g_s> lambda_s + [i bound] xi_i = 1`` for every active
    ``t`` and ``sum_{t in i} lambda_t = C`` for every bound ``i``, with ``g_t = (e_{k_i} - e_m) x_i^T`` (so
    ``W = sum_t lambda_t g_t`` and ``<g_t, g_s> = <e_{k_i} - e_m, e_{k_j} - e_{m'}> <x_i, x_j>``). The supports
    are guessed from the iterate: ``alpha_i^m < 0`` and the constraint within ``tau`` of tight at ``W`` (for
    ``tau`` in 1e-6, 1e-4, 1e-2); pairs whose ``lambda`` comes out negative are dropped and examples whose
    multipliers sum above ``C`` are moved to the bound set, for a few rounds. Yields the candidate dual points
    lazily (the certificate decides whether one is optimal; the caller stops at the first certified one).

    ``tried`` (a dict kept by the caller across stages) records each system solved: the candidate is a function
    of the active pairs and the bound set alone, so a system seen before would give the same point, rejected
    by the certificate again (recorded as None), or the same pruning (recorded and replayed): nothing is
    solved twice and the sequence of candidates is the one without the record."""
    n = X.shape[0]
    a = _feasible(alpha, yk, C)
    S = np.asarray(X @ W.T)
    rows = np.arange(n)
    h = S - S[rows, yk][:, None] + 1.0
    h[rows, yk] = 0.0
    xi = np.maximum(h.max(axis=1), 0.0)
    for tau in (1e-6, 1e-4, 1e-2):
        act = (a < 0.0) & (h >= xi[:, None] - tau)
        act[rows, yk] = False
        bound = a[rows, yk] >= C * (1.0 - 1e-9)
        for _ in range(4):
            ii, mm = np.nonzero(act)
            if ii.size == 0 or ii.size + _n_bound(ii, bound, n) > MAX_POLISH:
                break
            key = (act.tobytes(), bound.tobytes())
            if tried is not None and key in tried:
                if tried[key] is None:  # no system, or its candidate failed the certificate before
                    break
                neg, over = tried[key]  # the same pruning as before, without solving again
            else:
                lam = _kkt_solve(X, yk, C, n, ii, mm, bound)
                if lam is None:
                    if tried is not None:
                        tried[key] = None
                    break
                neg = lam < 0.0
                over = np.bincount(ii, weights=lam, minlength=n) > C * (1.0 + 1e-12)
                if not np.any(neg) and not np.any(over & ~bound):
                    if tried is not None:
                        tried[key] = None  # reached again only if the caller's certificate rejected it
                    cand = np.zeros_like(a)
                    cand[ii, mm] = -lam
                    cand[rows, yk] = np.bincount(ii, weights=lam, minlength=n)
                    yield cand
                    break
                if tried is not None:
                    tried[key] = (neg, over)
            act[ii[neg], mm[neg]] = False
            bound |= over


def _ipm_alpha(X, yk, C, K):
    """Dual point from an interior-point solve (Clarabel, called directly) of the primal QP in
    ``z = [vec(W) (row-major); xi]``: with multipliers ``lambda_im >= 0`` of the rows
    ``w_m^T x_i - w_{k_i}^T x_i - xi_i <= -1`` (``m != k_i``), ``alpha_i^m = -lambda_im`` and
    ``alpha_i^{k_i} = sum_{m != k_i} lambda_im`` (stationarity in ``W``: ``W = alpha^T X``; in ``xi``:
    ``sum_m lambda_im + mu_i = C`` with ``mu_i >= 0`` the multiplier of ``xi_i >= 0``, so the true-class
    entry is ``<= C``). None if the solve fails."""
    try:
        import clarabel
    except ImportError:  # pragma: no cover
        return None
    n, d = X.shape
    if sp.issparse(X):                     # small (n K (d + 1) <= MAX_IPM_CELLS): densify
        X = X.toarray()
    nv = K * d + n
    ii, mm = np.nonzero(np.arange(K)[None, :] != yk[:, None])       # the n (K - 1) margin rows
    r = ii.size
    rows = np.arange(r)
    # row t: +x_i on block m, -x_i on block k_i, -1 on xi_i
    R1 = np.repeat(rows, d)
    C1 = (mm[:, None] * d + np.arange(d)[None, :]).ravel()
    C2 = (yk[ii][:, None] * d + np.arange(d)[None, :]).ravel()
    V = X[ii].ravel()
    A1 = sp.csc_matrix((np.concatenate([V, -V, -np.ones(r)]),
                        (np.concatenate([R1, R1, rows]), np.concatenate([C1, C2, K * d + ii]))), shape=(r, nv))
    A2 = sp.csc_matrix((-np.ones(n), (np.arange(n), K * d + np.arange(n))), shape=(n, nv))
    A = sp.vstack([A1, A2], format="csc")
    b = np.concatenate([-np.ones(r), np.zeros(n)])
    P = sp.csc_matrix((np.ones(K * d), (np.arange(K * d), np.arange(K * d))), shape=(nv, nv))
    q = np.concatenate([np.zeros(K * d), np.full(n, float(C))])
    st = clarabel.DefaultSettings()
    st.verbose = False
    st.tol_gap_abs = st.tol_gap_rel = 1e-12
    st.tol_feas = st.tol_ktratio = 1e-12
    st.max_iter = 400
    try:
        sol = clarabel.DefaultSolver(P, q, A, b, [clarabel.NonnegativeConeT(r + n)], st).solve()
    except Exception:  # solver failure: the caller keeps the SDM iterate
        return None
    z = np.asarray(sol.z, dtype=np.float64)
    if z.shape != (r + n,) or not np.all(np.isfinite(z)):
        return None
    lam = np.maximum(z[:r], 0.0)
    a = np.zeros((n, K))
    a[ii, mm] = -lam
    a[np.arange(n), yk] = np.bincount(ii, weights=lam, minlength=n)
    return a


def _result(cert, classes, C, epochs, viol, t0, n, d, solver="SDM", *, X, yk):
    check_finite_outputs("solve_crammer_singer", f"n={n}, d={d}, C={C:g}", W=cert["W"], alpha=cert["a"],
                         primal=cert["P"], dual=cert["D"])
    gap = float(cert["gap"])
    E = _rounding_bound(X, yk, cert, C)
    return MulticlassResult(
        W=cert["W"], alpha=cert["a"], classes=np.asarray(classes).copy(), primal=float(cert["P"]),
        dual=float(cert["D"]), gap=gap, gap_rel=float(abs(gap) / cert["P"]) if cert["P"] > 0 else 0.0,
        fp_allowance=float(cert["fp"]), w_error_bound=float(math.sqrt(2.0 * (max(gap, 0.0) + E)) * _BOUND_INFLATE),
        slack=cert["xi"], violation=float(viol), C=float(C), solver=solver, status="optimal",
        iterations=int(epochs), solve_time=time.perf_counter() - t0,
    )
