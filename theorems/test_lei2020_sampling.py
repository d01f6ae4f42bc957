"""Lei & Lan (2020): sampled Gram matrix (claims 2, 3, 4, 5, 14, 15).

Statement
    F1: E[K~] = K for i.i.d. sampling with any p > 0 on nonzero columns (eq. 5) and for SRHT (eq. 2).
    Prop. 1 (as printed): nps p_j = c_j / sum c minimizes E||K~ - K||_F (unsquared) -- FALSE; corrected:
    it minimizes E||K~ - K||_F^2 = (1/r)(sum c_j^2/p_j - ||K||_F^2) (DKM 2006 Lemma 4).
    Claim 5: nps beats SRHT -- only against uniform WITH replacement (rpcheck.bounds.lei2020.uniform_without_replacement_sq_error).
    DKM 2006 Thm 1 (IMPORTED): ||K~-K||_F <= (1 + sqrt((8/beta) ln(1/delta)))/sqrt(beta r) ||X||_F^2 w.p. 1-delta.
    nps trace: every sampled column has ||.||^2 = ||X||_F^2/r.
Source
    Lei & Lan, AAAI 2020, Sec. 3.1, eqs. (5)-(6), Proposition 1.
Event
    Exact enumeration of all multisets / r-subsets vs closed forms (tolerance RTOL_EXACT x scale); a search
    (Dirichlet draws, p ~ c^2, Nelder-Mead) for p beating nps on the unsquared objective; DKM bound exceeded.
Claimed probability
    1 for the identities; as_printed_unsquared and zero_p_on_nonzero_column expected VIOLATED;
    nps_le_srht_without expected VIOLATED for Gaussian X with n >= d; DKM failure <= delta = 0.1.
Parameters
    Enumeration sizes (n, d, r) in {(3, 4, 2), (4, 8, 3)}; Prop. 1 counterexample X_r = diag(1, sqrt 2), r = 1;
    claim 5 at n = 200, d = 128, r in {16, 64}; DKM n = 50, d = 64, r in {4, 16}, 100 trials per cell.
    Family-wise alpha 0.01, root seed 0.
"""

import pytest


@pytest.mark.theorem(id="lei2020.unbiased")
def test_lei2020_unbiased(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.prop1")
def test_lei2020_prop1(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.replacement")
def test_lei2020_replacement(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.dkm")
def test_lei2020_dkm(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.nps_trace")
def test_lei2020_nps_trace(theorem_result):
    assert theorem_result.unexpected().empty
