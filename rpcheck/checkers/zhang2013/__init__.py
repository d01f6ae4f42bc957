"""Checkers for Zhang, Mahdavi, Jin, Yang and Zhu (COLT 2013), "Recovering the Optimal Solution by Dual
Random Projection" (spec ``zhang2013.md`` Part A). Each module registers its Theorem(s) on import.

Constants the source text lost and the spec reconstructed ([R]) are recorded in ``Variant.assumed``.
"""

from . import (  # noqa: F401  (imported for registration)
    algorithms,
    cor7,
    thm1,
    thm2,
    thm3,
    thm3_chi2,
    thm4,
    thm5,
    thm6,
)
