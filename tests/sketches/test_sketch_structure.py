"""Exact structure of each construction: supports, magnitudes, sampling rules."""

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import matmul_error_bound

from rpcheck.sketches import make_sketch


@pytest.mark.parametrize("q,v,a", [(1, 64, 1), (1, 16, 4), (4, 4, 4), (8, 8, 1), (3, 5, 2)])
def test_cw_pattern(q, v, a):
    d = 300
    r = q * v * a
    S = make_sketch("cw", d, r, rng=3, q=q, v=v, a=a)
    R = S.matrix()
    assert sp.issparse(R) and R.shape == (d, r)
    R = sp.csr_array(R)
    # every row: exactly a nonzeros, each of magnitude 1/sqrt(a) (unit-norm rows)
    np.testing.assert_array_equal(np.diff(R.indptr), a)
    np.testing.assert_allclose(np.abs(R.data), 1 / np.sqrt(a), rtol=0, atol=0)
    cols = R.indices.reshape(d, a)
    buckets = S.buckets_
    assert np.all((0 <= buckets) & (buckets < q))
    for j in range(a):
        # nonzero j of row k lies in sub-block j of the bucket h(k): columns [h v a + j v, h v a + (j+1) v)
        lo = buckets * v * a + j * v
        assert np.all((cols[:, j] >= lo) & (cols[:, j] < lo + v))
    # both signs and (for q > 1) several buckets occur
    assert set(np.sign(R.data)) == {-1.0, 1.0}
    if q > 1:
        assert np.unique(buckets).size > 1


def test_countsketch_is_cw_q1_a1():
    d, r = 500, 32
    S = make_sketch("countsketch", d, r, rng=4)
    R = sp.csr_array(S.matrix())
    np.testing.assert_array_equal(np.diff(R.indptr), 1)  # one nonzero per row
    np.testing.assert_array_equal(np.abs(R.data), 1.0)
    assert (S.q, S.v, S.a) == (1, r, 1)
    # same draws as cw(q=1, v=r, a=1) from the same seed
    C = make_sketch("cw", d, r, rng=4, q=1, v=r, a=1)
    assert (R != sp.csr_array(C.matrix())).nnz == 0


@pytest.mark.parametrize("kind,params,a", [("countsketch", {}, 1), ("cw", {"q": 2, "v": 4, "a": 3}, 3)])
def test_countsketch_sparse_output_structure(kind, params, a, backend_any):
    """Sparse output: no duplicate (row, column) entries, nnz <= a nnz(X), same values as the dense path."""
    X = sp.random(40, 300, density=0.05, random_state=0, format="csr")
    r = 32 if kind == "countsketch" else 24
    S = make_sketch(kind, 300, r, rng=1, **params)
    out = S.apply(X)
    assert out.nnz <= a * X.nnz
    rows = np.repeat(np.arange(40), np.diff(out.indptr))
    assert np.unique(rows * r + out.indices).size == out.nnz  # no duplicates
    M = S.matrix().toarray()
    u = np.finfo(np.float64).eps / 2
    assert np.all(np.abs(out.toarray() - X.toarray() @ M) <= matmul_error_bound(X.toarray(), M, u))
    assert out.nnz == np.count_nonzero(X.toarray() @ M)  # no stored zeros here (no exact cancellation)


@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("d", [64, 37])
def test_srht_entries_pm_one_over_sqrt_r(replace, d):
    r = 24
    S = make_sketch("srht", d, r, rng=5, replace=replace)
    R = S.matrix()
    np.testing.assert_allclose(np.abs(R), 1 / np.sqrt(r), rtol=1e-14, atol=0)
    np.testing.assert_allclose(np.diag(R @ R.T), 1.0, rtol=1e-13)
    # R^T R = (d'/r) S^T S restricted to the first d rows: only exact when d is a power of two
    if d == S.d_pad:
        StS = (S.indices_[:, None] == S.indices_[None, :]).astype(float)
        np.testing.assert_allclose(R.T @ R, (d / r) * StS, atol=1e-12)


def test_srht_without_replacement_never_repeats():
    for seed in range(20):
        for d, r in [(64, 64), (64, 63), (100, 128), (5, 8), (1000, 37)]:
            idx = make_sketch("srht", d, r, rng=seed, replace=False).indices_
            assert np.unique(idx).size == r and np.all(idx < 1 << (d - 1).bit_length())
    # with replacement, r = d' draws repeat with overwhelming probability (1 - 64!/64^64)
    assert np.unique(make_sketch("srht", 64, 64, rng=0, replace=True).indices_).size < 64


@pytest.mark.parametrize("density,expected", [("achlioptas", 1 / 3), ("li", 1 / np.sqrt(400)), (0.2, 0.2)])
def test_sparse_values_and_density(density, expected):
    d, r = 400, 50
    S = make_sketch("sparse", d, r, rng=6, density=density)
    assert S.params["density"] == pytest.approx(expected)
    R = S.matrix()
    np.testing.assert_allclose(np.abs(R.data), np.sqrt(1 / (expected * r)), rtol=1e-15)
    # nnz ~ Binomial(d r, s): |nnz - d r s| <= 6 sd has false-alarm probability < 2e-9 (normal tail;
    # d r s >= 1000 here, where the Binomial is within 1e-3 of normal in Kolmogorov distance).
    n = d * r
    sd = np.sqrt(n * expected * (1 - expected))
    assert abs(R.nnz - n * expected) <= 6 * sd
    assert set(np.sign(R.data)) == {-1.0, 1.0}


def test_gaussian_and_sign_values():
    G = make_sketch("gaussian", 200, 50, rng=8).matrix()
    # var of entries 1/r; the sample variance of 10^4 N(0, 1/50) entries has relative sd sqrt(2/10^4)
    # = 0.014; 6 sd (0.085) -> false-alarm probability < 2e-9
    assert abs(G.var() * 50 - 1) < 0.085
    Sg = make_sketch("sign", 200, 50, rng=8).matrix()
    np.testing.assert_array_equal(np.abs(Sg), 1 / np.sqrt(50))
