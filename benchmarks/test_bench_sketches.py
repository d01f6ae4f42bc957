"""Sketch benchmarks, measured side by side in one run (numbers: benchmarks/results/).

1. FWHT of a 2048 x 4096 float64 array vs ``X @ scipy.linalg.hadamard(4096)`` (target >= 20x), with the
   throughput against a memcpy of the same array, both into a reused array (``np.copyto``) and into a
   fresh one (``X.copy()``, which pays the page faults of a new 64 MiB output as ``fwht(X)`` does). "ours" is
   the default single-threaded kernel; the ``RPCHECK_PARALLEL=1`` entries use the 2-thread ``prange`` drivers.
2. SRHT apply, dense 2000 x 16384 -> r = 512, vs ``GaussianRandomProjection(512).fit_transform`` (target:
   faster). Ours is timed both as apply only and as build + apply (the sklearn call includes drawing R).
3. CountSketch of a random CSR 20000 x 47236 at 0.16% density -> r = 2048 vs
   ``scipy.linalg.clarkson_woodruff_transform`` (target: no slower), and at 0.32% density (time should
   double with nnz). scipy sketches rows (``S @ A``), so it is given ``X.T`` (CSC, a free transpose) and
   computes ``(X R)^T``; ours computes ``X R`` from the CSR matrix; both build the sketch inside the timing.

No assertions on time: these are measurements, not tests. Correctness of every fast path is tested in
tests/sketches against dense oracles; here a cheap consistency check guards against timing a wrong result.
"""

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from sklearn.random_projection import GaussianRandomProjection

from rpcheck.sketches import fwht, make_sketch

ROUNDS_FAST = 15
ROUNDS_SLOW = 3


@pytest.fixture(scope="module")
def X_fwht():
    return np.random.default_rng(0).standard_normal((2048, 4096))


@pytest.fixture(scope="module")
def H4096():
    return scipy.linalg.hadamard(4096).astype(np.float64)


def test_fwht_out_of_place(benchmark, X_fwht):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="ours", bytes_moved=2 * X_fwht.nbytes)
    fwht(X_fwht[:4])  # JIT / cache load outside the timing
    Y = benchmark.pedantic(fwht, args=(X_fwht,), kwargs={"normalized": False}, rounds=ROUNDS_FAST,
                           warmup_rounds=1)
    np.testing.assert_allclose(Y[:2, :8], X_fwht[:2] @ scipy.linalg.hadamard(4096)[:, :8], atol=1e-9)


def test_fwht_out_of_place_parallel(benchmark, X_fwht, monkeypatch):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="ours-RPCHECK_PARALLEL=1", bytes_moved=2 * X_fwht.nbytes)
    monkeypatch.setenv("RPCHECK_PARALLEL", "1")
    fwht(X_fwht)
    benchmark.pedantic(fwht, args=(X_fwht,), kwargs={"normalized": False}, rounds=ROUNDS_FAST, warmup_rounds=1)


def test_fwht_in_place(benchmark, X_fwht):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="ours-inplace", bytes_moved=2 * X_fwht.nbytes)
    W = X_fwht.copy()
    # normalised H is an involution: repeated in-place transforms stay bounded
    benchmark.pedantic(fwht, args=(W,), kwargs={"inplace": True}, rounds=ROUNDS_FAST, warmup_rounds=1)


def test_fwht_numpy_fallback(benchmark, X_fwht, monkeypatch):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="numpy-fallback", bytes_moved=2 * X_fwht.nbytes)
    monkeypatch.setenv("RPCHECK_DISABLE_NUMBA", "1")
    benchmark.pedantic(fwht, args=(X_fwht,), kwargs={"normalized": False}, rounds=ROUNDS_SLOW)


def test_fwht_baseline_dense_hadamard(benchmark, X_fwht, H4096):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="baseline")
    benchmark.pedantic(np.matmul, args=(X_fwht, H4096), rounds=ROUNDS_SLOW)


def test_fwht_memcpy(benchmark, X_fwht):
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="memcpy", bytes_moved=2 * X_fwht.nbytes)
    Y = np.empty_like(X_fwht)
    benchmark.pedantic(np.copyto, args=(Y, X_fwht), rounds=ROUNDS_FAST, warmup_rounds=1)


def test_fwht_memcpy_fresh_output(benchmark, X_fwht):
    """``X.copy()``: a memcpy into a newly allocated array, i.e. with the page faults that the out-of-place
    ``fwht(X)`` also pays for its output (``np.copyto`` into a reused array does not)."""
    benchmark.group = "fwht-2048x4096-f64"
    benchmark.extra_info.update(role="memcpy-fresh-output", bytes_moved=2 * X_fwht.nbytes)
    benchmark.pedantic(np.copy, args=(X_fwht,), rounds=ROUNDS_FAST, warmup_rounds=1)


@pytest.fixture(scope="module")
def X_srht():
    return np.random.default_rng(1).standard_normal((2000, 16384))


def test_srht_apply(benchmark, X_srht):
    benchmark.group = "srht-2000x16384-r512"
    benchmark.extra_info.update(role="ours", bytes_moved=X_srht.nbytes)
    S = make_sketch("srht", 16384, 512, rng=0)
    S.apply(X_srht[:8])
    out = benchmark.pedantic(S.apply, args=(X_srht,), rounds=ROUNDS_FAST, warmup_rounds=1)
    np.testing.assert_allclose(out[:3], X_srht[:3] @ S.matrix(), atol=1e-9)


def test_srht_apply_parallel(benchmark, X_srht, monkeypatch):
    benchmark.group = "srht-2000x16384-r512"
    benchmark.extra_info.update(role="ours-RPCHECK_PARALLEL=1", bytes_moved=X_srht.nbytes)
    monkeypatch.setenv("RPCHECK_PARALLEL", "1")
    S = make_sketch("srht", 16384, 512, rng=0)
    S.apply(X_srht)
    benchmark.pedantic(S.apply, args=(X_srht,), rounds=ROUNDS_FAST, warmup_rounds=1)


def test_srht_build_and_apply(benchmark, X_srht):
    benchmark.group = "srht-2000x16384-r512"
    benchmark.extra_info.update(role="ours-build+apply")

    def run():
        return make_sketch("srht", 16384, 512, rng=0).apply(X_srht)

    benchmark.pedantic(run, rounds=ROUNDS_FAST, warmup_rounds=1)


def test_srht_baseline_sklearn_gaussian(benchmark, X_srht):
    benchmark.group = "srht-2000x16384-r512"
    benchmark.extra_info.update(role="baseline")

    def run():
        return GaussianRandomProjection(512, random_state=0).fit_transform(X_srht)

    benchmark.pedantic(run, rounds=ROUNDS_SLOW)


def _csr(density, seed, n=20000, d=47236):
    """Random CSR with round(density n d) uniformly placed N(0,1) entries (the ~0.08% coinciding
    positions are summed), canonical format. Faster than scipy.sparse.random at this size."""
    rng = np.random.default_rng(seed)
    nnz = int(round(density * n * d))
    rows = rng.integers(0, n, nnz)
    cols = rng.integers(0, d, nnz)
    X = sp.csr_matrix((rng.standard_normal(nnz), (rows, cols)), shape=(n, d))
    X.sum_duplicates()
    return X


@pytest.fixture(scope="module")
def X_cs():
    return _csr(0.0016, 2)


@pytest.fixture(scope="module")
def X_cs2():
    return _csr(0.0032, 3)


def test_countsketch(benchmark, X_cs):
    benchmark.group = "countsketch-20000x47236-r2048"
    benchmark.extra_info.update(role="ours", nnz=X_cs.nnz)

    def run():
        return make_sketch("countsketch", 47236, 2048, rng=0).apply(X_cs)

    run()
    out = benchmark.pedantic(run, rounds=ROUNDS_FAST, warmup_rounds=1)
    assert out.shape == (20000, 2048) and out.nnz <= X_cs.nnz


def test_countsketch_double_nnz(benchmark, X_cs2):
    benchmark.group = "countsketch-20000x47236-r2048"
    benchmark.extra_info.update(role="ours-2x-nnz", nnz=X_cs2.nnz)

    def run():
        return make_sketch("countsketch", 47236, 2048, rng=0).apply(X_cs2)

    benchmark.pedantic(run, rounds=ROUNDS_FAST, warmup_rounds=1)


def test_countsketch_apply_only(benchmark, X_cs):
    benchmark.group = "countsketch-20000x47236-r2048"
    benchmark.extra_info.update(role="ours-apply-only", nnz=X_cs.nnz)
    S = make_sketch("countsketch", 47236, 2048, rng=0)
    benchmark.pedantic(S.apply, args=(X_cs,), rounds=ROUNDS_FAST, warmup_rounds=1)


def test_countsketch_baseline_scipy(benchmark, X_cs):
    benchmark.group = "countsketch-20000x47236-r2048"
    benchmark.extra_info.update(role="baseline", nnz=X_cs.nnz)
    XT = X_cs.T  # CSC view, no copy

    def run():
        return scipy.linalg.clarkson_woodruff_transform(XT, 2048, rng=0)

    out = benchmark.pedantic(run, rounds=ROUNDS_FAST, warmup_rounds=1)
    assert out.shape == (2048, 20000)


def test_countsketch_baseline_scipy_double_nnz(benchmark, X_cs2):
    benchmark.group = "countsketch-20000x47236-r2048"
    benchmark.extra_info.update(role="baseline-2x-nnz", nnz=X_cs2.nnz)
    XT = X_cs2.T

    def run():
        return scipy.linalg.clarkson_woodruff_transform(XT, 2048, rng=0)

    benchmark.pedantic(run, rounds=ROUNDS_FAST, warmup_rounds=1)
