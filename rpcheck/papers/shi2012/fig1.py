r"""Figure 1 of Shi et al. (2012): the unnormalised margin is not preserved (Section 2.1, Figure 1 and its
caption).

Points ``(+-a, +-1)`` labelled by the sign of the second coordinate; ``R`` is ``1 x 2``. The projected 1-D
data are separable (with or without threshold) iff ``|r2| > a |r1|``; for a rotation-invariant (Gaussian)
row this has probability ``(2/pi) arctan(1/a)``, while the D1 margin stays 1 and the D2 margin is
``1/sqrt(1+a^2)``. The pitfall variant uses i.i.d. Uniform[-1, 1] entries (rate ``1/(2a)``): that "uniform"
matrix is drawn here directly because it is not a sketch of the library, it is the misreading under test.

Measurement row (mode "report", role "measurement", no verdict), for the report's Paper vs rpcheck table:
``separable_rate`` (the Gaussian separable rate with its binomial standard error beside the paper's "angle
between the dashed lines / pi", = (2/pi) arctan(1/a) for the spread points). The margins of the same
construction are shi2012.fig1.margins (module ``fig1_margins``).
"""

from __future__ import annotations

import numpy as np

from ..._threads import single_threaded
from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, grid, register
from . import _common as c
from . import bounds as B

__all__ = ["THEOREM", "trial", "decide", "PAPER_FIG1"]


def _separable_1d(p, y):
    """1-D points p with labels y are separable (with a threshold) iff the classes' ranges do not overlap."""
    pos, neg = p[y > 0], p[y < 0]
    return bool(pos.min() > neg.max() or neg.min() > pos.max())


@single_threaded(user_api="blas")
def trial(params, rng):
    a = params["a"]
    X, y = c.fig1_points(a)
    p = c.project(X, 1, rng)[:, 0]
    sep = _separable_1d(p, y)
    sep_nobias = bool(np.all(y * p > 0) or np.all(y * p < 0))
    U = rng.uniform(-1.0, 1.0, size=2)
    sep_u = _separable_1d(X @ U, y)
    out = {
        "separability_gaussian": Outcome(holds=sep, statistic=float(sep),
                                         bound=B.fig1_separable_probability(a)),
        "separability_uniform_entries": Outcome(holds=sep_u, statistic=float(sep_u),
                                                bound=B.fig1_uniform_separable_probability(a)),
        "bias_irrelevant": Outcome(holds=sep == sep_nobias, statistic=float(sep), bound=float(sep_nobias)),
        "separable_rate": Outcome(holds=True, statistic=float(sep)),  # measurement: built by _decide
    }
    return TrialRecord(outcomes=out, diagnostics={"p_min_gap": float(np.min(np.abs(p)))})


#: Section 2.1 (Figure 1): "If R is chosen randomly from a uniform distribution then probability that the
#: projected data is linearly separable (by a positive margin) is the angle separating the dashed lines divide
#: by pi"; the dashed lines pass through the points (+-a, +-1), so the angle is 2 arctan(1/a) and the paper's
#: value is (2/pi) arctan(1/a) (1/2 for the printed points, a = 1). The text gives no other number.
PAPER_FIG1 = "angle between the dashed lines / pi (Sec. 2.1, Fig. 1), = (2/pi) arctan(1/a) for the points (+-a, +-1)"


def decide(records, params):
    """Paper vs rpcheck for the ``separable_rate`` measurement row (no verdict; the exact-law rows are decided
    by the engine): the measured rate of separable projections (Gaussian row, with its binomial standard
    error) beside the paper's angle / pi at this spread."""
    sep = np.array([rec.outcomes["separability_gaussian"].holds for rec in records], dtype=float)
    n = sep.size
    rate = float(sep.mean()) if n else None
    se = float(np.sqrt(rate * (1 - rate) / n)) if n > 1 else None
    return {}, {
        "data": f"the 4 points of Fig. 1 spread to (+-{params['a']:g}, +-1), labels by the second coordinate",
        "protocol": f"{n} Gaussian 1 x 2 projections (rotation-invariant direction); separable = the projected "
                    "classes' ranges do not overlap; no solver",
        "paper_note": PAPER_FIG1,
        "paper_separable_rate": B.fig1_separable_probability(params["a"]),
        "separable_rate": rate,
        "separable_rate_se": se,
    }



_A_CI = [0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 100.0]

_PROFILES = {
    # 1300 quick trials: the equivalence test at a = 1 (p0 = 0.5) has power 0.998 (0.975 at 1000) at level
    # 0.01/500. The cheap-exact-row rule (docs/adding-a-theorem.md, "profiles") runs that cell 2,000 trials, the
    # smallest multiple of 100 at which both exact rows (p0 = 1/2) miss HOLDS with probability <= 1e-5 at
    # c.SUITE_LEVEL: 1 - holds_power("exact", 2000, 0.5, 0.5, c.SUITE_LEVEL) = 5.5e-6 (1.4e-5 at 1,900).
    # ci: at the exact p0 the Gaussian row at a = 3 (p0 = 0.795) has power 0.9952 with 4000 trials at level 1e-4 and the
    # uniform row up to a = 2 0.9994; at the pooled upper end and the suite level (below) 4000 give 0.973, hence 4600.
    "quick": Profile(cells=grid(a=[1.0, 5.0]), trials=1300, more_trials=(({"a": 1.0}, 2000),)),
    # Power (ci) at the suite-wide level: the default test run is one family of M = 636 statistical rows, whose first
    # Holm step is 0.01/M = 1.6e-5; audited at 1.4e-5 = 0.01/700 for headroom. Pilot = `rpcheck calibrate --profile ci
    # --seeds 41-52` (tests/bench/power_audit.py --level 1.4e-5).
    # separability_gaussian (a = 3, an equivalence test) pooled 38144/48000, p_hi = 0.8;
    # rpcheck.stats.holds_power('exact', n, p_hi, 0.7952, 1.4e-5) is 0.973 at 4000 trials and 0.990 at n =
    # 4600. The cheap-exact-row rule at c.SUITE_LEVEL (as at quick) raises the cells with expected-HOLDS exact
    # rows: a = 0.5 and 2 (p0 = 0.295/0.25 and 0.705/0.75) to 5,300 (miss 9.3e-6; 1.1e-4 at 4,600) and a = 3 to
    # 8,700 (the Gaussian row, p0 = 0.795, 3.0e-3 at 4,600; the uniform-entries row, p0 = 0.833, is asserted from
    # 6,800 trials on and needs 8,700: miss 9.8e-6); anytime stopping ends each cell once decided.
    # Fresh-seed confirmation: PROFILES.md, "Calibration".
    "ci": Profile(cells=grid(a=_A_CI), trials=4600, more_trials=(({"a": 0.5}, 5300), ({"a": 2.0}, 5300),
                                                                  ({"a": 3.0}, 8700))),
    "standard": Profile(cells=grid(a=_A_CI), trials=20000),
    "full": Profile(cells=grid(a=_A_CI + [1000.0]), trials=200000),
}


def _exact_expected(promised):
    # Expected HOLDS only where the equivalence test has power >= 0.99 at level 0.01/500 (exact binomial,
    # c.equivalence_power) with the fewest trials the cell runs with; else reported. Computed at ci (4000
    # trials): Gaussian a = 0.5..3: >= 0.9952, a = 5 (p0 = 0.874): 0.77, a = 10, 100: 0.0000 (1 - p0 = 0.063,
    # 0.0064: 0.99 needs 15,700 and 147,000 trials); uniform a = 0.5..2: >= 0.9998, a = 3 (p0 = 0.833): 0.96,
    # a = 5: 0.43, a >= 10: 0.0000. Quick (2000 at a = 1, 1300 at a = 5): a = 1: 0.999999; a = 5: 0.0000.
    def f(p):
        return c.expect_exact(promised(p), c.smallest_trials(_PROFILES, p))
    return f


def _p_gauss(p):
    return 1.0 - B.fig1_separable_probability(p["a"])


def _p_unif(p):
    return 1.0 - B.fig1_uniform_separable_probability(p["a"])


THEOREM = register(Theorem(
    id="shi2012.fig1",
    paper="shi2012",
    title="Figure 1: P(projected 4-point data separable) = (2/pi) arctan(1/a) -> 0 while the D1 margin "
          "stays 1",
    citation=c.citation("Section 2.1, Figure 1", "Definition 1"),
    statement=(
        "Points (-1,1),(1,1) (+1) and (-1,-1),(1,-1) (-1), spread to (+-a, +-1); R in R^{1x2} random: the "
        "probability that the projected data are separable is the angle between the dashed lines over pi, "
        "which tends to 0 as a grows although the (unnormalised) margin is unchanged."
    ),
    kind="empirical",
    variants=(
        Variant("separability_gaussian", "P(not separable) = 1 - (2/pi) arctan(1/a) (Gaussian row)",
                mode="exact", expected=_exact_expected(_p_gauss), promised_failure=_p_gauss),
        Variant("separability_uniform_entries", "P(not separable) = 1 - 1/(2a) for i.i.d. U[-1,1] entries, "
                                                "a >= 1 "
                "(pitfall: not angle/pi)", mode="exact", expected=_exact_expected(_p_unif),
                promised_failure=_p_unif),
        Variant("bias_irrelevant", "separable with threshold <=> separable through the origin, every draw",
                mode="deterministic", expected=c.H, role="self-check"),
        Variant("separable_rate", "measurement: the separable rate beside the paper's angle / pi (Paper vs "
                "rpcheck table)", mode="report", expected=None, role="measurement"),
    ),
    decide=decide,
    profiles=_PROFILES,
    parameters=c.fig1_spread_param(),
    trial=trial,
    findings=(
        Finding(
            "fig1-confirmed",
            "The Figure-1 construction behaves as described: the separability rate equals (2/pi) arctan(1/a) = "
            "(2/pi) arcsin(gamma_D2), i.e. 'angle between dashed lines / pi', which -> 0.",
            evidence_variant="separability_gaussian",
            location="Section 2, Figure 1",
            quote="If R is chosen randomly from a uniform distribution then probability that the projected data is "
            "linearly separable (by a positive margin) is the angle separating the dashed lines divide by pi",
            kind="observation",
        ),
        Finding(
            "fig1-uniform",
            "With 'uniform' read as i.i.d. Uniform[-1,1] entries the rate is 1/(2a), not angle/pi: the claim needs a "
            "rotation-invariant direction.",
            evidence_variant="separability_uniform_entries",
            location="Section 2, Figure 1",
            quote="If R is chosen randomly from a uniform distribution",
            kind="ambiguity",
        ),
    ),
))

