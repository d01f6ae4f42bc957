r"""Theorem 3.7 (margin preservation, SVM regression) of Paul et al. (2014), on both SVR duals.

Statement (arXiv v5 Theorem 3.7 = TKDD Theorem 3.14; duals (2), (4), (6))
    "Let eps be an accuracy parameter and let R satisfy ||E||_2 <= eps. Let gamma* and gamma~* be the
    margins of SVR problems (4) and (6). Then gamma~*^2 >= (1 - eps) gamma*^2", gamma = 1/||w||,
    w = X^T alpha. The proof is "identical to Thm 3.5".

Findings encoded (eqs. (2), (4), (6)): (4)/(6) print ``eps_svr 1^T alpha``, which vanishes on
the feasible set ``1^T alpha = 0``: (4) is the eps_svr = 0 SVR, not (2) (which has ``eps_svr ||alpha||_1``).
The "identical proof" needs ``Z = ||w||^2/2``, true only when every point is inside the tube.

Per trial (low-rank regression data, one R, certified solves of (2) and (4) on X and XR, plus (2) at
eps_svr = 0 on X):

======================== ================================================================ ==============
variant                  event (e measured)                                               expected
======================== ================================================================ ==============
``correct_stated``       gamma~^2 >= (1 - e) gamma^2, dual (2)                            HOLDS / open
``correct_proof``        gamma~^2 >= ((1-2e)/(1-e)) gamma^2, dual (2)                     HOLDS / open
``printed_stated``       gamma~^2 >= (1 - e) gamma^2, duals (4)/(6) as printed            open (reported)
``printed_eps_vanishes`` w of (4) at eps_svr equals w of (2) at eps_svr = 0               HOLDS
``printed_equals_eq2``   w of (4) equals w of (2) at the same eps_svr                     VIOLATED
``correct_slack``        ||w~*||^2 <= ||w||^2/(1 - e) + 2 C ||xi||_1, dual (2) (derived)   HOLDS / HOLDS
======================== ================================================================ ==============

``correct_slack`` (derived, ours): for ANY primal point (w, b) of (2) on X with w in the row space and slacks
xi, ``u = R^T V (V^T R R^T V)^{-1} V^T w`` has ``(XR) u = X w`` and ``||u||^2 <= ||w||^2/(1 - e)`` (e < 1), so
(u, b) is feasible on XR with the same slacks and ``||w~*||^2 <= 2 Z~* <= ||w||^2/(1 - e) + 2 C ||xi||_1``;
evaluated at the certified primal point of the full solve (:func:`._common.svr_slack_bound`), vacuous for
e >= 1. With xi = 0 (the tube regime) it is the stated bound; in the soft regime it is the version that
holds. Its control ``slack_control`` compares the certified lower bound of ||w~*||^2 with half itself.
Measured (``standard``, seed 9, 24 cells x 40 draws): 955 evaluated draws, 0 failures (5 vacuous, e >= 1).

Regimes: "tube" = noise uniform in +-eps_svr/2 and C = 1000 (every point inside the tube at the optimum,
the analogue of zero slack, where the primal argument of Thm 3.5 applies); "soft" = Gaussian noise 0.3,
C = 1 (bounded alphas, Z != ||w||^2/2: unproven, reported). The as-printed (4) is the eps = 0 SVR, which
never has all points inside its (zero-width) tube here, so ``printed_stated`` is reported in both.

Tolerances: certified intervals (duality gap of each SVR solve, strong convexity in w, :mod:`._common`);
``w`` of two problems is compared by ``||w_1 - w_2|| <= sqrt(2 g_1) + sqrt(2 g_2)`` plus rounding (the
optimal w of each problem is unique). Vacuous: e >= 1 (e >= 1/2 for the proof form), degenerate w.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...sketches import make_sketch
from ...stats import deterministic_trials
from ._common import (
    FP_REL,
    P,
    certified_ge,
    cite,
    distortion,
    rho_le,
    svr_bounds,
    svr_slack_bound,
    svr_tube_slack,
    violation_artifacts,
)
from ._data import regression_instance
from .bounds import margin_lower_proof, margin_lower_stated
from .embedding import sketch_kwargs

__all__ = ["THEOREM", "trial"]

EPS_SVR = 0.1
REGIMES = {"tube": 1000.0, "soft": 1.0}


def _lower(k, W, Wt, ratio, vac):
    """``gamma~^2 >= k gamma^2`` (``||w*||^2 >= k ||w~*||^2``) on certified intervals, three-valued."""
    if vac:
        return Outcome(True, k, ratio, vacuous=True)
    holds, und = certified_ge(W, Wt.scale(k))
    return Outcome(holds, k, ratio, undetermined=und)


def _same_w(b1, b2):
    """Certified test that two problems have the same optimal w: ||w1 - w2|| <= radius1 + radius2."""
    dist = float(np.linalg.norm(b1["w"] - b2["w"]))
    rad = math.sqrt(2 * max(b1["gap"], 0) + b1["fp"]) + math.sqrt(2 * max(b2["gap"], 0) + b2["fp"])
    rad += FP_REL * (np.linalg.norm(b1["w"]) + np.linalg.norm(b2["w"]) + 1.0)
    return dist, rad


def trial(params, rng):
    from ...svm import solve_svr

    n, d, rho, r = params["n"], params["d"], params["rho"], params["r"]
    C = REGIMES[params["regime"]]
    if params["regime"] == "tube":
        X, y, Z, V = regression_instance(n, d, rho, rng=rng, noise=0.0)
        y = y + rng.uniform(-EPS_SVR / 2, EPS_SVR / 2, size=n)
    else:
        X, y, Z, V = regression_instance(n, d, rho, rng=rng, noise=0.3)
    sk = make_sketch(params["kind"], d, r, rng=rng, **sketch_kwargs(params))
    e = distortion(V, sk)
    XR = np.asarray(sk.apply(X))
    res = {}
    for name, G, eps, form in (
        ("c", Z, EPS_SVR, "correct"),
        ("c_t", XR, EPS_SVR, "correct"),
        ("p", Z, EPS_SVR, "as_printed"),
        ("p_t", XR, EPS_SVR, "as_printed"),
        ("c0", Z, 0.0, "correct"),
    ):
        s = solve_svr(G, y, C, eps, form=form)
        res[name] = (s, svr_bounds(G, y, C, s.epsilon_effective, s.alpha, s.b))
    bc, bct, bp, bpt, bc0 = (res[k][1] for k in ("c", "c_t", "p", "p_t", "c0"))
    deg_c = bc["degenerate"] or bct["degenerate"]
    deg_p = bp["degenerate"] or bpt["degenerate"]
    ratio_c = bc["w_norm_sq"] / bct["w_norm_sq"] if not deg_c else math.nan
    ratio_p = bp["w_norm_sq"] / bpt["w_norm_sq"] if not deg_p else math.nan
    out = {
        "correct_stated": _lower(margin_lower_stated(e), bc["wsq"], bct["wsq"], ratio_c, e >= 1 or deg_c),
        "correct_proof": _lower(margin_lower_proof(e), bc["wsq"], bct["wsq"], ratio_c, e >= 0.5 or deg_c),
        "printed_stated": _lower(margin_lower_stated(e), bp["wsq"], bpt["wsq"], ratio_p, e >= 1 or deg_p),
    }
    if e >= 1:
        out["correct_slack"] = Outcome(True, vacuous=True)
    else:
        lhs, rhs = svr_slack_bound(bc, bct, svr_tube_slack(Z, y, bc["w"], res["c"][0].b, EPS_SVR), C, e)
        out["correct_slack"] = Outcome(bool(lhs <= rhs), lhs, rhs)
    lhs_t = bct["wsq"].lo
    out["slack_control"] = Outcome(bool(lhs_t <= 0.5 * lhs_t), lhs_t, 0.5 * lhs_t, vacuous=not lhs_t > 0)
    dist, rad = _same_w(bp, bc0)
    out["printed_eps_vanishes"] = Outcome(bool(dist <= rad), dist, rad)
    dist2, rad2 = _same_w(bp, bc)
    out["printed_equals_eq2"] = Outcome(bool(dist2 <= rad2), dist2, rad2)
    # Negative controls (role "control", mode "deterministic", expected VIOLATED):
    #   lower_control: _lower with k_c = 2 upper(||w||^2)/lower(||w~||^2) on dual (2): k_c ||w~||^2 >=
    #     2 ||w||^2 > ||w||^2, a certified failure (controls correct_stated, correct_proof);
    #   same_w_control: _same_w of (4)'s w against -w of (2) at eps_svr = 0: ||w + w'|| ~ 2 ||w|| exceeds the
    #     certified radius whenever ||w|| does (controls printed_eps_vanishes).
    if deg_c or not bct["wsq"].lo > 0:
        out["lower_control"] = Outcome(True, vacuous=True)
    else:
        out["lower_control"] = _lower(2.0 * bc["wsq"].hi / bct["wsq"].lo, bc["wsq"], bct["wsq"], ratio_c, False)
    flipped = dict(bc0, w=-bc0["w"])
    dist3, rad3 = _same_w(bp, flipped)
    out["same_w_control"] = Outcome(bool(dist3 <= rad3), dist3, rad3)
    s_c = res["c"][0]
    diags = {
        "e": e,
        "gamma_sq_ratio_eq2": ratio_c,
        "gamma_sq_ratio_eq4": ratio_p,
        "in_tube": float(s_c.in_tube),
        "in_tube_proj": float(res["c_t"][0].in_tube),
        "Z_over_half_wsq": float(s_c.objective / (0.5 * s_c.w_norm_sq)) if s_c.w_norm_sq > 0 else math.nan,
        "w_dist_eq4_vs_eq2": dist2,
        "w_dist_eq4_vs_eq2_eps0": dist,
        "degenerate": float(deg_c or deg_p),
        "max_gap": max(b["gap"] for b in (bc, bct, bp, bpt, bc0)),
    }
    return TrialRecord(
        outcomes=out,
        diagnostics=diags,
        artifacts=violation_artifacts(
            {k: v for k, v in out.items() if k in ("correct_stated", "correct_proof", "printed_eps_vanishes")},
            X=X,
            y=y,
            sketch=sk,
        ),
    )


def _tube_or_open(params):
    return Verdict.HOLDS if params["regime"] == "tube" else None


PROFILES = {
    # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
    # probability >= 0.99, each row holding on every draw); the worst row, correct_proof, was vacuous in 7 of 150 draws
    # of its cell (seed 0; 99% upper bound 0.11).
    "quick": Profile(
        grid(regime=["tube", "soft"], kind="gaussian", n=30, d=256, rho=5, r=128),
        trials=deterministic_trials(0.11),
    ),
    # ci: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
    # probability >= 0.99, each row holding on every draw); the worst row, correct_proof, was vacuous in 58 of 150 draws
    # of its cell (seed 0; 99% upper bound 0.49).
    "ci": Profile(
        grid(regime=["tube", "soft"], kind=["gaussian", "srht"], n=40, d=256, rho=5, r=[64, 128]),
        trials=deterministic_trials(0.49)
    ),  # fmt: skip
    "standard": Profile(
        grid(
            regime=["tube", "soft"],
            kind=["gaussian", "srht", "sign", "countsketch"],
            n=60,
            d=512,
            rho=8,
            r=[64, 128, 256],
        ),
        # Power (standard): a deterministic HOLDS needs >= 90 evaluated draws (rpcheck.stats.DETERMINISTIC_MIN_DRAWS);
        # below 90 draws HOLDS is unattainable; 100 leaves room for vacuous draws.
        trials=100,
    ),  # fmt: skip
    "full": Profile(
        grid(
            regime=["tube", "soft"],
            kind=["gaussian", "srht", "sign", "countsketch"],
            n=165,
            d=4096,
            rho=24,
            r=[256, 512, 1024],
        ),
        trials=100,
    ),  # fmt: skip
}

THEOREM = register(
    Theorem(
        id="paul2014.thm3.7",
        paper="paul2014",
        title="Thm 3.7: SVR margin gamma~^2 >= (1 - e) gamma^2, on the correct dual (2) and as printed (4)",
        citation=cite("Theorem 3.7", "(2), (4), (6)"),
        statement="If ||E||_2 <= eps then gamma~*^2 >= (1 - eps) gamma*^2 for the SVR problems (4) and (6).",
        kind="deterministic",
        variants=(
            Variant("correct_stated", "gamma~^2 >= (1 - e) gamma^2 on dual (2)", expected=_tube_or_open),
            Variant("correct_proof", "gamma~^2 >= ((1-2e)/(1-e)) gamma^2 on dual (2)", expected=_tube_or_open),
            Variant(
                "printed_stated",
                "gamma~^2 >= (1 - e) gamma^2 on duals (4)/(6) as printed",
                expected=None,
                note="(4) is the eps = 0 SVR; Z != ||w||^2/2 without interpolation: unproven, reported.",
            ),
            Variant(
                "printed_eps_vanishes",
                "w of (4) at eps_svr = 0.1 equals w of (2) at eps_svr = 0",
                expected=Verdict.HOLDS,
            ),
            Variant(
                "printed_equals_eq2",
                "w of (4) equals w of (2) at the same eps_svr = 0.1",
                expected=Verdict.VIOLATED,
                note="Expected VIOLATED: the printed eps term vanishes.",
            ),
            Variant(
                "correct_slack",
                "||w~*||^2 <= ||w||^2/(1 - e) + 2 C ||xi||_1 on dual (2), xi the slacks of the full solution (derived)",
                expected=Verdict.HOLDS,
                note="Derived in the module docstring: the full solution mapped into the projected space is "
                "feasible with the same slacks; = the stated bound when xi = 0.",
            ),
            Variant(
                "slack_control",
                "certified lower bound of ||w~*||^2 <= half of itself (negative control of correct_slack)",
                expected=Verdict.VIOLATED,
                role="control",
            ),
            Variant(
                "lower_control",
                "gamma~^2 >= k_c gamma^2 on dual (2), k_c = 2 upper(||w||^2)/lower(||w~||^2) (negative control)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Same event function as correct_stated/correct_proof; provably fails by a factor 2.",
            ),
            Variant(
                "same_w_control",
                "w of (4) equals -w of (2) at eps_svr = 0 (negative control)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Same certified equality test as printed_eps_vanishes, against the negated vector.",
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        arrays=(("n", "d"),),  # the data X (memory model: rpcheck.engine.theorem.trial_memory)
        parameters={k: P[k] for k in ("n", "d", "rho", "r")}
        | {"kind": Param("choice", choices=("gaussian", "srht", "sign", "countsketch"), doc="projection"),
           "regime": Param("choice", choices=tuple(REGIMES), doc="tube: in-tube data, C = 1000; soft: C = 1")},
        constraints=(rho_le("n", "d"),),
        tolerance=FP_REL,
        tolerance_note="Certified SVR intervals (duality gap + strong convexity in w); equality of w via "
        "||w1 - w2|| <= sqrt(2 g1) + sqrt(2 g2).",
        findings=(
            Finding(
                "svr-dual-typo",
                "Eqs. (4)/(6) print eps_svr 1^T alpha, which is 0 under 1^T alpha = 0: the printed dual is the eps = "
                "0 SVR (printed_eps_vanishes HOLDS) and differs from (2) (printed_equals_eq2 VIOLATED).",
                evidence_variant="printed_equals_eq2",
                location="Sec. 1.1.2, eq. (4); Sec. 1.2, eq. (6); eq. (2)",
                quote="max_alpha y^T alpha - eps 1^T alpha - (1/2) alpha^T X X^T alpha subject to 1^T alpha = 0",
                kind="paper error",
            ),
            Finding(
                "svr-proof-regime",
                "The 'identical proof' needs Z = ||w||^2/2, true only when all points are inside the tube; the bound "
                "is checked in that regime (HOLDS) and reported otherwise (diag Z_over_half_wsq).",
                evidence_variant="correct_stated",
                location="Theorem 3.7 and the sentence before it",
                quote="This theorem holds for all four choices of the random projection matrix R in R^{d x r} and is "
                "identical to the proof of Theorem 3.5.",
                kind="proof gap",
            ),
        ),
    )
)
