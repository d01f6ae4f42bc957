r"""The chi-square step behind Theorem 3's bound (Zhang et al. 2013): the exact law of the event it needs.

What the paper prints: Theorem 3 (Section 4.1), "||w^ - w*||_2 >= (1/2) sqrt((d - r)/m) (1 - eps sqrt(2(1 +
eps))/(1 - eps)) ||w*||_2, provided the condition on m in Theorem 2 holds", with a probability whose value is
not legible in the available text of the paper (its inline formulas are lost; rpcheck's ``zhang2013.thm3``
records its assumed value), and no proof (Section 5 proves Theorems 2 and 5). So neither the event below
nor its probability is printed: both are rpcheck's derivation [D] of how the printed bracket can arise.

Derivation. ``B = U_perp^T R_paper`` ((d - r) x m, N(0, 1) entries) is independent of ``z*``, which depends
on ``R`` only through ``U^T R`` (the data lie in span(U)), so conditionally on ``z*``,
``||B z*||^2 / ||z*||^2 ~ chi2_{d-r}`` exactly. With ``||w^ - w*|| >= ||B z*|| / sqrt(m)`` and
``sqrt(m) ||z*|| >= sqrt(m (1 - eps)) [1 - eps sqrt(2(1 + eps))/(1 - eps)] ||w*||`` the printed bound follows
when ``||B z*|| >= sqrt(d - r) ||z*|| / (2 sqrt(1 - eps))``, an event that fails with probability exactly
``p = chi2.cdf((d - r)/(4 (1 - eps)), d - r)``.

Variants (mode "exact": the per-trial failure count is tested against ``Bin(trials, p)``, two-sided)
    ``corrected`` (claim of the derivation): the needed event fails with probability
    ``chi2.cdf((d - r)/(4 (1 - eps)), d - r)``. Expected HOLDS where the equivalence test (Clopper-Pearson
    bounds inside ``[p/1.25, 1.25 p]`` at level 0.01/500) has power >= 0.99 at the fewest trials of any
    profile with the cell: d - r = 1 (p = 0.4597 at eps = 1/3: power 1.0000 at 2000 trials; 0.4363 at
    eps = 1/4: 1.0000 at 4000) and d - r = 2 at 4000 trials (p = 0.3127, 0.2835: power 1.0000); elsewhere
    reported (d - r = 8: power 0.0000 at 2000 trials, 0.9999 at 20,000; d - r = 400: p ~ 1e-32, the
    equivalence region is unreachable at any size).
    ``half_threshold_law`` (self-check; the negative control of ``corrected`` where powered): the same
    needed event tested against the law of the weaker event ``||B z*|| >= sqrt(d - r) ||z*|| / 2``,
    ``chi2.cdf((d - r)/4, d - r)`` (it drops the ``sqrt(1 - eps)``). Expected VIOLATED where the central test
    has power >= 0.999 (d - r = 8: p = 0.0656 vs 0.0190, power 0.9997 at 1000 trials; d - r = 12: 0.0274 vs
    0.0045, 1.0000 at 2000; d - r = 1: 0.4597 vs 0.3829, 0.9965 at 2000 trials and 1.0000 at 3,000, the fewest
    any profile runs that cell with); else reported (d - r = 400: both ~0).
    ``half_threshold_event`` (self-check): that weaker event with its own law ``chi2.cdf((d - r)/4, d - r)``,
    correct for it (HOLDS where the equivalence test has the power above), but it does not give the bracket.

Statistic = ``m ||(I - U U^T) R z||^2 / ||z||^2`` (the chi-square variable), bound = the threshold.
Square loss (closed form, exact): the law does not depend on the loss.
"""

from __future__ import annotations

from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ._common import RANK_CONSTRAINT, cite, recovery_parameters, single_threaded
from ._recovery import draw
from .bounds import thm3_chi2_failure
from .thm3 import D_ABOVE_R, naive_quantities

__all__ = ["THEOREM", "trial"]

THEOREM_ID = "zhang2013.thm3.chi2"


@single_threaded
def trial(params, rng):
    d, r, eps = int(params["d"]), int(params["r"]), float(params["eps"])
    dr = draw(params, rng, keep_R=True)
    _, n_perp, nz = naive_quantities(dr)
    q = dr.m * n_perp**2 / nz**2  # ~ chi2_{d-r}
    t_corr = (d - r) / (4.0 * (1.0 - eps))
    t_half = (d - r) / 4.0
    out = {
        "corrected": Outcome(bool(q >= t_corr), q, t_corr),
        "half_threshold_law": Outcome(bool(q >= t_corr), q, t_corr),
        "half_threshold_event": Outcome(bool(q >= t_half), q, t_half),
    }
    return TrialRecord(outcomes=out, diagnostics={"chi2_stat": q, "eps_R": dr.eps_R})


#: Per-row level of the derivations (the pytest plugin's Bonferroni split of 0.01 over <= 500 rows).
ROW_LEVEL = 0.01 / 500


def violated_power(n, p0, p, level=ROW_LEVEL):
    """P(the central two-sided exact test of ``p = p0`` rejects at ``level``) when the true rate is ``p``
    (:func:`rpcheck.stats.violated_power`)."""
    from ...stats import violated_power as vp

    return float(vp("exact", n, p, p0, level))


def equivalence_power(n, p0, level=ROW_LEVEL):
    """P(the equivalence test says HOLDS) when the true rate is ``p0`` (:func:`rpcheck.stats.holds_power`:
    Clopper-Pearson bounds inside ``[p0/1.25, 1.25 p0]``, rules of :mod:`rpcheck.stats`)."""
    from ...stats import holds_power

    return float(holds_power("exact", n, p0, p0, level))


def _expected_exact(form, event):
    """Expected verdict from an exact power computation at the fewest trials of any profile with the cell.

    ``event``: the event whose failure the trial counts ("corrected": the needed event; "half_threshold": the
    weaker one), failing with probability ``thm3_chi2_failure(..., form=event)`` exactly. Against the
    promised ``form``: where the two laws agree, HOLDS where the equivalence test has power >= 0.99 at level
    0.01/500, else reported (None); where they differ, VIOLATED where the central test has power >= 0.999,
    else reported (the numbers per cell are in the module docstring).
    """

    def f(params):
        d, r, eps = int(params["d"]), int(params["r"]), float(params["eps"])
        n = _TRIALS_FOR.get(tuple(sorted(params.items())), 1000)
        p_true = thm3_chi2_failure(eps, d, r, form=event)
        p0 = thm3_chi2_failure(eps, d, r, form=form)
        if p0 == p_true:
            return Verdict.HOLDS if equivalence_power(n, p0) >= 0.99 else None
        return Verdict.VIOLATED if violated_power(n, p0, p_true) >= 0.999 else None

    return f


def _cells(ds, eps, r=3, m=6, n=40):
    return grid(n=n, d=list(ds), r=r, m=m, eps=list(eps), lam=1.0, loss="square")


def _p(form):
    return lambda p: thm3_chi2_failure(float(p["eps"]), int(p["d"]), int(p["r"]), form=form)


PROFILES = {
    # quick: d - r = 1, where `corrected` is asserted (equivalence power 1.0000 at 2000 trials), and d - r = 8,
    # where the control is refuted (power 0.9997 at 1000 trials); about 4 ms a trial. The cheap-exact-row rule
    # (docs/adding-a-theorem.md, "profiles") runs d - r = 1 at 3,000 trials, the smallest multiple of 100 at
    # which both expected-HOLDS exact rows miss HOLDS with probability <= 1e-5 at the level 0.9 * 0.01 / 2000
    # (1 - holds_power("exact", T, p0, p0, 4.5e-6)): half_threshold_event (p0 = 0.3829) 5.5e-6 (1.2e-5 at
    # 2,900), corrected (p0 = 0.4597) 3.4e-9. Expected verdicts are those of the fewest trials of the cell.
    "quick": Profile(_cells([4, 11], [1 / 3]), trials=2000, more_trials=(({"d": 4}, 3000),)),
    # ci: 2000 trials so that the control at d - r = 12 is refuted with power >= 0.999 (0.987 at 1000); d - r = 1
    # at 3,000 by the same rule as quick (at 2,000 the miss probability is 2.7e-3)
    "ci": Profile(_cells([4, 11, 15, 403], [1 / 3]), trials=2000, more_trials=(({"d": 4}, 3000),)),
    "standard": Profile(_cells([4, 5, 11, 15, 23, 43, 403], [1 / 4, 1 / 3]), trials=4000),
    "full": Profile(_cells([4, 5, 11, 15, 23, 43, 103, 403], [1 / 4, 1 / 3]), trials=20000),
}

_TRIALS_FOR = {}
for _prof in PROFILES.values():
    for _c in _prof.cells:
        _k = tuple(sorted(_c.items()))
        _TRIALS_FOR[_k] = min(_TRIALS_FOR.get(_k, _prof.trials_for(_c)), _prof.trials_for(_c))

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Thm 3, derived step: P(||B z*|| < sqrt(d-r)||z*||/(2 sqrt(1-eps))) = chi2.cdf((d-r)/(4(1-eps)), d-r)",
        citation=cite("Theorem 3 (proof)", "(10)"),
        statement="Conditionally on z*, ||B z*||^2/||z*||^2 ~ chi2_{d-r}; the proof needs "
        "||B z*|| >= sqrt(d-r)||z*||/(2 sqrt(1-eps)) for Theorem 3's printed bound (rpcheck's derivation [D]; "
        "the paper prints no proof of Theorem 3).",
        kind="probabilistic",
        variants=(
            Variant(
                "corrected",
                "P(fail) = chi2.cdf((d-r)/(4(1-eps)), d-r) for the event the proof needs",
                mode="exact",
                expected=_expected_exact("corrected", "corrected"),
                promised_failure=_p("corrected"),
            ),
            Variant(
                "half_threshold_law",
                "the needed event against the weaker event's law: P(fail) = chi2.cdf((d-r)/4, d-r)",
                mode="exact",
                expected=_expected_exact("half_threshold", "corrected"),
                promised_failure=_p("half_threshold"),
                role="self-check",
                note="The negative control of `corrected` where the two laws are distinguishable (small d - r): "
                "the exact test must reject a wrong law. Not a control by role, since it is reported where they "
                "are not (d - r = 400: both ~0).",
            ),
            Variant(
                "half_threshold_event",
                "P(||B z*|| < sqrt(d-r)||z*||/2) = chi2.cdf((d-r)/4, d-r)",
                mode="exact",
                expected=_expected_exact("half_threshold", "half_threshold"),
                promised_failure=_p("half_threshold"),
                role="self-check",
            ),
        ),
        profiles=PROFILES,
        parameters=recovery_parameters(eps_high=1 / 3),
        constraints=(RANK_CONSTRAINT, D_ABOVE_R),
        trial=trial,
        tolerance=0.0,
        tolerance_note="Exact law; the comparison with the threshold has no tolerance.",
        findings=(
            Finding(
                "thm3-chi2-correction",
                "The paper prints Theorem 3's bound without a proof, and its probability is not legible in the "
                "available text. rpcheck derives the bound from ||w^ - w*|| >= ||B z*||/sqrt(m) with B = "
                "U_perp^T R independent of z*: the factor 1/2 needs ||B z*|| >= sqrt(d-r)||z*||/(2 sqrt(1-eps)), "
                "which fails with probability exactly chi2.cdf((d-r)/(4(1-eps)), d-r) (variant corrected), not "
                "the weaker event's chi2.cdf((d-r)/4, d-r) (control half_threshold_law, refuted at small d-r). "
                "Both are far below the exp(-(d-r)/32) a Gaussian-Lipschitz argument gives for d-r >= 2.",
                evidence_variant="corrected",
                location="Theorem 3 (Section 4.1); its proof is not in the paper's Section 5",
                quote="||w^ - w*||_2 >= (1/2) sqrt((d - r)/m) (1 - eps sqrt(2(1 + eps))/(1 - eps)) ||w*||_2",
                kind="observation",
            ),
        ),
    )
)
