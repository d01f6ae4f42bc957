"""The theorems of Paul, Boutsidis, Magdon-Ismail and Drineas (2014), "Random Projections for Linear Support
Vector Machines" (ACM TKDD 8(4):22; arXiv:1211.6085v5).

Ids use the arXiv PDF numbering; each citation also gives the TKDD numbering (the arXiv v5 PDF and the TKDD version
number lemmas and theorems differently).

Registered through the ``rpcheck.theorems`` entry point of the same name (pyproject.toml): loading it
imports every public module of this package, and each theorem module registers its Theorem(s) on import.
"""
