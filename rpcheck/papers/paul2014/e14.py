r"""Margin semantics for the soft margin in Paul et al. (2014): gamma = 1/||w|| is the margin WIDTH.

Statement as printed (arXiv v5 Theorem 3.5 = TKDD Theorem 3.9; eqs. (3), (5))
    "Let gamma* and gamma~* be the margins of (3) and (5). Then gamma~*^2 >= (1 - eps) gamma*^2", with the
    margin defined (Sec. 1.1) as gamma* = 1/||w*||_2 for the soft-margin problem (3) (C finite, "the general
    non-separable case"). The paper never says how gamma was read off LIBSVM/LIBLINEAR in Sec. 4.

Two readings of "margin" for a soft-margin solution (w, b):
    width      gamma_w = 1/||w||                                (the paper's definition)
    geometric  gamma_g = min_i y_i (w^T x_i + b) / ||w||          (the usual meaning of "margin" of a classifier)

Derivation (ours, not in the paper). If the data are not linearly separable with a bias, then EVERY
hyperplane (w, b), w != 0, has gamma_g <= 0: otherwise y_i (w^T x_i + b) > 0 for all i, and dividing by
the smallest value gives y_i (w'^T x_i + b') >= 1, a separation. Non-separability is certified by the
Farkas alternative of the separation LP {y_i (w^T x_i + b) >= 1}: lambda >= 0 with 1^T lambda = 1,
X^T Y lambda = 0 and y^T lambda = 0 (found with scipy's HiGHS LP). For any (w, b), since lambda is a
probability vector, ``min_i m_i <= sum_i lambda_i m_i = (w^T r_1 + b r_2)/||w||`` with ``m_i = y_i (w^T x_i +
b)/||w||`` and the LP residuals ``r_1 = X^T Y lambda``, ``r_2 = y^T lambda`` (zero in exact arithmetic), so

    gamma_g <= t := ||r_1|| + |b| |r_2| / ||w||    (plus a 1e-10 relative rounding allowance),

a tolerance that comes from the LP certificate alone. The same lambda certifies that the projected data
XR are not separable either (``(XR)^T Y lambda = R^T r_1``: a hyperplane u of XR is the hyperplane R u of X),
so gamma~_g <= ||R^T r_1|| + |b~| |r_2| / ||w~|| for the projected soft-margin solution, for every R.

Consequence: read with gamma_g, Thm 3.5 compares two non-positive numbers; "gamma~^2 >= (1 - eps) gamma^2"
then says the projected classifier misclassifies at least sqrt(1 - eps) times as deeply, and the sign-keeping
form gamma~ >= sqrt(1 - eps) gamma says the opposite (both hold only at equality). Neither is a margin
preservation, and the proof (eqs. (18)-(21), ||w*||^2 = sum_i alpha*_i) only ever handles ||w||: the intended
statement is the width reading.

Per trial: a low-rank soft instance (``classification_instance(..., "soft")``: separable data with 15% of
the labels flipped), the non-separability LP, the exact soft-margin SVM (eq. (3), ``solve_svc``, KKT-
certified) with C = 1 on X and on XR (Gaussian R, entries N(0, 1/r)), the measured e = ||E||_2; and a
separable instance (``"hard"``, margin 0.5) with C = 1000 for the control.

========================================== ================================================ ==============
variant                                    per-trial event                                  expected
========================================== ================================================ ==============
``geometric_nonpositive``                  gamma_g <= t on X (LP-certified non-separable)    HOLDS
``projected_geometric_nonpositive``        gamma~_g <= t~ on XR (same lambda)                 HOLDS
``separable_control``                      the same check on the separable instance           VIOLATED
``thm35_width``                            gamma~_w^2 >= (1 - e) gamma_w^2                    measured
``thm35_geometric_squared``                gamma~_g^2 >= (1 - e) gamma_g^2                    measured
``thm35_geometric_signed``                 gamma~_g >= sqrt(1 - e) gamma_g                    measured
========================================== ================================================ ==============

Derivations of the expected verdicts. ``geometric_nonpositive`` and ``projected_geometric_nonpositive``:
the inequality above, for every draw whose LP certifies non-separability (a draw whose LP finds a
separation is vacuous; HOLDS needs >= 90 evaluated draws: quick and ci run 110, of which about 2% were
separable in development, seed 0: 2 of 90). ``separable_control``
(role control, the same event function with t = 0, no certificate): the "hard" instance is separable with
geometric margin >= 0.5 by construction, so the hard-margin solution has ||w|| <= 2 and sum alpha = ||w||^2
<= 4 < C = 1000; the C = 1000 soft-margin optimum is that hard-margin solution, with gamma_g = 1/||w|| >=
0.5 > 0: the check fails on every draw (VIOLATED), so a check gone weak is caught. The three ``thm35_*``
rows are measurements (role measurement; vacuous when e >= 1): ``decide`` reports how often each reading
holds. The width reading on soft-margin data is the open question of ``paul2014.thm3.5`` (no violation
found there); the geometric readings are measured to show how they behave, not claimed.

Measured (``standard``, seed 7; r = 50, 100, 200, about 196 non-separable draws each): width reading held in
every draw; squared geometric reading in 192/194, 197/197, 193/196; signed geometric reading in 2/194,
0/197, 3/196 (the projected classifier misclassifies about as deeply: median gamma_g -1.73, projected -1.67
at r = 100).
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ..._validation import check_labels, check_matrix
from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...errors import RpcheckError
from ...sketches import make_sketch
from ._common import FP_REL, P, cite, distortion, rho_le
from ._data import classification_instance

__all__ = ["THEOREM", "trial", "decide", "nonseparability_certificate", "geometric_margin"]

C_SOFT = 1.0
C_HARD = 1000.0
READINGS = ("thm35_width", "thm35_geometric_squared", "thm35_geometric_signed")


def nonseparability_certificate(G, y):
    """Farkas certificate that ``{y_i (w^T g_i + b) >= 1}`` is infeasible: lambda >= 0, 1^T lambda = 1,
    G^T Y lambda = 0, y^T lambda = 0 (HiGHS LP). Returns lambda, or None when the LP is infeasible (the
    data are separable) or fails."""
    from scipy.optimize import linprog

    G = np.asarray(check_matrix("G", G, allow_sparse=False), dtype=float)
    y = check_labels("y", y, n=G.shape[0])
    n, k = G.shape
    A = np.vstack([(G * y[:, None]).T, y[None, :], np.ones((1, n))])
    rhs = np.zeros(k + 2)
    rhs[-1] = 1.0
    res = linprog(np.zeros(n), A_eq=A, b_eq=rhs, bounds=[(0, None)] * n, method="highs")
    if res.status != 0:
        return None
    lam = np.clip(res.x, 0.0, None)
    s = lam.sum()
    return lam / s if s > 0 else None


def geometric_margin(G, y, w, b):
    """``min_i y_i (w^T g_i + b) / ||w||`` and the per-point values (``w != 0``)."""
    G = check_matrix("G", G, allow_sparse=False)
    y = check_labels("y", y, n=G.shape[0])
    w = np.asarray(check_matrix("w", w, allow_sparse=False, ndim=1), dtype=float)
    if w.shape[0] != G.shape[1] or not np.linalg.norm(w) > 0:
        raise RpcheckError(f"`w` must be a nonzero vector of length {G.shape[1]} (columns of G); got shape {w.shape}.")
    m = y * (G @ w + b) / np.linalg.norm(w)
    return float(m.min()), m


def _nonpositive(G, y, w, b, lam):
    """The check ``gamma_g <= t`` with t from the certificate ``lam`` (t = 0 when ``lam`` is None)."""
    nw = float(np.linalg.norm(w))
    if not nw > 0:
        return Outcome(True, vacuous=True), math.nan
    gm, m = geometric_margin(G, y, w, b)
    t = 0.0
    if lam is not None:
        r1 = np.asarray(G).T @ (y * lam)
        t = float(np.linalg.norm(r1) + abs(b) * abs(float(y @ lam)) / nw)
    t += FP_REL * (float(np.abs(m).max()) + 1.0)
    return Outcome(bool(gm <= t), gm, t), gm


@single_threaded
def trial(params, rng):
    from ...svm import solve_svc

    n, d, rho, r = params["n"], params["d"], params["rho"], params["r"]
    X, y, Z, V = classification_instance(n, d, rho, "soft", rng=rng)
    sk = make_sketch("gaussian", d, r, rng=rng)
    e = distortion(V, sk)
    XR = np.asarray(sk.apply(X))
    lam = nonseparability_certificate(Z, y)  # X X^T = Z Z^T and X^T Y lam = V Z^T Y lam: same certificate
    s = solve_svc(Z, y, C_SOFT)
    st = solve_svc(XR, y, C_SOFT)
    out, diag = {}, {"e": e, "separable": float(lam is None)}
    if lam is None:
        out["geometric_nonpositive"] = Outcome(True, vacuous=True)
        out["projected_geometric_nonpositive"] = Outcome(True, vacuous=True)
        gm = gmt = math.nan
    else:
        out["geometric_nonpositive"], gm = _nonpositive(Z, y, s.w, s.b, lam)
        out["projected_geometric_nonpositive"], gmt = _nonpositive(XR, y, st.w, st.b, lam)
    # control: the separable instance, C = 1000, the same check with no certificate (t = rounding only)
    Xh, yh, Zh, _ = classification_instance(n, d, rho, "hard", rng=rng)
    sh = solve_svc(Zh, yh, C_HARD)
    out["separable_control"], gmh = _nonpositive(Zh, yh, sh.w, sh.b, None)
    ww, wwt = s.w_norm_sq, st.w_norm_sq
    vac = e >= 1 or not (ww > 0 and wwt > 0)
    ratio_w = ww / wwt if not vac else math.nan
    out["thm35_width"] = Outcome(bool(not vac and ratio_w >= 1 - e), 1 - e, ratio_w, vacuous=vac)
    vac_g = vac or lam is None
    if vac_g:
        out["thm35_geometric_squared"] = Outcome(True, vacuous=True)
        out["thm35_geometric_signed"] = Outcome(True, vacuous=True)
    else:
        out["thm35_geometric_squared"] = Outcome(bool(gmt**2 >= (1 - e) * gm**2), (1 - e) * gm**2, gmt**2)
        out["thm35_geometric_signed"] = Outcome(bool(gmt >= math.sqrt(1 - e) * gm), math.sqrt(1 - e) * gm, gmt)
    diag.update(
        {
            "gamma_width": 1 / math.sqrt(ww) if ww > 0 else math.nan,
            "gamma_width_proj": 1 / math.sqrt(wwt) if wwt > 0 else math.nan,
            "gamma_geometric": gm,
            "gamma_geometric_proj": gmt,
            "gamma_geometric_separable": gmh,
            "misclassified_frac": float(np.mean(y * (Z @ s.w + s.b) <= 0)),
            "max_alpha_separable": float(np.max(sh.alpha)),
        }
    )
    return TrialRecord(outcomes=out, diagnostics=diag)


def decide(records, params):
    """Measurements only: how often each reading of Thm 3.5 holds (non-vacuous draws), and the margins."""
    info = {"protocol": f"{len(records)} soft instances n={params['n']}, d={params['d']}, rho={params['rho']}, "
            f"Gaussian R with r={params['r']}, C = {C_SOFT:g} (eq. (3), solve_svc)"}  # fmt: skip
    for v in READINGS:
        oc = [rec.outcomes[v] for rec in records if v in rec.outcomes and not rec.outcomes[v].vacuous]
        info[v] = {"holds": int(sum(o.holds for o in oc)), "evaluated": len(oc),
                   "fraction": float(np.mean([o.holds for o in oc])) if oc else math.nan}  # fmt: skip
    for k in ("gamma_width", "gamma_width_proj", "gamma_geometric", "gamma_geometric_proj", "e"):
        vals = np.array([rec.diagnostics.get(k, math.nan) for rec in records], dtype=float)
        info[f"median_{k}"] = float(np.nanmedian(vals)) if np.isfinite(vals).any() else math.nan
    return {}, info


_M = dict(mode="report", expected=None, role="measurement")
_CELL = {"n": 40, "d": 200, "rho": 5}

THEOREM = register(
    Theorem(
        id="paul2014.e14",
        paper="paul2014",
        title="Margin semantics, soft margin: gamma = 1/||w|| is the width; the geometric margin is <= 0 on "
        "non-separable data, so Thm 3.5 cannot mean it",
        citation=cite("Theorem 3.5", "(3), (5)"),
        statement="gamma~*^2 >= (1 - eps) gamma*^2 for the margins of (3) and (5), gamma* = 1/||w*||; read with "
        "the geometric margin min_i y_i(w^T x_i + b)/||w|| instead, both sides are <= 0 whenever the data "
        "are not linearly separable.",
        kind="deterministic",
        variants=(
            Variant("geometric_nonpositive", "min_i y_i(w^T x_i + b)/||w|| <= t (LP certificate) for the soft-margin "
                    "SVM on X, C = 1", expected=Verdict.HOLDS),
            Variant("projected_geometric_nonpositive", "the same on XR with the same certificate lambda",
                    expected=Verdict.HOLDS),
            Variant("separable_control", "the same check on separable data (geometric margin >= 0.5 by "
                    "construction), C = 1000 (negative control)", expected=Verdict.VIOLATED, role="control",
                    note="Controls both *_nonpositive rows: the same event function, provably positive margin."),
            Variant("thm35_width", "gamma~^2 >= (1 - e) gamma^2 with gamma = 1/||w|| (the paper's reading)", **_M),
            Variant("thm35_geometric_squared", "gamma~^2 >= (1 - e) gamma^2 with the geometric margin", **_M),
            Variant("thm35_geometric_signed", "gamma~ >= sqrt(1 - e) gamma with the (signed) geometric margin", **_M),
        ),
        profiles={
            "quick": Profile(({**_CELL, "r": 100},), trials=110),
            "ci": Profile(({**_CELL, "r": 100},), trials=110),
            "standard": Profile(tuple({**_CELL, "r": r} for r in (50, 100, 200)), trials=200),
            "full": Profile(tuple({"n": 100, "d": 1000, "rho": 10, "r": r} for r in (100, 200, 400)), trials=500),
        },
        trial=trial,
        arrays=(("n", "d"),),  # the data X (memory model: rpcheck.engine.theorem.trial_memory)
        decide=decide,
        parameters={k: P[k] for k in ("n", "d", "rho", "r")},
        constraints=(rho_le("n", "d"),),
        tolerance=FP_REL,
        tolerance_note="t = ||X^T Y lambda|| + |b| |y^T lambda|/||w|| from the LP certificate lambda, plus 1e-10 "
        "relative rounding.",
        findings=(
            Finding(
                "margin-semantics",
                "For the soft margin the paper's gamma = 1/||w|| is the margin width; the geometric margin min_i "
                "y_i(w^T x_i + b)/||w|| is <= 0 on every non-separable data set (LP-certified), for X and for every "
                "projection XR, so Thm 3.5 read with it compares non-positive numbers.",
                evidence_variant="geometric_nonpositive",
                location="Sec. 1.1.1; Theorem 3.5; eqs. (3), (5)",
                quote="The geometric margin, gamma*, of this canonical optimal hyperplane is gamma* = 1/||w*||_2",
                kind="ambiguity",
            ),
        ),
    )
)
