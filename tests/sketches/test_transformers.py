"""scikit-learn compatibility of rpcheck.sketches.transformers (check_estimator) and agreement with the
underlying sketches."""

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import check_estimator, parametrize_with_checks

from rpcheck.sketches.transformers import (
    CountSketchRandomProjection,
    CWRandomProjection,
    NPSRandomProjection,
    SRHTRandomProjection,
    SupervisedSRHTRandomProjection,
    TopRRandomProjection,
)

ESTIMATORS = [
    SRHTRandomProjection(2, random_state=0),
    SRHTRandomProjection(2, replace=False, random_state=0),
    CountSketchRandomProjection(2, random_state=0),
    CWRandomProjection(2, random_state=0),
    NPSRandomProjection(2, random_state=0),
    TopRRandomProjection(2, random_state=0),
    SupervisedSRHTRandomProjection(2, random_state=0),
    SupervisedSRHTRandomProjection(2, rule="largest", a=0.5, random_state=0),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.skipif(
    tuple(int(v) for v in sklearn.__version__.split(".")[:2]) < (1, 6),
    reason="check_estimator(on_fail=None), which returns the per-check results, needs scikit-learn >= 1.6",
)
def test_cw_with_several_nonzeros_per_row():
    """CW needs n_components = q v a. Several sklearn checks force n_components=1, impossible for q a = 4:
    exactly those checks fail, with our divisibility message; every other check passes."""
    results = check_estimator(CWRandomProjection(4, q=2, a=2, random_state=0), on_fail=None)
    failed = [r for r in results if r["status"] == "failed"]
    assert len(results) > 40
    for r in failed:
        assert "must be divisible by q*a = 2*2 = 4" in str(r["exception"]), r["check_name"]
    assert {r["check_name"] for r in failed} <= {
        "check_dont_overwrite_parameters", "check_methods_sample_order_invariance",
        "check_methods_subset_invariance", "check_fit2d_1sample", "check_fit2d_1feature",
        "check_fit2d_predict1d",
    }


@pytest.mark.parametrize("est", ESTIMATORS + [CWRandomProjection(8, q=2, a=2)], ids=lambda e: repr(e))
def test_transform_equals_x_components_t(est):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 40))
    y = np.where(rng.random(30) < 0.5, -1, 1)
    est = est.set_params(n_components=8, random_state=3)
    Xt = est.fit(X, y).transform(X)
    C = est.components_
    C = C.toarray() if sp.issparse(C) else C
    assert C.shape == (8, 40) and est.n_components_ == 8
    np.testing.assert_allclose(Xt, X @ C.T, rtol=0, atol=1e-12 * np.abs(X).sum(1).max())
    # random_state reproducibility, and agreement with fit_transform
    np.testing.assert_array_equal(est.fit_transform(X, y), Xt)
    Xs = est.transform(sp.csr_matrix(X))
    Xs = Xs.toarray() if sp.issparse(Xs) else Xs
    np.testing.assert_allclose(Xs, Xt, rtol=0, atol=1e-12 * np.abs(X).sum(1).max())


def test_auto_n_components_and_errors():
    X = np.random.default_rng(0).standard_normal((10, 5000))
    est = SRHTRandomProjection(eps=0.5, random_state=0).fit(X)
    from sklearn.random_projection import johnson_lindenstrauss_min_dim

    assert est.n_components_ == johnson_lindenstrauss_min_dim(10, eps=0.5)
    with pytest.raises(ValueError, match="larger than the original space with n_features=50"):
        SRHTRandomProjection(eps=0.1).fit(X[:, :50])
    cw = CWRandomProjection(eps=0.5, q=3, a=2, random_state=0).fit(X)
    assert cw.n_components_ % 6 == 0 and cw.n_components_ >= johnson_lindenstrauss_min_dim(10, eps=0.5)
    with pytest.raises(NotFittedError):
        _ = SRHTRandomProjection(4).components_
    with pytest.raises(ValueError, match="requires y to be passed"):
        SupervisedSRHTRandomProjection(4).fit(X, None)


SELECTING = [
    lambda k: TopRRandomProjection(k, random_state=0),
    lambda k: SupervisedSRHTRandomProjection(k, random_state=0),
    lambda k: SRHTRandomProjection(k, replace=False, random_state=0),
]


@pytest.mark.skipif(
    tuple(int(v) for v in sklearn.__version__.split(".")[:2]) < (1, 6),
    reason="check_estimator(on_fail=None) needs scikit-learn >= 1.6",
)
@pytest.mark.parametrize("n_components", [2, 3, 5])
@pytest.mark.parametrize("make", SELECTING + [
    lambda k: SRHTRandomProjection(k, random_state=0),
    lambda k: CountSketchRandomProjection(k, random_state=0),
    lambda k: NPSRandomProjection(k, random_state=0),
    lambda k: CWRandomProjection(k, random_state=0),
], ids=["topr", "supervised", "srht-noreplace", "srht", "countsketch", "nps", "cw"])
def test_check_estimator_with_more_components_than_features(make, n_components):
    """sklearn's checks fit on data with 1-2 features. The selecting variants (at most d' = 2**ceil(log2
    n_features) distinct columns exist) follow sklearn's FastICA convention: warn "n_components is too
    large" and use d'. Before, n_components >= 3 failed 6 checks with "`r` (3) must be <= ...". """
    results = check_estimator(make(n_components), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])) for r in results if r["status"] == "failed"]
    assert not failed and len(results) > 40


@pytest.mark.parametrize("make", SELECTING, ids=["topr", "supervised", "srht-noreplace"])
def test_n_components_clipped_to_padded_dimension(make):
    X = np.random.default_rng(0).standard_normal((12, 5))
    y = np.where(np.arange(12) % 2, 1, -1)
    with pytest.warns(Warning, match=r"n_components is too large: it will be set to 8\..*n_features=5 "
                                     r"\(n_components=9\)"):
        est = make(9).fit(X, y)
    assert est.n_components_ == 8 and est.transform(X).shape == (12, 8)
    assert est.get_feature_names_out().shape == (8,)


def test_messages_name_n_components_not_r():
    X = np.random.default_rng(0).standard_normal((6, 10))
    with pytest.raises(ValueError, match=r"`n_components` \(5\) must be divisible by q\*a = 2\*1 = 2"):
        CWRandomProjection(5, q=2).fit(X)
