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
    with pytest.raises(RpcheckError, match=r"line 2, column 2 \('b'\): the field 'x' is not a number"):
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
    with pytest.raises(RpcheckError, match=r"line 1: label 'this' is not a number"):
        load_file(g)


def test_describe_rejects_non_dataset():
    with pytest.raises(RpcheckError, match="must be a rpcheck.datasets.Dataset"):
        describe(np.zeros((2, 2)))


# ---------------------------------------------------------------------------------------------------------
# regressions: silently wrong data and internal errors on bad files (each failed on the loader before
# the rewrite: it loaded the file with a wrong result or raised a non-RpcheckError)
# ---------------------------------------------------------------------------------------------------------
def _err(path, match, **kw):
    with pytest.raises(RpcheckError, match=match):
        load_file(path, **kw)


def test_nan_label_is_an_error_not_a_class(tmp_path):
    p = tmp_path / "nan.svm"
    p.write_text("nan 1:1\n1 1:2\n1 1:0\n")  # was: a 'two-class' set {nan, 1} -> silently wrong labels
    _err(p, r"line 1: label 'nan' is not a finite number")
    q = tmp_path / "nan.csv"
    q.write_text("1,2,0\n3,4,nan\n5,6,1\n")
    _err(q, r"line 2, column 3: the field 'nan' is not a finite number")
    r = tmp_path / "inf.npz"
    np.savez(r, X=np.ones((3, 2)), y=np.array([1.0, np.inf, -1.0]))
    _err(r, r"labels of 'inf.npz' contain NaN or infinite values .*first inf at row 1")


def test_csv_typo_in_first_row_is_not_a_header(tmp_path):
    p = tmp_path / "typo.csv"
    p.write_text("1,x,1\n2,3,0\n4,5,1\n")  # was: line 1 silently dropped as a header
    _err(p, r"line 1, column 2: field 'x' is not a number\. The first line is a header only when every field")
    ok = tmp_path / "hdr.csv"
    ok.write_text("a,b,y\n1,2,0\n3,4,1\n")
    ds = load_file(ok)
    assert ds.n == 2 and ds.X.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    quoted = tmp_path / "q.csv"
    quoted.write_text('"f 1","f,2",label\n1,2,0\n3,4,1\n')  # quoted header fields with a comma
    assert load_file(quoted).d == 2


def test_csv_ragged_missing_and_inf(tmp_path):
    p = tmp_path / "ragged.csv"
    p.write_text("1,2,0\n3,4\n5,6,1\n")
    _err(p, r"line 2: 2 fields where the first row has 3")
    q = tmp_path / "missing.csv"
    q.write_text("a,b,y\n1,,0\n3,4,1\n")
    _err(q, r"line 2, column 2 \('b'\): the field is empty \(missing value\)")
    r = tmp_path / "inf.csv"
    r.write_text("1,inf,0\n3,4,1\n")
    _err(r, r"line 1, column 2: the field 'inf' is not a finite number")
    e = tmp_path / "onlyheader.csv"
    e.write_text("a,b,y\n\n")
    _err(e, r"is empty \(no data rows after the header\)")


def test_non_utf8_and_binary_files(tmp_path):
    p = tmp_path / "latin1.csv"
    p.write_bytes("a,b,y\n1,2,0\n3,4,1\n5,6,0 \xe9\n".encode("latin-1"))
    _err(p, r"is not UTF-8 text: byte 0xe9 on line 4")
    q = tmp_path / "bin.svm"
    q.write_bytes(b"1 1:2\n\x00\x01\x02")
    _err(q, r"is binary, not text \(NUL byte on line 2\)")


def test_gzip_bz2_xz_are_read_and_corrupt_streams_refused(tmp_path):
    import bz2
    import gzip
    import lzma

    body = "a,b,y\n1,2,0\n3,4,1\n5,6,0\n"
    for suffix, comp in ((".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)):
        p = tmp_path / f"d.csv{suffix}"
        p.write_bytes(comp(body.encode()))
        ds = load_file(p)  # was: an internal UnicodeDecodeError/ParserError from pandas
        assert (ds.n, ds.d) == (3, 2)
    s = tmp_path / "d.svm.gz"
    s.write_bytes(gzip.compress(b"1 1:2\n-1 2:3\n"))
    assert load_file(s).d == 2
    t = tmp_path / "trunc.csv.gz"
    t.write_bytes(gzip.compress(body.encode())[:-12])
    _err(t, r"is a truncated or corrupt gzip stream")
    fake = tmp_path / "fake.csv.gz"
    fake.write_text(body)
    _err(fake, r"has a compressed-file suffix but does not start with the gz magic bytes")
    z = tmp_path / "d.zip"
    z.write_bytes(b"PK\x03\x04rest")
    _err(z, r"is an archive; rpcheck reads single data files")


def test_truncated_and_corrupt_npz(tmp_path):
    good = tmp_path / "g.npz"
    np.savez(good, X=np.arange(12.0).reshape(6, 2), y=np.array([0, 1] * 3))
    data = good.read_bytes()
    for cut in (len(data) // 2, len(data) - 30, 10):
        p = tmp_path / f"t{cut}.npz"
        p.write_bytes(data[:cut])
        _err(p, r"is not a readable \.npz archive \(truncated or corrupt\)")  # was: BadZipFile/EOFError
    junk = tmp_path / "junk.npz"
    junk.write_text("hello")
    _err(junk, r"is not a readable \.npz archive")
    three = tmp_path / "three.npz"
    np.savez(three, X=np.ones((2, 2, 2)), y=np.ones(2))
    _err(three, r"array 'X' .* has shape \(2, 2, 2\); it must be 2-dimensional")


def test_npz_too_large_is_refused_from_its_header(tmp_path):
    """A dense X above DENSE_MAX_ENTRIES is refused from the .npy header alone (nothing is allocated)."""
    import io
    import zipfile

    from rpcheck.datasets import DENSE_MAX_ENTRIES

    hdr = io.BytesIO()
    np.lib.format.write_array_header_1_0(hdr, {"descr": "<f8", "fortran_order": False, "shape": (2_250, 492_516)})
    yb = io.BytesIO()
    np.save(yb, np.ones(2_250))
    p = tmp_path / "hapmap.npz"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("X.npy", hdr.getvalue())  # magic + header, no data
        zf.writestr("y.npy", yb.getvalue())
    assert 2_250 * 492_516 > DENSE_MAX_ENTRIES
    _err(p, r"has shape \(2250, 492516\) = 1,108,161,000 entries, above DENSE_MAX_ENTRIES")


def test_path_of_wrong_type_names_path():
    for bad in (3, None, ["a.svm"], True):
        with pytest.raises(RpcheckError, match=r"`path` \(.*\) must be a str or os.PathLike"):
            load_file(bad)


def test_svmlight_empty_and_comment_only_files(tmp_path):
    e = tmp_path / "empty.svm"
    e.write_text("")
    _err(e, r"holds no data lines")
    c = tmp_path / "comments.svm"
    c.write_text("# only a comment\n\n   \n")
    _err(c, r"holds no data lines")
    nolabel = tmp_path / "nolabel.svm"
    nolabel.write_text("1:2 3:4\n")
    _err(nolabel, r"line 1: the line has no label")


@pytest.mark.parametrize(
    "body, match",
    [
        ("1 1:1 1:2\n-1 2:1\n", r"line 1: feature index 1 appears twice"),
        ("1 3:1 2:2\n-1 2:1\n", r"line 1: feature indices are not increasing: 2 after 3"),
        ("1 1:1\n-1 -2:1\n", r"line 2: field 2 \('-2:1'\) has a negative feature index -2"),
        ("1 1:inf\n-1 2:1\n", r"line 1: field 2 \('1:inf'\) has a non-finite value"),
        ("1 1:nan\n-1 2:1\n", r"line 1: field 2 \('1:nan'\) has a non-finite value"),
        ("1 1:x\n-1 2:1\n", r"value 'x' that is not a number"),
        ("1 a:1\n-1 2:1\n", r"feature index 'a' that is not a non-negative integer"),
        ("1 1:1 qid:3\n-1 2:1\n", r"a qid field must come right after the label"),
        ("1 qid:x 1:1\n-1 2:1\n", r"qid field 'qid:x' must be"),
        ("1 1:1 2\n-1 2:1\n", r"field 3 \('2'\) is not an index:value pair"),
        ("1 1:1\n-1 1000000000000:1\n", r"line 2: feature index 1000000000000 .* exceeds the width allowed"),
        ("1,x 1:1\n-1 2:1\n", r"label 'x' of the multi-label field '1,x'"),
    ],
)
def test_svmlight_bad_lines(tmp_path, body, match):
    p = tmp_path / "bad.svm"
    p.write_text(body)
    _err(p, match)


def test_svmlight_index_base_rule(tmp_path):
    one = tmp_path / "one.svm"
    one.write_text("1 1:1 3:2\n-1 2:5\n")
    ds = load_file(one)  # no index 0 -> 1-based
    assert ds.d == 3 and ds.X.toarray().tolist() == [[1, 0, 2], [0, 5, 0]]
    assert "1-based" in ds.description
    zero = tmp_path / "zero.svm"
    zero.write_text("1 0:1 2:2\n-1 1:5\n")
    ds0 = load_file(zero)  # an index 0 -> 0-based
    assert ds0.d == 3 and ds0.X.toarray().tolist() == [[1, 0, 2], [0, 5, 0]]
    assert "0-based" in ds0.description
    _err(zero, r"line 1: feature index 0 \(field 2\) in a file read with zero_based=False", zero_based=False)
    forced = load_file(one, zero_based=True)
    assert forced.d == 4 and forced.X.toarray()[0].tolist() == [0, 1, 0, 2]
    _err(one, r"`zero_based` \('yes'\) must be one of 'auto', True, False", zero_based="yes")
    _err(one, r"feature index 3 \(field 3\) does not fit n_features=2", n_features=2)
    _err(one, r"feature index 3 \(field 3\) exceeds the width allowed by max_features=2", max_features=2)


def test_svmlight_comments_qid_and_multilabel(tmp_path):
    p = tmp_path / "q.svm"
    p.write_text("# a header comment\n1 qid:1 1:0.5 2:1 # trailing\n\n-1 qid:2 2:0.25\n1 qid:2 3:1\n")
    ds = load_file(p)
    assert (ds.n, ds.d) == (3, 3) and ds.y.tolist() == [1, -1, 1]
    assert "qid fields ignored" in ds.description
    m = tmp_path / "ml.svm"
    m.write_text("1,3 1:0.5\n2 2:1\n3 1:1 3:1\n1,2 2:2\n")
    _err(m, r"is a multi-label file .*pass `positive=<label>`.*Labels present: \[1, 2, 3\]")
    ds3 = load_file(m, positive=3)
    assert ds3.y.tolist() == [1, -1, 1, -1]
    assert ds3.y_raw.tolist() == [(1, 3), (2,), (3,), (1, 2)]
    _err(m, r"`positive` \(7\) is carried by no row", positive=7)
    _err(m, r"only `task='classification'`", positive=3, task="regression")


def test_classification_labels_must_be_integers(tmp_path):
    p = tmp_path / "frac.svm"
    p.write_text("0.5 1:1\n1 1:2\n0.5 2:1\n")
    _err(p, r"must be integer-valued .*found 0\.5 at line 1.*task='regression'")
    reg = load_file(p, task="regression")
    assert reg.y.tolist() == [0.5, 1.0, 0.5]


def test_dataset_constructor_validates_labels():
    X = np.eye(3)
    with pytest.raises(RpcheckError, match=r"must take both values -1 and \+1 and no other; found \[0\.0, 1\.0\]"):
        Dataset(X=X, y=np.array([0.0, 1.0, 1.0]), name="x", task="classification")
    with pytest.raises(RpcheckError, match="must hold finite numbers"):
        Dataset(X=X, y=np.array([0.0, np.nan, 1.0]), name="x", task="regression")


def test_zero_based_index_at_n_features_is_refused(tmp_path):
    p = tmp_path / "z.svm"
    p.write_text("1 0:1 2:1\n-1 1:1\n")
    _err(p, r"line 1: feature index 2 does not fit n_features=2 \(0-based\)", n_features=2)
    assert load_file(p, n_features=3).d == 3


# ---------------------------------------------------------------------------------------------------------
# named sets of the papers, expect=, TechTC
# ---------------------------------------------------------------------------------------------------------
def test_known_datasets_registry():
    from rpcheck.datasets import known_datasets

    ks = {k.name: k for k in known_datasets()}
    assert {
        "techtc300",
        "rcv1-binary",
        "news20-binary",
        "real-sim",
        "hapmap-hgdp",
        "mushrooms",
        "usps-b",
        "gisette",
    } <= set(ks)
    r = ks["rcv1-binary"]
    assert r.width() == 47_236 and (20_242, 20_242) in r.n and r.density == ((0.00155, 0.00165),)
    assert "Paul et al. 2014, Sec. 4.1.4" in r.source and "Table 3" in r.source
    assert ks["techtc300"].width() is None and ks["news20-binary"].width() == 1_355_191
    row = ks["rcv1-binary"].as_dict()
    assert row["n"] == "20,242 or 20,000 or 13,562 or 6,680" and row["density"] == "0.155%..0.165%"
    for k in known_datasets():
        assert "spec" not in k.source and ("Paul et al. 2014" in k.source or "Lei & Lan 2020" in k.source)


def _write_rows(path, rows, labels):
    path.write_text("".join(f"{lab} " + " ".join(f"{j}:{v}" for j, v in row) + "\n" for row, lab in zip(rows, labels)))


def test_expect_checks_the_stated_shape(tmp_path):
    rng = np.random.default_rng(0)
    # an nci60-shaped regression file: 60 x 1,375 dense, 10 class ids as targets (Paul et al. 2014, Sec. 4.3)
    X = rng.standard_normal((60, 1375))
    p = tmp_path / "nci60.npz"
    np.savez(p, X=X, y=np.arange(60) % 10)
    ds = load_file(p, expect="nci60")
    assert ds.task == "regression" and "shape checked against 'nci60'" in ds.description
    _err(
        p,
        r"does not have the shape of 'yalefaces' .*n = 60 rows \(expected 165\); d = 1,375 columns "
        r"\(expected 4,096\); 10 distinct labels \(expected 15\)",
        expect="yalefaces",
    )
    _err(p, r"`expect` \('rcv2'\) must be one of 'techtc300', 'rcv1-binary'", expect="rcv2")
    # svmlight: the width is set from the registry (a file whose largest index is below 47,236)
    q = tmp_path / "rcv1_small"
    _write_rows(q, [[(1, 0.5)], [(47_236, 1.0)]], [1, -1])
    _err(
        q,
        r"n = 2 rows \(expected 20,242 or 20,000 or 13,562 or 6,680\); "
        r"density 0\.002117% \(expected 0\.155%\.\.0\.165%\)",
        expect="rcv1-binary",
    )  # no d mismatch: the width came from the registry
    wide = tmp_path / "rcv1_wide"
    _write_rows(wide, [[(1, 0.5)], [(47_237, 1.0)]], [1, -1])
    _err(wide, r"line 2: feature index 47237 \(field 2\) does not fit n_features=47236", expect="rcv1-binary")


def test_expect_hapmap_values(tmp_path):
    from rpcheck.datasets import KnownDataset, _shape_problems

    spec = KnownDataset("g", "test", n=((3, 3),), d=((2, 2),), classes=((2, 2),), values=((-1.0, 0.0, 1.0),))
    assert _shape_problems(spec, np.array([[1.0, 0.0], [-1.0, 1.0], [0.0, 0.0]]), np.array([0, 1, 1])) == []
    probs = _shape_problems(spec, np.array([[2.0, 0.0], [-1.0, 1.0], [0.0, 0.0]]), np.array([0, 1, 1]))
    assert probs and probs[0].startswith("values [-1.0, 0.0, 1.0, 2.0]")


def _techtc_dir(root, name, n_pos, n_neg, width, rng, comment_lines=True):
    folder = root / name
    folder.mkdir()
    lines = ["# TechTC-style vectors.dat written by the test\n"]
    for i in range(n_pos + n_neg):
        lab = 1 if i < n_pos else -1
        cols = np.sort(rng.choice(np.arange(1, width + 1), size=30, replace=False))
        if comment_lines:
            lines.append(f"# document {i}\n")
        lines.append(f"{lab} " + " ".join(f"{c}:{int(rng.integers(1, 5))}" for c in cols) + "\n")
    (folder / "vectors.dat").write_text("".join(lines))
    (folder / "features.idx").write_text("# header\n# words\n" + "".join(f"{j} w{j}\n" for j in range(1, width + 1)))
    return folder


def test_load_techtc_pair_and_collection(tmp_path):
    from rpcheck.datasets import iter_techtc, load_techtc

    rng = np.random.default_rng(0)
    a = _techtc_dir(tmp_path, "Exp_1092_1110", 80, 75, 12_000, rng)
    ds = load_techtc(a)
    assert ds.name == "Exp_1092_1110" and (ds.n, ds.d) == (155, 12_000)  # width from features.idx
    assert int(np.sum(ds.y > 0)) == 80 and sp.issparse(ds.X) and ds.X.nnz == 155 * 30
    assert load_techtc(a / "vectors.dat").d == 12_000
    _techtc_dir(tmp_path, "Exp_2_3", 60, 40, 9_000, rng)  # 100 x 9,000: outside the stated sizes
    with pytest.raises(
        RpcheckError,
        match=r"does not have the shape of 'techtc300' .*n = 100 rows \(expected "
        r"150\.\.280\); d = 9,000 columns \(expected 10,000\.\.40,000\)",
    ):
        list(iter_techtc(tmp_path))
    got = [d.name for d in iter_techtc(tmp_path, check_shape=False)]
    assert got == ["Exp_1092_1110", "Exp_2_3"]
    bad = tmp_path / "Exp_9_9"
    bad.mkdir()
    (bad / "vectors.dat").write_text("2 1:1\n-1 2:1\n")
    with pytest.raises(RpcheckError, match=r"line 1: TechTC labels are \+1 or -1; found 2"):
        load_techtc(bad, check_shape=False)
    (bad / "vectors.dat").write_text("1 0:1\n-1 2:1\n")
    with pytest.raises(RpcheckError, match=r"feature index 0 .* zero_based=False"):
        load_techtc(bad, check_shape=False)
    with pytest.raises(RpcheckError, match=r"`path` \(.*empty.*\) is not an existing file"):
        (tmp_path / "empty").mkdir()
        load_techtc(tmp_path / "empty")


def _random_svmlight(path, *, rng, n=60, d=40, base=1, crlf=False, comments=False):
    """A random svmlight file and the (X, y) it encodes (explicit zeros and empty rows included)."""
    X = sp.random(n, d, density=0.1, random_state=rng, format="csr")
    X.data = np.round(X.data * 20 - 10, 3)
    X.data[::7] = 0.0  # explicit zeros stay stored, as written
    y = rng.choice([-1.0, 1.0], size=n)
    y[:2] = [-1.0, 1.0]
    lines = []
    for i in range(n):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        feats = " ".join(f"{j + base}:{float(v)!r}" for j, v in zip(X.indices[lo:hi], X.data[lo:hi]))
        lines.append(f"{int(y[i])} {feats}" + (" # row" if comments and i % 5 == 0 else ""))
        if comments and i % 9 == 0:
            lines.append("# a comment line")
            lines.append("   ")
    path.write_text(("\r\n" if crlf else "\n").join(lines) + "\n")
    return X, y


@pytest.mark.parametrize("base, crlf, comments", [(1, False, False), (0, False, True), (1, True, True)])
def test_sklearn_reader_equals_the_parser(tmp_path, monkeypatch, base, crlf, comments):
    """The scikit-learn path gives exactly the line-by-line parser's matrix, labels and notes (the oracle)."""
    import rpcheck.datasets.readers as dm  # the module that calls the svmlight readers

    rng = np.random.default_rng(5 + base)
    p = tmp_path / "r.svm"
    X, y = _random_svmlight(p, rng=rng, base=base, crlf=crlf, comments=comments)
    width = X.shape[1] + 3
    kw = dict(zero_based=bool(base == 0), n_features=width, max_features=dm.MAX_FEATURES)
    assert dm._sklearn_svmlight(p.read_bytes(), **kw) is not None  # this file takes the fast path
    fast = load_file(p, n_features=width, zero_based=bool(base == 0))
    calls = []
    real = dm._parse_svmlight
    monkeypatch.setattr(dm, "_sklearn_svmlight", lambda *a, **k: calls.append(1))  # force the parser
    slow = load_file(p, n_features=width, zero_based=bool(base == 0))
    assert calls and real is dm._parse_svmlight
    for ds in (fast, slow):
        assert ds.X.shape == (X.shape[0], width)
    assert (fast.X != slow.X).nnz == 0 and fast.X.nnz == slow.X.nnz == X.nnz
    assert np.array_equal(fast.X.indices, slow.X.indices) and np.array_equal(fast.X.indptr, slow.X.indptr)
    assert fast.X.indices.dtype == slow.X.indices.dtype
    assert np.array_equal(fast.y, y) and np.array_equal(fast.y, slow.y)
    assert fast.description == slow.description


def test_sklearn_reader_is_used_for_clean_files(tmp_path, monkeypatch):
    import rpcheck.datasets.readers as dm  # the module that calls the svmlight readers

    p = tmp_path / "c.svm"
    _random_svmlight(p, rng=np.random.default_rng(1))

    def boom(*a, **k):
        raise AssertionError("the line-by-line parser ran on a clean file")

    monkeypatch.setattr(dm, "_parse_svmlight", boom)
    assert load_file(p).n == 60


@pytest.mark.parametrize(
    "body, match",
    [
        ("1 +2:1\n-1 2:1\n", r"line 1: field 2 \('\+2:1'\) has a feature index '\+2'"),
        ("1 1:1_0\n-1 2:1\n", r"line 1: field 2 \('1:1_0'\) has a value '1_0' that is not a number"),
        ("1_0 1:1\n-1 2:1\n", r"line 1: label '1_0' is not a number"),
    ],
)
def test_details_the_sklearn_reader_accepts_are_still_refused(tmp_path, body, match):
    """Python's int()/float() accept '+2' and '1_0'; the LIBSVM format (and rpcheck) does not."""
    p = tmp_path / "d.svm"
    p.write_text(body)
    _err(p, match)


def test_label_errors_after_the_sklearn_reader_name_the_line(tmp_path):
    p = tmp_path / "frac.svm"
    p.write_text("# header\n1 1:1\n\n0.5 2:1\n-1 1:2\n")
    _err(p, r"found 0.5 at line 4")
    t = tmp_path / "Exp_1_2"
    t.mkdir()
    (t / "vectors.dat").write_text("1 1:1\n# c\n2 2:1\n")
    from rpcheck.datasets import load_techtc

    with pytest.raises(RpcheckError, match=r"line 3: TechTC labels are \+1 or -1; found 2"):
        load_techtc(t, check_shape=False)


def test_signed_index_after_any_whitespace_is_refused(tmp_path):
    for sep in (" ", "\t", "\x0b", "\x0c"):
        p = tmp_path / "s.svm"
        p.write_text(f"1 1:1{sep}+2:1\n-1 2:1\n")
        _err(p, r"line 1: field 3 \('\+2:1'\) has a feature index '\+2'")
    ok = tmp_path / "ok.svm"
    ok.write_text("+1 1:1e+05\n -1 2:1\n")  # signed labels and exponents are fine
    assert load_file(ok).y.tolist() == [1, -1]


def test_errors_without_a_line_do_not_parse_the_file_again(tmp_path, monkeypatch):
    import rpcheck.datasets.readers as dm  # the module that calls the svmlight readers

    p = tmp_path / "three.svm"
    p.write_text("1 1:1\n2 2:1\n3 1:2\n")

    def boom(*a, **k):
        raise AssertionError("parsed again for a message that names no line")

    monkeypatch.setattr(dm, "_parse_svmlight", boom)
    _err(p, r"take 3 distinct values")
