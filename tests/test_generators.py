"""Each generator in rpcheck.generators against its stated guarantee, exactly (every draw, not on average).

Tolerances are floating-point error bounds, not statistical: orthonormality of a Householder QR factor is
within a small multiple of d * eps (we use 1e-12 for d <= 512); identities built from unit vectors hold to
a few ulps (1e-12). No test here has a false-alarm probability: the guarantees hold for every seed.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck import generators as g
from rpcheck.errors import RpcheckError

SEEDS = (0, 1, 2, 3, 4)  # arbitrary fixed seeds; guarantees hold for all seeds
ATOL_ORTHO = 1e-12  # Householder QR: ||Q^T Q - I|| = O(d eps) ~ 1e-13 at d = 512


@pytest.mark.parametrize("coh", g.COHERENCES)
@pytest.mark.parametrize("d, rho", [(1, 1), (7, 3), (64, 64), (512, 10)])
def test_orthonormal_basis_is_orthonormal(coh, d, rho):
    for seed in SEEDS[:2]:
        V = g.orthonormal_basis(d, rho, coherence=coh, rng=seed)
        assert V.shape == (d, rho)
        np.testing.assert_allclose(V.T @ V, np.eye(rho), atol=ATOL_ORTHO, rtol=0)
        mu = g.coherence(V)
        assert 1 - 1e-12 <= mu <= d / rho + 1e-12


def test_coherent_and_spiky_have_maximal_coherence():
    V = g.orthonormal_basis(20, 4, coherence="coherent")
    np.testing.assert_array_equal(V, np.eye(20, 4))
    assert g.coherence(V) == 5.0
    V = g.orthonormal_basis(20, 4, coherence="spiky", rng=3)
    assert g.coherence(V) == 5.0
    assert np.count_nonzero(V) == 4 and set(np.unique(V)) == {0.0, 1.0}


def test_intermediate_interpolates_between_coherent_and_haar():
    d, rho = 256, 4
    coherent = g.orthonormal_basis(d, rho, coherence="intermediate", mix=0.0, rng=0)
    np.testing.assert_allclose(coherent, np.eye(d, rho), atol=1e-15)
    # mix=1 is exactly the Haar draw of the same stream (qr of an orthonormal matrix with sign fix)
    haar = g.orthonormal_basis(d, rho, coherence="intermediate", mix=1.0, rng=5)
    np.testing.assert_allclose(haar, g.haar_orthonormal(d, rho, rng=5), atol=1e-12)
    bases = [g.orthonormal_basis(d, rho, coherence="intermediate", mix=m, rng=1) for m in (0.0, 0.5, 1.0)]
    mus = [g.coherence(V) for V in bases]
    assert mus[0] == d / rho
    assert mus[0] > mus[1] > mus[2]


def test_haar_is_seed_reproducible_and_sign_fixed():
    a = g.haar_orthonormal(30, 5, rng=11)
    b = g.haar_orthonormal(30, 5, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(a, b)
    # sign fix: Q = G R^{-1} with diag(R) > 0, i.e. the Gram-Schmidt of G: <q_1, g_1> > 0
    G = np.random.default_rng(11).standard_normal((30, 5))
    assert a[:, 0] @ G[:, 0] > 0


@pytest.mark.parametrize("profile", [None, "flat", "geometric", [3.0, 1.0, 2.0]])
@pytest.mark.parametrize("tail", [0.0, 0.25])
def test_low_rank_matrix_spectrum_is_exact(profile, tail):
    n, d, rank = 25, 12, 3
    X, U, s, V = g.low_rank_matrix(n, d, rank, singular_values=profile, tail=tail, return_factors=True, rng=7)
    sv = np.linalg.svd(X, compute_uv=False)
    np.testing.assert_allclose(sv[: s.size], s, atol=1e-13 * s[0] * 10)
    np.testing.assert_allclose(X, (U * s) @ V.T, atol=0)
    if tail == 0.0:
        assert np.linalg.matrix_rank(X) == rank
        assert np.all(sv[rank:] <= 1e-13)
        # row space equals range(V): projecting rows on range(V) changes nothing
        np.testing.assert_allclose(X @ V @ V.T, X, atol=1e-13)
    else:
        assert np.linalg.matrix_rank(X) == min(n, d)
        np.testing.assert_allclose(sv[rank], tail * s[rank - 1], rtol=1e-12)
    if profile == "geometric":
        np.testing.assert_allclose(s[0] / s[rank - 1], g.GEOMETRIC_CONDITION, rtol=1e-14)
    if isinstance(profile, list):
        np.testing.assert_array_equal(s[:rank], [3.0, 2.0, 1.0])


def test_low_rank_matrix_coherent_row_space():
    X = g.low_rank_matrix(10, 30, 4, coherence="coherent", rng=0)
    assert np.all(X[:, 4:] == 0)  # row space = span(e_1..e_4)


@pytest.mark.parametrize("active", [None, 1, 5])
def test_sparse_matrix_support_and_nonempty_rows(active):
    for seed in SEEDS:
        X = g.sparse_matrix(40, 50, density=0.02, active_features=active, rng=seed)
        assert sp.isspmatrix_csr(X) and X.dtype == np.float64 and X.shape == (40, 50)
        assert X.has_canonical_format
        assert np.all(np.diff(X.indptr) >= 1)  # every row has a nonzero
        assert np.all(X.data != 0)
        cols = np.unique(X.indices)
        if active is not None:
            assert cols.size <= active
    X = g.sparse_matrix(3, 4, density=1.0, rng=0)
    assert X.nnz == 12


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("n, d, margin", [(2, 1, 0.5), (2, 3, 1.0), (40, 5, 0.05), (200, 30, 0.3)])
def test_separable_dataset_planted_margin(bias, n, d, margin):
    for seed in SEEDS:
        data = g.separable_dataset(n, d, margin=margin, bias=bias, rng=seed)
        assert data.X.shape == (n, d) and data.separable is True
        assert set(np.unique(data.y)) == {-1.0, 1.0}
        np.testing.assert_allclose(np.linalg.norm(data.w), 1.0, rtol=1e-14)
        m = g.normalized_margins(data.X, data.y, data.w, b=data.b, center=data.center)
        assert m.min() >= margin - 1e-12
        if d >= 2:  # the planted margin is attained by one point
            assert m.min() <= margin + 1e-12
        if bias:
            np.testing.assert_allclose(data.b, -data.w @ data.center)
        else:
            assert data.b == 0.0 and data.center is None


def test_nonseparable_dataset_certificate():
    for seed in SEEDS:
        data = g.nonseparable_dataset(30, 4, flip=0.1, rng=seed)
        i, j, k = data.certificate
        assert len({i, j, k}) == 3
        np.testing.assert_array_equal(data.X[k], 0.5 * (data.X[i] + data.X[j]))
        assert data.y[i] == data.y[j] == -data.y[k]
        assert set(np.unique(data.y)) == {-1.0, 1.0}
        assert data.separable is False and data.margin is None


def test_nonseparable_dataset_is_not_separable_by_lp():
    """Independent check of the certificate: the separability LP y_i(<w,x_i>+b) >= 1 is infeasible."""
    from scipy.optimize import linprog

    for seed in SEEDS[:3]:
        data = g.nonseparable_dataset(12, 3, flip=0.0, rng=seed)
        A = -data.y[:, None] * np.hstack([data.X, np.ones((12, 1))])
        res = linprog(np.zeros(4), A_ub=A, b_ub=-np.ones(12), bounds=[(None, None)] * 4, method="highs")
        assert res.status == 2  # infeasible


@pytest.mark.parametrize("n, d, k, margin", [(2, 2, 2, 1.0), (30, 5, 3, 0.2), (100, 20, 20, 0.05)])
def test_multiclass_dataset_planted_margin(n, d, k, margin):
    for seed in SEEDS:
        data = g.multiclass_dataset(n, d, k, margin=margin, rng=seed)
        assert data.X.shape == (n, d) and data.witnesses.shape == (k, d)
        assert set(data.y.tolist()) == set(range(k))
        np.testing.assert_allclose(data.witnesses @ data.witnesses.T, np.eye(k), atol=ATOL_ORTHO)
        m = g.multiclass_margins(data.X, data.y, data.witnesses)
        assert m.min() >= margin - 1e-12


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: g.orthonormal_basis(3, 4), r"`rho` \(4\) must be an integer in the range \[1, 3\]"),
        (lambda: g.orthonormal_basis(3, 2, coherence="x"), r"`coherence` \('x'\) must be one of"),
        (lambda: g.orthonormal_basis(3, 2, coherence="intermediate", mix=2), r"`mix` \(2\)"),
        (lambda: g.low_rank_matrix(3, 5, 4), r"`rank` \(4\)"),
        (lambda: g.low_rank_matrix(3, 5, 2, tail=1.0), r"`tail` \(1.0\) must be in the interval \[0, 1\)"),
        (lambda: g.low_rank_matrix(3, 5, 2, singular_values=[1, -1]), r"`singular_values`"),
        (lambda: g.low_rank_matrix(3, 5, 2, singular_values="steep"), r"`singular_values` \('steep'\)"),
        (lambda: g.sparse_matrix(3, 5, density=0), r"`density` \(0\) must be in the interval \(0, 1\]"),
        (lambda: g.sparse_matrix(3, 5, density=0.5, active_features=6), r"`active_features` \(6\)"),
        (lambda: g.separable_dataset(1, 5, margin=0.1), r"`n` \(1\) must be an integer >= 2"),
        (lambda: g.separable_dataset(4, 5, margin=0.0), r"`margin` \(0.0\) must be in the interval \(0, 1\]"),
        (lambda: g.nonseparable_dataset(2, 5), r"`n` \(2\) must be an integer >= 3"),
        (lambda: g.multiclass_dataset(5, 3, 4, margin=0.1), r"`k` \(4\) must be an integer in the range"),
        (lambda: g.multiclass_dataset(2, 3, 3, margin=0.1), r"`n` \(2\) must be an integer >= 3"),
        (lambda: g.orthonormal_basis(3, 2, rng="seed"), r"`rng`"),
    ],
)
def test_bad_arguments_raise_one_clear_error(call, match):
    with pytest.raises(RpcheckError, match=match):
        call()


def test_generators_are_pure_functions_of_the_seed():
    for make in (
        lambda r: g.orthonormal_basis(9, 3, coherence="intermediate", rng=r),
        lambda r: g.low_rank_matrix(6, 5, 2, tail=0.1, rng=r),
        lambda r: g.sparse_matrix(6, 5, density=0.3, rng=r).toarray(),
        lambda r: g.separable_dataset(6, 5, margin=0.1, bias=True, rng=r).X,
        lambda r: g.nonseparable_dataset(6, 5, rng=r).X,
        lambda r: g.multiclass_dataset(6, 5, 3, margin=0.1, rng=r).X,
    ):
        np.testing.assert_array_equal(make(123), make(np.random.default_rng(123)))


def test_sparse_matrix_few_active_features_is_maximally_coherent():
    X = g.sparse_matrix(60, 40, density=0.5, active_features=4, rng=0).toarray()
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    rho = int(np.sum(s > 1e-10 * s[0]))
    assert rho == 4  # the 60 x 4 active block has full column rank for this seed
    assert g.coherence(Vt[:rho].T) == pytest.approx(40 / 4, rel=1e-12)


@pytest.mark.parametrize("margin", [0.99999, 1 - 1e-9, 1.0])
def test_multiclass_margin_is_exact_near_one(margin):
    # regression: the sqrt(1 - c^2) form lost up to 1.4e-8 of margin here; the angle form keeps rounding level
    for seed in range(10):
        data = g.multiclass_dataset(20, 2, 2, margin=margin, rng=seed)
        assert g.multiclass_margins(data.X, data.y, data.witnesses).min() >= margin - 1e-12


# ---------------------------------------------------------------- exact-rank instances (moved from paul2014)
@pytest.mark.parametrize("regime", ["hard", "soft", "random"])
def test_low_rank_classification_rank_labels_and_separability(regime):
    from rpcheck.generators import low_rank_classification

    X, y, Z, V = low_rank_classification(40, 30, 4, regime, rng=np.random.default_rng(1))
    assert X.shape == (40, 30) and Z.shape == (40, 4) and V.shape == (30, 4)
    np.testing.assert_allclose(V.T @ V, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(X, Z @ V.T)
    assert np.linalg.matrix_rank(X) == 4
    assert set(y.tolist()) == {-1.0, 1.0}


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(n=1, d=5, rho=2, regime="hard"), "n"),
        (dict(n=10, d=5, rho=6, regime="hard"), "rho"),
        (dict(n=10, d=5, rho=2, regime="easy"), "regime"),
        (dict(n=10, d=5, rho=2, regime="soft", flip=1.5), "flip"),
        (dict(n=10, d=5, rho=2, regime="hard", margin=-1.0), "margin"),
    ],
)
def test_low_rank_classification_domain(kwargs, name):
    from rpcheck.generators import low_rank_classification

    with pytest.raises(RpcheckError, match=f"`{name}`"):
        low_rank_classification(**kwargs, rng=0)


def test_low_rank_regression_domain_and_rank():
    from rpcheck.generators import low_rank_regression

    X, y, Z, V = low_rank_regression(12, 9, 3, rng=np.random.default_rng(2))
    assert np.linalg.matrix_rank(X) == 3 and y.shape == (12,)
    with pytest.raises(RpcheckError, match="`noise`"):
        low_rank_regression(12, 9, 3, rng=0, noise=float("nan"))


@pytest.mark.parametrize("batches", ["one", "many"])
def test_bernoulli_positions_law(batches, monkeypatch):
    """bernoulli_positions has the law of np.flatnonzero(rng.random(size) < p): every position marginally
    Bernoulli(p), every pair independent, the count Binomial(size, p). "many" shrinks the batches (mean - 2 sd of
    the successes still to come) so that nearly every draw takes several, exercising the continuation.
    40,000 draws at size 12, p = 0.3: each of the 12 frequencies and 66 pair frequencies within 5.5 standard
    errors (two-sided 3.8e-8 each, 3e-6 for all 78), and the count histogram's chi-square p-value above 1e-6:
    false alarm <= 4e-6 per parametrisation (seed fixed)."""
    from scipy import stats as st

    if batches == "many":
        monkeypatch.setattr(g.matrices, "_GAP_SD", -2.0)  # the module of bernoulli_positions
        monkeypatch.setattr(g.matrices, "_GAP_SLACK", 0)
    size, p, n_draws = 12, 0.3, 40_000
    rng = np.random.default_rng(20261127)
    M = np.zeros((n_draws, size))
    for i in range(n_draws):
        pos = g.bernoulli_positions(size, p, rng)
        assert np.all(np.diff(pos) > 0) and (pos.size == 0 or (pos[0] >= 0 and pos[-1] < size))
        M[i, pos] = 1.0
    se = np.sqrt(p * (1 - p) / n_draws)
    assert np.all(np.abs(M.mean(axis=0) - p) <= 5.5 * se)
    pair = (M.T @ M) / n_draws
    iu = np.triu_indices(size, 1)
    se2 = np.sqrt(p**2 * (1 - p**2) / n_draws)
    assert np.all(np.abs(pair[iu] - p**2) <= 5.5 * se2)
    counts = np.bincount(M.sum(axis=1).astype(int), minlength=size + 1)
    expected = n_draws * st.binom.pmf(np.arange(size + 1), size, p)
    keep = expected >= 5  # merge the sparse tail into one bin
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert st.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-6


def test_bernoulli_positions_edges_and_domain():
    assert g.bernoulli_positions(0, 0.5, rng=0).size == 0
    assert g.bernoulli_positions(7, 1.0, rng=0).tolist() == list(range(7))
    with pytest.raises(RpcheckError, match=r"`p` \(0\)"):
        g.bernoulli_positions(5, 0, rng=0)
    with pytest.raises(RpcheckError, match=r"`size` \(-1\)"):
        g.bernoulli_positions(-1, 0.5, rng=0)
