"""Alpcan, Rubinstein, Leckie (CDC 2016): a minimal adversarial learning game on the SVM margin of X A R --
rpcheck's RECONSTRUCTION, not the paper's verbatim claims (the available text has only the sentence citing [41]).

Statement, derivations (Paul et al. eqs. (17) and (21) entry-wise for any T = A R, the controls' certain failure
at A = I/2) and expected verdicts are in the checker's module docstring
(rpcheck/papers/alpcan2016/adversarial_game.py; ``rpcheck show alpcan2016.adversarial_game``)."""

import pytest


@pytest.mark.theorem(id="alpcan2016.adversarial_game")
def test_alpcan2016_adversarial_game(theorem_result):
    assert theorem_result.unexpected().empty
