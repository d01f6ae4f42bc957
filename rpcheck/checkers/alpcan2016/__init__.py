"""Checkers for Alpcan, Rubinstein, Leckie 2016 (CDC): reuse of Paul et al. eq. (16) and Thm 3.5 for T = A R.

Modules register on import."""

from . import adversarial_game, baselines, margin, quadratic_game, xar  # noqa: F401  (imported for registration)
