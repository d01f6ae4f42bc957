"""Tests of rpcheck.compare: the Table 2 protocol runner on a user svmlight file and the bundled data."""

import numpy as np
import pandas as pd
import pytest

from rpcheck import compare as cmp
from rpcheck.datasets import load_bundled, load_file
from rpcheck.errors import RpcheckError

SMALL_GRID = (0.25, 4.0)


def _write_svmlight(path, n=80, d=12, seed=0):
    """A separable-ish two-class problem with LIBSVM labels {1, 2} (like mushrooms)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[rng.random((n, d)) < 0.4] = 0.0
    w = rng.standard_normal(d)
    y = np.where(X @ w > 0, 2, 1)
    lines = []
    for xi, yi in zip(X, y):
        feats = " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(xi) if v != 0)
        lines.append(f"{yi} {feats}\n")
    path.write_text("".join(lines))
    return X, y


def test_compare_on_user_svmlight_file(tmp_path):
    p = tmp_path / "mushrooms"  # named like a Table 2 data set: the paper's numbers appear beside ours
    _write_svmlight(p)
    summary, raw = cmp.compare(p, r=4, repetitions=3, cv_folds=2, C_grid=SMALL_GRID, rng=0, return_raw=True)
    assert set(summary["method"]) == set(cmp.METHODS)
    assert len(raw) == 3 * len(cmp.METHODS)
    assert summary["acc_mean"].between(0, 100).all()
    assert (summary["reps"] == 3).all()
    assert summary.loc[summary["method"] == "all", "r"].item() == 12
    assert set(raw["C"]) <= set(SMALL_GRID)
    row = summary[summary["method"] == "srht-topr"].iloc[0]
    assert row["paper_mean"] == 94.23 and row["paper_std"] == 1.58
    # Welch test recomputed from the raw accuracies
    a = raw[raw["method"] == "srht-topr"]["accuracy"].to_numpy()
    b = raw[raw["method"] == "srht"]["accuracy"].to_numpy()
    if a.std() > 0 or b.std() > 0:
        import scipy.stats

        assert row["welch_p"] == pytest.approx(scipy.stats.ttest_ind(a, b, equal_var=False).pvalue)
    claims = summary.attrs["claims"]
    assert set(claims["claim"]) >= {17, 18, 19, 20, 21, 22, 23}
    assert claims["supported"].isin([True, False, None]).all()


def test_seed_reproducible_and_sparse_input(tmp_path):
    p = tmp_path / "x.svm"
    _write_svmlight(p, n=60, d=10, seed=1)
    ds = load_file(p)
    kw = dict(r=[2, 4], methods=("srht", "srht-nps", "countsketch"), repetitions=2, cv_folds=2, C_grid=SMALL_GRID)
    s1 = cmp.compare(ds, rng=3, **kw)
    s2 = cmp.compare(ds, rng=3, **kw)
    pd.testing.assert_frame_equal(s1.drop(columns="time_mean"), s2.drop(columns="time_mean"))
    assert sorted(set(s1["r"])) == [2, 4]


def test_bundled_breast_cancer_and_digits():
    for name, r in (("breast_cancer", 4), ("digits", 8)):
        ds = load_bundled(name)
        s = cmp.compare(
            ds,
            r=r,
            methods=("all", "srht", "srht-topr", "srht-supervised"),
            repetitions=2,
            cv_folds=2,
            C_grid=(1.0,),
            rng=0,
        )
        allf = s.loc[s["method"] == "all", "acc_mean"].item()
        assert allf > 85.0  # both are easy for a linear SVM on all features (sklearn docs: > 90%)


def test_no_leakage_selection_fitted_inside_folds(monkeypatch):
    """Every data-dependent fit sees only training rows of the current split (never a test row)."""
    ds = load_bundled("breast_cancer")
    seen = []
    orig = cmp._Projector.fit

    def spy(self, X, y):
        seen.append((self.method, X.shape[0]))
        return orig(self, X, y)

    monkeypatch.setattr(cmp._Projector, "fit", spy)
    rows = cmp.run_repetition(ds, r=4, methods=("srht-supervised",), C_grid=(1.0,), cv_folds=3, rng=0)
    n_train = rows[0]["n_train"]
    sizes = [s for m, s in seen]
    assert len(sizes) == 4  # 3 CV fits + 1 final fit
    assert max(sizes) == n_train and all(s < n_train for s in sizes[:3])
    assert n_train + rows[0]["n_test"] == ds.n


def test_certified_solver_path_matches_libsvm():
    ds = load_bundled("breast_cancer")
    kw = dict(r=4, methods=("srht-topr",), C_grid=(1.0,), cv_folds=2, rng=5)
    a = cmp.run_repetition(ds, solver="libsvm", **kw)[0]["accuracy"]
    b = cmp.run_repetition(ds, solver="certified", **kw)[0]["accuracy"]
    assert cmp.run_repetition(ds, solver="cvxpy", **kw)[0]["accuracy"] == b  # the older name
    assert cmp.run_repetition(ds, **kw)[0]["accuracy"] == b  # the default
    with pytest.raises(RpcheckError, match="solver"):
        cmp.run_repetition(ds, solver="liblinear", **kw)
    # same split, same projection, same problem (eq. 3); LIBSVM stops at KKT tol 1e-3 -> at most a few
    # borderline test points can differ
    assert abs(a - b) <= 100.0 * 3 / 171


def test_stability_fraction():
    st = cmp.stability("breast_cancer", r_values=(4, 8), C_grid=(0.5, 8.0), repetitions=2, rng=0)
    assert set(st["method"]) == {"srht-nps", "srht-topr"}
    assert len(st) == 2 * 2 * 2
    for m, f in st.attrs["fraction"].items():
        assert f == pytest.approx(st[st["method"] == m]["ge_srht"].mean())


def test_assess_claims_on_paper_table2():
    """Feeding the paper's own Table 2 (mushrooms) reproduces the spec's reading of claims 20 and 22."""
    t = cmp.PAPER_TABLE2["mushrooms"]
    rows = []
    for m in cmp.METHODS:
        if m not in t:
            continue
        mean, std, tm = t[m]
        rows.append(
            {
                "r": 112 if m == "all" else 16,
                "method": m,
                "acc_mean": mean,
                "acc_std": std or 0.0,
                "time_mean": tm,
                "reps": 15,
            }
        )
    claims = cmp.assess_claims(pd.DataFrame(rows))
    get = lambda k, s: claims[(claims["claim"] == k) & claims["sentence"].str.startswith(s)]["supported"].item()  # noqa: E731
    assert get(20, "top-r obtains") is False  # 94.23 < 94.30 (Lei & Lan 2020, Table 2)
    assert get(22, "PCA is better") is False  # supervised 96.25 > PCA 96.23 (Lei & Lan 2020, Table 2)
    assert get(22, "All features") is True
    assert get(21, "ISRHT-supervised") is True


def test_bad_input():
    with pytest.raises(RpcheckError, match="regression task"):
        cmp.compare("diabetes", r=4)
    with pytest.raises(RpcheckError, match=r"`methods` \('lasso'\)"):
        cmp.compare("breast_cancer", r=4, methods=("srht", "lasso"))
    with pytest.raises(RpcheckError, match="`baseline`"):
        cmp.compare("breast_cancer", r=4, methods=("srht-topr",))
    with pytest.raises(RpcheckError, match="`C_grid`"):
        cmp.compare("breast_cancer", r=4, C_grid=(0.0,))
    with pytest.raises(RpcheckError, match="`solver`"):
        cmp.compare("breast_cancer", r=4, solver="liblinear")
    assert cmp.paper_key("/data/gisette_scale.bz2") == "gisette"
    assert cmp.paper_key("rcv1_train.binary") == "rcv1-binary"
    assert cmp.paper_key("breast_cancer") is None


def test_dlss_methods_select_top_leverage_features():
    import rpcheck.compare as cmp

    assert cmp.dlss_rank("dlss-r/4", 8, 100, 30) == 2
    assert cmp.dlss_rank("dlss-r/2", 8, 100, 30) == 4
    assert cmp.dlss_rank("dlss-r", 8, 5, 30) == 5  # capped at min(n, d)
    rows = cmp.run_repetition("breast_cancer", r=4, methods=("srht", *cmp.DLSS_METHODS), C_grid=(1.0,),
                              cv_folds=2, rng=0)
    assert {x["method"] for x in rows} == {"srht", *cmp.DLSS_METHODS}
    assert all(50.0 <= x["accuracy"] <= 100.0 for x in rows)
    with pytest.raises(Exception, match="methods"):
        cmp.run_repetition("breast_cancer", r=4, methods=("dlss",), C_grid=(1.0,), cv_folds=2, rng=0)


def test_kernels_warmed_for_the_data_dtype_only(monkeypatch):
    """run_repetition warms the numba kernels (outside its timed region) for the data's dtype: float64 for
    every loaded Dataset, float32 for a Dataset built on float32 features; the CSR kernels only for sparse
    data; once per (dtype, sparsity) and process."""
    import scipy.sparse as sp

    import rpcheck.sketches as sk
    from rpcheck.datasets import Dataset

    calls = []
    monkeypatch.setattr(sk, "warmup_kernels", lambda **kw: calls.append((kw["dtypes"], kw["sparse"])) or 0)
    monkeypatch.setattr(cmp.protocol, "_WARM", set())  # the warm-up state of run_repetition
    ds = load_bundled("breast_cancer")
    csr = Dataset(sp.csr_matrix(ds.X), ds.y, "bc-csr", "classification")
    for data in (ds, ds, Dataset(ds.X.astype(np.float32), ds.y, "bc32", "classification"), csr, csr, ds):
        cmp.run_repetition(data, r=4, methods=("gaussian",), cv_folds=2, C_grid=SMALL_GRID, rng=0)
    assert calls == [(("float64",), False), (("float32",), False), (("float64",), True)]


def test_integer_features_warm_float64(monkeypatch):
    """Integer features are computed in float64 by the sketches (check_matrix), so float64 is what is warmed;
    an integer dtype is never handed to warmup_kernels (whose domain is float64/float32)."""
    import rpcheck.sketches as sk
    from rpcheck.datasets import Dataset

    calls = []
    monkeypatch.setattr(sk, "warmup_kernels", lambda **kw: calls.append(kw["dtypes"]) or 0)
    monkeypatch.setattr(cmp.protocol, "_WARM", set())  # the warm-up state of run_repetition
    ds = load_bundled("breast_cancer")
    Xi = np.arange(ds.X.size).reshape(ds.X.shape) % 7
    rows = cmp.run_repetition(Dataset(Xi, ds.y, "int", "classification"), r=4, methods=("gaussian",), cv_folds=2,
                              C_grid=SMALL_GRID, rng=0)
    assert calls == [("float64",)]
    assert len(rows) == 1
