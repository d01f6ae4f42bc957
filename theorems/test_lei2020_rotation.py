"""Lei & Lan (2020): randomized Hadamard rotation (claims 1, 11, 12).

Statement
    X_r = X D H (H = H_d/sqrt d, d padded to a power of two) has X_r X_r^T = X X^T and sum_j c_j = ||X||_F^2;
    SRHT R = sqrt(d/r) D H S is "a random orthonormal matrix" (as printed; truly R^T R = (d/r) I).
    E_D c_j = ||X||_F^2/d, Var_D c_j = (2/d^2) sum_{k!=l}(X^T X)_kl^2 (DERIVED, rpcheck.bounds.lei2020.rotated_energy_moments).
    max_j c_j <= 2 ln(2nd/delta) ||X||_F^2/d with probability >= 1 - delta over D (DERIVED, rpcheck.bounds.lei2020.flattening_bound).
Source
    Lei & Lan, AAAI 2020, Sec. 3, eq. (2), Alg. 1 steps 1-2.2 (the DERIVED facts above: rpcheck.bounds.lei2020).
Event
    rotation: exact identities within round-off RTOL_EXACT x ||X||_F^2 x log2 d' (library vs scipy hadamard);
    energy: enumeration over all 2^d sign vectors equals the closed forms; flattening: max_j c_j / ||X||_F^2
    exceeds the D4 bound.
Claimed probability
    1 for the identities (as_printed_orthonormal expected VIOLATED); flattening failure <= delta = 0.1.
Parameters
    rotation: n = 20, d in {30, 64, 100}, r = 8; energy: n = 5, d in {4, 8}; flattening: n = 50,
    d in {64, 100}, spiky and Gaussian rows, 100 trials per cell (0 failures gives an exact upper 0.99 bound
    of 0.045 < 0.1). Family-wise alpha 0.01, root seed 0.
"""

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
