r"""Lei & Lan (2020), Sec. 2, Lemma (JL): the shape of ``r = O(log n / eps^2)``, ``lei2020.jl.shape``.

Statement as printed (Sec. 2, Lemma (JL), quoted from Johnson-Lindenstrauss)
    "for any 0 < eps < 1 and integer n", with ``r = O(log n / eps^2)`` and R a d x r random matrix, for any set of
    n points ``(1 - eps)||x_i - x_j|| <= ||R^T x_i - R^T x_j|| <= (1 + eps)||x_i - x_j||`` with high
    probability. No constant and no probability is given. ``lei2020.jl`` checks the lemma at the imported
    sufficient ``r`` of :func:`rpcheck.papers.lei2020.bounds.jl_min_dim` (explicit constants); here the shape of the
    O(.) is tested: the implied constant ``C*(x) = r*(x)/f(x)``, ``f = eps^-2 ln n``, must not grow when n is
    multiplied by 8 or eps divided by 8.

Data and protocol (one trial = one cell)
    The points are the simplex ``x_i = e_i`` (i = 1..n, d >= n) and R has i.i.d. N(0, 1/r) entries (the scale
    of ``lei2020.jl``'s "gaussian" row): ``R^T x_i`` is row i of R, so ``R^T x_i - R^T x_j = (g_i - g_j)/sqrt(r)``
    with i.i.d. standard Gaussian ``g_i`` (r-vectors), drawn directly (:func:`pair_distortions`; d does not
    enter). The event is the unsquared all-pairs distortion ``max_{i<j} | ||g_i - g_j||/sqrt(2r) - 1 | <= eps``;
    "with high probability" is read as ``1 - delta`` with ``delta = 0.2``. At each endpoint (``x_near``: n = 8,
    eps = 1/4; ``x_far``: n = 64, or eps = 1/32) :func:`rpcheck.engine.shape.bracket_search` brackets ``r*``
    (the engine's grid and bisection phases from the imported sufficient r, each bound at the one-sided level
    ``LEVEL = ALPHA/(4 K)``, K = 23, ALPHA = 0.01); :func:`rpcheck.engine.shape.growth_verdict` gives the
    verdict with ``tau = sqrt(8)``.

The rule and its error: as :mod:`rpcheck.engine.shape` derives it (union bound over the ``4 K`` one-sided
exact Clopper-Pearson bounds of the two endpoints; the failure probability non-increasing in r, assumed), with
one threshold ``sqrt(8)`` on the ratio ``C*(x_far)/C*(x_near)``: P(false VIOLATED) <= 0.01 when the implied
constant grows by at most sqrt(8), P(false HOLDS) <= 0.01 when it grows by more. Both per row; report rows are
outside the run's Holm families.

Variants (mode "report", verdict from :func:`decide`)
    ``scaling`` (claim, expected HOLDS). Measured ``r*`` (the smallest r with P(distortion > eps) <= 0.2;
    :func:`pair_distortions`, 6,000-20,000 draws per r, standard errors about 0.005): n = 8, eps = 1/4: P = 0.2024
    at r = 54 and 0.1993 at 55, ``r* = 55``, ``C* = 55/33.27 = 1.653``; n = 64: P = 0.2177 at 116 and 0.1807 at
    120, ``r* ~ 118``, ``C* = 118/66.54 = 1.773``, ratio **1.07**; eps = 1/32: P = 0.2043 at 3,500 and 0.1610 at
    3,700, ``r* ~ 3,520``, ``C* = 3,520/2,129 = 1.653``, ratio **1.00**. Both lie below sqrt(8) = 2.83, the side
    where the rule's right verdict is HOLDS; it comes out when the bands' excess ``(U_far/r*_far)(r*_near/L_near)``
    is below ``2.83/1.07 = 2.6``, and each factor is at most one endpoint's band ``U/L`` (1.1-1.3 at ci,
    brackets [49, 60] at the base, [112, 128] and [3,143, 3,990] at the far points, so the excess is at most
    1.7). The growth along n is pre-asymptotic: the pairs' failure events are dependent and the Cramer
    approximation ``r* ~ ln(n(n-1)/delta)/I(eps)`` (which predicts a 12% fall) ignores the polynomial prefactor;
    a drift of 7% over an 8x span is far from the half power (2.83x) the rule calls a wrong shape.
    Fresh seeds 601-620 at quick and 621-640 at ci (``rpcheck calibrate --theorem lei2020.jl.shape``, 80 claim
    rows): every row HOLDS, upper ends 1.28-1.65 (quick) and 1.20-1.45 (ci).
    ``wrong_power`` (control, expected VIOLATED): the same rule on ``f/g``, ``g = n/n_near`` (n axis) or
    ``g = eps_near/eps`` (eps axis): the formula lacking one power of the axis variable (eps^-1 where eps^-2 is
    needed; a factor n missing). The control's bands are the claim's with the far one times 8, so it is
    VIOLATED exactly when the claim's lower ratio end is >= sqrt(8)/8 = 0.354; that end is at least the true
    ratio over the band product, at least 1.00/1.7 = 0.59 with the measured ratios above (band products 1.3-1.6 in
    the ci runs). Pilot (seeds 0-2, 200 and 400 draws): lower ends 5.75-7.21, every row VIOLATED; fresh seeds 101-105
    (quick and ci, 20 rows): 5.42-7.29; fresh seeds 601-640 as above (80 rows): 5.15-7.46, every row VIOLATED.

Cost (CPU seconds of the trials, one process): quick (200 draws) about 2.3 s, ci (400 draws) about 4.5 s.
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import Constraint, Param, Profile, Theorem
from ...engine import shape as shape_rule
from ...engine.registry import register
from . import _common as c
from .bounds import jl_min_dim

__all__ = ["THEOREM", "trial", "decide", "pair_distortions", "formula", "endpoints", "ALPHA", "LEVEL", "SPAN"]

#: Error of each row's verdict; one-sided level of every bound (2 sides x K evaluations x 2 endpoints).
ALPHA = 0.01
K = shape_rule.max_evaluations()
LEVEL = ALPHA / (4 * K)
SPAN = 8
AXIS_DIRECTION = {"n": 1, "eps": -1}
_CHUNK_ENTRIES = 1 << 20


def pair_distortions(n_points, r, draws, rng):
    """``draws`` independent values of ``max_{i<j} | ||g_i - g_j||/sqrt(2r) - 1 |`` for ``n_points`` i.i.d.
    standard Gaussian r-vectors ``g_i``: the unsquared all-pairs distortion of the simplex under R with N(0, 1/r)
    entries (module docstring). Squared distances from the Gram matrix, ``G_ii + G_jj - 2 G_ij``: rounding
    ``~ (r + 2) u (G_ii + G_jj)``, about ``1e-13`` relative at r = 10^4, far below the eps >= 1/32 of the cells
    (tests/checkers/test_lei2020_jl_shape_rule.py compares with the pairwise differences)."""
    out = np.empty(draws)
    per = max(1, _CHUNK_ENTRIES // (n_points * r))
    iu, ju = np.triu_indices(n_points, 1)
    done = 0
    while done < draws:
        m = min(per, draws - done)
        G = rng.standard_normal((m, n_points, r))
        gram = G @ G.transpose(0, 2, 1)
        diag = np.einsum("mii->mi", gram)
        d2 = diag[:, iu] + diag[:, ju] - 2.0 * gram[:, iu, ju]
        out[done:done + m] = np.max(np.abs(np.sqrt(np.maximum(d2, 0.0) / (2.0 * r)) - 1.0), axis=1)
        done += m
    return out


def formula(n_points, eps):
    """``f = eps^-2 ln n`` (the lemma's O(.) without its constant, natural log)."""
    return math.log(n_points) / (eps * eps)


def endpoints(params):
    """``(near, far)`` dicts of n and eps: the far one with the axis variable times 8 (n) or divided by 8 (eps)."""
    ax = params["axis"]
    near = {"n": int(params["n"]), "eps": float(params["eps"])}
    return shape_rule.span_endpoints(near, ax, AXIS_DIRECTION[ax], SPAN)


def _g(params, point):
    ax = params["axis"]
    return (point[ax] / params[ax]) ** AXIS_DIRECTION[ax]


@single_threaded
def trial(params, rng):
    """Both endpoints' bracket searches on independent child streams; the evaluations are the diagnostics."""
    delta, draws = float(params["delta"]), int(params["draws"])

    def search(pt, stream):
        n_points, eps = pt["n"], pt["eps"]

        def failures(r):
            return int(np.count_nonzero(pair_distortions(n_points, r, draws, stream) > eps))

        start = jl_min_dim(n_points, eps, delta)
        return shape_rule.bracket_search(failures, start, delta=delta, trials=draws, level=LEVEL), {}

    return shape_rule.shape_trial(endpoints(params), rng, search)


def decide(records, params):
    """The two rows of the cell from the searched brackets (module docstring)."""
    if not records:
        return {}, {}
    diags = records[0].diagnostics
    delta, tau = float(params["delta"]), math.sqrt(SPAN)
    info = {"axis": params["axis"], "alpha": ALPHA, "tau": tau, "one_sided_level": LEVEL}
    bands = {}
    for name, pt in zip(("near", "far"), endpoints(params)):
        evals = shape_rule.evaluations_of(diags, name)
        L, U = shape_rule.certified_bracket(evals, delta, LEVEL)
        f = formula(pt["n"], pt["eps"])
        bands[name] = {"L": L, "U": U, "f": f, "g": _g(params, pt)}
        info[name] = {**pt, **shape_rule.band_info(L, U, f), "evaluations": len(evals),
                      "seconds": diags.get(f"{name}.seconds")}  # fmt: skip
    verdicts, rows = shape_rule.shape_rows(bands["near"], bands["far"], tau)
    info.update(rows)
    info["claim"] = shape_rule.shape_claim(
        f"C* = r*/(eps^-2 ln n) at the far point over the base ({params['axis']} "
        f"{'x8' if AXIS_DIRECTION[params['axis']] > 0 else '/8'})", rows, tau, alpha=ALPHA, bounds=4 * K,
        level=LEVEL, monotone="failure probability non-increasing in r assumed")
    return verdicts, info


def _cells(draws):
    return tuple({"axis": ax, "n": 8, "eps": 0.25, "delta": 0.2, "draws": draws} for ax in ("n", "eps"))


def _pass_attainable(params):
    return (1.0 - float(params["delta"])) ** int(params["draws"]) <= LEVEL


THEOREM = register(
    Theorem(
        id="lei2020.jl.shape",
        paper="lei2020",
        title="Lemma (JL): the implied constant of r = O(log n / eps^2) does not grow along n or eps (x8)",
        citation=c.citation("Sec. 2, Lemma (JL)"),
        statement="For r = O(log n / eps^2) and R a d x r random matrix, (1-eps)||x_i-x_j|| <= ||R^T x_i - R^T x_j|| "
        "<= (1+eps)||x_i-x_j|| for any n points with high probability (no constant, no probability given).",
        kind="probabilistic",
        variants=shape_rule.shape_variants(
            "C*(x) = r*(x)/(eps^-2 ln n) at the far point over the base (n x8 or eps /8): VIOLATED iff certified >= "
            "sqrt(8), HOLDS iff certified <= sqrt(8)",
            "the same rule on the formula lacking one power of the axis variable (negative control)",
            assumed=(
                "R with i.i.d. N(0, 1/r) entries; the points are the simplex e_1..e_n; 'with high probability' read "
                "as 1 - delta, delta = 0.2.",
                "P(distortion > eps) is non-increasing in r (used for the lower end of each bracket).",
            ),
            note="The control's bands are the claim's with the far one times 8: VIOLATED iff the claim's lower ratio "
            "end >= sqrt(8)/8 (derivation in rpcheck.papers.lei2020.jl_shape).",
        ),
        profiles={
            "quick": Profile(_cells(200), trials=1),
            "ci": Profile(_cells(400), trials=1),
            "standard": Profile(_cells(1000), trials=1),
            "full": Profile(_cells(2000), trials=1),
        },
        trial=trial,
        decide=decide,
        parameters={
            "axis": Param("choice", choices=tuple(AXIS_DIRECTION), doc="the variable moved by 8"),
            "n": Param("int", low=2, doc="number of points at the base point"),
            "eps": Param("float", low=0.0, high=1.0, closed="neither", doc="distortion eps at the base point"),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability read for 'w.h.p.'"),
            "draws": Param("int", low=1, doc="draws per evaluated r"),
        },
        constraints=(
            Constraint("draws large enough that 0 failures certify a pass: (1 - delta)^draws <= LEVEL",
                       _pass_attainable),
        ),
        notes="One trial per cell: the trial runs both endpoints' bracket searches (rpcheck.engine.shape).",
    )
)
