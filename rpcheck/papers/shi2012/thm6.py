r"""Theorem 6 of Shi et al. (2012) (binary normalised margin), witness version and the
stronger bound its proof gives (Theorem 6 and its proof; Definition 2).

Data (fixed per cell): ``m`` points in ``R^d`` with planted normalised margin ``gamma`` under the unit
witness ``u`` (:func:`rpcheck.generators.separable_dataset`, no bias; the minimum is attained, so
``gamma_u = gamma``). Per trial one Gaussian ``R`` (shared by all points, as in the proof) projects the points and
``u``.

- witness statistic ``gamma'_w = min_i y_i cos(Ru, R x_i)`` (what the proof bounds);
- the optimal-margin version (``gamma*(S')``, a certified SVM per draw) is shi2012.thm6.svm (module
  ``thm6_svm``).

Negative control ``witness_control`` (role control, mode bound, promised 0.05; expected VIOLATED): the
witness check of ``witness_as_printed`` with a planted fault, ``eps`` replaced by ``EPS_CONTROL = 1e-3`` in the
margin bound (``gamma_u - 2e-3/0.999``), claimed to fail with probability <= 0.05. Derivation: the event fails
whenever the point ``i*`` attaining ``gamma_u`` has ``cos(Ru, R y_i* x_i*) < gamma_u - 2.002e-3``; that cosine
has the exact Pearson-r law with ``rho = gamma_u`` and ``N = n + 1`` (:func:`rpcheck.papers.shi2012.bounds.
projected_cosine_cdf`), so the failure probability is >= 0.3779 in every cell of every profile (smallest at
gamma = 0.9, n = 800, m = 100; 0.418 at the ci cell (0.9, 0.3, 300), 0.455 at (0.3, 0.1, 2500)), and
``rpcheck.stats.violated_power("bound", T, 0.3779, 0.05, 0.01/500) = 1`` to 1e-14 for T >= 600.
"""

from __future__ import annotations

from ..._threads import single_threaded
from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, register
from . import _common as c
from . import bounds as B
from ._thm6 import PARAMS, STATEMENT, cell, data, promised, witness

__all__ = ["THEOREM", "trial", "EPS_CONTROL"]

#: eps of the negative control's margin bound (a planted fault: the bound nearly equals gamma_u)
EPS_CONTROL = 1e-3


@single_threaded(user_api="blas")
def trial(params, rng):
    eps = params["eps"]
    _, _, gu, _, gw, events = witness(params, rng)
    b_pr = B.thm6_margin_bound(gu, eps)
    b_pv = B.thm6_margin_bound(gu, eps, "as_proved")
    b_ctl = B.thm6_margin_bound(gu, EPS_CONTROL)
    out = {
        "witness_as_printed": Outcome(holds=gw >= b_pr, statistic=gw, bound=b_pr, vacuous=b_pr <= 0),
        "witness_as_proved": Outcome(holds=gw >= b_pv, statistic=gw, bound=b_pv, vacuous=b_pv <= 0),
        "proof_structure": Outcome(holds=gw >= b_pv - c.TOL, statistic=gw, bound=b_pv - c.TOL,
                                   vacuous=not events),
        "witness_control": Outcome(holds=gw >= b_ctl, statistic=gw, bound=b_ctl),
    }
    return TrialRecord(outcomes=out, diagnostics={"gamma_witness_proj": gw, "events": float(events),
                                                  "gamma_u": gu})


def _exp(form):
    def f(p):
        gu = data(p["m"], p["d"], p["gamma"])[3]
        return c.expect_bound(promised(p), applies=B.thm6_margin_bound(gu, p["eps"], form) > 0)
    return f


_CI = (
    cell(0.9, 0.3, 300), cell(0.9, 0.3, 432), cell(0.6, 0.2, 700), cell(0.3, 0.1, 2500),
    cell(0.6, 0.3, 432),    # printed bound < 0 (eps >= gamma/(2+gamma)); proved bound 0.257 > 0 (I5)
    cell(0.9, 0.3, 100),    # promised 6mE > 1: vacuous (C15), n = n_min/2.7
    cell(0.3, 0.3, 300),    # both margin bounds <= 0: vacuous
)
_QUICK = (cell(0.9, 0.3, 300), cell(0.6, 0.3, 432))
_STANDARD = _CI + (cell(0.9, 0.3, 66), cell(0.6, 0.1, 2052), cell(0.9, 0.2, 800, m=100, d=60))
_VARIANTS = (
    Variant("witness_as_printed", "P(min_i y_i cos(Ru, R x_i) < gamma - 2eps/(1-eps)) <= 6mE(n,eps)",
            mode="bound", expected=_exp("as_printed"), promised_failure=promised),
    Variant("witness_as_proved", "P(min_i y_i cos(Ru, R x_i) < A gamma - 2eps/(1-eps)) <= 6mE(n,eps) (I5)",
            mode="bound", expected=_exp("as_proved"), promised_failure=promised),
    Variant("proof_structure", "all Lemma-10 events for u, x_i, y_i xhat_i - u => witness margin >= "
            "A gamma - 2eps/(1-eps), every draw", mode="deterministic", expected=c.H),
    Variant("witness_control", "negative control: the witness check with eps = 1e-3 planted in the margin bound, "
            "P(min_i y_i cos(Ru, R x_i) < gamma - 2e-3/0.999) <= 0.05 (exactly >= 0.377)", mode="bound",
            expected=c.V, promised_failure=0.05, role="control"),
)


THEOREM = register(Theorem(
    id="shi2012.thm6",
    paper="shi2012",
    title="Theorem 6: projected normalised margin >= gamma - 2eps/(1-eps) w.p. >= 1 - 6mE(n,eps) (witness)",
    citation=c.citation("Theorem 6 and its proof", "Definition 2"),
    statement=STATEMENT,
    kind="probabilistic",
    variants=_VARIANTS,
    profiles={
        "quick": Profile(cells=_QUICK, trials=600),
        "ci": Profile(cells=_CI, trials=700),
        "standard": Profile(cells=_STANDARD, trials=3000),
        "full": Profile(cells=_STANDARD, trials=20000),
    },
    parameters=PARAMS,
    trial=trial,
    tolerance=c.TOL,
    tolerance_note="float64 cosines; 1e-9 absolute",
    findings=(
        Finding(
            "I5",
            "Theorem 6 is weaker than its proof: the proof gives A gamma - 2eps/(1-eps) = gamma - "
            "2eps(1-gamma)/(1-eps), non-vacuous for eps < gamma/(2-gamma) instead of gamma/(2+gamma); the stronger "
            "bound holds at the promised rate (e.g. gamma = 0.6, eps = 0.3, where the printed bound is negative).",
            evidence_variant="witness_as_proved",
            location="Theorem 6 and its proof",
            quote="the dataset S' ... is linearly separable by margin gamma - 2 eps/(1 - eps)",
            kind="observation",
        ),
        Finding(
            "I4-thm6",
            "Conservative union bound: 6m charged where (4m+2) Lemma-10 events suffice, and no failure of the "
            "printed bound is observed even at n far below the threshold.",
            evidence_variant="witness_as_printed",
            location="Theorem 6 (n threshold) and its proof",
            quote="n > 12/(3 eps^2 - 2 eps^3) ln(6m/delta)",
            kind="observation",
        ),
    ),
))

