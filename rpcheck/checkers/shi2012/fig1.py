r"""Figure 1 of Shi et al. (2012): the unnormalised margin is not preserved (Section 2.1, Figure 1 and its
caption).

Points ``(+-a, +-1)`` labelled by the sign of the second coordinate; ``R`` is ``1 x 2``. The projected 1-D
data are separable (with or without threshold) iff ``|r2| > a |r1|``; for a rotation-invariant (Gaussian)
row this has probability ``(2/pi) arctan(1/a)``, while the D1 margin stays 1 and the D2 margin is
``1/sqrt(1+a^2)``. The pitfall variant uses i.i.d. Uniform[-1, 1] entries (rate ``1/(2a)``): that "uniform"
matrix is drawn here directly because it is not a sketch of the library, it is the misreading under test.

Measurement rows (mode "report", role "measurement", no verdict), for the report's Paper vs rpcheck table:
``separable_rate`` (shi2012.fig1: the Gaussian separable rate with its binomial standard error beside the
paper's "angle between the dashed lines / pi", = (2/pi) arctan(1/a) for the spread points) and
``margins_vs_paper`` (shi2012.fig1.margins: the D1 margin beside the paper's "unchanged", 1).
"""

from __future__ import annotations

import numpy as np

from ..._threads import single_threaded
from ...bounds import shi2012 as B
from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, grid, register
from ...svm import normalized_margin
from . import _common as c

__all__ = ["FIG1", "FIG1_MARGINS"]


def _points(a):
    X = np.array([[-a, 1.0], [a, 1.0], [-a, -1.0], [a, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    return X, y


def _separable_1d(p, y):
    """1-D points p with labels y are separable (with a threshold) iff the classes' ranges do not overlap."""
    pos, neg = p[y > 0], p[y < 0]
    return bool(pos.min() > neg.max() or neg.min() > pos.max())


@single_threaded(user_api="blas")
def _trial(params, rng):
    a = params["a"]
    X, y = _points(a)
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


def _decide(records, params):
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


@single_threaded(user_api="blas")
def _margins_trial(params, rng):
    a = params["a"]
    X, y = _points(a)
    # D2 margin of the original data (no-bias SVM on normalised points) must equal 1/sqrt(1+a^2): the solver
    # certificate [margin_lower, margin_upper] must contain it (plus 1e-7 for the solver's KKT accuracy).
    m0 = normalized_margin(X, y)
    want = B.fig1_normalized_margin(a)
    # equality claim: certified when the certificate contains `want` and is narrower than 2e-6; a certificate that
    # contains it but is wider cannot decide equality to 1e-6 (undetermined); one that excludes it is a failure
    inside0 = m0.margin_lower - 1e-7 <= want <= m0.margin_upper + 1e-7
    narrow0 = (m0.margin_upper - m0.margin_lower) <= 2e-6
    ok0 = inside0 and narrow0 and abs(m0.margin - want) <= 1e-6
    und0 = inside0 and not narrow0
    p = c.project(X, 1, rng)[:, 0]
    sep = bool(np.all(y * p > 0) or np.all(y * p < 0))
    # in 1-D every normalised point is +-1: a separable projection has D2 margin exactly 1, else <= 0
    mp = normalized_margin(p[:, None], y)
    ok1 = (abs(mp.margin - 1.0) <= 1e-6) if sep else (mp.margin <= 1e-9 and not mp.separable)
    out = {
        "original_d2_margin": Outcome(holds=bool(ok0), statistic=float(m0.margin), bound=want,
                                      undetermined=bool(und0)),
        "projected_d2_margin": Outcome(holds=bool(ok1), statistic=float(mp.margin),
                                       bound=1.0 if sep else 0.0),
        "d1_margin_unchanged": Outcome(holds=abs(float(np.min(y * X[:, 1])) - 1.0) <= 1e-12,
                                       statistic=float(np.min(y * X[:, 1])), bound=1.0),
        "margins_vs_paper": Outcome(holds=True, statistic=float(np.min(y * X[:, 1]))),  # built by _margins_decide
    }
    return TrialRecord(outcomes=out, diagnostics={"separable": float(sep)})


def _margins_decide(records, params):
    """Paper vs rpcheck for the ``margins_vs_paper`` measurement row (no verdict): the unnormalised margin
    the paper says is unchanged by the spreading (1, the margin of its printed points (+-1, +-1) about the
    horizontal axis) beside ours at this spread; the no-bias separable rate of the projections is listed
    (its comparison with the paper is shi2012.fig1's)."""
    d1 = [rec.outcomes["d1_margin_unchanged"].statistic for rec in records]
    sep = np.array([rec.diagnostics["separable"] for rec in records], dtype=float)
    n = sep.size
    rate = float(sep.mean()) if n else None
    return {}, {
        "data": f"the 4 points of Fig. 1 spread to (+-{params['a']:g}, +-1)",
        "protocol": f"{n} Gaussian 1 x 2 projections; margin about the horizontal axis u = (0, 1) (D1, "
                    "Definition 1); no solver for this row",
        # Sec. 2.1: "if we push x to infinitely far away, the angle reduces to 0 while keeping the original
        # margin gamma unchanged" -- the printed points (+-1, +-1) have margin 1 about the horizontal axis
        "paper_d1_margin": 1.0,
        "d1_margin": float(min(d1)) if d1 else None,
        "projected_separable_rate": rate,  # the paper's sentence on it is compared in shi2012.fig1's rows
    }


_A = [1.0, 2.0, 5.0, 10.0, 100.0]
_A_CI = [0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 100.0]

_PROFILES = {
    # 1300 quick trials: the equivalence test at a = 1 (p0 = 0.5) has power 0.998 (0.975 at the former 1000);
    # ci: at the exact p0 the Gaussian row at a = 3 (p0 = 0.795) has power 0.9952 with 4000 trials at the earlier
    # audit level and the uniform row up to a = 2 0.9994; at the pooled upper end and the suite level (below)
    # 4000 gave 0.973, hence 4600.
    "quick": Profile(cells=grid(a=[1.0, 5.0]), trials=1300),
    # Power (ci) at the suite-wide level: the default test run is one family of M = 636 statistical rows, whose first
    # Holm step is 0.01/M = 1.6e-5; audited at 1.4e-5 = 0.01/700 for headroom. Pilot = `rpcheck calibrate --profile ci
    # --seeds 41-52` (41-44 at de7c855, 45-52 at 60113e9; tests/bench/power_audit.py --level 1.4e-5).
    # separability_gaussian (a = 3, an equivalence test) pooled 38144/48000, p_hi = 0.8;
    # rpcheck.stats.holds_power('exact', n, p_hi, 0.7952, 1.4e-5) is 0.973 at the old 4000 trials and 0.990 at n =
    # 4600. Fresh-seed confirmation: PROFILES.md, "Calibration".
    "ci": Profile(cells=grid(a=_A_CI), trials=4600),
    "standard": Profile(cells=grid(a=_A_CI), trials=20000),
    "full": Profile(cells=grid(a=_A_CI + [1000.0]), trials=200000),
}


def _exact_expected(promised):
    # Expected HOLDS only where the equivalence test has power >= 0.99 at level 0.01/500 (exact binomial,
    # c.equivalence_power) with the fewest trials the cell runs with; else reported. Computed at ci (4000
    # trials): Gaussian a = 0.5..3: >= 0.9952, a = 5 (p0 = 0.874): 0.77, a = 10, 100: 0.0000 (1 - p0 = 0.063,
    # 0.0064: 0.99 needs 15,700 and 147,000 trials); uniform a = 0.5..2: >= 0.9998, a = 3 (p0 = 0.833): 0.96,
    # a = 5: 0.43, a >= 10: 0.0000. Quick (1300): a = 1: 0.998; a = 5: 0.0000.
    def f(p):
        return c.expect_exact(promised(p), c.smallest_trials(_PROFILES, p))
    return f


def _p_gauss(p):
    return 1.0 - B.fig1_separable_probability(p["a"])


def _p_unif(p):
    return 1.0 - B.fig1_uniform_separable_probability(p["a"])


FIG1 = register(Theorem(
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
    decide=_decide,
    profiles=_PROFILES,
    parameters={"a": c.FLOAT(0.0, None, closed="neither", doc="spread of the Figure-1 points (+-a, +-1)")},
    trial=_trial,
    findings=(
        Finding("fig1-confirmed", "The Figure-1 construction behaves as described: the separability rate "
                                  "equals "
                "(2/pi) arctan(1/a) = (2/pi) arcsin(gamma_D2), i.e. 'angle between dashed lines / pi', "
                "which -> 0.",
                evidence_variant="separability_gaussian", spec_ref="Section 2.1, Figure 1"),
        Finding("fig1-uniform", "With 'uniform' read as i.i.d. Uniform[-1,1] entries the rate is 1/(2a), "
                                "not angle/pi: "
                "the claim needs a rotation-invariant direction.",
                evidence_variant="separability_uniform_entries",
                spec_ref="Section 2.1, Figure 1 ('uniform' R)"),
    ),
))


FIG1_MARGINS = register(Theorem(
    id="shi2012.fig1.margins",
    paper="shi2012",
    title="Figure 1 margins: D1 margin 1 for every a, D2 margin 1/sqrt(1+a^2); projected D2 margin 1 or <= 0",
    citation=c.citation("Section 2.1, Figure 1; Definitions 1 and 2", "(1)"),
    statement="Spreading the Figure-1 data keeps the unnormalised margin at 1 while the normalised margin "
              "shrinks.",
    kind="deterministic",
    variants=(
        Variant("original_d2_margin", "gamma*_D2 = 1/sqrt(1+a^2) (no-bias SVM on normalised points, "
                                      "certified)",
                mode="deterministic", expected=c.H),
        Variant("projected_d2_margin", "1-D projection: D2 margin = 1 if separable, <= 0 otherwise",
                mode="deterministic", expected=c.H),
        Variant("d1_margin_unchanged", "D1 margin with u = (0,1) equals 1 for every a", mode="deterministic",
                expected=c.H, role="self-check"),
        Variant("margins_vs_paper", "measurement: the margin and separable rate beside the paper's statements "
                "(Paper vs rpcheck table)", mode="report", expected=None, role="measurement"),
    ),
    decide=_margins_decide,
    profiles={
        # >= 90 draws per cell: a deterministic HOLDS needs them (rules v2); each trial is two SVMs on 4 points
        "quick": Profile(cells=grid(a=[2.0]), trials=90),
        "ci": Profile(cells=grid(a=[1.0, 5.0, 100.0]), trials=90),
        "standard": Profile(cells=grid(a=_A), trials=200),
        "full": Profile(cells=grid(a=_A + [1000.0]), trials=1000),
    },
    parameters={"a": c.FLOAT(0.0, None, closed="neither", doc="spread of the Figure-1 points (+-a, +-1)")},
    trial=_margins_trial,
    tolerance=1e-6,
    tolerance_note="solver certificate: margin_lower/margin_upper bracket plus 1e-7 KKT accuracy",
))
