"""Checkers for Zhang, Mahdavi, Jin, Yang and Zhu (COLT 2013), "Recovering the Optimal Solution by Dual
Random Projection" (COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046). Each module registers its Theorem(s)
on import.

Tags: [T] read in the paper; [R] reconstructed (the available text of the paper lost its inline math: ranges
of eps, probabilities, the constant c; consistent with the proofs and with Paul et al. 2014, Lemma 3.7, which
restates Corollary 7); [D] derived here from the paper's proofs. [R] constants are recorded in
``Variant.assumed``.
"""

from . import (  # noqa: F401  (imported for registration)
    algorithms,
    cor7,
    losses,
    m_needed,
    thm1,
    thm2,
    thm3,
    thm3_chi2,
    thm4,
    thm5,
    thm6,
    thm6_informative,
)
