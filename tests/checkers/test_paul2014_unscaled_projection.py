"""paul2014.unscaled: one trial's outcomes agree with the derivations of the module docstring."""

import numpy as np

from rpcheck.papers.paul2014 import unscaled


def test_one_trial_matches_the_derivations():
    params = {"kind": "gaussian", "n": 30, "d": 256, "rho": 5, "r": 64, "eps": 0.5}
    rec = unscaled.trial(params, np.random.default_rng(3))
    out, diag = rec.outcomes, rec.diagnostics
    e, r = diag["e"], params["r"]
    assert e < 1 - (1 + params["eps"]) / r
    assert diag["e_unscaled"] >= r * (1 - e) - 1 - 1e-9  # eigenvalues of r V^T R R^T V lie in r [1 - e, 1 + e]
    expected = {v.name: v.expected.name for v in unscaled.THEOREM.variants}
    for name, o in out.items():
        assert not o.undetermined and not o.vacuous, name
        assert o.holds == (expected[name] == "HOLDS"), name
    assert diag["B_sq_ratio_unscaled"] >= r * (1 - e) / 2  # Jung + row-space contraction
