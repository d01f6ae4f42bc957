"""Lei & Lan (2020): SVM dual under projection (claims 9, 10), through the certified solver.

Statement
    (DERIVED, rpcheck.bounds.lei2020.selection_dual_gap_bound) For a no-rescale 0/1 selection (top-r, supervised): 0 <= OPT(4) - OPT(3) <=
    (n C^2/2) lambda_max(K - K~) <= (n C^2/2) sum_unselected c_j, and the hard margin shrinks.
    (DERIVED, rpcheck.bounds.lei2020.dual_perturbation_bound) For every construction: |OPT(3) - OPT(4)| <= (n C^2/2) ||K - K~||_2.
Source
    Lei & Lan, AAAI 2020, eqs. (3)-(4) and the heuristic "alpha~* close to alpha*".
Event
    The inequality fails by more than the two solves' certificates (|primal - dual| + n max(C,1) x
    feasibility residuals of rpcheck.svm.solve_svc).
Claimed probability
    1 (deterministic); trials whose solve fails its KKT certificate are counted as solver errors, never as
    failures.
Parameters
    n = 40, d = 32, r = 8, C in {0.1, 1}; hard margin n = 24 < d (separable), C = inf. Root seed 0.
"""

import pytest


@pytest.mark.theorem(id="lei2020.selection_dual")
def test_lei2020_selection_dual(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.dual_perturbation")
def test_lei2020_dual_perturbation(theorem_result):
    assert theorem_result.unexpected().empty
