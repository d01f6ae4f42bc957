r"""Theorem 6 of Zhang et al. (2013) where its bound is informative (``< 1``, the error of ``wtilde = 0``).

Statement (Theorem 6; form [T], constant and range [R], ``rbar`` inferred [D]): see
:mod:`rpcheck.papers.zhang2013.thm6`. For ``0 < eps <= 1/2``, with probability at least ``1 - delta``,
``||wtilde - w*|| <= eps/(1-eps) (1 + sqrt(lambda)/(sqrt(gamma) sigma_k)) ||w*||`` provided
``m >= rbar sigma_1^2 log(2d/delta) / (c eps^2 (lambda/gamma + sigma_1^2))``, ``c = 1/32`` [R].

The informative range (derived here)
    The trivial estimate ``wtilde = 0`` has relative error exactly 1, so the bound says something only where
    ``B(eps) = eps/(1-eps) (1 + t) < 1`` with ``t = sqrt(lambda/gamma)/sigma_k``, i.e. ``eps < 1/(2 + t)``.
    With ``eps = eps(m)`` from the printed condition this is
    ``m > 32 rbar g_1^2 log(2d/delta) (2 + t)^2`` (:func:`informative_min_m`), ``g_i^2 =
    sigma_i^2/(lambda/gamma + sigma_i^2)`` (so ``rbar = sum g_i^2``). The smallest such ``m`` falls as ``t``
    grows (``g_1^2 rbar ~ 1/(1 + t^2)^2`` when ``w*`` lies along the top singular vectors and the rest of
    the spectrum is small): the bound is informative at moderate ``m`` only when ``lambda/gamma`` is
    comparable to or larger than ``sigma_k^2``. The cells of :mod:`thm6` (``t = 3``, ``rbar ~ 1.08``, ``d =
    2000``) need ``m >= 3,835`` (quick, ``delta = 1/2``) and ``m >= 4,522`` (ci, ``delta = 0.1``) and are never
    informative (their largest ``m`` is 1,600);
    the cells below all are (``tests/checkers/test_zhang2013_thm6_informative.py`` asserts it).

Setting: that of :mod:`thm6` (square loss, ``gamma = 1``, ``X = U diag(s) V^T`` with ``s_i = s_1 i^-p``,
``y = U_k c sqrt(n)``, ``A = V^T R`` drawn in law as an ``q x m`` Gaussian with ``N(0, 1/m)`` entries,
``q = min(n, d)``), at ``n = q = 20`` so that large ``m`` stays cheap (``d`` enters only the bound).

Derivation of the expected HOLDS ([D], every step a proof)
    In V-coordinates ``Z = U S``, ``w* = S D^{-1} c'`` with ``D = lambda I + S^2``, ``c' = U^T y``
    (supported on the first ``k``), and (eq. (15)) ``wtilde = S (lambda I + S M S)^{-1} c'`` with ``M = A A^T``.
    Put ``G = S D^{-1/2}`` (diagonal ``g_i``) and ``E = G (M - I) G``; then ``lambda I + S M S =
    D^{1/2} (I + E) D^{1/2}`` and ``wtilde - w* = -G (I + E)^{-1} E v`` with ``v = D^{-1/2} c'``, while
    ``||w*|| = ||G v|| >= g_k ||v||``. Hence, when ``||E|| <= eps < 1``,
    ``||wtilde - w*||/||w*|| <= eps/(1-eps) / g_k = eps/(1-eps) sqrt(1 + lambda/sigma_k^2) <= B(eps)``
    (strictly below ``B`` by the factor ``sqrt(1 + t^2)/(1 + t)``, far more than the 1e-9 rounding allowance:
    no undetermined draw in this event). ``E = (1/m) sum_j (x_j x_j^T - G^2)`` with ``x_j = sqrt(m) G a_j``
    i.i.d. ``N(0, G^2)`` (``a_j`` the columns of ``A``), so ``E ||E||_F^2 = ((tr G^2)^2 + tr G^4)/m =
    (rbar^2 + sum g_i^4)/m`` (Gaussian fourth moments) and by Markov
    ``P(fail) <= P(||E||_F > eps) <= (rbar^2 + sum g_i^4)/(m eps^2)`` (:func:`failure_upper`). At the printed
    ``eps(m)``, ``m eps^2 = 32 rbar g_1^2 log(2d/delta)``, so the bound does not depend on ``m``: 0.006-0.008
    in every cell below (the conservative reading, ``m eps^2 = 32 rbar log(2d/delta)``: smaller still).
    Expected HOLDS where the exact support power at that failure probability
    (:func:`rpcheck.papers.zhang2013._common.power_holds`, row level 0.01/500, the fewest trials of any
    profile holding the cell) is >= 0.99; else reported (None).

Negative control ``control_unscaled`` (bound, promised ``delta``): the same instance and draw with the sketch's
``1/sqrt(m)`` scale dropped (``A' = sqrt(m) A``, a wrong implementation of Algorithm 1), against the printed
``B(eps(m))``. Derivation of VIOLATED: with ``mu = lambda_min(A' A'^T)``, ``S M' S >= mu S^2`` gives
``||S (lambda + S M' S)^{-1} S|| <= max_i s_i^2/(lambda + mu s_i^2) <= 1/mu``, so
``||wtilde'|| <= ||S^{-1} c'||/mu <= ||c'||/(mu sigma_k)`` and, with ``||w*|| >= h ||c'||``,
``h = min_{i <= k} s_i/(lambda + s_i^2)``, ``rel' >= 1 - 1/(mu sigma_k h)``. So the control fails whenever
``mu > mu_0 = 1/(sigma_k h (1 - B'))`` (``B' = B (1 + 1e-9)/(1 - 1e-9)``, the rounding allowance). The ``q x m``
standard Gaussian ``A'`` has ``s_min >= sqrt(m) - sqrt(q) - tau`` with probability ``>= 1 - 2 exp(-tau^2/2)``
(Davidson-Szarek; Vershynin, "Introduction to the non-asymptotic analysis of random matrices", Cor. 5.35), so
each draw fails with probability ``>= 1 - 2 exp(-tau^2/2)``, ``tau = sqrt(m) - sqrt(q) - sqrt(mu_0)``
(:func:`control_failure_lower`; 0.63 at ``m = 150``, ``delta = 0.1``, 0.90 at ``delta = 1/2``, 1.0 in the
other cells). Expected VIOLATED where
:func:`rpcheck.papers.zhang2013._common.power_violated` at that probability is >= 0.99; else None.

Trials: the largest of the least counts at which each expected row is decided with probability >= 0.99
(:func:`rpcheck.stats.trials_for_power`, anytime and fixed-n rules, row level 0.01/500) over the cells of the
profile, computed by :func:`_trials` at import: quick (``delta = 1/2``) 59 (the control at ``m = 150``), ci
(``delta = 0.1``) 243 (the stated rows; HOLDS of a bound row at ``delta = 0.1`` needs >= 103 draws at all).
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Constraint, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...svm.drp import drp
from ._common import (
    FP_REL,
    ROW_LEVEL,
    cell_key,
    cite,
    fewest_trials,
    power_holds,
    power_violated,
    single_threaded,
)
from .bounds import C_THM6, thm6_bound
from .thm6 import ASSUMED_THM6, cell_quantities, certified_bound_outcome, draw_instance, spectrum

__all__ = ["THEOREM", "trial", "informative_min_m", "failure_upper", "control_failure_lower", "cell_bound"]

THEOREM_ID = "zhang2013.thm6_informative"
POWER = 0.99


def _g2(params):
    s = spectrum(params)
    return s, s * s / (float(params["lam"]) + s * s)


def cell_bound(params, form="as_printed"):
    """``(eps, B(eps))`` of a cell: the ``eps`` implied by ``m`` (printed or conservative condition) and the
    printed bound ``eps/(1-eps)(1 + sqrt(lambda)/sigma_k)`` (``inf`` when ``eps > 1/2``)."""
    _, ep, ec = cell_quantities(params)
    eps = ep if form == "as_printed" else ec
    s = spectrum(params)
    b = thm6_bound(eps, float(params["lam"]), 1.0, s[int(params["k"]) - 1]) if eps <= 0.5 else math.inf
    return eps, b


def informative_min_m(params, form="as_printed"):
    """Least ``m`` at which the printed bound is ``< 1`` (module docstring): the least integer
    ``m > F log(2d/delta) (2 + t)^2 / c`` with ``F = rbar g_1^2`` (printed) or ``rbar`` (conservative),
    ``t = sqrt(lambda)/sigma_k``."""
    s, g2 = _g2(params)
    rbar = float(g2.sum())
    f = rbar * float(g2[0]) if form == "as_printed" else rbar
    t = math.sqrt(float(params["lam"])) / s[int(params["k"]) - 1]
    L = math.log(2 * int(params["d"]) / float(params["delta"]))
    return int(math.floor(f * L * (2 + t) ** 2 / C_THM6)) + 1


def failure_upper(params, form="as_printed"):
    """Upper bound ``(rbar^2 + sum g_i^4)/(m eps^2)`` on the failure probability (Markov on ``||E||_F^2``)."""
    _, g2 = _g2(params)
    eps, _ = cell_bound(params, form)
    return min(1.0, float(g2.sum() ** 2 + np.sum(g2 * g2)) / (int(params["m"]) * eps * eps))


def control_failure_lower(params):
    """Lower bound ``1 - 2 exp(-tau^2/2)`` on the control's per-draw failure probability (0 when ``tau <= 0``
    or the bound is not informative)."""
    s = spectrum(params)
    k, lam, m = int(params["k"]), float(params["lam"]), int(params["m"])
    _, b = cell_bound(params)
    b = b * (1 + FP_REL) / (1 - FP_REL)
    if not b < 1:
        return 0.0
    h = min(s[i] / (lam + s[i] ** 2) for i in range(k))
    mu0 = 1.0 / (s[k - 1] * h * (1.0 - b))
    tau = math.sqrt(m) - math.sqrt(s.size) - math.sqrt(mu0)
    return max(0.0, 1.0 - 2.0 * math.exp(-tau * tau / 2)) if tau > 0 else 0.0


@single_threaded
def trial(params, rng):
    m, lam = int(params["m"]), float(params["lam"])
    s, _, Z, y, A, w_star = draw_instance(params, rng)
    q = s.size
    wn = float(np.linalg.norm(w_star))
    rel = float(np.linalg.norm(np.asarray(drp(Z, y, lam, A, loss="square").w_tilde) - w_star)) / wn
    rel_u = float(np.linalg.norm(np.asarray(drp(Z, y, lam, A * math.sqrt(m), loss="square").w_tilde) - w_star)) / wn
    g = s / np.sqrt(lam + s * s)
    E = (g[:, None] * (A @ A.T - np.eye(q))) * g[None, :]
    ep, bp = cell_bound(params, "as_printed")
    ec, bc = cell_bound(params, "conservative")
    out = {
        "stated": certified_bound_outcome(rel, ep, bp),
        "conservative": certified_bound_outcome(rel, ec, bc),
        "control_unscaled": certified_bound_outcome(rel_u, ep, bp),
    }
    diags = {"rel_err": rel, "rel_unscaled": rel_u, "E_norm": float(np.linalg.norm(E, 2)),
             "eps_printed": ep, "bound_printed": bp, "eps_conservative": ec, "bound_conservative": bc}
    return TrialRecord(outcomes=out, diagnostics=diags)


def _cells(lam, k, ms, delta, n=20, d=1000, p=2.0, s1=10.0):
    return tuple({"n": n, "d": d, "p": p, "s1": s1, "lam": lam, "k": k, "m": m, "delta": delta} for m in ms)


def _needs(cell):
    """Least trials deciding each expected row of ``cell`` with probability >= POWER (anytime and fixed-n)."""
    from ...stats import trials_for_power

    d = float(cell["delta"])
    out = []
    for verdict, p in (("HOLDS", failure_upper(cell)), ("HOLDS", failure_upper(cell, "conservative")),
                       ("VIOLATED", control_failure_lower(cell))):
        for anytime in (True, False):
            out.append(trials_for_power("bound", verdict, p, d, ROW_LEVEL, power=POWER, anytime=anytime))
    return out


def _trials(cells):
    return max(max(_needs(c)) for c in cells)


# Cells (n = q = 20, d = 1000, s1 = 10), with the least informative m (:func:`informative_min_m`, printed /
# conservative condition, delta = 1/2 | 0.1): p = 2, k = 1, lambda = 900 (t = 3): 73 / 724 | 87 / 865;
# p = 2, k = 1, lambda = 100 (t = 1): 691 / 1,382 | 825 / 1,650; p = 1, k = 2, lambda = 400 (t = 4, ci only):
# - | 773 / 4,335. Trial time ~10 ms at m <= 1000 and ~15 ms at m = 2000 (one SVD of the 20 x m sketched data
# per DRP solve, two solves per trial): ci ~243 x 35 ms ~ 8.5 s serial.
QUICK_CELLS = _cells(900.0, 1, [150, 1000], 0.5) + _cells(100.0, 1, [1000], 0.5)
CI_CELLS = (_cells(900.0, 1, [1000], 0.1) + _cells(100.0, 1, [1000], 0.1)
            + _cells(400.0, 2, [2000], 0.1, p=1.0))
PROFILES = {
    "quick": Profile(QUICK_CELLS, trials=_trials(QUICK_CELLS)),
    "ci": Profile(CI_CELLS, trials=_trials(CI_CELLS)),
    "standard": Profile(CI_CELLS + _cells(900.0, 1, [150], 0.1) + _cells(100.0, 1, [3000], 0.1)
                        + _cells(25.0, 2, [6000], 0.1), trials=300),
    "full": Profile(CI_CELLS + _cells(900.0, 1, [150], 0.1) + _cells(100.0, 1, [3000, 12000], 0.1)
                    + _cells(25.0, 2, [6000, 12000], 0.1), trials=1000),
}
_FEWEST = fewest_trials(PROFILES)


def _expected_holds(form):
    def f(params):
        _, b = cell_bound(params, form)
        if not b < 1:
            return Verdict.VACUOUS if b == math.inf else None
        n = _FEWEST.get(cell_key(params), 20)
        return Verdict.HOLDS if power_holds(n, failure_upper(params, form), float(params["delta"])) >= POWER else None

    return f


def _expected_control(params):
    n = _FEWEST.get(cell_key(params), 20)
    pw = power_violated(n, control_failure_lower(params), float(params["delta"]))
    return Verdict.VIOLATED if pw >= POWER else None


THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Thm 6 where informative: eps/(1-eps)(1 + sqrt(lam)/sigma_k) < 1 (m > 32 rbar g1^2 log(2d/delta)(2+t)^2)",
        citation=cite("Theorem 6", "rbar, numerical nu-rank"),
        statement="If w* lies in the span of the first k singular vectors of X and l is gamma-smooth, then for "
        "0 < eps <= 1/2, w.p. >= 1 - delta, ||wtilde - w*|| <= eps/(1-eps)(1 + sqrt(lambda)/(sqrt(gamma) "
        "sigma_k))||w*|| provided m >= rbar sigma_1^2 log(2d/delta)/(c eps^2 (lambda/gamma + sigma_1^2)), "
        "c = 1/32 [R]; tested where the bound is < 1.",
        kind="probabilistic",
        variants=(
            Variant(
                "stated",
                "rel <= eps/(1-eps)(1 + sqrt(lambda)/sigma_k) < 1, eps from the printed m-condition",
                mode="bound",
                expected=_expected_holds("as_printed"),
                promised_failure=lambda p: float(p["delta"]),
                assumed=ASSUMED_THM6,
                note="Expected HOLDS: P(fail) <= (rbar^2 + sum g^4)/(m eps^2) (Markov on ||G(AA^T - I)G||_F^2).",
            ),
            Variant(
                "conservative",
                "the same with eps from m >= rbar log(2d/delta)/(c eps^2)",
                mode="bound",
                expected=_expected_holds("conservative"),
                promised_failure=lambda p: float(p["delta"]),
                assumed=ASSUMED_THM6,
                note="Reported (None) or VACUOUS where the conservative bound is >= 1 (not informative).",
            ),
            Variant(
                "control_unscaled",
                "the same instance with the sketch's 1/sqrt(m) scale dropped: rel' <= the printed bound",
                mode="bound",
                expected=_expected_control,
                promised_failure=lambda p: float(p["delta"]),
                role="control",
                note="Negative control: rel' >= 1 - 1/(mu sigma_k h) with mu = s_min(sqrt(m) A)^2 (module docstring).",
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        parameters={
            "n": Param("int", low=2, doc="number of examples", size=True),
            "d": Param("int", low=1, doc="dimension (enters the bound through log(2d/delta))"),
            "p": Param("float", low=0.0, closed="neither", doc="decay sigma_i = s1 i^-p"),
            "s1": Param("float", low=0.0, closed="neither", doc="largest singular value sigma_1"),
            "lam": Param("float", low=0.0, closed="neither", doc="regulariser lambda (square loss, gamma = 1)"),
            "k": Param("int", low=1, doc="w* lies in the span of the first k singular vectors"),
            "m": Param("int", low=1, doc="number of random projections", size=True),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability"),
        },
        constraints=(
            Constraint("k <= min(n, d) (full rank min(n, d))", lambda p: int(p["k"]) <= min(int(p["n"]), int(p["d"]))),
        ),
        tolerance=FP_REL,
        tolerance_note="Closed forms (square loss); 1e-9 relative rounding allowance.",
        notes="Square loss, y = U_k c sqrt(n); sigma_i = s1 i^-p; A = V^T R drawn in law; n = q = 20.",
    )
)
