"""Checkers for Lei & Lan (2020), "Improved Subsampled Randomized Hadamard Transform for Linear SVM"
(spec ``lei2020.md``). Each module registers its Theorem(s) on import.

- ``rotation``: claims 1, 11, 12 (Gram preservation, rotated energy moments, flattening)
- ``sampling``: claims 2-5, 14, 15 (unbiasedness, Prop. 1 squared/unsquared, replacement, DKM, nps trace)
"""

from . import rotation, sampling  # noqa: F401
