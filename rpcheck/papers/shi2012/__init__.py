"""The theorems of shi2012 (Shi, Shen, Hill, van den Hengel, ICML 2012).

Registered through the ``rpcheck.theorems`` entry point of the same name (pyproject.toml): loading it
imports every public module of this package, and each theorem module registers its Theorem(s) on import.
"""
