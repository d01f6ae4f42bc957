"""The theorems of Alpcan, Rubinstein, Leckie 2016 (CDC): reuse of Paul et al. eq. (16) and Thm 3.5 for T = A R.

Registered through the ``rpcheck.theorems`` entry point of the same name (pyproject.toml): loading it
imports every public module of this package, and each theorem module registers its Theorem(s) on import.
"""
