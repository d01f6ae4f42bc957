"""Alpcan, Rubinstein, Leckie (CDC 2016): Paul et al.'s objective bound reused for T = A R.

The statement, the variants and the derivation of each expected verdict are in the checker's module docstring
(rpcheck/papers/alpcan2016/xar.py; ``rpcheck show alpcan2016.xar``). For A = I the checker does not expect
e < 1 in every draw: a draw with e >= 1 makes the quoted and quadform rows vacuous for that draw, and the
``informative`` row (role "measurement", no verdict) reports the fraction of draws with e < 1 together with the
Davidson-Szarek bound on P(some draw has e >= 1) (``identity_failure_bound``)."""

import pytest


@pytest.mark.theorem(id="alpcan2016.xar")
def test_alpcan2016_xar(theorem_result):
    res = theorem_result
    assert (res.cells["solver_errors"] == 0).all()
    quoted = res.cells[res.cells["variant"] == "quoted"]
    # how often the quoted bound is vacuous (e >= 1), per family: reported in the verdict table
    print(quoted[["p_family", "p_b", "vacuous_trials", "trials"]].to_string(index=False))
