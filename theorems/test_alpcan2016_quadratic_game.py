"""Alpcan, Rubinstein, Leckie (CDC 2016): the two-player quadratic game -- rpcheck's RECONSTRUCTION, not the
paper's verbatim claims (the available text has only the sentence citing [40]).

Statement, derivations (unique best response, Rosen-unique NE, best-response convergence for rho < 1, PD reduced
game) and expected verdicts are in the checker's module docstring (rpcheck/papers/alpcan2016/quadratic_game.py;
``rpcheck show alpcan2016.quadratic_game``)."""

import pytest


@pytest.mark.theorem(id="alpcan2016.quadratic_game")
def test_alpcan2016_quadratic_game(theorem_result):
    assert theorem_result.unexpected().empty
