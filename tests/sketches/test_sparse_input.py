"""Malformed and unusual scipy.sparse input at the public boundary of every sketch and of rpcheck.linalg.

scipy.sparse index arrays are plain mutable ndarrays: a CSR matrix can claim shape (9, 5) and store column
index 10**7. Before the structure check in ``rpcheck._validation.check_sparse_matrix`` the compiled
CountSketch/CW kernel read out of bounds (the process died with SIGSEGV, exit code 139) and scipy's own
conversions wrote out of bounds. Every malformed case must now raise one RpcheckError naming the argument.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import CASES, build, case_id, dense

from rpcheck.errors import RpcheckError
from rpcheck.linalg import embedding_distortion, row_space_basis

REPRODUCER = textwrap.dedent(
    """
    import numpy as np, scipy.sparse as sp
    from rpcheck.errors import RpcheckError
    from rpcheck.sketches import make_sketch
    X = sp.csr_matrix((np.ones(9), np.full(9, 10**7, np.int32), np.arange(10)), shape=(9, 5))
    try:
        make_sketch("countsketch", 5, 17, rng=0).apply(X)
    except RpcheckError as exc:
        print("RpcheckError:", exc)
        raise SystemExit(1)
    raise SystemExit(0)
    """
)


def test_segfault_reproducer_now_raises_rpcheck_error():
    """The reproducer of the crash, in a child process: exit code 1 after an RpcheckError, not -11."""
    proc = subprocess.run([sys.executable, "-c", REPRODUCER], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    assert "RpcheckError: `X` is a malformed scipy.sparse csr matrix: stored index 10000000" in proc.stdout


def _malformed(d):
    """(label, matrix, message regex) for n = 6 rows and d columns; each is structurally invalid."""
    base = sp.csr_matrix(np.random.default_rng(0).standard_normal((6, d)) * (np.arange(d) % 2))
    out = []

    def mutate(label, fn, msg, fmt="csr"):
        X = base.asformat(fmt).copy()
        fn(X)
        out.append((label, X, msg))

    def set_index(X, v):
        X.indices[0] = v

    mutate("col>=d", lambda X: set_index(X, d), rf"stored index {d} is outside the valid range \[0, {d}\)")
    mutate("col=1e7", lambda X: set_index(X, 10**7), r"stored index 10000000 is outside")
    mutate("col<0", lambda X: set_index(X, -1), r"stored index -1 is outside")
    mutate("indptr-short", lambda X: setattr(X, "indptr", X.indptr[:-1]), r"`indptr` has length 6 but")
    mutate("indptr-decreasing", lambda X: X.indptr.__setitem__(2, X.indptr[3] + 1),
           r"`indptr` must start at 0 and be non-decreasing")
    mutate("indptr-start", lambda X: X.indptr.__setitem__(0, 1), r"`indptr` must start at 0")
    mutate("indptr-end", lambda X: X.indptr.__setitem__(-1, X.indptr[-1] + 5), r"`indptr` ends at")
    mutate("csc-row>=n", lambda X: set_index(X, 6), r"malformed scipy.sparse csc matrix: stored index 6", "csc")
    mutate("coo-col", lambda X: X.col.__setitem__(0, d + 3), rf"`col` index {d + 3} is outside", "coo")
    mutate("coo-row", lambda X: X.row.__setitem__(0, -2), r"`row` index -2 is outside", "coo")
    mutate("bsr-col", lambda X: set_index(X, d), r"malformed scipy.sparse bsr matrix: stored index", "bsr")
    mutate("float-indices", lambda X: setattr(X, "indices", X.indices.astype(float)),
           r"`indices` must be a 1-D integer array")
    return out


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_malformed_sparse_refused_by_every_kind(case):
    kind, params = case
    d = 8
    X = np.random.default_rng(1).standard_normal((6, d))
    S = build(kind, params, d, 8, rng=0, X=X)
    for _label, bad, msg in _malformed(d):
        with pytest.raises(RpcheckError, match=r"`X` .*" + msg):
            S.apply(bad)
        with pytest.raises(RpcheckError, match=msg):
            S.fit(bad, np.where(np.arange(6) % 2, 1.0, -1.0))


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "dia", "lil", "dok"])
def test_every_sparse_format_gives_the_dense_result(case, fmt):
    kind, params = case
    rng = np.random.default_rng(2)
    X = rng.standard_normal((7, 8)) * (rng.random((7, 8)) < 0.4)
    S = build(kind, params, 8, 8, rng=0, X=X)
    expected = S.apply(X)
    for cls in (sp.csr_matrix, sp.csr_array):
        Xs = cls(X).asformat(fmt)
        got = S.apply(Xs)
        np.testing.assert_allclose(dense(got), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_sparse_dtypes(case):
    kind, params = case
    X = (np.arange(48).reshape(6, 8) % 3 == 0)
    S = build(kind, params, 8, 8, rng=0, X=X.astype(float))
    with pytest.raises(RpcheckError, match=r"`X` must hold real numbers; got a scipy.sparse matrix of dtype complex"):
        S.apply(sp.csr_matrix(X.astype(complex)))
    np.testing.assert_allclose(dense(S.apply(sp.csr_matrix(X))), S.apply(X.astype(float)), rtol=1e-12, atol=1e-12)
    bad = sp.csr_matrix(X.astype(float))
    bad.data[1] = -np.inf
    with pytest.raises(RpcheckError, match="`X` contains NaN or infinite entries"):
        S.apply(bad)
    mixed = sp.csr_matrix(X.astype(float))
    mixed.indptr = mixed.indptr.astype(np.int64)  # int64 indptr with int32 indices: accepted, same result
    np.testing.assert_allclose(dense(S.apply(mixed)), S.apply(X.astype(float)), rtol=1e-12, atol=1e-12)


def test_linalg_refuses_malformed_sparse():
    V = np.eye(8)[:, :3]
    for _label, bad, msg in _malformed(8):
        with pytest.raises(RpcheckError, match=r"`X` .*" + msg):
            row_space_basis(bad)
    badR = sp.csr_matrix((np.ones(1), np.array([99]), np.array([0, 1] + [1] * 7)), shape=(8, 3))
    with pytest.raises(RpcheckError, match=r"`R` is a malformed scipy.sparse csr matrix: stored index 99"):
        embedding_distortion(V, badR)
    badvtr = sp.csr_matrix((np.ones(1), np.array([99]), np.array([0, 1, 1, 1])), shape=(3, 5))
    with pytest.raises(RpcheckError, match=r"`VtR` is a malformed scipy.sparse csr matrix"):
        embedding_distortion(V, VtR=badvtr)
