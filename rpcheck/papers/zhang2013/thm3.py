r"""Theorem 3 of Zhang et al. (2013): the naive solution ``what = R z`` is a bad approximation of ``w*``.

Statement (Theorem 3; form [T], the range ``eps <= 1/3`` and the extra failure term [R])
    For ``0 < eps <= 1/3`` [R], with probability at least ``1 - delta - exp(-(d - r)/32)`` [R], under
    Theorem 2's condition on ``m``:
    ``||what - w*|| >= (1/2) sqrt((d - r)/m) (1 - eps sqrt(2(1 + eps))/(1 - eps)) ||w*||``.

Proof structure (the proof of Theorem 3, [D]): ``||what - w*|| >= ||(I - U U^T) what|| = ||B z*|| / sqrt(m)``
with ``B = U_perp^T R_paper`` independent of ``z*``; the chi-square event
``||B z*|| >= sqrt(d - r) ||z*|| / (2 sqrt(1 - eps))`` and ``||z|| >= ||R^T w*|| - ||R^T e||
>= sqrt(1 - eps) (1 - eps/(1 - eps)) ||w*||`` (Theorem 1's argument) give the bracket.

Variants (every Outcome reads ``statistic <= bound``: statistic = the lower bound, bound = the measured
``||what - w*|| / ||w*||``)
    ``stated`` (bound, promised ``delta + exp(-(d - r)/32)``): ``rel_naive >= L(eps)`` with ``L`` the printed
    lower bound and ``rel_naive`` of the exact optima certified to lie in an interval (``_recovery.Draw``;
    ``||R||_2 <= ||R||_F`` carries the projected dual's radius); straddling draws are undetermined.
    Expected HOLDS.
    ``implication`` (deterministic, [D]): whenever ``eps_R < 0.3761`` and the chi-square event holds with
    ``eps_R``, ``rel_naive >= L(eps_R)``; vacuous when the premise is certainly false, undetermined when the
    conclusion is not certain and the premise not certainly true. Expected HOLDS.
    The chi-square sub-claim itself is ``zhang2013.thm3.chi2`` (:mod:`.thm3_chi2`).
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Constraint, Finding, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...stats import deterministic_trials
from ._common import (
    ASSUMED_C,
    ASSUMED_PROB,
    FP_REL,
    FULL_TRIALS,
    RANK_CONSTRAINT,
    cite,
    derived_stated,
    recovery_parameters,
    single_threaded,
    vacuous_outcome,
)
from ._recovery import certify_le, diagnostics, draw, ratio_interval
from .bounds import thm3_bracket, thm3_chi2_failure, thm3_failure, thm3_lower

__all__ = ["THEOREM", "trial", "naive_quantities", "D_ABOVE_R"]

#: Theorem 3 needs a nontrivial orthogonal complement of span(X).
D_ABOVE_R = Constraint("d > r (the complement of span(X) is nontrivial)", lambda p: int(p["d"]) > int(p["r"]))

THEOREM_ID = "zhang2013.thm3"
ASSUMED_EPS3 = "eps in (0, 1/3] [R]"
ASSUMED_TERM = "extra failure term exp(-(d-r)/32) [R]"
#: The bracket of Theorem 3 is positive only below this eps.
EPS_BRACKET = 0.376085  # root of the bracket: 0.3760859


def naive_quantities(dr):
    """``(rel_naive, norm_perp, norm_z)``: ``||what - w*||/||w*||``, ``||(I - V V^T) R z||``, ``||z||``."""
    z = np.asarray(dr.res.z)
    Rz = dr.R @ z
    perp = Rz - dr.inst.V @ (dr.A @ z)
    n_perp = float(np.linalg.norm(perp))
    inside = np.asarray(dr.res.w_naive) - dr.ref.coef  # V^T what - V^T w*
    rel = math.sqrt(float(inside @ inside) + n_perp**2) / dr.w_norm
    return rel, n_perp, float(np.linalg.norm(z))


def chi2_threshold(d, r, eps, *, corrected=True):
    """``t`` of the chi-square event ``sqrt(m) ||B z|| >= t ||z||``: ``sqrt(d - r)/(2 sqrt(1 - eps))``
    (``corrected``) or ``sqrt(d - r)/2``."""
    thr = math.sqrt(d - r) / 2.0
    return thr / math.sqrt(1.0 - eps) if corrected else thr


@single_threaded
def trial(params, rng):
    d, r = int(params["d"]), int(params["r"])
    eps = float(params["eps"])
    dr = draw(params, rng, keep_R=True)
    rel, n_perp, nz = naive_quantities(dr)
    # Certified radii: what - w* = R z - V coef moves by ||R|| u_z + u_full (||R||_2 <= ||R||_F);
    # ||(I - V V^T) R z|| by ||R|| u_z and ||z|| by u_z.
    nR = float(np.linalg.norm(dr.R))
    rad = nR * dr.u_z + dr.u_full
    lo, hi = ratio_interval(rel * dr.w_norm, rad, dr.w_norm, dr.u_full)
    L = thm3_lower(eps, d, r, dr.m)
    # the event reads L <= rel, i.e. -rel <= -L
    out = {"stated": certify_le(-hi, -lo, -L, -L, L, rel)}
    e = dr.eps_R
    if e >= EPS_BRACKET:
        out["implication"] = vacuous_outcome(math.nan, rel)
    else:
        t = chi2_threshold(d, r, e)
        sm = math.sqrt(dr.m)
        premise_sure = sm * (n_perp - nR * dr.u_z) >= t * (nz + dr.u_z)
        premise_possible = sm * (n_perp + nR * dr.u_z) >= t * max(nz - dr.u_z, 0.0)
        Le = thm3_lower(e, d, r, dr.m)
        if not premise_possible:
            out["implication"] = vacuous_outcome(Le, rel)
        elif Le <= lo:
            out["implication"] = Outcome(True, Le, rel)
        elif Le > hi and premise_sure:
            out["implication"] = Outcome(False, Le, rel)
        else:
            out["implication"] = Outcome(bool(Le <= rel), Le, rel, undetermined=True)
    # Negative controls: the lower bound raised to twice a certified UPPER bound of rel_naive,
    # ||what - w*|| <= ||R||_2 ||z|| + ||w*|| <= ||R||_F (||z|| + u_z) + ||w*|| + u_full (triangle inequality),
    # so the event "K <= rel_naive" fails in every draw (certified: K > hi).
    K = 2.0 * (nR * (nz + dr.u_z) + dr.w_norm + dr.u_full) / max(dr.w_norm - dr.u_full, 1e-300)
    ctrl = certify_le(-hi, -lo, -K, -K, K, rel)
    out["control_stated"] = ctrl
    out["control_implication"] = ctrl
    diags = diagnostics(dr)
    diags.update(
        rel_naive=rel,
        naive_times_sqrt_m_over_d=rel * math.sqrt(dr.m / d),
        bracket=thm3_bracket(eps),
        lower=L,
        rel_lo=lo,
        rel_hi=hi,
    )
    return TrialRecord(outcomes=out, diagnostics=diags)


def _cells(n, d, r, losses, eps=1 / 3, delta=0.1, lam=1.0):
    return grid(n=n, d=d, r=r, eps=eps, delta=delta, c=0.25, lam=lam, loss=list(losses))


PROFILES = {
    # quick: delta = 1/2 (the stated row's expectation follows from its support power at this trial count).
    # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
    # probability >= 0.99, each row holding on every draw); the worst row, implication, was vacuous in 1 of 150 draws of
    # its cell (seed 0; 99% upper bound 0.05).
    "quick": Profile(_cells(40, 1500, 2, ["square"], delta=0.5), trials=deterministic_trials(0.05)),
    # 190 trials: the implication row reaches HOLDS from 90 draws; the stated row (derived_stated with the
    # chi-square step: P(fail) <= cor7_failure_upper(3, 590, 1/3) + the chi-square tail) has support power 0 at
    # 90 draws (HOLDS unattainable below 103) and >= 0.99 at 190 (checked in tests/checkers: the derived
    # expectation of every ci cell with c = 1/4 is HOLDS)
    "ci": Profile(_cells(60, 1200, 3, ["square", "hinge"]), trials=190),
    "standard": Profile(_cells(100, 4000, 5, ["square", "hinge"], eps=[1 / 4, 1 / 3]), trials=200),
    "full": Profile(_cells(200, 10000, 5, ["square", "hinge"], eps=[1 / 4, 1 / 3], delta=0.01),
                    trials=FULL_TRIALS),  # _common.FULL_TRIALS: support power >= 0.99 at delta = 0.01
}

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Thm 3: ||what - w*|| >= (1/2) sqrt((d-r)/m) (1 - eps sqrt(2(1+eps))/(1-eps)) ||w*|| (naive fails)",
        citation=cite("Theorem 3", "(10)"),
        statement="For any 0 < eps <= 1/3, with probability at least 1 - delta - exp(-(d-r)/32), "
        "||what - w*||_2 >= (1/2) sqrt((d-r)/m) (1 - eps sqrt(2(1+eps))/(1-eps)) ||w*||_2 under Thm 2's m.",
        kind="probabilistic",
        variants=(
            Variant(
                "stated",
                "(1/2) sqrt((d-r)/m) (1 - eps sqrt(2(1+eps))/(1-eps)) <= ||what - w*|| / ||w*||",
                mode="bound",
                expected=derived_stated(
                    PROFILES,
                    promised=lambda p: thm3_failure(float(p["delta"]), int(p["d"]), int(p["r"])),
                    extra_failure=lambda p: thm3_chi2_failure(float(p["eps"]), int(p["d"]), int(p["r"])),
                ),
                promised_failure=lambda p: thm3_failure(float(p["delta"]), int(p["d"]), int(p["r"])),
                assumed=(ASSUMED_C, ASSUMED_EPS3, ASSUMED_PROB, ASSUMED_TERM),
            ),
            Variant(
                "implication",
                "eps_R < 0.376 and ||B z|| >= sqrt(d-r)||z||/(2 sqrt(1-eps_R))  =>  the bound at eps_R [D]",
                mode="deterministic",
                expected=Verdict.HOLDS,
            ),
            # Negative controls (derivation in ``trial``): the same event "K <= ||what - w*||/||w*||" with K
            # twice a certified upper bound of the statistic, so every draw is a certified failure: the
            # deterministic control needs one; the bound control rejects p <= delta + exp(-(d-r)/32) (<= 0.51)
            # at level 0.01/500 once 20 of 20 draws fail (P_{0.51}(X >= 20) = 1.4e-6), power 1.
            Variant(
                "control_stated",
                "K <= ||what - w*||/||w*|| with K = 2 (||R||_F ||z|| + ||w*||)/||w*|| (tightened above the statistic)",
                mode="bound",
                expected=Verdict.VIOLATED,
                promised_failure=lambda p: thm3_failure(float(p["delta"]), int(p["d"]), int(p["r"])),
                role="control",
            ),
            Variant(
                "control_implication",
                "the same tightened event, deterministic mode",
                mode="deterministic",
                expected=Verdict.VIOLATED,
                role="control",
            ),
        ),
        profiles=PROFILES,
        parameters=recovery_parameters(eps_high=1 / 3),
        constraints=(RANK_CONSTRAINT, D_ABOVE_R),
        trial=trial,
        tolerance=FP_REL,
        tolerance_note="Certified intervals (dual gaps by strong convexity, ||R||_F, 1e-9 rounding); "
        "straddling draws undetermined.",
        findings=(
            Finding(
                "thm3-naive-scale",
                "The naive solution's error is of order sqrt(d/m) ||w*|| (diagnostic naive_times_sqrt_m_over_d ~ 1), "
                "far above the printed lower bound, which is loose by the bracket factor.",
                evidence_variant="stated",
                location="Theorem 3 (Section 4.1)",
                quote="||w^ - w*||_2 >= (1/2) sqrt((d - r)/m) (1 - eps sqrt(2(1 + eps))/(1 - eps)) ||w*||_2",
                kind="observation",
            ),
        ),
    )
)
