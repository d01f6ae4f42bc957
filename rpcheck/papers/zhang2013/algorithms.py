r"""Algorithms 1 and 2 of Zhang et al. (2013) on exact-rank data: oracle agreement and certificates.

Implementation checks on the full ``X`` (n x d) and an explicit sketch ``R`` (``rpcheck.svm.drp``):

    ``eq15`` (square): Algorithm 1 equals the closed form (15) ``X^T (lambda I + X R R^T X^T)^{-1} y``.
    ``eq14`` (square): the two forms of (14) agree.
    ``factor`` (square): Algorithm 1 on ``X`` equals Algorithm 1 on the factor ``(Z, V^T R)`` mapped back
    by ``V`` (the exact reformulation every theorem checker uses, ``_common``).
    ``alg2_step1`` (square): Algorithm 2's first iterate equals Algorithm 1.
    ``hinge_certificate`` (hinge): the projected dual (7) is certified: Frank-Wolfe (= primal-dual) gap
    ``<= 1e-8 max(1, |objective|)`` and ``beta in [0, 1]^n``.
    ``hinge_prop2`` (hinge): ``z = R^T wtilde`` (Prop. 2's consequence ``sqrt(m) z* = R_paper^T wtilde``).

All are deterministic. Tolerance of the closed-form comparisons: ``max(1e-9, 10 u kappa^2)`` relative
(``_common.fp_tolerance``), ``kappa = (max(||X||^2, ||X R||^2) + lambda)/lambda``.
"""

from __future__ import annotations

import numpy as np

from ...engine import Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...stats import deterministic_trials
from ...svm.drp import drp, iterative_drp, ridge_drp_closed_form, ridge_solution
from ._common import (
    FP_REL,
    RANK_CONSTRAINT,
    cite,
    fp_tolerance,
    make_instance,
    recovery_parameters,
    single_threaded,
    sketch_matrix,
)

__all__ = ["THEOREM", "trial"]

THEOREM_ID = "zhang2013.alg"
GAP_REL = 1e-8


def _rel(a, b):
    return float(np.linalg.norm(a - b)) / max(float(np.linalg.norm(b)), 1e-300)


@single_threaded
def trial(params, rng):
    n, d, r, m, lam = int(params["n"]), int(params["d"]), int(params["r"]), int(params["m"]), float(params["lam"])
    inst = make_instance(n, d, r, rng=rng)
    X, y = inst.X, inst.y
    R = sketch_matrix(params.get("kind", "gaussian"), d, m, rng=rng)
    sq = drp(X, y, lam, R, loss="square")
    kappa = (max(np.linalg.norm(X, 2), np.linalg.norm(X @ R, 2)) ** 2 + lam) / lam
    tol = fp_tolerance(kappa)
    e15 = _rel(sq.w_tilde, ridge_drp_closed_form(X, y, lam, R))
    e14 = _rel(ridge_solution(X, y, lam, form="primal"), ridge_solution(X, y, lam, form="dual"))
    fac = drp(inst.Z, y, lam, inst.V.T @ R, loss="square")
    ef = _rel(inst.V @ np.asarray(fac.w_tilde), sq.w_tilde)
    it = iterative_drp(X, y, lam, R, 1, loss="square")
    ea = _rel(it.w_path[1], sq.w_tilde)
    hi = drp(X, y, lam, R, loss="hinge")
    gap_rel = hi.dual.gap_rel
    box = bool(np.all((hi.beta >= 0) & (hi.beta <= 1)))
    ep = _rel(R.T @ np.asarray(hi.w_tilde), hi.z)
    out = {
        "eq15": Outcome(bool(e15 <= tol), e15, tol),
        "eq14": Outcome(bool(e14 <= tol), e14, tol),
        "factor": Outcome(bool(ef <= tol), ef, tol),
        "alg2_step1": Outcome(bool(ea <= tol), ea, tol),
        "hinge_certificate": Outcome(bool(box and gap_rel <= GAP_REL), gap_rel, GAP_REL),
        "hinge_prop2": Outcome(bool(ep <= tol), ep, tol),
    }
    diags = {
        "gap_rel": gap_rel,
        "gap_unpolished": hi.dual.gap_unpolished,
        "polished": float(hi.dual.polished),
        "n_free": float(hi.dual.n_free),
        "solve_time": hi.dual.solve_time,
        "kappa": kappa,
    }
    return TrialRecord(outcomes=out, diagnostics=diags)


PROFILES = {
    # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
    # probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper bound 0.03).
    "quick": Profile(grid(n=40, d=200, r=3, m=[20, 60], lam=1.0), trials=deterministic_trials(0.03)),
    # ci: 90 trials so that the deterministic self-checks can reach HOLDS (>= 90 draws; ~0.06 s per trial)
    "ci": Profile(grid(n=50, d=300, r=4, m=[20, 100], lam=[0.1, 10.0]), trials=90),
    # Power (standard): a deterministic HOLDS needs >= 90 evaluated draws (rpcheck.stats.DETERMINISTIC_MIN_DRAWS: 0
    # failures in 90 draws put P(failure) <= 0.05 at 99%); below 90 draws HOLDS is unattainable; 100 leaves room for
    # vacuous draws.
    "standard": Profile(grid(n=100, d=1000, r=[5, 10], m=[30, 200, 800], lam=[0.01, 1.0, 100.0]), trials=100),
    # full: the same rule (at 50 trials all 108 self-check rows are INCONCLUSIVE by construction); 100 as at standard
    # (no vacuous draw in its 900 trials).
    "full": Profile(grid(n=200, d=3000, r=[5, 20], m=[50, 400, 1600], lam=[0.01, 1.0, 100.0]), trials=100),
}

#: Every variant checks the implementation against an oracle (a check of the tool, not of the paper).
_V = dict(mode="deterministic", expected=Verdict.HOLDS, role="self-check")

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Algorithms 1-2 (DRP): closed-form oracles (14)-(15), factor reformulation, certified hinge dual",
        citation=cite("Algorithms 1 and 2, Section 4.1", "(5)-(15)"),
        statement="Algorithm 1: project, solve (6)/(7), dual (9), recover (12); for the square loss "
        "wtilde = X (lambda I + X^T R R^T X/m)^{-1} y (15). Algorithm 2 iterates with one R.",
        kind="deterministic",
        variants=(
            Variant("eq15", "Algorithm 1 (square) = eq. (15), 1e-9 relative", **_V),
            Variant("eq14", "the two forms of eq. (14) agree, 1e-9 relative", **_V),
            Variant("factor", "Algorithm 1 on X = V (Algorithm 1 on (Z, V^T R)), 1e-9 relative", **_V),
            Variant("alg2_step1", "Algorithm 2 step 1 = Algorithm 1, 1e-9 relative", **_V),
            Variant("hinge_certificate", "projected hinge dual gap <= 1e-8 max(1,|obj|), beta in box", **_V),
            Variant("hinge_prop2", "z = R^T wtilde (hinge), 1e-9 relative", **_V),
        ),
        profiles=PROFILES,
        parameters={k: v for k, v in recovery_parameters().items() if k in ("n", "d", "r", "m", "lam", "kind", "cond")},
        constraints=(RANK_CONSTRAINT,),
        trial=trial,
        tolerance=FP_REL,
        tolerance_note="Rounding of closed forms (1e-9 relative); the hinge certificate is the Frank-Wolfe gap.",
    )
)
