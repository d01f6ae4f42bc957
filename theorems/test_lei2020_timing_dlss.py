"""Lei & Lan (2020): DLSS baseline (Table 2), toy accuracy (Fig. 1) and running-time sentences (Sec. 4).

Statement
    Table 2 DLSS row beside PCA / all features / random projections (k swept: the paper gives none); toy
    example: SRHT (r = 1) on the useless coordinate classifies at chance, exactly 1/2; Sec. 4: Gaussian and
    Achlioptas much slower than Sparse Embedding and SRHT, ISRHT only slightly slower than SRHT.
Source
    Lei & Lan, AAAI 2020, Sec. 3 (Fig. 1), Sec. 4 (Table 1, Table 2, running-time paragraph).
Event
    dlss/timing: exact one-sided sign tests over independent repetitions (level 0.01 each way); toy_accuracy:
    exact binomial (equivalence) test of P(misclassified fresh point) = 1/2.
Claimed probability
    toy_accuracy: 1/2 exactly; timing at the gisette shape: ratios > 1 (flop-count derivation in the module).
"""

import pytest


@pytest.mark.theorem(id="lei2020.dlss")
def test_dlss(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.theorem(id="lei2020.toy_accuracy")
def test_toy_accuracy(theorem_result):
    assert theorem_result.unexpected().empty


@pytest.mark.timing  # wall-clock verdicts: not in the default run (pyproject.toml markers); `pytest -m timing`
@pytest.mark.theorem(id="lei2020.timing")
def test_timing(theorem_result):
    assert theorem_result.unexpected().empty
