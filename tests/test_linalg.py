"""rpcheck.linalg: row-space bases and the subspace-embedding distortion ||E||_2 (Paul et al. 2014, 1.6)."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck.errors import RpcheckError
from rpcheck.linalg import embedding_distortion, row_space_basis
from rpcheck.sketches import SKETCH_KINDS, make_sketch


def _low_rank(n, d, rho, rng):
    rng = np.random.default_rng(rng)
    return rng.standard_normal((n, rho)) @ rng.standard_normal((rho, d))


@pytest.mark.parametrize("n,d,rho", [(30, 12, 5), (8, 40, 8), (50, 50, 50), (20, 7, 1)])
def test_row_space_basis(n, d, rho):
    X = _low_rank(n, d, rho, 0)
    V = row_space_basis(X)
    assert V.shape == (d, rho)
    np.testing.assert_allclose(V.T @ V, np.eye(rho), atol=1e-12)
    # X lies in span(V): X V V^T = X
    np.testing.assert_allclose(X @ V @ V.T, X, atol=1e-10 * np.abs(X).max())
    np.testing.assert_allclose(row_space_basis(sp.csr_matrix(X)), V, atol=1e-12)


def test_row_space_basis_tolerance_and_degenerate():
    X = np.diag([1.0, 1e-3, 1e-9])
    assert row_space_basis(X).shape == (3, 3)  # default rtol = 3 eps: all three kept
    assert row_space_basis(X, rtol=1e-6).shape == (3, 2)
    assert row_space_basis(np.zeros((4, 3))).shape == (3, 0)
    with pytest.raises(RpcheckError, match=r"`rtol` \(2\) must be in the interval \[0, 1\)"):
        row_space_basis(X, rtol=2)
    with pytest.raises(RpcheckError, match="`X` contains NaN"):
        row_space_basis(np.array([[np.nan, 1.0]]))


def _oracle(V, R):
    """Dense definition: ||V^T V - V^T R R^T V||_2 (the d x d-free but squared form)."""
    E = V.T @ V - V.T @ R @ R.T @ V
    return np.linalg.norm(E, 2)


@pytest.mark.parametrize("kind", [k for k in SKETCH_KINDS if not k.startswith("srht-")])
@pytest.mark.parametrize("r", [3, 16, 64])
def test_embedding_distortion_matches_dense_oracle(kind, r):
    X = _low_rank(40, 30, 6, 1)
    V = row_space_basis(X)
    params = {"q": 1, "v": r // 1, "a": 1} if kind == "cw" else {}
    S = make_sketch(kind, 30, r, rng=2, **params)
    R = S.matrix()
    Rd = R.toarray() if sp.issparse(R) else R
    e = embedding_distortion(V, R)
    # both computations are backward stable in the entries of V^T R; the eigenvalues of the rho x rho
    # Gram matrix are perturbed by <= ~ rho r eps ||V^T R||^2 (Weyl), far below 1e-12 here
    assert e == pytest.approx(_oracle(V, Rd), abs=1e-12 * max(1, np.linalg.norm(V.T @ Rd, 2) ** 2))
    assert embedding_distortion(V, VtR=S.apply(V.T)) == pytest.approx(e, abs=1e-12 * max(1, e))
    if r < V.shape[1]:
        assert e >= 1.0  # rank(V^T R R^T V) <= r < rho: deterministic (rank argument)


def test_embedding_distortion_rank_deficient_is_at_least_one():
    rng = np.random.default_rng(3)
    for _ in range(20):
        rho, r = rng.integers(2, 10), None
        r = int(rng.integers(1, rho))
        V = np.linalg.qr(rng.standard_normal((25, rho)))[0]
        # even an exactly isometric-looking R (columns of V scaled) cannot embed rho dims into r < rho
        R = np.hstack([V[:, :r] * 1.0, np.zeros((25, 0))])
        assert embedding_distortion(V, R) >= 1.0
        assert embedding_distortion(V, rng.standard_normal((25, r)) * 10) >= 1.0


def test_embedding_distortion_exact_values_and_errors():
    V = np.eye(5)[:, :3]
    assert embedding_distortion(V, np.eye(5)) == 0.0
    assert embedding_distortion(V, VtR=np.diag([1.0, 0.5, 2.0])) == pytest.approx(3.0)
    assert embedding_distortion(np.zeros((5, 0)), VtR=np.zeros((0, 4))) == 0.0
    with pytest.raises(RpcheckError, match="exactly one of `R` and `VtR`"):
        embedding_distortion(V)
    with pytest.raises(RpcheckError, match="exactly one of `R` and `VtR`"):
        embedding_distortion(V, np.eye(5), VtR=np.eye(3))
    with pytest.raises(RpcheckError, match="`R` has 4 rows but `V` has 5"):
        embedding_distortion(V, np.ones((4, 2)))
    with pytest.raises(RpcheckError, match=r"`VtR` has 2 rows but `V` has 3 columns \(rho\)"):
        embedding_distortion(V, VtR=np.ones((2, 2)))


# --- invariance properties (hypothesis) ---------------------------------------------------------------------
# The row space of X, its rank and the distortion of a projection on it do not change when X is rescaled
# (by 1e-6 or 1e6, or extreme powers of ten), its rows are permuted or duplicated, or the coordinates are
# rotated/permuted together with R (V -> Q^T V, R -> Q^T R leaves V^T R unchanged).

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _projector(V):
    return V @ V.T


@st.composite
def _data(draw):
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 10))
    rho = draw(st.integers(0, min(n, d)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, rho)) @ rng.standard_normal((rho, d)) if rho else np.zeros((n, d))
    return X, rho, rng


_SCALES = [1e-6, 1e6, 1e-150, 1e150, 1e-300, 1e300]


@given(_data(), st.sampled_from(_SCALES))
@settings(max_examples=60, derandomize=True, deadline=None, database=None)
def test_rank_and_row_space_invariant_under_rescaling(data, c):
    """Badly scaled data: the SVD path's rank threshold is relative to sigma_1, and embedding_distortion forms
    V^T R safely for huge R, so rank and row space do not change under rescaling."""
    X, rho, _ = data
    V = row_space_basis(X)
    Vc = row_space_basis(X * c)
    assert V.shape == Vc.shape == (X.shape[1], rho)
    np.testing.assert_allclose(_projector(Vc), _projector(V), atol=1e-8)


@given(_data())
@settings(max_examples=60, derandomize=True, deadline=None, database=None)
def test_row_space_invariant_under_row_permutation_duplication_and_rotation(data):
    X, rho, rng = data
    n, d = X.shape
    P = _projector(row_space_basis(X))
    perm = rng.permutation(n)
    np.testing.assert_allclose(_projector(row_space_basis(X[perm])), P, atol=1e-8)
    dup = np.vstack([X, X[rng.integers(0, n, size=n)]])
    Vd = row_space_basis(dup)
    assert Vd.shape[1] == rho
    np.testing.assert_allclose(_projector(Vd), P, atol=1e-8)
    Q = np.linalg.qr(rng.standard_normal((d, d)))[0]  # rotation of the coordinates: rowspace(XQ) = Q^T rowspace
    Vq = row_space_basis(X @ Q)
    assert Vq.shape[1] == rho
    np.testing.assert_allclose(_projector(Vq), Q.T @ P @ Q, atol=1e-8)
    cp = rng.permutation(d)
    np.testing.assert_allclose(_projector(row_space_basis(X[:, cp])), P[np.ix_(cp, cp)], atol=1e-8)


@given(_data(), st.integers(1, 12), st.sampled_from(_SCALES + [1.0]))
@settings(max_examples=60, derandomize=True, deadline=None, database=None)
def test_distortion_invariant(data, r, c):
    """e(V, R) depends on X only through its row space and on R only through V^T R."""
    X, rho, rng = data
    n, d = X.shape
    R = rng.standard_normal((d, r)) / np.sqrt(r)
    V = row_space_basis(X)
    e = embedding_distortion(V, R)
    assert np.isfinite(e)
    # rescaled and duplicated data: same row space, same distortion
    assert embedding_distortion(row_space_basis(np.vstack([X, X]) * c), R) == pytest.approx(e, abs=1e-8 * max(1, e))
    # rotate coordinates: X -> X Q, R -> Q^T R
    Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
    assert embedding_distortion(row_space_basis(X @ Q), Q.T @ R) == pytest.approx(e, abs=1e-8 * max(1, e))
    # permute coordinates and the rows of R together, and the columns of R
    cp = rng.permutation(d)
    assert embedding_distortion(row_space_basis(X[:, cp]), R[cp][:, rng.permutation(r)]) == pytest.approx(
        e, abs=1e-8 * max(1, e))
    # scaling R by 2**k (exact) changes V^T R by 2**k: the distortion is computed without overflow or is
    # refused by name, never inf
    for k in (500, 1000):
        try:
            ek = embedding_distortion(V, np.ldexp(R, k))
        except RpcheckError as exc:
            assert "`V` and `R`" in str(exc)
        else:
            assert np.isfinite(ek)


# ---------------------------------------------------------------------------------------------------------
# DLSS: rank-k leverage scores and the top-r selection (Lei & Lan 2020, Table 2 "DLSS")
# ---------------------------------------------------------------------------------------------------------
def _brute_leverage(X, k):
    """Independent oracle: leverage of feature j = ||P_k e_j||^2 with P_k the projector onto the top-k right
    singular subspace, built from the eigenvectors of X^T X (not from an SVD of X)."""
    w, V = np.linalg.eigh(X.T @ X)
    Vk = V[:, np.argsort(w)[::-1][:k]]
    P = Vk @ Vk.T
    return np.array([P[j, j] for j in range(X.shape[1])])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [1, 3, 6])
def test_leverage_scores_match_bruteforce(seed, k):
    from rpcheck.linalg import dlss_select, leverage_scores

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((20, 9)) * rng.uniform(0.1, 3.0, size=9)
    lev = leverage_scores(X, k)
    ref = _brute_leverage(X, k)
    assert np.allclose(lev, ref, atol=1e-10)
    assert lev.sum() == pytest.approx(k, abs=1e-10)
    for r in (1, 4, 9):
        sel = dlss_select(X, r, k)
        # brute force: the selected set maximises the total leverage over all r-subsets
        best = max(itertools.combinations(range(9), r), key=lambda s: ref[list(s)].sum())
        assert ref[list(sel)].sum() == pytest.approx(ref[list(best)].sum(), abs=1e-10)
        assert set(sel.tolist()) == set(np.argsort(-ref, kind="stable")[:r].tolist())


def test_leverage_randomized_close_to_exact_on_low_rank():
    from rpcheck.linalg import dlss_select, leverage_scores

    rng = np.random.default_rng(3)
    X = rng.standard_normal((50, 4)) @ rng.standard_normal((4, 30)) * np.r_[np.ones(10) * 5, np.ones(20)]
    # rank 4 exactly: the randomized range finder captures the subspace, scores agree to round-off
    a = leverage_scores(X, 4, svd="randomized", rng=1)
    b = leverage_scores(X, 4)
    assert np.allclose(a, b, atol=1e-8)
    assert set(dlss_select(X, 5, 4, svd="randomized", rng=1)) == set(dlss_select(X, 5, 4))


def test_dlss_ties_keep_smaller_index_and_domain_errors():
    from rpcheck.errors import RpcheckError
    from rpcheck.linalg import dlss_select, leverage_scores

    X = np.eye(4)
    assert dlss_select(X, 2, 4).tolist() == [0, 1]  # all leverages 1: stable order
    with pytest.raises(RpcheckError, match="`k`"):
        leverage_scores(X, 0)
    with pytest.raises(RpcheckError, match="`k`"):
        leverage_scores(X, 5)
    with pytest.raises(RpcheckError, match="`r`"):
        dlss_select(X, 5, 2)
    with pytest.raises(RpcheckError, match="`svd`"):
        leverage_scores(X, 2, svd="qr")


# ------------------------------------------------------------------------------------------- thin_q


def _householder_q(G):
    Q, R = np.linalg.qr(G)
    return Q * np.sign(np.diag(R))


@pytest.mark.parametrize(
    "n, k, scale",
    [(65_536, 40, 1.0), (8_192, 100, 1.0), (20_000, 8, 1e-150), (4_096, 16, 1e150), (1_024, 10, 1.0), (50, 50, 1.0)],
)
def test_thin_q_matches_householder_with_positive_diagonal(n, k, scale):
    """Both paths give the unique Q with diag(R) > 0 (Cholesky QR2 for the tall cases), to a few ulps."""
    from rpcheck.linalg import thin_q

    G = np.random.default_rng(n + k).standard_normal((n, k)) * scale
    Q = thin_q(G)
    assert Q.shape == (n, k) and Q.flags.c_contiguous
    np.testing.assert_allclose(Q, _householder_q(G), rtol=0, atol=1e-13)
    np.testing.assert_allclose(Q.T @ Q, np.eye(k), rtol=0, atol=1e-14)
    assert np.all(np.diag(Q.T @ G) > 0)  # R = Q^T G has a positive diagonal


def test_thin_q_falls_back_on_ill_conditioned_input():
    """cond(G) ~ 1e10 > CHOLQR_MAX_COND: Householder, still orthonormal; rank-deficient: no LinAlgError."""
    from rpcheck.linalg import CHOLQR_MAX_COND, thin_q

    rng = np.random.default_rng(3)
    U = _householder_q(rng.standard_normal((40_000, 6)))
    G = U * np.array([1.0, 1e-2, 1e-4, 1e-6, 1e-8, 1e-10])
    assert np.linalg.cond(G) > CHOLQR_MAX_COND
    Q = thin_q(G)
    np.testing.assert_allclose(Q.T @ Q, np.eye(6), rtol=0, atol=1e-14)
    np.testing.assert_allclose(Q, _householder_q(G), rtol=0, atol=1e-10)
    G[:, 5] = G[:, 4]  # rank-deficient: Cholesky fails or is ill-conditioned, Householder still returns
    assert thin_q(G).shape == (40_000, 6)


def test_thin_q_domain():
    from rpcheck.linalg import thin_q

    with pytest.raises(RpcheckError, match="shape"):
        thin_q(np.ones((3, 5)))
    with pytest.raises(RpcheckError, match="shape"):
        thin_q(np.ones(4))
