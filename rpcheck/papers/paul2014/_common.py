"""Shared pieces of the Paul et al. (2014) checkers: citation, constants, parameter domains, helpers.

The certified intervals of the SVC and SVR optima at a solver's point (the tolerance of every
deterministic inequality of these checkers: ``Z_opt in [D, P]``, ``||w*||`` from the duality gap and
strong convexity, the degenerate-instance rule) are built by :mod:`rpcheck.svm.certified`
(:func:`~rpcheck.svm.certified.svc_bounds`, :func:`~rpcheck.svm.certified.svr_bounds`, ``FP_REL``,
``W_MIN``, ``DEGENERATE_REL``, ``Interval``), re-exported here."""

from __future__ import annotations

import math

import numpy as np

from ...engine import Citation, Constraint, Param
from ...sketches import make_sketch
from ...svm.certified import DEGENERATE_REL, FP_REL, W_MIN, Interval, svc_bounds, svr_bounds

__all__ = [
    "PAPER_SKETCH_KINDS",
    "PAPER_METHODS_CONSTRAINT",
    "paper_methods",
    "paper_sketch",
    "stratified_split",
    "AUTHORS",
    "cite",
    "FP_REL",
    "W_MIN",
    "DEGENERATE_REL",
    "CI_CONSTANTS",
    "svc_bounds",
    "svr_bounds",
    "distortion",
    "Interval",
    "violation_artifacts",
    "P",
    "SKETCH_KIND_CHOICES",
    "rho_le",
    "certified_ge",
    "sketch_options",
    "target_dims",
    "cs_test_error",
    "cs_fit",
]

AUTHORS = "Saurabh Paul, Christos Boutsidis, Malik Magdon-Ismail, Petros Drineas"
TITLE = "Random Projections for Linear Support Vector Machines"
VENUE = "ACM TKDD 8(4):22, 2014; arXiv:1211.6085v5"

#: arXiv PDF numbering -> TKDD (LaTeX copy) numbering (the arXiv v5 PDF and the TKDD version number lemmas and theorems
#: differently).
TKDD = {
    "Lemma 3.1": "Lemma 3.1",
    "Lemma 3.2": "Lemma 3.3",
    "Lemma 3.3": "Lemma 3.5",
    "Lemma 3.4": "Lemma 3.7",
    "Theorem 3.5": "Theorem 3.9",
    "Theorem 3.6": "Theorem 3.11",
    "Theorem 3.7": "Theorem 3.14",
    "Theorem 1.1": "Theorem 1.1",
}

#: The O(.) constants used at every profile, per construction (``r = ceil(c f)``, f from eqs. 7-10).
#: r chosen from measurements; not a test of the constant. They serve only the cells that run at a fixed r
#: (the stated rows of Lemmas 3.1, 3.2 and 3.4, the "theory" cells of Thms 3.6 and 1.1), where a HOLDS says
#: that r = ceil(c f) suffices at that cell and nothing about how r must grow with rho, d, eps and delta. The
#: shape of eqs. (7), (9) and (10) is tested by paul2014.shape (:mod:`.shape`), which measures the smallest
#: working constant at both ends of an 8x range of every variable (and starts its searches at these constants).
#: How they were chosen: from reference quantiles measured in development (rho=10, d=1024, incoherent V, 200 draws:
#: q95(e) = 0.87/0.59/0.42/0.28 at r = 80/160/320/640) and the Marchenko-Pastur rule e ~ 2 sqrt(rho/r) +
#: rho/r. For eps = 1/2 the q95 condition needs r ~ 25 rho; the constants put r at about 30-40 rho for
#: eps = 1/2 at delta = 0.1, i.e. about 1.5x the r at which the q95 reaches eps, so that a cell is
#: decided HOLDS with the ci trial counts. They were fixed BEFORE the theorem tests were run and are
#: the same for incoherent and coherent row spaces (the coherent cells are expected VIOLATED for
#: CountSketch and Li-sparse at these constants: paul2014.c2). The engine's constant search reports the
#: smallest working constant per construction.
#: CW/CountSketch: the constant 0.05 is a judgement (the engine's find_constant measures an implied constant of 0.023),
#: so NO expected verdict rests on it: the Lemma 3.3 cells and the CW/CountSketch "theory" cells of Thms 3.6 and 1.1 use
#: the derived
#: sufficient r = ceil((rho^2 + rho)/(eps^2 delta)) of
#: :func:`rpcheck.papers.paul2014.bounds.sparse_embedding_markov_r` (second moment + Markov, valid for every V);
#: the entries below only serve callers that ask for ``c f`` explicitly.
CI_CONSTANTS = {
    "gaussian": 2.0,  # eq. 10: f(10, .5, .1) = 184 -> r = 369
    "sign": 0.6,  # eq. 9: f(10, 1024, .5) = 638 -> r = 383
    "srht": 0.1,  # eq. 7: f(10, 1024, .5, .1) = 3897 -> r = 390
    "cw": 0.05,  # eq. 8: f(10, .5, .1) = 11020 -> r = 551
    "countsketch": 0.05,  # eq. 8 (CountSketch = CW with q = a = 1)
    "sparse": 2.0,  # eq. 10 (no formula printed for Li-sparse)
}


def cite(location, equations=""):
    """Citation of the paper at ``location`` (arXiv PDF numbering) with its TKDD numbering."""
    alt = TKDD.get(location, location)
    return Citation(
        authors=AUTHORS,
        year=2014,
        title=TITLE,
        venue=VENUE,
        location=location + " (arXiv v5)",
        alt_location=alt + " (TKDD)",
        equations=equations,
    )


def distortion(V, sketch):
    """Measured ``e = ||I - (V^T R)(V^T R)^T||_2`` (the quantity of Lemmas 3.1-3.4), from
    ``V^T R = sketch.apply(V^T)``."""
    from ...linalg import embedding_distortion

    VtR = sketch.apply(np.ascontiguousarray(V.T))
    if hasattr(VtR, "toarray"):
        VtR = VtR.toarray()
    return float(embedding_distortion(V, VtR=np.asarray(VtR)))


def violation_artifacts(outcomes, **arrays):
    """The arrays needed to replay a trial, only when some non-vacuous outcome failed (else ``{}``).

    A ``sketch`` keyword is stored as its explicit matrix ``R`` (dense)."""
    if all(o.holds or o.vacuous for o in outcomes.values()):
        return {}
    arts = {}
    for k, v in arrays.items():
        if k == "sketch":
            R = v.matrix()
            arts["R"] = np.asarray(R.toarray() if hasattr(R, "toarray") else R)
        else:
            arts[k] = np.asarray(v.toarray() if hasattr(v, "toarray") else v)
    return arts


# ------------------------------------------------------------------------------------ parameter domains

#: Sketch kinds used by the Paul et al. checkers (the paper's RG = gaussian, RS = sign, FHT = srht,
#: CW = cw / countsketch; Li-sparse = sparse).
SKETCH_KIND_CHOICES = ("gaussian", "sign", "srht", "cw", "countsketch", "sparse")

#: Reusable parameter domains (Theorem.parameters). Probabilities and accuracies follow the paper's
#: ranges: eps in (0, 1) (eq. 8; Lemma 3.1 and Thm 1.1 restrict to (0, 1/2], checked per theorem),
#: delta in (0, 1] (Lemma 3.1 and Thm 3.6 allow delta = 1).
P = {
    "kind": Param("choice", choices=SKETCH_KIND_CHOICES, doc="projection construction"),
    "coherence": Param("choice", choices=("incoherent", "coherent", "spiky", "flat"),
                       doc="row-space class of V: Haar, first rho basis vectors, random basis vectors, "
                           "Haar with the flat direction 1/sqrt(d) as first column"),
    "rho": Param("int", low=1, doc="rank of X / columns of V", size=True),
    "d": Param("int", low=1, doc="number of features", size=True),
    "n": Param("int", low=2, doc="number of points", size=True),
    "r": Param("int", low=1, doc="target dimension", size=True),
    "eps": Param("float", low=0.0, high=1.0, closed="neither", doc="accuracy parameter eps"),
    "eps_half": Param("float", low=0.0, high=0.5, closed="right", doc="accuracy parameter eps in (0, 1/2]"),
    "delta": Param("float", low=0.0, high=1.0, closed="right", doc="failure probability delta"),
    "c": Param("float", low=0.0, closed="neither", doc="O(.) constant of the target dimension, r = ceil(c f)"),
    "q": Param("int", low=1, doc="CW hash buckets"),
    "v": Param("int", low=1, doc="CW rows per sub-block"),
    "a": Param("int", low=1, doc="CW nonzeros per row of R"),
    "density": Param("choice", choices=("li",), doc="Li-sparse density rule"),
    "design": Param("choice", choices=("theory", "small_r"),
                    doc="'theory': r from the lemma formula; 'small_r': a fixed small r"),
}  # fmt: skip


def rho_le(*names, offset=0):
    """Constraint ``rho + offset <= min(names)`` (rank at most the matrix dimensions)."""
    desc = f"rho{' + ' + str(offset) if offset else ''} <= min({', '.join(names)}) (rank bound)"
    return Constraint(desc, lambda p: int(p["rho"]) + offset <= min(int(p[k]) for k in names))


def cw_consistent():
    """Constraint ``r = q v a`` for kind 'cw' (Sec. 2 of the paper)."""
    return Constraint(
        "r = q v a for kind 'cw' (Clarkson-Woodruff construction, Sec. 2)",
        lambda p: p.get("kind") != "cw" or int(p["r"]) == int(p["q"]) * int(p["v"]) * int(p["a"]),
    )


def certified_ge(lhs, rhs, fp=FP_REL):
    """Three-valued certified comparison ``lhs >= rhs`` of two certified intervals.

    Returns ``(holds, undetermined)``: ``(True, False)`` when ``lhs.lo (1 + fp) >= rhs.hi`` (certified to
    hold up to the rounding allowance ``fp``), ``(False, False)`` when ``lhs.hi (1 + fp) < rhs.lo``
    (certified to fail), else ``(False, True)`` (the intervals straddle: undetermined, which counts against
    the verdict tested; :mod:`rpcheck.stats`).
    """
    if lhs.lo * (1 + fp) >= rhs.hi:
        return True, False
    if lhs.hi * (1 + fp) < rhs.lo:
        return False, False
    return False, True


def svr_tube_slack(G, y, w, b, epsilon):
    """``||xi||_1 = sum_i max(0, |y_i - w^T g_i - b| - epsilon)`` of the SVR primal point (w, b)."""
    return float(np.maximum(0.0, np.abs(np.asarray(y) - np.asarray(G) @ w - b) - epsilon).sum())


def svr_slack_bound(full, proj, slack, C, e, e_fp=0.0):
    """The slack-corrected Thm 3.7 bound ``||w~*||^2 <= ||w||^2/(1 - e) + 2 C ||xi||_1`` (derived; see
    :mod:`.regression_tables`): ``full`` is :func:`svr_bounds` of the original problem (its ``w`` is the
    certified primal point, in the row space), ``slack`` that point's ``||xi||_1``, ``proj`` the bounds of
    the projected problem (``||w~*||^2 >= proj["wsq"].lo``). Returns ``(lhs, rhs)``; vacuous when ``e +
    e_fp >= 1`` (the caller checks)."""
    rhs = (full["w_norm_sq"] / (1 - e - e_fp) + 2 * C * slack) * (1 + FP_REL) + full["fp"]
    return proj["wsq"].lo, rhs



def sketch_options(kind):
    """Extra ``make_sketch`` options of the Sec. 4 reproductions (paul2014.repro.synthetic and .bundled): the
    paper's FHT samples with replacement."""
    return {"replace": True} if kind == "srht" else {}


#: The paper's four methods (Sec. 4) -> rpcheck sketch kinds: CW = CountSketch (its (q, v, a) are never given:
#: q = a = 1), RS = random sign, FHT = SRHT (sampled with replacement, :func:`sketch_options`), RG = Gaussian.
PAPER_SKETCH_KINDS = {"CW": "countsketch", "RS": "sign", "FHT": "srht", "RG": "gaussian"}


def paper_methods(params):
    """The comma-separated method names ``params["methods"]`` of a reproduction cell (keys of
    ``PAPER_SKETCH_KINDS``)."""
    return str(params["methods"]).split(",")


#: The domain of a reproduction cell's ``methods`` parameter.
PAPER_METHODS_CONSTRAINT = Constraint(
    "methods among CW, RS, FHT, RG", lambda p: set(paper_methods(p)) <= set(PAPER_SKETCH_KINDS)
)


def paper_sketch(method, d, r, rng):
    """The sketch of the paper's method ``method`` (CW, RS, FHT, RG) from ``d`` to ``r`` dimensions."""
    kind = PAPER_SKETCH_KINDS[method]
    return make_sketch(kind, d, r, rng=rng, **sketch_options(kind))


def target_dims(params):
    """The comma-separated target dimensions ``params["rs"]`` of a reproduction cell, as ints."""
    return [int(v) for v in str(params["rs"]).split(",")]


#: The domain of a reproduction cell's ``rs`` parameter (target dimensions at most the data's width ``d``).
RS_IN_D = Constraint("rs: comma-separated ints in [1, d]", lambda p: all(1 <= r <= int(p["d"]) for r in target_dims(p)))


def stratified_split(y, rng):
    """Stratified 2/3 : 1/3 train/test split of the labels ``y`` (every class in the training part), as the
    paper's Sec. 4 experiments split their data; returns sorted index arrays ``(train, test)``."""
    tr, te = [], []
    for c in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == c))
        k = max(1, int(round(2 * idx.size / 3)))
        tr.append(idx[:k])
        te.append(idx[k:])
    return np.sort(np.concatenate(tr)), np.sort(np.concatenate(te))


def cs_test_error(Ztr, ytr, Zte, yte, C):
    """Certified Crammer-Singer fit (``rpcheck.svm.solve_crammer_singer``, LIBLINEAR ``-s 4``'s problem, no bias)
    on ``(Ztr, ytr)``; returns the test error (%) of its labels on ``(Zte, yte)`` and the fraction of test
    predictions the certificate leaves undetermined: top-two score difference at most ``sqrt(2) ||x||`` times
    the certified bound on ``||W - W*||_F`` (each score difference ``w_a^T x - w_b^T x`` moves by at most
    ``||(w_a - w_a*) - (w_b - w_b*)|| ||x|| <= sqrt(2) ||W - W*||_F ||x||``). ``Ztr`` and ``Zte`` may be sparse:
    the solver keeps a sparse ``Ztr`` CSR (epochs in O(K nnz)); dense projected rows stay dense."""
    _, err, und = cs_fit(Ztr, ytr, Zte, yte, C)
    return err, und


def cs_fit(Ztr, ytr, Zte, yte, C, max_iter=None):
    """:func:`cs_test_error` that also returns the certified fit: ``(res, test error %, undetermined fraction)``
    with ``res`` the :class:`rpcheck.svm.MulticlassResult` (for training-set predictions and the primal);
    ``max_iter``: the solver's epoch cap (None: its default), not its certificate."""
    import scipy.sparse as sp

    from ...svm import solve_crammer_singer

    res = (solve_crammer_singer(Ztr, ytr, C) if max_iter is None
           else solve_crammer_singer(Ztr, ytr, C, max_iter=max_iter))
    S = np.asarray(Zte @ res.W.T)
    pred = res.classes[np.argmax(S, axis=1)]
    top2 = np.sort(S, axis=1)[:, -2:]
    xn = np.sqrt(np.asarray(Zte.multiply(Zte).sum(axis=1)).ravel()) if sp.issparse(Zte) else np.linalg.norm(Zte, axis=1)
    unc = math.sqrt(2.0) * xn * res.w_error_bound
    return res, 100.0 * float(np.mean(pred != yte)), float(np.mean(top2[:, 1] - top2[:, 0] <= unc))


def mean_se(v):
    """Mean and standard error of the finite entries of ``v`` (se None from one value; NaN mean from none)."""
    v = np.asarray(v, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return math.nan, None
    return float(v.mean()), (float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else None)

