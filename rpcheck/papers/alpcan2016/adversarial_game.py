r"""Alpcan, Rubinstein and Leckie (CDC 2016): a minimal adversarial learning game on the SVM margin of ``X A R``.

**rpcheck's reconstruction, not the paper's verbatim claims.** The available text of the paper
(arXiv:1609.06438) holds, about the adversarial learning game, only the sentence citing Paul et al. [41]
(its section and page cannot be identified from that text):

    "The rest of the analysis closely follows the one in [41]. It is shown in [41] that
    ``||alpha*_pd^T Y X||_2^2 <= 1/(1 - ||E||_2) ||alpha*_pd^T Y X A R||_2^2``."

The players' cost functions, the equilibrium notion and any theorem about the game are NOT in that text.
What is checked here is rpcheck's minimal version: a finite zero-sum game between an adversary choosing a
linear map ``A`` of the feature space and a learner choosing a random projection ``R``; the learner trains the
hard-margin SVM with bias (Paul et al.'s eq. (3), rows are examples, ``C = inf`` on separable data) on
``X A R``. On every entry ``T = A R`` of the game the bounds that Alpcan et al. take from Paul et al. are
verified; the game's equilibria are measured. A verdict here is not a verdict on the paper's printed claims.

Trial (a pure function of ``rng``)
    Separable low-rank data ``X = Z V^T`` (``n x d``, rank ``rho``, Haar row space ``V``, geometric margin
    >= 1/2 in the ``Z`` coordinates; the instance of :mod:`.xar`, basis ``"haar"``), one original SVM and one
    SVM per entry, solved by ``rpcheck.svm.solve_svc`` and certified by the intervals of ``svc_bounds``
    (``Z_opt in [D, P]`` at exactly feasible points, ``||w||^2`` by 1-strong convexity; the helper used by
    :mod:`.xar` and :mod:`.margin`). ``X A R`` is formed as ``Z (V^T A) R`` (``X A R`` exactly, in ``O(rho d r)``).

    Adversary maps (rows; ``b`` = the cell's budget, all deterministic given the data): ``identity``;
    ``shrink`` ``A = I - b v v^T`` with ``v`` the top right singular vector of ``X`` (``A = I + Delta``,
    ``||Delta|| = b``: the most informative direction shrunk by the fraction ``b``); ``delete`` the 0/1
    diagonal deleting the ``ceil(b d)`` features of largest leverage ``||V_(i)||`` (both as in
    :func:`.xar.adversary_map`); ``attenuate`` ``A = I/2`` (the control device below; NOT a row of the game).
    Learner projections (columns): ``gauss_lo``/``gauss_hi``: Gaussian ``N(0, 1/r)`` with ``r = r_lo``, ``r_hi``;
    ``sample``: uniform column sampling with replacement, ``sqrt(d/r_hi)`` rescaled (:func:`.xar.sampling_matrix`).

Variants (per trial the entry-wise events are combined: a certified failure at any entry is a failure; else
an undetermined entry makes the trial undetermined; a trial with no informative entry is vacuous)
    ``objective_bound`` (claim, deterministic): for every entry with ``e_T = ||I - V^T T T^T V|| < 1``,
    ``Z_opt >= Z~_opt - (1/2) e_T/(1 - e_T) ||w~*||^2`` (Paul et al. eq. (17) with ``T = A R``, the chain
    Alpcan et al. quote). Deterministic given ``e_T`` for ANY ``T`` (derivation in :mod:`.xar`); informative
    in every draw: the entry ``attenuate x gauss_hi`` has ``e_T < 1`` iff ``lambda_max(V^T R R^T V) < 8``,
    i.e. ``s_max(V^T R) < 2.83``, failing with probability ``<= exp(-r (2.83 - 1 - sqrt(rho/r))^2/2)``
    (Davidson-Szarek) ``< 1e-300`` at ``rho = 3, r = 512``. Expected HOLDS.
    ``margin_bound`` (claim, deterministic): for every entry with ``e_T < 1/2``, ``gamma~_T^2 >= ((1 - 2e_T)/
    (1 - e_T)) gamma^2`` (Paul et al. eq. (21), the margin bound their proof derives; for ``e_T >= 1/2`` the
    factor is ``<= 0``: vacuous). Holds for any ``T`` on separable data (the stated ``(1 - e_T)`` form, which
    implies it, is proved in :mod:`.margin`). Informative when ``identity x gauss_hi`` has ``e_R < 1/2``,
    i.e. ``s_max(V^T R)^2 < 3/2`` and ``s_min(V^T R)^2 > 1/2``; Davidson-Szarek gives a per-draw failure
    probability ``p = exp(-r t_1^2/2) + exp(-r t_2^2/2)``, ``t_1 = sqrt(3/2) - 1 - sqrt(rho/r)``,
    ``t_2 = 1 - sqrt(rho/r) - sqrt(1/2)`` (:func:`margin_uninformative_bound`); ``p = 0.0037`` at ``rho = 3,
    r = 512`` and ``P(Bin(100, 0.0037) >= 11) < 1e-15``: >= 90 informative draws. Expected HOLDS in every
    cell with ``p <= 0.01`` (all profile cells; tested), else None.
    ``objective_control`` (control): ``Z_opt >= Z~_opt`` on every solved entry (the bound with ``||E||``
    replaced by 0). Expected VIOLATED. Derivation: at ``attenuate x gauss_hi`` ``T = R/2``, the optimal
    ``w~_T = 2 w~_R`` and ``gamma~_T^2 = gamma~_R^2/4 <= (1 + e_R) gamma^2/4`` (the upper bound of
    :mod:`.margin`), below ``gamma^2`` whenever ``e_R < 3``; on separable data ``Z = 1/(2 gamma^2)``, so
    ``Z~_opt >= 4 Z_opt/(1 + e_R) > Z_opt``: a certified failure in every draw with ``e_R < 3``
    (``P(e_R >= 3) = P(s_max(V^T R) >= 2) <= exp(-r (1 - sqrt(rho/r))^2/2)``, ``1.5e-95`` at ``rho = 3, r = 512``;
    smaller in every larger profile cell).
    ``margin_control`` (control): ``gamma~_T^2 >= gamma^2`` on every solved entry; fails at the same entry
    by the same derivation. Expected VIOLATED.
    ``informative`` (measurement): fraction of the entries with ``e_T < 1`` (the quoted bound is vacuous on
    the others); per adversary family in ``decide_info``.
    ``pure_saddle``, ``game_value`` (measurements): the zero-sum game on the margin ratio
    ``G[a, r] = gamma~_{A_a R_r}^2 / gamma^2`` (0 when ``X A R`` is not separable), adversary (rows
    ``identity``, ``shrink``, ``delete``) minimising, learner (columns) maximising: whether a pure saddle
    point exists (``max_r min_a G == min_a max_r G``), and the mixed value from two linear programs
    (``scipy.optimize.linprog``, HiGHS): the learner's ``max v s.t. G p >= v 1`` and the adversary's
    ``min u s.t. G^T q <= u 1``. The LP's own optimality check: with ``p``, ``q`` projected exactly onto
    the simplices, ``min_a (G p)_a <= value <= max_r (q^T G)_r`` (weak duality); a gap above ``LP_TOL (1 +
    max|G|)`` (HiGHS's default feasibility tolerance, 1e-7) raises ``SolverError``. Medians per cell in
    ``decide_info``.
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...errors import NotSeparableError, SolverError
from ...linalg import embedding_distortion
from ...svm.certified import FP_REL, svc_bounds
from ..paul2014.margin import margin_lower_event
from . import xar
from ._common import DATA_PARAMS, RHO_LE_MIN, cite, top_direction

__all__ = [
    "THEOREM",
    "trial",
    "decide",
    "ADVERSARIES",
    "GAME_ADVERSARIES",
    "LEARNERS",
    "matrix_game",
    "margin_uninformative_bound",
    "adversary_rows",
]

THEOREM_ID = "alpcan2016.adversarial_game"
GAME_ADVERSARIES = ("identity", "shrink", "delete")
ADVERSARIES = GAME_ADVERSARIES + ("attenuate",)
LEARNERS = ("gauss_lo", "gauss_hi", "sample")
#: HiGHS's default primal/dual feasibility tolerance: allowed duality gap of the game's LPs, relative to 1 + max|G|
LP_TOL = 1e-7
TRIALS = 100
C_HARD = math.inf


def margin_uninformative_bound(rho, r):
    """Davidson-Szarek bound on ``P(e_R >= 1/2)`` for ``R`` Gaussian ``N(0, 1/r)`` (module docstring)."""
    s = math.sqrt(rho / r)
    t1 = math.sqrt(1.5) - 1.0 - s
    t2 = 1.0 - s - math.sqrt(0.5)
    if t1 <= 0 or t2 <= 0:
        return 1.0
    return min(1.0, math.exp(-r * t1 * t1 / 2.0) + math.exp(-r * t2 * t2 / 2.0))


def adversary_rows(V, Zfac, b):
    """``{family: V^T A}`` (``rho x d``) for every adversary map (module docstring); deterministic given the data."""
    d = V.shape[0]
    v = top_direction(V, Zfac)
    A_del = np.diag(xar.adversary_map("delete", d, b, V, Zfac, rng=None))
    Vt = V.T
    return {
        "identity": Vt,
        "shrink": Vt - b * np.outer(Vt @ v, v),
        "delete": Vt * A_del[None, :],
        "attenuate": 0.5 * Vt,
    }


def matrix_game(G):
    """Zero-sum game ``G`` (rows minimise, columns maximise): ``(value_lo, value_hi, p, q, maxmin, minmax)``.

    ``p`` (columns) and ``q`` (rows) are the LPs' mixed strategies projected onto the simplices;
    ``[value_lo, value_hi]`` contains the value by weak duality. Raises SolverError when the gap exceeds
    ``LP_TOL (1 + max|G|)`` plus rounding, or an LP fails."""
    from scipy.optimize import linprog

    G = np.asarray(G, dtype=float)
    m, k = G.shape
    # learner: variables (p, v), maximise v s.t. v <= (G p)_a for every row a
    lp = linprog(
        np.r_[np.zeros(k), -1.0],
        A_ub=np.c_[-G, np.ones(m)],
        b_ub=np.zeros(m),
        A_eq=np.r_[np.ones(k), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * k + [(None, None)],
        method="highs",
    )
    # adversary: variables (q, u), minimise u s.t. (q^T G)_r <= u for every column r
    la = linprog(
        np.r_[np.zeros(m), 1.0],
        A_ub=np.c_[G.T, -np.ones(k)],
        b_ub=np.zeros(k),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    if lp.status != 0 or la.status != 0:
        raise SolverError(f"matrix-game LP failed: {lp.message!r} / {la.message!r}")
    p = np.clip(lp.x[:k], 0.0, None)
    q = np.clip(la.x[:m], 0.0, None)
    p, q = p / p.sum(), q / q.sum()
    lo, hi = float(np.min(G @ p)), float(np.max(q @ G))
    scale = 1.0 + float(np.max(np.abs(G)))
    if hi - lo > LP_TOL * scale + 4 * max(m, k) * np.finfo(float).eps * scale:
        raise SolverError(f"matrix-game LP gap {hi - lo:.3g} above LP_TOL (1 + max|G|) = {LP_TOL * scale:.3g}")
    maxmin = float(np.max(np.min(G, axis=0)))
    minmax = float(np.min(np.max(G, axis=1)))
    return lo, hi, p, q, maxmin, minmax


def _objective_entry(Z, Zt, Wt, e, k):
    """``Z_opt >= Z~_opt - k ||w~*||^2`` on certified intervals (``k = 0`` for the control)."""
    sc = abs(Z.hi) + abs(Zt.hi) + k * Wt.hi + 1.0
    rhs = Zt.lo - k * Wt.hi
    return xar._ge(Z.lo, Z.hi, rhs - FP_REL * sc, Zt.hi - k * Wt.lo + FP_REL * sc, rhs, Z.hi)


def _combine(outs):
    """One Outcome from the entry-wise outcomes; statistic = number of certified failing entries (<= 0)."""
    inf = [o for o in outs if not o.vacuous]
    if not inf:
        return Outcome(True, math.nan, math.nan, vacuous=True)
    nfail = sum(1 for o in inf if not o.holds and not o.undetermined)
    if nfail:
        return Outcome(False, float(nfail), 0.0)
    if any(o.undetermined for o in inf):
        return Outcome(False, 0.0, 0.0, undetermined=True)
    return Outcome(True, 0.0, 0.0)


@single_threaded
def trial(params, rng):
    from ...svm import solve_svc

    n, d, rho = int(params["n"]), int(params["d"]), int(params["rho"])
    r_lo, r_hi, b = int(params["r_lo"]), int(params["r_hi"]), float(params["b"])
    X, y, Zfac, V = xar._instance(n, d, rho, C_HARD, "haar", rng)
    rows = adversary_rows(V, Zfac, b)
    Rs = {
        "gauss_lo": rng.standard_normal((d, r_lo)) / math.sqrt(r_lo),
        "gauss_hi": rng.standard_normal((d, r_hi)) / math.sqrt(r_hi),
        "sample": xar.sampling_matrix(d, r_hi, rng=rng),
    }
    res = solve_svc(Zfac, y, C_HARD)
    orig = svc_bounds(Zfac, y, C_HARD, res.alpha, res.b)
    Z, W = orig["Z"], orig["wsq"]
    wsq = orig["w_norm_sq"]
    nan = math.nan
    ev = {v: [] for v in ("objective_bound", "margin_bound", "objective_control", "margin_control")}
    diag = {}
    G = np.zeros((len(GAME_ADVERSARIES), len(LEARNERS)))
    n_inf = n_all = 0
    B = np.vstack([rows[a] for a in ADVERSARIES])  # one product per R for all adversary rows
    VtTs = {rname: B @ R for rname, R in Rs.items()}
    for i, a in enumerate(ADVERSARIES):
        for j, rname in enumerate(LEARNERS):
            VtT = VtTs[rname][i * rho : (i + 1) * rho]
            e = float(embedding_distortion(V, VtR=VtT))
            XT = Zfac @ VtT  # = X A R
            key = f"{a}.{rname}"
            diag[f"e.{key}"] = e
            if a in GAME_ADVERSARIES:
                n_all += 1
                n_inf += int(e < 1)
            try:
                res_t = solve_svc(XT, y, C_HARD)
            except NotSeparableError:
                # gamma~ = 0, Z~_opt = +inf: the bounds fail where informative (impossible for e < 1, module
                # docstring of .xar), the controls fail (Z~ > Z, gamma~ < gamma)
                ev["objective_bound"].append(
                    Outcome(False, nan, 0.0) if e < 1 else Outcome(True, nan, nan, vacuous=True))
                ev["margin_bound"].append(
                    Outcome(False, nan, 0.0) if e < 0.5 else Outcome(True, nan, nan, vacuous=True))
                ev["objective_control"].append(Outcome(False, nan, 0.0))
                ev["margin_control"].append(Outcome(False, nan, 0.0))
                diag[f"margin_ratio.{key}"] = 0.0
                diag[f"objective_ratio.{key}"] = math.inf
                continue
            proj = svc_bounds(XT, y, C_HARD, res_t.alpha, res_t.b)
            Zt, Wt = proj["Z"], proj["wsq"]
            degenerate = bool(orig["degenerate"] or proj["degenerate"])
            ratio = wsq / proj["w_norm_sq"] if not degenerate else nan  # gamma~^2 / gamma^2
            if e < 1 and not degenerate:
                ev["objective_bound"].append(_objective_entry(Z, Zt, Wt, e, 0.5 * e / (1.0 - e)))
            else:
                ev["objective_bound"].append(Outcome(True, nan, nan, vacuous=True))
            k_m = (1.0 - 2.0 * e) / (1.0 - e) if e < 0.5 else nan
            ev["margin_bound"].append(margin_lower_event(k_m, W, Wt, ratio, e >= 0.5 or degenerate))
            ev["objective_control"].append(
                Outcome(True, nan, nan, vacuous=True) if degenerate else _objective_entry(Z, Zt, Wt, e, 0.0))
            ev["margin_control"].append(margin_lower_event(1.0, W, Wt, ratio, degenerate))
            diag[f"margin_ratio.{key}"] = ratio
            diag[f"objective_ratio.{key}"] = proj["Z"].mid / Z.mid
            if a in GAME_ADVERSARIES and not degenerate:
                G[GAME_ADVERSARIES.index(a), j] = ratio
    out = {v: _combine(o) for v, o in ev.items()}
    lo, hi, p, q, maxmin, minmax = matrix_game(G)
    value = 0.5 * (lo + hi)
    saddle = float(maxmin == minmax)
    out["informative"] = Outcome(True, n_inf / n_all)
    out["pure_saddle"] = Outcome(True, saddle)
    out["game_value"] = Outcome(True, value)
    diag.update(
        informative_fraction=n_inf / n_all,
        pure_saddle=saddle,
        game_value=value,
        game_gap=hi - lo,
        game_maxmin=maxmin,
        game_minmax=minmax,
        gamma_sq=1.0 / wsq,
    )
    for i, a in enumerate(GAME_ADVERSARIES):
        diag[f"q.{a}"] = float(q[i])
    for j, rname in enumerate(LEARNERS):
        diag[f"p.{rname}"] = float(p[j])
    return TrialRecord(outcomes=out, diagnostics=diag)


_MEAS = ("informative", "pure_saddle", "game_value")


def decide(records, params):
    """Measurements only: per cell, the fraction of draws with a pure saddle point, medians of the game's
    value, maxmin and minmax (margin ratio units), the adversary's and learner's median mixed strategies,
    and per entry the fraction with ``e_T < 1`` and the median margin and objective ratios."""
    verdicts = {v: Verdict.INCONCLUSIVE for v in _MEAS}
    if not records:
        return verdicts, {}

    def col(k):
        return np.array([r.diagnostics[k] for r in records], dtype=float)

    info = {
        "claim": "measured (no verdict): zero-sum game on gamma~^2/gamma^2, adversary rows "
        f"{', '.join(GAME_ADVERSARIES)}, learner columns {', '.join(LEARNERS)}",
        "fraction_pure_saddle": float(np.mean(col("pure_saddle"))),
        "median_game_value": float(np.median(col("game_value"))),
        "median_maxmin": float(np.median(col("game_maxmin"))),
        "median_minmax": float(np.median(col("game_minmax"))),
        "max_lp_gap": float(np.max(col("game_gap"))),
        "median_adversary_strategy": {a: float(np.median(col(f"q.{a}"))) for a in GAME_ADVERSARIES},
        "median_learner_strategy": {r: float(np.median(col(f"p.{r}"))) for r in LEARNERS},
        "fraction_informative_entries": float(np.mean(col("informative_fraction"))),
    }
    for a in ADVERSARIES:
        for r in LEARNERS:
            key = f"{a}.{r}"
            e = col(f"e.{key}")
            info[key] = {
                "fraction_e_below_1": float(np.mean(e < 1)),
                "median_e": float(np.median(e)),
                "median_margin_ratio": float(np.nanmedian(col(f"margin_ratio.{key}"))),
                "median_objective_ratio": float(np.nanmedian(col(f"objective_ratio.{key}"))),
            }
    return verdicts, info


def _margin_expected(p):
    return Verdict.HOLDS if margin_uninformative_bound(int(p["rho"]), int(p["r_hi"])) <= 0.01 else None


def _cell(b, n=40, d=1024, rho=3, r_lo=64, r_hi=512):
    return {"n": n, "d": d, "rho": rho, "r_lo": r_lo, "r_hi": r_hi, "b": b}


PROFILES = {
    "quick": Profile((_cell(0.25),), trials=TRIALS),
    "ci": Profile((_cell(0.25), _cell(0.5)), trials=TRIALS),
    "standard": Profile(tuple(_cell(b, n=80, d=2048, r_lo=128, r_hi=1024) for b in (0.1, 0.25, 0.5)), trials=TRIALS),
    "full": Profile(
        tuple(_cell(b, n=n, d=4096, rho=rho, r_lo=128, r_hi=2048) for b in (0.1, 0.25, 0.5) for n, rho in
              ((100, 5), (200, 10))),
        trials=200,
    ),
}

_RECON = "rpcheck's minimal game (finite A and R sets, margin payoff); the paper's game is not in the available text"

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="alpcan2016",
        title="Adversarial learning game (RECONSTRUCTION, not the paper's verbatim claims): objective and margin "
        "bounds entry-wise on X A R, equilibria of the margin game",
        citation=cite(
            "Section on the adversarial learning game (the sentence citing [41]; section and page not identifiable "
            "from the available text). The game checked is rpcheck's reconstruction, not the paper's",
            "Paul et al. (17) and (21) with T = A R",
        ),
        statement="Printed (sentence citing [41]): 'The rest of the analysis closely follows the one in [41]. It is "
        "shown in [41] that ||alpha*_pd^T Y X||_2^2 <= 1/(1 - ||E||_2) ||alpha*_pd^T Y X A R||_2^2.' Checked "
        "(rpcheck's RECONSTRUCTION, not the paper's verbatim claims): on every entry T = A R of a finite game "
        "(adversary maps A, learner projections R, hard-margin SVM on X A R), Z_opt >= Z~_opt - (1/2) "
        "(e/(1-e)) ||w~*||^2 for e < 1 and gamma~^2 >= ((1-2e)/(1-e)) gamma^2 for e < 1/2; measured: pure "
        "saddle points and the mixed value of the zero-sum game on the margin.",
        kind="deterministic",
        variants=(
            Variant("objective_bound", "Z_opt >= Z~_opt - (1/2) e/(1-e) ||w~*||^2 at every entry with e_T < 1",
                    expected=Verdict.HOLDS, assumed=(_RECON,)),
            Variant("margin_bound", "gamma~_T^2 >= ((1 - 2e)/(1 - e)) gamma^2 at every entry with e_T < 1/2",
                    expected=_margin_expected, assumed=(_RECON,)),
            Variant("objective_control", "Z_opt >= Z~_opt at every solved entry (||E|| replaced by 0)",
                    expected=Verdict.VIOLATED, role="control",
                    note="Fails at attenuate x gauss_hi: Z~ >= 4 Z/(1 + e_R) > Z (module docstring)."),
            Variant("margin_control", "gamma~_T^2 >= gamma^2 at every solved entry (||E|| replaced by 0)",
                    expected=Verdict.VIOLATED, role="control",
                    note="Fails at attenuate x gauss_hi: gamma~^2 <= (1 + e_R) gamma^2/4 < gamma^2."),
            Variant("informative", "fraction of the game's entries with e_T < 1 (per entry in decide_info)",
                    mode="report", expected=None, role="measurement"),
            Variant("pure_saddle", "1 if the margin game has a pure saddle point (maxmin == minmax), else 0",
                    mode="report", expected=None, role="measurement"),
            Variant("game_value", "mixed value of the margin game (gamma~^2/gamma^2 units; LP, weak-duality "
                    "certified)", mode="report", expected=None, role="measurement"),
        ),
        profiles=PROFILES,
        trial=trial,
        decide=decide,
        parameters={
            **DATA_PARAMS,
            "r_lo": Param("int", low=1, doc="columns of the smaller Gaussian R"),
            "r_hi": Param("int", low=1, doc="columns of the larger Gaussian R and of the sampling R"),
            "b": Param("float", low=0.0, high=1.0,
                       doc="adversary budget: ||A - I|| (shrink), fraction of features deleted (delete)"),
        },
        constraints=(
            RHO_LE_MIN,
            Constraint("r_lo <= r_hi", lambda p: int(p["r_lo"]) <= int(p["r_hi"])),
        ),
        tolerance=FP_REL,
        tolerance_note="Certified intervals of Z_opt and ||w||^2 (svc_bounds: duality gap, 1-strong convexity), "
        "1e-10 relative rounding; game LPs certified by weak duality within 1e-7 (1 + max|G|).",
        findings=(
            Finding(
                "alpcan-adversarial-game-reconstruction",
                "The available text of Alpcan et al. 2016 quotes only Paul et al.'s inequality for X A R; the "
                "players' costs, the equilibrium notion and the game's theorems are not in it. rpcheck checks the "
                "quoted bounds entry-wise on its own finite game and measures that game's equilibria; these verdicts "
                "are not verdicts on the paper's printed claims.",
                evidence_variant="objective_bound",
                location="Alpcan et al. 2016, the sentence citing [41] (its section and page are not in the "
                "available text)",
                quote="The rest of the analysis closely follows the one in [41].",
                kind="observation",
            ),
        ),
        notes="Hard margin (C = inf) on separable data, bias (Paul et al.'s eq. (3)); R Gaussian N(0, 1/r) or "
        "uniform column sampling sqrt(d/r) S; rows identity, shrink (I - b v v^T, v the top right singular vector of "
        "X), delete (ceil(b d) top-leverage "
        "features); the attenuate row (A = I/2) serves the controls only and is not part of the game.",
    )
)
