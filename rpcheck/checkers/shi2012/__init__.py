"""Checkers for shi2012 (Shi, Shen, Hill, van den Hengel, ICML 2012). Each module registers its Theorem(s)
on import; list them here."""

from . import (  # noqa: F401  (imported for registration)
    bookkeeping,
    error_allowed,
    fig1,
    fig1_margins,
    fig2,
    fig2_trend,
    fig3_4,
    fig3_trend,
    lemma4,
    lemma10,
    subgaussian,
    subgaussian_thm6,
    thm5,
    thm5_band_width,
    thm5_measured_band,
    thm6,
    thm6_svm,
    thm8,
    thm8_final_step,
    thm9,
    thm9_memory,
    unnormalised_margin,
)
