"""Checkers for shi2012 (Shi, Shen, Hill, van den Hengel, ICML 2012). Each module registers its Theorem(s)
on import; list them here."""

from . import fig1, lemma10, thm5, thm6, thm8, thm9  # noqa: F401
