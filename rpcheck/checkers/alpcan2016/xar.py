r"""Alpcan, Rubinstein and Leckie (CDC 2016): the SVM objective bound of Paul et al. reused for ``T = A R``.

Statement (Alpcan et al. 2016, the sentence citing Paul et al. [41]; reconstructed from that sentence)
    "It is shown in [41] that ``||alpha*_pd^T Y X||^2 <= 1/(1 - ||E||) ||alpha*_pd^T Y X A R||^2``", i.e. the
    chain of Paul et al. (eqs. 16-17) applied to the transformed data ``X A R``:
    ``Z_opt >= Z~_opt - (1/2) e/(1 - e) ||alpha~^T Y X T||^2``, ``T = A R``, ``e = ||I - V^T T T^T V||``
    (``V`` the right singular vectors of ``X``; rows are examples, SVM dual with bias, C-form).
    ``A`` is undefined in the available text of the paper: most plausibly the adversary's linear map.

The chain is deterministic given ``e`` and holds for **any** ``T``; with an adversarial ``A``, ``e >= 1`` is
easy and the quoted form (with ``1/(1 - e)``) becomes vacuous. The suite reports how often.

Per trial: low-rank data (``rpcheck.checkers.paul2014._data.classification_instance``), a Gaussian ``R``
(``make_sketch``), the map ``A`` of the cell's family, ``T = A R``, both SVM duals solved by
``rpcheck.svm.solve_svc`` (bias, ``C = 1``) and certified by the intervals of
``rpcheck.checkers.paul2014._common.svc_bounds`` (``Z_opt in [D, P]`` at exactly feasible points).

Families of ``A`` (``b`` = the cell's budget)
    ``identity``: ``A = I`` (Paul et al.'s own setting).
    ``perturb``: ``A = I + b G/||G||_2`` with Gaussian ``G`` (random, not adversarial).
    ``shrink``: ``A = I - b v v^T`` with ``v`` the top right singular vector of ``X`` (the adversary shrinks
    the most informative direction by the fraction ``b``; ``||A - I|| = b``). ``b = 1`` deletes it, so
    ``V^T T T^T V`` is singular and ``e >= 1`` for every draw.
    ``delete``: ``A`` = diagonal 0/1, deleting the ``ceil(b d)`` features of largest leverage ``||V_(i)||``.
    ``scale``: ``A = (1 + b) I``; ``e >= (1+b)^2 (1 - e_R) - 1`` is above 1 for ``b = 1/2`` when R is good.

Variants (each reads ``statistic <= bound``; intervals certified, ``FP_REL`` rounding; a draw whose
certified intervals straddle the inequality is undetermined, counted against the verdict tested)
    ``eq16`` (deterministic): ``Z_opt >= Z~(a~) - (e/2) ||a~^T Y X||^2`` at the returned feasible ``a~``;
    informative for every ``e``. Expected HOLDS.
    ``quoted`` (deterministic): ``Z_opt >= Z~_opt - (1/2) e/(1-e) ||w~*||^2``; vacuous when ``e >= 1``.
    ``quadform`` (deterministic): ``||a~^T Y X||^2 <= ||a~^T Y X T||^2 / (1 - e)``; vacuous when ``e >= 1``.
    ``reverse`` (deterministic, [D], not in either paper): ``Z~_opt >= Z_opt - (e/2) ||a*^T Y X||^2``.
    ``informative`` (report, role "measurement"): the fraction of draws with ``e < 1`` in ``decide_info``
    (with, for ``A = I``, the Davidson-Szarek bound on P(some draw has e >= 1)); no verdict.
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import (
    Citation,
    Constraint,
    Finding,
    Outcome,
    Param,
    Profile,
    Theorem,
    TrialRecord,
    Variant,
    Verdict,
    register,
)
from ...linalg import embedding_distortion
from ...sketches import make_sketch
from ..paul2014._common import FP_REL, svc_bounds
from ..paul2014._data import classification_instance

__all__ = ["THEOREM", "trial", "adversary_map", "FAMILIES"]

THEOREM_ID = "alpcan2016.xar"
FAMILIES = ("identity", "perturb", "shrink", "delete", "scale")
C_SOFT = 1.0


def adversary_map(family, d, b, V, Zfac, *, rng):
    """The ``d x d`` map ``A`` of ``family`` with budget ``b`` (see the module docstring)."""
    if family == "identity":
        return np.eye(d)
    if family == "perturb":
        G = rng.standard_normal((d, d))
        return np.eye(d) + b * G / np.linalg.norm(G, 2)
    if family == "shrink":
        _, _, Wt = np.linalg.svd(Zfac, full_matrices=False)
        v = V @ Wt[0]
        return np.eye(d) - b * np.outer(v, v)
    if family == "delete":
        k = int(math.ceil(b * d))
        lev = np.sum(V * V, axis=1)
        keep = np.ones(d)
        keep[np.argsort(lev)[::-1][:k]] = 0.0
        return np.diag(keep)
    if family == "scale":
        return (1.0 + b) * np.eye(d)
    from ...errors import RpcheckError

    raise RpcheckError(f"`family` ({family!r}) must be one of {', '.join(map(repr, FAMILIES))}.")


def _ge(lhs_lo, lhs_hi, rhs_lo, rhs_hi, statistic, bound, *, reverse=False):
    """Outcome of ``lhs >= rhs`` with ``lhs`` certified in ``[lhs_lo, lhs_hi]`` and ``rhs`` in
    ``[rhs_lo, rhs_hi]``: holds when ``lhs_lo >= rhs_hi``, fails when ``lhs_hi < rhs_lo``, else undetermined
    (the intervals straddle). ``statistic``/``bound`` are recorded (the inequality reads
    ``statistic <= bound``; ``reverse`` only documents that ``statistic`` is the left side's complement)."""
    if lhs_lo >= rhs_hi:
        return Outcome(True, statistic, bound)
    if lhs_hi < rhs_lo:
        return Outcome(False, statistic, bound)
    return Outcome(bool(statistic <= bound), statistic, bound, undetermined=True)


@single_threaded
def trial(params, rng):
    n, d, rho, r = int(params["n"]), int(params["d"]), int(params["rho"]), int(params["r"])
    family, b = params["family"], float(params["b"])
    from ...svm import solve_svc

    X, y, Zfac, V = classification_instance(n, d, rho, "soft", rng=rng)
    R = make_sketch("gaussian", d, r, rng=rng).matrix()
    A = adversary_map(family, d, b, V, Zfac, rng=rng)
    T = A @ R
    e = float(embedding_distortion(V, VtR=V.T @ T))
    XT = X @ T
    res = solve_svc(Zfac, y, C_SOFT)  # X X^T = Z Z^T
    res_t = solve_svc(XT, y, C_SOFT)
    orig = svc_bounds(Zfac, y, C_SOFT, res.alpha, res.b)
    proj = svc_bounds(XT, y, C_SOFT, res_t.alpha, res_t.b)
    Z, Zt, Wt = orig["Z"], proj["Z"], proj["wsq"]
    fp = FP_REL
    at = proj["a"]
    u = Zfac.T @ (y * at)  # ||a~^T Y X|| = ||Z^T Y a~||
    q_u = float(u @ u)
    Tu = XT.T @ (y * at)
    q_Tu = float(Tu @ Tu)
    out = {}
    # Z_opt in [Z.lo, Z.hi], Z~_opt in [Zt.lo, Zt.hi], ||w~*||^2 in Wt (certified intervals); the
    # right-hand sides are evaluated at exactly feasible points, up to rounding fp * scale.
    sc = abs(Z.hi) + abs(Zt.hi) + e * q_u + 1.0
    rhs16 = Zt.lo - 0.5 * e * q_u  # Z~(a~) - (e/2)||a~^T Y X||^2, Zt.lo = Z~(a~) - rounding
    out["eq16"] = _ge(Z.lo, Z.hi, rhs16 - fp * sc, Zt.hi - 0.5 * e * q_u + fp * sc, rhs16, Z.hi)
    if e >= 1:
        out["quoted"] = Outcome(True, math.nan, Z.hi, vacuous=True)
        out["quadform"] = Outcome(True, q_u, math.nan, vacuous=True)
    else:
        k = 0.5 * e / (1 - e)
        rhs17 = Zt.lo - k * Wt.hi
        out["quoted"] = _ge(Z.lo, Z.hi, rhs17 - fp * sc, Zt.hi - k * Wt.lo + fp * sc, rhs17, Z.hi)
        bq = q_Tu / (1 - e)
        r = fp * (q_u + bq + 1.0)  # both sides computed at the same a~: rounding only
        out["quadform"] = _ge(bq - r, bq + r, q_u - r, q_u + r, q_u, bq, reverse=True)
    # Negative control: quadform with its constant tightened, q_u <= q_Tu/100. Since
    # a~^T Y X T = (Z^T Y a~)^T V^T T and ||V^T T||^2 = ||V^T T T^T V|| <= 1 + e,
    # q_Tu <= (1 + e) q_u, so every draw with e < 99 and a~ != 0 is a certified counterexample.
    rc = fp * (q_u + q_Tu + 1.0)
    out["control_quadform"] = _ge(0.01 * q_Tu - rc, 0.01 * q_Tu + rc, q_u - rc, q_u + rc, q_u, 0.01 * q_Tu)
    a_s = orig["a"]
    us = Zfac.T @ (y * a_s)
    q_us = float(us @ us)
    rhs_rev = Z.lo - 0.5 * e * q_us
    sc_r = abs(Z.hi) + abs(Zt.hi) + e * q_us + 1.0
    out["reverse"] = _ge(Zt.lo, Zt.hi, rhs_rev - fp * sc_r, Z.hi - 0.5 * e * q_us + fp * sc_r, rhs_rev, Zt.hi)
    out["informative"] = Outcome(bool(e < 1), e, 1.0)
    diags = {
        "e": e,
        "Z_opt_lo": Z.lo,
        "Z_proj_lo": Zt.lo,
        "gap": orig["gap"],
        "gap_proj": proj["gap"],
        "kkt_max_rel": max(res.kkt.max_relative, res_t.kkt.max_relative),
        "A_minus_I": float(np.linalg.norm(A - np.eye(d), 2)),
    }
    return TrialRecord(outcomes=out, diagnostics=diags)


def decide(records, params):
    """Measurement only (role "measurement"): the fraction of draws with ``e < 1`` and, for ``A = I``, the
    Davidson-Szarek bound on P(some draw has e >= 1) at this many draws (:func:`identity_failure_bound`)."""
    es = np.array([r.outcomes["informative"].statistic for r in records])
    if es.size == 0:
        return {"informative": Verdict.INCONCLUSIVE}, {}
    info = {"fraction_e_below_1": float(np.mean(es < 1)), "median_e": float(np.median(es))}
    if params["family"] == "identity":
        info["bound_P_some_e_ge_1"] = identity_failure_bound(int(params["rho"]), int(params["r"]), int(es.size))
    return {"informative": Verdict.INCONCLUSIVE}, info


def _cell(family, b, n=40, d=128, rho=5, r=128):
    return {"n": n, "d": d, "rho": rho, "r": r, "family": family, "b": b}


def _expected(variant):
    def f(p):
        fam, b = p["family"], float(p["b"])
        always_vacuous = (fam == "shrink" and b >= 1.0) or (fam == "scale" and b >= 0.5)
        if variant in ("eq16", "reverse"):
            return Verdict.HOLDS
        if variant in ("quoted", "quadform"):
            return Verdict.VACUOUS if always_vacuous else Verdict.HOLDS
        return None

    return f


def identity_failure_bound(rho, r, trials):
    r"""Upper bound on ``P(some draw has e >= 1)`` for ``A = I`` (Gaussian R, entries N(0, 1/r)).

    ``V^T R`` is a ``rho x r`` matrix of i.i.d. N(0, 1/r) entries (V orthonormal); ``e >= 1`` iff
    ``s_max(V^T R)^2 >= 2`` (``s_min > 0`` a.s. for ``r >= rho``). Davidson-Szarek (Gordon's bound
    ``E s_max <= 1 + sqrt(rho/r)`` plus Gaussian concentration of the 1/sqrt(r)-Lipschitz ``s_max``):
    ``P(s_max >= 1 + sqrt(rho/r) + t) <= exp(-r t^2/2)``, with ``t = sqrt(2) - 1 - sqrt(rho/r)``; a union
    bound over ``trials`` draws. Returns 1 when ``t <= 0``.
    """
    t = math.sqrt(2.0) - 1.0 - math.sqrt(rho / r)
    if t <= 0:
        return 1.0
    return min(1.0, trials * math.exp(-r * t * t / 2.0))


_CI = (
    _cell("identity", 0.0),
    _cell("perturb", 0.3),
    _cell("shrink", 0.5),
    _cell("shrink", 1.0),
    _cell("delete", 0.25),
    _cell("scale", 0.5),
)
PROFILES = {
    "quick": Profile((_cell("identity", 0.0), _cell("shrink", 1.0)), trials=5),
    "ci": Profile(_CI, trials=15),
    "standard": Profile(
        tuple(_cell(c["family"], c["b"], n=60, d=256, rho=8, r=r) for c in _CI for r in (64, 256)), trials=50
    ),
    "full": Profile(
        tuple(_cell(c["family"], c["b"], n=100, d=512, rho=10, r=r) for c in _CI for r in (64, 256, 512)),
        trials=200,
    ),
}

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="alpcan2016",
        title="X A R objective bound: Z_opt >= Z~_opt - (1/2) e/(1-e) ||a~^T Y X A R||^2 for adversarial A",
        citation=Citation(
            authors="Tansu Alpcan, Benjamin I. P. Rubinstein, Christopher Leckie",
            year=2016,
            title="Large-Scale Strategic Games and Adversarial Machine Learning",
            venue="55th IEEE CDC 2016, DOI 10.1109/CDC.2016.7798940; arXiv:1609.06438",
            location="Section on the adversarial learning game (sentence quoting Paul et al. [41])",
            equations="Paul et al. (16)-(17) with T = A R",
        ),
        statement="||alpha*_pd^T Y X||_2^2 <= 1/(1 - ||E||_2) ||alpha*_pd^T Y X A R||_2^2 (quoted from [41]), hence "
        "Z_opt >= Z~_opt - (1/2) (||E||/(1 - ||E||)) ||alpha~^T Y X A R||^2, E = I - V^T A R R^T A^T V.",
        kind="deterministic",
        variants=(
            Variant("eq16", "Z_opt >= Z~(a~) - (e/2)||a~^T Y X||^2 (any e)", expected=_expected("eq16")),
            Variant(
                "quoted",
                "Z_opt >= Z~_opt - (1/2) e/(1-e) ||w~*||^2, vacuous for e >= 1",
                expected=_expected("quoted"),
                assumed=("A = the adversary's linear map (undefined in the available text of Alpcan et al. 2016)",),
            ),
            Variant(
                "quadform",
                "||a~^T Y X||^2 <= ||a~^T Y X A R||^2/(1 - e), vacuous for e >= 1",
                expected=_expected("quadform"),
            ),
            Variant("reverse", "Z~_opt >= Z_opt - (e/2)||a*^T Y X||^2 [D]", expected=_expected("reverse")),
            Variant(
                "control_quadform",
                "||a~^T Y X||^2 <= ||a~^T Y X A R||^2/100 (quadform tightened; fails whenever e < 99)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Negative control: ||a~^T Y X T||^2 <= (1 + e)||a~^T Y X||^2 (derivation in trial).",
            ),
            Variant(
                "informative",
                "fraction of draws with e < 1 (decide_info; measured, no verdict)",
                mode="report",
                expected=None,
                role="measurement",
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        decide=decide,
        parameters={
            "n": Param("int", low=2, doc="number of examples"),
            "d": Param("int", low=1, doc="dimension"),
            "rho": Param("int", low=1, doc="rank of X"),
            "r": Param("int", low=1, doc="columns of the Gaussian R"),
            "family": Param("choice", choices=FAMILIES, doc="family of the adversary's map A"),
            "b": Param("float", low=0.0, doc="budget of A (see the module docstring)"),
        },
        constraints=(
            Constraint(
                "rho <= min(n, d) (rank of the n x d data)",
                lambda p: int(p["rho"]) <= min(int(p["n"]), int(p["d"])),
            ),
            Constraint(
                "b <= 1 for the families 'shrink' and 'delete' (a fraction)",
                lambda p: p["family"] not in ("shrink", "delete") or float(p["b"]) <= 1.0,
            ),
        ),
        tolerance=FP_REL,
        tolerance_note="Certified intervals Z_opt in [D, P] at exactly feasible points (paul2014._common."
        "svc_bounds), ||w~*||^2 from 1-strong convexity; 1e-10 relative rounding allowance.",
        findings=(
            Finding(
                "alpcan-vacuous-adversarial",
                "With an adversarial A (the top data direction shrunk by b = 1, or A = 1.5 I) e >= 1 in every "
                "draw and the quoted bound (with 1/(1 - e)) is vacuous. For A = I, e < 1 in every draw only with "
                "enough r/rho (rigorous at full r = 512, rho = 10; at r = 64, rho = 8 one draw in 50 had e >= 1).",
                evidence_variant="quoted",
                spec_ref="Alpcan et al. 2016, sentence citing [41]",
            ),
            Finding(
                "alpcan-eq16-any-T",
                "The sharper form (16) Z_opt >= Z~(a~) - (e/2)||a~^T Y X||^2 holds for every T = A R, also "
                "when e >= 1 (no exception, soft margin C = 1).",
                evidence_variant="eq16",
                spec_ref="Paul et al. 2014 eq. (16)",
            ),
            Finding(
                "alpcan-reverse",
                "The symmetric bound Z~_opt >= Z_opt - (e/2)||a*^T Y X||^2 (not in either paper) holds.",
                evidence_variant="reverse",
                spec_ref="Paul et al. 2014 eqs. (16)-(17), reverse direction [D]",
            ),
        ),
        notes="Soft margin C = 1 with bias (Paul et al.'s convention, rows are examples); R Gaussian N(0, 1/r).",
    )
)
