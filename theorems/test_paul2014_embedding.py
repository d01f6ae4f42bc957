"""Paul et al. (2014): subspace-embedding lemmas, the proof ingredient C1a, and coherence (C2).

Statement
    ||V^T V - V^T R R^T V||_2 <= eps with probability >= 1 - delta, for V (d x rho) orthonormal and
    R = SRHT (Lemma 3.1), random signs (Lemma 3.2, probability "1 - 1/n"), Clarkson-Woodruff
    (Lemma 3.3) or Gaussian (Lemma 3.4), at the target dimensions of eqs. (7), (9), (8), (10).
    C1a: max_i ||(H D V)_(i)||^2 <= 2 rho ln(2 d rho/delta)/d w.p. >= 1 - delta (printed: ln(40 d rho)).
Source
    Paul, Boutsidis, Magdon-Ismail, Drineas, ACM TKDD 8(4):22 (2014) / arXiv:1211.6085v5.
    arXiv Lemmas 3.1, 3.2, 3.3, 3.4 = TKDD Lemmas 3.1, 3.3, 3.5, 3.7; eqs. (7)-(11).
Event
    e = ||I - (V^T R)(V^T R)^T||_2 <= eps for one draw of R (C1a: the row-norm bound for one draw of D).
Claimed probability
    1 - delta (Lemma 3.2: 1 - 1/n, tested at delta = 0.1). C2: the same claim is expected VIOLATED for
    CountSketch and Li-sparse on coherent V; CountSketch's failure law is exact (hash collisions), reported
    at ci (the equivalence test needs ~8,000 trials per cell for power 0.99). Lemma 3.3 (CW, CountSketch)
    runs at the derived r = ceil((rho^2 + rho)/(eps^2 delta)) on incoherent, coherent and flat V (the flat
    cells catch a CountSketch with correlated signs). Controls: the same event at r = rho - 1 (e >= 1).
Parameters
    r = ceil(c f(rho, eps, delta, d)) (Lemmas 3.1, 3.2, 3.4) with the constants CI_CONSTANTS of
    rpcheck.checkers.paul2014._common (reported per cell); rho = 10, d = 512, eps in {0.5, 0.35},
    delta = 0.1 (C1a, C2: delta = 0.05; C2 at rho = 20, r = 800, d = 512); incoherent (Haar)
    and coherent (standard-basis) V.
"""

import pytest

LEMMAS = ("paul2014.lemma3.1", "paul2014.lemma3.2", "paul2014.lemma3.3", "paul2014.lemma3.4")


@pytest.mark.parametrize("theorem_id", [pytest.param(t, id=t, marks=pytest.mark.theorem(id=t)) for t in LEMMAS])
def test_subspace_embedding_lemmas(theorem_result, theorem_id):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.c1a")
def test_c1a_row_norms(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.c2")
def test_c2_coherent_row_spaces(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="paul2014.c2.countsketch_exact")
def test_c2_countsketch_collision_law(theorem_result):
    assert theorem_result.unexpected().empty
