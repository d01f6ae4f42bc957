"""Lei & Lan (2020): column selection (claims 6, 7, 8, 16).

Statement
    Prop. 2 (eq. 7): ||X_r P X_r^T - X X^T||_F <= sum_{P_jj = 0} c_j for any 0/1 diagonal P.
    Top-r (motivated by Prop. 2) minimizes the error -- FALSE (columns (1,0),(0,.9),(0,.9), r = 1).
    Eq. (8): sum_ij A_ij ||z_i - z_j||^2 = trace(Z^T L Z) -- missing a factor 2; (10) is minimized by the
    r SMALLEST b_k; the text's "largest r elements" rule does not minimize (10).
    Toy (Fig. 1): uniform SRHT with r = 1 picks the useless rotated coordinate w.p. 1/2; the printed
    covariance [[1, 1.75], [1.75, 1]] is not PSD.
Source
    Lei & Lan, AAAI 2020, Proposition 2, eq. (7), Sec. 3.3 eqs. (8)-(10), Fig. 1.
Event
    Exact inequalities/identities within RTOL_EXACT x scale; brute force over all r-subsets; the toy's
    coordinate choice (exact binomial test against p = 1/2 for SRHT).
Claimed probability
    1 (deterministic); expected VIOLATED: prop2.nonvacuous (Gaussian, r <= d/4), topr.as_implied (printed
    instance), supervised.eq8_as_printed, supervised.largest_as_printed, toy.supervised_largest_as_printed,
    toy.paper_covariance_valid. Toy SRHT: exact p = 1/2.
Parameters
    Prop. 2: (n, d, r) = (6, 8, 2) low rank and (200, 128, 16); supervised: n in {9, 10}, d in {8, 12},
    a in {1, 0.5}; toy: 100 and 500 points per class, 60 trials. Family-wise alpha 0.01, root seed 0.
"""

import pytest


@pytest.mark.theorem(id="lei2020.prop2")
def test_lei2020_prop2(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.topr")
def test_lei2020_topr(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.supervised")
def test_lei2020_supervised(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.toy")
def test_lei2020_toy(theorem_result):
    assert theorem_result.unexpected().empty
