"""paul2014.thm3.6's trial against an independent oracle: one apply for c R, V^T R, V_B^T R and Vo^T R, lazy artifacts.

The oracle draws the same instance, sketch and independent subspace from the same stream and forms every product
with the explicit (d, r) matrix R = sketch.matrix() (the closed form of the Hadamard entries for SRHT; the stored
matrix for Gaussian): the distortions, the proof step's max_i ||R^T (x_i - c)||^2 and the projected ball must agree
to rounding, and the trial must leave the stream where the oracle leaves it (the trial's random stream is that of
the separate applies).
"""

import math

import numpy as np
import pytest

from rpcheck.engine import registry
from rpcheck.generators import orthonormal_basis
from rpcheck.linalg import embedding_distortion, row_space_basis
from rpcheck.papers.paul2014 import enclosing_ball as eb
from rpcheck.papers.paul2014._common import violation_artifacts
from rpcheck.papers.paul2014.embedding import sketch_kwargs
from rpcheck.sketches import make_sketch
from rpcheck.svm import min_enclosing_ball

REL = 1e-9  # rounding of two evaluation orders of the same products (d <= 512 terms of size <= 1)


def _cells():
    t = registry.get("paul2014.thm3.6")
    cells = [c for c in t.profiles["ci"].cells if "scale" not in c]
    return [c for c in cells if c["kind"] in ("srht", "gaussian")]


def _oracle(params, rng):
    n, d, rho, r = params["n"], params["d"], params["rho"], params["r"]
    X = eb.ball_instance(n, d, rho, rng=rng)
    V = row_space_basis(X)
    sk = make_sketch(params["kind"], d, r, rng=rng, **sketch_kwargs(params))
    R = np.asarray(sk.matrix())
    ball = min_enclosing_ball(X)
    c = np.asarray(ball.center)
    VB = row_space_basis(np.vstack([X, c[None, :]]))
    Vo = orthonormal_basis(d, min(V.shape[1], d - 1), rng=rng)
    pd = (X - c[None, :]) @ R
    return {
        "e": embedding_distortion(V, R),
        "e_B": embedding_distortion(VB, R),
        "e_other": embedding_distortion(Vo, R),
        "proj_max": float(np.max(np.einsum("ij,ij->i", pd, pd))),
        "B_sq_proj": min_enclosing_ball(X @ R).radius_sq,
        "B_sq": ball.radius_sq,
    }


@pytest.mark.parametrize("cell", _cells(), ids=lambda c: f"{c['kind']}-r{c['r']}")
def test_trial_products_match_the_explicit_matrix(cell):
    for seed in (0, 1):
        rng_t, rng_o = np.random.default_rng(seed), np.random.default_rng(seed)
        rec = eb.trial(dict(cell), rng_t)
        ref = _oracle(dict(cell), rng_o)
        assert rng_t.bit_generator.state == rng_o.bit_generator.state  # the same draws, in the same order
        dg, out = rec.diagnostics, rec.outcomes
        assert dg["B_sq"] == ref["B_sq"]  # the original ball does not involve R
        for key, got in (("e", dg["e"]), ("e_B", dg["e_B"]), ("proj_max", out["proof_step"].statistic)):
            assert got == pytest.approx(ref[key], rel=REL, abs=1e-12), key
        # eB_control's statistic is |e - e_other|
        assert out["eB_control"].statistic == pytest.approx(abs(ref["e"] - ref["e_other"]), rel=REL, abs=1e-12)
        # the projected ball: the same certified optimum up to the solver's certificate (relative gap <= 1e-5)
        assert dg["B_sq_proj"] == pytest.approx(ref["B_sq_proj"], rel=1e-5)


def test_artifacts_are_built_on_access_and_equal_the_eager_ones():
    cell = _cells()[0]
    rec = eb.trial(dict(cell), np.random.default_rng(3))
    arts = rec.artifacts
    assert isinstance(arts, eb._LazyArtifacts) and arts._arrays is None  # nothing formed by the trial itself
    # the controls fail on every draw, so the eager build keeps X and R; the lazy mapping holds the same arrays
    assert not rec.outcomes["lower_control"].holds or not rec.outcomes["prob_control"].holds
    assert sorted(arts) == ["R", "X"] and len(arts) == 2
    rng = np.random.default_rng(3)
    X = eb.ball_instance(cell["n"], cell["d"], cell["rho"], rng=rng)
    sk = make_sketch(cell["kind"], cell["d"], cell["r"], rng=rng, **sketch_kwargs(cell))
    eager = violation_artifacts(rec.outcomes, X=X, sketch=sk)
    for k in ("X", "R"):
        np.testing.assert_array_equal(arts[k], eager[k])
    assert dict(arts.items()).keys() == eager.keys()


def test_lazy_artifacts_build_once():
    calls = []

    def build():
        calls.append(1)
        return {"X": np.zeros(2)}

    arts = eb._LazyArtifacts(build)
    assert calls == []
    assert list(arts) == ["X"] and len(arts) == 1 and math.isclose(float(arts["X"].sum()), 0.0)
    assert calls == [1]


def test_lazy_artifacts_cross_processes_as_their_arrays():
    """A record returned by a worker (a replay on the process backend) is pickled: the mapping travels as the
    dict of its arrays, not as the closure that builds them."""
    import pickle

    rec = eb.trial(dict(_cells()[0]), np.random.default_rng(3))
    back = pickle.loads(pickle.dumps(rec.artifacts))
    assert type(back) is dict and sorted(back) == ["R", "X"]
    for k in back:
        np.testing.assert_array_equal(back[k], rec.artifacts[k])
