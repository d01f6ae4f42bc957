"""Lei & Lan (2020): sampled Gram matrix (claims 2, 3, 4, 5, 14, 15).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show lei2020.unbiased``, ``rpcheck show lei2020.prop1``, ``rpcheck show
lei2020.replacement``, ``rpcheck show lei2020.dkm``, ``rpcheck show lei2020.nps_trace``; docs/papers/lei2020.md);
this file only runs the theorem at the session profile and asserts what the table must show."""

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
