"""Tests of rpcheck.datasets: bundled data, svmlight/CSV/npz files, label mapping and bad input."""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck.datasets import BUNDLED, Dataset, describe, load_bundled, load_file
from rpcheck.errors import RpcheckError


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_shapes_and_labels(name):
    ds = load_bundled(name)
    assert isinstance(ds, Dataset)
    assert ds.X.shape[0] == ds.y.shape[0] == ds.n
    assert ds.X.dtype == np.float64 and np.all(np.isfinite(ds.X))
    if ds.task == "classification":
        assert set(np.unique(ds.y).tolist()) == {-1.0, 1.0}
    else:
        assert len(np.unique(ds.y)) > 2
    info = describe(ds)
    assert info["n"] == ds.n and info["d"] == ds.d
    assert 0 < info["density"] <= 1
    assert info["rank"] == np.linalg.matrix_rank(ds.X)


def test_bundled_known_sizes():
    bc = load_bundled("breast_cancer")
    assert (bc.n, bc.d) == (569, 30)
    assert int(np.sum(bc.y > 0)) == 357  # benign (sklearn target 1) -> +1
    dg = load_bundled("digits", digit=3)
    assert (dg.n, dg.d) == (1797, 64)
    assert int(np.sum(dg.y > 0)) == 183  # digit 3 count in the bundled set
    assert dg.name == "digits3"
    assert load_bundled("digits").name == "digits8"
    db = load_bundled("diabetes")
    assert (db.n, db.d, db.task) == (442, 10, "regression")


def test_dataset_is_frozen():
    ds = load_bundled("breast_cancer")
    with pytest.raises(AttributeError):
        ds.name = "x"
    with pytest.raises(ValueError):
        ds.X[0, 0] = 1.0
    with pytest.raises(ValueError):
        ds.y[0] = 1.0


def test_bundled_bad_input():
    with pytest.raises(RpcheckError, match=r"`name` \('iris'\) must be one of 'breast_cancer'"):
        load_bundled("iris")
    with pytest.raises(RpcheckError, match=r"`digit` \(10\)"):
        load_bundled("digits", digit=10)


def _write_svmlight(path, labels):
    rows = []
    for i, lab in enumerate(labels):
        rows.append(f"{lab} 1:{i + 1}.5 3:{-i}\n" if i % 2 else f"{lab} 2:{0.25 * i}\n")
    path.write_text("".join(rows))


def test_svmlight_roundtrip(tmp_path):
    p = tmp_path / "small.svm"
    _write_svmlight(p, [1, 2, 2, 1, 2])  # LIBSVM labels {1, 2} as in mushrooms
    ds = load_file(p)
    assert sp.issparse(ds.X) and ds.X.shape == (5, 3)
    np.testing.assert_array_equal(ds.y, [-1, 1, 1, -1, 1])
    dense = ds.X.toarray()
    np.testing.assert_allclose(dense[1], [2.5, 0, -1])
    np.testing.assert_allclose(dense[2], [0, 0.5, 0])
    info = describe(ds)
    assert info["nnz"] == 1 + 2 + 1 + 2 + 1 - 1  # row 0 has 2:0.0, stored but zero
    assert info["n_pos"] == 3 and info["n_neg"] == 2
    # n_features aligns a train/test pair
    assert load_file(p, n_features=7, fmt="libsvm").d == 7


def test_svmlight_multiclass_needs_positive(tmp_path):
    p = tmp_path / "multi"
    _write_svmlight(p, [1, 2, 3, 1, 3])
    with pytest.raises(RpcheckError, match=r"take 3 distinct values .*positive="):
        load_file(p)
    ds = load_file(p, positive=3)
    np.testing.assert_array_equal(ds.y, [-1, -1, 1, -1, 1])
    with pytest.raises(RpcheckError, match=r"`positive` \(7\) is not a label"):
        load_file(p, positive=7)
    reg = load_file(p, task="regression")
    np.testing.assert_array_equal(reg.y, [1, 2, 3, 1, 3])


def test_single_class_rejected(tmp_path):
    p = tmp_path / "one.svm"
    _write_svmlight(p, [1, 1, 1])
    with pytest.raises(RpcheckError, match="single value"):
        load_file(p)


def test_csv_with_and_without_header(tmp_path):
    X = np.array([[0.5, 1.0], [2.0, -1.0], [3.0, 0.0], [-4.0, 2.5]])
    y = np.array([0, 1, 1, 0])
    plain = tmp_path / "a.csv"
    np.savetxt(plain, np.column_stack([X, y]), delimiter=",")
    ds = load_file(plain)
    np.testing.assert_allclose(ds.X, X)
    np.testing.assert_array_equal(ds.y, [-1, 1, 1, -1])
    head = tmp_path / "b.csv"
    head.write_text("f1,f2,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X, y)))
    np.testing.assert_allclose(load_file(head).X, X)


def test_csv_bad_content(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("a,b,label\n1,x,0\n2,3,1\n")
    with pytest.raises(RpcheckError, match="non-numeric feature columns"):
        load_file(p)
    q = tmp_path / "one.csv"
    q.write_text("1\n2\n")
    with pytest.raises(RpcheckError, match="needs features and a last target column"):
        load_file(q)
    e = tmp_path / "empty.csv"
    e.write_text("")
    with pytest.raises(RpcheckError, match="empty"):
        load_file(e)


def test_npz(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 4))
    y = np.array([-1, 1, -1, 1, 1, -1])
    p = tmp_path / "d.npz"
    np.savez(p, X=X, y=y)
    ds = load_file(p)
    np.testing.assert_allclose(ds.X, X)
    np.testing.assert_array_equal(ds.y, y)
    wrong = tmp_path / "w.npz"
    np.savez(wrong, A=X, y=y)
    with pytest.raises(RpcheckError, match=r"arrays named 'X' and 'y'; found \['A', 'y'\]"):
        load_file(wrong)
    obj = tmp_path / "o.npz"
    np.savez(obj, X=np.array([[1, "a"]], dtype=object), y=np.array([1]))
    with pytest.raises(RpcheckError, match="allow_pickle=False"):
        load_file(obj)
    nan = tmp_path / "n.npz"
    Xn = X.copy()
    Xn[1, 2] = np.nan
    np.savez(nan, X=Xn, y=y)
    with pytest.raises(RpcheckError, match="NaN or infinite"):
        load_file(nan)


def test_load_file_bad_arguments(tmp_path):
    with pytest.raises(RpcheckError, match="is not an existing file"):
        load_file(tmp_path / "missing.svm")
    p = tmp_path / "x.svm"
    _write_svmlight(p, [1, -1])
    msg = r"`fmt` \('arff'\) must be one of 'svmlight', 'libsvm', 'csv', 'npz'"
    with pytest.raises(RpcheckError, match=msg):
        load_file(p, fmt="arff")
    with pytest.raises(RpcheckError, match=r"`task` \('clustering'\)"):
        load_file(p, task="clustering")
    g = tmp_path / "garbage.svm"
    g.write_text("this is not svmlight\n")
    with pytest.raises(RpcheckError, match="could not parse"):
        load_file(g)


def test_describe_rejects_non_dataset():
    with pytest.raises(RpcheckError, match="must be a rpcheck.datasets.Dataset"):
        describe(np.zeros((2, 2)))
