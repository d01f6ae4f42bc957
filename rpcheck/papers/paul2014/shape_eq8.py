r"""Shape test of the O(.) target dimension of Paul et al. (2014), eq. (8) (Lemma 3.3), for the CountSketch.

Statement as printed (arXiv v5, Sec. 1.3, eq. (8); Lemma 3.3)
    "If R is constructed as described in Clarkson and Woodruff [2013], Meng and Mahoney [2013] and Nelson and
    Nguyen [2013], then given eps in (0, 1) and delta in (0, 1) we set r = O(rho eps^-4 log(rho/(delta eps))
    (rho + log(1/(delta eps))))" (eq. (8)); Lemma 3.3: with that r, with probability at least ``1 - delta``,
    ``||V^T V - V^T R R^T V||_2 <= eps`` for every d x rho matrix V with orthonormal columns. Its proof "follows
    from Theorem 1 of Meng and Mahoney [2013]". The constant of the O(.) is not given
    (:func:`rpcheck.papers.paul2014.bounds.eq8_cw` gives ``f`` with constant 1 and the natural log).

The sketch and the row space
    The CountSketch: every row of R (d x r) holds one +-1 in a uniformly random column, independent signs. It is
    the sparse embedding of Clarkson and Woodruff [2013] in its basic form and the construction of Meng and
    Mahoney [2013], and the CW matrix of Sec. 2 with q = a = 1 (:class:`rpcheck.sketches.CountSketch`). The row
    space is the coherent one, ``V = [e_1 ... e_rho]`` (a matrix with orthonormal columns, so inside the lemma's
    "every V"), where the failure probability has a closed form
    (:func:`rpcheck.papers.paul2014.bounds.countsketch_coherent_failure`): ``V^T R`` is the first rho rows of R; two of
    them in the same column give the 2 x 2 block ``[[1, s], [s, 1]]`` of ``V^T R R^T V`` (eigenvalues 0 and 2,
    ``e >= 1``), no collision gives ``V^T R R^T V = I`` (``e = 0``), so for every eps < 1

    .. math:: p(r) = P(e > \epsilon) = 1 - \prod_{k=1}^{\rho - 1} (1 - k/r),

    non-increasing in r (each factor increases with r), and the smallest r with ``p(r) <= delta`` is
    ``r*(rho, delta)``, free of eps. The trial draws the sketches (not the closed form) and computes ``e`` from the
    eigenvalues of the rho x rho Gram matrix; tests/checkers/test_paul2014_shape_eq8.py checks the draws against
    :func:`rpcheck.linalg.embedding_distortion` of the explicit R and their rate against the closed form.

What is tested
    As in :mod:`rpcheck.papers.paul2014.shape` (the rule, its error and the bracket search are the same, module
    docstring there): "r = O(f)" says ONE constant serves every parameter point, i.e. ``C*(x) = r*(x)/f(x)`` is
    bounded; on a finite range the shape is tested: each cell moves one variable of eq. (8) (its *axis*: rho,
    eps, delta; eq. (8) has no d) by ``SPAN = 8`` from the base point ``BASE`` (rho = 4, eps = 1/2, delta = 0.2)
    in the direction in which f grows (rho x 8; eps, delta / 8) and compares the implied constants. The search at
    each endpoint starts at the derived sufficient ``r = ceil((rho^2 + rho)/(eps^2 delta))``
    (:func:`rpcheck.papers.paul2014.bounds.sparse_embedding_markov_r`: a pass in truth), walks a factor-2 grid down
    for at most ``GRID_STEPS = 12`` steps (the start is at most 2^10 times r* in every cell: 25,600 / 29 at eps =
    1/16), bisects (5 steps), then walks down (4) and bisects (5) for the largest certified failure: at most
    ``EVALUATIONS = 27`` values of r per endpoint, every one-sided Clopper-Pearson bound at ``BETA = ALPHA/(4 x 27)
    = 9.3e-5``. Verdicts (:func:`rpcheck.engine.shape.growth_verdict`, one threshold ``tau = sqrt(8)`` on the
    ratio ``C*(x_far)/C*(x_near)``): VIOLATED when ``L_far/f_far >= sqrt(8) U_near/f_near`` (the constant grew by
    more than sqrt(8); P(false VIOLATED) <= ALPHA = 0.01 when it did not), HOLDS when ``U_far/f_far <= sqrt(8)
    L_near/f_near`` (it grew by less; P(false HOLDS) <= ALPHA when it did not), else INCONCLUSIVE. The
    monotonicity that the lower end L needs is proved here (above), not assumed.

Variants (mode "report", verdict from :func:`decide`) and the derivation of each expected verdict
    The exact r* (:func:`exact_r_star`) and f give the true ratio ``C*(x_far)/C*(x_near)`` per axis:

    ====== ============ ============= ========== ============ ============
    axis   r* near      r* far        f near     f far        true ratio
    ====== ============ ============= ========== ============ ============
    rho    29           2,234         1,488      101,309      1.13
    eps    29           29            1,488      12,674,720   1.2e-4
    delta  29           239           1,488      3,094        3.96
    ====== ============ ============= ========== ============ ============

    ``scaling`` (claim): HOLDS along rho and eps, VIOLATED along delta: the true ratios lie below sqrt(8) = 2.83
    (rho: 1.13; eps: 1.2e-4) and above it (delta: 3.96), and the rule has one right verdict on each side. HOLDS
    along rho needs the bands' excess ``(U_far/r*_far)(r*_near/L_near)`` below ``2.83/1.13 = 2.5``; VIOLATED
    along delta needs ``(U_near/r*_near)(r*_far/L_far)`` below ``3.96/2.83 = 1.40``; along eps the true ratio is
    1.2e-4 (HOLDS whatever the bands). Each factor of an excess is at most one endpoint's band ``U/L`` (r* lies
    inside it). The band ``U/L`` of one endpoint is the r-range over which the one-sided bounds at BETA cannot
    tell ``p(r)`` from delta, ``p(r) ~ C(rho, 2)/r`` near r*, so ``U/L ~ (1 + z s)/(1 - z s)`` with ``z = 3.7``
    (BETA) and ``s = sqrt((1 - delta)/(n delta))`` the relative standard error: 1.6 at n = 1,000 draws, 1.4 at
    2,000, 1.12 at 16,000 (the draws at the far delta scaled by 8, the same relative precision). So the rho and
    eps cells run 1,000 draws per value (quick) and 2,000 (ci), and the delta cell 16 times more (16,000 and
    32,000; 0.8 CPU s at 16,000). Simulation of the search on binomial counts drawn from the exact ``p(r)``
    (``rpcheck.engine.shape.bracket_search`` itself; 2,000 repetitions per setting, 20,000 at 12,000 and 16,000
    draws): along delta, VIOLATED in 20 / 724 / 1,975 / 2,000 of 2,000 runs at 1,000 / 2,000 / 4,000 / 8,000
    draws, and in 20,000 of 20,000 at 12,000 and at 16,000 (claim lower ends 3.05-3.83 and 3.20-3.92); along rho
    HOLDS in 20,000 of 20,000 at 1,000 and 2,000 draws; along eps HOLDS in every run. Fresh seeds 601-620 at
    quick and 621-640 at ci (``rpcheck calibrate --theorem paul2014.shape_eq8``, 40 runs): 0 unexpected; claim
    ratio bands rho [0.57, 2.24] (quick) and [0.65, 1.84] (ci), delta lower ends 3.38-3.70; control lower ends
    4.58-7.09 (rho), 14.3-23.1 (eps), 27.1-29.6 (delta).

    ``wrong_power`` (control, expected VIOLATED on every axis): the same rule on ``f_w = f/g``, ``g =
    (x/x_near)^(s k)`` (s = +1 for rho, -1 for eps and delta; :func:`control_factor`) with the axis power lowered
    by ``k``: one for rho (``rho^1`` where the collisions need ``rho^2``) and delta (a factor delta where the
    collisions need ``1/delta``), six for eps (eps^-4 becomes eps^+2: r* does not depend on eps, so the claim's
    implied constant falls 8,500-fold over the span (true ratio 1.2e-4), and the power must be lowered by six
    for the control's constant to grow past sqrt(8) with room for the bands; five give a true ratio of 3.85, too
    close to 2.83). Derivation: ``g(x_near) = 1``, ``g(x_far) = 8^k``, so the control's true ratio is the
    claim's times ``8^k``: rho 9.05, eps 30.8, delta 31.7, each at least 3.2 times the threshold, above any
    excess of two bands at these draws (at most 2.9 at quick): VIOLATED. Simulation as above: VIOLATED in every
    run on every axis (control lower ends >= 13.6 along eps, >= 14.7 along delta).

Finding (``eq8_delta``)
    Along delta the implied constant grows 3.96-fold over the 8x span, beyond the half power (sqrt 8) that a
    pre-asymptotic drift may take: for this sketch eq. (8) is not an O(.) bound. The proof is exact: each
    factor ``1 - k/r <= (1 - 1/r)^k``, so ``p(r) >= 1 - (1 - 1/r)^C`` with ``C = C(rho, 2)``, and ``p(r) <= delta``
    needs ``r >= 1/(1 - (1 - delta)^(1/C)) >= C/ln(1/(1 - delta))`` (as ``1 - e^-x <= x``), about ``C/delta``:
    r* grows like 1/delta as delta -> 0 at fixed rho >= 2 and eps < 1, while f grows like log(1/delta)^2, so no
    constant serves every delta.

Not covered: the CW matrix of Sec. 2 with a > 1 sub-blocks (a = Theta(eps^-1 log(rho/(eps delta))), v =
Theta(eps^-1): the unit-constant block sizes grow with 1/eps and log(1/delta) themselves, and no closed form or
bound of its r* is derived here), and the CountSketch on incoherent row spaces (where r* is smaller).

Cost (the three cells, one process, the shared 2-core machine): quick 0.9 s, ci 1.8 s; the delta cell's 4 x 4
eigenvalue problems (16,000 and 32,000 draws per value at the base, eight times more at the far delta) dominate.
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import Constraint, Finding, Param, Profile, Theorem, Verdict, register
from ...engine import shape as shape_rule
from ._common import cite
from .bounds import countsketch_coherent_failure, eq8_cw, sparse_embedding_markov_r
from .shape import draws_at

__all__ = [
    "THEOREM",
    "trial",
    "decide",
    "distortions",
    "exact_r_star",
    "control_factor",
    "endpoints",
    "ALPHA",
    "SPAN",
    "GRID_STEPS",
    "EVALUATIONS",
    "BETA",
]

#: Family-wise error of each of a cell's two verdicts (module docstring of :mod:`rpcheck.papers.paul2014.shape`).
ALPHA = 0.01
#: Every axis is varied by this factor between the two endpoints of a cell.
SPAN = 8
#: Steps of the factor-2 grid from the derived sufficient r (which is at most 2^10 r* in every cell).
GRID_STEPS = 12
#: The most values one endpoint's search evaluates (:func:`rpcheck.engine.shape.max_evaluations`).
EVALUATIONS = shape_rule.max_evaluations(grid_steps=GRID_STEPS)
#: One-sided level of every Clopper-Pearson bound: 2 bounds x EVALUATIONS x 2 endpoints share ALPHA.
BETA = ALPHA / (2 * EVALUATIONS * 2)
#: The variables of eq. (8) and the direction in which f grows (+1: x SPAN at the far end; -1: / SPAN).
AXIS_DIRECTION = {"rho": 1, "eps": -1, "delta": -1}
#: Powers by which the negative control lowers the axis variable (module docstring, ``wrong_power``).
CONTROL_POWER = {"rho": 1, "eps": 6, "delta": 1}
#: The base point of every cell.
BASE = {"rho": 4, "eps": 0.5, "delta": 0.2, "span": SPAN}

_CHUNK_ENTRIES = 1 << 20


def distortions(rho, r, n, rng):
    """``n`` independent draws of ``e = ||I - V^T R R^T V||_2`` for the CountSketch R (d x r, one +-1 per row in a
    uniform column) on the coherent row space ``V = [e_1 ... e_rho]``: ``V^T R`` is the first rho rows of R, drawn
    as rho columns ``h`` and signs ``s``; its Gram matrix has entries ``s_k s_l [h_k = h_l]`` and ``e`` is the
    largest ``|1 - lambda|`` over its eigenvalues (d does not enter)."""
    out = np.empty(n)
    per = max(1, _CHUNK_ENTRIES // (rho * rho))
    done = 0
    while done < n:
        m = min(per, n - done)
        h = rng.integers(0, r, size=(m, rho))
        s = 2.0 * rng.integers(0, 2, size=(m, rho), dtype=np.int8) - 1.0
        gram = (h[:, :, None] == h[:, None, :]) * (s[:, :, None] * s[:, None, :])
        lam = np.linalg.eigvalsh(gram)
        out[done:done + m] = np.max(np.abs(1.0 - lam), axis=-1)
        done += m
    return out


def exact_r_star(rho, delta):
    """The smallest r with ``countsketch_coherent_failure(rho, r) <= delta`` (the exact r* of the module
    docstring; the failure probability is non-increasing in r, so the first such r is found by a doubling and a
    bisection).

    >>> exact_r_star(4, 0.2), exact_r_star(32, 0.2), exact_r_star(4, 0.025)
    (29, 2234, 239)
    """
    lo, hi = max(1, rho - 1), max(1, rho)
    while countsketch_coherent_failure(rho, hi) > delta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if countsketch_coherent_failure(rho, mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


def endpoints(params):
    """``(near, far)``: the base point and the point with the axis variable moved by ``span`` in the direction in
    which f grows; each a dict rho, eps, delta."""
    ax = params["axis"]
    near = {k: params[k] for k in ("rho", "eps", "delta")}
    return shape_rule.span_endpoints(near, ax, AXIS_DIRECTION[ax], int(params.get("span", SPAN)))


def control_factor(params, point):
    """``g(x) = (x / x_near)^(s k)`` of the control's formula ``f_w = f / g`` (s = AXIS_DIRECTION, k =
    CONTROL_POWER): 1 at the base point, ``span^k`` at the far one."""
    ax = params["axis"]
    return (point[ax] / params[ax]) ** (AXIS_DIRECTION[ax] * CONTROL_POWER[ax])


def search_endpoint(point, n, rng):
    """The bracket search at one endpoint from the derived sufficient r; returns ``[(r, failures, n), ...]``."""
    rho, eps, delta = int(point["rho"]), float(point["eps"]), float(point["delta"])
    start = sparse_embedding_markov_r(rho, eps, delta)

    def failures(r):
        return int(np.count_nonzero(distortions(rho, r, n, rng) > eps))

    return shape_rule.bracket_search(failures, start, delta=delta, trials=n, level=BETA, grid_steps=GRID_STEPS)


@single_threaded
def trial(params, rng):
    """Both endpoints' searches (independent child streams); the evaluations are the diagnostics."""
    return shape_rule.shape_trial(endpoints(params), rng,
                                  lambda point, stream: (search_endpoint(point, draws_at(params, point), stream), {}))


def decide(records, params):
    """The two rows of a cell from the searched brackets (module docstring, "What is tested")."""
    if not records:
        return {}, {}
    diags = records[0].diagnostics
    near, far = endpoints(params)
    span = int(params.get("span", SPAN))
    tau = math.sqrt(span)
    info = {"formula": "eq8", "axis": params["axis"], "alpha": ALPHA, "tau": tau, "one_sided_level": BETA}
    bands = {}
    for name, point in (("near", near), ("far", far)):
        L, U = shape_rule.certified_bracket(shape_rule.evaluations_of(diags, name), float(point["delta"]), BETA)
        f = eq8_cw(point["rho"], point["eps"], point["delta"])
        bands[name] = {"f": f, "g": control_factor(params, point), "L": L, "U": U}
        info[name] = {**point, **shape_rule.band_info(L, U, f),
                      "r_star_exact": exact_r_star(int(point["rho"]), float(point["delta"])),
                      "evaluations": int(diags.get(f"{name}.evaluations", 0)),
                      "seconds": diags.get(f"{name}.seconds")}  # fmt: skip
    verdicts, rows = shape_rule.shape_rows(bands["near"], bands["far"], tau)
    info.update(rows)
    info["claim"] = shape_rule.shape_claim(
        f"implied constant C* = r*/f of eq. (8) at the far point over C* at the base ({params['axis']} x{span}"
        f"{'' if AXIS_DIRECTION[params['axis']] > 0 else '^-1'})", rows, tau, alpha=ALPHA, bounds=4 * EVALUATIONS,
        level=BETA, monotone="the failure probability is non-increasing in r, proved in the module docstring")
    return verdicts, info


#: Expected verdict of the claim row per axis (module docstring: true ratios 1.13, 1.2e-4, 3.96).
SCALING_EXPECTED = {"rho": Verdict.HOLDS, "eps": Verdict.HOLDS, "delta": Verdict.VIOLATED}


def _scaling_expected(params):
    return SCALING_EXPECTED[params["axis"]]


#: Draws per value of the delta cell over those of the rho and eps cells (module docstring, ``scaling``: its
#: VIOLATED needs the bands' excess below 1.40).
DELTA_DRAWS_FACTOR = 16


def _cells(draws, base=BASE):
    return tuple(dict(base, axis=ax, draws=draws * (DELTA_DRAWS_FACTOR if ax == "delta" else 1))
                 for ax in AXIS_DIRECTION)


def _points_valid(params):
    """Both endpoints inside eq. (8)'s domain (eps in (0, 1), delta in (0, 1)) and rho >= 2 (a collision needs
    two rows)."""
    return params["rho"] >= 2 and all(0 < pt["eps"] < 1 and 0 < pt["delta"] < 1 for pt in endpoints(params))


def _pass_attainable(params):
    return all((1.0 - pt["delta"]) ** draws_at(params, pt) <= BETA for pt in endpoints(params))


THEOREM = register(
    Theorem(
        id="paul2014.shape_eq8",
        paper="paul2014",
        title="eq. (8), CountSketch on the coherent row space: does the implied O(.) constant r*/f grow along rho, "
        "eps, delta (x8)?",
        citation=cite("Sec. 1.3", "(8); Lemma 3.3"),
        statement="With probability >= 1 - delta, ||V^T V - V^T R R^T V||_2 <= eps provided r = O(rho eps^-4 "
        "log(rho/(delta eps)) (rho + log(1/(delta eps)))) (eq. (8)) for R 'constructed as described in Clarkson and "
        "Woodruff [2013], Meng and Mahoney [2013] and Nelson and Nguyen [2013]'; the O(.) constant is not given.",
        kind="probabilistic",
        variants=shape_rule.shape_variants(
            "C*(x) = r*(x)/f(x) at the far point over the base point (axis x8 or /8): VIOLATED iff certified >= "
            "sqrt(8), HOLDS iff certified <= sqrt(8); expected HOLDS along rho and eps, VIOLATED along delta",
            "the same rule on f divided by (x/x_base)^(+-k): rho^1 for rho^2, eps^+2 for eps^-4, a factor delta "
            "(negative control)",
            expected=_scaling_expected,
            note="The control's true ratio is the claim's times 8^k (k = 1, 6, 1): 9.05, 30.8, 31.7 (derivation in "
            "rpcheck.papers.paul2014.shape_eq8).",
        ),
        profiles={
            # draws per value at the base delta (x8 at the far delta; the delta cell x16): bands U/L about 1.6
            # (quick), 1.4 (ci), 1.12 in the delta cell; module docstring, "Variants"
            "quick": Profile(_cells(1000), trials=1),
            "ci": Profile(_cells(2000), trials=1),
            "standard": Profile(_cells(4000), trials=1),
            "full": Profile(_cells(8000), trials=1),
        },
        trial=trial,
        decide=decide,
        parameters={
            "axis": Param("choice", choices=tuple(AXIS_DIRECTION), doc="the variable of eq. (8) moved by `span`"),
            "rho": Param("int", low=2, doc="rank (columns of V) at the base point"),
            "eps": Param("float", low=0.0, high=1.0, closed="neither", doc="accuracy eps at the base point"),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability at the base point"),
            "span": Param("int", low=2, doc="factor between the two endpoints of the axis (8)"),
            "draws": Param("int", low=1, doc="draws per evaluated r at the base delta (scaled by delta_base/delta)"),
        },
        constraints=(
            Constraint("both endpoints in eq. (8)'s domain (0 < eps < 1, 0 < delta < 1) and rho >= 2",
                       _points_valid),
            Constraint("draws large enough that 0 failures certify a pass at every endpoint: (1 - delta)^n <= BETA",
                       _pass_attainable),
        ),
        findings=(
            Finding(
                "eq8_delta",
                "For the CountSketch (the construction of Meng and Mahoney [2013]; Sec. 2's CW matrix with q = a = 1) "
                "the implied constant of eq. (8) grows along delta: on the coherent row space r* is the smallest r "
                "with 1 - prod_{k<rho}(1 - k/r) <= delta (exact), 29 at delta = 0.2 and 239 at 0.025 (rho = 4), "
                "about C(rho, 2)/delta, while eq. (8) grows 2.08x: the implied constant grows 3.96x over the 8x span, "
                "more than the half power (sqrt 8) the shape rule allows; r* ~ 1/delta against f ~ log(1/delta)^2, "
                "so no constant serves every delta (proof in the module docstring).",
                evidence_variant="scaling",
                location="Sec. 1.3, eq. (8); Lemma 3.3",
                quote="r = O(rho eps^-4 log(rho/delta eps)(rho + log(1/delta eps)))",
                kind="paper error",
            ),
        ),
        notes="One trial per cell: the trial runs both endpoints' bracket searches; `decide` turns the brackets "
        "into the two rows. Each row's error (0.01) is its own; the rows are outside the run's Holm families.",
    )
)
