"""Tests of rpcheck.standins: shape, density, value set, label balance and determinism of every stand-in.

Density tolerance: under the model of rpcheck.standins the number of nonzeros is a sum of independent
Bernoulli indicators whose expectation is exactly ``density * n * d`` (the rate is solved for it), so its
standard deviation is at most ``sqrt(density * n * d)``; the empty-row fix adds at most ``n`` entries. We
accept ``|nnz - density n d| <= 6 sqrt(density n d) + n``; the seeds are fixed, so the test is deterministic,
and for a fresh seed the Bernstein bound puts the chance of a false alarm below 1e-7.

Measured on the shared 2-core machine (fresh process, ``resource.getrusage`` max RSS; ~54 MiB of it is the
interpreter with numpy/scipy/sklearn imported), seed 0:

========================  ==========================  ========  =========
stand-in                  shape (density)             time      peak RSS
========================  ==========================  ========  =========
techtc300                 150 x 20,000 (1.0%)         0.02 s    57 MiB
rcv1-binary               20,242 x 47,236 (0.160%)    0.76 s    113 MiB
real-sim (train)          48,447 x 20,958 (0.25%)     1.0 s     124 MiB
news20-binary (train)     13,397 x 1,355,191 (0.034%) 11.6 s    284 MiB
hapmap-hgdp               2,250 x 10,000 dense        3.8 s     293 MiB
mushrooms (train)         6,000 x 112 (19.6%)         0.04 s    61 MiB
usps-b (train)            7,291 x 256 dense           0.06 s    83 MiB
========================  ==========================  ========  =========
"""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck import standins as s
from rpcheck.datasets import DENSE_MAX_ENTRIES, Dataset, check_expected
from rpcheck.errors import RpcheckError


def _density_ok(X, density):
    n, d = X.shape
    mean = density * n * d
    return abs(X.nnz - mean) <= 6 * np.sqrt(mean) + n


def _same(a, b):
    assert a.name == b.name and a.description == b.description
    if sp.issparse(a.X):
        assert (a.X != b.X).nnz == 0 and np.array_equal(a.X.indptr, b.X.indptr)
    else:
        np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)


def test_techtc_like():
    ds = s.techtc_like(rng=0)
    assert isinstance(ds, Dataset) and "stand-in (NOT the real data)" in ds.description
    assert ds.name == "techtc300-standin"
    assert (ds.n, ds.d) == (150, 20_000) and sp.isspmatrix_csr(ds.X) and ds.X.has_canonical_format
    assert _density_ok(ds.X, 0.01)
    v = ds.X.data
    assert np.all(v >= 1) and np.all(v == np.round(v))  # positive integer term counts
    assert int(np.sum(ds.y > 0)) == 75 and int(np.sum(ds.y < 0)) == 75
    assert np.all(np.diff(ds.X.indptr) >= 1)
    check_expected(ds, "techtc300")  # inside the paper's stated 150-280 x 10,000-40,000
    _same(ds, s.techtc_like(rng=np.random.SeedSequence(0)))
    assert (s.techtc_like(rng=1).X != ds.X).nnz > 0


def test_rcv1_binary_like_full_size():
    ds = s.rcv1_binary_like(rng=0)
    assert (ds.n, ds.d) == (20_242, 47_236) and sp.isspmatrix_csr(ds.X)
    assert _density_ok(ds.X, 0.0016)
    check_expected(ds, "rcv1-binary")  # 0.16% as Paul et al. state it (rounding interval)
    assert np.all(ds.X.data > 0)
    np.testing.assert_allclose(sp.linalg.norm(ds.X, axis=1), 1.0, rtol=1e-12)  # cosine-normalised rows
    assert int(np.sum(ds.y > 0)) == 10_121
    _same(ds, s.rcv1_binary_like(rng=0, chunk_rows=4096))


def test_rcv1_chunking_does_not_change_the_density_law():
    a = s.rcv1_binary_like(n=3000, chunk_rows=500, rng=3)
    b = s.rcv1_binary_like(n=3000, chunk_rows=3000, rng=3)
    assert _density_ok(a.X, 0.0016) and _density_ok(b.X, 0.0016)


def test_rcv1_multiclass_like_full_size():
    """Paul et al. 2014, Sec. 4.1.4: 15,564 x 47,236, 0.14% nonzeros, 53 classes; Zipf class sizes (ours)."""
    ds = s.rcv1_multiclass_like(rng=0)
    assert (ds.n, ds.d) == (15_564, 47_236) and sp.isspmatrix_csr(ds.X) and ds.X.has_canonical_format
    assert ds.name == "rcv1-multiclass-standin" and "stand-in (NOT the real data)" in ds.description
    assert _density_ok(ds.X, 0.0014)
    check_expected(ds, "rcv1-multiclass")
    assert np.all(ds.X.data > 0)
    np.testing.assert_allclose(sp.linalg.norm(ds.X, axis=1), 1.0, rtol=1e-12)
    counts = np.bincount(ds.y_raw.astype(int))
    np.testing.assert_array_equal(counts, s.topic_counts(15_564, 53))
    assert counts.size == 53 and counts.min() >= 3 and np.all(np.diff(counts) <= 0)
    assert int(np.sum(ds.y > 0)) == counts[0]  # class 0 (the largest) vs the rest
    _same(ds, s.standin("rcv1-multiclass", rng=np.random.SeedSequence(0)))
    assert (s.rcv1_multiclass_like(n=500, d=4096, density=0.01, classes=5, rng=1).X
            != s.rcv1_multiclass_like(n=500, d=4096, density=0.01, classes=5, rng=2).X).nnz > 0


def test_rcv1_multiclass_informative_words_separate_the_classes():
    """Each class's own words are boosted in its documents only: the class-mean profiles on the informative
    columns are each dominated by their own block (a structural check, no classifier)."""
    ds = s.rcv1_multiclass_like(n=2000, d=4096, density=0.01, classes=8, informative=10, boost=1.0, skew=0.0, rng=4)
    assert np.bincount(ds.y_raw.astype(int)).tolist() == [250] * 8
    X = ds.X.tocsc()
    cls = ds.y_raw.astype(int)
    means = np.vstack([np.asarray((X[cls == c] != 0).mean(axis=0)).ravel() for c in range(8)])
    own = np.argmax(means, axis=0)  # the class where each column is most frequent
    # every class owns 10 columns present in >= 50% of its documents (1 - exp(-1) = 63% at boost 1)
    for c in range(8):
        assert int(np.sum((own == c) & (means[c] >= 0.5))) == 10


def test_topic_counts():
    assert s.topic_counts(30, 10).tolist() == [3] * 10
    assert s.topic_counts(100, 4, skew=0).tolist() == [25] * 4
    c = s.topic_counts(15_564, 53)
    assert c.sum() == 15_564 and c[0] == 3384 and c[-1] == 67 and np.all(np.diff(c) <= 0)
    with pytest.raises(RpcheckError, match=r"`classes` x `min_count` \(10 x 3\) exceeds `n` \(20\)"):
        s.topic_counts(20, 10)
    with pytest.raises(RpcheckError, match=r"`skew` \(-1\)"):
        s.topic_counts(20, 2, skew=-1)
    with pytest.raises(RpcheckError, match=r"`informative` \(100\)"):
        s.rcv1_multiclass_like(n=100, d=1000, classes=20, informative=100)


def test_hapmap_like_values_labels_and_low_rank_profile():
    n, d, regions = 250, 2000, 5
    ds = s.hapmap_like(n=n, d=d, populations=25, rng=0)
    assert (ds.n, ds.d) == (n, d) and isinstance(ds.X, np.ndarray)
    assert set(np.unique(ds.X).tolist()) == {-1.0, 0.0, 1.0}  # the paper's coding
    assert np.bincount(ds.y_raw).tolist() == [50] * regions
    assert int(np.sum(ds.y > 0)) == 50  # region 0 vs rest
    g = s.hapmap_like(n=n, d=d, populations=25, coding="012", rng=0)
    np.testing.assert_array_equal(g.X, ds.X + 1)  # same draw, allele counts
    # low-rank profile: the regions-1 structure directions of the centred matrix stand far above the
    # largest singular value of the same columns with the rows permuted independently (no structure)
    Xc = ds.X - ds.X.mean(axis=0)
    sv = np.linalg.svd(Xc, compute_uv=False)
    rng = np.random.default_rng(1)
    P = np.column_stack([rng.permutation(c) for c in ds.X.T])
    null = np.linalg.svd(P - P.mean(axis=0), compute_uv=False)[0]
    assert sv[regions - 2] > 2 * null  # measured 86.9 vs 38.4 at this seed
    pops = s.hapmap_like(n=n, d=50, populations=25, label="population", positive=3, rng=0)
    assert np.unique(pops.y_raw).size == 25 and int(np.sum(pops.y > 0)) == 10
    _same(ds, s.hapmap_like(n=n, d=d, populations=25, rng=np.random.default_rng(0)))


def test_hapmap_full_width_is_refused():
    with pytest.raises(RpcheckError, match=r"2250 x 492516 = 1,108,161,000\) exceeds DENSE_MAX_ENTRIES"):
        s.hapmap_like(d=492_516)
    assert 2_250 * 10_000 <= DENSE_MAX_ENTRIES


@pytest.mark.parametrize("name", list(s.LEI2020_SHAPES))
def test_lei2020_like_shapes(name):
    spec = s.LEI2020_SHAPES[name]
    n = 400
    ds = s.lei2020_like(name, n=n, rng=0)
    assert (ds.n, ds.d) == (n, spec["d"]) and "stand-in (NOT the real data)" in ds.description
    assert "Lei & Lan 2020, Table 3" in ds.description
    if spec["kind"] == "text":
        assert sp.isspmatrix_csr(ds.X) and _density_ok(ds.X, spec["density"])
        np.testing.assert_allclose(sp.linalg.norm(ds.X, axis=1), 1.0, rtol=1e-12)
        assert int(np.sum(ds.y > 0)) == n // 2
    elif spec["kind"] == "onehot":
        assert set(np.unique(ds.X).tolist()) == {0.0, 1.0}
        assert np.all(ds.X.sum(axis=1) == 22)  # one of each of 22 attributes
        assert int(np.sum(ds.y > 0)) == n // 2
    else:
        assert ds.X.min() >= -1 and ds.X.max() <= 1
        if name == "usps-b":
            assert np.bincount(ds.y_raw).tolist() == [n // 10] * 10 and int(np.sum(ds.y > 0)) == n // 10
        else:
            assert int(np.sum(ds.y > 0)) == n // 2
    _same(ds, s.lei2020_like(name, n=n, rng=0))


@pytest.mark.parametrize("name", ["mushrooms", "usps-b", "real-sim", "rcv1-binary"])
def test_lei2020_like_full_split_matches_the_registry(name):
    ds = s.lei2020_like(name, split="test", rng=0)
    assert ds.n == s.LEI2020_SHAPES[name]["test"]
    raw = ds.y_raw
    ds2 = Dataset(X=ds.X, y=ds.y, name=ds.name, task=ds.task, y_raw=raw)
    check_expected(ds2, name)


def test_standin_dispatch_and_bad_arguments():
    assert s.standin("techtc300", rng=0, n=160).n == 160
    with pytest.raises(RpcheckError, match=r"`name` \('rcv2'\) must be one of 'techtc300'"):
        s.standin("rcv2")
    with pytest.raises(RpcheckError, match=r"`split` \('dev'\)"):
        s.lei2020_like("gisette", split="dev")
    with pytest.raises(RpcheckError, match=r"`density` \(0\)"):
        s.sparse_text(10, 10, density=0)
    with pytest.raises(RpcheckError, match=r"`frac_pos` \(0.01\) leaves a class empty at n=10"):
        s.sparse_text(10, 100, density=0.1, informative=0, frac_pos=0.01)
    with pytest.raises(RpcheckError, match=r"`rng`"):
        s.techtc_like(rng="x")


@pytest.mark.parametrize(
    "name, shape, classes", [("yalefaces", (165, 4096), 15), ("nci60", (60, 1375), 10)]
)
def test_regression_standins_at_the_papers_sizes(name, shape, classes):
    """Paul et al. 2014, Sec. 4.3: Yalefaces 165 x 4,096 with 15 people (11 images each), NCI60 60 x 1,375 with
    ten classes; the class ids are the real-valued targets; dense, full row rank; deterministic in the seed."""
    ds = s.standin(name, rng=3)
    assert ds.X.shape == shape and ds.task == "regression" and "stand-in" in ds.description
    assert "standin" in ds.name
    np.testing.assert_array_equal(np.unique(ds.y), np.arange(1, classes + 1))
    assert np.linalg.matrix_rank(ds.X) == shape[0]
    _same(ds, s.standin(name, rng=3))
    if name == "yalefaces":
        assert ds.X.min() >= 0 and ds.X.max() <= 1
        assert np.all(np.bincount(ds.y.astype(int))[1:] == 11)


def test_regression_standins_bad_arguments():
    with pytest.raises(RpcheckError, match=r"`people` \(1\)"):
        s.yalefaces_like(people=1)
    with pytest.raises(RpcheckError, match=r"`classes` \(61\)"):
        s.nci60_like(classes=61)
