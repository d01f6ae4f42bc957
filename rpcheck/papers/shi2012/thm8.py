r"""Theorem 8 of Shi et al. (2012) (multiclass normalised margin; Theorem 8 and its proof; Definition 7).

``shi2012.thm8``: fixed data with orthonormal witnesses ``{u_y}`` and planted D7 margin ``gamma``
(:func:`rpcheck.generators.multiclass_dataset`); per trial one Gaussian ``R`` (shared by all points and
classes) and the projected witness margin ``min_i [cos(Ru_{y_i}, Rx_i) - max_{y'} cos(Ru_{y'}, Rx_i)]``.

The gap in the proof's final step (a construction on which every Lemma-10 event holds and the printed margin
does not follow) is shi2012.thm8.final_step (module ``thm8_final_step``).
"""

from __future__ import annotations

import functools

import numpy as np

from ..._threads import single_threaded
from ...engine import Finding, Outcome, Theorem, TrialRecord, Variant, register
from ...generators import multiclass_dataset, multiclass_margins
from . import _common as c
from . import bounds as B

__all__ = ["THEOREM", "trial"]


@functools.lru_cache(maxsize=64)
def _data(m, d, L, gamma):
    D = multiclass_dataset(m, d, L, margin=gamma, rng=c.instance_rng("thm8", m, d, L, gamma))
    gu = min(1.0, float(multiclass_margins(D.X, D.y, D.witnesses).min()))
    return D.X, D.y, D.witnesses, gu


def _projected(X, y, U, n, eps, rng):
    """Projected per-point margins, the original cosines, and whether every Lemma-10 event used holds."""
    m, L = X.shape[0], U.shape[0]
    Xh = X / np.linalg.norm(X, axis=1)[:, None]
    Uh = U / np.linalg.norm(U, axis=1)[:, None]
    diffs = (Xh[:, None, :] - Uh[None, :, :]).reshape(m * L, -1)
    V = np.vstack([U, X, diffs])
    RV = c.project(V, n, rng)
    q = c.sq_ratio(RV, V)
    RU, RX = RV[:L], RV[L:L + m]
    cos_p = (RX @ RU.T) / (np.linalg.norm(RX, axis=1)[:, None] * np.linalg.norm(RU, axis=1)[None, :])
    cos_o = Xh @ Uh.T
    idx = np.arange(m)
    own_p, own_o = cos_p[idx, y], cos_o[idx, y]
    other_p, other_o = cos_p.copy(), cos_o.copy()
    other_p[idx, y] = -np.inf
    other_o[idx, y] = -np.inf
    margin_p = own_p - other_p.max(axis=1)
    point_bound = np.array([B.thm8_point_bound(a, b, eps) for a, b in zip(own_o, other_o.max(axis=1))])
    return margin_p, point_bound, bool(np.all(np.abs(q - 1) <= eps))


@single_threaded(user_api="blas")
def trial(params, rng):
    m, d, L, gamma, n, eps = (params[k] for k in ("m", "d", "L", "gamma", "n", "eps"))
    X, y, U, gu = _data(m, d, L, gamma)
    margin_p, point_bound, events = _projected(X, y, U, n, eps, rng)
    g = float(margin_p.min())
    b_pr = B.thm8_margin_bound(gu, eps)
    b_co = B.thm8_margin_bound(gu, eps, "corrected")
    slack_pt = float((margin_p - point_bound).min())
    out = {
        "as_printed": Outcome(holds=g >= b_pr, statistic=g, bound=b_pr, vacuous=b_pr <= 0),
        "corrected": Outcome(holds=g >= b_co, statistic=g, bound=b_co, vacuous=b_co <= 0),
        "per_point_structure": Outcome(holds=slack_pt >= -c.TOL, statistic=-slack_pt, bound=c.TOL,
                                       vacuous=not events),
        "printed_step": Outcome(holds=g >= b_pr - c.TOL, statistic=g, bound=b_pr - c.TOL, vacuous=not events),
    }
    return TrialRecord(outcomes=out, diagnostics={"margin_proj": g, "events": float(events), "gamma_u": gu})


def _promised(p):
    return B.union_failure_bound("thm8", p["n"], p["eps"], m=p["m"], L=p["L"])


def _exp(form):
    def f(p):
        gu = _data(p["m"], p["d"], p["L"], p["gamma"])[3]
        return c.expect_bound(_promised(p), applies=B.thm8_margin_bound(gu, p["eps"], form) > 0)
    return f


def _cell(gamma, eps, n, m=15, d=20, L=3):
    return {"gamma": gamma, "eps": eps, "n": n, "m": m, "d": d, "L": L}


_CI = (
    _cell(0.8, 0.3, 400),    # printed bound 0.20 > 0, corrected < 0 (vacuous), 6LmE = 0.20
    _cell(0.8, 0.1, 3000),   # both bounds > 0, 6LmE = 0.25
    _cell(0.3, 0.2, 1500),   # printed bound < 0 (eps >= 0.088): vacuous (C15)
    _cell(0.8, 0.3, 150),    # 6LmE > 1: vacuous
)
_STANDARD = _CI + (_cell(0.5, 0.1, 3000), _cell(1.0, 0.5, 200, L=4, d=30))

THEOREM = register(Theorem(
    id="shi2012.thm8",
    paper="shi2012",
    title="Theorem 8: multiclass margin >= -(1+3e)/(1-e^2) + sqrt(1-e^2)/(1+e) + A gamma w.p. >= 1 - 6LmE",
    citation=c.citation("Theorem 8 and its proof; Definition 7", "(5)"),
    statement=c.THM8_STATEMENT,
    kind="probabilistic",
    variants=(
        Variant("as_printed", "P(projected witness margin < gamma'_8) <= 6LmE(n,eps)", mode="bound",
                expected=_exp("as_printed"), promised_failure=_promised),
        Variant("corrected", "P(projected witness margin < -(1+7eps)/(1-eps^2) + sqrt(1-eps^2)/(1+eps) + A "
                             "gamma) "
                "<= 6LmE(n,eps) (I6)", mode="bound", expected=_exp("corrected"), promised_failure=_promised),
        Variant("per_point_structure", "all Lemma-10 events => every point's projected margin >= "
                "K + A c_y - B c_max, every draw", mode="deterministic", expected=c.H),
        Variant("printed_step", "all Lemma-10 events => projected margin >= gamma'_8 (the proof's last step)",
                mode="deterministic", expected=None,
                note="Not implied when wrong-class cosines are negative (I6); asserted VIOLATED on the C12 "
                     "construction (shi2012.thm8.final_step), reported here."),
    ),
    profiles=c.multiclass_profiles(_CI, _STANDARD),
    parameters=c.multiclass_parameters(c.EPS01),
    constraints=(c.L_LE_D,),
    trial=trial,
    tolerance=c.TOL,
    tolerance_note="float64 cosines; 1e-9 absolute",
    findings=(
        Finding(
            "I4-thm8",
            "Theorem 8 as printed is not violated empirically at any tested (n, eps): the true distortion "
            "~(1-c^2)/sqrt(n) is far below the slack.",
            evidence_variant="as_printed",
            location="Theorem 8",
            quote="-(1 + 3 eps)/(1 - eps^2) + sqrt(1 - eps^2)/(1 + eps) + ((1 + eps)/(1 - eps)) gamma",
            kind="observation",
        ),
    ),
))

