r"""Theorem 5 of Shi et al. (2012): "the smaller acute angle, the better the preservation" (Section 6,
Conclusion; Theorem 5, eq. (4); Section 5.1) -- the width of the band (4) as a function of ``c = cos(w, x)``,
``shi2012.thm5.band_width``. The width of the *measured* band of ``c' = cos(Rw, Rx)`` is
shi2012.thm5.measured_band (module ``thm5_measured_band``).

Statement as printed
    Theorem 5, eq. (4): with probability >= 1 - 6 exp(-(n/2)(eps^2/2 - eps^3/3)),
    ``Lo(c, eps) = (1+eps)/(1-eps) c - 2eps/(1-eps) <= c' <= 1 - sqrt(1-eps^2)/(1+eps) + eps/(1+eps)
    + (1-eps)/(1+eps) c = Up(c, eps)``. Section 6: "The smaller acute angle, the better the preservation";
    Section 5.1: "Since acute angles are provably preserved" / "neither angle nor inner product is preserved
    when obtuse".

Protocol
--------
Kind deterministic (arithmetic on the printed formula, one cell per ``eps``,
every row ``exhaustive``: the grid is fixed, one evaluation decides). The grid is
``c_j = -1 + j 10^-5``, ``j = 1..199999`` (all of ``(-1, 1)`` at step ``10^-5``).

``width_as_printed`` (claim; expected HOLDS in every cell). ``W(c) = Up - Lo =
[2eps(1-c) + 1 - sqrt(1-eps^2)]/(1+eps) + 2eps(1-c)/(1-eps)`` is linear in ``c`` with slope
``-2eps/(1+eps) - 2eps/(1-eps) = -4eps/(1-eps^2) < 0``: strictly decreasing on all of (-1, 1), acute or not.
Checked: every consecutive difference ``W(c_{j+1}) - W(c_j)`` is < 0 (it is ``-4eps 10^-5/(1-eps^2)``,
at least ``4e-7`` in size for ``eps >= 0.01``, while float64 rounding of ``W`` is ``< 1e-15``).

``width_clipped_acute`` (claim, second reading; expected derived per cell). What the band says about
``c'`` in [-1, 1] is ``[max(Lo, -1), min(Up, 1)]``; its width ``W_clip`` is non-increasing in ``c`` on the
acute range (0, 1) iff there is no acute ``c`` with ``Lo(c) < -1`` and ``Up(c) < 1`` (there ``W_clip = Up + 1``
increases with slope ``(1-eps)/(1+eps) > 0``; elsewhere it is ``1 - Lo``, ``Up - Lo`` or ``2``, all
non-increasing). ``Lo(c) < -1`` iff ``c < (3eps-1)/(1+eps)``, positive iff ``eps > 1/3``; ``Up(c) < 1`` iff
``c < 1 - (1 - sqrt(1-eps^2))/(1-eps)``, positive at ``c = 0`` iff ``eps < 1/sqrt(2)``. So expected VIOLATED
for ``1/3 < eps < 1/sqrt(2)`` (e.g. ``eps = 0.5``: ``W_clip = 1.756 + c/3`` on ``(0, 1/3)``) and HOLDS
otherwise; a constraint keeps every VIOLATED cell's increasing stretch >= 1e-3 long (100 grid steps; it is
0.0149 at ``eps = 0.34`` and 0.047 at ``eps = 0.70``, the grid values nearest the two ends), and the
tolerance of "non-increasing" is ``1e-12`` (``W_clip`` is constant at 2 on a stretch when
``eps >= 1/sqrt(2)``).

``width_control`` (control; expected VIOLATED): the same monotonicity check run on a band with a planted bug
-- the two slopes swapped (``Lo`` with ``(1-eps)/(1+eps)``, ``Up`` with ``(1+eps)/(1-eps)``), whose width has
slope ``+4eps/(1-eps^2) > 0``: every consecutive difference is positive, so the check must fail.

"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, grid, register
from . import _common as c
from . import bounds as B

__all__ = ["THEOREM", "trial", "C_GRID", "FLAT_TOL"]

#: The fixed c grid of the arithmetic rows: (-1, 1) at step 1e-5, endpoints excluded.
C_GRID = -1.0 + 1e-5 * np.arange(1, 200000)

#: Tolerance of "non-increasing" for the clipped width (it is exactly 2 on a stretch for eps >= 1/sqrt 2;
#: float64 rounding of min(Up, 1) - max(Lo, -1) is < 1e-15).
FLAT_TOL = 1e-12



# ------------------------------------------------------------------------------------------ the formula
def _swapped_band(cc, eps):
    """The planted bug of the control: Theorem 5's band with its two slopes swapped."""
    lo = (1 - eps) / (1 + eps) * cc - 2 * eps / (1 - eps)
    up = 1 - math.sqrt(1 - eps**2) / (1 + eps) + eps / (1 + eps) + (1 + eps) / (1 - eps) * cc
    return lo, up


def _max_step(w):
    """Largest consecutive difference w[j+1] - w[j] (> 0 somewhere iff w is not non-increasing)."""
    return float(np.max(np.diff(w)))


def trial(params, rng):  # noqa: ARG001 - fixed inputs, no randomness
    eps = params["eps"]
    step = _max_step(B.thm5_band_width(C_GRID, eps))
    acute = C_GRID[C_GRID > 0]
    step_clip = _max_step(B.thm5_band_width(acute, eps, clipped=True))
    lo_s, up_s = _swapped_band(C_GRID, eps)
    step_ctrl = _max_step(up_s - lo_s)
    out = {
        "width_as_printed": Outcome(holds=step < 0, statistic=step, bound=0.0),
        "width_clipped_acute": Outcome(holds=step_clip <= FLAT_TOL, statistic=step_clip, bound=FLAT_TOL),
        "width_control": Outcome(holds=step_ctrl < 0, statistic=step_ctrl, bound=0.0),
    }
    return TrialRecord(outcomes=out, diagnostics={"slope_times_step": -4 * eps / (1 - eps**2) * 1e-5})


def _stretch(eps):
    """Length of the acute stretch (0, min((3eps-1)/(1+eps), 1 - (1-sqrt(1-eps^2))/(1-eps))) on which
    Lo < -1 < Up < 1, i.e. where the clipped width increases; inf when there is none (nothing to resolve)."""
    if not 1 / 3 < eps < 1 / math.sqrt(2):
        return math.inf
    return min((3 * eps - 1) / (1 + eps), 1 - (1 - math.sqrt(1 - eps**2)) / (1 - eps))


def _clipped_expected(p):
    e = p["eps"]
    return c.V if 1 / 3 < e < 1 / math.sqrt(2) else c.H


_EPS_CI = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.9]
_EPS_FULL = [round(0.01 * i, 2) for i in range(1, 100)]

THEOREM = register(Theorem(
    id="shi2012.thm5.band_width",
    paper="shi2012",
    title="Theorem 5 / Sec. 6 (C6): the width Up - Lo of band (4) decreases in c = cos(w, x); clipped to "
          "[-1, 1] it does not for 1/3 < eps < 1/sqrt 2",
    citation=c.citation("Theorem 5, eq. (4); Section 6 (Conclusion)", "(4)"),
    statement=("Theorem 5, eq. (4): (1+eps)/(1-eps) c - 2eps/(1-eps) <= cos(Rw,Rx) <= 1 - sqrt(1-eps^2)/(1+eps) "
               "+ eps/(1+eps) + (1-eps)/(1+eps) c. Section 6: 'The smaller acute angle, the better the "
               "preservation.'"),
    kind="deterministic",
    variants=(
        Variant("width_as_printed", "Up(c,eps) - Lo(c,eps) strictly decreasing in c on a 1e-5 grid of (-1, 1)",
                mode="deterministic", expected=c.H, exhaustive=True),
        Variant("width_clipped_acute", "min(Up,1) - max(Lo,-1) non-increasing in c on the acute grid (0, 1)",
                mode="deterministic", expected=_clipped_expected, exhaustive=True,
                note="VIOLATED exactly for 1/3 < eps < 1/sqrt(2), where Lo <= -1 < Up < 1 for small acute c."),
        Variant("width_control", "negative control: the same check on the band with its two slopes swapped "
                                 "(planted bug; slope +4eps/(1-eps^2))",
                mode="deterministic", expected=c.V, exhaustive=True, role="control"),
    ),
    profiles={
        "quick": Profile(cells=grid(eps=[0.1, 0.5]), trials=1),
        "ci": Profile(cells=grid(eps=_EPS_CI), trials=1),
        "standard": Profile(cells=grid(eps=_EPS_FULL), trials=1),
        "full": Profile(cells=grid(eps=_EPS_FULL), trials=1),
    },
    parameters={"eps": c.FLOAT(0.01, 0.99, doc="distortion eps")},
    constraints=(c.Constraint("for 1/3 < eps < 1/sqrt(2), the stretch where the clipped width increases is "
                              ">= 1e-3 long (100 grid steps)", lambda p: _stretch(p["eps"]) >= 1e-3),),
    trial=trial,
    tolerance=FLAT_TOL,
    tolerance_note="float64 closed forms: consecutive differences are >= 4e-7 in size, rounding < 1e-15",
    findings=(
        Finding(
            "C6-bound",
            "The printed band (4) narrows as c grows (slope -4eps/(1-eps^2)), for every c, acute or obtuse; "
            "intersected with [-1, 1] it widens with c on (0, (3eps-1)/(1+eps)) when 1/3 < eps < 1/sqrt(2), where "
            "its lower end is the trivial -1.",
            evidence_variant="width_clipped_acute",
            location="Theorem 5, eq. (4); Section 6",
            quote="the smaller acute angle, the better the preservation of the angle and the inner product",
            kind="observation",
        ),
    ),
))
