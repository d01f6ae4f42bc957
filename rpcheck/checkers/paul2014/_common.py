r"""Shared pieces of the Paul et al. (2014) checkers: citation, constants, certified solver bounds.

Certified intervals from a solver's point (the tolerance of every deterministic inequality)
-----------------------------------------------------------------------------------------------
For the SVC dual (eq. 3) at a returned ``alpha`` we build, independently of the solver's own status:

1. an **exactly dual-feasible** point ``a``: clip to ``[0, C]``, then scale down the larger class so that
   ``y^T a = 0`` holds exactly (scaling down keeps the box); its dual value
   ``D = 1^T a - 1/2 ||G^T Y a||^2`` is a lower bound on ``Z_opt`` (weak duality);
2. an **exactly primal-feasible** point: ``w = G^T Y a``, the solver's ``b``, ``xi = (1 - y(Gw + b))_+``
   (soft margin, ``P = 1/2||w||^2 + C 1^T xi``), or, for the hard margin, ``(w, b)/m`` with
   ``m = min_i y_i (w^T g_i + b) > 0`` (``P = 1/2||w||^2/m^2``); ``P >= Z_opt``.

So ``Z_opt in [D, P]`` and ``g = P - D >= P - P_opt``. The primal is ``1/2||w||^2`` plus terms linear in
``(b, xi)`` over a convex set, hence 1-strongly convex in ``w``: ``1/2 ||w_p - w*||^2 <= P - P_opt <= g``,
so ``||w*|| in [||w_p|| - sqrt(2g), ||w_p|| + sqrt(2g)]``. ``w*`` is unique, so the derived quantities
``sum alpha* = Z_opt + 1/2||w*||^2`` and ``C||xi*||_1 = Z_opt - 1/2||w*||^2`` are well defined and get
intervals too. A claimed inequality is counted as violated only when the intervals **certify** it
(e.g. ``gamma~^2 >= (1-e) gamma^2`` fails only if ``lower(||w*||^2) > upper(||w~*||^2) / (1-e)`` ... in the
direction that is stated per variant). Rounding: every value is a sum of at most ``n d`` products, so its
floating-point error is below ``n d u`` times the sum of absolute terms (``u = 2^-53``); ``FP_REL = 1e-10``
relative to the scale of the compared quantities covers this for every size used (``n d <= 1e6``).

An instance is **degenerate** (counted in the diagnostics, reported, and made vacuous, never silently
dropped) when ``||w_p||^2 < W_MIN`` or the certified relative error ``sqrt(2g)/||w_p||`` exceeds
``DEGENERATE_REL``: then the solver's point cannot resolve the margin (a spurious violation at ``||w||^2 ~ 1e-9`` was seen in development).

The same construction is used for the SVR dual (eq. 2; ``sum a = 0`` enforced by scaling the larger of
the positive and negative parts) with ``P = 1/2||w||^2 + C sum (|y - Gw - b| - eps)_+`` and
``D = y^T a - eps ||a||_1 - 1/2 ||G^T a||^2``, and for the enclosing ball the solver's own certificate
``B^2 in [dual_value, radius_sq]`` (``rpcheck.svm.BallResult``).
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Citation, Constraint, Param

__all__ = [
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
]

AUTHORS = "Saurabh Paul, Christos Boutsidis, Malik Magdon-Ismail, Petros Drineas"
TITLE = "Random Projections for Linear Support Vector Machines"
VENUE = "ACM TKDD 8(4):22, 2014; arXiv:1211.6085v5"

#: arXiv PDF numbering -> TKDD (LaTeX copy) numbering (the arXiv v5 PDF and the TKDD version number lemmas and theorems differently).
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

#: Relative floating-point allowance (see the module docstring).
FP_REL = 1e-10
#: Below this ||w||^2 an instance is degenerate (a spurious violation was seen at 1e-9 in development).
W_MIN = 1e-8
#: Certified relative error of ||w|| above which an instance is degenerate.
DEGENERATE_REL = 0.05

#: The O(.) constants used at every profile, per construction (``r = ceil(c f)``, f from eqs. 7-10).
#: How they were chosen: from reference quantiles measured in development (rho=10, d=1024, incoherent V, 200 draws:
#: q95(e) = 0.87/0.59/0.42/0.28 at r = 80/160/320/640) and the Marchenko-Pastur rule e ~ 2 sqrt(rho/r) +
#: rho/r. For eps = 1/2 the q95 condition needs r ~ 25 rho; the constants put r at about 30-40 rho for
#: eps = 1/2 at delta = 0.1, i.e. about 1.5x the r at which the q95 reaches eps, so that a cell is
#: decided HOLDS with the ci trial counts. They were fixed BEFORE the theorem tests were run and are
#: the same for incoherent and coherent row spaces (the coherent cells are expected VIOLATED for
#: CountSketch and Li-sparse at these constants: paul2014.c2). The engine's constant search reports the
#: smallest working constant per construction.
#: CW/CountSketch: the constant 0.05 was a judgement (raised from 0.035 after an INCONCLUSIVE ci cell;
#: the engine's find_constant measured an implied constant of 0.023), so NO expected verdict rests on it any
#: more: the Lemma 3.3 cells and the CW/CountSketch "theory" cells of Thms 3.6 and 1.1 use the derived
#: sufficient r = ceil((rho^2 + rho)/(eps^2 delta)) of
#: :func:`rpcheck.bounds.paul2014.sparse_embedding_markov_r` (second moment + Markov, valid for every V);
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


class Interval:
    """A closed interval ``[lo, hi]`` certified to contain an exact quantity."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo = float(lo)
        self.hi = float(hi)

    def __repr__(self):
        return f"Interval({self.lo!r}, {self.hi!r})"

    @property
    def mid(self):
        return 0.5 * (self.lo + self.hi)

    def scale(self, c):
        """``c * [lo, hi]`` for ``c >= 0``."""
        return Interval(c * self.lo, c * self.hi)


def distortion(V, sketch):
    """Measured ``e = ||I - (V^T R)(V^T R)^T||_2`` (the quantity of Lemmas 3.1-3.4), from ``V^T R = sketch.apply(V^T)``."""
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


def _balance(a, pos, neg):
    """Scale down the heavier of the index sets ``pos``/``neg`` so their sums agree exactly."""
    sp_, sn_ = a[pos].sum(), a[neg].sum()
    if sp_ > sn_ and sp_ > 0:
        a[pos] *= sn_ / sp_
    elif sn_ > sp_ and sn_ > 0:
        a[neg] *= sp_ / sn_
    return a


def _w_interval(wp_norm, g, scale):
    s = math.sqrt(2.0 * max(g, 0.0) + FP_REL * scale)
    return Interval(max(wp_norm - s, 0.0), wp_norm + s), s


def svc_bounds(G, y, C, alpha, b):
    """Certified bounds for the SVC dual (eq. 3 / eq. 5) at a solver point (see the module docstring).

    Parameters
    ----------
    G : ndarray of shape (n, k)
        The data the dual was solved for (``X``, a factor ``G`` with ``G G^T = X X^T``, or ``X R``).
    y : ndarray of shape (n,)
    C : float
        ``np.inf`` for the hard margin.
    alpha : ndarray of shape (n,)
    b : float

    Returns
    -------
    dict
        ``Z`` (Interval for Z_opt), ``wsq`` (||w*||^2), ``sum_alpha`` (sum alpha*), ``slack_term``
        (C ||xi*||_1), ``gap`` (P - D), ``w_norm_sq`` (||w_p||^2 at the certified primal point),
        ``degenerate`` (bool), ``a`` (the exactly feasible dual point) and ``w`` (its ``G^T Y a``).
    """
    G = np.asarray(G, dtype=float)
    y = np.asarray(y, dtype=float)
    a = np.clip(np.asarray(alpha, dtype=float), 0.0, C)
    a = _balance(a, y > 0, y < 0)
    w = G.T @ (y * a)
    wsq = float(w @ w)
    D = float(a.sum() - 0.5 * wsq)
    m = y * (G @ w + b)
    if np.isinf(C):
        mmin = float(m.min()) if m.size else 0.0
        if mmin <= 0:
            P = math.inf
            wp_sq = wsq
        else:
            wp_sq = wsq / mmin**2
            P = 0.5 * wp_sq
        slack_sum = 0.0
    else:
        xi = np.maximum(0.0, 1.0 - m)
        slack_sum = float(xi.sum())
        P = 0.5 * wsq + C * slack_sum
        wp_sq = wsq
    scale = abs(D) + (abs(P) if math.isfinite(P) else 0.0) + float(a.sum()) + wsq + 1.0
    g = P - D
    fp = FP_REL * scale
    if not math.isfinite(g):
        wint = Interval(0.0, math.inf)
        s = math.inf
    else:
        wint, s = _w_interval(math.sqrt(wp_sq), g, scale)
    Z = Interval(D - fp, P + fp)
    wsq_int = Interval(wint.lo**2, wint.hi**2)
    degenerate = bool(wp_sq < W_MIN or not math.isfinite(s) or s > DEGENERATE_REL * math.sqrt(wp_sq))
    return {
        "Z": Z,
        "wsq": wsq_int,
        "sum_alpha": Interval(Z.lo + 0.5 * wsq_int.lo, Z.hi + 0.5 * wsq_int.hi),
        "slack_term": Interval(Z.lo - 0.5 * wsq_int.hi, Z.hi - 0.5 * wsq_int.lo),
        "gap": float(g),
        "w_norm_sq": float(wp_sq),
        "alpha_sum": float(a.sum()),
        "degenerate": degenerate,
        "a": a,
        "w": w,
        "fp": fp,
    }


def svr_bounds(G, y, C, epsilon, alpha, b):
    """Certified bounds for the SVR dual (eq. 2 with ``epsilon``; eq. 4 is eq. 2 with ``epsilon = 0``).

    Returns a dict with ``Z``, ``wsq``, ``gap``, ``w_norm_sq``, ``degenerate``, ``a``, ``w`` as in
    :func:`svc_bounds`.
    """
    G = np.asarray(G, dtype=float)
    y = np.asarray(y, dtype=float)
    a = np.clip(np.asarray(alpha, dtype=float), -C, C)
    pos, neg = a > 0, a < 0
    # scale the heavier signed part so that sum(a) = 0 exactly (keeps |a_i| <= C)
    sp_, sn_ = a[pos].sum(), -a[neg].sum()
    if sp_ > sn_ and sp_ > 0:
        a[pos] *= sn_ / sp_
    elif sn_ > sp_ and sn_ > 0:
        a[neg] *= sp_ / sn_
    w = G.T @ a
    wsq = float(w @ w)
    D = float(y @ a - epsilon * np.abs(a).sum() - 0.5 * wsq)
    resid = np.abs(y - G @ w - b)
    P = 0.5 * wsq + C * float(np.maximum(0.0, resid - epsilon).sum())
    scale = abs(D) + abs(P) + wsq + float(np.abs(y) @ np.abs(a)) + 1.0
    g = P - D
    fp = FP_REL * scale
    wint, s = _w_interval(math.sqrt(wsq), g, scale)
    return {
        "Z": Interval(D - fp, P + fp),
        "wsq": Interval(wint.lo**2, wint.hi**2),
        "gap": float(g),
        "w_norm_sq": wsq,
        "degenerate": bool(wsq < W_MIN or s > DEGENERATE_REL * math.sqrt(wsq)),
        "a": a,
        "w": w,
        "fp": fp,
    }


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
    "rho": Param("int", low=1, doc="rank of X / columns of V"),
    "d": Param("int", low=1, doc="number of features"),
    "n": Param("int", low=2, doc="number of points"),
    "r": Param("int", low=1, doc="target dimension"),
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

