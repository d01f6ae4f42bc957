"""Registry, reproducibility, and bad input for every kind."""

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import CASES, OBLIVIOUS, build, case_id, dense, is_data_dependent, labels

from rpcheck.errors import RpcheckError
from rpcheck.sketches import SKETCH_KINDS, Sketch, make_sketch


def test_registry_lists_every_kind():
    assert SKETCH_KINDS == (
        "gaussian", "sign", "sparse", "srht", "countsketch", "cw", "srht-nps", "srht-topr", "srht-supervised",
        "se-isrht",
    )


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_protocol_attributes(case):
    kind, params = case
    X = np.random.default_rng(0).standard_normal((10, 20))
    S = build(kind, params, 20, 8, rng=1, X=X)
    assert isinstance(S, Sketch) and S.kind == kind and (S.d, S.r) == (20, 8)
    assert isinstance(S.params, dict) and S.data_dependent == is_data_dependent(kind, params)
    assert kind in repr(S)
    assert S.fit(X, labels(10, 0)) is S


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_seed_same_matrix_and_output(case):
    kind, params = case
    X = np.random.default_rng(0).standard_normal((10, 20))
    A = build(kind, params, 20, 8, rng=42, X=X)
    B = build(kind, params, 20, 8, rng=np.random.default_rng(42), X=X)
    np.testing.assert_array_equal(dense(A.matrix()), dense(B.matrix()))
    np.testing.assert_array_equal(A.apply(X), B.apply(X))
    # refitting the same data gives the same selection (nps draws use a seed fixed at construction)
    if A.data_dependent:
        before = A.indices_.copy()
        A.fit(X, labels(10, 0))
        np.testing.assert_array_equal(A.indices_, before)
    # a different seed gives a different R (except deterministic selections that may coincide)
    C = build(kind, params, 20, 8, rng=43, X=X)
    assert not np.array_equal(dense(A.matrix()), dense(C.matrix()))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bad_input(case):
    kind, params = case
    X = np.random.default_rng(0).standard_normal((10, 20))
    S = build(kind, params, 20, 8, rng=1, X=X)
    bad = X.copy()
    bad[2, 3] = np.nan
    with pytest.raises(RpcheckError, match=r"`X` contains NaN or infinite entries \(first at index \(2, 3\)"):
        S.apply(bad)
    bad[2, 3] = np.inf
    with pytest.raises(RpcheckError, match="`X` contains NaN or infinite"):
        S.apply(sp.csr_matrix(bad))
    with pytest.raises(RpcheckError, match=r"`X` must be 2-dimensional; got an array of shape \(20,\)"):
        S.apply(X[0])
    with pytest.raises(RpcheckError, match=r"`X` has 19 columns but the sketch was built for d=20"):
        S.apply(X[:, :19])
    with pytest.raises(RpcheckError, match="must hold real numbers"):
        S.apply(X.astype(complex))
    for r in (0, -3):
        with pytest.raises(
            RpcheckError,
            match=rf"`r` \({r}\) must be an integer in the range \[1, 4611686018427387904\]",
        ):
            make_sketch(kind, 20, r, **params)
    with pytest.raises(RpcheckError, match=r"`r` \(2.5\) must be an integer in the range \[1, 4611686018427387904\]"):
        make_sketch(kind, 20, 2.5, **params)
    with pytest.raises(RpcheckError, match=r"`d` \(0\) must be an integer in the range \[1, 4611686018427387904\]"):
        make_sketch(kind, 0, 4, **params)


def test_unknown_kind_lists_known_ones():
    listed = ", ".join(repr(k) for k in SKETCH_KINDS)
    with pytest.raises(RpcheckError, match=r"`kind` \('fjlt'\) must be one of " + listed.replace("'", "'")):
        make_sketch("fjlt", 10, 4)


def test_unknown_and_bad_params():
    msg = r"unknown parameter\(s\) 'density' for sketch kind 'gaussian'; allowed: none"
    with pytest.raises(RpcheckError, match=msg):
        make_sketch("gaussian", 10, 4, density=0.1)
    with pytest.raises(RpcheckError, match=r"unknown parameter\(s\) 'b' .*allowed: 'q', 'v', 'a'"):
        make_sketch("cw", 10, 4, b=1)
    with pytest.raises(RpcheckError, match=r"`density` \('dense'\) must be 'achlioptas', 'li' or a float"):
        make_sketch("sparse", 10, 4, density="dense")
    with pytest.raises(RpcheckError, match=r"`density` \(0\) must be in the interval \(0, 1\]"):
        make_sketch("sparse", 10, 4, density=0)
    with pytest.raises(RpcheckError, match=r"`r` \(12\) must equal q\*v\*a = 2\*2\*2 = 8"):
        make_sketch("cw", 10, 12, q=2, v=2, a=2)
    with pytest.raises(RpcheckError, match=r"`r` \(10\) must be divisible by q\*a = 3\*1 = 3"):
        make_sketch("cw", 10, 10, q=3)
    with pytest.raises(RpcheckError, match=r"`replace` \('yes'\) must be one of True, False"):
        make_sketch("srht", 10, 4, replace="yes")
    with pytest.raises(RpcheckError, match=r"`rule` \('median'\) must be one of 'smallest', 'largest'"):
        make_sketch("srht-supervised", 10, 4, rule="median")
    with pytest.raises(RpcheckError, match=r"`a` \(-1\) must be in the interval \[0, inf\)"):
        make_sketch("srht-supervised", 10, 4, a=-1)
    with pytest.raises(RpcheckError, match="`rng` must be None, an int"):
        make_sketch("gaussian", 10, 4, rng="seed")


@pytest.mark.parametrize("kind", ["srht", "srht-topr", "srht-supervised"])
def test_r_larger_than_padded_d_without_replacement(kind):
    params = {"replace": False} if kind == "srht" else {}
    with pytest.raises(RpcheckError, match=r"`r` \(17\) must be <= the padded dimension d'=16 \(d=16\)"):
        make_sketch(kind, 16, 17, **params)
    with pytest.raises(RpcheckError, match=r"`r` \(9\) must be <= the padded dimension d'=8 \(d=5\)"):
        make_sketch(kind, 5, 9, **params)
    # with replacement (Paul et al.) and for nps, r > d' is legitimate
    if kind == "srht":
        assert make_sketch("srht", 16, 40, replace=True).r == 40
    assert make_sketch("srht-nps", 16, 40).r == 40


@pytest.mark.parametrize("kind", ["srht-nps", "srht-topr", "srht-supervised"])
def test_apply_before_fit(kind):
    S = make_sketch(kind, 10, 4, rng=0)
    with pytest.raises(RpcheckError, match=rf"sketch kind '{kind}' is data-dependent: call fit\(X\)"):
        S.apply(np.ones((3, 10)))
    with pytest.raises(RpcheckError, match="is data-dependent: call fit"):
        S.matrix()


def test_fit_errors():
    X = np.random.default_rng(0).standard_normal((6, 10))
    with pytest.raises(RpcheckError, match="`y` is required for kind 'srht-supervised'"):
        make_sketch("srht-supervised", 10, 4).fit(X)
    with pytest.raises(RpcheckError, match=r"`y` must be 1-dimensional; got shape \(6, 1\)"):
        make_sketch("srht-supervised", 10, 4).fit(X, np.ones((6, 1)))
    with pytest.raises(RpcheckError, match="`y` contains NaN or infinite labels"):
        make_sketch("srht-supervised", 10, 4).fit(X, np.array([1.0, -1, np.nan, 1, 1, -1]))
    with pytest.raises(RpcheckError, match="`y` has length 5 but X has 6 rows"):
        make_sketch("srht-supervised", 10, 4).fit(X, np.ones(5))
    with pytest.raises(RpcheckError, match="`X` is all zeros: the nps probabilities"):
        make_sketch("srht-nps", 10, 4).fit(np.zeros((3, 10)))
    with pytest.raises(RpcheckError, match="`X` has 9 columns but the sketch was built for d=10"):
        make_sketch("srht-topr", 10, 4).fit(X[:, :9])


@pytest.mark.parametrize("case", OBLIVIOUS, ids=case_id)
def test_oblivious_fit_is_noop(case):
    kind, params = case
    S = make_sketch(kind, 10, 4 if kind != "cw" else 8, rng=0, **params)
    M = dense(S.matrix())
    S.fit(np.ones((3, 10)))
    np.testing.assert_array_equal(dense(S.matrix()), M)
