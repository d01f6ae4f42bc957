"""apply(X) == X @ matrix() for every kind, for dense / CSR / CSC input and both precisions."""

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import CASES, build, case_id, dense, matmul_error_bound

from rpcheck.sketches import make_sketch

U64 = np.finfo(np.float64).eps / 2
U32 = np.finfo(np.float32).eps / 2
SEED = 12345


def _data(n, d, rng):
    X = rng.standard_normal((n, d))
    X[rng.random((n, d)) < 0.4] = 0.0  # real zeros so sparse formats differ from dense
    X[1] = 0.0  # an all-zero row
    return X


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("d", [1, 13, 64])  # 13: padded to 16 for the SRHT family; 1: degenerate
@pytest.mark.parametrize("fmt", ["dense", "csr", "csc", "coo_array"])
def test_apply_equals_dense_oracle(case, d, fmt, backend_any):
    kind, params = case
    r = 8 if kind != "srht" or params["replace"] or d >= 8 else 1
    if kind in ("srht-topr", "srht-supervised") and d == 1:
        r = 1
    rng = np.random.default_rng(SEED)
    X = _data(11, d, rng)
    S = build(kind, params, d, r, rng=SEED, X=X)
    M = dense(S.matrix())
    assert M.shape == (d, r) and M.dtype == np.float64
    Xin = {"dense": X, "csr": sp.csr_matrix(X), "csc": sp.csc_matrix(X), "coo_array": sp.coo_array(X)}[fmt]
    out = S.apply(Xin)
    if fmt != "dense" and kind in ("countsketch", "cw"):
        assert sp.issparse(out) and out.format == "csr"  # sparse in, sparse out (documented)
        assert isinstance(out, sp.sparray) == isinstance(Xin, sp.sparray)
    else:
        assert isinstance(out, np.ndarray)
    out = dense(out)
    assert out.shape == (11, r) and out.dtype == np.float64
    # The issue asks for 1e-12 relative to the scale |X| |R|; the derived rounding bound is smaller for
    # these d (gamma_m with m <= 76), so we assert the derived bound, which implies the requirement.
    bound = matmul_error_bound(X, M, U64)
    assert np.all(bound <= 1e-12 * (np.abs(X) @ np.abs(M)) + 1e-300)
    assert np.all(np.abs(out - X @ M) <= bound)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_float32_stays_float32(case, fmt, backend_any):
    kind, params = case
    rng = np.random.default_rng(SEED)
    X = _data(9, 21, rng).astype(np.float32)
    S = build(kind, params, 21, 8, rng=SEED, X=X)
    Xin = X if fmt == "dense" else sp.csr_array(X)
    out = S.apply(Xin)
    assert out.dtype == np.float32
    M = dense(S.matrix())
    X64 = X.astype(np.float64)
    assert np.all(np.abs(dense(out) - X64 @ M) <= matmul_error_bound(X64, M, U32))


@pytest.mark.parametrize("replace", [True, False])
def test_srht_padding(replace):
    """d not a power of two: R is the first d rows of the d'-dimensional SRHT applied to zero-padded X."""
    d, r = 100, 16
    S = make_sketch("srht", d, r, rng=7, replace=replace)
    assert S.d_pad == 128 and S.scale_ == np.sqrt(128 / 16)
    X = np.random.default_rng(0).standard_normal((5, d))
    Xpad = np.hstack([X, np.zeros((5, 28))])
    from scipy.linalg import hadamard

    Dpad = np.concatenate([S.signs_, np.ones(28)])
    Rfull = np.sqrt(128 / r) * (Dpad[:, None] * hadamard(128) / np.sqrt(128))[:, S.indices_]
    np.testing.assert_allclose(S.matrix(), Rfull[:d], rtol=0, atol=1e-15)
    np.testing.assert_allclose(S.apply(X), Xpad @ Rfull, rtol=0, atol=1e-12)
    assert np.all(S.indices_ < 128)


def test_apply_empty_and_large_sparse_chunking(monkeypatch):
    import rpcheck.sketches.srht as srht_mod

    S = make_sketch("srht", 10, 4, rng=0)
    assert S.apply(np.zeros((0, 10))).shape == (0, 4)
    # Force several densification blocks for sparse input (both code paths).
    monkeypatch.setattr(srht_mod, "_CHUNK_ENTRIES", 32)
    X = sp.random(50, 10, density=0.3, random_state=1, format="csr")
    np.testing.assert_allclose(S.apply(X), X.toarray() @ S.matrix(), rtol=0, atol=1e-12)
    monkeypatch.setenv("RPCHECK_DISABLE_NUMBA", "1")
    np.testing.assert_allclose(S.apply(X.toarray()), X.toarray() @ S.matrix(), rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[0] in ("srht", "countsketch", "cw", "srht-nps")], ids=case_id
)
@pytest.mark.parametrize("parallel", ["0", "1"])
def test_apply_large_dense_compiled_paths(case, backend_any, parallel, monkeypatch):
    """Inputs above PARALLEL_MIN_ENTRIES go through the fused kernels (srht_rows, sparse_embed_dense),
    serial or, with RPCHECK_PARALLEL=1, parallel; compare them with the dense oracle too."""
    from rpcheck.sketches import _kernels

    monkeypatch.setenv("RPCHECK_PARALLEL", parallel)
    kind, params = case
    n, d, r = 70, 1000, 8
    assert n * 1024 >= _kernels.PARALLEL_MIN_ENTRIES and n * d >= _kernels.PARALLEL_MIN_ENTRIES
    rng = np.random.default_rng(SEED)
    X = rng.standard_normal((n, d))
    S = build(kind, params, d, r, rng=SEED, X=X)
    M = dense(S.matrix())
    for dtype, u in [(np.float64, U64), (np.float32, U32)]:
        Xd = X.astype(dtype)
        out = S.apply(Xd)
        assert out.dtype == dtype
        X64 = Xd.astype(np.float64)
        assert np.all(np.abs(out - X64 @ M) <= matmul_error_bound(X64, M, u))


@pytest.mark.parametrize("kind", ["gaussian", "sign"])
@pytest.mark.parametrize("r", [1, 2, 3, 37, 1000])
def test_dense_builds_bit_identical(kind, r):
    """The in-place / one-pass builds of the dense sketches give exactly the textbook formulas' values on
    the same draws: N(0, 1) / sqrt(r) and (2 bits - 1) / sqrt(r)."""
    d, seed = 300, 11
    R = make_sketch(kind, d, r, rng=np.random.default_rng(seed)).matrix()
    rng = np.random.default_rng(seed)
    if kind == "gaussian":
        ref = rng.standard_normal((d, r)) / np.sqrt(r)
    else:
        ref = (2.0 * rng.integers(0, 2, size=(d, r), dtype=np.int8) - 1.0) / np.sqrt(r)
    assert np.array_equal(R, ref)
