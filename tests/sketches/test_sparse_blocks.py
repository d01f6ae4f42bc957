"""Blocked (row-streamed) SRHT/ISRHT and the se-isrht composite against dense oracles.

Every fast path is compared with the explicit matrix of the same sketch applied to the dense data, within
the forward-error bound of ``_sketch_cases.matmul_error_bound`` (each output entry is a sum of the same d
exact products in another order, plus <= 3 scalings; Higham Sec. 3.1), for several block sizes (the module
constant ``_CHUNK_ENTRIES``: one row per block, a few rows, everything in one block), dense/CSR/CSC input
and both backends. Blocked fits are compared with one-shot fits: the rotated rows are bitwise the same
(each row is transformed on its own), so only the order of the sums over rows differs.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import labels, matmul_error_bound, score_order_bound

import rpcheck.sketches.srht as srht_mod
from rpcheck.errors import RpcheckError
from rpcheck.sketches import SE_METHODS, make_sketch, supervised_scores

U64 = np.finfo(np.float64).eps / 2
N, D = 23, 45  # n is not a multiple of any block size below; d = 45 pads to d' = 64

CASES = [("srht", {"replace": False}), ("srht", {"replace": True}), ("srht-nps", {}), ("srht-topr", {}),
         ("srht-supervised", {})] + [("se-isrht", {"method": m}) for m in SE_METHODS] + [
         ("se-isrht", {"method": "topr", "r_prime": 24})]
IDS = [k + "".join(f"-{v}" for v in p.values()) for k, p in CASES]
#: entries per block: 1 -> one row per block; 320 -> 5 rows of d' = 64 (7 rows of d = 45 on the compiled
#: sparse path, 20 rows of the r'' = 16 embedding); 2**30 -> one block
CHUNKS = [1, 320, 1 << 30]


def _data(seed=0, n=N, d=D, density=0.3):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=rng, format="csr").toarray()
    X *= rng.gamma(0.5, size=d)  # unequal column scales: distinct energies
    return X


def _fmt(X, fmt):
    return {"dense": X, "csr": sp.csr_matrix(X), "csc": sp.csc_array(X)}[fmt]


def _fit(kind, params, X, y, r=8, seed=3):
    S = make_sketch(kind, X.shape[1], r, rng=seed, **params)
    return S.fit(X, y) if S.data_dependent else S


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("fmt", ["dense", "csr", "csc"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_blocked_apply_and_fit_match_dense_oracle(case, fmt, chunk, backend_any, monkeypatch):
    kind, params = case
    X = _data()
    y = labels(N, 0)
    ref = _fit(kind, params, X, y)  # one block (default _CHUNK_ENTRIES = 2**22 > 23 * 64)
    monkeypatch.setattr(srht_mod, "_CHUNK_ENTRIES", chunk)
    S = _fit(kind, params, _fmt(X, fmt), y)
    M = S.matrix()
    out = S.apply(_fmt(X, fmt))
    assert isinstance(out, np.ndarray) and out.shape == (N, 8) and out.dtype == np.float64
    assert np.all(np.abs(out - X @ M) <= matmul_error_bound(X, M, U64))
    if not S.data_dependent:
        np.testing.assert_array_equal(M, ref.matrix())
        return
    # blocked vs one-shot sums of the same n nonnegative terms: |c - c_ref| <= 2 gamma_n c_ref
    g = 2 * N * U64 / (1 - N * U64)
    E, E_ref = S.column_energies_, ref.column_energies_
    assert np.all(np.abs(E - E_ref) <= 2 * g * E_ref)
    np.testing.assert_array_equal(S.indices_, ref.indices_)  # energy gaps >> 1e-14 relative on this data
    np.testing.assert_allclose(S.weights_, ref.weights_, rtol=4 * g, atol=0)
    if getattr(S, "scores_", None) is not None:
        inner = S.inner_ if kind == "se-isrht" else S
        Xr = inner.rotate(S.embedding_.apply(X) if kind == "se-isrht" else X)
        assert np.all(np.abs(S.scores_ - ref.scores_) <= score_order_bound(Xr, y))


def test_supervised_scores_blocked_sums_equal_function():
    """The public one-shot supervised_scores equals the Laplacian form on the rotated data (oracle)."""
    rng = np.random.default_rng(5)
    Xr = rng.standard_normal((17, 16))
    y = labels(17, 5)
    A = np.where(y[:, None] == y[None, :], 1.0, -1.0)
    L = np.diag(A.sum(axis=1)) - A
    oracle = np.einsum("ik,ij,jk->k", Xr, L, Xr)
    np.testing.assert_allclose(supervised_scores(Xr, y), oracle, rtol=0, atol=1e-12 * np.abs(L).sum() * (Xr**2).max())


@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_se_isrht_sparse_equals_dense_bitwise_compiled(fmt):
    """With the compiled kernels the embedding sums in the same (column) order for CSR and dense rows and
    every row is rotated on its own, so sparse and dense input give bitwise equal fits and outputs."""
    from rpcheck.sketches import numba_enabled

    if not numba_enabled():
        pytest.skip("numba is not importable in this environment")
    X = _data(1)
    y = labels(N, 1)
    for m in SE_METHODS:
        A = _fit("se-isrht", {"method": m}, X, y)
        B = _fit("se-isrht", {"method": m}, _fmt(X, fmt), y)
        np.testing.assert_array_equal(A.apply(X), B.apply(_fmt(X, fmt)))
        if A.data_dependent:
            np.testing.assert_array_equal(A.column_energies_, B.column_energies_)


@pytest.mark.parametrize(
    "r, params",
    [
        (1, {"method": "srht"}),
        (1, {"method": "topr"}),
        (16, {"method": "topr"}),  # r = r'' = 2**ceil(log2 r'), the largest distinct selection
        (32, {"method": "supervised", "r_prime": 24}),  # r'' = 32 for r' = 24
        (16, {"method": "srht", "replace": False}),
        (5, {"method": "srht", "r_prime": 1, "replace": True}),  # r > r'' allowed with replacement
        (40, {"method": "nps", "r_prime": 3}),  # nps samples with replacement: r > r'' = 4
    ],
)
@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_se_isrht_r_at_the_limits(r, params, fmt):
    X = _data(2)
    params = {"r_prime": 16, **params}
    S = make_sketch("se-isrht", D, r, rng=4, **params)
    if S.data_dependent:
        S.fit(_fmt(X, fmt), labels(N, 2))
    M = S.matrix()
    assert M.shape == (D, r)
    out = S.apply(_fmt(X, fmt))
    assert np.all(np.abs(out - X @ M) <= matmul_error_bound(X, M, U64))
    if params["method"] in ("topr", "supervised") and r == S.inner_.d_pad:
        np.testing.assert_array_equal(np.sort(S.indices_), np.arange(r))  # every rotated column selected


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("fmt", ["dense", "csr", "csc"])
def test_zero_rows_and_zero_nnz(case, fmt, monkeypatch):
    kind, params = case
    monkeypatch.setattr(srht_mod, "_CHUNK_ENTRIES", 64)  # blocks of one row
    S = _fit(kind, params, _data(), labels(N, 0))
    for n in (0, 4):
        Z = _fmt(np.zeros((n, D)), fmt)
        out = S.apply(Z)
        assert out.shape == (n, 8) and out.dtype == np.float64 and not np.any(out)
        out32 = S.apply(_fmt(np.zeros((n, D), np.float32), fmt))
        assert out32.dtype == np.float32 and out32.shape == (n, 8)
    # fitting on all-zero data: energies 0, so nps is undefined (refused by name); top-r / supervised keep
    # the first r columns (ties to the smaller index); n = 0 rows behaves the same
    T = make_sketch(kind, D, 8, rng=3, **params)
    if not T.data_dependent:
        return
    for n in (0, 4):
        Z = _fmt(np.zeros((n, D)), fmt)
        if params.get("method", kind) in ("nps", "srht-nps"):
            with pytest.raises(RpcheckError, match=r"`X` is all zeros: the nps probabilities"):
                T.fit(Z, labels(max(n, 2), 0)[:n])
        elif n and params.get("method", kind) in ("supervised", "srht-supervised"):
            T.fit(Z, labels(n, 0))
            np.testing.assert_array_equal(T.indices_, np.arange(8))
        elif params.get("method", kind) in ("topr", "srht-topr"):
            T.fit(Z)
            np.testing.assert_array_equal(T.indices_, np.arange(8))


def test_se_isrht_bad_input():
    with pytest.raises(RpcheckError, match=r"`method` \('median'\) must be one of 'srht', 'nps', 'topr', 'supervised'"):
        make_sketch("se-isrht", 10, 4, method="median")
    with pytest.raises(RpcheckError, match=r"`replace` \(True\) applies only to method='srht'; got method='nps'\. "
                                           r"Parameters of method 'nps': 'r_prime'\."):
        make_sketch("se-isrht", 10, 4, method="nps", replace=True)
    with pytest.raises(RpcheckError, match=r"`a` \(0.5\) applies only to method='supervised'; got method='srht'\. "
                                           r"Parameters of method 'srht': 'r_prime', 'replace'\."):
        make_sketch("se-isrht", 10, 4, a=0.5)
    for bad in (0, -1, 2.5, "8"):
        with pytest.raises(RpcheckError, match=rf"`r_prime` \({bad!r}\) must be an integer in the range \[1, |"
                                               rf"`r_prime` \({bad}\) must be an integer in the range \[1, "):
            make_sketch("se-isrht", 10, 4, r_prime=bad)
    with pytest.raises(RpcheckError, match=r"`r` \(9\) must be <= 2\*\*ceil\(log2 r_prime\) = 8 \(`r_prime` = 5\) "
                                           r"for method='topr'"):
        make_sketch("se-isrht", 10, 9, method="topr", r_prime=5)
    make_sketch("se-isrht", 10, 9, method="srht", replace=True, r_prime=5)  # with replacement: allowed
    with pytest.raises(RpcheckError, match=r"`rule` \('median'\) must be one of 'smallest', 'largest'"):
        make_sketch("se-isrht", 10, 4, method="supervised", rule="median")
    S = make_sketch("se-isrht", 10, 4, method="supervised")
    X = np.random.default_rng(0).standard_normal((6, 10))
    with pytest.raises(RpcheckError, match=r"sketch kind 'se-isrht' is data-dependent: call fit\(X\)"):
        S.apply(X)
    with pytest.raises(RpcheckError, match=r"`y` is required for kind 'se-isrht' with method='supervised'"):
        S.fit(X)
    with pytest.raises(RpcheckError, match=r"`y` has length 5 but X has 6 rows"):
        S.fit(X, np.ones(5))
    with pytest.raises(RpcheckError, match=r"`X` has 9 columns but the sketch was built for d=10"):
        S.fit(X[:, :9], np.ones(6))
    with pytest.raises(RpcheckError, match=r"`X` contains NaN or infinite entries"):
        S.fit(sp.csr_matrix(np.where(X > 1, np.inf, X)), labels(6, 0))


def test_se_isrht_matches_its_definition():
    """R = R_sparse R_inner: the CountSketch matrix times the inner (r', r) sketch, r' = 2r by default."""
    S = make_sketch("se-isrht", 30, 4, rng=7, method="srht")
    assert S.r_prime == 8 and S.embedding_.r == 8 and (S.inner_.d, S.inner_.r) == (8, 4)
    Rs = S.embedding_.matrix().toarray()
    assert np.all(np.count_nonzero(Rs, axis=1) == 1) and set(np.unique(Rs)) <= {-1.0, 0.0, 1.0}
    np.testing.assert_array_equal(S.matrix(), Rs @ S.inner_.matrix())
    # entries of R_inner are +-1/sqrt(r) (srht), so each row of R is +-1/sqrt(r) times a row of H
    np.testing.assert_allclose(np.abs(S.matrix()), 0.5, rtol=1e-15)


@pytest.mark.parametrize("direct", ["always", "never"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_sparse_apply_direct_and_fwht_paths_match_oracle(case, fmt, direct, monkeypatch):
    """The compiled sparse apply has two paths: the direct O(nnz r) kernel (stored entries times the
    closed-form Hadamard signs) and densified row blocks through the FWHT; both within the oracle bound,
    float32 with its own unit roundoff, for int32 and int64 index arrays."""
    from rpcheck.sketches import numba_enabled

    if not numba_enabled():
        pytest.skip("numba is not importable in this environment")
    monkeypatch.setattr(srht_mod, "_SPARSE_DIRECT", direct)
    kind, params = case
    X = _data(6)
    S = _fit(kind, params, X, labels(N, 6))
    M = S.matrix()
    for dtype, itype in ((np.float64, np.int32), (np.float32, np.int64)):
        Xs = _fmt(X.astype(dtype), fmt)
        Xs.indices, Xs.indptr = Xs.indices.astype(itype), Xs.indptr.astype(itype)
        out = S.apply(Xs)
        assert out.dtype == dtype
        u = np.finfo(dtype).eps / 2
        X64 = X.astype(dtype).astype(np.float64)
        assert np.all(np.abs(out - X64 @ M) <= matmul_error_bound(X64, M, u))
