r"""Theorem 2 of Zhang et al. (2013) for the smooth classification losses: logistic, squared hinge, smoothed hinge.

Statement as printed (Theorem 2; form [T], range/probability/constant [R]; the loss class of (1) [T])
    Problem (1): ``min_w (lambda/2)||w||^2 + sum_i l(y_i x_i^T w)`` with ``l`` "a convex loss function that
    is differentiable" (Section 2). ``wtilde`` the output of Algorithm 1. For any ``0 < eps <= 1/2`` [R],
    with probability at least ``1 - delta`` [R], ``||wtilde - w*||_2 <= eps/(1 - eps) ||w*||_2`` provided
    ``m >= (r + 1) log(2r/delta)/(c eps^2)``, ``c = 1/4`` [R], ``r = rank(X)``.

Conditions per loss. Theorem 2 (low rank) needs only a convex, differentiable ``l``: its proof
(Section 5.1, (19)-(21)) uses the concavity of ``-l*`` (any convex ``l``), the optimality of ``alpha*`` and
``alphahat*`` over the same domain ``Omega^n``, and Prop. 2 (differentiability, to read ``alphahat*`` off the
primal, eq. (9)). Logistic (``Omega = [-1, 0]``), squared hinge (``(-inf, 0]``) and the Shalev-Shwartz-Zhang
smoothed hinge (``[-1, 0]``, parameter ``mu``) are all convex and differentiable: **every condition is met**,
with no smoothness constant involved. (Smoothness, ``gamma = 1/4, 1, 1/mu``, enters only Theorem 6, the
full-rank case, whose further assumption that ``w*`` lies in the span of the top-``k`` singular vectors cannot
be arranged for classification losses on generic data; Theorem 6 is checked on the square loss with
regression targets in ``zhang2013.thm6`` and is not extended here.)

Protocol (one trial): exact-rank data ``X = U diag(s) V^T`` (n x d, rank r, condition 10) with noisy labels
(``_common.make_instance``), Gaussian ``R`` (``E[R R^T] = I``, the paper's ``R/sqrt(m)``) with Cor. 7's ``m``
at ``c = 1/4``; ``w*`` from :func:`rpcheck.svm.solve_erm` on the factor ``Z = X V`` and Algorithm 1 from
:func:`rpcheck.svm.drp.drp` on ``(Z, V^T R)`` (projected primal (6) by certified Newton, dual (9), recovery
(12)), both certified by their duality gaps ``eta`` (a rigorous bound on the primal suboptimality including a
rounding allowance; :mod:`rpcheck.svm.erm`). By ``lambda``-strong convexity the exact ``w*`` is within
``sqrt(2 eta_full/lambda)`` of the computed one and ``wtilde`` within ``sqrt(2 eta_proj/lambda)/sqrt(1 -
eps_R)`` (``z = A^T wtilde``, Prop. 2), so ``rel = ||wtilde - w*||/||w*||`` of the exact optima lies in a
certified interval (``_recovery.Draw``); a draw whose interval straddles a bound is undetermined. The
measured duality gaps are ~1e-15 or smaller, so no draw straddles in practice.

Variants (every Outcome reads ``statistic <= bound``)
-----------------------------------------------------
``stated`` (claim, bound, promised ``delta``): ``rel <= eps/(1 - eps)`` at Cor. 7's ``m``. Expected verdict
derived by ``_common.derived_stated``: the per-draw form below implies the event whenever ``eps_R <= eps``, so
``P(fail) <= P(eps_R > eps) <= cor7_failure_upper(r, m, eps)`` (matrix Laplace bound): 0.077 (quick,
r = 2, m = 100), 0.053 (ci, r = 3, m = 160), 0.0022 (standard, r = 5, m = 443), both against
``delta = 1/2`` at 90 trials; the exact support power at the row level 0.01/500 is > 0.9999 (quick, ci,
standard): expected HOLDS. Full (delta = 0.01, r = 10, m = 1,338): P(fail) <= 2.3e-5, 1,600 trials
(``_common.FULL_TRIALS``; at 500, HOLDS is unattainable), support power 1.000: expected HOLDS.

``per_draw`` (claim [D], deterministic): ``rel <= eps_R/(1 - eps_R)`` for every draw with
``eps_R = ||V^T R R^T V - I|| < 1`` (vacuous otherwise). Derivation: (19)-(21) hold for any ``R`` and any
convex differentiable loss, and (21) with ``||A A^T/m - I|| = eps_R`` gives ``(1 - eps_R)||gammatilde -
gamma*|| <= eps_R ||gamma*||``, i.e. the bound with (18). Expected HOLDS; every profile has >= 90 trials per
cell (``stats``: deterministic HOLDS needs 90 clean draws). At Cor. 7's ``m`` with ``c = 1/4`` ``eps_R < 1``
in practice (``P(eps_R >= 1) <= cor7_failure_upper(r, m, 1)``, below 1e-4 in every cell).

``naive_per_draw`` (control, deterministic, expected VIOLATED): the same per-draw bound for the naive solution
(10) ``what = R z`` (the primal projection the paper shows does not recover, Theorem 3):
``||what - w*||/||w*|| <= eps_R/(1 - eps_R)``. Derivation (the proof of Theorem 3 with the per-draw
Theorem 2): ``||what - w*|| >= ||(I - V V^T) R z|| = ||B z||`` with ``B = V_perp^T R`` independent of ``z``
(Gaussian ``R``), so ``||B z||^2 = ||z||^2 X/m``, ``X ~ chi2_{d-r}``; ``||z|| = ||A^T V^T wtilde|| >=
sqrt(1 - eps_R)||wtilde|| >= (1 - 2 eps_R)/sqrt(1 - eps_R) ||w*||`` (per-draw Theorem 2). Hence the control
fails in a draw whenever ``X >= (d - r)/2`` and ``sqrt(q)(1 - 2 eps_R) sqrt(1 - eps_R) > eps_R``,
``q = (d - r)/(2m)``, i.e. ``eps_R < e*(q)``. ``P(no violation in a draw) <= cor7_failure_upper(r, m, e*) +
chi2.cdf((d - r)/2, d - r)``: 0.32 (quick, e* = 0.389), 0.40 (ci, e* = 0.369), 0.068 (standard), 0.013 (full);
over the fewest trials of a profile P(no counterexample) <= 1e-35. :func:`naive_expected` recomputes this per
cell (VIOLATED when the bound is below 1e-6, else None; None for a non-Gaussian ``kind``, where the
independence of ``B`` and ``V^T R`` fails).

``control_per_draw``, ``control_stated`` (controls, expected VIOLATED): the planted rank-1 square-loss
instance of ``_recovery.planted_controls`` (the per-draw bound tightened 2x; ``rel <= 1e-8`` in bound mode),
shared with ``zhang2013.thm2``: the bound-mode row's control. A bound-mode naive control on these draws would
need a lower bound on ``P(eps_R < e*)`` above ``delta``, which the Laplace bound gives only for ``d >> m``
(beyond the budget), so the planted instance is used.

``rel_over_bound``, ``naive_rel`` (measurements, report): ``rel / (eps_R/(1 - eps_R))`` and the naive
relative error next to Theorem 3's scale ``sqrt((d - r)/m)``. The paper reports no experiments (Section 6
concludes the paper), so there are no printed magnitudes to compare with; ``decide`` records the medians and
maxima beside the printed bound ``eps/(1 - eps) = 1`` (eps = 1/2). Measured (ci, seeds 1 and 2, 90 draws per
cell): ``rel`` median 0.07-0.14, max 0.44 (squared hinge, lambda = 0.05); ``rel/(eps_R/(1 - eps_R))`` median
0.23-0.55, max 0.96 (squared hinge, lambda = 0.05: the per-draw bound is nearly attained); naive error median
2.48-2.51 ``||w*||`` against ``sqrt((d - r)/m) = 2.50`` (the ``||what - w*|| ~ sqrt(d/m) ||w*||`` behaviour
Theorem 3 predicts).
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ._common import (
    FP_REL,
    FULL_TRIALS,
    RANK_CONSTRAINT,
    SMOOTH_LOSSES,
    cell_key,
    cite,
    derived_stated,
    fewest_trials,
    m_for,
    per_draw_variant,
    recovery_parameters,
    single_threaded,
    stated_variant,
    vacuous_outcome,
)
from ._recovery import CONTROL_VARIANTS, certify_le, diagnostics, draw, planted_controls
from .bounds import cor7_failure_upper, thm2_bound
from .thm3 import D_ABOVE_R, naive_quantities

__all__ = ["THEOREM", "trial", "naive_expected", "naive_miss_bound"]

THEOREM_ID = "zhang2013.losses"


def _naive_pieces(dr):
    """Certified interval of ``||what - w*||/||w*||`` from below via ``||(I - V V^T) R z||`` (exact for the
    exact ``z*`` up to ``||R||_F u_z``) and from above via the computed error plus the radii."""
    rel, n_perp, _ = naive_quantities(dr)
    rf = float(np.linalg.norm(dr.R))
    rad = rf * dr.u_z
    lo = max(n_perp - rad, 0.0) / (dr.w_norm + dr.u_full)
    hi = (rel * dr.w_norm + rad + dr.u_full) / (dr.w_norm - dr.u_full) if dr.w_norm > dr.u_full else math.inf
    return rel, lo, hi


@single_threaded
def trial(params, rng):
    dr = draw(params, rng, keep_R=True)
    eps = float(params["eps"])
    lo, hi = dr.rel_interval()
    k = thm2_bound(eps)
    out = {"stated": certify_le(lo, hi, k, k, dr.rel, k)}
    rel_n, nlo, nhi = _naive_pieces(dr)
    if dr.eps_R >= 1:
        out["per_draw"] = vacuous_outcome(dr.rel)
        out["naive_per_draw"] = vacuous_outcome(rel_n)
        ratio = math.nan
    else:
        ke = thm2_bound(dr.eps_R)
        out["per_draw"] = certify_le(lo, hi, ke, ke, dr.rel, ke)
        out["naive_per_draw"] = certify_le(nlo, nhi, ke, ke, rel_n, ke)
        ratio = dr.rel / ke if ke > 0 else math.nan
    d, r, m = int(params["d"]), int(params["r"]), dr.m
    out["rel_over_bound"] = Outcome(True, ratio, math.nan)
    out["naive_rel"] = Outcome(True, rel_n, math.sqrt((d - r) / m))
    diags = diagnostics(dr)
    diags["bound_eps_R"] = thm2_bound(dr.eps_R) if dr.eps_R < 1 else math.inf
    diags["rel_lo"], diags["rel_hi"] = lo, hi
    diags["naive_rel"] = rel_n
    diags["naive_rel_lo"] = nlo
    out.update(planted_controls(dr.m, rng))  # last: the main draw replays unchanged
    return TrialRecord(outcomes=out, diagnostics=diags)


def decide(records, params):
    """Measurements only: medians and maxima of the recovery error beside the printed bound."""
    rels = np.array([rec.diagnostics["rel_err"] for rec in records])
    ratios = np.array([rec.outcomes["rel_over_bound"].statistic for rec in records])
    naive = np.array([rec.diagnostics["naive_rel"] for rec in records])
    if rels.size == 0:
        return {"rel_over_bound": Verdict.INCONCLUSIVE, "naive_rel": Verdict.INCONCLUSIVE}, {}
    ratios = ratios[np.isfinite(ratios)]
    info = {
        "loss": params["loss"],
        "m": int(m_for(params)),
        "rel_median": float(np.median(rels)),
        "rel_max": float(np.max(rels)),
        "printed_bound_eps_over_1_minus_eps": thm2_bound(float(params["eps"])),
        "rel_over_per_draw_bound_max": float(np.max(ratios)) if ratios.size else math.nan,
        "naive_rel_median": float(np.median(naive)),
        "naive_scale_sqrt_d_minus_r_over_m": math.sqrt((int(params["d"]) - int(params["r"])) / m_for(params)),
        "paper_experiments": "none (the paper has no experimental section)",
    }
    return {"rel_over_bound": Verdict.INCONCLUSIVE, "naive_rel": Verdict.INCONCLUSIVE}, info


# ------------------------------------------------------------------------------------------------ cells
def _cells(n, d, r, lams, delta, losses=SMOOTH_LOSSES, mu=0.5, eps=0.5, c=0.25):
    out = []
    for loss in losses:
        for lam in lams:
            cell = {"n": n, "d": d, "r": r, "eps": eps, "delta": delta, "c": c, "lam": lam, "loss": loss}
            if loss == "smoothed_hinge":
                cell["mu"] = mu
            out.append(cell)
    return tuple(out)


PROFILES = {
    # every profile has >= 90 trials per cell: the deterministic rows can reach HOLDS
    "quick": Profile(_cells(40, 1000, 2, [1.0], 0.5), trials=90),
    "ci": Profile(_cells(60, 1000, 3, [0.05, 1.0], 0.5), trials=90),
    "standard": Profile(_cells(100, 3000, 5, [0.01, 1.0, 100.0], 0.1), trials=200),
    "full": Profile(_cells(200, 6000, 10, [0.01, 1.0, 100.0], 0.01), trials=FULL_TRIALS),  # _common.FULL_TRIALS
}


def naive_miss_bound(params):
    r"""Upper bound on the probability that a draw is **not** a certified counterexample of
    ``naive_per_draw``: ``cor7_failure_upper(r, m, e*) + chi2.cdf((d - r)/2, d - r)`` with ``e*`` the root of
    ``sqrt(q)(1 - 2e) sqrt(1 - e) = e``, ``q = (d - r)/(2m)`` (module docstring)."""
    from scipy.optimize import brentq
    from scipy.stats import chi2

    d, r, m = int(params["d"]), int(params["r"]), m_for(params)
    q = (d - r) / (2.0 * m)
    e_star = brentq(lambda e: math.sqrt(q) * (1 - 2 * e) * math.sqrt(1 - e) - e, 0.0, 0.5)
    return min(1.0, cor7_failure_upper(r, m, e_star) + float(chi2.cdf((d - r) / 2.0, d - r)))


def naive_expected(profiles):
    """Expected verdict of ``naive_per_draw``: VIOLATED when ``naive_miss_bound ** trials <= 1e-6`` at the
    fewest trials of any profile holding the cell, else None."""
    trials = fewest_trials(profiles)

    def f(params):
        if params.get("kind", "gaussian") != "gaussian":
            return None  # the derivation needs V_perp^T R independent of V^T R (Gaussian R)
        n = trials.get(cell_key(params), 20)
        return Verdict.VIOLATED if naive_miss_bound(params) ** n <= 1e-6 else None

    return f


THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Thm 2 for logistic, squared hinge, smoothed hinge: ||wtilde - w*|| <= eps/(1-eps) ||w*|| (DRP, rank r)",
        citation=cite("Theorem 2; Section 2 (loss class); Algorithm 1", "(1), (2), (4), (9), (12), (17)-(21)"),
        statement="For a convex differentiable loss and any 0 < eps <= 1/2, with probability at least 1 - delta, "
        "||wtilde - w*||_2 <= eps/(1 - eps) ||w*||_2 provided m >= (r+1) log(2r/delta)/(c eps^2) (c = 1/4 [R]).",
        kind="probabilistic",
        variants=(
            stated_variant(
                "||wtilde - w*|| <= eps/(1-eps) ||w*||  (certified by the duality gaps)", derived_stated(PROFILES)
            ),
            per_draw_variant("||wtilde - w*|| <= eps_R/(1-eps_R) ||w*|| for every R with eps_R < 1 [D]"),
            Variant(
                "naive_per_draw",
                "the per-draw bound for the naive solution R z (10) instead of (12) (negative control)",
                mode="deterministic",
                expected=naive_expected(PROFILES),
                role="control",
                note="Derivation in the module docstring (Theorem 3's chi-square step + per-draw Theorem 2).",
            ),
        )
        + CONTROL_VARIANTS
        + (
            Variant(
                "rel_over_bound",
                "rel / (eps_R/(1 - eps_R)) (max reported)",
                mode="report",
                expected=None,
                role="measurement",
            ),
            Variant(
                "naive_rel",
                "||what - w*||/||w*|| beside sqrt((d - r)/m) (median reported)",
                mode="report",
                expected=None,
                role="measurement",
            ),
        ),
        profiles=PROFILES,
        parameters=recovery_parameters(
            loss=Param("choice", choices=SMOOTH_LOSSES, doc="smooth loss of the primal (1)"),
            mu=Param("float", low=0.0, closed="neither", doc="smoothed-hinge parameter mu (smoothness 1/mu)"),
        ),
        constraints=(RANK_CONSTRAINT, D_ABOVE_R),
        trial=trial,
        decide=decide,
        tolerance=FP_REL,
        tolerance_note=(
            "The exact ||wtilde - w*||/||w*|| is certified to lie in an interval: radius sqrt(2 eta_full/lam) for "
            "w* and sqrt(2 eta_proj/lam)/sqrt(1 - eps_R) for wtilde (strong convexity; eta the certified duality "
            "gaps of rpcheck.svm.erm, with their rounding allowance) plus the 1e-9 relative rounding allowance; "
            "straddling draws are undetermined."
        ),
        findings=(
            Finding(
                "losses-thm2",
                "Theorem 2 holds for the logistic, squared hinge and smoothed hinge losses: no certified exception "
                "to the per-draw bound eps_R/(1-eps_R); the error reaches 0.96 of it (squared hinge, lambda = 0.05; "
                "ci, two seeds), so the bound is nearly tight.",
                evidence_variant="per_draw",
                location="Section 2, eq. (1) (the loss class); Theorem 2",
                quote="is a convex loss function that is differentiable",
                kind="observation",
            ),
        ),
        notes="Data X = U diag(s) V^T (rank r, condition 10), labels sign(X u + 0.3 g); no bias (paper (1)); "
        "smoothed hinge with mu = 0.5 (Shalev-Shwartz and Zhang 2013). Algorithm 2 (Theorem 5) is not run for "
        "these losses.",
    )
)
