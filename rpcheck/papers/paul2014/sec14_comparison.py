r"""Paul et al. (2014), Sec. 1.4: their relative-error margin guarantee against Shi et al.'s additive one.

Statement as printed (arXiv v5, Sec. 1.4 "Prior work")
    "There are two main differences between their result and ours. They show margin preservation to within
    additive error, whereas we give margin preservation to within relative error. This is a big difference
    especially when the margin is small."

The two bounds, on the same projection dimension ``r`` and failure probability ``delta``
    Paul et al., Theorem 3.5: ``gamma~^2 >= (1 - eps) gamma^2`` when ``||V^T V - V^T R R^T V||_2 <= eps``, i.e. the
    lower bound ``L_P(gamma) = sqrt(1 - eps_P) gamma``. For a Gaussian ``R`` (d x r, N(0, 1/r)) and rank ``rho``,
    ``eps_P`` is the least ``eps`` with :func:`rpcheck.papers.paul2014.bounds.gaussian_embedding_failure_bound`
    ``(rho, r, eps) <= delta`` (a derived, explicit-constant form of Lemma 3.4, eq. (10), whose constant is not
    printed), found by bisection (:func:`eps_paul`).
    Shi et al., Theorem 6 as printed: the projected normalised margin is at least ``L_S(gamma) = gamma - a``,
    ``a = 2 eps_S/(1 - eps_S)``, with probability ``1 - delta`` when ``r > 12/(3eps^2 - 2eps^3) ln(6m/delta)``
    (``m`` points); ``eps_S`` is the least such ``eps`` (the root of ``3eps^2 - 2eps^3 = 12 ln(6m/delta)/r``,
    :func:`eps_shi`; every larger ``eps`` satisfies the strict condition and the bound is continuous in ``eps``).
    On unit-norm points a separator's normalised margin is its geometric margin, so both start from the same
    ``gamma``; the rows compare the printed bounds as functions of ``gamma`` (the projected quantities differ:
    Paul's ``gamma~`` is the projected SVM's geometric margin, Shi's divides by ``||R x||``).

Rows (deterministic, arithmetic on the two printed bounds: ``exhaustive=True``, one evaluation per cell)
    ``relative_form`` (HOLDS): ``L_P(g)/g = sqrt(1 - eps_P)`` for ``g`` in ``{gamma/4, gamma/2, gamma}`` (the ratio
    does not depend on the margin: relative error). Exact up to 1e-12 (rounding).
    ``additive_form`` (HOLDS): ``g - L_S(g) = a`` on the same grid (the loss does not depend on the margin:
    additive error).
    ``paul_above_shi`` (the comparison): ``L_P(gamma) > L_S(gamma)``. Derivation: ``sqrt(1 - eps_P) gamma >
    gamma - a`` iff ``gamma < gamma_x = a/(1 - sqrt(1 - eps_P))``; expected HOLDS where ``gamma < gamma_x``,
    VIOLATED where ``gamma > gamma_x`` (per cell; no cell sits within 1e-6 of ``gamma_x``). The cell with
    ``rho = 100``, ``gamma = 0.99`` is beyond ``gamma_x ~ 0.84``: the relative bound is not uniformly the
    stronger one (finding ``sec14-not-uniform``), as the text's "especially when the margin is small" allows.
    ``shi_vacuous_paul_not`` (the small-margin case): ``L_S(gamma) <= 0 < L_P(gamma)``; expected HOLDS iff
    ``gamma <= a`` (and ``eps_P < 1``), else VIOLATED.
    Negative controls (role control, VIOLATED): ``control_relative_on_shi``, the ``relative_form`` check on Shi's
    bound (``L_S(g)/g = 1 - a/g`` varies with ``g`` when ``a > 0``); ``control_additive_on_paul``, the
    ``additive_form`` check on Paul's bound (``g (1 - sqrt(1 - eps_P))`` varies when ``eps_P > 0``);
    ``control_shi_above_paul``, ``L_S > L_P`` at ``gamma_x/2`` (``min(gamma_x/2, 1)``), below the crossing.
"""

from __future__ import annotations

import math

from scipy import optimize

from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ..shi2012 import bounds as BS
from . import bounds as BP
from ._common import cite

__all__ = ["THEOREM", "eps_paul", "eps_shi", "crossing", "bounds"]

THEOREM_ID = "paul2014.sec14_comparison"
#: relative rounding allowance of the arithmetic identities
TOL = 1e-12


def eps_paul(rho, r, delta):
    """Least ``eps`` in (0, 1) with ``gaussian_embedding_failure_bound(rho, r, eps) <= delta`` (bisection to 1e-13;
    1.0 when none)."""
    if BP.gaussian_embedding_failure_bound(rho, r, 1 - 1e-12) > delta:
        return 1.0
    lo, hi = 0.0, 1 - 1e-12
    while hi - lo > 1e-13:
        mid = (lo + hi) / 2
        if mid > 0 and BP.gaussian_embedding_failure_bound(rho, r, mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def eps_shi(r, m, delta):
    """Root of ``3eps^2 - 2eps^3 = 12 ln(6m/delta)/r`` in (0, 1) (1.0 when the right side is >= 1)."""
    t = 12 * math.log(6 * m / delta) / r
    if t >= 1:
        return 1.0
    return float(optimize.brentq(lambda e: 3 * e * e - 2 * e**3 - t, 0.0, 1.0, xtol=1e-15))


def bounds(params):
    """``(eps_P, eps_S, a)`` of a cell."""
    r, rho, m, delta = int(params["r"]), int(params["rho"]), int(params["m"]), float(params["delta"])
    ep, es = eps_paul(rho, r, delta), eps_shi(r, m, delta)
    return ep, es, 2 * es / (1 - es) if es < 1 else math.inf


def crossing(params):
    """``gamma_x = a/(1 - sqrt(1 - eps_P))``: Paul's bound is above Shi's exactly for ``gamma < gamma_x``."""
    ep, _, a = bounds(params)
    return a / (1 - math.sqrt(1 - ep))


def _lp(g, ep):
    return math.sqrt(1 - ep) * g


def _ls(g, es):
    return BS.thm6_margin_bound(g, es)


def _constant(vals):
    """Outcome of "these values are equal" (relative spread <= TOL)."""
    spread = (max(vals) - min(vals)) / max(1.0, max(abs(v) for v in vals))
    return Outcome(spread <= TOL, spread, TOL)


def trial(params, rng):
    del rng  # arithmetic on the printed bounds
    g = float(params["gamma"])
    ep, es, a = bounds(params)
    grid = (g / 4, g / 2, g)
    gx = crossing(params)
    gc = min(gx / 2, 1.0)
    lp, ls = _lp(g, ep), _ls(g, es)
    out = {
        "relative_form": _constant([_lp(x, ep) / x for x in grid]),
        "additive_form": _constant([x - _ls(x, es) for x in grid]),
        "paul_above_shi": Outcome(lp > ls, lp - ls, 0.0),
        "shi_vacuous_paul_not": Outcome(ls <= 0 < lp, ls, 0.0),
        "control_relative_on_shi": _constant([_ls(x, es) / x for x in grid]),
        "control_additive_on_paul": _constant([x - _lp(x, ep) for x in grid]),
        "control_shi_above_paul": Outcome(_ls(gc, es) > _lp(gc, ep), _ls(gc, es) - _lp(gc, ep), 0.0),
    }
    diags = {"eps_paul": ep, "eps_shi": es, "shi_additive_loss": a, "paul_lower": lp, "shi_lower": ls,
             "gamma_cross": gx}
    return TrialRecord(outcomes=out, diagnostics=diags)


def _expect_above(params):
    return Verdict.HOLDS if float(params["gamma"]) < crossing(params) else Verdict.VIOLATED


def _expect_vacuous(params):
    ep, _, a = bounds(params)
    return Verdict.HOLDS if float(params["gamma"]) <= a and ep < 1 else Verdict.VIOLATED


def _cell(gamma, rho=10, r=2000, m=100, delta=0.1):
    return {"gamma": gamma, "rho": rho, "r": r, "m": m, "delta": delta}


# eps_P, eps_S, a, gamma_x: (rho 10, r 2000, m 100): 0.255, 0.138, 0.321, 2.35; (rho 100, r 2000, m 100): 0.617,
# 0.138, 0.321, 0.843; (rho 10, r 500, m 20): 0.531, 0.262, 0.711, 2.25
# (tests/checkers/test_paul2014_sec14_comparison.py).
CELLS = (_cell(0.05), _cell(0.2), _cell(0.6), _cell(0.05, rho=100), _cell(0.99, rho=100), _cell(0.3, r=500, m=20))
_H, _V = Verdict.HOLDS, Verdict.VIOLATED

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="paul2014",
        title="Sec. 1.4: relative-error margin (Thm 3.5) vs Shi et al.'s additive error (Thm 6), same r and delta",
        citation=cite("Sec. 1.4 (Prior work)", "Theorem 3.5; Shi et al. 2012 Theorem 6"),
        statement="They show margin preservation to within additive error, whereas we give margin preservation to "
        "within relative error. This is a big difference especially when the margin is small.",
        kind="deterministic",
        variants=(
            Variant("relative_form", "L_P(g)/g = sqrt(1 - eps_P) for g in {gamma/4, gamma/2, gamma}",
                    expected=_H, exhaustive=True),
            Variant("additive_form", "g - L_S(g) = 2eps_S/(1 - eps_S) for g in {gamma/4, gamma/2, gamma}",
                    expected=_H, exhaustive=True),
            Variant("paul_above_shi", "sqrt(1 - eps_P) gamma > gamma - 2eps_S/(1 - eps_S) (Paul's bound is higher)",
                    expected=_expect_above, exhaustive=True,
                    note="Expected HOLDS iff gamma < gamma_x = a/(1 - sqrt(1 - eps_P)) (derived per cell)."),
            Variant("shi_vacuous_paul_not", "L_S(gamma) <= 0 < L_P(gamma) (small margin: only Paul's says something)",
                    expected=_expect_vacuous, exhaustive=True, note="Expected HOLDS iff gamma <= a."),
            Variant("control_relative_on_shi", "negative control: relative_form's check on Shi's bound",
                    expected=_V, role="control", exhaustive=True),
            Variant("control_additive_on_paul", "negative control: additive_form's check on Paul's bound",
                    expected=_V, role="control", exhaustive=True),
            Variant("control_shi_above_paul", "negative control: L_S > L_P at min(gamma_x/2, 1)",
                    expected=_V, role="control", exhaustive=True),
        ),
        profiles={name: Profile(CELLS, trials=1) for name in ("quick", "ci", "standard", "full")},
        trial=trial,
        parameters={
            "gamma": Param("float", low=0.0, high=1.0, closed="right", doc="margin (unit-norm points)"),
            "rho": Param("int", low=1, doc="rank of the data (Paul et al.'s rho)"),
            "r": Param("int", low=1, doc="projection dimension (Shi et al.'s n)"),
            "m": Param("int", low=1, doc="number of points (Shi et al.'s union bound)"),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability of both bounds"),
        },
        tolerance=TOL,
        tolerance_note="arithmetic identities to 1e-12 relative",
        findings=(
            Finding(
                "sec14-not-uniform",
                "At the same r and delta the relative bound sqrt(1 - eps_P) gamma is above the additive gamma - "
                "2eps_S/(1 - eps_S) exactly for gamma < a/(1 - sqrt(1 - eps_P)); with rank 100, r = 2000, "
                "delta = 0.1 that crossing is ~0.843 (eps_P ~ 0.617 with the explicit Gaussian embedding "
                "bound) and the additive bound is the higher one at gamma = 0.99. The text's comparison holds "
                "for small margins (where Shi et al.'s bound is vacuous: gamma <= 0.321 here), not uniformly.",
                evidence_variant="paul_above_shi",
                location="Sec. 1.4 (Prior work)",
                quote="This is a big difference especially when the margin is small.",
                kind="observation",
            ),
        ),
        notes="Pure arithmetic on the printed bounds; eps_P from the explicit Gaussian embedding bound.",
    )
)
