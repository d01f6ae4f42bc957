"""rpcheck.sketches.streamed: X @ R drawn in row blocks equals make_sketch(...).apply to rounding, same stream."""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck.errors import RpcheckError
from rpcheck.sketches import make_sketch
from rpcheck.sketches.streamed import STREAMED_KINDS, streamed_apply


def _data(n, d, seed):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.05, random_state=np.random.RandomState(seed), format="csr")
    return X, rng.standard_normal((n // 2, d))


@pytest.mark.parametrize("kind", STREAMED_KINDS)
@pytest.mark.parametrize("block_bytes", [1, 8 * 7 * 3, 1 << 25])  # one row, 3 rows (d not a multiple), one block
def test_streamed_equals_the_explicit_sketch(kind, block_bytes):
    d, r = 211, 7
    Xs, Xd = _data(40, d, 5)
    explicit = make_sketch(kind, d, r, rng=np.random.default_rng(11))
    oracle = [explicit.apply(Xs), explicit.apply(Xd)]
    oracle = [np.asarray(o.toarray() if sp.issparse(o) else o) for o in oracle]
    g = np.random.default_rng(11)
    outs = streamed_apply(kind, [Xs.tocsc(), Xd], r, rng=g, block_bytes=block_bytes)
    for out, ref in zip(outs, oracle):
        assert out.shape == ref.shape and out.dtype == np.float64
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())
    # negative control: another seed's draws are not within that tolerance
    (other,) = streamed_apply(kind, [Xs], r, rng=np.random.default_rng(12), block_bytes=block_bytes)
    assert not np.allclose(other, oracle[0], rtol=1e-12, atol=1e-12 * np.abs(oracle[0]).max())
    # the generator is left where the class's constructor leaves it: the same draws were consumed
    h = np.random.default_rng(11)
    make_sketch(kind, d, r, rng=h)
    assert g.bit_generator.state == h.bit_generator.state


@pytest.mark.parametrize("kind", STREAMED_KINDS)
def test_streamed_csr_input_and_the_dense_product(kind):
    """CSR input (converted to CSC internally) against the dense product with the class's explicit matrix."""
    d, r = 97, 13
    X, _ = _data(30, d, 8)
    R = make_sketch(kind, d, r, rng=3).matrix()
    R = R.toarray() if sp.issparse(R) else R
    (out,) = streamed_apply(kind, [X], r, rng=np.random.default_rng(3), block_bytes=8 * r * 10)
    np.testing.assert_allclose(out, X.toarray() @ R, rtol=1e-12, atol=1e-13)


def test_streamed_rejects_other_kinds_and_bad_input():
    X, _ = _data(10, 20, 1)
    with pytest.raises(RpcheckError, match="`kind`"):
        streamed_apply("srht", [X], 4, rng=np.random.default_rng(0))
    with pytest.raises(RpcheckError, match="`r`"):
        streamed_apply("gaussian", [X], 0, rng=np.random.default_rng(0))
    with pytest.raises(RpcheckError, match="`Xs`"):
        streamed_apply("gaussian", [], 4, rng=np.random.default_rng(0))
    bad = np.ones((3, 20))
    bad[0, 0] = np.nan
    with pytest.raises(RpcheckError):
        streamed_apply("gaussian", [bad], 4, rng=np.random.default_rng(0))
