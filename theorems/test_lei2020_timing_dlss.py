"""Lei & Lan (2020): DLSS baseline (Table 2), toy accuracy (Fig. 1) and running-time sentences (Sec. 4).

The statement as printed, the variants, the derivation of each expected verdict and the profiles are in the
checker's module docstring (``rpcheck show lei2020.dlss``, ``rpcheck show lei2020.toy_accuracy``, ``rpcheck show
lei2020.timing``; docs/papers/lei2020.md); this file only runs the theorem at the session profile and asserts what
the table must show."""

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
