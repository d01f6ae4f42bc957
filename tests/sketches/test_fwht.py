"""FWHT against the dense Sylvester-Hadamard oracle, on both code paths."""

import numpy as np
import pytest
from scipy.linalg import hadamard

from rpcheck.errors import RpcheckError
from rpcheck.sketches import fwht, next_pow2, numba_enabled

U = {np.float32: np.finfo(np.float32).eps / 2, np.float64: np.finfo(np.float64).eps / 2}


@pytest.fixture(params=["numba", "numpy"])
def backend(request, monkeypatch):
    """Run the test once with the compiled kernel and once with the numpy fallback."""
    if request.param == "numba":
        monkeypatch.delenv("RPCHECK_DISABLE_NUMBA", raising=False)
        if not numba_enabled():
            pytest.skip("numba is not importable in this environment")
    else:
        monkeypatch.setenv("RPCHECK_DISABLE_NUMBA", "1")
        assert not numba_enabled()
    return request.param


def _tolerance(x, d, u, scale):
    # Each output entry is a +-sum of the d inputs. The butterfly tree has depth q = log2 d, the oracle
    # (BLAS dot) any order: |error| <= (gamma_q + gamma_d + 2u) * ||x_row||_1 * scale (Higham Sec. 3.1),
    # the 2u covering the normalisation multiply and the float32 rounding of the float64 oracle.
    q = max(d.bit_length() - 1, 0)
    gamma = (q + d) * u / (1 - (q + d) * u)
    return (gamma + 2 * u) * np.abs(x.astype(np.float64)).sum(axis=-1, keepdims=True) * scale


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("inplace", [False, True])
def test_fwht_matches_hadamard(backend, dtype, normalized, inplace):
    rng = np.random.default_rng(20240501)
    for k in range(11):  # d = 1, 2, 4, ..., 1024
        d = 2**k
        x = rng.standard_normal((3, d)).astype(dtype)
        x_orig = x.copy()
        scale = 1 / np.sqrt(d) if normalized else 1.0
        oracle = (x.astype(np.float64) @ hadamard(d).astype(np.float64)) * scale
        y = fwht(x, normalized=normalized, inplace=inplace)
        assert y.dtype == dtype and y.shape == x.shape
        if inplace:
            assert y is x
        else:
            np.testing.assert_array_equal(x, x_orig)  # input untouched
        err = np.abs(y.astype(np.float64) - oracle)
        assert np.all(err <= _tolerance(x_orig, d, U[dtype], scale)), (d, err.max())


def test_fwht_1d_and_noncontiguous(backend):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(64)
    np.testing.assert_allclose(fwht(x, normalized=False), hadamard(64) @ x, rtol=0, atol=1e-12)
    big = rng.standard_normal((5, 128))
    view = big[:, ::2]  # non-contiguous, 64 columns
    expected = view @ hadamard(64) / 8
    np.testing.assert_allclose(fwht(view), expected, rtol=0, atol=1e-12)
    out = fwht(view, inplace=True)  # written back through the view
    assert out is view
    np.testing.assert_allclose(big[:, ::2], expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("parallel", ["0", "1"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fwht_large_arrays_parallel_kernels(backend, dtype, parallel, monkeypatch):
    """Arrays above PARALLEL_MIN_ENTRIES use the parallel kernels when RPCHECK_PARALLEL=1 (fused
    copy+transform out of place, in place, strided input); d = 2048 has odd log2 d, so the radix-2 first
    level runs too."""
    from rpcheck.sketches import _kernels

    monkeypatch.setenv("RPCHECK_PARALLEL", parallel)
    x = np.random.default_rng(2).standard_normal((40, 4096)).astype(dtype)
    view = x[:, ::2]  # (40, 2048), strided
    assert view.size >= _kernels.PARALLEL_MIN_ENTRIES
    oracle = view.astype(np.float64) @ hadamard(2048).astype(np.float64) / np.sqrt(2048)
    tol = _tolerance(view, 2048, U[dtype], 1 / np.sqrt(2048))
    assert np.all(np.abs(fwht(view) - oracle) <= tol)
    c = np.ascontiguousarray(view)
    assert np.all(np.abs(fwht(c) - oracle) <= tol)
    assert fwht(c, inplace=True) is c
    assert np.all(np.abs(c - oracle) <= tol)


def test_fwht_is_involution_and_orthogonal():
    x = np.random.default_rng(3).standard_normal((4, 256))
    y = fwht(x)
    np.testing.assert_allclose(fwht(y), x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(y, axis=1), np.linalg.norm(x, axis=1), rtol=1e-13)


def test_fwht_integer_input_and_empty():
    np.testing.assert_array_equal(fwht(np.array([1, 2, 3, 4]), normalized=False), hadamard(4) @ [1, 2, 3, 4])
    assert fwht(np.zeros((0, 8))).shape == (0, 8)


@pytest.mark.parametrize("d", [3, 6, 1000])
def test_fwht_rejects_non_power_of_two(d):
    msg = rf"last dimension of `x` \({d}\) must be a power of two.*{next_pow2(d)}"
    with pytest.raises(RpcheckError, match=msg):
        fwht(np.ones((2, d)))


def test_fwht_bad_input():
    with pytest.raises(RpcheckError, match="1- or 2-dimensional"):
        fwht(np.ones((2, 2, 4)))
    with pytest.raises(RpcheckError, match="real numbers"):
        fwht(np.array(["a", "b"]))
    with pytest.raises(RpcheckError, match="float32 or float64 numpy array for `inplace=True`"):
        fwht(np.ones(4, dtype=int), inplace=True)
    ro = np.ones(4)
    ro.flags.writeable = False
    with pytest.raises(RpcheckError, match="read-only"):
        fwht(ro, inplace=True)
