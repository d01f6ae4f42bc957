r"""Shared pieces of the Lei & Lan (2020) checkers: citation, data instances, exact enumeration of the
sampled Gram matrix, the supervised score in its three forms and the toy data of Fig. 1.

Everything here is an *oracle*: dense, closed-form or enumerated, written from the paper
independently of the fast paths in ``rpcheck.sketches`` that the checkers test against it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import scipy.linalg

from ..._rng import as_generator
from ..._validation import check_int
from ...engine import Citation, Constraint, Param
from ...errors import RpcheckError

CITATION = Citation(
    authors="Zijian Lei and Liang Lan",
    year=2020,
    title="Improved Subsampled Randomized Hadamard Transform for Linear SVM",
    venue="AAAI 2020",
    location="Sec. 3",
)

#: Relative tolerance of exact float64 identities (sums of at most ~10^4 terms, each <= the scale): the
#: round-off is <= 10^4 * 2.2e-16 * scale ~ 2e-12 * scale, so 1e-9 leaves a 500x margin and cannot hide a
#: wrong formula (which errs by O(scale)).
RTOL_EXACT = 1e-9


def citation(location, equations=""):
    return Citation(CITATION.authors, CITATION.year, CITATION.title, CITATION.venue, location, equations=equations)


def pad_pow2(X):
    """Zero-pad the columns of X to the next power of two (Sec. 3: H_d needs d = 2^k; Alg. 1 step 1)."""
    d = X.shape[1]
    dp = 1 << (d - 1).bit_length()
    if dp == d:
        return X
    return np.hstack([X, np.zeros((X.shape[0], dp - d))])


def rotate_dense(X, signs):
    """Oracle rotation X_r = pad(X) D H with the explicit Sylvester matrix (scipy.linalg.hadamard)."""
    Xp = pad_pow2(np.asarray(X, dtype=np.float64))
    d = Xp.shape[1]
    s = np.ones(d)
    s[: len(signs)] = signs
    return (Xp * s) @ scipy.linalg.hadamard(d) / math.sqrt(d)


def dpad(d):
    """The padded dimension d' = 2**ceil(log2 d) on which the Hadamard rotation acts."""
    return 1 << (int(d) - 1).bit_length()


# --------------------------------------------------------------------------------------------------------
# parameter domains shared by the checkers (Theorem.parameters / constraints)
# --------------------------------------------------------------------------------------------------------
DATA_KINDS = ("gaussian", "scaled", "lowrank", "spiky")


def p_prob(doc):
    """A probability strictly inside (0, 1) (delta, eps)."""
    return Param("float", low=0.0, high=1.0, closed="neither", doc=doc)


P_N = Param("int", low=1, doc="number of points n", size=True)
P_D = Param("int", low=1, doc="input dimension d (padded to d' = 2**ceil(log2 d) for the rotation)", size=True)
P_R = Param("int", low=1, doc="target dimension r", size=True)
P_DATA = Param("choice", choices=DATA_KINDS, doc="data family of make_data")

#: r <= d': SRHT without replacement and top-r/supervised selections pick r distinct rotated columns.
R_LE_DPAD = Constraint("r <= d' (r distinct columns of the padded rotation, d' = 2**ceil(log2 d))",
                       lambda p: p["r"] <= dpad(p["d"]))


def data_theorem_kw(*, distinct=True):
    """Theorem keyword arguments shared by the checkers of :func:`make_data`'s n x d X at target dimension r:
    the data array of the memory model (rpcheck.engine.theorem.trial_memory), the (n, d, r, data) parameters,
    the FWHT round-off tolerance and, when the r columns are distinct (SRHT without replacement), r <= d'."""
    kw = {"arrays": (("n", "d"),), "parameters": {"n": P_N, "d": P_D, "r": P_R, "data": P_DATA},
          "tolerance": RTOL_EXACT}
    if distinct:
        kw["constraints"] = (R_LE_DPAD,)
    return kw


def make_data(kind, n, d, rng):
    """A data instance X (n x d) of one of the families used by the checkers.

    "gaussian": i.i.d. N(0,1); "scaled": Gaussian with column scales 10^U(-1,1) (unequal energies);
    "lowrank": rank 3 plus 1e-3 noise; "spiky": rows are scaled standard basis vectors (hard for flattening).
    """
    rng = as_generator(rng)
    if kind == "gaussian":
        return rng.standard_normal((n, d))
    if kind == "scaled":
        return rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-1, 1, size=d)
    if kind == "lowrank":
        k = min(3, n, d)
        return rng.standard_normal((n, k)) @ rng.standard_normal((k, d)) + 1e-3 * rng.standard_normal((n, d))
    if kind == "spiky":
        X = np.zeros((n, d))
        X[np.arange(n), rng.integers(0, d, size=n)] = rng.uniform(0.5, 2.0, size=n)
        return X
    raise RpcheckError(f"`kind` ({kind!r}) must be one of 'gaussian', 'scaled', 'lowrank', 'spiky'.")


def signs(d, rng):
    return 2.0 * rng.integers(0, 2, size=d) - 1.0


def energies(Xr):
    return np.einsum("ij,ij->j", Xr, Xr)


# --------------------------------------------------------------------------------------------------------
# exact enumeration of the sampled Gram matrix
# --------------------------------------------------------------------------------------------------------
def compositions(r, d):
    """All count vectors m in N^d with sum r (multisets of r draws from d columns), shape (M, d)."""
    out = []
    for bars in itertools.combinations(range(r + d - 1), d - 1):
        prev, m = -1, []
        for b in bars:
            m.append(b - prev - 1)
            prev = b
        m.append(r + d - 1 - prev - 1)
        out.append(m)
    return np.array(out, dtype=np.int64)


def with_replacement_outcomes(p, r):
    """(weights W (M, d), probabilities q (M,)) of every outcome of r i.i.d. draws with probabilities p.

    Outcome m (a count vector) has probability r!/prod(m_j!) prod p_j^m_j and gives K~ = X_r diag(w) X_r^T
    with w_j = m_j / (r p_j) (eq. 5: each draw of column j contributes x_j x_j^T / (r p_j)).
    """
    p = np.asarray(p, dtype=np.float64)
    d = p.size
    M = compositions(r, d)
    logq = math.lgamma(r + 1) - np.sum([[math.lgamma(k + 1) for k in row] for row in M], axis=1)
    lp = np.log(np.where(p > 0, p, 1.0))
    q = np.exp(logq + (M * lp).sum(axis=1))
    q[np.any((M > 0) & (p == 0), axis=1)] = 0.0  # an outcome drawing a zero-probability column
    keep = q > 0
    M, q = M[keep], q[keep]
    W = np.where(M > 0, M / (r * np.where(p > 0, p, 1.0)), 0.0)
    return W, q


def without_replacement_outcomes(d, r):
    """(weights, probabilities) of a uniform r-subset with scale d/r (eq. 2: sqrt(d/r) on each column)."""
    subsets = list(itertools.combinations(range(d), r))
    W = np.zeros((len(subsets), d))
    for i, s in enumerate(subsets):
        W[i, list(s)] = d / r
    return W, np.full(len(subsets), 1.0 / len(subsets))


def grams(Xr, W):
    """K~ for each weight vector: (M, n, n) array, K~ = X_r diag(w) X_r^T."""
    return np.einsum("ik,mk,jk->mij", Xr, W, Xr)


def outcome_count(d, r, replace):
    return math.comb(r + d - 1, r) if replace else math.comb(d, r)


# --------------------------------------------------------------------------------------------------------
# supervised score (eqs. 8-10) in three independent forms
# --------------------------------------------------------------------------------------------------------
def affinity(y, a):
    """A_ij = 1 if y_i == y_j else -a (A_ii = 1), eq. (8)."""
    same = y[:, None] == y[None, :]
    return np.where(same, 1.0, -a)


def laplacian(y, a):
    A = affinity(y, a)
    return np.diag(A.sum(axis=1)) - A


def scores_laplacian(Xr, y, a):
    """b = diag(X_r^T L X_r) with the explicit signed Laplacian L = Deg - A (eq. 9)."""
    L = laplacian(y, a)
    return np.einsum("ik,ij,jk->k", Xr, L, Xr)


def scores_class_stats(Xr, y, a):
    r"""b_k = n+^2 s+^2 + n-^2 s-^2 - a n+ n- (s+^2 + s-^2 + (m+ - m-)^2) (eqs. (8)-(9), DERIVED)."""
    P, N = Xr[y > 0], Xr[y < 0]
    npos, nneg = len(P), len(N)
    mp, mn = P.mean(axis=0), N.mean(axis=0)
    sp_, sn = P.var(axis=0), N.var(axis=0)
    return npos**2 * sp_ + nneg**2 * sn - a * npos * nneg * (sp_ + sn + (mp - mn) ** 2)


def pairwise_objective(Z, y, a):
    """sum_{i,j} A_ij ||z_i - z_j||^2, the left side of eq. (8)."""
    A = affinity(y, a)
    sq = np.sum(Z * Z, axis=1)
    D2 = sq[:, None] + sq[None, :] - 2.0 * Z @ Z.T
    return float(np.sum(A * D2))


def labels(n, rng, *, balanced=False):
    """Labels in {-1,+1} with both classes present."""
    if balanced:
        if n % 2:
            raise RpcheckError(f"`n` ({n}) must be even for balanced labels.")
        return rng.permutation(np.repeat([-1.0, 1.0], n // 2))
    y = 2.0 * rng.integers(0, 2, size=n) - 1.0
    y[0], y[1] = 1.0, -1.0
    return y


# --------------------------------------------------------------------------------------------------------
# toy example (Fig. 1)
# --------------------------------------------------------------------------------------------------------
#: The covariance printed in the paper's toy example; NOT positive semidefinite (eigenvalues -0.75, 2.75).
PAPER_TOY_COV = ((1.0, 1.75), (1.75, 1.0))
#: The valid substitute used by the checkers (Fig. 1): eigenvalues 0.25 and 1.75.
VALID_TOY_COV = ((1.0, 0.75), (0.75, 1.0))
TOY_MEANS = ((3.0, 3.0), (-3.0, -3.0))


def toy_data(n_per_class, cov=VALID_TOY_COV, *, rng=None):
    """Two Gaussian classes in R^2 with means (3,3), (-3,-3) and common covariance ``cov`` (Fig. 1).

    Raises
    ------
    RpcheckError
        ``cov`` not symmetric positive semidefinite. The paper's [[1, 1.75], [1.75, 1]] has eigenvalue
        -0.75 and is rejected; it is never silently repaired (numpy's multivariate_normal only warns and
        samples from a different matrix).
    """
    rng = as_generator(rng)
    n_per_class = check_int("n_per_class", n_per_class, 1)
    S = np.asarray(cov, dtype=np.float64)
    if S.shape != (2, 2) or not np.allclose(S, S.T, rtol=0, atol=1e-12):
        raise RpcheckError(f"`cov` ({S.tolist()}) must be a symmetric 2 x 2 matrix.")
    eig = np.linalg.eigvalsh(S)
    if eig[0] < -1e-12 * max(1.0, abs(eig[-1])):
        raise RpcheckError(
            f"`cov` ({S.tolist()}) is not positive semidefinite (eigenvalues {np.round(eig, 6).tolist()}); "
            "a covariance matrix must be PSD. The toy covariance printed by Lei & Lan (2020), "
            "[[1, 1.75], [1.75, 1]], is invalid for this reason; use e.g. [[1, 0.75], [0.75, 1]]."
        )
    w, V = np.linalg.eigh(S)
    Lc = V * np.sqrt(np.maximum(w, 0.0))  # Lc Lc^T = S
    X = np.vstack([rng.standard_normal((n_per_class, 2)) @ Lc.T + np.array(m) for m in TOY_MEANS])
    y = np.repeat([1.0, -1.0], n_per_class)
    return X, y


def rotated_instance(params, rng):
    """Data ``X`` (``make_data(params.get("data", "scaled"), n, d)``) and its rotation ``X D H_d/sqrt(d)`` with
    fresh signs: the instance of one trial of lei2020.unbiased, lei2020.prop1 and lei2020.replacement."""
    n, d = params["n"], params["d"]
    X = make_data(params.get("data", "scaled"), n, d, rng)
    Xr = rotate_dense(X, signs(d, rng))
    return X, Xr


#: brute force over r-subsets only when there are at most this many (lei2020.prop2, .topr, .supervised)
MAX_SUBSETS = 5000


def selection_error(Xr, K, idx):
    """``||Z Z^T - K||_F`` for the columns ``idx`` of ``X_r`` kept without rescaling (``Z = X_r[:, idx]``)."""
    Z = Xr[:, list(idx)]
    return float(np.linalg.norm(Z @ Z.T - K))
