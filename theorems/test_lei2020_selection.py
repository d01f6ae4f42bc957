"""Lei & Lan (2020): column selection (claims 6, 7, 8, 16).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show lei2020.prop2``, ``rpcheck show lei2020.topr``, ``rpcheck show
lei2020.supervised``, ``rpcheck show lei2020.toy``; docs/papers/lei2020.md); this file only runs the theorem at the
session profile and asserts what the table must show."""

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
