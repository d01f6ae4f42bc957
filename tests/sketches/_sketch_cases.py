"""Shared parametrisation of the sketch tests: every kind with representative parameters."""

import numpy as np
import scipy.sparse as sp

from rpcheck.sketches import SKETCH_KINDS, make_sketch

#: (kind, params) pairs covering every registered kind and every parameter branch.
CASES = [
    ("gaussian", {}),
    ("sign", {}),
    ("sparse", {"density": "achlioptas"}),
    ("sparse", {"density": "li"}),
    ("sparse", {"density": 0.05}),
    ("srht", {"replace": True}),
    ("srht", {"replace": False}),
    ("countsketch", {}),
    ("cw", {"q": 2, "v": 2, "a": 2}),
    ("cw", {"q": 1, "v": 4, "a": 2}),
    ("srht-nps", {}),
    ("srht-topr", {}),
    ("srht-supervised", {"rule": "smallest"}),
    ("srht-supervised", {"rule": "largest", "a": 0.5}),
    ("se-isrht", {}),
    ("se-isrht", {"method": "supervised", "r_prime": 24}),
]
assert {k for k, _ in CASES} == set(SKETCH_KINDS)


def is_data_dependent(kind, params):
    """True for the kinds that need ``fit`` (the ``srht-*`` selections and se-isrht with an ISRHT method)."""
    return kind.startswith("srht-") or (kind == "se-isrht" and params.get("method", "srht") != "srht")


OBLIVIOUS = [(k, p) for k, p in CASES if not is_data_dependent(k, p)]
DATA_DEPENDENT = [(k, p) for k, p in CASES if is_data_dependent(k, p)]


def case_id(case):
    kind, params = case
    return kind + "".join(f"-{k}={v}" for k, v in params.items())


def labels(n, rng):
    """Labels in {-1, +1} with both classes present."""
    y = np.where(np.random.default_rng(rng).random(n) < 0.5, -1.0, 1.0)
    y[0], y[-1] = -1.0, 1.0
    return y


def build(kind, params, d, r, *, rng, X=None, y=None):
    """make_sketch, fitted on (X, y) when the kind is data-dependent."""
    S = make_sketch(kind, d, r, rng=rng, **params)
    if S.data_dependent:
        S.fit(X, labels(X.shape[0], 0) if y is None else y)
    return S


def dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


def matmul_error_bound(X, M, u):
    r"""Entrywise forward-error bound for two computations of ``X @ M`` (float64 oracle vs fast path).

    Each entry is a sum of ``d`` products; any summation order (BLAS dot, FWHT butterfly tree of depth
    log2 d', scipy.sparse accumulation) has error <= gamma_m |X| |M| with gamma_m = m u / (1 - m u)
    (Higham, Accuracy and Stability, Sec. 3.1). Taking m = d' + log2(d') + 3 covers the oracle, the fast
    path, the sign/scale multiplications and the cast of R to the working precision ``u``.

    Underflow: in the gradual-underflow model fl(x op y) = (x op y)(1 + delta) + eta with
    |eta| <= smallest_subnormal / 2 (Higham, Sec. 2.1), so each of the m operations on a path adds at most
    that absolute error; ``m * smallest_subnormal`` covers it (it matters only for subnormal data, e.g. a
    float32 entry of 6.8e-43 times 0.126, whose product is rounded to the subnormal grid of spacing 1.4e-45).
    """
    d = X.shape[1]
    dp = 1 << max(d - 1, 0).bit_length()
    m = dp + dp.bit_length() + 3
    gamma = m * u / (1 - m * u)
    tiny = np.finfo(np.float32 if u > 2.0**-30 else np.float64).smallest_subnormal
    return gamma * (np.abs(dense(X)) @ np.abs(dense(M))) + m * float(tiny)


def score_order_bound(Xr, y, a=1.0):
    r"""Bound on the difference of two evaluations of the supervised scores (Lei & Lan 2020, eq. 9) on the
    same rotated rows ``Xr`` whose three row sums (Deg-weighted energies W, class sums S_c, total T) are
    accumulated in different orders: each sum of n terms is within gamma_n of its exact value in absolute
    terms (Higham, Sec. 3.1), so two evaluations differ by 2 gamma_n times the absolute sums; propagated
    through b = W - (1+a) sum_c S_c^2 + a T^2 (|x^2 - x'^2| <= (2|x| + delta) delta), plus 8 u of each
    term for the final products and sums.
    """
    n = Xr.shape[0]
    u = np.finfo(np.float64).eps / 2
    g = 2 * (n + 1) * u / (1 - (n + 1) * u)
    y = np.asarray(y)
    _, inv, counts = np.unique(y, return_inverse=True, return_counts=True)
    deg = (1.0 + a) * counts[inv.ravel()] - a * n
    Wabs = np.abs(deg) @ (Xr * Xr)
    classes = np.unique(y)
    Sabs = np.stack([np.abs(Xr[y == c]).sum(axis=0) for c in classes])
    Sc = np.stack([Xr[y == c].sum(axis=0) for c in classes])
    Tabs, T = np.abs(Xr).sum(axis=0), Xr.sum(axis=0)
    dS, dT = g * Sabs, g * Tabs
    bound = g * Wabs + (1 + a) * ((2 * np.abs(Sc) + dS) * dS).sum(axis=0) + a * (2 * np.abs(T) + dT) * dT
    return bound + 8 * u * (Wabs + (1 + a) * (Sc**2).sum(axis=0) + a * T**2)


def typical_kernel_calls(dt, sparse=True):
    """One call of every compiled-kernel path a sketch or ``fwht`` takes on float dtype ``dt`` (dense, CSR,
    CSC, strided and in-place input; dense only with ``sparse=False``): after ``warmup_kernels(sparse=...)``
    none of them may need a new specialisation."""
    from rpcheck.sketches import fwht

    X = np.random.default_rng(0).standard_normal((70, 1000)).astype(dt)
    A = sp.csr_matrix if sparse else np.asarray
    make_sketch("srht", 1000, 8, rng=0).apply(X)
    make_sketch("srht-nps", 1000, 8, rng=0).fit(X).apply(X)
    y = np.where(np.arange(70) % 2, 1.0, -1.0)
    make_sketch("srht-supervised", 1000, 8, rng=0).fit(A(X), y).apply(A(X))
    make_sketch("se-isrht", 1000, 8, method="topr", rng=0).fit(A(X)).apply(A(X))
    make_sketch("cw", 1000, 8, q=2, v=2, a=2, rng=0).apply(X)
    make_sketch("countsketch", 1000, 8, rng=0).apply(A(X))
    make_sketch("countsketch", 1000, 8, rng=0).apply(sp.csc_array(X) if sparse else X)
    fwht(np.zeros((70, 1024), dt))
    fwht(np.zeros((70, 2048), dt)[:, ::2])
    fwht(np.zeros((70, 1024), dt), inplace=True)
