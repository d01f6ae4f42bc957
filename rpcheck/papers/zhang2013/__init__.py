"""The theorems of Zhang, Mahdavi, Jin, Yang and Zhu (COLT 2013), "Recovering the Optimal Solution by Dual
Random Projection" (COLT 2013, JMLR W&CP 30:135-157; arXiv:1211.3046).

Tags: [T] read in the paper; [R] reconstructed (the available text of the paper lost its inline math: ranges
of eps, probabilities, the constant c; consistent with the proofs and with Paul et al. 2014, Lemma 3.7, which
restates Corollary 7); [D] derived here from the paper's proofs. [R] constants are recorded in
``Variant.assumed``.

Registered through the ``rpcheck.theorems`` entry point of the same name (pyproject.toml): loading it
imports every public module of this package, and each theorem module registers its Theorem(s) on import.
"""
