"""Paul et al. (2014): subspace-embedding lemmas, the proof ingredient C1a, and coherence (C2).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checkers' module docstrings (``rpcheck show ID`` for paul2014.lemma3.1-3.4, paul2014.c1a, paul2014.c2 and
paul2014.c2.countsketch_exact; docs/papers/paul2014.md); this file only runs the theorems at the session profile
and asserts what the tables must show."""

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
