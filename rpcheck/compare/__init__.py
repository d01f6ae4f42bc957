r"""Empirical comparison of random projections for the linear SVM (Lei & Lan 2020, Table 2 protocol).

For a data set, target dimensions ``r``, a C grid chosen by cross-validation and a number of repetitions
(the paper uses 15), each repetition

1. draws a stratified train/test split (``test_size``, default 0.3: the paper's "70% / 30%"),
2. scales the features to [-1, 1] with the TRAINING fold's ranges (Sec. 4; max-abs scaling for sparse
   input, which keeps zeros and also maps into [-1, 1]),
3. for every method: chooses C from ``C_grid`` by ``cv_folds``-fold stratified cross-validation INSIDE the
   training set, fitting every data-dependent selection (nps, top-r, supervised, PCA) on the CV-training
   part of each fold only -- no label or test leakage -- then refits the projection on the
   whole training set, trains the SVM with the chosen C and records the test accuracy and the wall time
   (projection + CV + final training + prediction; the paper does not say what its times include).

The SVM is the exact L1-loss dual (3) with an unregularised bias (constraint y^T alpha = 0):

- ``solver="certified"`` (default): ``rpcheck.svm.solve_svc``, the dense interior-point method with a
  free-set polish, every solution KKT-certified (a ``SolverError`` otherwise, counted by the engine). At
  the Table 2 sizes it is faster than LIBSVM (BENCHMARKS.md). ``"cvxpy"`` is an alias of this choice. Along the
  C grid of one fold (same data) each solve is warm-started from the previous C's certified result
  (``solve_svc(..., warm_start=...)``): the result is the certified optimum either way, so the chosen C and
  the accuracies are those of independent solves unless a prediction lies within the certificate of 0.
  Sparse training input ("all" on the text sets) is not densified: it goes to ``solve_svc(..., solver="DCD")``
  (dual coordinate descent, Hsieh et al. 2008, inside a method of multipliers for the unregularised bias;
  same KKT certificate), warm-started along the C grid the same way; dense input keeps the call above.
- ``solver="libsvm"``: ``sklearn.svm.SVC(kernel="linear")``. LIBSVM's SMO solves the same problem to its
  KKT stopping tolerance ``tol=1e-3`` (not certified); for large sparse inputs ("all" on a real rcv1 file),
  where the dense solver would densify X.

The paper used LIBLINEAR, which solves a different problem (regularised bias, squared hinge by default);
this is reported as a deviation, not replicated here (``rpcheck.svm.liblinear`` solves it separately).

Methods (Sec. 4): "all" (all features), "pca" (randomized SVD to r components, centred; on sparse input the
centring is implicit, ``rpcheck.linalg.centred_randomized_svd``, so X is never densified), "gaussian"
(N(0, 1/r), the JL-correct variance, not the printed 1/d), "achlioptas" (sqrt(3/r){+1, 0, -1} w.p. 1/6, 2/3,
1/6), "countsketch" (sparse embedding), "srht" (uniform r-subset WITHOUT replacement, eq. 2),
"srht-nps", "srht-topr", "srht-supervised" (smallest b, a = 1), "srht-supervised-largest" (the printed rule).
Extra methods (not in the default ``METHODS``, :data:`DLSS_METHODS`): "dlss-r/4", "dlss-r/2", "dlss-r" --
deterministic leverage score sampling (Papailiopoulos, Kyrillidis and Boutsidis 2014; Table 2's "DLSS"):
the ``r`` original features of largest rank-``k`` leverage score, computed by randomized SVD (Sec. 4) on the
(scaled, uncentred) training part, with ``k = max(1, r // 4)``, ``max(1, r // 2)``, ``r`` (capped at
``min(n, d)``). The paper does not give ``k``: the three values are an assumption, reported as a sweep.
"""

from .claims import (
    assess_claims,
)
from .fixed_grid import (
    fixed_grid_repetition,
    stability,
    stability_table,
)
from .methods import (
    DEFAULT_C_GRID,
    DLSS_METHODS,
    METHODS,
    PAPER_TABLE2,
    RP_METHODS,
    dlss_rank,
    paper_key,
)
from .methods import (
    SKETCH_SPECS as SKETCH_SPECS,
)
from .protocol import (
    SOLVERS as SOLVERS,
)
from .protocol import (
    _Projector as _Projector,
)
from .protocol import (
    _scale as _scale,
)
from .protocol import (
    _train_predict as _train_predict,
)
from .protocol import (
    compare,
    run_repetition,
    summarize,
)

__all__ = [
    "METHODS",
    "RP_METHODS",
    "DEFAULT_C_GRID",
    "PAPER_TABLE2",
    "compare",
    "run_repetition",
    "summarize",
    "assess_claims",
    "stability",
    "stability_table",
    "fixed_grid_repetition",
    "paper_key",
    "DLSS_METHODS",
    "dlss_rank",
]
