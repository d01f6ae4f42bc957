"""Pieces the Alpcan et al. 2016 theorem modules share: the paper's citation, the low-rank data's parameters and
the adversary's top data direction."""

from __future__ import annotations

import numpy as np

from ...engine import Citation, Constraint, Param

AUTHORS = "Tansu Alpcan, Benjamin I. P. Rubinstein, Christopher Leckie"
TITLE = "Large-Scale Strategic Games and Adversarial Machine Learning"
VENUE = "55th IEEE CDC 2016, DOI 10.1109/CDC.2016.7798940; arXiv:1609.06438"


def cite(location, equations=""):
    """Citation of the paper at ``location`` (the available text has no section or page numbers)."""
    return Citation(authors=AUTHORS, year=2016, title=TITLE, venue=VENUE, location=location, equations=equations)


#: The parameters of the rank-rho n x d data ``X = Z V^T`` (rpcheck.generators.low_rank_classification).
DATA_PARAMS = {
    "n": Param("int", low=2, doc="number of examples"),
    "d": Param("int", low=1, doc="dimension"),
    "rho": Param("int", low=1, doc="rank of X"),
}

#: The rank of the data is at most its smaller side.
RHO_LE_MIN = Constraint("rho <= min(n, d) (rank of the n x d data)",
                        lambda p: int(p["rho"]) <= min(int(p["n"]), int(p["d"])))


def top_direction(V, Zfac):
    """The top right singular vector ``V w_1`` of ``X = Z V^T`` (``w_1`` the top right singular vector of ``Z``,
    ``V`` orthonormal): the data direction the adversary's shrink map attacks."""
    _, _, Wt = np.linalg.svd(Zfac, full_matrices=False)
    return V @ Wt[0]
