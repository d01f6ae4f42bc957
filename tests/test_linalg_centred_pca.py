"""rpcheck.linalg.centred_randomized_svd (PCA with implicit centring, sparse input never densified) and the sparse
path of leverage_scores / dlss_select, against the dense oracles (exact SVD of the explicitly centred matrix).

Tolerances: in the exact regime (k + n_oversamples >= rank(A)) the range finder captures range(A) and the only error
is rounding; the eigen step works with squared singular values, so the i-th singular value has relative error
O(eps (s_1 / s_i)^2) and the i-th direction O(eps (s_1 / s_i)^2 / relgap_i). The test matrices below have
s_1 / s_k < 10 and relative gaps > 1e-2 (checked in the test), so 1e-9 leaves a margin of > 1e3 over eps * 1e4.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck import compare as cmp
from rpcheck.errors import RpcheckError
from rpcheck.linalg import centred_randomized_svd, dlss_select, leverage_scores


def _sparse(n, d, density, seed, empty_cols=()):
    X = sp.random(n, d, density=density, random_state=seed, format="lil")
    X[:, list(empty_cols)] = 0.0
    X = sp.csr_matrix(X)
    X.eliminate_zeros()
    return X


def _exact_pca(X, k):
    A = X.toarray() - X.toarray().mean(axis=0)
    _, S, Vt = np.linalg.svd(A, full_matrices=False)
    return S, Vt


def _check_conditioning(S, k):
    assert S[0] / S[k - 1] < 10
    assert np.min(np.abs(np.diff(S[: k + 1])) / S[0]) > 1e-2


@pytest.mark.parametrize("n,d,empty", [(60, 14, ()), (50, 12, (0, 5, 11)), (14, 40, (3, 39))])
def test_centred_pca_equals_dense_centred_svd_in_the_exact_regime(n, d, empty):
    X = _sparse(n, d, 0.35, 3, empty)
    k = 4
    S, Vt_ex = _exact_pca(X, k)
    _check_conditioning(S, k)
    mean, s, Vt = centred_randomized_svd(X, k, n_oversamples=min(n, d), rng=1)
    np.testing.assert_allclose(mean, X.toarray().mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(s, S[:k], rtol=1e-9)
    np.testing.assert_allclose(np.abs(Vt @ Vt_ex[:k].T), np.eye(k), atol=1e-9)  # same directions up to sign
    assert Vt.shape == (k, d) and not np.any(Vt[:, list(empty)])


def test_centred_pca_sparse_equals_the_same_algorithm_on_dense_input():
    X = _sparse(80, 30, 0.2, 4)
    m1, s1, V1 = centred_randomized_svd(X, 5, rng=7)
    m2, s2, V2 = centred_randomized_svd(X.toarray(), 5, rng=7)
    np.testing.assert_allclose(m1, m2, atol=1e-15)
    np.testing.assert_allclose(s1, s2, rtol=1e-12)
    np.testing.assert_allclose(np.abs(V1 @ V2.T), np.eye(5), atol=1e-9)


def test_compare_pca_on_sparse_input_equals_dense_pca_scores():
    """compare's PCA on CSR (implicit centring) gives the scores of sklearn's dense centred PCA (exact regime:
    k + 10 >= min(n, d)), column by column up to sign."""
    X = _sparse(40, 9, 0.4, 5)
    sp_p = cmp._Projector("pca", 9, 3, 11).fit(X, None)
    de_p = cmp._Projector("pca", 9, 3, 11).fit(X.toarray(), None)
    Z1, Z2 = sp_p.transform(X), de_p.transform(X.toarray())
    Zt1, Zt2 = sp_p.transform(X[:7] * 2.0), de_p.transform(X[:7].toarray() * 2.0)  # unseen rows too
    for a, b in ((Z1, Z2), (Zt1, Zt2)):
        sign = np.sign(np.sum(a * b, axis=0))
        np.testing.assert_allclose(a, b * sign, atol=1e-9)
    assert isinstance(Z1, np.ndarray) and Z1.shape == (40, 3)


def test_compare_pca_on_sparse_input_is_centred_not_truncated_svd():
    """The old sparse path (TruncatedSVD, uncentred) differs from PCA when the mean is far from 0."""
    X = sp.csr_matrix(_sparse(40, 9, 0.4, 5).toarray() + 5.0 * (np.arange(9) == 2))
    Z = cmp._Projector("pca", 9, 3, 11).fit(X, None).transform(X)
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-12)  # centred scores on the training data


def test_centred_pca_never_densifies_x(monkeypatch):
    X = _sparse(30, 500, 0.02, 6)
    for cls in (sp.csr_matrix, sp.csc_matrix):
        monkeypatch.setattr(cls, "toarray", lambda self, *a, **k: (_ for _ in ()).throw(AssertionError("dense")))
        monkeypatch.setattr(cls, "todense", lambda self, *a, **k: (_ for _ in ()).throw(AssertionError("dense")))
    mean, s, Vt = centred_randomized_svd(X, 3, rng=0)
    assert Vt.shape == (3, 500)
    lev = leverage_scores(X, 3, svd="randomized", rng=0)
    assert lev.shape == (500,)


@pytest.mark.parametrize("n,d,empty", [(60, 25, ()), (40, 30, (1, 7, 29)), (12, 50, (0,))])
def test_sparse_leverage_scores_and_dlss_equal_dense_exact(n, d, empty):
    X = _sparse(n, d, 0.25, 8, empty)
    k = 4
    _, S, _ = np.linalg.svd(X.toarray(), full_matrices=False)
    _check_conditioning(S, k)
    lev_sp = leverage_scores(X, k, svd="randomized", n_oversamples=min(n, d), rng=2)
    lev_ex = leverage_scores(X.toarray(), k, svd="exact")
    np.testing.assert_allclose(lev_sp, lev_ex, atol=1e-9)
    assert abs(lev_sp.sum() - k) < 1e-9 and not np.any(lev_sp[list(empty)])
    gaps = np.diff(np.sort(lev_ex)[::-1][:9])
    if np.min(np.abs(gaps)) > 1e-6:  # a unique top-8 set
        assert dlss_select(X, 8, k, svd="randomized", rng=2).tolist() == dlss_select(X.toarray(), 8, k).tolist()


def test_compare_dlss_on_csr_equals_dense():
    X = _sparse(60, 25, 0.25, 9)
    a = cmp._Projector("dlss-r", 25, 8, 3).fit(X, None)
    b = cmp._Projector("dlss-r", 25, 8, 3).fit(X.toarray(), None)
    lev = leverage_scores(X.toarray(), a.k, svd="exact")
    top = np.sort(lev)[::-1]
    if top[7] - top[8] > 1e-3:  # randomized sketches of a well-separated selection pick the same features
        assert set(a.idx.tolist()) == set(b.idx.tolist())
    np.testing.assert_array_equal(a.transform(X), b.transform(X.toarray()))


@pytest.mark.parametrize("kw,match", [({"k": 0}, "`k`"), ({"k": 13}, "`k`"), ({"k": 2, "n_oversamples": -1},
                                       "n_oversamples"), ({"k": 2, "n_iter": -2}, "n_iter")])
def test_centred_pca_validation(kw, match):
    with pytest.raises(RpcheckError, match=match):
        centred_randomized_svd(_sparse(20, 12, 0.3, 1), **kw)
