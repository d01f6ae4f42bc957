"""The compared methods (:data:`METHODS`, :data:`DLSS_METHODS`), their sketch specifications, the C grid and
the numbers Lei & Lan (2020) print in Table 2 (:data:`PAPER_TABLE2`)."""

from __future__ import annotations

import os

from .._validation import check_choice

#: Every method the runner knows, in report order.
METHODS = (
    "all",
    "pca",
    "gaussian",
    "achlioptas",
    "countsketch",
    "srht",
    "srht-nps",
    "srht-topr",
    "srht-supervised",
    "srht-supervised-largest",
)
#: The paper's seven "random projection" methods (plus the printed-rule variant).
RP_METHODS = ("gaussian", "achlioptas", "countsketch", "srht", "srht-nps", "srht-topr", "srht-supervised")
#: DLSS at three ranks k (the paper does not give k; :mod:`rpcheck.compare`). Not run by default.
DLSS_METHODS = ("dlss-r/4", "dlss-r/2", "dlss-r")
_DLSS_DIV = {"dlss-r/4": 4, "dlss-r/2": 2, "dlss-r": 1}


def dlss_rank(method, r, n, d):
    """The rank ``k`` of DLSS method ``method`` at target dimension ``r`` on ``n x d`` training data:
    ``max(1, r // m)`` for ``m`` = 4, 2, 1, capped at ``min(n, d)``."""
    check_choice("method", method, DLSS_METHODS)
    return max(1, min(int(r) // _DLSS_DIV[method], int(n), int(d)))


#: The paper's C grid {2^-5, ..., 2^5} (Sec. 4).
DEFAULT_C_GRID = tuple(2.0**k for k in range(-5, 6))

#: method -> (rpcheck.sketches kind, parameters) of every random-projection method (also lei2020.timing's)
SKETCH_SPECS = {
    "gaussian": ("gaussian", {}),
    "achlioptas": ("sparse", {"density": "achlioptas"}),
    "countsketch": ("countsketch", {}),
    "srht": ("srht", {"replace": False}),
    "srht-nps": ("srht-nps", {}),
    "srht-topr": ("srht-topr", {}),
    "srht-supervised": ("srht-supervised", {"rule": "smallest", "a": 1.0}),
    "srht-supervised-largest": ("srht-supervised", {"rule": "largest", "a": 1.0}),
}

#: Lei & Lan (2020) Table 2: accuracy mean, std (%, 15 runs) and time (s). Keys: dataset -> method.
#: PCA on news20 ran out of memory (None). DLSS is listed for reference only.
PAPER_TABLE2 = {
    "mushrooms": {
        "r": 16,
        "all": (99.85, None, 0.1),
        "pca": (96.23, None, 0.3),
        "dlss": (94.66, None, 0.2),
        "gaussian": (89.15, 3.85, 0.2),
        "achlioptas": (91.74, 2.75, 0.3),
        "countsketch": (89.06, 4.18, 0.3),
        "srht": (92.45, 2.59, 0.3),
        "srht-nps": (94.30, 1.15, 0.4),
        "srht-topr": (94.23, 1.58, 0.4),
        "srht-supervised": (96.25, 1.22, 0.2),
    },
    "usps-b": {
        "r": 16,
        "all": (91.03, None, 2.8),
        "pca": (85.85, None, 0.6),
        "dlss": (80.21, None, 1.0),
        "gaussian": (80.05, 3.33, 1.0),
        "achlioptas": (81.50, 2.28, 0.9),
        "countsketch": (82.09, 2.05, 0.8),
        "srht": (81.87, 1.55, 0.3),
        "srht-nps": (83.34, 1.31, 0.6),
        "srht-topr": (82.91, 1.07, 0.4),
        "srht-supervised": (86.25, 0.81, 0.4),
    },
    "gisette": {
        "r": 256,
        "all": (97.5, None, 3.0),
        "pca": (96.50, None, 3.2),
        "dlss": (93.90, None, 5.8),
        "gaussian": (89.76, 0.56, 5.9),
        "achlioptas": (89.56, 0.65, 7.8),
        "countsketch": (89.65, 0.86, 1.5),
        "srht": (91.77, 0.76, 1.5),
        "srht-nps": (91.17, 0.51, 1.4),
        "srht-topr": (93.20, 0.61, 1.4),
        "srht-supervised": (93.90, 0.72, 1.4),
    },
    "real-sim": {
        "r": 256,
        "all": (97.43, None, 0.1),
        "pca": (93.10, None, 51.0),
        "dlss": (89.89, None, 2.0),
        "gaussian": (76.48, 0.55, 19.0),
        "achlioptas": (76.20, 0.63, 6.3),
        "countsketch": (76.82, 0.45, 2.4),
        "srht": (72.80, 0.23, 23.3),
        "srht-nps": (73.04, 0.51, 24.2),
        "srht-topr": (76.81, 0.46, 18.7),
        "srht-supervised": (80.04, 0.52, 44.3),
    },
    "rcv1-binary": {
        "r": 256,
        "all": (96.43, None, 0.1),
        "pca": (95.05, None, 34.5),
        "dlss": (91.43, None, 1.6),
        "gaussian": (78.90, 0.61, 1.2),
        "achlioptas": (79.03, 1.28, 1.5),
        "countsketch": (79.11, 1.20, 0.2),
        "srht": (79.08, 0.97, 0.5),
        "srht-nps": (79.28, 0.63, 0.6),
        "srht-topr": (82.81, 0.89, 0.6),
        "srht-supervised": (87.81, 0.42, 1.0),
    },
    "news20-binary": {
        "r": 256,
        "all": (96.01, None, 0.3),
        "pca": (None, None, None),
        "dlss": (79.33, None, 9.3),
        "gaussian": (70.10, 0.78, 20.3),
        "achlioptas": (69.29, 0.99, 28.6),
        "countsketch": (70.08, 0.69, 0.6),
        "srht": (70.58, 0.26, 0.7),
        "srht-nps": (70.36, 0.84, 0.9),
        "srht-topr": (73.46, 0.90, 0.9),
        "srht-supervised": (78.33, 0.74, 1.1),
    },
}
_ALIASES = {
    "usps": "usps-b",
    "rcv1": "rcv1-binary",
    "rcv1_train.binary": "rcv1-binary",
    "rcv1.binary": "rcv1-binary",
    "news20": "news20-binary",
    "news20.binary": "news20-binary",
    "gisette_scale": "gisette",
    "real-sim": "real-sim",
    "real_sim": "real-sim",
}


def paper_key(name):
    """The Table 2 key for a data set name (file names such as 'mushrooms', 'gisette_scale.bz2'), or None."""
    base = os.path.basename(str(name)).lower()
    for suf in (".bz2", ".gz", ".txt", ".svm", ".libsvm", ".t", ".tr"):
        if base.endswith(suf):
            base = base[: -len(suf)]
    base = _ALIASES.get(base, base)
    return base if base in PAPER_TABLE2 else None
