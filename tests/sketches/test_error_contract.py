"""Regression tests of the error contract (each failed before: inf output, NaN scores, MemoryError, hangs)."""

import time

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import CASES, build, case_id, dense, labels

from rpcheck.errors import RpcheckError
from rpcheck.linalg import embedding_distortion
from rpcheck.sketches import fwht, make_sketch


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_apply_near_overflow_is_exact_or_refused(case):
    """Before: apply on 1e308 entries returned +-inf. Now X @ R is computed on X / 2**e (exact) when an
    intermediate overflows, and refused by name only when the product itself exceeds the float range."""
    kind, params = case
    rng = np.random.default_rng(0)
    X = rng.standard_normal((5, 8))
    S = build(kind, params, 8, 8, rng=1, X=X)
    R = dense(S.matrix())
    big = X * 1e305  # |X @ R| <= ||x||_1 max|R| < 1e308 * 8 * 3: may or may not overflow; intermediates do
    oracle = (X @ R) * 1e305
    if np.all(np.isfinite(oracle)) and np.abs(oracle).max() < 1e307:
        Y = dense(S.apply(big))
        assert np.all(np.isfinite(Y))
        np.testing.assert_allclose(Y, oracle, rtol=1e-10, atol=1e-10 * np.abs(oracle).max())
    Xs = np.full((2, 8), 1.7e308)
    exact = np.ones((2, 8)) @ R  # X @ R = 1.7e308 * exact, beyond the range where |exact| > 1.05
    for sparse_in in (False, True):
        arg = sp.csr_matrix(Xs) if sparse_in else Xs
        if np.abs(exact).max() > 1.06:
            with pytest.raises(RpcheckError, match=r"`X` has entries up to 1.7e\+308: X @ R exceeds the float64"):
                S.apply(arg)
        elif np.abs(exact).max() < 1.04:
            Y = dense(S.apply(arg))
            np.testing.assert_allclose(Y / 1.7e308, exact, rtol=1e-12, atol=1e-12)


def test_apply_tiny_entries_not_flushed():
    X = np.random.default_rng(0).standard_normal((3, 16)) * 1e-300
    for kind in ("srht-nps", "srht-topr"):
        S = make_sketch(kind, 16, 4, rng=0).fit(X)  # before: energies underflowed to 0 -> "all zeros" for nps
        np.testing.assert_allclose(S.apply(X), X @ S.matrix(), rtol=1e-12, atol=1e-312)
        ref = make_sketch(kind, 16, 4, rng=0).fit(X * 1e300)
        np.testing.assert_array_equal(S.indices_, ref.indices_)


def test_supervised_rejects_infinite_a_and_reports_overflowing_scores():
    with pytest.raises(RpcheckError, match=r"`a` \(inf\) must be a finite real number in the interval \[0, inf\)"):
        make_sketch("srht-supervised", 8, 4, a=np.inf)
    X = np.random.default_rng(0).standard_normal((6, 8))
    with pytest.raises(RpcheckError, match=r"`a` \(1e\+308\) and the scale of `X` make the scores b_k"):
        make_sketch("srht-supervised", 8, 4, a=1e308).fit(X * 1e10, labels(6, 0))
    # huge X with a = 1: selection computed exactly on X / 2**e, the same as on X
    S = make_sketch("srht-supervised", 8, 4, rng=0).fit(X * 1e100, labels(6, 0))
    T = make_sketch("srht-supervised", 8, 4, rng=0).fit(X, labels(6, 0))
    np.testing.assert_array_equal(S.indices_, T.indices_)
    assert np.all(np.isfinite(S.scores_))


def test_embedding_distortion_never_inf():
    V = np.eye(6)[:, :2]
    with pytest.raises(RpcheckError, match=r"`V` and `R` give sigma_max\(V\^T R\) = .*exceeds the float64 range"):
        embedding_distortion(V, np.full((6, 3), 1e200))
    with pytest.raises(RpcheckError, match=r"`VtR` give sigma_max"):
        embedding_distortion(V, VtR=np.full((2, 3), 1e300))
    with pytest.raises(RpcheckError, match=r"`V` and `R` give V\^T R with entries beyond the float64 range"):
        embedding_distortion(np.full((6, 2), 1e200), np.full((6, 3), 1e200))
    # V^T R formed from scaled factors when the plain product overflows but the distortion is finite
    R = np.zeros((6, 3))
    R[0, 0] = 1.0
    assert embedding_distortion(V, R) == 1.0


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("dim", ["d", "r"])
@pytest.mark.parametrize("value", [2**62, 2**62 + 1, 2**63, 2**64])
def test_huge_dimensions_refused_at_once(case, dim, value):
    """Before: MemoryError, OverflowError or minutes of work. Now one RpcheckError naming d or r."""
    kind, params = case
    d, r = (value, 8) if dim == "d" else (8, value)
    t0 = time.perf_counter()
    if kind == "countsketch" and (dim, value) == ("r", 2**62):
        # legitimate: R has d = 8 nonzeros; only a dense (n, 2**62) output is impossible
        S = make_sketch(kind, d, r, rng=0, **params)
        assert S.matrix().shape == (8, 2**62) and S.matrix().nnz == 8
        for X in (np.ones((1, 8)), sp.csr_matrix(np.ones((1, 8)))):
            with pytest.raises(RpcheckError, match=r"`r` \(4611686018427387904\) is too large|`n` \(1\) and `r`"):
                S.apply(X)
    else:
        with pytest.raises(RpcheckError, match=r"`d`|`r`"):
            make_sketch(kind, d, r, rng=0, **params)
    assert time.perf_counter() - t0 < 5.0  # a hang guard, not a benchmark: the check allocates nothing


@pytest.mark.parametrize("density", ["achlioptas", "li"])
def test_sparse_d_2_31_refused_before_allocating(monkeypatch, density):
    """Before: >30 s of drawing, then MemoryError. With 4 GiB available both densities need more (the
    CSR index pointer alone is 16 GiB) and are refused before any allocation."""
    monkeypatch.setenv("RPCHECK_MAX_MEMORY", str(4 * 2**30))
    with pytest.raises(RpcheckError, match=r"`d` \(2147483648\) and `r` \(5\) need a sparse \(d, r\) matrix"):
        make_sketch("sparse", 2**31, 5, rng=0, density=density)


def test_apply_output_checked_against_memory(monkeypatch):
    monkeypatch.setenv("RPCHECK_MAX_MEMORY", str(2**20))
    S = make_sketch("countsketch", 4, 2**20, rng=0)
    with pytest.raises(RpcheckError, match=r"`n` \(3\) and `r` \(1048576\) need an output"):
        S.apply(np.ones((3, 4)))


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_fwht_overflow_and_nonfinite(monkeypatch, backend):
    if backend == "numpy":
        monkeypatch.setenv("RPCHECK_DISABLE_NUMBA", "1")
    np.testing.assert_allclose(fwht(np.array([[1e308, 1e308]])), [[np.sqrt(2) * 1e308, 0.0]], rtol=1e-15)
    np.testing.assert_allclose(fwht(np.full((2, 16), 1e307)), np.hstack([np.full((2, 1), 4e307),
                                                                         np.zeros((2, 15))]), rtol=1e-15)
    with pytest.raises(RpcheckError, match=r"`x` has entries up to 1e\+308: its Walsh-Hadamard transform exceeds"):
        fwht(np.full((1, 8), 1e308))
    with pytest.raises(RpcheckError, match=r"exceeds the float32 range"):
        fwht(np.full((1, 4), 3e38, dtype=np.float32))
    with pytest.raises(RpcheckError, match=r"`x` contains NaN or infinite entries \(first at index \(1, 2\)\)"):
        x = np.ones((2, 4))
        x[1, 2] = np.nan
        fwht(x)
    with pytest.raises(RpcheckError, match=r"`x` contains NaN or infinite"):
        fwht(np.array([[1.0, np.inf, 0, 0]]), inplace=True)
