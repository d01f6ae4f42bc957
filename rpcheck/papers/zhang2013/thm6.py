r"""Theorem 6 of Zhang et al. (2013): recovery for full-rank (approximately low-rank) data.

Statement (Theorem 6; form [T], constant and range [R], ``rbar`` inferred [D])
    Assume ``w*`` lies in the span of the first ``k`` (right, in rpcheck's rows-as-examples convention)
    singular vectors of ``X`` and the loss is ``gamma``-smooth. For ``0 < eps <= 1/2`` [R], with probability
    at least ``1 - delta`` [R],
    ``||wtilde - w*|| <= eps/(1-eps) (1 + sqrt(lambda)/(sqrt(gamma) sigma_k)) ||w*||`` provided
    ``m >= rbar sigma_1^2 log(2d/delta) / (c eps^2 (lambda/gamma + sigma_1^2))``, ``c = 1/32`` [R],
    ``rbar = sum_i sigma_i^2/(lambda/gamma + sigma_i^2)``.

Setting: square loss (``gamma = 1``) with regression targets ``y = U_k c`` (``X = U diag(s) V^T``,
``s_i = s_1 i^{-p}``, full rank ``min(n, d)``), so ``w*`` lies exactly in ``span(v_1..v_k)``. For Gaussian
``R`` and orthonormal ``V``, ``V^T R`` has i.i.d. ``N(0, 1/m)`` entries, so ``A = V^T R`` is drawn directly
as ``make_sketch("gaussian", min(n, d), m)`` (exact in law); ``d`` then enters only the bound.

Variants (statistic = ``||wtilde - w*||/||w*||``)
    ``stated`` (bound, ``delta``): ``eps = eps_printed(m)`` from the printed condition; vacuous when
    ``eps > 1/2`` (VACUOUS at practical sizes for small ``lambda``: c = 1/32 makes m huge).
    ``conservative`` (bound, ``delta``): the same with the stronger condition
    ``m >= rbar log(2d/delta)/(c eps^2)`` (the printed factor sigma_1^2/(lambda/gamma + sigma_1^2) <= 1
    weakens the condition).
    ``scaling`` (report): ``rel * sqrt(m / rbar)``; the cell reports its median (decide hook). The slope of
    ``log rel`` against ``log m`` across cells is checked in ``theorems/test_zhang2013_thm6.py``.
    ``iterate`` (search, open: Section 5.3's remark on iterating): Algorithm 2's error is non-increasing
    over ``T = 5`` steps,
    evaluated where the first step's relative error is < 1 (the theorem's multiplier
    ``eps/(1-eps)(1 + sqrt(lambda)/sigma_k)`` is >= 2 in every ci cell, so the printed premise never holds).

Search (``iterate``): the engine's one counterexample search, :func:`rpcheck.engine.search.hypothesis_search`,
over the coefficients ``c`` of ``w*`` in ``span(v_1..v_k)`` (``y = U_k c sqrt(n)``; ``c`` in ``[-3, 3]^k``,
not 0; ``U`` and ``A`` are the trial's draw). The objective is the certified slack ``FP_REL - incr`` with
``incr = max_t (||w_t - w*|| - ||w_{t-1} - w*||)/||w*||``: negative iff the error certainly increases (beyond
the ``FP_REL ||w*||`` rounding allowance); an instance whose first step has relative error >= 1 is outside the
premise (skipped). Budget: ``ITER_EXAMPLES = 1`` instance per trial plus at most ``ITER_SHRINKS = 3`` runs to shrink a
counterexample (towards ``c`` with fewer non-zero, smaller coefficients; e.g. ``w*`` along ``v_1`` alone).
The search seed is one draw from the trial's generator after every other draw, so the other variants' draws do not
depend on the search and the trial stays a pure function of its per-trial seed
(``rpcheck replay``). The Outcome and the diagnostics ``iterate_*`` are those of the shrunk counterexample
when one is found, else of the instance searched.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...engine.search import trial_seed
from ...generators import haar_orthonormal
from ...svm.drp import drp, iterative_drp, ridge_solution
from ._common import ASSUMED_PROB, FP_REL, cite, single_threaded, sketch_matrix, vacuous_outcome
from ._recovery import CONTROL_VARIANTS, planted_controls
from .bounds import C_THM6, effective_rank, thm6_bound, thm6_eps

__all__ = ["THEOREM", "trial", "spectrum", "cell_quantities"]

THEOREM_ID = "zhang2013.thm6"
#: ``iterate`` search budget: instances per trial before a counterexample, runs while shrinking one
ITER_EXAMPLES = 1
ITER_SHRINKS = 3
ASSUMED_C6 = "c = 1/32 in Theorem 6's condition on m [R]"
ASSUMED_RBAR = "rbar = sum sigma_i^2/(lambda/gamma + sigma_i^2) (definition inferred [D])"
#: the readings under which Theorem 6's bound rows (stated and conservative eps) are asserted
ASSUMED_THM6 = (ASSUMED_C6, ASSUMED_RBAR, "eps in (0, 1/2] [R]", ASSUMED_PROB)
T_ITER = 5


def spectrum(params):
    q = min(int(params["n"]), int(params["d"]))
    return float(params["s1"]) * np.arange(1, q + 1, dtype=float) ** (-float(params["p"]))


def cell_quantities(params):
    """``rbar``, ``eps_printed(m)``, ``eps_conservative(m)`` of a cell (square loss, gamma = 1)."""
    s = spectrum(params)
    lam, d, delta, m = float(params["lam"]), int(params["d"]), float(params["delta"]), int(params["m"])
    rbar = effective_rank(s, lam, 1.0)
    ep = thm6_eps(m, rbar, s[0], lam, 1.0, d, delta, C_THM6, form="as_printed")
    ec = thm6_eps(m, rbar, s[0], lam, 1.0, d, delta, C_THM6, form="conservative")
    return rbar, ep, ec


def certified_bound_outcome(rel, eps, b):
    """``rel <= b`` for a relative error known to ``FP_REL`` (closed forms): holds or fails outside that band,
    undetermined within it; vacuous when ``eps > 1/2`` (Theorem 6's range)."""
    if eps > 0.5:
        return vacuous_outcome(rel)
    if rel * (1 + FP_REL) <= b:
        return Outcome(True, rel, b)
    if rel * (1 - FP_REL) > b:
        return Outcome(False, rel, b)
    return Outcome(bool(rel <= b), rel, b, undetermined=True)


def _bound_outcome(rel, eps, lam, sk):
    return certified_bound_outcome(rel, eps, thm6_bound(eps, lam, 1.0, sk) if eps <= 0.5 else math.nan)


def draw_instance(params, rng):
    """One draw of the trial's instance, in a fixed order of the stream: ``(s, U, Z, y, A, w_star)`` with ``Z = U
    diag(s)`` (U Haar), ``y`` in the span of the first ``k`` columns, ``A`` a Gaussian ``q x m`` sketch (``= V^T
    R`` in law) and ``w_star`` the ridge solution in V-coordinates (supported on the first ``k``)."""
    n, k, m, lam = int(params["n"]), int(params["k"]), int(params["m"]), float(params["lam"])
    s = spectrum(params)
    q = s.size
    U = haar_orthonormal(n, q, rng=rng)
    Z = U * s
    c = rng.standard_normal(k)
    y = U[:, :k] @ c * math.sqrt(n)
    A = sketch_matrix("gaussian", q, m, rng=rng)
    return s, U, Z, y, A, ridge_solution(Z, y, lam)


@single_threaded
def trial(params, rng):
    n, k, m, lam = int(params["n"]), int(params["k"]), int(params["m"]), float(params["lam"])
    s, U, Z, y, A, w_star = draw_instance(params, rng)
    res = drp(Z, y, lam, A, loss="square")
    wn = float(np.linalg.norm(w_star))
    rel = float(np.linalg.norm(np.asarray(res.w_tilde) - w_star)) / wn
    rbar, ep, ec = cell_quantities(params)
    sk = s[k - 1]
    out = {
        "stated": _bound_outcome(rel, ep, lam, sk),
        "conservative": _bound_outcome(rel, ec, lam, sk),
        "scaling": Outcome(True, rel * math.sqrt(m / rbar), math.nan),
    }
    mult = ep / (1 - ep) * (1 + math.sqrt(lam) / sk) if ep < 1 else math.inf
    tail = float(np.linalg.norm(w_star[k:])) / wn
    diags = {
        "rel_err": rel,
        "rbar": rbar,
        "eps_printed": ep,
        "eps_conservative": ec,
        "w_star_tail": tail,
        "multiplier": mult,
    }
    out["control_stated"] = planted_controls(m, rng)["control_stated"]  # main draw unchanged
    out["iterate"], iter_diags = _iterate_search(Z, U, k, lam, A, n, trial_seed(rng))  # last draw
    diags.update(iter_diags)
    return TrialRecord(outcomes=out, diagnostics=diags)


def _iterate_slack(Z, U, k, lam, A, n, c):
    """Certified slack ``FP_REL - incr`` of Algorithm 2 on ``y = U_k c sqrt(n)`` (None: first step's relative
    error >= 1 or ``c = 0``, outside the premise), with ``incr`` and the first step's relative error."""
    c = np.asarray(c, dtype=float)
    y = U[:, :k] @ c * math.sqrt(n)
    w_star = ridge_solution(Z, y, lam)
    wn = float(np.linalg.norm(w_star))
    if wn == 0.0:
        return None
    it = iterative_drp(Z, y, lam, A, T_ITER, loss="square")
    e = np.linalg.norm(np.asarray(it.w_path) - w_star[None, :], axis=1)
    rel1 = float(e[1]) / wn
    if not rel1 < 1:
        return None
    incr = float(np.max(e[1:] - e[:-1])) / wn
    return FP_REL - incr, incr, rel1


def _iterate_search(Z, U, k, lam, A, n, seed):
    """The ``iterate`` Outcome and diagnostics from :func:`hypothesis_search` over ``c`` (module docstring)."""
    from hypothesis import strategies as st

    from ...engine.search import hypothesis_search

    coef = st.integers(-3, 3)
    strategy = st.tuples(*[coef] * k).filter(any)

    seen = {}

    def objective(c):
        seen[c] = got = _iterate_slack(Z, U, k, lam, A, n, c)
        return None if got is None else got[0]

    res = hypothesis_search(objective, strategy, max_examples=ITER_EXAMPLES, max_shrinks=ITER_SHRINKS, seed=seed)
    diags = {"iterate_found": float(res.found), "iterate_searched": float(res.tried),
             "iterate_skipped": float(res.skipped)}  # fmt: skip
    if res.instance is None:  # every instance outside the premise (or solver errors)
        diags.update({"iterate_slack": math.nan, "iterate_rel1": math.nan, "iterate_c_nonzero": math.nan})
        return vacuous_outcome(), diags
    _, incr, rel1 = seen[res.instance]  # the reported instance
    diags.update({"iterate_slack": res.slack, "iterate_rel1": rel1,
                  "iterate_c_nonzero": float(np.count_nonzero(res.instance))})  # fmt: skip
    # non-increasing up to rounding (FP_REL ||w*||): an increase within rounding is undetermined
    if res.found:
        return Outcome(False, incr, 0.0), diags
    if incr <= -FP_REL:
        return Outcome(True, incr, 0.0), diags
    return Outcome(bool(incr <= 0.0), incr, 0.0, undetermined=True), diags


def decide(records, params):
    vals = [r.outcomes["scaling"].statistic for r in records]
    rels = [r.diagnostics["rel_err"] for r in records]
    if not vals:
        return {"scaling": Verdict.INCONCLUSIVE}, {}
    return {"scaling": Verdict.INCONCLUSIVE}, {
        "median_rel_times_sqrt_m_over_rbar": float(np.median(vals)),
        "median_rel": float(np.median(rels)),
        "m": int(params["m"]),
    }


def _expected_bound(form):
    """VACUOUS where the cell's eps (from the m-condition) exceeds 1/2 (every draw is vacuous: derived
    from the cell alone). Elsewhere reported (None): rpcheck has no rigorous upper bound on Theorem 6's
    failure probability (no per-draw form of Theorem 6 is implemented), so no power computation supports
    an expected HOLDS (measured runs alone never set one)."""

    def f(params):
        _, ep, ec = cell_quantities(params)
        eps = ep if form == "as_printed" else ec
        return Verdict.VACUOUS if eps > 0.5 else None

    return f


def _cells(n, d, p, s1, lam, k, ms, delta=0.1):
    return tuple({"n": n, "d": d, "p": p, "s1": s1, "lam": lam, "k": k, "m": m, "delta": delta} for m in ms)


# Regime "large lambda" (rbar ~ 1.1, sigma_1^2/(lambda + sigma_1^2) = 1/2): the printed condition gives
# eps <= 1/2 from m ~ 650, the conservative one from m ~ 1300. Regime "small lambda" (lambda = 0.01,
# rbar ~ 60-125): implied eps > 5, VACUOUS.
PROFILES = {
    # quick: delta = 1/2 so that 20 trials can certify HOLDS (0 failures: upper bound < 0.37 at level 1e-4)
    "quick": Profile(_cells(100, 2000, 1.0, 10.0, 100.0, 3, [100, 1600], delta=0.5), trials=20),
    "ci": Profile(
        _cells(100, 2000, 1.0, 10.0, 100.0, 3, [100, 400, 1600]) + _cells(100, 2000, 1.0, 10.0, 0.01, 3, [400]),
        trials=80,
    ),
    "standard": Profile(
        _cells(200, 2000, 1.0, 10.0, 100.0, 3, [100, 200, 400, 800, 1600, 3200])
        + _cells(300, 2000, 1.0, 10.0, 0.01, 3, [200, 800, 1600])
        + _cells(200, 2000, 2.0, 10.0, 1.0, 3, [100, 400, 1600]),
        trials=200,
    ),
    "full": Profile(
        _cells(300, 10000, 1.0, 10.0, 100.0, 3, [100, 200, 400, 800, 1600, 3200, 6400])
        + _cells(300, 2000, 1.0, 10.0, 0.01, 3, [200, 800, 1600])
        + _cells(300, 10000, 2.0, 10.0, 1.0, 3, [100, 400, 1600, 6400]),
        trials=500,
    ),
}

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Thm 6: full rank, ||wtilde - w*|| <= eps/(1-eps)(1 + sqrt(lam)/(sqrt(gam) sigma_k))||w*||, m ~ rbar",
        citation=cite("Theorem 6", "rbar, numerical nu-rank"),
        statement="If w* lies in the span of the first k singular vectors of X and l is gamma-smooth, then for "
        "0 < eps <= 1/2, w.p. >= 1 - delta, ||wtilde - w*|| <= eps/(1-eps)(1 + sqrt(lambda)/(sqrt(gamma) "
        "sigma_k))||w*|| provided m >= rbar sigma_1^2 log(2d/delta)/(c eps^2 (lambda/gamma + sigma_1^2)), "
        "c = 1/32 [R].",
        kind="probabilistic",
        variants=(
            Variant(
                "stated",
                "rel <= eps/(1-eps)(1 + sqrt(lambda)/sigma_k), eps from the printed m-condition (vacuous if > 1/2)",
                mode="bound",
                expected=_expected_bound("as_printed"),
                promised_failure=lambda p: float(p["delta"]),
                assumed=ASSUMED_THM6,
            ),
            Variant(
                "conservative",
                "the same with eps from m >= rbar log(2d/delta)/(c eps^2) (the stronger reading of the condition)",
                mode="bound",
                expected=_expected_bound("conservative"),
                promised_failure=lambda p: float(p["delta"]),
                assumed=ASSUMED_THM6,
            ),
            Variant(
                "scaling",
                "rel * sqrt(m / rbar) (median reported; slope of log rel vs log m checked in the theorem test)",
                mode="report",
                expected=None,
                role="measurement",
            ),
            Variant(
                "iterate",
                "Algorithm 2's error is non-increasing over 5 steps where rel_1 < 1 (Section 5.3 remark)",
                mode="search",
                expected=None,
                note="Open: the paper's claim is not justified by its assumptions (Section 5.3: the "
                "subproblem targets leave span(u_1..u_k)).",
            ),
        )
        + CONTROL_VARIANTS[1:],
        profiles=PROFILES,
        trial=trial,
        decide=decide,
        parameters={
            "n": Param("int", low=2, doc="number of examples"),
            "d": Param("int", low=1, doc="dimension (enters the bound through log(2d/delta))"),
            "p": Param("float", low=0.0, closed="neither", doc="decay sigma_i = s1 i^-p"),
            "s1": Param("float", low=0.0, closed="neither", doc="largest singular value sigma_1"),
            "lam": Param("float", low=0.0, closed="neither", doc="regulariser lambda (square loss, gamma = 1)"),
            "k": Param("int", low=1, doc="w* lies in the span of the first k singular vectors"),
            "m": Param("int", low=1, doc="number of random projections"),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability"),
        },
        constraints=(
            Constraint("k <= min(n, d) (full rank min(n, d))", lambda p: int(p["k"]) <= min(int(p["n"]), int(p["d"]))),
        ),
        tolerance=FP_REL,
        tolerance_note="Closed forms (square loss); 1e-9 relative rounding allowance.",
        findings=(
            Finding(
                "thm6-vacuous",
                "With c = 1/32 (rpcheck's assumed value: the value of c is not legible in the available text of the "
                "paper) the condition on m is vacuous at practical sizes unless lambda/gamma is large (rbar small): "
                "the lambda = 0.01 cells are VACUOUS (implied eps > 5).",
                evidence_variant="stated",
                location="Theorem 6 (condition on m)",
                quote="m >= rbar sigma_1^2/(c eps^2 (lambda/gamma + sigma_1^2)) log(2d/delta)",
                kind="observation",
            ),
            Finding(
                "thm6-printed-condition-weaker",
                "The printed condition (with sigma_1^2/(lambda/gamma + sigma_1^2) <= 1) is weaker than the "
                "conservative rbar log(2d/delta)/(c eps^2); both hold where non-vacuous.",
                evidence_variant="conservative",
                location="Theorem 6 (condition on m)",
                quote="m >= rbar sigma_1^2/(c eps^2 (lambda/gamma + sigma_1^2)) log(2d/delta)",
                kind="observation",
            ),
            Finding(
                "thm6-sqrt-scaling",
                "The error scales like sqrt(rbar/m): the fitted slope of log rel against log m is close to -1/2.",
                evidence_variant="scaling",
                location="Theorem 6",
                quote="||w~ - w*||_2 <= (eps/(1 - eps)) (1 + sqrt(lambda)/(sqrt(gamma) sigma_k)) ||w*||_2",
                kind="observation",
            ),
            Finding(
                "thm6-iterate-open",
                "The paper proves nothing about iterating in the full-rank case (Section 5 covers the low-rank case "
                "only; the condition of the quoted sentence is not legible in the available text). Geometric decay "
                "of Algorithm 2 is not implied by Theorem 6's assumptions and fails in practice: with lambda = 0.01 "
                "(rbar ~ 78, m = 400) the first step has relative error ~0.57 < 1, yet the error grows over the next "
                "steps (counterexamples found); with lambda = 100 it decreases.",
                evidence_variant="iterate",
                location="Section 4.2, the paragraph after Theorem 6",
                quote="we can use Algorithm 2 to reduce the reconstruction error exponentially over the iterations",
                kind="proof gap",
            ),
        ),
        notes="Square loss, regression targets y = U_k c sqrt(n); sigma_i = s1 i^-p; A = V^T R drawn in law.",
    )
)
