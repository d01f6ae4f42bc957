"""Lei & Lan (2020): randomized Hadamard rotation (claims 1, 11, 12).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show lei2020.rotation``, ``rpcheck show lei2020.energy``, ``rpcheck show
lei2020.flattening``, ``rpcheck show lei2020.jl``; docs/papers/lei2020.md); this file only runs the theorem at the
session profile and asserts what the table must show."""

import pytest


@pytest.mark.theorem(id="lei2020.rotation")
def test_lei2020_rotation(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.energy")
def test_lei2020_energy(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.flattening")
def test_lei2020_flattening(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.jl")
def test_lei2020_jl(theorem_result):
    """JL (claim 13): r = jl_min_dim(n, eps, delta) (Dasgupta-Gupta, IMPORTED); N(0, 1/r) Gaussian expected
    HOLDS at delta = 0.1, the printed N(0, 1/d) expected VIOLATED (norms shrink by sqrt(r/d)); Achlioptas,
    CountSketch and SRHT at the same r are reported (their constants differ). n = 10, d = 1024, eps = 0.5,
    spiky rows, 100 trials at ci."""
    assert theorem_result.unexpected().empty
