"""Checkers for shi2012 (Shi, Shen, Hill, van den Hengel, ICML 2012). Each module registers its Theorem(s)
on import; list them here."""

from . import bookkeeping, fig1, fig2, fig3_4, lemma4, lemma10, subgaussian, thm5, thm5_band_width, thm6, thm8, thm9  # noqa: F401
