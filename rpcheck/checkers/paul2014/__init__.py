"""Checkers for Paul, Boutsidis, Magdon-Ismail and Drineas (2014), "Random Projections for Linear Support
Vector Machines" (ACM TKDD 8(4):22; arXiv:1211.6085v5). Each module registers its Theorem(s) on import.

Ids use the arXiv PDF numbering; each citation also gives the TKDD numbering (the arXiv v5 PDF and the TKDD version number lemmas and theorems differently).
"""

from . import (  # noqa: F401  (imported for registration)
    e11,
    e14,
    embedding,
    enclosing_ball,
    main_ratio,
    margin,
    margin_search,
    norm_identity,
    pca,
    rank_deficiency,
    regression,
    regression_tables,
    repro_bundled,
    repro_hapmap,
    repro_rcv1,
    repro_rcv1_multiclass,
    repro_synthetic,
    repro_techtc,
    sec14_comparison,
    shape,
    shape_eq8,
    sparsity,
    tables,
    unscaled,
)
