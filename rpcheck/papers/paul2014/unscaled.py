r"""Paul et al. (2014), the missing 1/sqrt(r): per-quantity theorems need the scaling, the ratio does not.

Statement as printed (Sec. 2, "Random Gaussian matrix" and "Random sign matrix"; Lemmas 3.2 and 3.4,
Theorems 3.5 and 3.6, Theorem 1.1)
    Sec. 2 defines RG as "a d x r random matrix whose entries are i.i.d. N(0, 1)" and RS as a "(rescaled)"
    random sign matrix, with no scaling stated for RG. Lemma 3.4: "||V^T V - V^T R R^T V||_2 <= eps" for a
    Gaussian R and r as in eq. (10); Thm 3.5: gamma~*^2 >= (1 - eps) gamma*^2; Thm 3.6:
    B~^2 <= (1 + eps) B^2; Thm 1.1: B~^2/gamma~*^2 <= ((1 + eps)/(1 - eps)) B^2/gamma*^2.

Lemmas 3.2/3.4 need E[R R^T] = I_d, i.e. entries N(0, 1/r); rpcheck's ``gaussian`` sketch has that scaling.
This theorem draws one such R per trial and also uses the same draw unscaled, R_u = sqrt(r) R (entries
N(0, 1), Sec. 2 as printed). It shows, on separable low-rank data with an affine offset (the data of
``paul2014.thm1.1``), which statements survive without the scaling.

Variants (e = ||I - V^T R R^T V||_2 of the scaled R; every cell has r >= 64 and eps = 1/2)
----------------------------------------------------------------------------------------
``lemma_unscaled`` (claim, deterministic; expected VIOLATED): ||I - V^T R_u R_u^T V||_2 <= eps.
Derivation: V^T R_u R_u^T V = r V^T R R^T V has eigenvalues in [r (1 - e), r (1 + e)], so the distortion is
at least r (1 - e) - 1 > eps whenever e < 1 - (1 + eps)/r (= 0.977 at r = 64). At the lemma's r the
scaled e is below 1/2 with probability >= 1 - delta per draw, so a certified counterexample is certain in
practice; one suffices.

``ball_unscaled`` (claim, deterministic; expected VIOLATED): B_u~^2 <= (1 + eps) B^2 (Thm 3.6 with R_u).
Derivation: projected points of X R_u are sqrt(r) times those of X R, so B_u~^2 = r B~^2. Distances inside
the row space shrink by at most sqrt(1 - e) under R, so B~^2 >= diam~^2/4 >= (1 - e) diam^2/4 >= (1 - e)
B^2/2 (Jung: B^2 <= diam^2/2). Hence B_u~^2 >= r (1 - e)/2 B^2 > (1 + eps) B^2 whenever e < 1 - 2 (1 +
eps)/r (= 0.953 at r = 64).

``margin_unscaled`` (claim, deterministic; expected HOLDS): gamma_u~^2 >= (1 - eps) gamma^2 (Thm 3.5 with
R_u), true for the wrong reason: gamma_u~^2 = r gamma~^2 >= r (1 - e) gamma^2 (Thm 3.5 for the scaled R, a
deterministic statement given e < 1) >= (1 - eps) gamma^2 whenever e <= 1 - (1 - eps)/r. A projected
problem that is not separable fails the event. HOLDS needs >= 90 clean draws (every profile has 90 trials).

``margin_control`` (control, deterministic; expected VIOLATED): the event of ``margin_unscaled`` with the
constant raised to k = 2 gamma_u~^2 / gamma^2 (twice the certified upper end of the measured ratio): the
statistic is below k gamma^2 by a factor 2 in every draw, a certain counterexample.

``ratio_scale_free`` (self-check, deterministic; expected HOLDS): B_u~^2 / gamma_u~^2 equals B~^2 /
gamma~^2 (the certified intervals intersect, up to the rounding allowance FP_REL): rescaling R by s scales
B~ and gamma~ by s, so Thm 1.1's ratio is the one statement that does not depend on the scaling. An
identity of the solvers; it cannot fail as evidence about the paper.

``scaling_identity`` (self-check, deterministic; expected HOLDS): gamma~^2 / gamma_u~^2 = r and
B_u~^2 / B~^2 = r within the certified intervals: the exact covariance the derivations above use.

``identity_control`` (control, deterministic; expected VIOLATED): the same identity checked with the factor
sqrt(r) instead of r (a wrong exponent): fails in every draw with r >= 64.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...errors import NotSeparableError
from ...linalg import row_space_basis
from ...sketches import make_sketch
from ._common import FP_REL, Interval, P, certified_ge, cite, distortion, rho_le, svc_bounds, violation_artifacts
from ._data import classification_instance

__all__ = ["THEOREM", "trial"]



def _solve(G, y):
    from ...svm import min_enclosing_ball, solve_svc

    res = solve_svc(G, y, math.inf)
    b = svc_bounds(G, y, math.inf, res.alpha, res.b)
    ball = min_enclosing_ball(G)
    return b["wsq"], Interval(max(ball.dual_value, 0.0), ball.radius_sq), b["degenerate"]


def _intersect(a, b, fp=FP_REL):
    """Whether two certified intervals of the same exact quantity intersect (up to ``fp``)."""
    gap = max(a.lo - b.hi, b.lo - a.hi)
    return gap <= fp * (abs(a.hi) + abs(b.hi)), gap


def trial(params, rng):
    n, d, rho, r, eps = params["n"], params["d"], params["rho"], params["r"], params["eps"]
    X, y, _, V0 = classification_instance(n, d, rho, "hard", rng=rng)
    X = X + 1.5 * V0[:, 0][None, :]  # affine offset inside the row space: separable, rank rho
    V = row_space_basis(X)
    sk = make_sketch(params["kind"], d, r, rng=rng)
    e = distortion(V, sk)
    s = math.sqrt(r)
    k = V.shape[1]
    e_u = float(np.linalg.norm(np.eye(k) - r * (np.eye(k) - _gram_defect(V, sk)), 2))
    XR = np.asarray(sk.apply(X))
    wsq, bsq, deg0 = _solve(X @ V, y)  # factor with the same Gram matrix as X
    out = {"lemma_unscaled": Outcome(bool(e_u <= eps), e_u, eps)}
    try:
        wsq_t, bsq_t, deg1 = _solve(XR, y)
        wsq_u, bsq_u, deg2 = _solve(s * XR, y)
    except NotSeparableError:
        # gamma~ = 0: the margin claim fails; the identities compare solves that do not exist (vacuous)
        out.update(
            ball_unscaled=Outcome(True, math.nan, math.nan, vacuous=True),
            margin_unscaled=Outcome(False, 0.0, math.nan),
            margin_control=Outcome(False, 0.0, math.nan),
            ratio_scale_free=Outcome(True, math.nan, math.nan, vacuous=True),
            scaling_identity=Outcome(True, math.nan, math.nan, vacuous=True),
            identity_control=Outcome(True, math.nan, math.nan, vacuous=True),
        )
        return TrialRecord(outcomes=out, diagnostics={"e": e, "e_unscaled": e_u, "proj_not_separable": 1.0})
    degenerate = bool(deg0 or deg1 or deg2)
    # B_u~^2 <= (1 + eps) B^2
    holds, und = certified_ge(bsq.scale(1 + eps), bsq_u)
    out["ball_unscaled"] = Outcome(holds, bsq_u.lo, (1 + eps) * bsq.hi, undetermined=und, vacuous=degenerate)
    # gamma_u~^2 >= (1 - eps) gamma^2  <=>  ||w||^2 >= (1 - eps) ||w_u~||^2
    holds, und = certified_ge(wsq, wsq_u.scale(1 - eps))
    out["margin_unscaled"] = Outcome(holds, wsq.lo / wsq_u.hi, 1 - eps, undetermined=und, vacuous=degenerate)
    # control: constant k = 2 gamma_u~^2/gamma^2 at the certified upper end: ||w||^2 >= k ||w_u~||^2 fails
    k = 2.0 * wsq.hi / wsq_u.lo
    holds, und = certified_ge(wsq, wsq_u.scale(k))
    out["margin_control"] = Outcome(holds, wsq.lo / wsq_u.hi, k, undetermined=und, vacuous=degenerate)
    ratio_t = Interval(bsq_t.lo * wsq_t.lo, bsq_t.hi * wsq_t.hi)
    ratio_u = Interval(bsq_u.lo * wsq_u.lo, bsq_u.hi * wsq_u.hi)
    ok, gap = _intersect(ratio_t, ratio_u)
    out["ratio_scale_free"] = Outcome(ok, gap, 0.0, vacuous=degenerate)
    ok_w, gap_w = _intersect(wsq_t, wsq_u.scale(r))  # ||w~||^2 = r ||w_u~||^2
    ok_b, gap_b = _intersect(bsq_u, bsq_t.scale(r))  # B_u~^2 = r B~^2
    out["scaling_identity"] = Outcome(ok_w and ok_b, max(gap_w, gap_b), 0.0, vacuous=degenerate)
    ok_w, gap_w = _intersect(wsq_t, wsq_u.scale(s))
    ok_b, gap_b = _intersect(bsq_u, bsq_t.scale(s))
    out["identity_control"] = Outcome(ok_w and ok_b, max(gap_w, gap_b), 0.0, vacuous=degenerate)
    diags = {
        "e": e,
        "e_unscaled": e_u,
        "B_sq_ratio_unscaled": bsq_u.hi / bsq.hi,
        "gamma_sq_ratio_unscaled": wsq.hi / wsq_u.lo,
        "proj_not_separable": 0.0,
    }
    return TrialRecord(outcomes=out, diagnostics=diags, artifacts=violation_artifacts(out, X=X, y=y, sketch=sk))


def _gram_defect(V, sk):
    """``I - V^T R R^T V`` of the scaled sketch (symmetric, rho x rho)."""
    VtR = np.asarray(sk.apply(np.ascontiguousarray(V.T)))
    return np.eye(V.shape[1]) - VtR @ VtR.T


def _cells(kinds, n, d, rho, rs):
    return tuple({"kind": k, "n": n, "d": d, "rho": rho, "r": r, "eps": 0.5} for k in kinds for r in rs)


PROFILES = {
    "quick": Profile(_cells(["gaussian"], 30, 256, 5, [64]), trials=90),
    "ci": Profile(_cells(["gaussian", "sign"], 40, 256, 5, [64]), trials=90),
    "standard": Profile(_cells(["gaussian", "sign"], 60, 1024, 8, [64, 256]), trials=300),
    "full": Profile(_cells(["gaussian", "sign"], 100, 4096, 10, [64, 256, 1024]), trials=1000),
}


def _v(name, desc, expected, role="claim"):
    return Variant(name, desc, expected=expected, role=role)


THEOREM = register(
    Theorem(
        id="paul2014.unscaled",
        paper="paul2014",
        title="Without 1/sqrt(r) (Sec. 2 as printed) Lemma 3.4 and Thm 3.6 fail; only Thm 1.1's ratio is scale-free",
        citation=cite("Sec. 2, Lemmas 3.2, 3.4, Theorems 3.5, 3.6, 1.1", "(9), (10)"),
        statement="Sec. 2: RG has i.i.d. N(0,1) entries (no scaling stated); Lemma 3.4: ||V^T V - V^T R R^T V||_2 "
        "<= eps; Thm 3.5: gamma~^2 >= (1 - eps) gamma^2; Thm 3.6: B~^2 <= (1 + eps) B^2; Thm 1.1: the ratio.",
        kind="deterministic",
        variants=(
            _v("lemma_unscaled", "||I - V^T R_u R_u^T V||_2 <= eps with R_u = sqrt(r) R (entries N(0,1))",
               Verdict.VIOLATED),
            _v("ball_unscaled", "B~^2 <= (1 + eps) B^2 on X R_u (Thm 3.6 without the scaling)", Verdict.VIOLATED),
            _v("margin_unscaled", "gamma~^2 >= (1 - eps) gamma^2 on X R_u (Thm 3.5 without the scaling)",
               Verdict.HOLDS),
            _v("margin_control", "margin_unscaled's event with the constant 2 gamma_u~^2/gamma^2 (negative control)",
               Verdict.VIOLATED, "control"),
            _v("ratio_scale_free", "B~^2/gamma~^2 on X R_u equals it on X R (certified intervals intersect)",
               Verdict.HOLDS, "self-check"),
            _v("scaling_identity", "||w~||^2 = r ||w_u~||^2 and B_u~^2 = r B~^2 (certified)", Verdict.HOLDS,
               "self-check"),
            _v("identity_control", "the same identities with the factor sqrt(r) (negative control)",
               Verdict.VIOLATED, "control"),
        ),
        profiles=PROFILES,
        trial=trial,
        arrays=(("n", "d"),),  # the data X (memory model: rpcheck.engine.theorem.trial_memory)
        parameters={k: P[k] for k in ("kind", "n", "d", "rho", "r", "eps")},
        constraints=(rho_le("d"),),
        findings=(
            Finding(
                "missing-scaling",
                "Sec. 2 states no 1/sqrt(r) for RG (and only 'rescaled' for RS). Without it Lemma 3.4's embedding "
                "and Thm 3.6's ball bound fail in every draw (e_u >= r(1 - e) - 1, B_u~^2 = r B~^2), Thm 3.5's "
                "margin bound holds only because gamma_u~^2 = r gamma~^2, and Thm 1.1's ratio is unchanged.",
                evidence_variant="lemma_unscaled",
                location="Sec. 2 (RG and RS); Lemmas 3.2 and 3.4",
                quote="a matrix R whose entries are i.i.d. standard Gaussian random variables",
                kind="ambiguity",
            ),
        ),
        notes="Same draw of R used scaled (N(0, 1/r), E[R R^T] = I) and unscaled (sqrt(r) R). Separable data with "
        "an affine offset, hard margin (as paul2014.thm1.1).",
    )
)
