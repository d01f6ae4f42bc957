r"""Theorem 3.5 in the soft-margin regime: adversarial search (Paul et al. 2014).

Statement (arXiv v5 Theorem 3.5 = TKDD Theorem 3.9; eqs. (3), (5), (18)-(21))
    gamma~*^2 >= (1 - eps) gamma*^2 whenever ||E||_2 <= eps, "for the general non-separable dual".

The proof needs ``Z_opt = 1/2 ||w*||^2`` (eqs. 18-19), which holds only with zero slack (paul2014.c5), so in the
soft-margin regime the stated bound is **unproven**; development spot checks (1478 random
instances plus hill-climbing, not kept) found no violation of the lower bound, but 25 violations of the upper bound
``gamma~^2 <= (1 + e) gamma^2`` (which the zero-slack argument gives and the paper does not claim).

Per trial (a bounded search, the event is "no certified violation found"):

1. a small soft-margin instance: ``n`` in [8, 24], ``d`` in [2, 5], Gaussian X of full column rank
   ``rho = d``, labels from a random hyperplane with 20% flips, ``C`` log-uniform in [1e-2, 1e2];
2. projections with exactly controlled distortion (as in development spot checks): ``R = V S^{1/2}`` with ``V`` the row
   basis of X and ``S = Q diag(1 + e_max t) Q^T`` (``t`` in [-1, 1]^d, ``Q`` orthogonal), so
   ``V^T R R^T V = S`` and ``e = ||I - S||_2`` exactly; ``X R = X V S^{1/2}``;
3. ``N_RANDOM`` random ``S`` then ``N_CLIMB`` hill-climbing steps (random rotations of ``Q`` and
   perturbations of ``t``, accepted when they improve the objective) for each of two objectives:
   minimise ``ratio/(1 - e)`` (stated lower bound, ``ratio = gamma~^2/gamma^2``) and maximise
   ``ratio/(1 + e)`` (upper bound).

Variants (mode "search"; every Outcome reads ``statistic <= bound``):

- ``stated_search``: no certified ``gamma~^2 < (1 - e) gamma^2`` found (gamma = 1/||w||). Open question,
  expected verdict None (reported: worst slack and instances tried).
- ``stated_sum_alpha_search``: the same with ``gamma^2 = 1/sum alpha*``. Open, None.
- ``upper_search``: no certified ``gamma~^2 > (1 + e) gamma^2`` found. Reported (development spot checks:
  the upper bound fails with slack).

Certified comparisons use the intervals of :mod:`._common` (duality gap and strong convexity).
Diagnostics: ``instances`` (projected solves in the trial), the worst objective values, ``e`` at the worst
instance, the instance's ``C``, ``n``, ``d`` and whether its original optimum has zero slack.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...errors import SolverError
from ...linalg import row_space_basis
from ._common import FP_REL, cite, svc_bounds

__all__ = ["THEOREM", "trial", "projected_data"]

THEOREM_ID = "paul2014.thm3.5.search"
VARIANTS = ("stated_search", "stated_sum_alpha_search", "upper_search")


def projected_data(X, V, Q, t, e_max):
    """``X R`` for ``R = V S^{1/2}``, ``S = Q diag(1 + e_max t) Q^T``; returns ``(XR, e)`` with
    ``e = ||I - S||_2 = e_max max|t|`` exactly (up to rounding)."""
    lam = 1.0 + e_max * t
    S_half = (Q * np.sqrt(lam)) @ Q.T
    return X @ V @ S_half, float(e_max * np.max(np.abs(t)))


def _random_rotation(k, rng, scale):
    A = rng.standard_normal((k, k)) * scale
    Q, _ = np.linalg.qr(np.eye(k) + (A - A.T) / 2)
    return Q


def trial(params, rng):
    from ...svm import SVCProblem, solve_svc

    n = int(rng.integers(params["n_min"], params["n_max"] + 1))
    d = int(rng.integers(2, params["d_max"] + 1))
    C = float(10 ** rng.uniform(-2, 2))
    e_max = float(params["e_max"])
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    y = np.sign(X @ u)
    y[y == 0] = 1
    y = np.where(rng.random(n) < 0.2, -y, y)
    if np.all(y == y[0]):
        y[0] = -y[0]
    V = row_space_basis(X)
    res = solve_svc(X, y, C)
    orig = svc_bounds(X, y, C, res.alpha, res.b)
    prob = SVCProblem(n, X.shape[1], C=C)
    counter = {"n": 0, "err": 0}
    best = {"lo": (math.inf, math.nan), "lo_sa": (math.inf, math.nan), "up": (-math.inf, math.nan)}
    found = {"lo": False, "lo_sa": False, "up": False}

    def evaluate(Q, t):
        XR, e = projected_data(X, V, Q, t, e_max)
        counter["n"] += 1
        try:
            rt = prob.solve(XR, y)
        except SolverError:
            counter["err"] += 1
            return None
        proj = svc_bounds(XR, y, C, rt.alpha, rt.b)
        if orig["degenerate"] or proj["degenerate"]:
            return None
        ratio = orig["w_norm_sq"] / proj["w_norm_sq"]
        ratio_sa = orig["alpha_sum"] / proj["alpha_sum"]
        h_lo, h_sa, h_up = ratio / (1 - e), ratio_sa / (1 - e), ratio / (1 + e)
        W, Wt, S_, St = orig["wsq"], proj["wsq"], orig["sum_alpha"], proj["sum_alpha"]
        if W.hi * (1 + FP_REL) < (1 - e) * Wt.lo:
            found["lo"] = True
        if S_.hi * (1 + FP_REL) < (1 - e) * St.lo:
            found["lo_sa"] = True
        if W.lo > (1 + e) * Wt.hi * (1 + FP_REL):
            found["up"] = True
        if h_lo < best["lo"][0]:
            best["lo"] = (h_lo, e)
        if h_sa < best["lo_sa"][0]:
            best["lo_sa"] = (h_sa, e)
        if h_up > best["up"][0]:
            best["up"] = (h_up, e)
            best["up_QT"] = (Q, t)
        return h_lo, h_up

    def draw():
        k = X.shape[1]
        Q = _random_rotation(k, rng, 10.0)
        t = rng.uniform(-1, 1, size=k)
        t[rng.integers(k)] = rng.choice([-1.0, 1.0])  # use the full distortion budget
        return Q, t

    starts = []
    for _ in range(params["n_random"]):
        Q, t = draw()
        val = evaluate(Q, t)
        if val is not None:
            starts.append((val, Q, t))
    for which, sign in (("lo", 1.0), ("up", -1.0)):  # minimise sign * objective
        if not starts:
            break
        idx = 0 if which == "lo" else 1
        val, Q, t = min(starts, key=lambda s: sign * s[0][idx])
        cur = sign * val[idx]
        for _ in range(params["n_climb"]):
            Q2 = Q @ _random_rotation(Q.shape[0], rng, 0.3)
            t2 = np.clip(t + 0.3 * rng.standard_normal(t.shape), -1, 1)
            v2 = evaluate(Q2, t2)
            if v2 is not None and sign * v2[idx] < cur:
                cur, Q, t = sign * v2[idx], Q2, t2
    out = {
        "stated_search": Outcome(not found["lo"], 1.0, best["lo"][0]),
        "stated_sum_alpha_search": Outcome(not found["lo_sa"], 1.0, best["lo_sa"][0]),
        "upper_search": Outcome(not found["up"], best["up"][0], 1.0),
    }
    diags = {
        "instances": float(counter["n"]),
        "solver_errors": float(counter["err"]),
        "worst_lower_ratio_over_1me": best["lo"][0],
        "worst_lower_e": best["lo"][1],
        "worst_sum_alpha_ratio_over_1me": best["lo_sa"][0],
        "worst_upper_ratio_over_1pe": best["up"][0],
        "worst_upper_e": best["up"][1],
        "C": C,
        "n": float(n),
        "d": float(d),
        "zero_slack": float(res.zero_slack),
        "degenerate": float(orig["degenerate"]),
    }
    arts = {}
    if found["lo"] or found["up"] or found["lo_sa"]:
        # replay: XR = projected_data(X, row_space_basis(X), Q, t, e_max) for the worst upper-bound instance
        arts = {"X": X, "y": y, "C": np.array(C), "e_max": np.array(e_max)}
        if "up_QT" in best:
            arts["Q_upper"], arts["t_upper"] = best["up_QT"]
    return TrialRecord(outcomes=out, diagnostics=diags, artifacts=arts)


def _cells(e_max, n_random, n_climb):
    return tuple(
        {"n_min": 8, "n_max": 24, "d_max": 5, "e_max": em, "n_random": n_random, "n_climb": n_climb} for em in e_max
    )


PROFILES = {
    "quick": Profile(_cells([0.4], 6, 6), trials=6),
    "ci": Profile(_cells([0.25, 0.45], 8, 10), trials=15),
    "standard": Profile(_cells([0.1, 0.25, 0.45, 0.7], 12, 25), trials=60),
    "full": Profile(_cells([0.1, 0.25, 0.45, 0.7, 0.9], 20, 60), trials=300),
}

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="paul2014",
        title="Thm 3.5, soft margin: adversarial search for violations (R = V S^1/2, exact e)",
        citation=cite("Theorem 3.5", "(3), (5), (18)-(21)"),
        statement="gamma~*^2 >= (1 - eps) gamma*^2 for the general (soft-margin) dual; the upper bound "
        "gamma~^2 <= (1 + e) gamma^2 is the zero-slack corollary, not claimed in the paper.",
        kind="deterministic",
        variants=(
            Variant(
                "stated_search",
                "search for gamma~^2 < (1 - e) gamma^2 (gamma = 1/||w||), soft margin",
                mode="search",
                expected=Verdict.INCONCLUSIVE,
                note="Open: unproven for soft margin (eqs. 18-19 need zero slack); statistic 1 <= bound min ratio/(1-e).",
            ),
            Variant(
                "stated_sum_alpha_search",
                "search for gamma~^2 < (1 - e) gamma^2 with gamma^2 = 1/sum alpha",
                mode="search",
                expected=Verdict.INCONCLUSIVE,
            ),
            Variant(
                "upper_search",
                "search for gamma~^2 > (1 + e) gamma^2, soft margin",
                mode="search",
                expected=None,
                note="Violated in the soft-margin regime in 25/1478 random instances of earlier spot checks "
                "(and with certainty when every multiplier sits at C and S shrinks the direction of X^T y: "
                "then gamma~^2/gamma^2 = 1/(1-e) > 1+e); a random search finding one at ci is likely but not "
                "certain (C is drawn log-uniform), so the row is reported, not expected VIOLATED.",
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        parameters={
            "n_min": Param("int", low=2, doc="smallest n searched"),
            "n_max": Param("int", low=2, doc="largest n searched"),
            "d_max": Param("int", low=2, doc="largest d searched (d drawn in [2, d_max])"),
            "e_max": Param("float", low=0.0, high=1.0, closed="neither", doc="distortion budget e = ||I - S||"),
            "n_random": Param("int", low=1, doc="random projections per instance"),
            "n_climb": Param("int", low=0, doc="hill-climbing steps per objective"),
        },
        constraints=(Constraint("n_min <= n_max", lambda p: p["n_min"] <= p["n_max"]),),
        tolerance=FP_REL,
        tolerance_note="Certified intervals (duality gap + strong convexity in w); see "
        "rpcheck.checkers.paul2014._common.",
        findings=(
            Finding(
                "upper-bound-soft-margin",
                "gamma~^2 <= (1 + e) gamma^2 holds with zero slack but fails in the soft-margin regime: the "
                "search exhibits certified counterexamples (so margin preservation is one-sided there).",
                evidence_variant="upper_search",
                spec_ref="Theorem 3.5",
            ),
            Finding(
                "soft-margin-stated-open",
                "The stated bound gamma~^2 >= (1 - e) gamma^2 is unproven for soft margin (the proof needs "
                "Z = ||w||^2/2, eqs. (18)-(19)); the search reports the worst ratio/(1-e) found.",
                evidence_variant="stated_search",
                spec_ref="Theorem 3.5, eqs. (18)-(19)",
            ),
        ),
    )
)
