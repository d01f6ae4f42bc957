"""Alpcan, Rubinstein, Leckie (CDC 2016) with Paul et al. Thm 3.5: margin preservation for T = A R.

Statement, derivation (hard margin, any T: (1 - e) gamma^2 <= gamma~^2 <= (1 + e) gamma^2) and expected verdicts
are in the checker's module docstring (rpcheck/papers/alpcan2016/margin.py; ``rpcheck show alpcan2016.margin``).
Soft-margin rows (C = 1, 500) carry no expected verdict: they are reported."""

import pytest


@pytest.mark.theorem(id="alpcan2016.margin")
def test_alpcan2016_margin(theorem_result):
    assert theorem_result.unexpected().empty
