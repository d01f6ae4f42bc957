"""Property-based fuzzing of the public sketch and linear-algebra API (hypothesis, derandomized).

Contract checked on every drawn call: the outcome is either a correct result (right shape and dtype, all
entries finite, equal to the dense oracle ``X @ matrix()`` within the forward-error bound of
``_sketch_cases.matmul_error_bound``) or an ``RpcheckError`` whose message names an argument in backticks.
Any other exception, a crash, an inf/NaN in a result or a hang (each example is bounded by hypothesis'
deadline) fails the test. Inputs include huge and tiny magnitudes (1e-300..1e308), NaN/inf, complex,
empty and malformed sparse matrices, bad dimensions (0, negative, 2**31, 2**62, 2**63, 2**64, floats,
strings) and bad parameters.

Allocation limits are made machine-independent by ``RPCHECK_MAX_MEMORY`` = 256 MiB: a dimension such as
2**31 must then be refused before any allocation (on a large machine it would otherwise be built, slowly).

The default run uses ``FAST`` examples per test; ``-m heavy`` runs the same properties with ``HEAVY``.
The outcome counts of a run are printed by ``test_fuzz_outcome_counts`` (pytest ``-s``).
"""

import collections
import re

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import dense, labels, matmul_error_bound
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rpcheck.errors import RpcheckError
from rpcheck.linalg import embedding_distortion, row_space_basis
from rpcheck.sketches import SKETCH_KINDS, fwht, make_sketch

FAST = 60
HEAVY = 1500
OUTCOMES = collections.Counter()

NAMED = re.compile(r"`[A-Za-z_]+`")


def _settings(n):
    return settings(max_examples=n, derandomize=True, deadline=20000, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def _memory_cap(monkeypatch):
    monkeypatch.setenv("RPCHECK_MAX_MEMORY", str(256 * 2**20))


def _outcome(label, fn):
    """Run ``fn``; return its value, or None after an RpcheckError that names an argument."""
    try:
        value = fn()
    except RpcheckError as exc:
        assert NAMED.search(str(exc)), f"{label}: error names no argument: {exc}"
        OUTCOMES[label + ":refused"] += 1
        return None
    OUTCOMES[label + ":ok"] += 1
    return value


def _finite(A):
    return bool(np.all(np.isfinite(dense(A))))


BAD_DIMS = [0, -1, 2**31, 2**62, 2**62 + 1, 2**63, 2**64, 2.5, "8", None, True, np.int64(-3)]
dims = st.one_of(st.integers(1, 24), st.sampled_from(BAD_DIMS))
scales = st.sampled_from([1.0, 1e-300, 1e-150, 1e-6, 1e6, 1e150, 1e300, 1e308])


@st.composite
def params_for(draw, kind):
    if kind == "sparse":
        return {"density": draw(st.sampled_from(["achlioptas", "li", 0.5, 1.0, 0.0, -0.1, 2.0, "x", np.nan]))}
    if kind == "srht":
        return {"replace": draw(st.sampled_from([True, False, "yes", 1]))}
    if kind == "cw":
        return {k: draw(st.sampled_from([1, 2, 0, 2**62, None if k == "v" else 3])) for k in ("q", "v", "a")}
    if kind == "srht-supervised":
        return {"rule": draw(st.sampled_from(["smallest", "largest", "median"])),
                "a": draw(st.sampled_from([0.0, 1.0, 0.5, 1e300, np.inf, -1.0, np.nan]))}
    if kind == "se-isrht":
        method = draw(st.sampled_from(["srht", "nps", "topr", "supervised", "median"]))
        out = {"method": method, "r_prime": draw(st.sampled_from([None, 1, 3, 64, 0, 2**62, 2.5]))}
        if method == "supervised":
            out["a"] = draw(st.sampled_from([None, 1.0, 0.5, 1e300, np.inf, -1.0]))
        if method in ("srht", "nps"):
            out["replace"] = draw(st.sampled_from([None, True, False, "yes"]))
        return out
    return {}


@st.composite
def matrices(draw, n, d):
    """Dense or sparse (n, d) data, possibly with NaN/inf, complex, wrong shape or malformed structure."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.standard_normal((n, d)) * draw(scales)
    X[rng.random((n, d)) < draw(st.sampled_from([0.0, 0.5, 1.0]))] = 0.0
    mutation = draw(st.sampled_from(["none"] * 6 + ["nan", "inf", "complex", "float32", "int", "wide",
                                                      "1d", "huge-entry"]))
    if mutation == "nan" and X.size:
        X.flat[0] = np.nan
    elif mutation == "inf" and X.size:
        X.flat[-1] = -np.inf
    elif mutation == "complex":
        X = X.astype(complex)
    elif mutation == "float32":
        with np.errstate(over="ignore"):
            X = X.astype(np.float32)
    elif mutation == "int":
        X = np.round(X).clip(-1e6, 1e6).astype(np.int64)
    elif mutation == "wide":
        X = np.hstack([X, np.ones((n, 1))])
    elif mutation == "1d":
        X = X.ravel()
    elif mutation == "huge-entry" and X.size:
        X.flat[0] = 1.7e308
    fmt = draw(st.sampled_from(["dense"] * 4 + ["csr", "csc", "coo", "lil", "bad-index", "bad-indptr"]))
    if fmt == "dense" or X.ndim != 2 or X.dtype.kind == "c":
        return X
    S = sp.csr_matrix(X) if fmt in ("bad-index", "bad-indptr") else sp.csr_matrix(X).asformat(fmt)
    if fmt == "bad-index" and S.nnz:
        S.indices[draw(st.integers(0, S.nnz - 1))] = draw(st.sampled_from([-1, S.shape[1], 10**7, 2**31 - 1]))
    elif fmt == "bad-indptr":
        S.indptr = S.indptr[::-1].copy() if S.shape[0] > 1 and S.nnz else S.indptr[:-1]
    return S


def _check_apply(S, X, Y):
    """A successful apply: shape, finiteness and agreement with the dense oracle X @ R."""
    Xd = dense(X).astype(np.float64)
    assert Y.shape == (Xd.shape[0], S.r)
    assert _finite(Y), "apply returned inf/NaN"
    R = _outcome("matrix", S.matrix)
    if R is None or S.d * S.r > 10**6:  # e.g. a countsketch with r = 2**31: R is sparse, its dense oracle is not
        return
    Rd = dense(R)
    assert _finite(Rd)
    u = np.finfo(dense(Y).dtype).eps / 2
    oracle = Xd @ Rd if np.max(np.abs(Xd), initial=0) < 1e150 else None
    if oracle is not None and np.all(np.isfinite(oracle)):
        tol = matmul_error_bound(Xd, Rd, u) + np.finfo(dense(Y).dtype).tiny * 1e3
        assert np.all(np.abs(dense(Y).astype(np.float64) - oracle) <= tol)


def _sketch_property(kind, data):
    d = data.draw(dims, label="d")
    r = data.draw(dims, label="r")
    params = data.draw(params_for(kind), label="params")
    S = _outcome("make_sketch", lambda: make_sketch(kind, d, r, rng=0, **params))
    if S is None:
        return
    assert (S.d, S.r) == (d, r)
    n = data.draw(st.integers(0, 6), label="n")
    X = data.draw(matrices(n, S.d), label="X")
    if S.data_dependent:
        y = labels(max(n, 2), 0)[:n] if data.draw(st.booleans(), label="good_y") else np.full(n, np.nan)
        if _outcome("fit", lambda: S.fit(X, y)) is None:
            return
    else:
        _outcome("fit", lambda: S.fit(X))
    Y = _outcome("apply", lambda: S.apply(X))
    if Y is not None:
        _check_apply(S, X, Y)


def _fwht_property(data):
    d = data.draw(st.sampled_from([1, 2, 4, 8, 16, 64, 3, 6, 0]), label="d")
    n = data.draw(st.integers(0, 4), label="n")
    x = data.draw(matrices(n, d), label="x")
    inplace = data.draw(st.booleans(), label="inplace")
    normalized = data.draw(st.booleans(), label="normalized")
    arg = np.array(x, copy=True) if isinstance(x, np.ndarray) else x  # sparse (maybe malformed) passed as is
    y = _outcome("fwht", lambda: fwht(arg, normalized=normalized, inplace=inplace))
    if y is None:
        return
    assert isinstance(x, np.ndarray)
    orig = np.array(x, copy=True)
    assert _finite(y), "fwht returned inf/NaN"
    assert y.shape == orig.shape
    from scipy.linalg import hadamard

    dd = orig.shape[-1]
    xo = orig.astype(np.float64).reshape(-1, dd)
    m = np.max(np.abs(xo), initial=0.0)
    e = int(np.frexp(m)[1]) if m > 0 else 0
    # oracle on x / 2**e (exact) to stay in range; compared after scaling back
    oracle = (np.ldexp(xo, -e) @ hadamard(dd)) * (1 / np.sqrt(dd) if normalized else 1.0)
    u = np.finfo(y.dtype).eps / 2
    tol = (2 * dd + 4) * u * np.abs(np.ldexp(xo, -e)).sum(axis=1, keepdims=True) + np.finfo(np.float64).tiny
    got = np.ldexp(np.asarray(y, dtype=np.float64).reshape(-1, dd), -e)
    assert np.all(np.abs(got - oracle) <= tol + 2.0 ** (-e) * np.finfo(y.dtype).tiny * 4)


def _linalg_property(data):
    n = data.draw(st.integers(0, 6), label="n")
    d = data.draw(st.integers(1, 7), label="d")
    X = data.draw(matrices(n, d), label="X")
    rtol = data.draw(st.sampled_from([None, None, 0.0, 1e-10, 0.5, 1.0, -1.0, np.nan, "x"]), label="rtol")
    V = _outcome("row_space_basis", lambda: row_space_basis(X, rtol=rtol))
    if V is None:
        return
    assert V.ndim == 2 and V.shape[0] == np.shape(X)[1] and _finite(V)  # X may have been widened by one column
    d = V.shape[0]
    np.testing.assert_allclose(V.T @ V, np.eye(V.shape[1]), atol=1e-10)
    r = data.draw(st.integers(0, 8), label="r")
    Rscale = data.draw(scales, label="Rscale")
    R = np.random.default_rng(r).standard_normal((d, r)) * Rscale
    if data.draw(st.booleans(), label="sparseR"):
        R = sp.csr_matrix(R)
    use_vtr = data.draw(st.booleans(), label="use_vtr")
    call = (lambda: embedding_distortion(V, VtR=V.T @ dense(R))) if use_vtr else (
        lambda: embedding_distortion(V, R))
    e = _outcome("embedding_distortion", call)
    if e is not None:
        assert np.isfinite(e) and e >= 0
        M = V.T @ dense(R)
        s = np.linalg.svd(M, compute_uv=False) if M.size else np.zeros(0)
        sq = np.zeros(V.shape[1])
        sq[: min(s.size, sq.size)] = s[: sq.size] ** 2
        ref = float(np.max(np.abs(1 - sq))) if sq.size else 0.0
        assert e == pytest.approx(ref, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("kind", SKETCH_KINDS)
@given(data=st.data())
@_settings(FAST)
def test_fuzz_sketch(kind, data):
    _sketch_property(kind, data)


@given(data=st.data())
@_settings(FAST)
def test_fuzz_fwht(data):
    _fwht_property(data)


@given(data=st.data())
@_settings(FAST)
def test_fuzz_linalg(data):
    _linalg_property(data)


@pytest.mark.heavy
@pytest.mark.parametrize("kind", SKETCH_KINDS)
@given(data=st.data())
@_settings(HEAVY)
def test_fuzz_sketch_heavy(kind, data):
    _sketch_property(kind, data)


@pytest.mark.heavy
@given(data=st.data())
@_settings(HEAVY)
def test_fuzz_fwht_heavy(data):
    _fwht_property(data)


@pytest.mark.heavy
@given(data=st.data())
@_settings(HEAVY)
def test_fuzz_linalg_heavy(data):
    _linalg_property(data)


def test_fuzz_outcome_counts():
    """Runs last in this module: prints how many calls succeeded and how many were refused, per API."""
    if OUTCOMES:
        print("\nfuzz outcomes:", dict(sorted(OUTCOMES.items())))
