"""Property tests of rpcheck.strategies: every drawn example satisfies the documented contract.

Hypothesis runs under the derandomized profile of tests/conftest.py, so these tests are deterministic; a
failure is a real counterexample (shrunk and printed), never a statistical false alarm.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from rpcheck import generators as g
from rpcheck import strategies as rs

ATOL = 1e-12  # orthonormality / planted-margin identities hold to a few ulps at these sizes


@given(rs.orthonormal_bases(min_dim=1, max_dim=40, min_rank=1, max_rank=6))
def test_orthonormal_bases_contract(V):
    d, rho = V.shape
    assert 1 <= rho <= min(6, d) and d <= 40
    np.testing.assert_allclose(V.T @ V, np.eye(rho), atol=ATOL)
    assert 1 - ATOL <= g.coherence(V) <= d / rho + ATOL


@given(rs.orthonormal_bases(min_dim=10, max_dim=10, min_rank=2, max_rank=2, coherence="coherent"))
def test_orthonormal_bases_fixed_shape_and_kind(V):
    np.testing.assert_array_equal(V, np.eye(10, 2))


@given(rs.low_rank_matrices(max_rows=20, max_cols=20, max_rank=5, tail=0.0))
def test_low_rank_matrices_exact_rank(X):
    n, d = X.shape
    s = np.linalg.svd(X, compute_uv=False)
    rank = int(np.sum(s > 1e-9 * s[0]))
    assert 1 <= rank <= min(5, n, d)
    assert np.all(s[rank:] <= 1e-12 * s[0])


@given(
    rs.low_rank_matrices(min_rows=3, max_rows=15, min_cols=3, max_cols=15, min_rank=1, max_rank=2, tail=0.1)
)
def test_low_rank_matrices_tail_is_full_rank_with_gap(X):
    s = np.linalg.svd(X, compute_uv=False)
    # 1 or 2 planted values s_1 >= s_rank, then min(n, d) - rank >= 1 values all equal to 0.1 * s_rank
    rank = int(np.sum(s > s[-1] * (1 + 1e-9)))
    assert 1 <= rank <= 2
    np.testing.assert_allclose(s[rank:], 0.1 * s[rank - 1], rtol=1e-10)
    assert np.linalg.matrix_rank(X) == min(X.shape)


@given(rs.sparse_matrices(max_rows=30, max_cols=30, active_features=3))
def test_sparse_matrices_contract(X):
    assert sp.isspmatrix_csr(X) and X.has_canonical_format
    assert np.all(np.diff(X.indptr) >= 1)
    assert np.unique(X.indices).size <= 3


@given(rs.datasets(max_samples=30, max_features=8))
def test_datasets_unconstrained_contract(data):
    n, d = data.X.shape
    assert 2 <= n <= 30 and 1 <= d <= 8 and data.separable is None
    assert set(np.unique(data.y)) == {-1.0, 1.0}
    assert np.all(np.linalg.norm(data.X, axis=1) > 0)
    assert np.all(np.isfinite(data.X))
    nz = np.abs(data.X[data.X != 0])
    assert np.all((nz >= 0.01) & (nz <= 100.0))


@given(rs.datasets(max_samples=40, max_features=10, separable=True, bias=None, min_margin=0.05))
def test_datasets_separable_planted_margin(data):
    assert data.separable is True and 0.05 <= data.margin <= 1.0
    assert set(np.unique(data.y)) == {-1.0, 1.0}
    m = g.normalized_margins(data.X, data.y, data.w, b=data.b, center=data.center)
    assert m.min() >= data.margin - ATOL


@given(rs.datasets(min_samples=2, max_samples=25, separable=False))
def test_datasets_nonseparable_certificate(data):
    i, j, k = data.certificate
    assert data.X.shape[0] >= 3
    np.testing.assert_array_equal(data.X[k], 0.5 * (data.X[i] + data.X[j]))
    assert data.y[i] == data.y[j] == -data.y[k]


@given(rs.multiclass_datasets(max_samples=30, max_features=8, max_classes=5))
def test_multiclass_datasets_contract(data):
    n, d = data.X.shape
    k = data.witnesses.shape[0]
    assert 2 <= k <= min(5, d) and n >= k
    assert set(data.y.tolist()) == set(range(k))
    assert g.multiclass_margins(data.X, data.y, data.witnesses).min() >= data.margin - ATOL


@given(rs.sketch_seeds())
def test_sketch_seeds_in_range(seed):
    assert 0 <= seed <= 2**32 - 1
    np.random.default_rng(seed)


def test_examples_shrink_towards_simplest():
    from hypothesis import find

    V = find(
        rs.orthonormal_bases(max_dim=12), lambda V: True, settings=settings(database=None, max_examples=20)
    )
    np.testing.assert_array_equal(V, np.eye(1, 1))  # d = rho = 1, coherent
    data = find(
        rs.datasets(max_samples=6, max_features=3),
        lambda d: True,
        settings=settings(database=None, max_examples=20),
    )
    np.testing.assert_array_equal(data.X, [[1.0], [1.0]])
    np.testing.assert_array_equal(data.y, [-1.0, 1.0])
    V = find(
        rs.orthonormal_bases(min_dim=4, max_dim=12, min_rank=2),
        lambda V: V.shape[1] >= 2,
        settings=settings(database=None, max_examples=20),
    )
    assert V.shape == (4, 2)


@pytest.mark.parametrize(
    "build, match",
    [
        (lambda: rs.orthonormal_bases(min_dim=5, max_dim=3), r"min_dim=5 is larger than max_dim=3"),
        (lambda: rs.orthonormal_bases(min_rank=3, max_rank=2), r"min_rank=3 is larger than max_rank=2"),
        (lambda: rs.orthonormal_bases(min_rank=9, max_dim=4), r"min_rank=9 is larger than max_dim=4"),
        (lambda: rs.orthonormal_bases(min_dim=0), r"min_dim=0 must be at least 1"),
        (lambda: rs.orthonormal_bases(min_dim=1.5), r"Expected an int for min_dim"),
        (lambda: rs.orthonormal_bases(coherence="weird"), r"coherence='weird' must be"),
        (lambda: rs.low_rank_matrices(min_rows=4, max_rows=2), r"min_rows=4 is larger than max_rows=2"),
        (lambda: rs.low_rank_matrices(min_rank=5, max_rows=3), r"min_rank=5 is larger than min\(max_rows"),
        (lambda: rs.low_rank_matrices(tail=1.0), r"tail=1.0 must be < 1"),
        (lambda: rs.low_rank_matrices(singular_values="steep"), r"singular_values='steep'"),
        (lambda: rs.sparse_matrices(min_density=0.6, max_density=0.5), r"min_density=0.6 is larger"),
        (lambda: rs.sparse_matrices(min_density=0.0), r"min_density=0.0 must be > 0"),
        (lambda: rs.datasets(min_samples=1), r"min_samples=1 must be at least 2"),
        (lambda: rs.datasets(min_samples=5, max_samples=4), r"min_samples=5 is larger than max_samples=4"),
        (lambda: rs.datasets(separable="yes"), r"separable='yes' must be None, True or False"),
        (lambda: rs.datasets(max_samples=2, separable=False), r"max_samples=2 must be at least 3"),
        (
            lambda: rs.datasets(min_margin=0.5, max_margin=0.1),
            r"min_margin=0.5 is larger than max_margin=0.1",
        ),
        (lambda: rs.datasets(elements=[1.0]), r"elements=\[1.0\] must be a hypothesis strategy"),
        (
            lambda: rs.multiclass_datasets(min_classes=5, max_features=4),
            r"min_classes=5 is larger than max_f",
        ),
        (lambda: rs.multiclass_datasets(min_classes=1), r"min_classes=1 must be at least 2"),
    ],
)
def test_bad_bounds_raise_eagerly(build, match):
    # raised when the strategy is built, before any draw
    with pytest.raises(InvalidArgument, match=match):
        build()


@given(data=st.data())
def test_drawn_seed_replays_instance(data):
    """A strategy example is a pure function of the drawn seed: rebuilding from it gives the same array."""
    seed = data.draw(rs.sketch_seeds())
    V1 = g.orthonormal_basis(9, 3, coherence="intermediate", mix=0.3, rng=seed)
    V2 = g.orthonormal_basis(9, 3, coherence="intermediate", mix=0.3, rng=seed)
    np.testing.assert_array_equal(V1, V2)
